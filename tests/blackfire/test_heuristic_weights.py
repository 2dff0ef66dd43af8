"""The Blackfire heuristic's rules-of-thumb weights are parameters (issue 21's tuning screen,
``benchmarks/bench_tuned_heuristic.py``): they multiply the persona's, and ``stay`` scores ending a
turn or a move without acting."""

import pytest

import boardlab
from boardlab.agents import check_spec, make_agent
from boardlab.engine.errors import UnknownAgentError
from boardlab.agents.base import Decision


def _turn_start(seed: int = 3):
    """A heuristic game's first decision where the mover may end its turn or move."""
    game = boardlab.make("blackfire")
    state = game.new_state(seed)
    agents = [make_agent("heuristic", game, s, s) for s in range(2)]
    while True:
        seat = state.current_seat()
        d = Decision(state, seat)
        if ("end",) in d.legal and any(a[0] == "move" for a in d.legal):
            return game, d
        state.apply(agents[seat].act(d))


def test_weights_multiply_the_personas():
    game = boardlab.make("blackfire")
    hunter = make_agent("heuristic:persona=hunter:hunt=2.0:danger=0.5", game, 0, 1)
    assert hunter.style["hunt"] == 1.6 * 2.0 and hunter.style["danger"] == 0.7 * 0.5
    assert hunter.style["kill"] == 1.5 and hunter.style["progress"] == 1.0
    plain = make_agent("heuristic", game, 0, 1)
    assert all(plain.style[w] == 1.0 for w in plain.WEIGHTS) and plain.stay == 0.0


def test_stay_scores_ending_the_turn():
    game, d = _turn_start()
    scores = make_agent("heuristic", game, d.seat, 1).scores(d)
    assert scores[d.legal.index(("end",))] == 0.0
    # a large enough stay makes ending the turn the best action; a very low one never ends it
    keen = make_agent("heuristic:stay=100000:noise=0", game, d.seat, 1)
    assert keen.act(d) == ("end",)
    assert keen.scores(d)[d.legal.index(("end",))] == 100000.0
    assert make_agent("heuristic:stay=-100000", game, d.seat, 1).act(d) != ("end",)


def test_a_weight_changes_the_move_scores_it_names():
    game, d = _turn_start()
    base = make_agent("heuristic", game, d.seat, 1).scores(d)
    zero = make_agent("heuristic:progress=0.0:danger=0.0:kill=0.0:hunt=0.0:token=0.0", game, d.seat, 1).scores(d)
    assert base != zero


@pytest.mark.parametrize("spec", [
    "heuristic:danger=abc", "heuristic:kill=-1", "heuristic:stay=true", "heuristic:noise=-0.5",
    "heuristic:persona=berserker", "heuristic:speed=2",
])
def test_bad_weights_are_refused_up_front(spec):
    game = boardlab.make("blackfire")
    with pytest.raises(UnknownAgentError):
        check_spec(spec, game)
    with pytest.raises(UnknownAgentError):
        make_agent(spec, game, 0, 1)
