"""State documents without a history are validated before they are accepted, and events() hands out copies
(issue 45, section 3)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from boardlab.engine import State, make
from boardlab.engine.errors import SaveFileError
from boardlab.games import BUILTIN

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(BUILTIN)


def _played(gid: str, decisions: int, seed: int = 3, **kw) -> State:
    """A seeded random game of ``gid`` (``kw`` goes to ``make``) played to ``decisions`` or its end."""
    state = make(gid, **kw).new_state(seed)
    rng = random.Random(seed)
    while not state.is_over() and state.decisions < decisions:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def _bare(state: State) -> dict:
    """The state's document without history and digest: judged by its contents alone."""
    doc = json.loads(state.dumps())
    del doc["history"], doc["digest"]
    return doc


@pytest.mark.parametrize("gid", GAMES)
def test_events_are_copies_that_cannot_change_the_log(gid):
    # the issue: clearing a returned event's list changed dumps() and the digest, in all five games
    state = _played(gid, 40)
    before = state.dumps()
    touched = 0
    for seat in (None, *range(state.players)):
        for ev in state.events(seat) + (state.events_since(None, seat) or []):
            data = ev["data"]
            if isinstance(data, dict):
                for value in data.values():
                    if isinstance(value, (list, dict)):
                        value.clear()
                        touched += 1
                data.clear()
                touched += 1
    assert touched, "the test needs events with data"
    assert state.dumps() == before
    assert state.events(None)[-1] == state.events(None)[-1]


@pytest.mark.parametrize("gid", GAMES)
def test_a_recorded_position_without_its_history_still_loads(gid):
    for decisions in (0, 25, 10_000):
        state = _played(gid, decisions)
        back = State.from_json(_bare(state))
        assert back.dumps() == state.dumps().replace(json.dumps(state.history(), sort_keys=True, separators=(",", ":")),
                                                     "null").replace(state.to_json()["digest"], back.to_json()["digest"])


def test_the_labyrinths_mana_left_none_is_refused():
    # the example: accepted, then a TypeError on a later move
    doc = _bare(_played("wizards-labyrinth", 30))
    doc["data"]["mana_left"] = None
    with pytest.raises(SaveFileError, match="mana_left"):
        State.from_json(doc)


@pytest.mark.parametrize("gid,field,value,word", [
    ("dungeons-jewel", ("tokens", 3), True, "tokens"),
    ("summoners-quest", ("deck", "v", 0, 5), "no such card", "no such card"),
    ("armies", ("board", 4), -1, "never negative|saved position"),
    ("blackfire", ("stats", "rule:kill"), None, "stats|saved position"),
])
def test_edits_that_break_later_are_refused(gid, field, value, word):
    doc = _bare(_played(gid, 20))
    where = doc["data"]
    for k in field[:-1]:
        where = where[k]
    if isinstance(where, list) and field[-1] >= len(where):
        pytest.skip("the position has no such item")
    where[field[-1]] = value
    with pytest.raises(SaveFileError, match=word):
        State.from_json(doc)


def test_a_hand_built_position_that_breaks_a_rule_on_play_is_refused(monkeypatch):
    # the sandbox: a position whose next move raises inside the rules is refused, naming the move
    from boardlab.games.blackfire import game as bf

    doc = _bare(_played("blackfire", 10))
    state = State.from_json(doc)
    cls = type(state)
    original = cls._apply

    def broken(self, action):
        if getattr(self.game, "_broken", False):
            raise IndexError("list index out of range")
        return original(self, action)

    monkeypatch.setattr(cls, "_apply", broken)
    game = make("blackfire")
    game._broken = True
    with pytest.raises(SaveFileError, match="breaks the rules at the legal action .*IndexError"):
        State.from_json(doc, game)
    assert bf  # (the game module is the one patched)


@pytest.mark.slow
def test_the_state_fuzzer_finds_no_accepted_document_that_fails_later():
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "fuzz_states.py"), "--game", "all", "--cases", "60",
                          "--valid", "4", "--json"], capture_output=True, text=True, timeout=1800, cwd=ROOT)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    results = json.loads(out.stdout)
    assert sorted(r["game"] for r in results) == GAMES
    for r in results:
        assert r["cases"] == 60 and not r["failures"] and r["refused"] + r["accepted"] == 60
        assert r["refused"] > r["accepted"]  # most edits break a position; the check does refuse them
