"""Content edits of Armies (issue 34 item 1): cards, in the card table and in both decks."""

from __future__ import annotations

import random

import pytest

from boardlab.engine import make
from boardlab.engine.content_edits import ContentEditError

SEEDS = range(8)


def watch(variant: str | None = None, **options) -> set[str]:
    """Play seeded random games (up to 400 actions each); every card a hand ever held."""
    game = make("armies", variant=variant, options=options or None)
    seen: set[str] = set()
    for seed in SEEDS:
        state, rng = game.new_state(seed=seed), random.Random(seed)
        for _ in range(400):
            for hand in state.hands:
                seen.update(hand)
            if state.is_over():
                break
            state.apply(rng.choice(state.legal_actions()))
    return seen


def test_a_removed_card_leaves_both_decks_and_is_never_drawn():
    assert "Ambush" in watch()  # drawn in the unedited game on these seeds: the check below can fail
    game = make("armies", variant="standard+without:card:ambush")
    assert game.config()["options"] == {"content_edits": {"remove": ["card:Ambush"]}}
    assert [d.count("Ambush") for d in game.deck_lists] == [0, 0] and [len(d) for d in game.deck_lists] == [56, 56]
    state = game.new_state(seed=0)
    assert all("Ambush" not in d for d in state.decks)
    seen = watch("without:card:Ambush")
    assert "Ambush" not in seen and "Hold the Line" in seen


def test_added_copies_replacements_and_a_new_card():
    game = make("armies", variant="with:card:Mind Fog*2+replace:card:Ambush=Second Wind")
    assert [d.count("Mind Fog") for d in game.deck_lists] == [2, 2]
    assert [d.count("Ambush") for d in game.deck_lists] == [0, 0]
    assert [d.count("Second Wind") for d in game.deck_lists] == [8, 8]
    assert [len(d) for d in game.deck_lists] == [62, 62]
    new = {"type": "leader", "line": "Leader - Cavalry", "text": "A test leader.", "cost": "1G", "offense": 2, "copies": 3}
    edits = {"add": {"card:Test Rider": new}, "replace": {"card:Heavy Cavalry": {"cost": "5GG"}}}
    game = make("armies", options={"content_edits": edits})
    assert game.cards["Test Rider"].offense == 2 and game.cards["Heavy Cavalry"].cost == (5, 2, 0, 0, 0, 0)
    assert [d.count("Test Rider") for d in game.deck_lists] == [3, 3]
    assert "Test Rider" in watch(content_edits=edits)


def test_card_edits_are_validated():
    with pytest.raises(ContentEditError, match="armies has no card 'Ambsh'; did you mean 'Ambush'"):
        make("armies", variant="without:card:Ambsh")
    with pytest.raises(ContentEditError, match="no copy of card 'Mind Fog' is in play"):
        make("armies", variant="without:card:Mind Fog")  # only in the ethyr-shives deck
    make("armies", variant="witch-vs-cavalry+without:card:Mind Fog")
    with pytest.raises(ContentEditError, match="plays without cards"):
        make("armies", variant="chess+without:card:Ambush")
    with pytest.raises(Exception, match="card 'X' has type 'hero'"):
        make("armies", options={"content_edits": {"add": {"card:X": {"type": "hero"}}}})
