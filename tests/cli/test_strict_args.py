"""The CLI cases of issue 18: each ends with exit code 2 and one line on stderr, before doing any work."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from boardlab.cli.common import MAX_GAMES, max_jobs

from .test_errors import assert_usage_error

BAD = [
    # run-away resources
    ["simulate", "toy", "--games", "2", "--jobs", "401"],
    ["simulate", "toy", "--games", "2", "--jobs", str(max_jobs() + 1)],
    ["simulate", "toy", "--games", str(10**30)],
    ["simulate", "toy", "--games", str(MAX_GAMES + 1)],
    ["arena", "toy", "--agents", "random,first", "--games", "2", "--jobs", "401"],
    ["fit-eval", "toy", "--out", "e.json", "--jobs", "401"],
    ["tune", "coin", "--target", "balance", "--jobs", "401"],
    ["playtest", "toy", "--games", "2", "--jobs", "401", "--quiet"],
    ["playtest", "toy", "--games", str(10**30), "--quiet"],
    # non-finite or repeated agent parameters
    ["simulate", "toy", "--games", "2", "--agents", "mcts:c=1e400"],
    ["simulate", "toy", "--games", "2", "--agents", "mcts:c=nan"],
    ["simulate", "toy", "--games", "2", "--agents", "ismcts:c=inf"],
    ["simulate", "toy", "--games", "2", "--agents", "mcts:c=1:c=2"],
    ["play", "toy", "--seat", "2=mcts:c=nan"],
    # a repeated --seat or --option for the same key
    ["play", "toy", "--seat", "1=human", "--seat", "1=random"],
    ["play", "toy", "--seat", "2=random", "--seat", "2=first"],
    ["simulate", "toy", "--games", "2", "--option", "target=5", "--option", "target=6"],
    ["simulate", "toy", "--games", "2", "--option", "max_turns=5", "--option", "max_turns=5"],
    # files into a folder that does not exist
    ["tune", "coin", "--target", "balance", "--trials", "1", "--games", "2", "--save-variant", "missing/v.json"],
    ["arena", "toy", "--agents", "random,first", "--games", "2", "--log", "missing/log.jsonl"],
    ["fit-eval", "toy", "--games", "5", "--out", "missing/e.json"],
    # an unreachable or malformed Ray address
    ["playtest", "toy", "--games", "2", "--agents", "random", "--backend", "ray", "--ray-address", "127.0.0.1:9", "--quiet"],
    ["playtest", "toy", "--games", "2", "--agents", "random", "--backend", "ray", "--ray-address", "nonsense", "--quiet"],
]


@pytest.mark.parametrize("args", BAD, ids=[" ".join(a)[:80] for a in BAD])
def test_bad_arguments(run, args):
    assert_usage_error(run(*args))


def test_output_folder_checks_come_before_any_work(run, tmp_path):
    # nothing is written anywhere when the output folder is missing
    assert_usage_error(run("fit-eval", "toy", "--games", "5", "--out", "missing/e.json"))
    assert list(tmp_path.iterdir()) == []


def test_replay_of_deeply_nested_json(run, tmp_path):
    p = tmp_path / "deep.json"
    p.write_text("[" * 100_000 + "]" * 100_000)
    assert_usage_error(run("replay", str(p)))
    p.write_text('{"a":' * 100_000 + "1" + "}" * 100_000)
    assert_usage_error(run("replay", str(p)))


def test_compare_on_a_corrupt_results_file(run):
    for out in ("a", "b"):
        r = run("playtest", "toy", "--games", "2", "--agents", "random", "--jobs", "1", "--quiet", "--out", out)
        assert r.exit_code == 0, r.output
    assert run("compare", "a", "b").exit_code == 0
    with open("b/results.parquet", "r+b") as f:
        f.seek(8)
        f.write(b"\x00" * 64)
    r = run("compare", "a", "b")
    assert_usage_error(r)
    assert "results.parquet" in r.stderr
    with open("a/results.parquet", "wb") as f:
        f.write(b"PAR1 not really")
    assert_usage_error(run("compare", "a", "b"))


def test_a_jobs_value_within_the_cap_still_runs(run):
    r = run("simulate", "toy", "--games", "2", "--jobs", str(min(2, max_jobs())), "--json")
    assert r.exit_code == 0, r.output


def test_python_dash_m_boardlab_runs():
    env = {**os.environ, "COLUMNS": "100"}
    r = subprocess.run([sys.executable, "-m", "boardlab", "simulate", "dungeons-jewel", "--games", "1", "--agents", "random",
                        "--max-turns", "5", "--json"], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert '"games": 1' in r.stdout
    r = subprocess.run([sys.executable, "-m", "boardlab", "simulate", "dungeons-jewel", "--games", "1", "--jobs", "9999"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
