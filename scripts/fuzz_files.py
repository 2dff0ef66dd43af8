"""Fuzz every file a user can hand the ``boardlab`` command line (issue 31).

    nice python scripts/fuzz_files.py --cases 10000 --jobs 2
    python scripts/fuzz_files.py --cases 200 --door replay --json

Each *door* is one command option that reads a file (a saved game, a content,
deck, map, token, board or card file, the Wizard's Labyrinth content folder, a
variant, evaluation or policy file, ``fit-eval --merge --out``, a playtest
resume manifest, a ``compare`` manifest, an arena log).  For each door the
fuzzer starts from a valid file and makes ``--cases`` bad ones, seeded: cut
short, bytes flipped or inserted (mostly not UTF-8), random binary, empty, a
byte-order mark, an integer of 41 to 5,000 digits, ``NaN``/``Infinity``/``1e400``,
nesting thousands of levels deep, a value of the wrong JSON type, a key
removed, a file over the 64 MiB bound (sparse), a FIFO, a folder, a missing
path.  The command runs in-process; every case must end with exit code 0 (the
file is still valid) or 2 with exactly one line ``boardlab: error: ...`` on
stderr, within ``--timeout`` seconds.  Anything else (a traceback, another exit
code, a second line, a hang) is a failure, printed with its door, case and
seed.  Exit code 1 if anything failed.  ``docs/benchmarks.md`` records a run.
(The HTML report and comparison that a valid run folder leads to are stubbed
out: they are not what the door reads, and each costs seconds of plotting.)
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import re
import shutil
import signal
import sys
import tempfile
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from boardlab.cli import build_cli  # noqa: E402
from boardlab.engine import registry  # noqa: E402

GAMES = ROOT / "boardlab" / "games"


class Hang(Exception):
    pass


def _register_toys() -> None:
    from tests.toy import CoinGame, ToyGame

    for gid, cls in (("toy", ToyGame), ("coin", CoinGame)):
        try:
            registry.game_class(gid)
        except Exception:  # noqa: BLE001 - not registered yet
            registry.register(gid, cls)


# -- mutations ------------------------------------------------------------------------------------------------------

NUMBER = re.compile(rb"-?\d+(\.\d+)?([eE][-+]?\d+)?")
SCALAR = re.compile(rb'"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null')


def mutate(base: bytes, rng: random.Random) -> tuple[str, bytes | str]:
    """One bad variant of ``base``: (kind, bytes) or (kind, a special path kind: fifo, dir, missing, oversize)."""
    kind = rng.choice(["truncate", "truncate", "flip", "flip", "insert-bytes", "binary", "empty", "bom", "huge-int",
                       "huge-int", "long-int", "nan", "inf-float", "deep", "deep-value", "retype", "retype", "drop-key",
                       "duplicate", "fifo", "dir", "missing", "oversize", "nul", "utf16"])
    n = len(base)
    if kind == "truncate":
        return kind, base[: rng.randrange(max(1, n))]
    if kind == "flip":
        data = bytearray(base)
        for _ in range(rng.randint(1, 8)):
            if data:
                data[rng.randrange(len(data))] = rng.randrange(256)
        return kind, bytes(data)
    if kind == "insert-bytes":
        at = rng.randrange(n + 1)
        return kind, base[:at] + bytes(rng.randrange(128, 256) for _ in range(rng.randint(1, 4))) + base[at:]
    if kind == "binary":
        return kind, bytes(rng.randrange(256) for _ in range(rng.randint(1, 2048)))
    if kind == "empty":
        return kind, b""
    if kind == "bom":
        return kind, b"\xef\xbb\xbf" + base
    if kind == "nul":
        at = rng.randrange(n + 1)
        return kind, base[:at] + b"\x00" + base[at:]
    if kind == "utf16":
        return kind, base.decode("utf-8", "replace").encode("utf-16")
    if kind in ("huge-int", "long-int", "nan", "inf-float"):
        spots = list(NUMBER.finditer(base))
        new = {"huge-int": b"9" * rng.randint(4301, 6000), "long-int": b"1" * rng.randint(41, 4300),
               "nan": rng.choice([b"NaN", b"-Infinity", b"Infinity"]), "inf-float": b"1e400"}[kind]
        if not spots:
            return kind, new + base
        m = rng.choice(spots)
        return kind, base[: m.start()] + new + base[m.end():]
    if kind == "deep":
        k = rng.choice([101, 1000, 100_000])
        return kind, b"[" * k + base + b"]" * k
    if kind == "deep-value":
        spots = list(SCALAR.finditer(base))
        k = rng.choice([101, 5000, 200_000])
        value = b'{"a":' * k + b"1" + b"}" * k if rng.random() < 0.5 else b"[" * k + b"]" * k
        if not spots:
            return kind, value
        m = rng.choice(spots)
        return kind, base[: m.start()] + value + base[m.end():]
    if kind == "retype":
        spots = list(SCALAR.finditer(base))
        if not spots:
            return kind, base + b" x"
        m = rng.choice(spots)
        value = rng.choice([b'"x"', b"-1", b"0", b"1.5", b"true", b"null", b"[]", b"{}", b'[1,"a",null]', b'{"$r":"x"}',
                            b'{"$t":7}', b"18446744073709551616"])
        return kind, base[: m.start()] + value + base[m.end():]
    if kind == "drop-key":
        keys = list(re.finditer(rb'"[^"\\]*"\s*:', base))
        if not keys:
            return kind, base[1:]
        m = rng.choice(keys)
        end = base.find(b",", m.end())
        end = n if end < 0 else end + 1
        return kind, base[: m.start()] + base[end:]
    if kind == "duplicate":
        at = base.find(b"{")
        return kind, base if at < 0 else base[: at + 1] + b'"format":"x","game":7,' + base[at + 1:]
    return kind, kind  # fifo, dir, missing, oversize


def place(path: Path, payload: bytes | str) -> None:
    """Put ``payload`` at ``path`` (bytes, or one of the special kinds)."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()
    path.parent.mkdir(parents=True, exist_ok=True)
    if payload == "fifo":
        os.mkfifo(path)
    elif payload == "dir":
        path.mkdir()
    elif payload == "missing":
        pass
    elif payload == "oversize":
        with open(path, "wb") as f:
            f.truncate(64 * 1024 * 1024 + 1)  # sparse: no 64 MiB written
    else:
        path.write_bytes(payload)  # type: ignore[arg-type]


