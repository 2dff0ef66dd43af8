"""Measure the largest number of legal actions each game offers, for the adapters' action spaces.

    nice python scripts/action_bounds.py --games 400 --json

Plays ``--games`` random games of every variant and player count of every
built-in game (events off, the simulation fast path; half of them with a
greedy "most choices" player that always takes the action leading to the
most legal actions one step ahead, which finds the crowded positions random
play rarely reaches) and prints, per game, the largest legal-action count
seen, where (configuration, seed, decision), and the bound in
:data:`boardlab.envs.encoding.ACTION_BOUNDS` with its margin.  Exit code 1 if
any count exceeds its bound.  ``docs/ecosystem.md`` records the last run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from boardlab.engine import Rng, game_class, make  # noqa: E402
from boardlab.envs.encoding import action_space_size  # noqa: E402
from boardlab.games import BUILTIN  # noqa: E402


def measure(gid: str, games: int, seed: int, max_decisions: int) -> dict:
    cls = game_class(gid)
    configs = [(v.name, p) for v in cls.variants for p in range(cls.min_players, cls.max_players + 1)]
    best = {"count": 0}
    decisions = 0
    for i in range(games):
        variant, players = configs[i % len(configs)]
        game = make(gid, players=players, variant=variant)
        game.record_events = False
        s = seed + i
        state = game.new_state(s)
        rng = Rng(s ^ 0xB0B)
        greedy = i % 2 == 1
        while not state.is_over() and state.decisions < max_decisions:
            legal = state.legal_actions()
            if len(legal) > best["count"]:
                best = {"count": len(legal), "variant": variant, "players": players, "seed": s,
                        "decision": state.decisions, "greedy": greedy}
            if greedy and len(legal) <= 64 and rng.below(4) != 0:
                def ahead(a):
                    c = state.clone()
                    c.apply(a)
                    return len(c.legal_actions())
                action = max(legal, key=ahead)
            else:
                action = legal[rng.below(len(legal))]
            state.apply(action)
            decisions += 1
    bound = action_space_size(make(gid))
    return {"game": gid, "games": games, "decisions": decisions, "max_legal": best, "bound": bound,
            "margin": round(bound / max(1, best["count"]), 2)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="all")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-decisions", type=int, default=5000)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    games = sorted(BUILTIN) if args.game == "all" else [args.game]
    failed = 0
    for gid in games:
        t0 = time.perf_counter()
        res = measure(gid, args.games, args.seed, args.max_decisions)
        res["wall_s"] = round(time.perf_counter() - t0, 1)
        failed += res["max_legal"]["count"] > res["bound"]
        if args.json:
            print(json.dumps(res, sort_keys=True), flush=True)
        else:
            m = res["max_legal"]
            print(f"{gid}: at most {m['count']} legal actions in {res['games']} games ({res['decisions']:,} decisions; "
                  f"{m.get('variant')}, {m.get('players')} players, seed {m.get('seed')}, decision {m.get('decision')}); "
                  f"bound {res['bound']} (margin {res['margin']}x); {res['wall_s']} s", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
