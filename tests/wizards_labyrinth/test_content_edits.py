"""Content edits of The Wizard's Labyrinth (issue 34 item 1): wizard cards, loot cards and room tiles."""

from __future__ import annotations

import random

import pytest

from boardlab.engine import make
from boardlab.engine.content_edits import ContentEditError

SEEDS = range(10)


def watch(variant: str | None = None, **options) -> tuple[set[str], set[str], set[tuple[int, int]]]:
    """Play seeded random games to the end: the wizard cards the wizard ever held, the loot the heroes
    ever held, and the room tiles (draw, mana) ever laid on the grid."""
    game = make("wizards-labyrinth", variant=variant, options=options or None)
    wizard: set[str] = set()
    loot: set[str] = set()
    rooms: set[tuple[int, int]] = set()
    for seed in SEEDS:
        state, rng = game.new_state(seed=seed), random.Random(seed)
        rooms.update(game.content.rooms[int(t[1:])] for t in state.tiles if t.startswith("r"))
        for _ in range(3000):
            wizard.update(state.whand)
            for hero in state.heroes:
                loot.update(hero.equipment)
                loot.update(hero.hand)
            if state.is_over():
                break
            state.apply(rng.choice(state.legal_actions()))
    return wizard, loot, rooms


def test_removed_cards_and_tiles_are_never_in_play():
    wizard, loot, rooms = watch()
    assert "Troll" in wizard and "Short Sword" in loot and (-1, -1) in rooms  # so the checks below can fail
    game = make("wizards-labyrinth", variant="final+without:card:Troll+without:loot:short-sword+without:room:-1/-1")
    assert game.config()["options"] == {"content_edits": {"remove": ["card:Troll", "loot:Short Sword", "room:-1/-1"]}}
    assert "Troll" not in game.deck_cards and "Short Sword" not in game.content.loot_deck
    assert (-1, -1) not in game.content.rooms and len(game.content.rooms) == 43
    wizard, loot, rooms = watch("final+without:card:Troll+without:loot:short-sword+without:room:-1/-1")
    assert "Troll" not in wizard and "Goblin" in wizard
    assert "Short Sword" not in loot and "Shield" in loot
    assert (-1, -1) not in rooms and (1, 1) in rooms


def test_added_and_replaced_content():
    edits = {"add": {"loot:Axe": {"type": "equipment", "slot": "sword", "combat": 3, "copies": 6},
                     "room:2/2": {"draw": 2, "mana": 2, "copies": 5}, "card:Dragon": 2},
             "replace": {"loot:Shield": {"save": 4}, "card:Orc": "Goblin"}}
    game = make("wizards-labyrinth", options={"content_edits": edits})
    c = game.content
    assert c.loot_deck.count("Axe") == 6 and c.loot_cards["Axe"].combat == 3 and c.loot_cards["Shield"].save == 4
    assert c.rooms.count((2, 2)) == 5 and len(c.rooms) == 52
    assert c.wizard_deck.count("Dragon") == 3 and c.wizard_deck.count("Orc") == 0 and c.wizard_deck.count("Goblin") == 7
    _, loot, rooms = watch(content_edits=edits)
    assert "Axe" in loot and (2, 2) in rooms


def test_edits_are_validated():
    with pytest.raises(ContentEditError, match=r"wizards-labyrinth has no room '3/3' \(known: 1/1, 1/-1"):
        make("wizards-labyrinth", variant="without:room:3/3")
    with pytest.raises(ContentEditError, match="a new room's fields make it '2/1', not '2/2'"):
        make("wizards-labyrinth", options={"content_edits": {"add": {"room:2/2": {"draw": 2, "mana": 1}}}})
    with pytest.raises(Exception, match="a 7x7 grid needs 47 room tiles, got 43 .*replace:room"):
        make("wizards-labyrinth", players=5, variant="without:room:-1/-1")
    with pytest.raises(Exception, match="equipment slot must be one of"):
        make("wizards-labyrinth", options={"content_edits": {"add": {"loot:Axe": {"type": "equipment"}}}})
