"""The Blackfire heuristic plays on (issue 32, "bots that play on"): it never parks an escort on the open
exit, a sorcerer moves before it revives, and heuristic games do not stall into the turn cap."""

from __future__ import annotations

import pytest

from boardlab.agents import Decision, make_agent
from boardlab.agents.runner import play_game, run_batch
from boardlab.engine import make
from boardlab.games.blackfire.agents import PATIENCE

from .helpers import UNITS, cell_of, field_state, place, sq

FAR_RED = dict(RS=(1, 0), RA=(2, 0), RW=(1, 1))  # the test field's far corner: no threat to the exit (10, 8)


def _passive(st):
    """Red as a player who never comes: it ends every turn."""
    st.apply(("end",) if ("end",) in st.legal_actions() else st.legal_actions()[0])


@pytest.mark.parametrize("stance", ["offensive", "defensive"])
def test_an_escort_on_the_open_exit_makes_way_for_its_carrier(stance):
    # The position: green's warrior stands on the open exit beside its own Orb carrier. The
    # carrier cannot end its move on a friend, so the old heuristic ended its turn for ever.
    st = field_state()
    place(st, GS=(9, 8), GA=(6, 4), GW=(10, 8), **FAR_RED)
    st.units[UNITS["GW"]].stance = stance
    assert st.orb_holder == UNITS["GS"] and st.exit is not None and st.game.castle.exits[st.exit] == sq(st, 10, 8)
    green = make_agent("heuristic", st.game, 0, 3)
    for _ in range(4):
        while not st.is_over() and st.current_seat() == 0:
            st.apply(green.act(Decision(st, 0)))
        if st.is_over():
            break
        _passive(st)
    assert st.is_over() and st.results().winners == (0,)
    assert cell_of(st, "GS") == (10, 8) and cell_of(st, "GW") != (10, 8)


def test_an_escort_does_not_step_onto_the_open_exit():
    # The carrier is 3 steps from the exit; the warrior could reach the exit square but must leave it free.
    st = field_state()
    place(st, GS=(10, 5), GA=(6, 4), GW=(9, 6), **FAR_RED)
    agent = make_agent("heuristic:noise=0", st.game, 0, 1)
    d = Decision(st, 0)
    scores = dict(zip(d.legal, agent.scores(d)))
    onto_exit = ("move", UNITS["GW"], sq(st, 10, 8))
    assert onto_exit in scores
    assert scores[onto_exit] < 0 < max(s for a, s in scores.items() if a[:2] == ("move", UNITS["GW"]))


def test_a_sorcerer_moves_before_it_revives_when_the_move_is_worth_it():
    # Reviving ends the sorcerer's movement, but it may revive right after moving: reviving first threw
    # away a move that kills the red warrior on the way to the lying Orb (sides that both revived instead
    # of going for the Orb traded units for ever).
    st = field_state()
    place(st, GS=(2, 6), GA=(6, 4), GW=None, RS=(10, 1), RA=(10, 0), RW=(2, 4))
    st.orb_holder = None
    st.orb_cell = sq(st, 2, 2)
    st._legal = None
    agent = make_agent("heuristic:noise=0", st.game, 0, 1)
    assert any(a[0] == "revive" for a in st.legal_actions())
    first = agent.act(Decision(st, 0))
    assert first == ("move", UNITS["GS"], sq(st, 2, 4))
    st.apply(first)
    assert cell_of(st, "RW") is None
    assert agent.act(Decision(st, 0))[0] == "revive"  # the revival is still there after the move


def test_a_unit_already_under_threat_is_not_frozen_by_it():
    # Green's sorcerer stands 4 steps from the red archer, which can walk up and shoot it next turn. Ending
    # the turn scored no danger, while every move scored the danger of where it ends, so a unit under
    # threat stood still rather than step out of reach (standoffs over a lying Orb). Now a move is
    # charged only the danger it adds, and stepping out of reach is worth taking.
    st = field_state()
    place(st, GS=(5, 4), GA=(10, 0), GW=(10, 1), RS=(0, 8), RA=(4, 1), RW=(1, 8))
    st.orb_holder = None
    st.orb_cell = sq(st, 2, 2)
    st._legal = None
    agent = make_agent("heuristic:noise=0", st.game, 0, 1)
    d = Decision(st, 0)
    scores = dict(zip(d.legal, agent.scores(d)))
    best = max((a for a in scores if a[:2] == ("move", UNITS["GS"])), key=scores.get)
    assert scores[best] > scores[("end",)]
    dist = st.game.castle.dist
    assert dist[best[2]][sq(st, 4, 1)] > 4  # out of the archer's reach


def test_heuristic_games_reach_no_turn_cap_and_never_park_on_the_exit():
    # 200 seeded final games. The old heuristic reached the turn cap in 1.4% of games (14 of 1,000) and
    # ended a turn with an escort parked on the open exit in 7% of them.
    game = make("blackfire")
    parked = []

    def watch(st, action):
        if action == ("end",) and st.orb_holder is not None:
            ex = st.game.castle.exits[st.exit]
            side = st.units[st.orb_holder].side
            if any(u != st.orb_holder and v.side == side and v.cell == ex for u, v in enumerate(st.units)):
                parked.append(st.turn)

    truncated = 0
    for i in range(200):
        _, record = play_game(game, ["heuristic", "heuristic"], 9000 + i, on_step=watch)
        truncated += record.truncated
    assert truncated == 0 and parked == []


def test_impatience_only_widens_the_tie_break_after_patience_turns():
    game = make("blackfire")
    records = run_batch(game, ["heuristic", "heuristic"], 40, seed=3)
    again = run_batch(game, ["heuristic", "heuristic"], 40, seed=3, jobs=1, keep_actions=False)
    assert [r.turns for r in records] == [r.turns for r in again]  # deterministic for a seed
    st = game.new_state(5)
    agent = make_agent("heuristic:noise=0", game, 0, 1)
    while st.phase == "place":
        st.apply(agent.act(Decision(st, st.current_seat())))
    seat = st.current_seat()
    early = make_agent("heuristic:noise=0", game, seat, 1).act(Decision(st, seat))
    st.turn = PATIENCE  # no later than PATIENCE: the same noiseless choice
    assert make_agent("heuristic:noise=0", game, seat, 1).act(Decision(st, seat)) == early
    st.turn = PATIENCE + 400  # long stalled: the tie-break spans 80 points, so choices differ by seed
    late = {make_agent("heuristic:noise=0", game, seat, s).act(Decision(st, seat)) for s in range(12)}
    assert len(late) > 1
