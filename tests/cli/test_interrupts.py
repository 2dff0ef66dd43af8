"""Interrupting the commands that run workers (issue 45, section 2): nothing stuck, nothing half-written.

Each test starts a real ``boardlab`` process with two workers, waits until its workers are at work (and, for a
command with a run folder, until it has kept some games), sends it a signal and checks: the exit code (130 for
SIGINT, 143 for SIGTERM), the one line on stderr ("interrupted; N games kept in D, rerun the same command to
resume") and no traceback, that no worker is alive a second later (also after a SIGKILL of the parent), and that
every file in the run folder is whole (no temporary file left, every Parquet part and JSON file readable).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

STUDY = """
title = "An interrupted study"
game = "blackfire"
seed = 1
agents = "random"
max_games = 100000
pilot_games = 20000

[[question]]
id = "green-side"
ask = "Does green win more than half?"
metric = "win-rate"
who = "green"
expect = "above"
smallest_effect = 0.001
"""


def _children(pid: int) -> set[int]:
    out: set[int] = set()
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out.update(int(x) for x in f.read().split())
    except OSError:
        pass
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _wait_for(what, deadline: float = 60.0, proc: subprocess.Popen | None = None):
    """Poll ``what()`` until it is true (a deadline, not a measurement: a stuck start fails the test)."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        value = what()
        if value:
            return value
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"the command ended early with {proc.returncode}: {proc.stderr.read()[-2000:]}")
        time.sleep(0.05)
    raise AssertionError("timed out waiting for the command to get to work")


