"""Which engine plays (issue 43): the compiled core where it is installed and supports the run, the
Python rules otherwise, never silently wrong, and the same games either way."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from boardlab.agents.runner import run_batch
from boardlab.cli import build_cli
from boardlab.engine import make
from boardlab.engine import core as engine_core
from boardlab.engine.core import EngineUnavailable, choose
from boardlab.engine.errors import BoardlabError
from boardlab.playtest.run import execute, plan_run
from boardlab.playtest.store import RunDir

HAVE_CORE = engine_core.native() is not None
needs_core = pytest.mark.skipif(not HAVE_CORE, reason="the compiled core (boardlab_core) is not built here")


def test_python_is_chosen_when_asked(monkeypatch):
    game = make("dungeons-jewel", players=2)
    assert choose(game, ["random", "random"], "python").engine == "python"
    monkeypatch.setenv("BOARDLAB_ENGINE", "python")
    c = choose(game, ["random", "random"])
    assert (c.engine, c.reason) == ("python", "BOARDLAB_ENGINE=python")


def test_an_unknown_engine_is_refused():
    with pytest.raises(BoardlabError, match="unknown engine 'rust'"):
        choose(make("armies"), (), "rust")


def test_a_game_without_a_core_runs_on_python_and_core_says_why():
    game = make("armies")
    c = choose(game, ["random", "random"])
    assert c.engine == "python" and c.reason
    with pytest.raises(EngineUnavailable, match="--engine core cannot run this"):
        choose(game, ["random", "random"], "core")


def test_without_the_core_every_choice_is_python(monkeypatch):
    monkeypatch.setattr(engine_core, "_NATIVE", None)
    monkeypatch.setattr(engine_core, "_NATIVE_REASON", "the compiled core is not installed (test)")
    game = make("dungeons-jewel", players=2)
    c = choose(game, ["random", "random"])
    assert c.engine == "python" and "not installed" in c.reason
    with pytest.raises(EngineUnavailable, match="not installed"):
        choose(game, ["random", "random"], "core")


def test_simulate_core_that_cannot_run_exits_2_with_one_line(monkeypatch):
    monkeypatch.setenv("BOARDLAB_ENGINE", "auto")
    res = CliRunner().invoke(build_cli(), ["simulate", "armies", "--games", "2", "--engine", "core"])
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "--engine core cannot run this" in lines[0], res.output


def test_simulate_reports_its_engine(monkeypatch):
    monkeypatch.setenv("BOARDLAB_ENGINE", "auto")
    res = CliRunner().invoke(build_cli(), ["simulate", "armies", "--games", "2", "--agents", "random", "--json",
                                           "--engine", "python"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["engine"] == {"engine": "python", "reason": "--engine python"}


def test_a_playtest_manifest_and_report_say_which_engine_ran(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARDLAB_ENGINE", "python")
    cfg = plan_run("dungeons-jewel", games=4, players=2, agents=["random"], seed=5)
    execute(cfg, tmp_path / "run", jobs=1)
    manifest = RunDir(tmp_path / "run").read_manifest()
    assert manifest["engine"] == {"engine": "python", "reason": "BOARDLAB_ENGINE=python"}
    assert "Engine: the Python rules" in (tmp_path / "run" / "report.html").read_text(encoding="utf-8")


@needs_core
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("agents", ["random", "heuristic"])
def test_the_core_plays_the_same_games_as_python(players, agents):
    game = make("dungeons-jewel", players=players)
    game.record_events = False
    specs = [agents] * players
    core = choose(game, specs, "core")
    py = run_batch(game, specs, 12, seed=players, engine=choose(game, specs, "python"), keep_actions=True)
    fast = run_batch(game, specs, 12, seed=players, engine=core, keep_actions=True)
    assert [r.to_json() for r in fast] == [r.to_json() for r in py]


@needs_core
def test_playtest_rows_are_the_same_on_both_engines(tmp_path, monkeypatch):
    cfg = plan_run("dungeons-jewel", games=6, players=3, agents=["heuristic"], seed=9)
    monkeypatch.setenv("BOARDLAB_ENGINE", "python")
    execute(cfg, tmp_path / "py", jobs=1)
    monkeypatch.setenv("BOARDLAB_ENGINE", "core")
    execute(cfg, tmp_path / "core", jobs=1)
    assert RunDir(tmp_path / "core").read_manifest()["engine"]["engine"] == "core"
    py = sorted(RunDir(tmp_path / "py").read_results(), key=lambda r: r["index"])
    fast = sorted(RunDir(tmp_path / "core").read_results(), key=lambda r: r["index"])
    assert py == fast


def test_engine_option_leaves_the_environment_as_it_found_it(monkeypatch):
    """--engine reaches worker processes through BOARDLAB_ENGINE; an in-process run restores it after."""
    import os

    monkeypatch.delenv("BOARDLAB_ENGINE", raising=False)
    res = CliRunner().invoke(build_cli(), ["simulate", "armies", "--games", "1", "--agents", "random", "--json",
                                           "--engine", "python"])
    assert res.exit_code == 0, res.output
    assert "BOARDLAB_ENGINE" not in os.environ
