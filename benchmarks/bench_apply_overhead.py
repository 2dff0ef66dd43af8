"""Cost of the engine's strict, transactional ``apply`` on the simulation path.

    python benchmarks/bench_apply_overhead.py --game dungeons-jewel --games 10

Run it with ``PYTHONPATH`` pointing at two checkouts to compare them.  Prints the
bare random-playout loop (legal actions, a random pick, apply; events off, as in
``run_batch``) in decisions per CPU-second, and ``clone()`` of a state 100
decisions in, in CPU microseconds; each the best of several runs.
"""

from __future__ import annotations

import argparse
import time

from boardlab.engine import Rng, make


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="dungeons-jewel")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    game = make(args.game)
    game.record_events = False
    best = None
    n = 0
    for _ in range(args.repeat):
        t = time.process_time()
        n = 0
        for seed in range(args.games):
            s = game.new_state(seed)
            r = Rng(seed)
            while not s.is_over():
                legal = s.legal_actions()
                s.apply(legal[r.below(len(legal))])
                n += 1
        dt = time.process_time() - t
        best = dt if best is None or dt < best else best
    s = game.new_state(1)
    r = Rng(1)
    for _ in range(100):
        legal = s.legal_actions()
        s.apply(legal[r.below(len(legal))])
    clone = 1e9
    for _ in range(7):
        t = time.process_time()
        for _ in range(20000):
            s.clone()
        clone = min(clone, (time.process_time() - t) / 20000 * 1e6)
    print(f"{args.game}: {n} decisions, {n / best:,.0f} decisions per CPU-second; clone {clone:.2f} us")


if __name__ == "__main__":
    main()