# -- doors ------------------------------------------------------------------------------------------------------------

class Door:
    """A command that reads one file: ``args(path)`` gives its arguments, ``base`` the valid file it starts from."""

    def __init__(self, name: str, base: Callable[[Path], bytes], args: Callable[[Path], list[str]],
                 suffix: str = ".json", setup: Callable[[Path], None] | None = None,
                 target: Callable[[Path, random.Random], Path] | None = None) -> None:
        self.name, self.base, self.args, self.suffix, self.setup, self.target = name, base, args, suffix, setup, target


def _file(rel: str) -> Callable[[Path], bytes]:
    return lambda work: (GAMES / rel).read_bytes()


def _saved_game(work: Path) -> bytes:
    from boardlab.cli.savefile import SavedGame
    from boardlab.engine import Rng, make

    game = make("toy", players=2)
    saved = SavedGame.start(game, 5, ["random", "random"])
    state = game.new_state(5)
    rng = Rng(1)
    for _ in range(8):
        if state.is_over():
            break
        legal = state.legal_actions()
        action = legal[rng.below(len(legal))]
        state.apply(action)
        saved.actions.append(list(action))
    return json.dumps(saved.to_json(state)).encode()


def _run(work: Path, *args: str) -> None:
    code, _, err = invoke(list(args), work)
    if code != 0:
        raise RuntimeError(f"setup command {' '.join(args)} failed: {err}")


def _made(name: str) -> Callable[[Path], bytes]:
    return lambda work: (work / "setup" / name).read_bytes()


def _setup_common(work: Path) -> None:
    """Valid files the doors start from, made once per worker: an evaluation, a policy, two runs, an arena log."""
    s = work / "setup"
    if s.exists():
        return
    s.mkdir(parents=True)
    _run(s, "fit-eval", "toy", "--games", "6", "--every", "1", "--out", "eval.json", "--jobs", "1")
    _run(s, "fit-policy", "toy", "--games", "5", "--teacher", "ismcts:iterations=8", "--out", "policy.json", "--jobs", "1")
    _run(s, "playtest", "toy", "--games", "2", "--agents", "random", "--jobs", "1", "--quiet", "--out", "run-a")
    _run(s, "playtest", "toy", "--games", "2", "--agents", "random", "--jobs", "1", "--quiet", "--out", "run-b")
    _run(s, "arena", "toy", "--agents", "random,first", "--games", "2", "--log", "arena.jsonl")
    (s / "variant.json").write_text(json.dumps({"name": "fuzz", "game": "toy", "base": "standard",
                                                "overrides": {"target": 7}}))
    (s / "saved.json").write_bytes(_saved_game(work))


def _run_dir(name: str) -> Callable[[Path, random.Random], Path]:
    def target(case_dir: Path, rng: random.Random) -> Path:
        shutil.copytree(case_dir.parent.parent / "setup" / name, case_dir / name)
        return case_dir / name / "manifest.json"
    return target


