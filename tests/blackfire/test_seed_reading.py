"""Issue 29: readings of seed sentences that the concordance's second read found unpinned.

Each test pins the reading recorded in the rules document's ledger (docs/rules/blackfire.md); the
entry number is in the docstring. Positions use the open test field (``field.txt``; see
``test_rules.py``).
"""

from __future__ import annotations

import pytest

from boardlab.engine import make

from .helpers import UNITS, cell_of, field_state, move, moves, place, sq, token

FAR_RED = dict(RS=(10, 1), RA=(10, 2), RW=(10, 3))


def fresh(**units):
    st = field_state()
    place(st, **{**FAR_RED, **units})
    return st


def _own_turns_missed(respawn_turns: int, killed_on_own_turn: bool) -> int:
    st = field_state(respawn_turns=respawn_turns)
    place(st, GS=(0, 4), GA=(0, 0), GW=(0, 8), **FAR_RED)
    if not killed_on_own_turn:
        st.apply(("end",))  # killed during red's turn
    st._kill(UNITS["GS"])
    missed = 0
    while True:
        st.apply(("end",))
        if st.side == 0:
            if cell_of(st, "GS") is not None:
                return missed
            missed += 1


@pytest.mark.seed("blackfire:37.1", "blackfire:91.3")
@pytest.mark.parametrize("killed_on_own_turn", [False, True])
def test_respawn_after_three_turns_misses_two_own_turns_and_the_alternative_misses_three(killed_on_own_turn):
    """Ledger 24: "respawns after 3 turns" returns the sorcerer at the start of its side's third turn
    after its death, so it misses 2 whole turns of its own; the alternative "misses 3" is the option
    ``respawn_turns=4``."""
    assert _own_turns_missed(3, killed_on_own_turn) == 2
    assert _own_turns_missed(4, killed_on_own_turn) == 3
    assert "misses 3" in next(o.description for o in make("blackfire").options if o.name == "respawn_turns")


@pytest.mark.seed("blackfire:44.1")
def test_an_archer_also_dies_to_a_death_token_and_to_a_revival_on_its_square():
    """Ledger 36: "May only be defeated by landing directly on top of it, or through an archer contest."
    Death is not a defeat by the enemy (the archer picks it up itself), and a revival on its square is a
    landing on top of it."""
    st = fresh(GA=(5, 4), GS=(0, 0), GW=(0, 8))
    token(st, 5, 3, "death")
    move(st, "GA", 5, 3)
    assert cell_of(st, "GA") is None
    st = fresh(GS=(0, 0), GA=None, GW=(5, 4), RA=(9, 8))
    token(st, 5, 5, "revive")
    move(st, "GW", 5, 5)
    st.apply(("revive", UNITS["GA"], sq(st, 9, 8)))
    assert cell_of(st, "RA") is None and cell_of(st, "GA") == (9, 8)


@pytest.mark.seed("blackfire:67.1", "blackfire:54.1")
def test_recall_moves_a_defensive_warrior_which_stays_defensive():
    """Ledger 16: "Defensive: Cannot move" limits the warrior's own movement; Recall still moves it."""
    st = fresh(GS=(5, 4), GA=(9, 4), GW=(0, 8))
    st.units[UNITS["GW"]].stance = "defensive"
    token(st, 9, 5, "recall")
    move(st, "GA", 9, 5)
    x, y = cell_of(st, "GW")
    assert abs(x - 5) + abs(y - 4) == 1 and st.units[UNITS["GW"]].stance == "defensive"


@pytest.mark.seed("blackfire:28.1", "blackfire:36.1")
def test_a_revived_unit_may_still_move_that_turn():
    """Ledger 38: reviving consumes the reviver's leftover points; the revived ally has not moved this
    turn, so it may."""
    st = fresh(GS=(5, 4), GA=None, GW=(0, 8))
    st.orb_holder, st.orb_cell = None, sq(st, 0, 4)
    st._legal = None
    st.apply(("revive", UNITS["GA"], sq(st, 5, 5)))
    assert not moves(st, "GS") and moves(st, "GA")


@pytest.mark.seed("blackfire:71.1")
def test_displace_must_move_an_enemy_one_or_two_spaces():
    """Ledger 14: "up to 2 spaces" is 1 or 2; a collector with an enemy on the board cannot decline."""
    st = fresh(GW=(5, 4), GS=(0, 0), GA=(0, 8))
    token(st, 5, 5, "displace")
    move(st, "GW", 5, 5)
    legal = st.legal_actions()
    assert ("pass",) not in legal and legal
    castle = st.game.castle
    assert {castle.manhattan(st.units[a[1]].cell, a[2]) for a in legal} == {1, 2}


@pytest.mark.seed("blackfire:60.2")
def test_a_speed_move_onto_the_orb_takes_it_and_loses_the_rest_of_the_speed_points():
    """"If you have two or three movement points, and only use one to get to the orb, all others are lost.
    Even those gained by a speed token.\""""
    st = fresh(GS=(5, 4), GA=(0, 0), GW=(0, 8))
    st.orb_holder, st.orb_cell = None, sq(st, 5, 7)
    token(st, 5, 5, "speed")
    move(st, "GS", 5, 5)
    assert st.stack[-1].kind == "speed"
    move(st, "GS", 5, 7)  # 2 of the 3 Speed spaces
    assert st.orb_holder == UNITS["GS"] and not st.stack and not moves(st, "GS")
