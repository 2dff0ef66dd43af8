"""The Dungeon's Jewel's "why not": not adjacent, a wall, not your turn, a player out of reach, a pending step."""

from __future__ import annotations

from .helpers import blank, cell


def test_rooms_say_not_adjacent_walled_or_here():
    s = blank()
    a1, b1 = cell(0, 0), cell(1, 0)
    assert s.why_not(0, "b1") is None  # seat 0 starts on a1: b1 is one room east
    assert s.why_not(0, "c1") == "not adjacent (one room up, down, left or right)"
    assert s.why_not(0, "b2") == "not adjacent (one room up, down, left or right)"  # no diagonal steps
    assert s.why_not(0, "a1") == "you are here: choose a neighbouring room"
    d = next(d for d, j in s.game.board.sides[a1] if j == b1)
    s.walls[a1] |= 1 << d
    s._legal = None
    assert s.why_not(0, "b1") == "a wall blocks the way from your room to it"


def test_not_your_turn_and_players_out_of_reach():
    s = blank()
    assert s.why_not(1, "f1") == "it is not your turn"
    assert s.why_not(0, "item:p2") == "Player 3 (bottom right) is not next to you: you attack a player in a neighbouring room"
    assert s.why_not(0, "item:p0") == "you are here: choose a neighbouring room"
    s.pos[2] = cell(1, 0)
    s._legal = None
    assert s.why_not(0, "item:p2") is None  # now a neighbour: it can be attacked


def test_a_pending_step_comes_first():
    from boardlab.engine import Prompt

    s = blank()
    s.stack.append(Prompt(0, "place", cell(1, 0)))
    s._legal = None
    assert s.why_not(0, "b1") == "first place the token you drew"
