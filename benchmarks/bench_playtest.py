"""Playtest lab throughput: local backend with 1 and 2 processes, and the Ray backend.

    python benchmarks/bench_playtest.py [--game dungeons-jewel] [--games 400] [--agents heuristic]

Reports games per second for each setting, the parallel efficiency of the
local backend (throughput with 2 jobs / throughput with 1 job), and the Ray
backend's throughput and fixed overhead (starting a local Ray instance).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import time

from boardlab.playtest import execute, plan_run


def timed_run(cfg, backend: str, jobs: int) -> float:
    folder = tempfile.mkdtemp(prefix="bench-playtest-")
    try:
        t0 = time.perf_counter()
        execute(cfg, folder, backend=backend, jobs=jobs)
        return time.perf_counter() - t0
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="dungeons-jewel")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--agents", default="heuristic")
    parser.add_argument("--no-ray", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    cfg = plan_run(args.game, games=args.games, agents=args.agents.split(","), seed=1)
    out = {"game": args.game, "games": args.games, "agents": args.agents, "cpus": os.cpu_count()}
    t1 = timed_run(cfg, "local", 1)
    t2 = timed_run(cfg, "local", 2)
    out["local_jobs1_gps"] = args.games / t1
    out["local_jobs2_gps"] = args.games / t2
    out["local_efficiency_2"] = t1 / t2
    if not args.no_ray:
        import ray

        t0 = time.perf_counter()
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
        out["ray_startup_s"] = time.perf_counter() - t0
        try:
            tr = timed_run(cfg, "ray", 2)
        finally:
            ray.shutdown()
        out["ray_jobs2_gps"] = args.games / tr
        out["ray_vs_local2"] = t2 / tr
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        for k, v in out.items():
            print(f"{k:22s} {v:.3f}" if isinstance(v, float) else f"{k:22s} {v}")


if __name__ == "__main__":
    main()
