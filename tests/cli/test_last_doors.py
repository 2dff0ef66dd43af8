"""Issue 31, "strict at the last doors": every file a user hands the CLI, and every number, ends in exit 2 and one line."""

from __future__ import annotations

import json
import os
import socket
import threading

import pytest

from .test_errors import assert_usage_error

BIG = str(10**30)

NUMBERS = [
    ["tune", "coin", "--target", "balance", "--trials", "1", "--games", "2", "--seed", "-5"],
    ["tune", "coin", "--target", "balance", "--trials", "1", "--games", "2", "--seed", str(2**32)],
    ["tune", "coin", "--target", "balance", "--trials", "1", "--games", "2", "--eta", BIG],
    ["tune", "coin", "--target", "balance", "--trials", BIG, "--games", "2"],
    ["tune", "coin", "--target", "balance", "--trials", "1", "--games", "2", "--rungs", BIG],
    ["tune", "coin", "--target", "balance", "--trials", "1", "--games", "2", "--repeats", BIG],
    ["tune", "coin", "--target", "balance", "--trials", "1", "--games", "1000", "--rungs", "8", "--eta", "10"],
    ["tune", "coin", "--target", "length=nan", "--trials", "1", "--games", "2"],
    ["tune", "coin", "--target", "length=1e30", "--trials", "1", "--games", "2"],
    ["tune", "coin", "--target", "length=inf", "--trials", "1", "--games", "2"],
    ["tune", "coin", "--target", "balance", "--closeness", "nan", "--trials", "1", "--games", "2"],
    ["tune", "coin", "--target", "balance", "--closeness", "inf", "--trials", "1", "--games", "2"],
    ["tune", "coin", "--target", "balance", "--tolerance", "nan", "--trials", "1", "--games", "2"],
    ["tune", "coin", "--target", "balance", "--confirm-games", BIG, "--trials", "1", "--games", "2"],
    ["simulate", "toy", "--games", "1", "--agents", f"ismcts:iterations={BIG}"],
    ["simulate", "toy", "--games", "1", "--agents", "ismcts:time=1e30"],
    ["simulate", "toy", "--games", "1", "--agents", "mcts:depth=" + BIG],
    ["arena", "toy", "--ladder", "ismcts", "--budgets", f"1,{BIG}", "--games", "2"],
    ["simulate", "toy", "--games", "1", "--seed", "-1"],
    ["simulate", "toy", "--games", "1", "--seed", str(10**50)],
    ["simulate", "toy", "--games", "1", "--max-turns", BIG],
    ["simulate", "toy", "--games", "1", "--players", BIG],
    ["playtest", "toy", "--games", "2", "--until-ci", "nan", "--quiet"],
    ["playtest", "toy", "--games", "2", "--until-ci", "0.1", "--look-every", BIG, "--quiet"],
    ["fit-eval", "toy", "--games", "5", "--every", BIG, "--out", "e.json"],
]


@pytest.mark.parametrize("args", NUMBERS, ids=[" ".join(a)[:90] for a in NUMBERS])
def test_every_numeric_option_has_a_range(run, args):
    # the issue: tune --seed -5 and --eta 10**30 gave tracebacks, --trials/--rungs 10**30 and ismcts budgets of
    # 10**30 hung, and nan or 1e30 targets, closeness and tolerance were accepted (exit 0)
    assert_usage_error(run(*args))


NON_UTF8 = b"\x80\xff{}"
HUGE = b'{"a": ' + b"9" * 5000 + b"}"
DEEP = b"[" * 5000 + b"]" * 5000

