"""Content edits of Summoner's Quest (issue 34 item 1): the cards of the deck."""

from __future__ import annotations

import random

import pytest

from boardlab.engine import make
from boardlab.engine.content_edits import ContentEditError

SEEDS = range(12)


def watch(variant: str | None = None, **options) -> set[str]:
    """Play seeded random 2-player games to the end; every card id a hand ever held."""
    game = make("summoners-quest", players=2, variant=variant, options=options or None)
    seen: set[str] = set()
    for seed in SEEDS:
        state, rng = game.new_state(seed=seed), random.Random(seed)
        for _ in range(2500):
            for hand in state.hands:
                seen.update(hand)
            if state.is_over():
                break
            state.apply(rng.choice(state.legal_actions()))
    return seen


def test_a_removed_card_is_never_drawn():
    assert "fireball" in watch()  # drawn in the unedited game on these seeds: the check below can fail
    game = make("summoners-quest", players=2, variant="standard+without:card:fireball+without:card:Frost Giant")
    assert len(game.cards) == 98 and "fireball" not in game.cards and "frost_giant" not in game.cards
    assert game.config()["options"] == {"content_edits": {"remove": ["card:fireball", "card:frost_giant"]}}
    state = game.new_state(seed=0)
    assert "fireball" not in state.deck.draw_pile + [c for h in state.hands for c in h]
    seen = watch("without:card:fireball")
    assert "fireball" not in seen and "haste" in seen


def test_a_new_card_joins_the_deck_and_a_changed_card_plays_changed():
    imp = {"name": "Imp", "type": "summon", "lore": "Nordic", "cost": 1, "attack": 1, "life": 2, "move": "swift"}
    edits = {"add": {"card:imp": imp}, "replace": {"card:fireball": {"cost": 0, "effects": [["damage", 5]]}}}
    game = make("summoners-quest", players=2, options={"content_edits": edits})
    assert len(game.cards) == 101 and game.cards["imp"].move == "swift"
    assert game.cards["fireball"].cost == 0 and game.cards["fireball"].effects == (("damage", 5),)
    state = game.new_state(seed=0)
    assert "imp" in state.deck.draw_pile + [c for h in state.hands for c in h]
    assert "imp" in watch(content_edits=edits)


def test_card_edits_are_validated():
    with pytest.raises(ContentEditError, match="summoners-quest has no card 'fierball'; did you mean 'fireball'"):
        make("summoners-quest", variant="without:card:fierball")
    with pytest.raises(ContentEditError, match="one copy of each card"):
        make("summoners-quest", variant="with:card:fireball*2")
    with pytest.raises(Exception, match=r"\(imp\): 'type' must be one of"):
        make("summoners-quest", options={"content_edits": {"add": {"card:imp": {"name": "Imp", "type": "beast"}}}})
