"""Difficulty levels: mapped to concrete agents, registered, and capped in time."""

from __future__ import annotations

import pytest

from boardlab.agents import Decision, available_agents, make_agent, parse_spec
from boardlab.agents.levels import LEVELS, level_spec
from boardlab.agents.mcts import ISMCTSAgent
from boardlab.engine import UnknownAgentError, make

from .games import RaceGame
from .helpers import real_games


def test_levels_are_registered_agents_everywhere():
    for gid in ["toy", *real_games()]:
        names = available_agents(make(gid).__class__)
        assert set(LEVELS) <= set(names)
        assert {"ismcts", "mcts", "omniscient-mcts", "persona"} <= set(names)


def test_level_specs():
    toy = make("toy")
    assert level_spec(toy, "easy") == "ismcts:iterations=10"  # no heuristic in the toy game
    assert level_spec(make("agents-race"), "easy") == "heuristic"
    assert level_spec(toy, "medium").startswith("ismcts:")
    with pytest.raises(UnknownAgentError, match="levels: easy, medium, hard"):
        level_spec(toy, "expert")


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_search_levels_cap_the_wait_at_two_seconds(level):
    name, params = parse_spec(level_spec(make("toy"), level))
    assert name == "ismcts" and 0 < params["time"] <= 2.0
    agent = make_agent(level, make("toy"), 0, 1)
    assert isinstance(agent.inner, ISMCTSAgent) and agent.inner.time_limit <= 2.0


def test_strong_is_the_default_search_budget_without_a_clock():
    """``strong`` must not depend on the machine's load: an iteration budget, no time cap; it stops a
    search only when the whole budget could not change its choice (stop=sure)."""
    name, params = parse_spec(level_spec(make("toy"), "strong"))
    assert name == "ismcts" and params == {"iterations": 200, "stop": "sure"}
    agent = make_agent("strong", make("toy"), 0, 1)
    assert isinstance(agent.inner, ISMCTSAgent) and agent.inner.iterations == 200


def test_every_games_strong_level_is_a_valid_search_spec_no_costlier_than_the_default():
    from boardlab.agents import check_spec

    for gid in real_games():
        game = make(gid)
        spec = level_spec(game, "strong")
        check_spec(spec, game)
        name, params = parse_spec(spec)
        assert name == "ismcts" and "time" not in params, (gid, spec)
        assert 1 <= params["iterations"] <= 200, (gid, spec)


def test_hard_searches_more_than_medium():
    toy = make("toy")
    assert parse_spec(level_spec(toy, "hard"))[1]["iterations"] > parse_spec(level_spec(toy, "medium"))[1]["iterations"]


def test_a_game_may_override_a_level(monkeypatch):
    monkeypatch.setattr(RaceGame, "agent_levels", {"hard": "mcts:iterations=7"}, raising=False)
    game = make("agents-race")
    assert level_spec(game, "hard") == "mcts:iterations=7"
    assert make_agent("hard", game, 1, 0).inner.iterations == 7


def test_level_agents_play_legal_moves_and_are_deterministic():
    game = make("agents-race", players=3)
    for level in LEVELS:
        state = game.new_state(3)
        a = make_agent(level, game, 0, 9).act(Decision(state, 0))
        b = make_agent(level, game, 0, 9).act(Decision(state, 0))
        assert a == b and a in state.legal_actions()
