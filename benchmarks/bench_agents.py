"""Search speed per game: MCTS iterations per second and time per decision at the default budget.

Run:  python benchmarks/bench_agents.py [--games g1,g2] [--decisions 12] [--json]

For each registered game (default configuration) it plays a seeded random
game, stops at ``decisions`` positions spread along it (skipping forced
moves), and times ``ismcts:iterations=50`` (default rollouts and prior) on
each, reporting iterations/s and seconds per decision, and from them the
default budget's cost (200 iterations or 2 seconds, whichever comes first).  These use
process CPU time, so a busy machine does not distort them; the ``hard``
level's worst wait is wall-clock time (what a human waits).  It also times
the parts of the search loop (determinize, clone, legal actions, apply) so
the cost centres are visible, and the ``hard`` level's worst wait.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from boardlab.agents import Decision, make_agent
from boardlab.agents.levels import level_spec
from boardlab.agents.mcts import DEFAULT_ITERATIONS, DEFAULT_TIME_CAP
from boardlab.engine import make, registry
from boardlab.engine.rng import Rng


def positions(game, seed: int, count: int, limit: int = 600):
    """Up to ``count`` non-forced positions spread along a random playout."""
    agents = [make_agent("random", game, s, seed + s) for s in range(game.players)]
    state = game.new_state(seed)
    found = []
    while not state.is_over() and state.decisions < limit:
        if len(state.legal_actions()) > 1:
            found.append(state.clone())
        seat = state.current_seat()
        state.apply(agents[seat].act(Decision(state, seat)))
    step = max(1, len(found) // max(1, count))
    return found[::step][:count]


def time_parts(game, states, reps: int = 30) -> dict[str, float]:
    """Microseconds per call of the search loop's primitives."""
    rng = Rng(1)
    out = {}
    clock = time.process_time
    t = clock()
    for _ in range(reps):
        for s in states:
            s.determinize(s.current_seat(), rng)
    out["determinize_us"] = 1e6 * (clock() - t) / (reps * len(states))
    t = clock()
    for _ in range(reps):
        for s in states:
            s.clone()
    out["clone_us"] = 1e6 * (clock() - t) / (reps * len(states))
    t = clock()
    for _ in range(reps):
        for s in states:
            c = s.clone()
            c._legal = None  # a clone shares the cached legal actions; time their generation
            c.legal_actions()
    out["legal_actions_us"] = 1e6 * (clock() - t) / (reps * len(states)) - out["clone_us"]
    t = clock()
    for _ in range(reps):
        for s in states:
            c = s.clone()
            c._legal = None
            c.apply(c.legal_actions()[0])
    out["apply_us"] = 1e6 * (clock() - t) / (reps * len(states)) - out["clone_us"] - out["legal_actions_us"]
    return {k: round(max(v, 0.0), 1) for k, v in out.items()}


def bench_game(game_id: str, decisions: int, spec: str = "ismcts:iterations=50") -> dict:
    game = make(game_id)
    game.record_events = False
    states = positions(game, 7, decisions)
    seconds, iters = [], 0
    for i, s in enumerate(states):
        agent = make_agent(spec, game, s.current_seat(), i)
        t = time.process_time()
        agent.act(Decision(s))
        seconds.append(time.process_time() - t)
        iters += agent.last_iterations
    rate = iters / sum(seconds) if sum(seconds) else 0.0
    default_iters = min(DEFAULT_ITERATIONS, int(rate * DEFAULT_TIME_CAP)) if rate else 0
    hard = level_spec(game, "hard")
    hard_worst = 0.0
    for i, s in enumerate(states[: max(2, decisions // 3)]):
        agent = make_agent(hard, game, s.current_seat(), i)
        t = time.perf_counter()
        agent.act(Decision(s))
        hard_worst = max(hard_worst, time.perf_counter() - t)  # wall clock: what a human waits
    return {
        "game": game_id,
        "players": game.players,
        "agent": spec,
        "positions": len(states),
        "iterations_per_second": round(rate, 1),
        "mean_seconds_per_decision": round(statistics.mean(seconds), 3) if seconds else 0.0,
        "max_seconds_per_decision": round(max(seconds), 3) if seconds else 0.0,
        "default_budget_iterations": default_iters,
        "default_budget_seconds": round(default_iters / rate, 2) if rate else 0.0,
        "hard_spec": hard,
        "hard_max_seconds": round(hard_worst, 3),
        **time_parts(game, states),
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", help="comma-separated game ids (default: all registered)")
    ap.add_argument("--decisions", type=int, default=12, help="positions timed per game")
    ap.add_argument("--agent", default="ismcts:iterations=50", help="agent spec to time (an explicit iteration budget)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    ids = args.games.split(",") if args.games else registry.game_ids()
    rows = []
    for gid in ids:
        try:
            rows.append(bench_game(gid, args.decisions, args.agent))
        except ImportError as exc:  # a game still being written
            print(f"skip {gid}: {exc}", file=sys.stderr)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    head = (f"{'game':<20}{'it/s':>8}{'s/dec':>7}{'default it':>11}{'default s':>10}{'hard wait s':>12}"
            f"{'determinize':>12}{'clone':>7}{'legal':>7}{'apply':>7}")
    print(head + "   (primitives in microseconds)")
    for r in rows:
        print(f"{r['game']:<20}{r['iterations_per_second']:>8.0f}{r['mean_seconds_per_decision']:>7.2f}"
              f"{r['default_budget_iterations']:>11}{r['default_budget_seconds']:>10.2f}{r['hard_max_seconds']:>12.2f}"
              f"{r['determinize_us']:>12.0f}{r['clone_us']:>7.0f}{r['legal_actions_us']:>7.0f}{r['apply_us']:>7.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
