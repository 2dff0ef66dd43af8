"""The Armies heuristic plays on (issue 32, "bots that play on"): no shuttling once the decks are empty.

Heuristic-only games used to reach the 500-turn cap in 1-16% of games (``chess`` worst; docs/agents.md
"Truncation"), each side shuttling pieces back and forth.  The causes, each pinned here by a position on
which the old agent stalls:

* a threat on the enemy General was worth 1.5 whether or not the General could step away, so the side
  ahead checked it with one piece after another and the General stepped away each time.  In endgames (and
  past ``PATIENCE`` turns) a threat now counts fully only when it is a siege: the General attacked (by the
  mover, or by a line the move opens) with no safe square next to it, so it is hit next turn;
* two lone Generals of equal skill kept apart for ever (the first to step next to the other loses the
  race of blows).  Past ``PATIENCE`` a General with no fewer skill points than the enemy's seeks it;
* any standoff left is broken by chance: past ``PATIENCE`` the random tie-break widens with the turn
  (read off the state, so a fresh agent, as the web builds for each decision, agrees).
"""

from __future__ import annotations

from boardlab.agents import Decision, make_agent
from boardlab.agents.runner import run_batch
from boardlab.engine import make
from boardlab.games.armies.agents import PATIENCE

from .helpers import at, give, mv, position, touch


def _play_out(st, seeds=(5, 6), until: int = 500):
    agents = [make_agent("heuristic", st.game, s, seeds[s]) for s in (0, 1)]
    while st.current_seat() is not None and st.turn < until:
        s = st.current_seat()
        st.apply(agents[s].act(Decision(st, s)))
    return st


def _queen_and_bishop():
    """Black (to move): queen e3, bishop f5, General g1 (3 points), pawn a7; white: General d1 (2 points),
    pawn a6.  The queen and bishop cover every square next to the white General; the old heuristic
    checked it from g4, it stepped to c2, the bishop checked again from f5, it stepped back, to the cap."""
    st = position({"d1": "K", "a6": "P", "g1": "k", "a7": "p", "f5": "b", "e3": "q"}, active=1, variant="chess")
    give(at(st, "d1"), "EL")
    give(at(st, "g1"), "GEL")
    touch(st)
    return st


def test_the_side_ahead_wins_the_queen_and_bishop_endgame():
    for seeds in ((5, 6), (1, 2), (3, 4)):
        st = _play_out(_queen_and_bishop(), seeds, until=PATIENCE)  # won before the tie-break widens
        assert st.winner == 1, (seeds, st.turn)


def test_no_unforced_check_from_the_shuttle_square():
    st = _queen_and_bishop()
    for seed in range(4):
        assert make_agent("heuristic", st.game, 1, seed).act(Decision(st, 1)) != mv("f5", "g4")


def test_a_siege_is_preferred_to_a_check_the_general_steps_out_of():
    # White to move.  Black's General on d8 (one point) is boxed in: the queen on d6 covers c7, d7 and e7,
    # the bishop on d7 (blocking the queen's file) covers c8 and e8, the knight on f6 d7 and e8.  Moving
    # the bishop to e6 opens the queen's file onto d8 and still covers c8 and d7: a siege.  To b5 it opens
    # the file too, but c8 is left free and the General steps there.
    st = position({"e1": "K", "d8": "k", "d6": "Q", "d7": "B", "f6": "N", "h2": "P"}, active=0, variant="chess")
    give(at(st, "d8"), "G")
    give(at(st, "e1"), "GEL")
    touch(st)
    agent = make_agent("heuristic", st.game, 0, 1)
    agent.me = 0
    agent.st = st
    bishop = at(st, "d7")
    assert agent._siege(bishop, bishop.sq, mv("d7", "e6")[2]) == (True, 0)
    threat, free = agent._siege(bishop, bishop.sq, mv("d7", "b5")[2])
    assert threat and free == 1
    action = make_agent("heuristic", st.game, 0, 1).act(Decision(st, 0))
    assert action == mv("d7", "e6")
    assert _play_out(st, until=40).winner == 0


def test_lone_generals_of_equal_skill_do_not_wait_for_ever():
    # Two lone Generals with two points each: whoever steps next to the other is struck first and loses
    # the race, so the old heuristic kept them apart to the turn cap.
    st = position({"c1": "K", "b3": "k"}, active=0, variant="chess")
    give(at(st, "c1"), "EL")
    give(at(st, "b3"), "EL")
    touch(st)
    st.turn = PATIENCE
    st = _play_out(st, until=PATIENCE + 60)
    assert st.winner in (0, 1)


def test_a_fresh_agent_makes_the_same_move_past_patience():
    # The web builds an agent per decision: what the agent does must follow from the state and its seed.
    st = position({"c1": "K", "b3": "k", "h2": "P", "a7": "p"}, active=0, variant="chess")
    give(at(st, "c1"), "EL")
    give(at(st, "b3"), "EL")
    touch(st)
    st.turn = PATIENCE + 100
    keep = make_agent("heuristic", st.game, 0, 9)
    keep.act(Decision(st, 0))
    first = [make_agent("heuristic", st.game, 0, 9).act(Decision(st, 0)) for _ in range(2)]
    assert first[0] == first[1]


def test_seeded_batches_have_no_truncated_game():
    # The truncation benchmark's first games (seed 32): in `chess` the old heuristic truncated games 5, 19,
    # 23, 26 and 27 of these 30; in `witch-vs-cavalry` games 0, 10 and 17 of these 18.
    for variant, games in (("chess", 30), ("witch-vs-cavalry", 18)):
        game = make("armies", variant=variant)
        records = run_batch(game, ["heuristic", "heuristic"], games, seed=32)
        assert [r.seed for r in records if r.truncated] == [], variant