def _labyrinth(case_dir: Path, rng: random.Random) -> Path:
    shutil.copytree(GAMES / "wizards_labyrinth" / "data", case_dir / "content")
    which = rng.choice(["wizard_deck.json", "loot_deck.json", "tiles.json", ""])
    return case_dir / "content" / which if which else case_dir / "content"


SIM = ["simulate", "--games", "1", "--max-turns", "1", "--agents", "random"]


def sim(game: str, *extra: str) -> list[str]:
    return [SIM[0], game, *SIM[1:], *extra]


DOORS = [
    Door("replay", _made("saved.json"), lambda p: ["replay", str(p)]),
    Door("armies-cards", _file("armies/data/cards.json"), lambda p: sim("armies", "--option", f"cards_file={p}")),
    Door("armies-deck", _file("armies/data/decks/tor-archers.deck"), lambda p: sim("armies", "--option", f"white_deck={p}"),
         suffix=".deck"),
    Door("blackfire-map", _file("blackfire/data/castle.txt"), lambda p: sim("blackfire", "--option", f"map={p}"),
         suffix=".txt"),
    Door("blackfire-tokens", _file("blackfire/data/tokens.json"), lambda p: sim("blackfire", "--option", f"tokens={p}")),
    Door("dungeon-content", _file("dungeons_jewel/data/content.json"),
         lambda p: sim("dungeons-jewel", "--option", f"content={p}")),
    Door("summoner-cards", _file("summoners_quest/data/cards.json"),
         lambda p: sim("summoners-quest", "--option", f"cards_file={p}")),
    Door("summoner-board", _file("summoners_quest/data/board.json"),
         lambda p: sim("summoners-quest", "--option", f"board_file={p}")),
    Door("labyrinth-content-dir", lambda work: b"",
         lambda p: sim("wizards-labyrinth", "--option", f"content_dir={p if p.name == 'content' else p.parent}"),
         target=_labyrinth),
    Door("variant-file", _made("variant.json"), lambda p: sim("toy", "--variant", str(p))),
    Door("evaluation-file", _made("eval.json"),
         lambda p: ["simulate", "toy", "--games", "1", "--max-turns", "2", "--agents", f"ismcts:iterations=2:eval={p}"]),
    Door("policy-file", _made("policy.json"),
         lambda p: ["simulate", "toy", "--games", "1", "--max-turns", "2", "--agents", f"policy:file={p}"]),
    Door("fit-eval-merge", _made("eval.json"),
         lambda p: ["fit-eval", "toy", "--games", "5", "--every", "50", "--merge", "--out", str(p), "--jobs", "1"]),
    Door("playtest-manifest", lambda work: (work / "setup" / "run-b" / "manifest.json").read_bytes(),
         lambda p: ["playtest", "toy", "--games", "2", "--agents", "random", "--jobs", "1", "--quiet", "--out",
                    str(p.parent)], target=_run_dir("run-b")),
    Door("compare-manifest", lambda work: (work / "setup" / "run-b" / "manifest.json").read_bytes(),
         lambda p: ["compare", str(p.parent.parent / "run-a"), str(p.parent), "--json"],
         target=_run_dir("run-b"), setup=lambda case: shutil.copytree(case.parent.parent / "setup" / "run-a",
                                                                           case / "run-a")),
    Door("arena-log", _made("arena.jsonl"),
         lambda p: ["arena", "toy", "--agents", "random,first", "--games", "2", "--log", str(p)], suffix=".jsonl"),
]


# -- running ----------------------------------------------------------------------------------------------------------

_CLI = None


def invoke(args: list[str], cwd: Path, timeout: float = 60.0) -> tuple[int | str, str, str]:
    """Run ``boardlab ARGS`` in-process in ``cwd``: (exit code or 'traceback'/'hang', stdout, stderr)."""
    global _CLI
    if _CLI is None:
        _CLI = build_cli()
    out, err = io.StringIO(), io.StringIO()
    old = os.getcwd()
    os.chdir(cwd)

    def on_alarm(signum: int, frame: Any) -> None:
        raise Hang()

    signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                _CLI.main(args=args, prog_name="boardlab")
                code: int | str = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except Hang:
        code = "hang"
    except BaseException:  # noqa: BLE001 - what the user would see as a traceback
        code = "traceback"
        err.write(traceback.format_exc(limit=6))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        os.chdir(old)
    return code, out.getvalue()[-2000:], err.getvalue()


