"""Content edits of The Dungeon's Jewel (issue 34 item 1): loot items and dungeon tokens."""

from __future__ import annotations

import random

import pytest

from boardlab.engine import make
from boardlab.engine.content_edits import ContentEditError

SEEDS = range(25)


def watch(variant: str | None = None, **options) -> tuple[set[str], set[str]]:
    """Play seeded random games to the end; the items any seat ever held and the tokens ever drawn."""
    game = make("dungeons-jewel", players=2, variant=variant, options=options or None)
    items: set[str] = set()
    tokens: set[str] = set()
    for seed in SEEDS:
        state, rng = game.new_state(seed=seed), random.Random(seed)
        tokens.update(t for t in state.pile)
        for _ in range(3000):
            if state.is_over():
                break
            state.apply(rng.choice(state.legal_actions()))
            for held in state.items:
                items.update(held)
        # every drawn token is counted in the stats (token:<id>); items looted too (item:<id>)
        for key in game.stat_keys:
            if key.startswith("token:") and any(state.stats[game.stat_index[key] * game.players + s] for s in range(2)):
                tokens.add(key[6:])
    return items, tokens


def test_a_removed_item_is_never_looted():
    items, _ = watch()
    assert "gloves" in items  # the unedited game loots it on these seeds, so the check below can fail
    items, _ = watch("rulebook+without:item:gloves")
    assert "gloves" not in items and "helmet" in items
    game = make("dungeons-jewel", variant="without:item:gloves")
    assert "gloves" not in game.content.treasure_deck() and len(game.content.treasure_deck()) == 30


def test_a_removed_token_is_never_in_the_pile():
    game = make("dungeons-jewel", variant="without:token:trapdoor")
    assert "trapdoor" not in game.content.token_pile() and len(game.content.token_pile()) == 44
    for seed in range(5):
        assert "trapdoor" not in game.new_state(seed=seed).pile
    _, tokens = watch()
    assert "trapdoor" in tokens
    _, tokens = watch("without:token:trapdoor")
    assert "trapdoor" not in tokens and "monster" in tokens


def test_added_copies_and_replacements():
    game = make("dungeons-jewel", variant="rulebook+with:item:gloves*3+replace:token:wall=monster")
    deck, pile = game.content.treasure_deck(), game.content.token_pile()
    assert deck.count("gloves") == 5 and len(deck) == 35
    assert pile.count("wall") == 0 and pile.count("monster") == 13 and len(pile) == 48
    assert game.wall_item == "wall_spell"  # the item survives; only the token is gone


def test_a_new_item_and_changed_fields_play():
    edits = {"add": {"item:ring": {"name": "Ring of might", "effect": "attack", "count": 4}},
             "replace": {"item:fire_cloak": {"effect": "attack", "hazard": None}}}
    game = make("dungeons-jewel", players=2, options={"content_edits": edits})
    assert game.item_name["ring"] == "Ring of might"
    assert {"ring", "fire_cloak"} <= game.attack_items and "fire" not in game.cure
    assert game.content.treasure_deck().count("ring") == 4
    items, _ = watch(content_edits=edits)
    assert "ring" in items


def test_edits_are_validated_like_the_content_file():
    with pytest.raises(ContentEditError, match="dungeons-jewel has no item 'glove'; did you mean 'gloves'"):
        make("dungeons-jewel", variant="without:item:glove")
    with pytest.raises(Exception, match="item 'ring' has effect 'fly'"):
        make("dungeons-jewel", options={"content_edits": {"add": {"item:ring": {"effect": "fly"}}}})
    with pytest.raises(Exception, match="survives 'lava', which is not a token id"):
        make("dungeons-jewel", options={"content_edits": {"replace": {"item:fire_cloak": {"hazard": "lava"}}}})
