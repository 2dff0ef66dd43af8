"""Fuzz ``State.from_json`` with hand-edited state documents (issue 45).

    nice python scripts/fuzz_states.py --game all --cases 10000
    python scripts/fuzz_states.py --game wizards-labyrinth --cases 500 --json

A document *without* a history and *without* a digest is judged by its
contents alone (the field types of a fresh state, the engine's questions, the
game's invariants and state properties, and a sandboxed try of every legal
action and a short playout: see :meth:`boardlab.engine.state.State.from_json`).
This fuzzer checks that such a document is either refused with
:class:`~boardlab.engine.errors.SaveFileError` or is good for the whole rest of
a game.

For each game it records base documents (random games in every variant and
player count, cut at random points and at their end), drops ``history`` and
``digest``, and makes ``--cases`` edits, seeded: one or two fields anywhere in
``data`` or in ``stack``, ``turn``, ``decisions`` and ``truncated`` set to
``None``, another JSON type, a negative, zero, large or off-by-one number, a
string from elsewhere in the document, an item removed, duplicated or added, a
key removed or added, two items swapped.

Each case must end in one of two ways:

* ``refused``: ``from_json`` raised ``SaveFileError`` (any other exception is a
  failure);
* ``accepted``: then the loaded state must play on: random playouts (their own
  seeds, not the loader's) of up to ``--later`` decisions, with events on,
  asking at every step for the acting seat, legal actions, every seat's view,
  a determinization and evaluation of the acting seat, and the results at the
  end; and its own ``to_json`` must load again.  Any exception there (a
  ``TypeError``, ``IndexError``, ``KeyError``, ``AttributeError`` or
  ``ValueError`` deep in the rules, an ``IllegalActionError`` on a legal action)
  is an *accepted document that fails later*: a failure.

Prints, per game, cases, refused, accepted and failures (with the edit and seed
that reproduce each), wall and CPU time.  Exit code 1 if anything failed.  Every
unedited recorded position must load too (``--valid`` more per worker): a valid
document refused is a failure as well.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from boardlab.engine import Rng, State, game_class, make  # noqa: E402
from boardlab.engine.errors import SaveFileError  # noqa: E402
from boardlab.games import BUILTIN  # noqa: E402

MAX_FAILURES = 40
"""A worker stops recording failures after this many (they repeat)."""

BASES_PER_GAME = 48
"""Recorded base documents per game (spread over its configurations and game lengths)."""


def configurations(gid: str) -> list[tuple[str, int]]:
    cls = game_class(gid)
    return [(v.name, p) for v in cls.variants for p in range(cls.min_players, cls.max_players + 1)]


def bases(gid: str, seed: int, count: int = BASES_PER_GAME) -> list[dict[str, Any]]:
    """``count`` recorded state documents of ``gid`` without history or digest, seeded."""
    rng = random.Random(seed * 7919 + len(gid))
    configs = configurations(gid)
    out = []
    for k in range(count):
        variant, players = configs[k % len(configs)]
        game = make(gid, players=players, variant=variant)
        state = game.new_state(rng.randrange(1 << 30))
        # a mix of openings, middles and (every fourth) finished games
        stop = 10**9 if k % 4 == 3 else rng.choice([0, 1, 3, 10, 30, 80, 200, 500])
        while not state.is_over() and state.decisions < stop and state.decisions < 5000:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        doc = json.loads(state.dumps())
        doc.pop("history", None)
        doc.pop("digest", None)
        out.append(doc)
    return out


# -- edits --------------------------------------------------------------------------------------------------------


def _paths(value: Any, path: tuple, out: list[tuple], depth: int = 0) -> None:
    """Every editable place inside ``value`` (an encoded document part), as key/index paths."""
    out.append(path)
    if depth > 12:
        return
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "$r":
                continue
            _paths(v, path + (k,), out, depth + 1)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _paths(v, path + (i,), out, depth + 1)


def _get(doc: Any, path: tuple) -> Any:
    for k in path:
        doc = doc[k]
    return doc


def _strings(doc: Any) -> list[str]:
    out: list[str] = []
    stack = [doc]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
            out.extend(k for k in v if isinstance(k, str))
        elif isinstance(v, list):
            stack.extend(v)
    return out or ["x"]


def _replacement(old: Any, rng: random.Random, strings: list[str]) -> Any:
    kind = rng.choice(["none", "retype", "retype", "number", "number", "number", "string", "empty", "bool"])
    if kind == "none":
        return None
    if kind == "bool":
        return rng.choice([True, False])
    if kind == "string":
        return rng.choice(strings) if rng.random() < 0.8 else rng.choice(["", "x", "player_99", "\u00e9"])
    if kind == "empty":
        return rng.choice([[], {}, ""])
    if kind == "number":
        if type(old) is int and rng.random() < 0.6:
            return old + rng.choice([-1, 1, -2, 2, -old - 1, 10, 100])
        return rng.choice([-1, 0, 1, 2, 3, 7, 99, 1000, 10**9, -10**9, 2**63, 0.5, -0.5, 1e300])
    # retype: a value of another JSON type
    choices: list[Any] = [None, 0, 1, -1, 2.5, "", "a", [], [0], {}, {"a": 1}, True, False, {"$t": [1, 2]},
                          {"$s": [0]}, {"$d": [[0, 1]]}]
    return rng.choice([c for c in choices if type(c) is not type(old)] or choices)


def edit(doc: dict[str, Any], rng: random.Random) -> str:
    """Make one edit to ``doc`` in place; returns a description of it."""
    top = rng.random()
    if top < 0.08:
        key = rng.choice(["turn", "decisions", "truncated"])
        new = _replacement(doc[key], rng, ["x"])
        doc[key] = new
        return f"{key}={json.dumps(new)[:60]}"
    root = ("stack",) if top < 0.16 else ("data",)
    paths: list[tuple] = []
    _paths(_get(doc, root), root, paths)
    paths = [p for p in paths if len(p) > 1] or paths
    path = rng.choice(paths)
    parent, key = _get(doc, path[:-1]), path[-1]
    where = ".".join(str(p) for p in path)
    old = parent[key]
    how = rng.random()
    if isinstance(old, list) and how < 0.3:
        if old and rng.random() < 0.4:
            del old[rng.randrange(len(old))]
            return f"{where}: an item removed"
        if old and rng.random() < 0.5:
            old.append(copy.deepcopy(rng.choice(old)))
            return f"{where}: an item duplicated"
        if len(old) > 1:
            i, j = rng.sample(range(len(old)), 2)
            old[i], old[j] = old[j], old[i]
            return f"{where}: items {i} and {j} swapped"
        old.append(_replacement(None, rng, _strings(doc)))
        return f"{where}: an item added"
    if isinstance(old, dict) and "$r" not in old and not any(k.startswith("$") for k in old) and how < 0.3:
        if old and rng.random() < 0.5:
            k = rng.choice(list(old))
            del old[k]
            return f"{where}: key {k!r} removed"
        k = rng.choice(_strings(doc))
        old[k] = copy.deepcopy(rng.choice(list(old.values()))) if old else 0
        return f"{where}: key {k!r} added"
    new = _replacement(old, rng, _strings(doc))
    parent[key] = new
    return f"{where}={json.dumps(new)[:60]} (was {json.dumps(old)[:40]})"


# -- the later life of an accepted document ---------------------------------------------------------------------


def play_on(state: State, rng: Rng, later: int, playouts: int) -> None:
    """Random playouts from ``state`` with every question asked at every step; raises on any failure."""
    game = state.game
    again = State.from_json(state.to_json(), game)  # what it saves must load
    assert again.dumps() == state.dumps(), "the accepted state does not save and load to itself"
    for _ in range(playouts):
        s = state.clone()
        for _step in range(later):
            for seat in (None, *range(game.players)):
                s.view(seat)
            if s.is_over():
                s.results()
                break
            seat = s.current_seat()
            legal = s.legal_actions()
            assert seat is not None and legal, "not over, yet no seat can act"
            s.determinize(seat, rng.next64() & 0xFFFF).legal_actions()
            s.evaluate(seat)
            s.apply(legal[rng.below(len(legal))])
        s.dumps()


def run_cases(task: tuple) -> dict[str, Any]:
    gid, seed, cases, later, playouts, two, valid = task
    t0 = time.process_time()
    docs = bases(gid, seed)
    games = {}
    rng = random.Random(seed)
    out: dict[str, Any] = {"game": gid, "cases": 0, "refused": 0, "accepted": 0, "unchanged": 0, "valid": 0, "failures": [],
                           "errors": {}}
    # every recorded position (without its history) must load: a refusal here is a valid document refused
    for k, base in enumerate(docs + bases(gid, seed + 7_000_000, valid)):
        try:
            State.from_json(copy.deepcopy(base))
            out["valid"] += 1
        except Exception as exc:  # noqa: BLE001 - reported
            out["failures"].append({"game": gid, "seed": seed, "case": f"valid-{k}", "edits": [], "stage": "valid",
                                    "error": f"{type(exc).__name__}: {exc}"[:300]})
    for case in range(cases):
        base = docs[case % len(docs)]
        doc = copy.deepcopy(base)
        edits = [edit(doc, rng)]
        if two and rng.random() < 0.25:
            edits.append(edit(doc, rng))
        key = (doc["players"], doc["variant"])
        game = games.get(key)
        if game is None:
            game = games[key] = make(gid, players=doc["players"], variant=doc["variant"])
        out["cases"] += 1
        if doc == base:
            out["unchanged"] += 1
        where = {"game": gid, "seed": seed, "case": case, "edits": edits}
        try:
            state = State.from_json(doc, game if rng.random() < 0.5 else None)
        except SaveFileError as exc:
            out["refused"] += 1
            reason = str(exc).split(":")[0][:60]
            out["errors"][reason] = out["errors"].get(reason, 0) + 1
            continue
        except Exception as exc:  # noqa: BLE001 - from_json must raise SaveFileError only
            out["failures"].append({**where, "stage": "from_json", "error": f"{type(exc).__name__}: {exc}"[:300]})
            continue
        out["accepted"] += 1
        try:
            play_on(state, Rng(seed * 1_000_003 + case), later, playouts)
        except Exception as exc:  # noqa: BLE001 - every failure is reported with what reproduces it
            cause = exc.__cause__ if exc.__cause__ is not None else exc
            if len(out["failures"]) < MAX_FAILURES:
                out["failures"].append({**where, "stage": "later", "error": f"{type(cause).__name__}: {cause}"[:300],
                                        "trace": traceback.format_exc(limit=-3)[-900:]})
            else:
                out["failures"].append({**where, "stage": "later"})
    out["cpu"] = time.process_time() - t0
    return out


def fuzz(gid: str, cases: int, jobs: int, seed: int, later: int, playouts: int, two: bool,
         valid: int) -> dict[str, Any]:
    t0 = time.perf_counter()
    per = -(-cases // jobs)
    tasks = [(gid, seed + j, min(per, cases - j * per), later, playouts, two, valid) for j in range(jobs)
             if cases > j * per or j == 0]
    if len(tasks) == 1:
        parts = [run_cases(tasks[0])]
    else:
        with ProcessPoolExecutor(len(tasks)) as pool:
            parts = list(pool.map(run_cases, tasks))
    out: dict[str, Any] = {"game": gid, "seed": seed, "jobs": jobs}
    for k in ("cases", "refused", "accepted", "unchanged", "valid"):
        out[k] = sum(p[k] for p in parts)
    out["failures"] = [f for p in parts for f in p["failures"]]
    reasons: dict[str, int] = {}
    for p in parts:
        for r, n in p["errors"].items():
            reasons[r] = reasons.get(r, 0) + n
    out["refusals"] = dict(sorted(reasons.items(), key=lambda kv: -kv[1])[:8])
    out["wall_s"] = round(time.perf_counter() - t0, 1)
    out["cpu_s"] = round(sum(p["cpu"] for p in parts), 1)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="all", help="a game id, or 'all'")
    ap.add_argument("--cases", type=int, default=1000, help="edited documents per game")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--later", type=int, default=60, help="decisions per playout of an accepted document")
    ap.add_argument("--playouts", type=int, default=2, help="random playouts of an accepted document")
    ap.add_argument("--valid", type=int, default=48,
                    help="more unedited recorded positions per worker that must load (beyond the bases)")
    ap.add_argument("--single", action="store_true", help="one edit per case (default: a quarter get two)")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    args = ap.parse_args(argv)
    ids = list(BUILTIN) if args.game == "all" else [args.game]
    results = [fuzz(g, args.cases, args.jobs, args.seed, args.later, args.playouts, not args.single,
                    args.valid) for g in ids]
    failed = sum(len(r["failures"]) for r in results)
    if args.json:
        print(json.dumps(results, indent=1))
    else:
        for r in results:
            print(f"{r['game']}: {r['cases']:,} cases, {r['refused']:,} refused, {r['accepted']:,} accepted"
                  f" ({r['unchanged']:,} unchanged by their edit), {len(r['failures'])} failing;"
                  f" {r['valid']:,} unedited positions loaded;"
                  f" {r['wall_s']} s wall, {r['cpu_s']} s CPU")
            for f in r["failures"][:12]:
                print(f"  FAIL {f['game']} seed={f['seed']} case={f['case']} {f['stage']}: {f['edits']}: "
                      f"{f.get('error', '')}")
        print(f"{failed} accepted documents failed later" if failed else "0 accepted documents failed later")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
