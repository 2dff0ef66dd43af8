"""A workload of the compiled core for a sampling profiler: where the core's time goes (issue 43).

    perf record -F 499 -o /tmp/core.perf -- python benchmarks/profile_core.py --game dungeons-jewel --agents ismcts --games 20
    perf report -i /tmp/core.perf --stdio --no-children --sort dso,symbol --percent-limit 1

It plays ``--games`` whole games of ``--game`` in the core (``boardlab_core.play_games``, one process,
the seeds ``0..games-1``) with every seat played by ``--agents`` (a core agent spec, e.g. ``ismcts``,
``ismcts:iterations=200``, ``heuristic`` or ``random``), and prints the wall and CPU time. The
extension module is built without stripping (maturin's default), so ``perf`` names the Rust functions;
inlined helpers are counted in the function they were inlined into. Results: docs/benchmarks.md,
"Compiled core", "Where the core's time goes".
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from boardlab.engine import make  # noqa: E402
from boardlab.engine.core import native  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="dungeons-jewel")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--agents", default="ismcts")
    ap.add_argument("--games", type=int, default=20)
    args = ap.parse_args(argv)
    mod = native()
    if mod is None:
        print("profile_core.py: the compiled core is not installed (pip install -e crates/boardlab-core)", file=sys.stderr)
        return 2
    game = make(args.game, players=args.players)
    spec = game.core_spec()
    t0, c0 = time.perf_counter(), time.process_time()
    docs = mod.play_games(game.id, spec, [args.agents] * game.players, list(range(args.games)), game.max_turns, False)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    decisions = sum(d["decisions"] for d in docs)
    print(f"{args.game} ({game.players} players), {args.agents}: {len(docs)} games, {decisions} decisions, "
          f"{wall:.2f} s wall, {cpu:.2f} s CPU, {1000 * cpu / max(1, decisions):.3f} ms CPU a decision")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
