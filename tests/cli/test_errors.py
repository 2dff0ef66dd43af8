"""Every bad argument: exit code 2, one line on stderr, no traceback, no usage dump."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest


def write(path, text):
    path.write_text(text)
    return str(path)


def good_save(tmp_path, **changes):
    doc = {"format": "boardlab.game/1", "game": "toy", "players": 2, "variant": "standard", "options": {},
           "seed": 1, "agents": ["human", "random"], "actions": [["roll"]]}
    doc.update(changes)
    return write(tmp_path / "g.json", json.dumps(doc))


BAD = [
    ["no-such-command"],
    ["games", "--bogus"],
    ["play", "no-such-game"],
    ["play"],
    ["play", "toy", "--players", "9"],
    ["play", "toy", "--players", "two"],
    ["play", "toy", "--variant", "nope"],
    ["play", "toy", "--option", "nope=1"],
    ["play", "toy", "--option", "target=abc"],
    ["play", "toy", "--option", "target=999"],
    ["play", "toy", "--option", "target"],
    ["play", "toy", "--seat", "5=human"],
    ["play", "toy", "--seat", "3=human"],  # seats count from 1: a 2-player game has seats 1 and 2
    ["play", "toy", "--seat", "0=human"],
    ["play", "toy", "--seat", "-1=human"],
    ["play", "toy", "--seat", "x"],
    ["play", "toy", "--seat", "one=human"],
    ["play", "toy", "--seat", "2=nosuchagent"],
    ["play", "toy", "--seat", "2=random:speed=3"],
    ["play", "toy", "--seed", "abc"],
    ["play", "toy", "--save", "no/such/dir/g.json"],
    ["replay"],
    ["replay", "missing.json"],
    ["simulate", "toy"],
    ["simulate", "no-such-game", "--games", "3"],
    ["simulate", "toy", "--games", "0"],
    ["simulate", "toy", "--games", "-4"],
    ["simulate", "toy", "--games", "many"],
    ["simulate", "toy", "--games", "3", "--agents", "nosuch"],
    ["simulate", "toy", "--games", "3", "--agents", "random,random,random"],
    ["simulate", "toy", "--games", "3", "--agents", "random:bogus=1"],
    ["simulate", "toy", "--games", "3", "--agents", "random:oops"],
    ["simulate", "toy", "--games", "3", "--agents", "human"],
    ["simulate", "toy", "--games", "3", "--jobs", "0"],
    ["simulate", "toy", "--games", "3", "--max-turns", "0"],
    ["simulate", "toy", "--games", "3", "--players", "1"],
    ["simulate", "toy", "--games", "3", "--variant", "nope"],
    ["simulate", "toy", "--games", "3", "--seed", "1.5"],
    ["simulate", "toy", "--games", "3", "--option", "x=1"],
    ["simulate", "toy", "--games", "3", "--variant", "missing-file.json"],
    ["fit-eval", "toy"],
    ["fit-eval", "nope", "--out", "e.json"],
    ["fit-eval", "toy", "--out", "e.json", "--games", "0"],
    ["fit-eval", "toy", "--out", "e.json", "--agents", "nosuch"],
    ["fit-eval", "toy", "--out", "e.json", "--agents", "human"],
    ["fit-eval", "toy", "--out", "e.json", "--agents", "random,"],
    ["fit-eval", "toy", "--out", "e.json", "--every", "0"],
    ["serve", "--port", "0"],
    ["serve", "--port", "http"],
    ["serve", "--port", "70000"],
]


def assert_usage_error(result):
    assert result.exit_code == 2, (result.exit_code, result.output)
    err = result.stderr
    assert err.endswith("\n") and err.count("\n") == 1, repr(err)
    assert err.startswith("boardlab: error: ")
    assert "Traceback" not in result.output and "Usage:" not in result.output
    assert result.stdout == ""


@pytest.mark.parametrize("args", BAD, ids=[" ".join(a) for a in BAD])
def test_bad_arguments(run, args):
    assert_usage_error(run(*args))


@pytest.mark.parametrize("content", [
    "not json at all",
    "[1, 2]",
    json.dumps({"format": "something-else"}),
])
def test_malformed_save_files(run, tmp_path, content):
    assert_usage_error(run("replay", write(tmp_path / "bad.json", content)))


@pytest.mark.parametrize("changes", [
    {"game": "no-such-game"},
    {"players": 9},
    {"players": "2"},
    {"seed": "x"},
    {"variant": "nope"},
    {"agents": ["human"]},
    {"agents": "random"},
    {"actions": [["fly", 3]]},
    {"actions": [["roll"], ["roll"], ["roll"], ["play", 99]]},
    {"actions": "roll"},
    {"actions": [[1, 2]]},
    {"options": {"target": "x"}},
    {"options": []},
])
def test_inconsistent_save_files(run, tmp_path, changes):
    assert_usage_error(run("replay", good_save(tmp_path, **changes)))


def test_replay_seat_out_of_range(run, tmp_path):
    """``--seat`` counts from 1, as players see seats: 1 and 2 in a 2-player game."""
    for bad in ("0", "3", "-1"):
        assert_usage_error(run("replay", good_save(tmp_path), "--seat", bad))
    for good in ("1", "2"):
        assert run("replay", good_save(tmp_path), "--seat", good).exit_code == 0


def test_seat_numbers_count_from_1(run, tmp_path):
    """``play --seat 1=human`` is the first seat; a bad number names the range 1..N in one line."""
    r = run("play", "toy", "--seed", "3", "--seat", "1=random", "--seat", "2=random", "--save", str(tmp_path / "w.json"))
    assert r.exit_code == 0, r.output
    assert json.loads((tmp_path / "w.json").read_text())["agents"] == ["random", "random"]
    r = run("play", "toy", "--seed", "3", "--seat", "2=human", "--seat", "1=random", "--save", str(tmp_path / "h.json"), input="q\n")
    assert r.exit_code == 0, r.output
    assert json.loads((tmp_path / "h.json").read_text())["agents"] == ["random", "human"]
    r = run("play", "toy", "--seat", "3=human")
    assert_usage_error(r)
    assert "1..2" in r.stderr
    r = run("play", "toy", "--seat", "0=human")
    assert_usage_error(r)
    assert "counted from 1" in r.stderr
    r = run("replay", good_save(tmp_path), "--seat", "0")
    assert_usage_error(r)
    assert "1..2" in r.stderr


def test_binary_save_file(run, tmp_path):
    p = tmp_path / "bin.json"
    p.write_bytes(b"\xff\xfe\x00garbage")
    assert_usage_error(run("replay", str(p)))


def test_a_directory_is_not_a_save_file(run, tmp_path):
    assert_usage_error(run("replay", str(tmp_path)))


def test_serve_data_dir_must_be_a_directory(run, tmp_path):
    assert_usage_error(run("serve", "--data-dir", write(tmp_path / "f", "x")))


def run_real(*args):
    env = {**os.environ, "COLUMNS": "100"}
    return subprocess.run([sys.executable, "-m", "boardlab.cli", *args], capture_output=True, text=True, env=env,
                          timeout=120)


@pytest.mark.parametrize("args", [
    ["frobnicate"],
    ["replay", "does-not-exist.json"],
    ["play", "dungeons-jewel", "--players", "99"],
])
def test_real_process_exit_code_and_one_line(args):
    """The installed entry point (not just click's test runner) exits 2 with one line."""
    p = run_real(*args)
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert p.stderr.count("\n") == 1 and p.stderr.startswith("boardlab: error: "), p.stderr
    assert p.stdout == ""


def test_help_and_no_arguments_exit_zero(run):
    for args in ([], ["--help"], ["simulate", "--help"], ["play", "-h"]):
        r = run(*args)
        assert r.exit_code == 0 and "Usage:" in r.stdout
    r = run()
    for name in ("games", "play", "replay", "simulate", "serve"):
        assert name in r.stdout
