"""Issue 29, items 6 and 8: every way magic places a unit, against the archer contest and the exit.

Item 6 (ledger 14 and 26 now agree): whenever two archers come to rest within range of each other,
by a unit's own move or "placed within range of him via magic" (the playtest notes), they hold the
contest; the archer that was placed attacks. Item 8 (ledger 35): the enemy's magic never puts the Orb
carrier on the open exit ("Opponent takes orb to exit").

Positions use the open test field (``field.txt``; see ``test_rules.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from boardlab.agents import Decision, make_agent
from boardlab.engine import make

from .helpers import UNITS, cell_of, field_state, move, place, rig, sq, token

FAR_RED = dict(RS=(10, 1), RA=(10, 2), RW=(10, 3))
MAGIC_TOKENS = Path(__file__).with_name("magic_tokens.json")


def fresh(**units):
    st = field_state()
    place(st, **{**FAR_RED, **units})
    return st


def _contest_outcome(st, attacker: str, defender: str, attacker_wins: bool) -> None:
    assert (cell_of(st, defender) is None) is attacker_wins
    assert (cell_of(st, attacker) is None) is not attacker_wins
    assert st.stats["rule:archer-contest"] != [0, 0]


@pytest.mark.seed("blackfire:67.1", "blackfire:90.4")
@pytest.mark.parametrize("roll,wins", [(5, True), (4, False)])
def test_recall_that_brings_my_archer_within_range_of_the_enemy_archer_holds_a_contest(roll, wins):
    st = fresh(GS=(5, 4), GA=(0, 0), GW=(9, 4), RA=(5, 1))
    token(st, 9, 5, "recall")
    rig(st, (6, roll))
    move(st, "GW", 9, 5)  # recalls the archer to (5, 3), 2 from the red archer
    _contest_outcome(st, "GA", "RA", wins)


@pytest.mark.seed("blackfire:86.1", "blackfire:90.4")
@pytest.mark.parametrize("roll,wins", [(6, True), (1, False)])
def test_mass_recall_that_brings_the_archers_together_holds_a_contest_the_collector_attacks(roll, wins):
    st = fresh(GS=(5, 4), GA=(0, 0), GW=(4, 7), RS=(5, 2), RA=(10, 8), RW=(10, 3))
    token(st, 4, 6, "teleport")
    rig(st, (6, 5), (6, roll))
    move(st, "GW", 4, 6)
    # both archers were moved (green's to (5, 3), red's to (5, 1)); green's token, so green's archer attacks
    _contest_outcome(st, "GA", "RA", wins)


@pytest.mark.seed("blackfire:65.1", "blackfire:90.4")
@pytest.mark.parametrize("roll,wins", [(5, True), (3, False)])
def test_an_archer_revived_by_a_token_within_range_of_the_enemy_archer_holds_a_contest(roll, wins):
    st = fresh(GS=(0, 0), GA=None, GW=(5, 4), RA=(2, 8))
    token(st, 5, 5, "revive")
    move(st, "GW", 5, 5)
    rig(st, (6, roll))
    st.apply(("revive", UNITS["GA"], sq(st, 2, 6)))
    _contest_outcome(st, "GA", "RA", wins)


@pytest.mark.seed("blackfire:36.1", "blackfire:90.4")
@pytest.mark.parametrize("roll,wins", [(5, True), (2, False)])
def test_an_archer_revived_by_its_sorcerer_within_range_of_the_enemy_archer_holds_a_contest(roll, wins):
    st = fresh(GS=(5, 4), GA=None, GW=(0, 8), RA=(5, 7))
    st.orb_holder, st.orb_cell = None, sq(st, 0, 4)
    st._legal = None
    rig(st, (6, roll))
    st.apply(("revive", UNITS["GA"], sq(st, 5, 5)))
    _contest_outcome(st, "GA", "RA", wins)


@pytest.mark.seed("blackfire:37.2", "blackfire:90.4")
@pytest.mark.parametrize("roll,wins", [(5, True), (4, False)])
def test_an_archer_pushed_by_a_respawn_into_range_of_the_enemy_archer_holds_a_contest(roll, wins):
    st = fresh(GS=(0, 4), GA=(3, 0), GW=(0, 8), RA=(5, 2), RS=(10, 8), RW=(10, 3))
    st._kill(UNITS["GS"])
    st.units[UNITS["GS"]].respawn = 1
    st.apply(("end",))
    rig(st, (6, roll))
    st.apply(("end",))  # green's turn: the sorcerer respawns on (5, 4) and pushes the red archer to (5, 0)
    assert cell_of(st, "GS") == (5, 4)
    _contest_outcome(st, "RA", "GA", wins)  # the pushed archer arrived, so it attacks


@pytest.mark.seed("blackfire:87.1", "blackfire:90.4")
@pytest.mark.parametrize("roll,wins", [(5, True), (4, False)])
def test_an_archer_teleporting_within_range_of_the_enemy_archer_holds_a_contest(roll, wins):
    st = fresh(GS=(0, 0), GA=(7, 4), GW=(0, 8), RA=(9, 2))
    token(st, 7, 5, "teleport")
    rig(st, (6, 6), (6, roll))
    move(st, "GA", 7, 5)
    st.apply(("jump", sq(st, 8, 3)))
    _contest_outcome(st, "GA", "RA", wins)


@pytest.mark.seed("blackfire:90.4")
def test_a_recalled_warrior_is_not_shot_and_a_recalled_archer_shoots_no_one():
    """Ledger 26: a placement is not a stop. Only two archers meeting fight (ledger 14)."""
    st = fresh(GS=(5, 4), GA=(9, 8), GW=(0, 0), RA=(3, 4), RW=(5, 1), RS=(10, 1))
    token(st, 10, 7, "recall")
    move(st, "GA", 10, 7)  # the archer picks Recall up itself: it goes to (5, 3), next to the red warrior
    assert cell_of(st, "GA") == (5, 3) and cell_of(st, "RW") == (5, 1) and cell_of(st, "GW") == (4, 4)
    assert cell_of(st, "RA") is not None and st.stats["rule:archer-contest"] == [0, 0]


@pytest.mark.seed("blackfire:90.4")
def test_no_contest_when_the_option_is_off():
    st = field_state(archer_contest=False)
    place(st, GS=(5, 4), GA=(0, 0), GW=(9, 4), RA=(5, 1), RS=(10, 1), RW=(10, 3))
    token(st, 9, 5, "recall")
    move(st, "GW", 9, 5)
    assert cell_of(st, "GA") == (5, 3) and cell_of(st, "RA") == (5, 1)


def _archers_apart(state) -> None:
    if state.phase != "play" or state.is_over():
        return
    a, b = state.units[UNITS["GA"]].cell, state.units[UNITS["RA"]].cell
    if a is not None and b is not None:
        assert state.game.castle.dist[a][b] > state.game.opt["archer_range"], "two archers rest in range"


@pytest.mark.seed("blackfire:42.1", "blackfire:90.4")
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st_.integers(0, 2**31))
def test_two_living_archers_never_rest_within_range_whatever_places_them(seed):
    """With only the placing tokens (no Invulnerable, which can absorb a contest), random play never
    leaves the two archers within range of each other: every way of getting there holds the contest."""
    game = make("blackfire", options={"tokens": str(MAGIC_TOKENS), "max_turns": 80})
    agents = [make_agent("random", game, s, seed + s) for s in (0, 1)]
    state = game.new_state(seed)
    while not state.is_over():
        _archers_apart(state)
        seat = state.current_seat()
        state.apply(agents[seat].act(Decision(state, seat)))


# -- item 8: Displace and the push never carry the Orb out for the enemy ------------------------------
@pytest.mark.seed("blackfire:71.1", "blackfire:11.1")
def test_displace_cannot_put_the_enemy_carrier_on_the_open_exit():
    st = fresh(GS=(0, 0), GA=(0, 8), GW=(5, 4), RS=(10, 6), RW=(9, 8), RA=(10, 2))
    st.orb_holder = UNITS["RS"]
    token(st, 5, 5, "displace")
    move(st, "GW", 5, 5)
    legal = st.legal_actions()
    exit_ = sq(st, 10, 8)
    assert ("displace", UNITS["RS"], exit_) not in legal
    assert ("displace", UNITS["RS"], sq(st, 10, 7)) in legal
    assert ("displace", UNITS["RW"], exit_) in legal  # a unit without the Orb may go there
    st.apply(("displace", UNITS["RW"], exit_))
    assert not st.is_over()


@pytest.mark.seed("blackfire:37.2", "blackfire:11.1")
def test_the_respawn_push_never_puts_the_enemy_carrier_on_the_open_exit():
    st = fresh(GS=(1, 0), GA=(0, 8), GW=(5, 8), RS=(3, 2), RA=(10, 2), RW=(10, 3))
    st.exit = 0  # exit #1, (0, 0): 5 steps from Red start #1, (3, 2)
    st._kill(UNITS["RS"])
    st.units[UNITS["RS"]].respawn = 1
    st.orb_holder, st.orb_cell = UNITS["GS"], None
    st.game.opt["push_radius"] = 4  # pushed to 5 steps; the nearest such square to (1, 0) is the exit
    st._legal = None
    try:
        st.apply(("end",))  # red's turn begins: the sorcerer respawns and pushes the green carrier
    finally:
        st.game.opt["push_radius"] = 3
    assert not st.is_over() and cell_of(st, "GS") != (0, 0)
    assert st.game.castle.dist[sq(st, 3, 2)][st.units[UNITS["GS"]].cell] == 5
