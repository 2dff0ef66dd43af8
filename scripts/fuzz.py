"""Fuzz the games at scale with the conformance suite's checks.

    nice python scripts/fuzz.py --game dungeons-jewel --decisions 1000000 --jobs 2
    python scripts/fuzz.py --game all --decisions 20000 --json

Plays random games of ``--game`` (every variant and player count in turn) until
``--decisions`` random decisions have been made, and along the way checks:

* the game's invariants (:meth:`State.check_invariants`) and its rule properties
  (:mod:`boardlab.engine.properties`) after every decision,
  and that legal actions are non-empty tuples of ``str``/``int`` before the end;
* at decision 0, every ``--every`` decisions after it, and at the end: the JSON round-trip (the state's own document,
  and the same without its history, which takes the typed-decoding path),
  clone independence, determinization keeping each seat's view and legal
  actions, and strict refusal of bad input (type twins of legal actions, bad
  indexes, bad RNGs) leaving the state unchanged;
* at the end of every game: apply after game over is refused, and every
  ``--replay-every``-th game is replayed from its seed and actions and must
  end byte for byte the same;
* every ``--tamper-every``-th game: its recorded twin (events on, so the state
  document carries a history) refuses every tampered field, a changed
  configuration (options, variant; with and without the game object and the
  history) and a nested edit inside every data field, with and without the
  history (:func:`tests.conformance.check_tampering`).

A worker stops after :data:`MAX_FAILURES` failing games, so a game that fails
at decision 0 (and so never adds to ``--decisions``) cannot keep it running.

Games run with events off (the simulation fast path); the recorded twin runs with
events on.  Prints counts, failures (with game, seed and decision to reproduce
them), wall and CPU time.  Exit code 1 if anything failed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from boardlab.engine import Rng, State, game_class, make  # noqa: E402
from boardlab.engine.properties import PropertyViolation, check_state, check_transition, properties_of  # noqa: E402
from boardlab.games import BUILTIN  # noqa: E402
from tests.conformance import (  # noqa: E402
    check_apply_after_game_over,
    check_bad_actions,
    check_json_forms,
    check_no_leak,
    check_tampering,
)


MAX_FAILURES = 50
"""A worker stops after this many failing games (they are reported; more would repeat them)."""


def configurations(gid: str) -> list[tuple[str, int]]:
    cls = game_class(gid)
    return [(v.name, p) for v in cls.variants for p in range(cls.min_players, cls.max_players + 1)]


def check_clone(state: State, rng: Rng) -> int:
    before = state.dumps()
    copy = state.clone()
    n = 0
    for _ in range(5):
        if copy.is_over():
            break
        legal = copy.legal_actions()
        copy.apply(legal[rng.below(len(legal))])
        n += 1
    assert state.dumps() == before, "playing on a clone changed the original"
    return n


def play_one(gid: str, variant: str, players: int, seed: int, every: int, replay: bool, tamper: bool,
             max_decisions: int) -> dict[str, Any]:
    """One random game with checks; returns counts and failures."""
    out: dict[str, Any] = {"decisions": 0, "checks": 0, "clone_decisions": 0, "replay_decisions": 0,
                           "bad_inputs": 0, "tampered": 0, "failures": []}
    where = {"game": gid, "variant": variant, "players": players, "seed": seed}
    game = make(gid, players=players, variant=variant)
    game.record_events = False
    rng = Rng(seed ^ 0xF022)
    state = game.new_state(seed)
    props = properties_of(game)
    step_props = props is not None and props.has_step
    actions = []
    try:
        state.check_invariants()
        check_state(state, props)
        while not state.is_over() and state.decisions < max_decisions:
            if state.decisions % every == 0:  # decision 0 (the fresh state) included
                check_json_forms(state)
                out["clone_decisions"] += check_clone(state, rng)
                check_no_leak(state, rng)
                out["bad_inputs"] += check_bad_actions(state)
                out["checks"] += 1
            legal = state.legal_actions()
            assert legal, "no legal actions but the game is not over"
            for a in legal:
                assert type(a) is tuple and a and type(a[0]) is str and all(type(x) in (int, str) for x in a[1:]), a
            action = legal[rng.below(len(legal))]
            before = state.clone() if step_props else state
            state.apply(action)
            actions.append(action)
            out["decisions"] += 1
            state.check_invariants()
            if props:
                try:
                    check_transition(before, action, state, props)
                except PropertyViolation as v:
                    v.config, v.seed, v.actions, v.decision = game.config(), seed, actions, state.decisions
                    raise AssertionError(v.describe()) from v
        if state.is_over():
            check_apply_after_game_over(state)
        # the end state gets the per-state checks too (a finished game's save, views and refusals)
        check_json_forms(state)
        out["clone_decisions"] += check_clone(state, rng)
        check_no_leak(state, rng)
        out["bad_inputs"] += check_bad_actions(state)
        out["checks"] += 1
        if replay:
            again = game.new_state(seed)
            for a in actions:
                again.apply(list(a))
            out["replay_decisions"] += len(actions)
            assert again.dumps() == state.dumps(), "replaying the seed and actions gave a different game"
        if tamper:
            recorded = make(gid, players=players, variant=variant)
            twin = recorded.new_state(seed)
            for a in actions[:300]:
                twin.apply(a)
            out["replay_decisions"] += min(len(actions), 300)
            out["tampered"] += check_tampering(twin)
    except Exception as exc:  # noqa: BLE001 - every failure is reported, with what reproduces it
        out["failures"].append({**where, "decision": state.decisions, "error": f"{type(exc).__name__}: {exc}"[:500],
                                "trace": traceback.format_exc(limit=4)[-1500:]})
    return out


def chunk(args: tuple) -> dict[str, Any]:
    gid, seeds, budget, every, replay_every, tamper_every, max_decisions = args
    configs = configurations(gid)
    total: dict[str, Any] = {"games": 0, "decisions": 0, "checks": 0, "clone_decisions": 0, "replay_decisions": 0,
                             "bad_inputs": 0, "tampered": 0, "failures": [], "cpu": 0.0}
    t0 = time.process_time()
    for seed in seeds:
        if total["decisions"] >= budget or len(total["failures"]) >= MAX_FAILURES:
            break  # (a game that fails at decision 0 adds no decisions: the failure cap ends the run)
        variant, players = configs[seed % len(configs)]
        res = play_one(gid, variant, players, seed, every, seed % replay_every == 0, seed % tamper_every == 0,
                       max_decisions)
        total["games"] += 1
        for k in ("decisions", "checks", "clone_decisions", "replay_decisions", "bad_inputs", "tampered"):
            total[k] += res[k]
        total["failures"] += res["failures"]
    total["cpu"] = time.process_time() - t0
    return total


def fuzz(gid: str, decisions: int, jobs: int, seed: int, every: int, replay_every: int, tamper_every: int,
         max_decisions: int) -> dict[str, Any]:
    t0, c0 = time.perf_counter(), time.process_time()
    per_job = -(-decisions // jobs)
    # job j plays seeds seed + j, seed + j + jobs, ...; each stops once it made its share of decisions
    tasks = [(gid, range(seed + j, seed + 10**9, jobs), per_job, every, replay_every, tamper_every, max_decisions)
             for j in range(jobs)]
    if jobs == 1:
        parts = [chunk(tasks[0])]
    else:
        with ProcessPoolExecutor(jobs) as pool:
            parts = list(pool.map(chunk, tasks))
    out: dict[str, Any] = {"game": gid, "configurations": len(configurations(gid)), "jobs": jobs, "seed": seed,
                           "every": every}
    for k in ("games", "decisions", "checks", "clone_decisions", "replay_decisions", "bad_inputs", "tampered"):
        out[k] = sum(p[k] for p in parts)
    out["failures"] = [f for p in parts for f in p["failures"]]
    out["wall_s"] = round(time.perf_counter() - t0, 1)
    out["cpu_s"] = round(sum(p["cpu"] for p in parts) + (time.process_time() - c0 if jobs > 1 else 0), 1)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", required=True, help="a game id, or 'all'")
    ap.add_argument("--decisions", type=int, required=True, help="random decisions to play per game")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--every", type=int, default=200, help="run the per-state checks every N decisions")
    ap.add_argument("--replay-every", type=int, default=4, help="replay every N-th game from its seed")
    ap.add_argument("--tamper-every", type=int, default=25, help="tamper with every N-th game's saved state")
    ap.add_argument("--max-decisions", type=int, default=20_000, help="stop a single game after this many decisions")
    ap.add_argument("--json", action="store_true", help="print one JSON object per game")
    args = ap.parse_args(argv)
    games = sorted(BUILTIN) if args.game == "all" else [args.game]
    if any(g not in BUILTIN for g in games):
        ap.error(f"unknown game {args.game!r} (games: {', '.join(sorted(BUILTIN))}, all)")
    if args.decisions < 1 or args.jobs < 1 or args.every < 1 or args.jobs > 4 * (os.cpu_count() or 1):
        ap.error("--decisions, --jobs and --every must be positive (--jobs at most 4 per core)")
    failed = 0
    for gid in games:
        res = fuzz(gid, args.decisions, args.jobs, args.seed, args.every, args.replay_every, args.tamper_every,
                   args.max_decisions)
        failed += len(res["failures"])
        if args.json:
            print(json.dumps(res, sort_keys=True), flush=True)
        else:
            print(f"{gid}: {res['decisions']:,} decisions in {res['games']:,} games ({res['configurations']} configurations), "
                  f"{res['checks']:,} checked states, {res['bad_inputs']:,} bad inputs refused, "
                  f"{res['tampered']:,} tampered documents refused, {res['clone_decisions'] + res['replay_decisions']:,} "
                  f"more decisions on clones and replays; {len(res['failures'])} failures; "
                  f"wall {res['wall_s']} s, CPU {res['cpu_s']} s", flush=True)
            for f in res["failures"][:20]:
                print(f"  FAIL {f}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
