"""The runner (deterministic whatever the number of jobs) and agent specs."""

from __future__ import annotations

import json

import pytest

from boardlab.agents import (
    BaseAgent, Decision, FirstAgent, RandomAgent, agent_class, available_agents, check_spec, make_agent, parse_spec,
)
from boardlab.engine import UnknownAgentError, make
from boardlab.agents.runner import agent_seed, game_seed, play_game, run_batch, summarize

SUMMARY_KEYS = {"game", "variant", "players", "games", "seed", "agents", "wins_by_seat", "wins_by_side", "truncated",
                "mean_turns", "mean_decisions", "seconds", "games_per_second"}


def records_json(records):
    return json.dumps([r.to_json() for r in records], sort_keys=True)


def test_run_batch_is_the_same_whatever_the_jobs():
    g = make("toy", players=3)
    one = run_batch(g, ["random"] * 3, 24, seed=7, jobs=1, keep_actions=True)
    two = run_batch(g, ["random"] * 3, 24, seed=7, jobs=2, keep_actions=True)
    chunked = run_batch(g, ["random"] * 3, 24, seed=7, jobs=1, keep_actions=True, chunk_size=5)
    assert records_json(one) == records_json(two) == records_json(chunked)
    assert [r.seed for r in one] == [game_seed(7, i) for i in range(24)]
    assert len({tuple(map(tuple, r.actions)) for r in one}) > 1
    assert records_json(run_batch(g, ["random"] * 3, 24, seed=8)) != records_json(one)


def test_run_batch_reports_progress():
    seen = []
    run_batch(make("toy"), ["random", "first"], 10, seed=1, jobs=2, progress=seen.append)
    assert sum(seen) == 10
    seen.clear()
    run_batch(make("toy"), ["random", "first"], 4, seed=1, progress=seen.append)
    assert seen == [1, 1, 1, 1]


def test_play_game_replays_from_its_actions():
    g = make("toy")
    state, rec = play_game(g, ["random", "random"], 99, keep_actions=True)
    again = g.new_state(99)
    for a in rec.actions:
        again.apply(a)
    assert again.dumps() == state.dumps()
    assert rec.decisions == len(rec.actions) == state.decisions and rec.turns == state.turn
    with pytest.raises(ValueError):
        play_game(g, ["random"], 1)


def test_summarize_has_the_simulate_keys():
    g = make("toy", options={"max_turns": 4})
    recs = run_batch(g, ["random", "random"], 30, seed=3)
    s = summarize(g, ["random", "random"], recs, 3, 1.5)
    assert SUMMARY_KEYS <= set(s)
    json.dumps(s)
    assert s["games"] == 30 and s["seed"] == 3 and s["seconds"] == 1.5 and s["games_per_second"] == 20
    assert s["truncated"] == sum(r.truncated for r in recs) and s["truncated"] > 0
    assert sum(s["wins_by_seat"]) >= 30 - s["truncated"]
    assert s["mean_decisions"] == sum(r.decisions for r in recs) / 30


# -- agents -----------------------------------------------------------------
def test_parse_spec():
    assert parse_spec("random") == ("random", {})
    assert parse_spec(" ismcts:iterations=400:c=1.4:greedy=true:mode=fast ") == (
        "ismcts", {"iterations": 400, "c": 1.4, "greedy": True, "mode": "fast"})


@pytest.mark.parametrize("spec", ["", "   ", "random:oops", "random:=3"])
def test_bad_specs(spec):
    with pytest.raises(UnknownAgentError):
        parse_spec(spec)


def test_unknown_agents_and_parameters():
    g = make("toy")
    with pytest.raises(UnknownAgentError, match="random"):
        make_agent("nobody", g, 0)
    with pytest.raises(UnknownAgentError, match="speed"):
        make_agent("random:speed=3", g, 0)
    with pytest.raises(UnknownAgentError):
        check_spec("nobody", g)
    assert agent_class("random") is RandomAgent
    assert {"random", "first"} <= set(available_agents(g))


def test_random_agent_is_seeded_and_legal():
    g = make("toy")
    s = g.new_state(4)
    picks = [make_agent("random", g, 0, seed=k).act(Decision(s, 0)) for k in range(30)]
    assert all(p in s.legal_actions() for p in picks) and len(set(picks)) > 1
    a, b = make_agent("random", g, 0, 5), make_agent("random", g, 0, 5)
    assert [a.act(Decision(s)) for _ in range(10)] == [b.act(Decision(s)) for _ in range(10)]
    assert make_agent("first", g, 0).act(Decision(s)) == s.legal_actions()[0]
    assert isinstance(make_agent("first", g, 1), FirstAgent) and make_agent("first", g, 1).name == "first"


def test_decision_gives_the_view_and_samples_without_the_truth():
    g = make("toy", players=3)
    s = g.new_state(2)
    d = Decision(s)
    assert d.seat == 0 and d.legal == s.legal_actions() and d.view == s.view(0)
    sample = d.sample(1)
    assert sample.view(0) == s.view(0) and sample is not s


def test_base_agent_parameters():
    class Tunable(BaseAgent):
        defaults = {"depth": 2}

        def act(self, decision):
            return decision.legal[0]

    a = Tunable(make("toy"), 1, 3, depth=5)
    assert a.params == {"depth": 5} and a.seat == 1
    assert Tunable(make("toy"), 0).params == {"depth": 2}
    with pytest.raises(UnknownAgentError, match="depth"):
        Tunable(make("toy"), 0, 0, width=1)


def test_agent_seeds_differ_per_seat():
    assert len({agent_seed(5, s) for s in range(4)}) == 4
