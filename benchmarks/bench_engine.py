"""Simulation speed of a game: playouts per second, decisions per second, clone time.

    python benchmarks/bench_engine.py --game dungeons-jewel
    python benchmarks/bench_engine.py --game dungeons-jewel --games 200 --heuristic-games 200 --json

Measures, for the random agent and the game's heuristic agent (if any):

* games/s and decisions/s in one process (wall clock, and CPU time of this
  process, which is what a loaded machine distorts least);
* the same with ``jobs=2`` worker processes (wall clock) and the speed-up, plus a
  CPU-based estimate of the speed-up on an idle machine (2 x CPU-seconds with
  jobs=1 / CPU-seconds of the workers and parent with jobs=2), which stays
  meaningful when other processes load the machine;

and, for the engine itself:

* a bare playout loop (legal actions, a random pick, apply: no agent objects);
* ``clone()`` and ``determinize()`` of a mid-game state, in microseconds.

Targets for The Dungeon's Jewel: random playouts >= 100,000 decisions/s on one
core, clone <= 10 us, jobs=2 >= 1.8x jobs=1.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sys
import time
import timeit
from typing import Any

from boardlab.engine import Rng, make
from boardlab.agents.runner import play_game, run_batch


def machine() -> dict[str, Any]:
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = float("nan")
    return {"nproc": os.cpu_count(), "cpu": cpu, "python": platform.python_version(), "load_1min": round(load, 2)}


def children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def batch(game, specs: list[str], games: int, seed: int, jobs: int, repeat: int = 1) -> dict[str, Any]:
    """One measurement; with ``repeat`` > 1 the fastest of that many identical runs."""
    best = None
    for _ in range(repeat):
        t0, c0, k0 = time.perf_counter(), time.process_time(), children_cpu()
        records = run_batch(game, specs, games, seed, jobs)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        workers_cpu = children_cpu() - k0
        if best is None or cpu + workers_cpu < best[1] + best[2]:
            best = (wall, cpu, workers_cpu)
    wall, cpu, workers_cpu = best
    decisions = sum(r.decisions for r in records)
    out = {
        "agents": specs[0] if len(set(specs)) == 1 else ",".join(specs),
        "jobs": jobs,
        "games": games,
        "decisions": decisions,
        "truncated": sum(r.truncated for r in records),
        "seconds": round(wall, 3),
        "games_per_s": round(games / wall, 1),
        "decisions_per_s": round(decisions / wall),
    }
    if jobs == 1:
        out["cpu_seconds"] = round(cpu, 3)
        out["decisions_per_cpu_s"] = round(decisions / cpu) if cpu > 0 else None
    else:
        # CPU spent by the workers (and the parent): with jobs=1 costing C CPU-seconds,
        # an idle machine would run this at jobs * C / (workers + parent CPU) times the speed.
        out["cpu_seconds"] = round(workers_cpu + cpu, 3)
    return out


def _spin(n: int) -> int:
    s = 0
    for i in range(n):
        s += i * i
    return s


def machine_parallelism(jobs: int = 2, n: int = 2_000_000, tasks: int = 8) -> float:
    """Control experiment: the speed-up a trivial pure-Python loop gets from ``jobs`` processes now.

    About 2.0 on an idle 2-core machine.  If this is near 1, other processes (or a CPU
    quota) leave no second core, and no ``jobs=2`` figure can show a speed-up.
    """
    import multiprocessing as mp

    t0 = time.perf_counter()
    for _ in range(tasks):
        _spin(n)
    serial = time.perf_counter() - t0
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    with ctx.Pool(jobs) as pool:
        t0 = time.perf_counter()
        pool.map(_spin, [n] * tasks)
        parallel = time.perf_counter() - t0
    return round(serial / parallel, 2)


def bare_loop(game, games: int, seed: int) -> dict[str, Any]:
    """Decisions/s of the engine loop without agent objects (what search playouts pay)."""
    game.record_events = False
    rng = Rng(seed)
    decisions = 0
    c0 = time.process_time()
    for i in range(games):
        state = game.new_state(seed + i)
        legal_actions, apply, current_seat = state.legal_actions, state.apply, state.current_seat
        while current_seat() is not None:
            legal = legal_actions()
            apply(legal[rng.below(len(legal))])
        decisions += state.decisions
    cpu = time.process_time() - c0
    game.record_events = True
    return {"games": games, "decisions": decisions, "decisions_per_cpu_s": round(decisions / cpu)}


def mid_game_state(game, seed: int, agent: str):
    """A state halfway through a game played by ``agent``."""
    _, rec = play_game(game, [agent] * game.players, seed, keep_actions=True)
    state = game.new_state(seed)
    for a in rec.actions[: len(rec.actions) // 2]:
        state.apply(a)
    return state


def micro(fn, number: int = 20000) -> float:
    """Best-of-7 CPU time of one call, in microseconds."""
    t = timeit.Timer(fn, timer=time.process_time)
    return round(min(t.repeat(number=number, repeat=7)) / number * 1e6, 2)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="dungeons-jewel")
    ap.add_argument("--players", type=int)
    ap.add_argument("--variant")
    ap.add_argument("--games", type=int, default=100, help="random-agent games per measurement")
    ap.add_argument("--heuristic-games", type=int, default=100, help="heuristic-agent games per measurement")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement; the fastest counts")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)

    game = make(args.game, players=args.players, variant=args.variant)
    report: dict[str, Any] = {"game": game.id, "variant": game.variant, "players": game.players,
                              "machine": machine(), "batches": []}
    report["machine"]["parallel_speedup_of_a_pure_loop"] = machine_parallelism()
    agents = ["random"] + (["heuristic"] if "heuristic" in game.agents else [])
    for agent in agents:
        n = args.games if agent == "random" else args.heuristic_games
        specs = [agent] * game.players
        run_batch(game, specs, 2, args.seed, 1)  # warm up (imports, content)
        one = batch(game, specs, n, args.seed, 1, args.repeat)
        two = batch(game, specs, n, args.seed, 2, args.repeat)
        two["speedup_vs_jobs1"] = round(two["games_per_s"] / one["games_per_s"], 2)
        if two["cpu_seconds"] > 0:
            two["idle_machine_speedup_estimate"] = round(2 * one["cpu_seconds"] / two["cpu_seconds"], 2)
        report["batches"] += [one, two]
    report["bare_loop"] = bare_loop(game, max(1, args.games // 2), args.seed)
    state = mid_game_state(game, args.seed + 1, agents[-1])
    seat = state.current_seat() or 0
    report["mid_game"] = {"decisions": state.decisions, "agent": agents[-1]}
    report["clone_us"] = micro(state.clone)
    report["determinize_us"] = micro(lambda: state.determinize(seat, 7), number=5000)
    report["legal_actions_uncached_us"] = micro(lambda: state._legal_actions())
    report["machine"]["load_1min_after"] = machine()["load_1min"]

    if args.json:
        print(json.dumps(report))
        return 0
    m = report["machine"]
    print(f"{game.name} ({game.id}, {game.variant}, {game.players} players)")
    print(f"machine: {m['nproc']} x {m['cpu']}, Python {m['python']}, load {m['load_1min']} -> {m['load_1min_after']}; "
          f"a pure loop gets {m['parallel_speedup_of_a_pure_loop']}x from 2 processes right now")
    print(f"{'agents':<10} {'jobs':>4} {'games':>6} {'trunc':>5} {'games/s':>9} {'decisions/s':>12} "
          f"{'dec/CPU-s':>10} {'speed-up':>8} {'CPU-based':>9}")
    for b in report["batches"]:
        print(f"{b['agents']:<10} {b['jobs']:>4} {b['games']:>6} {b['truncated']:>5} {b['games_per_s']:>9} "
              f"{b['decisions_per_s']:>12} {b.get('decisions_per_cpu_s') or '':>10} {b.get('speedup_vs_jobs1', ''):>8} "
              f"{b.get('idle_machine_speedup_estimate', ''):>9}")
    bl = report["bare_loop"]
    print(f"bare engine loop (no agent objects): {bl['decisions_per_cpu_s']} decisions per CPU-second")
    print(f"mid-game state ({state.decisions} decisions in): clone {report['clone_us']} us, "
          f"determinize {report['determinize_us']} us, uncached legal actions {report['legal_actions_uncached_us']} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
