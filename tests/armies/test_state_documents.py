"""Armies state documents without a history are checked against the game's cards (issue 45, section 3):
``scripts/fuzz_states.py`` found documents with an item added to ``revealed`` accepted, then failing later."""

from __future__ import annotations

import json

import pytest

from boardlab.engine import State
from boardlab.engine.errors import SaveFileError

from ..engine.test_state_documents import _bare as bare_doc
from ..engine.test_state_documents import _played


def _bare(variant: str, decisions: int, seed: int = 3) -> dict:
    """A played position's document without history and digest: judged by its contents alone."""
    return bare_doc(_played("armies", decisions, seed, variant=variant))


@pytest.mark.parametrize("item", ["", "Teachings of Gnar", "no such card", None, 3])
def test_a_card_revealed_in_a_game_without_decks_is_refused(item):
    # the fuzzer's case: revealed=[""] in the chess variant (no decks) was accepted, and determinize() then
    # raised ValueError (list.remove) taking the revealed card out of an empty hand
    doc = _bare("chess", 12)
    assert doc["data"]["hands"] == [[], []]
    State.from_json(json.loads(json.dumps(doc)))  # unedited: loads
    doc["data"]["revealed"][0].append(item)
    with pytest.raises(SaveFileError, match="revealed"):
        State.from_json(doc)


def test_a_card_in_a_hand_of_a_game_without_decks_is_refused():
    doc = _bare("chess", 12)
    doc["data"]["hands"][1].append("Teachings of Gnar")
    with pytest.raises(SaveFileError, match="without decks"):
        State.from_json(doc)


@pytest.mark.parametrize("item", ["", "no such card", "Gnar"])
def test_a_revealed_name_that_is_no_card_is_refused(item):
    doc = _bare("standard", 30)
    hand = doc["data"]["hands"][0]
    assert hand, "the test needs a card in White's hand"
    # the name both in the hand and revealed (so the hand still holds every revealed card)
    hand.append(item)
    doc["data"]["revealed"][0].append(item)
    with pytest.raises(SaveFileError):
        State.from_json(doc)


def test_a_revealed_card_of_the_hand_still_loads():
    # a card returned from play is a real card of its hand: such a position is valid and loads
    doc = _bare("standard", 30)
    card = doc["data"]["hands"][0][0]
    doc["data"]["revealed"][0].append(card)
    state = State.from_json(doc)
    assert state.revealed[0] == [card]
    state.determinize(1, 5).legal_actions()
