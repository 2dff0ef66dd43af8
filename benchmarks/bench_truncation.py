"""How often heuristic-only games reach the turn cap (issue 32, "bots that play on").

    python benchmarks/bench_truncation.py [--jobs 2] [--seed 32] [--scale 1.0] [--only GAME ...]
                                          [--games GAME=N ...] [--json] [--out FILE.jsonl]

Plays every registered game, in every variant and every player count it allows, with the game's
``heuristic`` agent in every seat and the game's default turn cap (``max_turns`` unset), through
:func:`boardlab.agents.runner.run_batch` (the batch runner of ``boardlab simulate``; results do not
depend on ``--jobs``).  For each configuration it reports the games played, how many were truncated,
the rate and its Wilson 95% interval (:func:`boardlab.stats.wilson`), the first truncated game seeds
(replay one with ``boardlab simulate`` or :func:`boardlab.agents.runner.play_game`) and the seconds
taken.  Game *i* of a configuration uses ``derive_seed(seed, i)``, as ``simulate --seed`` does.

Games per configuration (:data:`GAMES`) are chosen so that the whole run takes about 20 minutes on a
shared 2-core machine with ``--jobs 2``: cheap games get more games (and tighter intervals), the slow
ones (Armies, the Labyrinth) 100.  ``--scale`` multiplies every count; ``--games GAME=N`` sets one.
An interval's upper end below 0.5% needs about 770 games without a truncation.

The figures are in ``docs/agents.md`` ("Truncation").  Exit status 0 whatever the rates: this is a
measurement, not a test (``tests/blackfire/test_no_stall.py`` pins Blackfire's seeded batch).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time

from boardlab.agents.runner import run_batch
from boardlab.engine import registry
from boardlab.stats import wilson

#: Games per configuration (variant x player count) of each game.
GAMES = {
    "armies": 100,
    "blackfire": 2000,
    "dungeons-jewel": 300,
    "summoners-quest": 200,
    "wizards-labyrinth": 100,
}
DEFAULT_GAMES = 100
#: The rate the issue aims below.
TARGET = 0.005


def configurations(only: list[str] | None = None) -> list[tuple[str, str, int]]:
    """Every (game, variant, players) of the registry, or of the games in ``only``."""
    out = []
    for cls in registry.list_games():
        if only and cls.id not in only:
            continue
        if "heuristic" not in getattr(cls, "agents", {}):
            continue
        for variant in cls.variants:
            for players in range(cls.min_players, cls.max_players + 1):
                out.append((cls.id, variant.name, players))
    return out


def measure(game_id: str, variant: str, players: int, games: int, seed: int, jobs: int) -> dict:
    game = registry.make(game_id, players=players, variant=variant)
    t0 = time.perf_counter()
    records = run_batch(game, ["heuristic"] * players, games, seed=seed, jobs=jobs)
    seconds = time.perf_counter() - t0
    truncated = [r for r in records if r.truncated]
    lo, hi = wilson(len(truncated), games)
    return {
        "game": game_id, "variant": variant, "players": players, "games": games,
        "max_turns": game.max_turns, "truncated": len(truncated),
        "rate": len(truncated) / games, "ci95": [round(lo, 5), round(hi, 5)],
        "over_target": len(truncated) / games > TARGET,
        "mean_turns": round(sum(r.turns for r in records) / games, 1),
        "truncated_seeds": [r.seed for r in truncated[:5]],
        "seed": seed, "seconds": round(seconds, 1),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=2, choices=range(1, 9), metavar="1..8")
    ap.add_argument("--seed", type=int, default=32)
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every game count")
    ap.add_argument("--only", nargs="*", help="only these game ids")
    ap.add_argument("--games", nargs="*", default=[], metavar="GAME=N", help="games per configuration of GAME")
    ap.add_argument("--json", action="store_true", help="one JSON object per configuration")
    ap.add_argument("--out", help="also append the JSON lines to this file")
    args = ap.parse_args(argv)
    counts = dict(GAMES)
    for item in args.games:
        gid, sep, n = item.partition("=")
        if not sep or not n.isdigit() or int(n) < 1:
            ap.error(f"--games wants GAME=N with N >= 1, got {item!r}")
        counts[gid] = int(n)
    if not 0 < args.scale <= 100:
        ap.error("--scale must be in (0, 100]")
    out = open(args.out, "a") if args.out else None
    start = time.perf_counter()
    if not args.json:
        print("| game | variant | players | games | truncated | rate | Wilson 95% | mean turns | s |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for gid, variant, players in configurations(args.only):
        n = max(1, round(counts.get(gid, DEFAULT_GAMES) * args.scale))
        row = measure(gid, variant, players, n, args.seed, args.jobs)
        row.update(jobs=args.jobs, python=platform.python_version(), when=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
        line = json.dumps(row)
        if out:
            out.write(line + "\n")
            out.flush()
        if args.json:
            print(line, flush=True)
        else:
            lo, hi = row["ci95"]
            flag = " **over 0.5%**" if row["over_target"] else ""
            print(f"| `{gid}` | `{variant}` | {players} | {n} | {row['truncated']} | {100 * row['rate']:.2f}%{flag} "
                  f"| {100 * lo:.2f}-{100 * hi:.2f}% | {row['mean_turns']} | {row['seconds']} |", flush=True)
    print(f"total {time.perf_counter() - start:.0f} s", file=sys.stderr)
    if out:
        out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
