"""Distilled policies (``policy`` agent, ``boardlab fit-policy``): the file, the fit and the agent."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from boardlab.agents import Decision, make_agent
from boardlab.agents.policy import PolicyModel, action_rows, feature_names, load_policy
from boardlab.cli import build_cli
from boardlab.engine import ContentError, make
from boardlab.engine.errors import UnknownAgentError
from boardlab.engine.rng import Rng
from boardlab.playtest.policyfit import HOLDOUT_EVERY, fit, fit_policy


@pytest.fixture(scope="module")
def race_policy(tmp_path_factory):
    """A policy distilled from a small search on the blocking race (fitted once per module)."""
    game = make("agents-race", players=2)
    data = fit_policy(game, "ismcts:iterations=40", games=12, seed=3)
    path = tmp_path_factory.mktemp("policy") / "race.json"
    path.write_text(json.dumps(data))
    return path, data


def test_rows_describe_each_action_by_its_afterstate():
    game = make("agents-race", players=2)
    st = game.new_state(1)
    d = Decision(st)
    names = ["progress", "blocks"]
    rows = action_rows(d, Rng(5), names, ["roll", "step"])
    assert len(rows) == len(d.legal) == 3
    cols = feature_names(game)
    assert cols == ["own:progress", "own:blocks", "rival:progress", "rival:blocks", "over", "over_score", "again"]
    by_action = dict(zip(d.legal, rows))
    assert by_action[("step", 1)][0] == 1.0 and by_action[("step", 2)][0] == 2.0  # own progress after the move
    assert by_action[("step", 2)][2] == 0.0  # the rival has not moved
    assert by_action[("step", 2)][-2:] == [0.0, 1.0]  # the one-hot of the action kind: step
    assert by_action[("roll",)][-2:] == [1.0, 0.0]
    assert st.pos == [0, 0]  # the real state is untouched


def test_the_fit_recovers_a_known_preference_on_held_out_decisions():
    rng = Rng(11)
    rows = []
    for i in range(300):
        n = 2 + rng.below(3)
        xs = [[float(rng.below(10)), float(rng.below(10))] for _ in range(n)]
        best = max(range(n), key=lambda k: (xs[k][0], -k))
        hint = rng.below(n)  # an uninformative "heuristic"
        shares = [1.0 if k == best else 0.0 for k in range(n)]
        rows.append((i // 6, "move", xs, shares, best, hint))
    models, stats = fit(rows)
    w = models["move"]["weights"]
    assert w[0] > 0 and abs(w[1]) < w[0] / 5  # the first column decides, the second is noise
    s = stats["move"]
    assert s["held_out"] == sum(1 for r in rows if r[0] % HOLDOUT_EVERY == HOLDOUT_EVERY - 1)
    assert s["policy_agrees"] >= 0.9 and s["heuristic_agrees"] < 0.5


def test_a_distilled_race_policy_plays_the_teachers_move_and_is_deterministic(race_policy):
    path, data = race_policy
    assert data["game"] == "agents-race" and data["fit"]["teacher"] == "ismcts:iterations=40"
    assert set(data["models"]) >= {"step", "pass"}
    game = make("agents-race", players=2)
    st = game.new_state(2)
    agent = make_agent(f"policy:file={path}", game, 0, seed=1)
    assert agent.act(Decision(st)) == ("step", 2)  # two steps beat one (and the teacher knew it)

    def play(seed):
        s = game.new_state(seed)
        agents = [make_agent(f"policy:file={path}", game, k, seed=seed + k) for k in range(2)]
        while not s.is_over():
            s.apply(agents[s.current_seat()].act(Decision(s)))
        return s.to_json()

    assert play(4) == play(4)


def test_a_distilled_policy_beats_random_play(race_policy):
    path, _ = race_policy
    game = make("agents-race", players=2)
    wins = 0
    for g in range(40):
        s = game.new_state(100 + g)
        me = g % 2
        agents = [make_agent(f"policy:file={path}" if k == me else "random", game, k, seed=g) for k in range(2)]
        while not s.is_over():
            s.apply(agents[s.current_seat()].act(Decision(s)))
        wins += s.results().scores[me]
    assert wins >= 30  # random wins a fair share only if the policy plays badly


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d.update(format=9), "unsupported policy format"),
    (lambda d: d.update(game=5), "'game' must be a game id"),
    (lambda d: d.update(features="health"), "list of names"),
    (lambda d: d.update(models=[]), "'models' must be an object"),
    (lambda d: d["models"]["step"].update(weights=[1.0]), "weights for"),
    (lambda d: d["models"]["step"]["weights"].__setitem__(0, "x"), "must be a finite number"),
])
def test_a_malformed_policy_file_is_refused(race_policy, mutate, message):
    _, data = race_policy
    with pytest.raises(ContentError, match="a policy file holds a JSON object"):
        PolicyModel([data])
    bad = json.loads(json.dumps(data))
    mutate(bad)
    with pytest.raises(ContentError, match=message):
        PolicyModel(bad)


def test_an_unusable_policy_file_is_an_agent_error(race_policy, tmp_path):
    path, data = race_policy
    game = make("agents-race", players=2)
    with pytest.raises(UnknownAgentError, match="has no fitted policy"):
        make_agent("policy", game, 0)
    with pytest.raises(UnknownAgentError, match="auto or a .json"):
        make_agent("policy:file=race.txt", game, 0)
    with pytest.raises(UnknownAgentError, match="not agents-guess"):
        load_policy(make("agents-guess"), str(path))
    other = tmp_path / "other.json"
    other.write_text(json.dumps({**data, "features": ["own:speed"] + data["features"][1:]}))
    with pytest.raises(UnknownAgentError, match="no feature 'own:speed'"):
        load_policy(game, str(other))
    with pytest.raises(UnknownAgentError, match="no parameter 'depth'"):
        make_agent(f"policy:file={path}:depth=2", game, 0)


def test_fit_policy_cli_writes_a_file_and_refuses_a_non_search_teacher(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    cli = build_cli()
    r = runner.invoke(cli, ["fit-policy", "agents-race", "--teacher", "ismcts:iterations=10", "--games", "5",
                            "--out", "p.json"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert "held-out agreement with the teacher" in r.stdout
    assert PolicyModel.load(tmp_path / "p.json").game_id == "agents-race"
    r = runner.invoke(cli, ["fit-policy", "agents-race", "--teacher", "heuristic", "--out", "q.json"])
    assert r.exit_code == 2 and "must be a search agent" in r.stderr
    assert not (tmp_path / "q.json").exists()


def test_a_policy_reads_only_determinizations_and_its_choice_ignores_the_hidden_coin(tmp_path):
    """The policy looks ahead on a sample of the seat's view (never the true state), so two true
    states that differ only in what the seat cannot see give the same choice."""
    from .helpers import SealedDecision

    game = make("agents-guess")
    path = tmp_path / "guess.json"
    path.write_text(json.dumps(fit_policy(game, "ismcts:iterations=10", games=5, seed=1)))
    for seed in range(4):
        state = game.new_state(seed)
        agent = make_agent(f"policy:file={path}", game, 0, seed)
        assert agent.act(SealedDecision(state, 0)) in state.legal_actions()
        flipped = state.clone()
        flipped.coin = 1 - state.coin
        choices = {make_agent(f"policy:file={path}", game, 0, 9).act(Decision(s, 0)) for s in (state, flipped)}
        assert len(choices) == 1


def _race_scores(self, decision):
    """A scoring race heuristic for the tests: prefers one step, then rolling, then two steps."""
    table = {("step", 1): 3.0, ("roll",): 1.0, ("step", 2): 0.0, ("pass",): 0.0, ("block",): -1.0}
    return [table[a] for a in decision.legal]


def test_a_scoring_heuristic_adds_a_column_and_the_agent_follows_it(monkeypatch, tmp_path):
    from boardlab.agents.policy import SCORE

    from .games import RaceHeuristic

    monkeypatch.setattr(RaceHeuristic, "scores", _race_scores, raising=False)
    game = make("agents-race", players=2)
    cols = feature_names(game)
    assert cols[-1] == SCORE and len(cols) == 8
    d = Decision(game.new_state(1))
    rows = action_rows(d, Rng(5), ["progress", "blocks"], ["roll", "step"], _race_scores(None, d))
    by_action = {a: r[len(cols) - 1] for a, r in zip(d.legal, rows)}
    assert by_action == {("step", 1): 0.0, ("roll",): -2.0, ("step", 2): -3.0}  # score minus the best
    # A policy that weighs only the score column plays the heuristic's best-scored action,
    # not the heuristic's own move (step 2): the scores reach the model.
    weights = [0.0] * (len(cols) + 2)
    weights[len(cols) - 1] = 1.0
    policy = {"format": 1, "game": "agents-race", "features": cols, "action_kinds": ["roll", "step"],
              "models": {"step": {"weights": weights, "heuristic": 0.0}}}
    path = tmp_path / "scored.json"
    path.write_text(json.dumps(policy))
    assert make_agent(f"policy:file={path}", game, 0, seed=3).act(d) == ("step", 1)
    # The fit records the column too.
    data = fit_policy(game, "ismcts:iterations=10", games=5, seed=2)
    assert data["features"][-1] == SCORE
    # The score column must come last (it is appended after the afterstate description).
    bad = {**policy, "features": [SCORE] + cols[:-1]}
    with pytest.raises(ContentError, match="must be the last feature"):
        PolicyModel(bad)