def _start(args: list[str], cwd: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BOARDLAB_ENGINE": "python", "COLUMNS": "200"}
    return subprocess.Popen([sys.executable, "-m", "boardlab", *args], cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _parts(folder: Path) -> list[Path]:
    return sorted(folder.rglob("part-[0-9]*.parquet"))


def _whole(folder: Path) -> None:
    """Every file under ``folder`` is complete: no temporary file, every part and JSON file readable."""
    import pyarrow.parquet as pq

    leftovers = [p for p in folder.rglob("*") if p.name.endswith(".tmp")]
    assert not leftovers, leftovers
    for part in _parts(folder):
        pq.read_table(part)
    for doc in folder.rglob("*.json"):
        json.loads(doc.read_text(encoding="utf-8"))


def _interrupt(proc: subprocess.Popen, sig: int) -> tuple[int, str, set[int]]:
    workers = _children(proc.pid)
    assert len(workers) >= 2, workers
    proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError("the command did not stop after the signal") from None
    return proc.returncode, err, workers


def _no_worker_alive(workers: set[int]) -> None:
    end = time.monotonic() + 1.0  # the bound: no worker outlives its command by more than a second
    while any(_alive(w) for w in workers) and time.monotonic() < end:
        time.sleep(0.02)
    assert not [w for w in workers if _alive(w)], "workers outlived the command"


def _one_line(err: str, code: int, sig: int) -> str:
    assert code == 128 + sig, (code, err)
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err and "BrokenPipe" not in err
    assert lines[0].startswith("boardlab: interrupted; "), lines[0]
    return lines[0]


def _working(proc: subprocess.Popen) -> set[int]:
    return _wait_for(lambda: len(_children(proc.pid)) >= 2 and _children(proc.pid), proc=proc)


SIGNALS = [pytest.param(signal.SIGINT, id="SIGINT"), pytest.param(signal.SIGTERM, id="SIGTERM")]


@pytest.mark.parametrize("sig", SIGNALS)
def test_simulate_stops_its_workers_and_says_so(tmp_path, sig):
    proc = _start(["simulate", "blackfire", "--games", "200000", "--jobs", "2", "--agents", "random"], tmp_path)
    _working(proc)
    code, err, workers = _interrupt(proc, sig)
    line = _one_line(err, code, sig)
    assert "no games kept" in line
    _no_worker_alive(workers)


@pytest.mark.parametrize("sig", SIGNALS)
def test_playtest_keeps_whole_parts_and_says_how_many(tmp_path, sig):
    out = tmp_path / "run"
    proc = _start(["playtest", "blackfire", "--games", "200000", "--jobs", "2", "--agents", "random", "--quiet",
                   "--out", str(out)], tmp_path)
    _wait_for(lambda: _parts(out), proc=proc)
    _working(proc)
    code, err, workers = _interrupt(proc, sig)
    line = _one_line(err, code, sig)
    _no_worker_alive(workers)
    _whole(out)
    import pyarrow.parquet as pq

    kept = sum(pq.read_metadata(p).num_rows for p in _parts(out))
    assert kept >= 20
    assert line == f"boardlab: interrupted; {kept:,} games kept in {out}, rerun the same command to resume"


@pytest.mark.parametrize("sig", SIGNALS)
def test_arena_keeps_whole_lines(tmp_path, sig):
    log = tmp_path / "arena.jsonl"
    proc = _start(["arena", "blackfire", "--agents", "random,heuristic", "--games", "200000", "--jobs", "2",
                   "--log", str(log)], tmp_path)
    _wait_for(lambda: log.exists() and log.read_bytes().count(b"\n") >= 3, proc=proc)
    _working(proc)
    code, err, workers = _interrupt(proc, sig)
    line = _one_line(err, code, sig)
    _no_worker_alive(workers)
    data = log.read_bytes()
    assert data.endswith(b"\n")
    rows = [json.loads(x) for x in data.decode().splitlines()]
    assert rows[0]["arena"] == 1 and all("order" in r for r in rows[1:])
    assert f"{len(rows) - 1:,} games kept in {log}" in line


@pytest.mark.slow
@pytest.mark.parametrize("sig", SIGNALS)
def test_tune_stops_its_workers(tmp_path, sig):
    out = tmp_path / "tune"
    proc = _start(["tune", "blackfire", "--target", "balance", "--trials", "40", "--games", "4000", "--rungs", "2",
                   "--jobs", "2", "--agents", "random", "--quiet", "--out", str(out)], tmp_path)
    _working(proc)
    code, err, workers = _interrupt(proc, sig)
    line = _one_line(err, code, sig)
    assert f"kept in {out}" in line
    _no_worker_alive(workers)
    if out.exists():
        _whole(out)


@pytest.mark.slow
@pytest.mark.parametrize("sig", SIGNALS)
def test_study_stops_its_workers(tmp_path, sig):
    plan = tmp_path / "plan.toml"
    plan.write_text(STUDY)
    out = tmp_path / "study"
    proc = _start(["study", str(plan), "--jobs", "2", "--quiet", "--out", str(out)], tmp_path)
    _wait_for(lambda: _parts(out), proc=proc)
    _working(proc)
    code, err, workers = _interrupt(proc, sig)
    line = _one_line(err, code, sig)
    _no_worker_alive(workers)
    _whole(out)
    import pyarrow.parquet as pq

    kept = sum(pq.read_metadata(p).num_rows for p in _parts(out))
    assert f"{kept:,} games kept in {out}" in line


KILLED = [
    pytest.param(["simulate", "blackfire", "--games", "200000", "--jobs", "2", "--agents", "random"], id="simulate"),
    pytest.param(["playtest", "blackfire", "--games", "200000", "--jobs", "2", "--agents", "random", "--quiet",
                  "--out", "run"], id="playtest"),
    pytest.param(["arena", "blackfire", "--agents", "random,heuristic", "--games", "200000", "--jobs", "2",
                  "--log", "arena.jsonl"], id="arena"),
    pytest.param(["tune", "blackfire", "--target", "balance", "--trials", "40", "--games", "4000", "--rungs", "2",
                  "--jobs", "2", "--agents", "random", "--quiet", "--out", "tune"], id="tune"),
    pytest.param(["study", "plan.toml", "--jobs", "2", "--quiet", "--out", "study"], id="study"),
]


@pytest.mark.slow
@pytest.mark.parametrize("args", KILLED)
def test_workers_do_not_outlive_a_killed_command(tmp_path, args):
    (tmp_path / "plan.toml").write_text(STUDY)
    proc = _start(args, tmp_path)
    _working(proc)
    code, _, workers = _interrupt(proc, signal.SIGKILL)
    assert code == -signal.SIGKILL
    _no_worker_alive(workers)
    for folder in ("run", "study"):
        if (tmp_path / folder).exists():
            import pyarrow.parquet as pq

            for part in _parts(tmp_path / folder):  # what a kill leaves visible is whole (a temporary may remain)
                pq.read_table(part)
