"""What ``stop=sure`` saves (issue 21): the same search decisions with and without it.

    python benchmarks/bench_sure_stop.py GAME [--decisions 30] [--iterations 200] [--seed 5] [--json]

Plays one heuristic game of GAME from ``--seed`` (the game's default player count) and, at every
third decision with a choice, until ``--decisions`` are collected, searches the position twice
with two freshly seeded agents that share the seed: ``ismcts:iterations=N`` and
``ismcts:iterations=N:stop=sure``.  It reports how often the two choices agree (they must, always:
a disagreement is a bug and the script exits 1), the iterations each ran, and the CPU seconds each
took (``time.process_time``), with the ratio of the totals.  Rough: one core, one game, CPU time.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time

from boardlab.agents import Decision, make_agent
from boardlab.engine import make


def measure(game_id: str, decisions: int, iterations: int, seed: int) -> dict:
    game = make(game_id)
    game.record_events = False
    state = game.new_state(seed)
    players = [make_agent("heuristic", game, s, seed=s) for s in range(game.players)]
    rows = []
    k = 0
    while not state.is_over() and len(rows) < decisions:
        seat = state.current_seat()
        d = Decision(state, seat)
        if len(d.legal) > 1 and k % 3 == 0:
            full = make_agent(f"ismcts:iterations={iterations}", game, seat, seed=k)
            sure = make_agent(f"ismcts:iterations={iterations}:stop=sure", game, seat, seed=k)
            t0 = time.process_time()
            a = full.act(d)
            t1 = time.process_time()
            b = sure.act(d)
            t2 = time.process_time()
            rows.append((a == b, full.last_iterations, sure.last_iterations, t1 - t0, t2 - t1))
        k += 1
        state.apply(players[seat].act(d))
    it_full = sum(r[1] for r in rows)
    it_sure = sum(r[2] for r in rows)
    cpu_full = sum(r[3] for r in rows)
    cpu_sure = sum(r[4] for r in rows)
    return {
        "game": game_id, "players": game.players, "seed": seed, "iterations": iterations,
        "decisions": len(rows), "same_choice": sum(r[0] for r in rows),
        "iterations_full": it_full, "iterations_sure": it_sure,
        "iteration_ratio": round(it_full / it_sure, 3) if it_sure else None,
        "stopped_early": sum(1 for r in rows if r[2] < r[1]),
        "cpu_s_full": round(cpu_full, 2), "cpu_s_sure": round(cpu_sure, 2),
        "cpu_ratio": round(cpu_full / cpu_sure, 3) if cpu_sure else None,
        "python": platform.python_version(),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--decisions", type=int, default=30)
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    out = measure(args.game, args.decisions, args.iterations, args.seed)
    if args.json:
        print(json.dumps(out, sort_keys=True))
    else:
        for key, value in out.items():
            print(f"{key:18} {value}")
    return 0 if out["same_choice"] == out["decisions"] else 1


if __name__ == "__main__":
    sys.exit(main())
