"""Labyrinth state documents without a history are checked against the game's tiles (issue 45, section 3):
``scripts/fuzz_states.py`` found documents with a tile id set to a string that is no tile (on the grid or in
``tile_pool``) accepted, then failing later (an IndexError or ValueError reading the tile)."""

from __future__ import annotations

import json
import random

import pytest

from boardlab.engine import State, make
from boardlab.engine.errors import SaveFileError

from ..engine.test_state_documents import _bare as bare_doc
from ..engine.test_state_documents import _played


def _bare(decisions: int, seed: int = 3, players: int = 3) -> dict:
    """A played position's document without history and digest: judged by its contents alone."""
    return bare_doc(_played("wizards-labyrinth", decisions, seed, players=players))


def _face_down_room(doc: dict) -> int:
    data = doc["data"]
    return next(c for c, t in enumerate(data["tiles"]) if t.startswith("r") and not data["flipped"][c]
                and not data["removed"][c])


@pytest.mark.parametrize("value", ["unclaimed", "decisions", "", "r", "rx", "r05", "r999", "k7", "K0", "Start"])
def test_a_tile_that_is_no_tile_is_refused(value):
    # the fuzzer's cases: tiles[17]="unclaimed" and tiles[4]="decisions" were accepted, and flipping the tile
    # then raised ValueError (int("nclaimed"))
    doc = _bare(20)
    State.from_json(json.loads(json.dumps(doc)))  # unedited: loads
    doc["data"]["tiles"][_face_down_room(doc)] = value
    with pytest.raises(SaveFileError, match="tile|inconsistent"):
        State.from_json(doc)


@pytest.mark.parametrize("value", ["", "x", "r999", "k0", "start", None, 3])
def test_a_pool_tile_that_is_no_room_tile_is_refused(value):
    # the fuzzer's cases: tile_pool[4]="" was accepted, and the wizard's key choice then raised IndexError ("")
    doc = _bare(0)
    assert doc["data"]["tile_pool"], "the test needs unused room tiles"
    doc["data"]["tile_pool"][0] = value
    with pytest.raises(SaveFileError):
        State.from_json(doc)


def test_a_room_tile_twice_is_refused():
    doc = _bare(20)
    data = doc["data"]
    c = _face_down_room(doc)
    other = next(t for k, t in enumerate(data["tiles"]) if k != c and t.startswith("r"))
    data["tiles"][c] = other  # a real room tile, but now on the grid twice (and one room tile lost)
    with pytest.raises(SaveFileError, match="room tile"):
        State.from_json(doc)


def test_a_pool_room_swapped_onto_the_grid_still_loads():
    # the grid and the pool may hold their room tiles in any arrangement: a valid position loads
    doc = _bare(20)
    data = doc["data"]
    c = _face_down_room(doc)
    data["tiles"][c], data["tile_pool"][0] = data["tile_pool"][0], data["tiles"][c]
    state = State.from_json(doc)
    assert state.tiles[c] == data["tiles"][c]


def test_a_queued_task_the_sampled_games_did_not_hold_still_loads():
    # a valid save was refused ("data.todo[][1] is 5, where the game keeps bool or str"): the learned schema
    # read every queued task's second item as one place, and its sampled positions held only ("ask", "key")
    # and ("wizard_turn", True) there; a hero arriving on a tile queues ("arrive", cell, seats)
    state = make("wizards-labyrinth", players=3, variant="beta-playtest").new_state(4)
    rng = random.Random(4)
    while not any(task[0] == "arrive" for task in state.todo):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    assert state.decisions < 80
    doc = bare_doc(state)
    back = State.from_json(doc)
    assert back.todo == state.todo
