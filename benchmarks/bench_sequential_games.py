"""How many games a sequentially stopped verdict needs (issue 21, "Fewer games").

    python benchmarks/bench_sequential_games.py [--json]

``boardlab playtest --until-ci WIDTH`` stops at the first look (every ``--look-every`` = 100
games) where every seat's (or side's) anytime-valid 95% interval is narrower than WIDTH, the
intervals split across the seats by Bonferroni (:func:`boardlab.playtest.sequential.status`).  This
script computes, without playing, the look at which that happens when every seat wins at its
fair rate (1/seats: the widest case for a fair game; a lopsided game stops sooner), for the
seat or side counts of the five games' verdicts and for WIDTH 0.1 and 0.2.  For comparison it
gives the fixed-sample size at which a Wilson interval (no looks) would be as narrow.
"""

from __future__ import annotations

import argparse
import json
import sys

from boardlab.playtest.sequential import status
from boardlab.stats import wilson

#: (verdict, items whose win rates are tracked): seats, or sides when roles are sides.
CASES = (("2 seats or sides (Armies, Blackfire, the Labyrinth's wizard vs heroes)", 2),
         ("4 seats (Dungeon's Jewel, Summoner's Quest)", 4))


def rows_at_fair_rate(n: int, items: int) -> list[dict]:
    """n games in which seat ``i % items`` wins game i (each seat's rate is exactly 1/items at every look)."""
    roles = [f"seat {s}" for s in range(items)]
    return [{"winners": [i % items], "roles": roles} for i in range(n)]


def first_look(items: int, width: float, every: int = 100, limit: int = 20000) -> int | None:
    for n in range(every, limit + 1, every):
        if status(rows_at_fair_rate(n, items), items, width)["done"]:
            return n
    return None


def fixed_sample(items: int, width: float, limit: int = 20000) -> int | None:
    for n in range(10, limit + 1, 10):
        lo, hi = wilson(n // items, n)
        if hi - lo <= width:
            return n
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    for label, items in CASES:
        for width in (0.1, 0.2):
            row = {"verdict": label, "items": items, "width": width,
                   "sequential_games": first_look(items, width), "fixed_wilson_games": fixed_sample(items, width)}
            print(json.dumps(row) if args.json else row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