# (command, the file name the command reads); "F" is replaced by the file under test
FILE_DOORS = [
    (["replay", "F"], "F"),
    (["simulate", "armies", "--games", "1", "--option", "cards_file=F"], "F"),
    (["simulate", "armies", "--games", "1", "--option", "white_deck=F"], "F"),
    (["simulate", "blackfire", "--games", "1", "--option", "map=F"], "F"),
    (["simulate", "blackfire", "--games", "1", "--option", "tokens=F"], "F"),
    (["simulate", "dungeons-jewel", "--games", "1", "--option", "content=F"], "F"),
    (["simulate", "summoners-quest", "--games", "1", "--option", "cards_file=F"], "F"),
    (["simulate", "summoners-quest", "--games", "1", "--option", "board_file=F"], "F"),
    (["simulate", "wizards-labyrinth", "--games", "1", "--option", "content_dir=D"], "D/wizard_deck.json"),
    (["simulate", "toy", "--games", "1", "--variant", "F"], "F"),
    (["simulate", "toy", "--games", "1", "--agents", "ismcts:eval=F"], "F"),
    (["simulate", "toy", "--games", "1", "--agents", "policy:file=F"], "F"),
    (["fit-eval", "toy", "--games", "5", "--merge", "--out", "F"], "F"),
]


def _make(tmp_path, name: str, kind: str):
    p = tmp_path / name
    p.parent.mkdir(parents=True, exist_ok=True)
    if kind == "fifo":
        os.mkfifo(p)
    elif kind == "dir":
        p.mkdir()
    else:
        p.write_bytes({"non-utf8": NON_UTF8, "huge": HUGE, "deep": DEEP}[kind])
    return p


@pytest.mark.parametrize("kind", ["non-utf8", "huge", "deep", "fifo", "dir"])
@pytest.mark.parametrize("door", FILE_DOORS, ids=[" ".join(d[0][:3] + d[0][-1:]) for d in FILE_DOORS])
def test_every_file_door_gives_one_line(run, tmp_path, door, kind):
    args, target = door
    if kind == "dir" and target == "F" and "--out" in args:
        pytest.skip("fit-eval --out refuses a folder before reading it (test_strict_args)")
    name = target.replace("D/", "content/").replace("F", "file.json")
    _make(tmp_path, name, kind)
    args = [a.replace("=D", "=content").replace("F", "file.json") if a in ("F", "content_dir=D") or a.endswith("=F")
            else a for a in args]
    assert_usage_error(run(*args))


def _playtest(run, out: str) -> None:
    r = run("playtest", "toy", "--games", "2", "--agents", "random", "--jobs", "1", "--quiet", "--out", out)
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("kind", ["non-utf8", "huge", "deep", "fifo", "dir"])
def test_run_manifests_and_arena_logs_give_one_line(run, tmp_path, kind):
    _playtest(run, "a")
    _playtest(run, "b")
    (tmp_path / "b" / "manifest.json").unlink()
    _make(tmp_path, "b/manifest.json", kind)
    assert_usage_error(run("compare", "a", "b"))  # a compare manifest
    assert_usage_error(run("playtest", "toy", "--games", "2", "--agents", "random", "--jobs", "1", "--quiet",
                           "--out", "b"))  # a playtest resume manifest
    _make(tmp_path, "arena.jsonl", kind)
    assert_usage_error(run("arena", "toy", "--agents", "random,first", "--games", "2", "--log", "arena.jsonl"))


