"""How often does ``boardlab tune`` confirm or save a change when the true best is "no change" (issue 33)?

    python benchmarks/bench_tune_honesty.py [--scenarios 40] [--players 2] [--trials 8] [--games 50]
        [--rungs 2] [--confirm-games 400] [--seed0 0] [--jobs 1] [--out FILE.jsonl]

Each scenario is ``tune dungeons-jewel --target balance --params start_health,respawn_health``
(``--players``, default tolerance 0.05) on its own seed (``seed0 + i``). The Dungeon's Jewel's seats
play the same rules and the first seat rotates with the game seed, so every setting of the two
healths has a true seat gap of zero: the designer's values meet the target and no change can be
truly better. Any scenario whose confirmation says "confirmed", or whose ``save_variant`` (without
``--save-unconfirmed``) writes a setting other than the designer's values, is a false claim.

Prints a JSON line per scenario (the search's choice, its losses beside the designer's values on
the same games, the confirmation's verdict and p-value, whether a changed file was written, the
seconds) and a summary line: false confirmations and false saves out of the scenarios with a
Clopper-Pearson 95% interval, the verdicts, and the wall time. ``--out`` also appends the lines to a
file. The target is at most 5% false confirmations.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from boardlab.playtest.tune import UnconfirmedSettingError, save_variant, tune

PARAMS = ["start_health", "respawn_health"]


def scenario(seed: int, args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    t0 = time.perf_counter()
    res = tune("dungeons-jewel", targets=["balance"], params=PARAMS, trials=args.trials, games=args.games, rungs=args.rungs,
               players=args.players, seed=seed, confirm_games=args.confirm_games, jobs=args.jobs)
    conf = res["confirmation"]
    path = folder / f"s{seed}.json"
    try:
        save_variant(res, path)
        saved_change = json.loads(path.read_text())["overrides"] != res["defaults"]
    except UnconfirmedSettingError:
        saved_change = False
    tests = conf.get("tests", [])
    return {
        "seed": seed, "defaults": res["defaults"], "choice": res["best"]["params"],
        "search_games": res["best"]["games"], "default_loss": res["default_losses"][0], "choice_loss": res["best"]["losses"][0],
        "verdict": conf["verdict"], "p_holm": tests[0]["p_holm"] if tests else None,
        "fresh_losses": [tests[0]["loss_a"], tests[0]["loss_b"]] if tests else None,
        "difference_ci95": [tests[0]["ci_low"], tests[0]["ci_high"]] if tests else None,
        "false_confirmed": conf["verdict"] == "confirmed", "saved_change": saved_change,
        "games_played": res["games_played_total"], "seconds": round(time.perf_counter() - t0, 1),
    }


def clopper_pearson(k: int, n: int) -> tuple[float, float]:
    from scipy.stats import binomtest

    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="exact")
    return (round(ci.low, 4), round(ci.high, 4))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenarios", type=int, default=40)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--trials", type=int, default=8)
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--rungs", type=int, default=2)
    ap.add_argument("--confirm-games", type=int, default=400)
    ap.add_argument("--seed0", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.scenarios):
            line = scenario(args.seed0 + i, args, Path(tmp))
            lines.append(line)
            print(json.dumps(line, sort_keys=True), flush=True)
            if args.out:
                with open(args.out, "a", encoding="utf-8") as fh:
                    fh.write(json.dumps(line, sort_keys=True) + "\n")
    n = len(lines)
    k_conf = sum(x["false_confirmed"] for x in lines)
    k_save = sum(x["saved_change"] for x in lines)
    summary = {
        "summary": True, "scenarios": n, "players": args.players, "trials": args.trials, "games": args.games, "rungs": args.rungs,
        "confirm_games": args.confirm_games, "seed0": args.seed0,
        "false_confirmed": k_conf, "false_confirmed_rate": round(k_conf / n, 4), "false_confirmed_ci95": clopper_pearson(k_conf, n),
        "saved_change": k_save, "saved_change_rate": round(k_save / n, 4), "saved_change_ci95": clopper_pearson(k_save, n),
        "verdicts": dict(Counter(x["verdict"] for x in lines)), "games_played": sum(x["games_played"] for x in lines),
        "wall_seconds": round(time.perf_counter() - t0, 1),
        "machine": {"python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count(),
                    "load_average_at_end": [round(x, 2) for x in os.getloadavg()]},
    }
    print(json.dumps(summary, sort_keys=True), flush=True)
    if args.out:
        with open(args.out, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(summary, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
