"""Playtest runs: the results store, resuming, backends, reports, the tuner."""

import json
import shutil

import pyarrow.parquet as pq
import pytest

from boardlab.engine.errors import BoardlabError, InvalidOptionError, UnknownAgentError
from boardlab.playtest import execute, plan_run
from boardlab.playtest.store import RunDir
from boardlab.playtest.tune import Target, save_variant, tune


def test_run_folder_holds_results_manifest_and_report(tmp_path):
    cfg = plan_run("toy", games=30, players=3, agents=["random"], seed=4)
    res = execute(cfg, tmp_path / "run", jobs=1, chunk_size=7)
    assert res["complete"] and res["games"] == 30
    table = pq.read_table(tmp_path / "run" / "results.parquet")
    assert table.num_rows == 30
    assert {"seed", "winners", "turns", "truncated", "agents", "metrics"} <= set(table.column_names)
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["config"]["agents"] == ["random"] * 3
    assert manifest["config"]["seed"] == 4 and manifest["complete"]
    assert "boardlab_version" in manifest
    html = (tmp_path / "run" / "report.html").read_text()
    assert "<svg" in html and "Win rate by seat" in html and "http" not in html.split("<svg", 1)[0].lower().replace("http-equiv", "")


def test_results_are_readable_by_pandas_and_duckdb(tmp_path):
    pd = pytest.importorskip("pandas")
    duckdb = pytest.importorskip("duckdb")
    cfg = plan_run("toy", games=12, agents=["random"], seed=1)
    execute(cfg, tmp_path / "r", jobs=1)
    df = pd.read_parquet(tmp_path / "r" / "results.parquet")
    assert len(df) == 12 and df["turns"].min() > 0
    n = duckdb.sql(f"select count(*) from '{tmp_path / 'r' / 'results.parquet'}'").fetchall()[0][0]
    assert n == 12


def test_interrupted_run_resumes_without_redoing_games(tmp_path):
    cfg = plan_run("toy", games=40, players=2, agents=["random"], seed=9)
    full = execute(cfg, tmp_path / "full", jobs=1, chunk_size=5)
    part = execute(cfg, tmp_path / "part", jobs=1, chunk_size=5, stop_after=15)
    assert not part["complete"]
    run = RunDir(tmp_path / "part")
    assert not run.results_path.exists()
    done_before = sorted(r["index"] for r in run.read_parts())
    assert done_before == list(range(15))
    mtimes = {p.name: p.stat().st_mtime_ns for p in run.parts_dir.glob("*.parquet")}
    seen = []
    res = execute(cfg, tmp_path / "part", jobs=1, chunk_size=5, progress=lambda d, t: seen.append(d))
    assert res["complete"]
    assert seen[0] == 15  # resumed from 15 finished games
    for name, mt in mtimes.items():  # finished parts were not rewritten
        assert (run.parts_dir / name).stat().st_mtime_ns == mt
    assert RunDir(tmp_path / "part").read_results() == RunDir(tmp_path / "full").read_results()


def test_a_folder_of_another_run_is_refused(tmp_path):
    execute(plan_run("toy", games=5, agents=["random"], seed=1), tmp_path / "r", jobs=1)
    with pytest.raises(BoardlabError, match="different run"):
        execute(plan_run("toy", games=5, agents=["random"], seed=2), tmp_path / "r", jobs=1)


def test_results_do_not_depend_on_job_count(tmp_path):
    cfg = plan_run("toy", games=30, players=3, agents=["random"], seed=5)
    execute(cfg, tmp_path / "a", jobs=1)
    execute(cfg, tmp_path / "b", jobs=2, chunk_size=4)
    assert RunDir(tmp_path / "a").read_results() == RunDir(tmp_path / "b").read_results()


def test_bad_plans_are_refused():
    with pytest.raises(InvalidOptionError):
        plan_run("toy", games=0)
    with pytest.raises(UnknownAgentError):
        plan_run("toy", games=3, agents=["nobody"])
    with pytest.raises(InvalidOptionError):
        plan_run("toy", games=3, agents=["random", "random", "random"])  # 2 players
    with pytest.raises(InvalidOptionError):
        execute(plan_run("toy", games=3, agents=["random"]), "/tmp/unused-boardlab-run", backend="carrier-pigeon")


def test_restricting_a_tag_the_game_does_not_have_is_refused():
    # the toy game tags nothing: restricting 'card:none' used to change nothing, silently (issue 19)
    with pytest.raises(InvalidOptionError, match="toy has no action tag 'card:none'"):
        plan_run("toy", games=10, agents=["random"], seed=3, restrict={0: "card:none"})


def test_tune_finds_the_planted_optimum():
    # coin: seat 0 wins with probability bias%; balance is best at bias = 50
    res = tune("coin", targets=["balance"], trials=25, games=400, sampler="tpe", seed=1, closeness=0.0)
    assert abs(res["best"]["params"]["bias"] - 50) <= 6
    assert res["best"]["losses"][0] < res["default_losses"][0]


def test_tune_pareto_front_and_variant_file(tmp_path):
    res = tune("coin", targets=["balance", "length=1"], trials=8, games=100, sampler="nsga2", seed=2)
    assert res["pareto_front"] and all(len(f["losses"]) == 2 for f in res["pareto_front"])
    path = save_variant(res, tmp_path / "fair.json")
    from boardlab.engine import make

    game = make("coin", variant=str(path))
    assert game.option_values["bias"] == res["best"]["params"]["bias"]


def test_tune_rejects_bad_targets_and_params():
    with pytest.raises(InvalidOptionError):
        Target.parse("fun")
    with pytest.raises(InvalidOptionError):
        Target.parse("length=abc")
    with pytest.raises(InvalidOptionError):
        tune("coin", targets=["balance"], params=["nope"], trials=1, games=1)
    with pytest.raises(InvalidOptionError):
        tune("coin", targets=["balance"], trials=1, games=1, sampler="oracle")