def check(code: int | str, err: str) -> str | None:
    """``None`` if the outcome is acceptable, else what is wrong."""
    if code == 0:
        return None
    if code != 2:
        return f"exit {code}"
    if not err.endswith("\n") or err.count("\n") != 1 or not err.startswith("boardlab: error: "):
        return "stderr is not one 'boardlab: error:' line"
    if "Traceback" in err:
        return "traceback"
    return None


def _skip_reports() -> None:
    """The HTML report and comparison (seconds of plotting each) are not what a door reads: stub them out."""
    import boardlab.playtest.compare as compare
    import boardlab.playtest.report as report

    def no_html(*args: Any, **kwargs: Any) -> Path:
        return Path("skipped.html")

    report.write_report = no_html  # type: ignore[assignment]
    compare.html_comparison = no_html  # type: ignore[assignment]


def run_door(task: tuple) -> dict[str, Any]:
    door_name, first, count, seed, timeout, base_dir = task
    _register_toys()
    _skip_reports()
    door = next(d for d in DOORS if d.name == door_name)
    work = Path(tempfile.mkdtemp(prefix=f"fuzz-{door_name}-", dir=base_dir))
    out: dict[str, Any] = {"door": door_name, "cases": 0, "exit0": 0, "exit2": 0, "kinds": {}, "failures": [],
                           "cpu": 0.0}
    t0 = time.process_time()
    try:
        _setup_common(work)
        base = door.base(work)
        for case in range(first, first + count):
            rng = random.Random(f"{seed}:{door_name}:{case}")
            case_dir = work / "cases" / f"c{case}"
            case_dir.mkdir(parents=True)
            if door.setup:
                door.setup(case_dir)
            path = door.target(case_dir, rng) if door.target else case_dir / f"f{case}{door.suffix}"
            mbase = path.read_bytes() if door.target and path.is_file() else base
            kind, payload = mutate(mbase, rng)
            place(path, payload)
            code, _, err = invoke(door.args(path), case_dir, timeout)
            problem = check(code, err)
            out["cases"] += 1
            out["kinds"][kind] = out["kinds"].get(kind, 0) + 1
            if code == 0:
                out["exit0"] += 1
            elif code == 2:
                out["exit2"] += 1
            if problem:
                out["failures"].append({"door": door_name, "case": case, "seed": seed, "kind": kind,
                                        "problem": problem, "stderr": err[-1500:]})
            shutil.rmtree(case_dir, ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    out["cpu"] = time.process_time() - t0
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--door", default="all", help="a door name, or 'all' (" + ", ".join(d.name for d in DOORS) + ")")
    ap.add_argument("--cases", type=int, default=1000, help="cases per door")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds before a case counts as a hang")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    names = [d.name for d in DOORS] if args.door == "all" else [args.door]
    if any(n not in {d.name for d in DOORS} for n in names):
        ap.error(f"unknown door {args.door!r}")
    if args.cases < 1 or not 1 <= args.jobs <= 4 * (os.cpu_count() or 1):
        ap.error("--cases must be positive and --jobs 1..4 per core")
    base_dir = tempfile.mkdtemp(prefix="boardlab-fuzz-files-")
    failed = 0
    try:
        for name in names:
            t0 = time.perf_counter()
            per = -(-args.cases // args.jobs)
            tasks = [(name, j * per, min(per, args.cases - j * per), args.seed, args.timeout, base_dir)
                     for j in range(args.jobs) if args.cases - j * per > 0]
            if len(tasks) == 1:
                parts = [run_door(tasks[0])]
            else:
                with ProcessPoolExecutor(len(tasks)) as pool:
                    parts = list(pool.map(run_door, tasks))
            res: dict[str, Any] = {"door": name, "seed": args.seed, "jobs": args.jobs}
            for k in ("cases", "exit0", "exit2"):
                res[k] = sum(p[k] for p in parts)
            res["kinds"] = {}
            for p in parts:
                for k, v in p["kinds"].items():
                    res["kinds"][k] = res["kinds"].get(k, 0) + v
            res["failures"] = [f for p in parts for f in p["failures"]]
            res["wall_s"] = round(time.perf_counter() - t0, 1)
            res["cpu_s"] = round(sum(p["cpu"] for p in parts), 1)
            failed += len(res["failures"])
            if args.json:
                print(json.dumps(res, sort_keys=True), flush=True)
            else:
                print(f"{name}: {res['cases']:,} cases, {res['exit2']:,} refused with one line, {res['exit0']:,} still "
                      f"valid; {len(res['failures'])} failures; wall {res['wall_s']} s, CPU {res['cpu_s']} s", flush=True)
                for f in res["failures"][:10]:
                    print(f"  FAIL {json.dumps(f)[:1500]}", flush=True)
    finally:
        shutil.rmtree(base_dir, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