def _fake_server(reply: bytes | None):
    """A TCP server on 127.0.0.1 that answers every connection with ``reply`` (None: stays silent)."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen()

    def serve():
        while True:
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            if reply is not None:
                conn.recv(100)
                conn.sendall(reply)
                conn.close()

    threading.Thread(target=serve, daemon=True).start()
    return srv


@pytest.mark.parametrize("reply", [b"HTTP/1.1 400 Bad Request\r\n\r\n", b"", None])
def test_ray_address_where_something_else_answers_is_refused_before_ray_starts(run, reply, monkeypatch):
    # the issue: the pre-check passed whenever anything accepted the connection, then Ray logged 20 lines for 20 s
    import boardlab.cli.playtest as pt

    monkeypatch.setattr(pt.check_ray_address, "__defaults__", (0.5,))
    srv = _fake_server(reply)
    try:
        r = run("playtest", "toy", "--games", "2", "--agents", "random", "--backend", "ray", "--ray-address",
                f"127.0.0.1:{srv.getsockname()[1]}", "--quiet")
    finally:
        srv.close()
    assert_usage_error(r)
    assert "Ray" in r.stderr


def test_a_saved_game_with_a_byte_order_mark_still_replays(run, tmp_path):
    doc = {"format": "boardlab.game/1", "game": "toy", "players": 2, "variant": "standard", "options": {},
           "seed": 1, "agents": ["random", "random"], "actions": []}
    (tmp_path / "ok.json").write_bytes(b"\xef\xbb\xbf" + json.dumps(doc).encode())
    r = run("replay", "ok.json")
    assert r.exit_code == 0, r.output
    doc["seed"] = 10**41  # longer than any seed boardlab writes
    (tmp_path / "big.json").write_text(json.dumps(doc))
    assert_usage_error(run("replay", "big.json"))


def test_fuzz_findings_end_in_one_line(run, tmp_path):
    # found by scripts/fuzz_files.py: a deck count of 5,000 digits, a compare manifest without 'game' in its config,
    # an arena log row with Infinity; each was a traceback
    deck = tmp_path / "d.deck"
    deck.write_text("9" * 5000 + " Teachings of Tor\n")
    assert_usage_error(run("simulate", "armies", "--games", "1", "--option", f"white_deck={deck}"))
    _playtest(run, "a")
    _playtest(run, "b")
    manifest = json.loads((tmp_path / "b" / "manifest.json").read_text())
    del manifest["config"]["game"]
    (tmp_path / "b" / "manifest.json").write_text(json.dumps(manifest))
    assert_usage_error(run("compare", "a", "b"))
    r = run("arena", "toy", "--agents", "random,first", "--games", "2", "--log", "log.jsonl")
    assert r.exit_code == 0, r.output
    lines = (tmp_path / "log.jsonl").read_text().splitlines()
    row = json.loads(lines[1])
    row["turns"] = float("inf")
    (tmp_path / "log.jsonl").write_text("\n".join([lines[0], json.dumps(row), *lines[2:]]) + "\n")
    assert_usage_error(run("arena", "toy", "--agents", "random,first", "--games", "4", "--log", "log.jsonl"))


def test_content_of_valid_json_but_the_wrong_shape_is_one_line(run, tmp_path):
    # found by scripts/fuzz_files.py: a list or object where a content file has a string gave TypeError tracebacks
    from pathlib import Path

    data = Path(__file__).resolve().parents[2] / "boardlab" / "games" / "summoners_quest" / "data" / "board.json"
    doc = json.loads(data.read_text())
    nexts = [space for space in doc["centre"] if isinstance(space, dict) and "next" in space]
    assert nexts
    nexts[0]["next"] = {"x": 1}
    (tmp_path / "board.json").write_text(json.dumps(doc))
    r = run("simulate", "summoners-quest", "--games", "1", "--option", "board_file=board.json")
    assert_usage_error(r)
    assert "malformed" in r.stderr or "board" in r.stderr


def test_an_evaluation_file_keyed_by_a_huge_player_count_is_one_line(run, tmp_path):
    # found by scripts/fuzz_files.py (fit-eval --merge --out): a model key of 4,400 digits was a ValueError traceback
    r = run("fit-eval", "toy", "--games", "5", "--every", "50", "--out", "e.json", "--jobs", "1")
    assert r.exit_code == 0, r.output
    doc = json.loads((tmp_path / "e.json").read_text())
    doc["models"]["9" * 4400] = next(iter(doc["models"].values()))
    (tmp_path / "e.json").write_text(json.dumps(doc))
    assert_usage_error(run("fit-eval", "toy", "--games", "5", "--every", "50", "--merge", "--out", "e.json", "--jobs", "1"))
