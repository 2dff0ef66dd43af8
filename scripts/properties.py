#!/usr/bin/env python
"""Check every game's rule properties over many transitions of random, heuristic and short-search games.

    nice python scripts/properties.py --game all --transitions 1000000 --jobs 2 --mix long
    python scripts/properties.py --game dungeons-jewel --transitions 20000 --json

A rule property (:mod:`boardlab.engine.properties`, declared in ``boardlab/games/<game>/properties.py``)
is something the seed's rules make always true: of every reachable position (a state property) or of
every transition of some kind (a step property).  This script plays games of ``--game`` in every variant
and player count in turn, with the agents of ``--mix`` rotating from game to game (``random``, the
game's ``heuristic``, and a short ISMCTS search), and checks every property after every action, until
``--transitions`` actions have been checked per game.  Games are seeded ``seed, seed + 1, ...`` and
each game's configuration, agents and seed decide it entirely.

A violation prints the property, the concordance rows it checks, and a replayable record: the game's
configuration, the state's seed and the action list, as one JSON line (``--failures FILE`` keeps them;
:func:`boardlab.engine.properties.replay` rebuilds the failing transition from one).  A worker stops a
game at its first violation and the run after :data:`MAX_FAILURES` of them.  Exit code 1 if any
property failed, 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from boardlab.agents import Decision, make_agent  # noqa: E402
from boardlab.agents.runner import agent_seed, tune_gc_for_simulation  # noqa: E402
from boardlab.engine import game_class, make  # noqa: E402
from boardlab.engine.properties import PropertyViolation, check_state, check_transition, properties_of  # noqa: E402
from boardlab.games import BUILTIN  # noqa: E402

MAX_FAILURES = 20
#: The agent mixes: each game of the run takes the next spec in turn (every seat plays it).
MIXES = {
    "random": ("random",),
    "heuristic": ("heuristic",),
    "search": ("ismcts:iterations=8:rollout=heuristic",),
    "all": ("random", "heuristic", "random", "heuristic", "ismcts:iterations=8:rollout=heuristic"),
    # the long runs: a search game in 25 (a short search costs 30-80 times a heuristic game's
    # transitions in Python), so a million transitions take minutes, not hours, and still meet the search
    "long": ("random", "heuristic") * 12 + ("ismcts:iterations=8:rollout=heuristic",),
}
MAX_DECISIONS = 5_000  # a single game stops here (the turn cap usually ends it first)


def configurations(gid: str) -> list[tuple[str, int]]:
    cls = game_class(gid)
    return [(v.name, p) for v in cls.variants for p in range(cls.min_players, cls.max_players + 1)]


def agent_spec(gid: str, spec: str) -> str:
    """``heuristic`` for a game without its own heuristic agent falls back to ``random``."""
    if spec == "heuristic" and "heuristic" not in game_class(gid).agents:
        return "random"
    if ":rollout=heuristic" in spec and "heuristic" not in game_class(gid).agents:
        return spec.replace(":rollout=heuristic", "")
    return spec


def play_one(gid: str, variant: str, players: int, seed: int, spec: str) -> dict[str, Any]:
    """One game with every property checked after every action."""
    game = make(gid, players=players, variant=variant)
    game.record_events = False
    props = properties_of(game)
    out: dict[str, Any] = {"transitions": 0, "failure": None}
    if not props:
        return out
    agents = [make_agent(spec, game, seat, agent_seed(seed, seat)) for seat in range(players)]
    state = game.new_state(seed)
    actions: list[tuple] = []
    step = props.has_step
    try:
        check_state(state, props)
        while not state.is_over() and state.decisions < MAX_DECISIONS:
            seat = state.current_seat()
            action = agents[seat].act(Decision(state, seat))
            before = state.clone() if step else state
            state.apply(action)
            actions.append(action)
            out["transitions"] += 1
            check_transition(before, action, state, props)
    except PropertyViolation as v:
        v.config, v.seed, v.actions, v.decision, v.how = game.config(), seed, actions, state.decisions, f"agents {spec!r}"
        out["failure"] = v.replay_doc()
    return out


def chunk(args: tuple) -> dict[str, Any]:
    gid, seeds, budget, mix = args
    tune_gc_for_simulation()
    configs = configurations(gid)
    specs = [agent_spec(gid, s) for s in MIXES[mix]]
    total: dict[str, Any] = {"games": 0, "transitions": 0, "failures": [], "by_agent": {}}
    for seed in seeds:
        if total["transitions"] >= budget or len(total["failures"]) >= MAX_FAILURES:
            break
        variant, players = configs[seed % len(configs)]
        spec = specs[(seed // len(configs)) % len(specs)]
        res = play_one(gid, variant, players, seed, spec)
        if res["transitions"] == 0 and res["failure"] is None:
            break  # a game without properties
        total["games"] += 1
        total["transitions"] += res["transitions"]
        total["by_agent"][spec] = total["by_agent"].get(spec, 0) + res["transitions"]
        if res["failure"]:
            total["failures"].append(res["failure"])
    return total


def run(gid: str, transitions: int, jobs: int, seed: int, mix: str) -> dict[str, Any]:
    t0 = time.perf_counter()
    per_job = -(-transitions // jobs)
    tasks = [(gid, range(seed + j, seed + 10**9, jobs), per_job, mix) for j in range(jobs)]
    if jobs == 1:
        parts = [chunk(tasks[0])]
    else:
        with ProcessPoolExecutor(jobs) as pool:
            parts = list(pool.map(chunk, tasks))
    props = game_class(gid).properties
    by_agent: dict[str, int] = {}
    for p in parts:
        for k, v in p["by_agent"].items():
            by_agent[k] = by_agent.get(k, 0) + v
    return {
        "game": gid,
        "properties": len(props) if props else 0,
        "configurations": len(configurations(gid)),
        "games": sum(p["games"] for p in parts),
        "transitions": sum(p["transitions"] for p in parts),
        "by_agent": by_agent,
        "failures": [f for p in parts for f in p["failures"]],
        "seed": seed,
        "mix": mix,
        "jobs": jobs,
        "wall_s": round(time.perf_counter() - t0, 1),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", required=True, help="a game id, or 'all'")
    ap.add_argument("--transitions", type=int, required=True, help="transitions to check per game")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--seed", type=int, default=0, help="the first game's seed")
    ap.add_argument("--mix", choices=sorted(MIXES), default="all", help="the agents, rotating from game to game")
    ap.add_argument("--failures", type=Path, help="append each violation's replay record (JSON lines) to this file")
    ap.add_argument("--json", action="store_true", help="print one JSON object per game")
    args = ap.parse_args(argv)
    games = sorted(BUILTIN) if args.game == "all" else [args.game]
    if any(g not in BUILTIN for g in games):
        ap.error(f"unknown game {args.game!r} (games: {', '.join(sorted(BUILTIN))}, all)")
    if not 1 <= args.transitions <= 10**9 or not 1 <= args.jobs <= 4 * (os.cpu_count() or 1) or args.seed < 0:
        ap.error("--transitions must be 1..10^9, --jobs 1..4 per core, --seed at least 0")
    failed = 0
    for gid in games:
        res = run(gid, args.transitions, args.jobs, args.seed, args.mix)
        failed += len(res["failures"])
        if args.json:
            print(json.dumps(res, sort_keys=True))
        else:
            agents = ", ".join(f"{k} {v:,}" for k, v in sorted(res["by_agent"].items()))
            print(f"{gid}: {res['properties']} properties, {res['transitions']:,} transitions in {res['games']:,} games"
                  f" over {res['configurations']} configurations ({agents}); {len(res['failures'])} violations;"
                  f" {res['wall_s']} s")
            for f in res["failures"]:
                print(f"  {f['property']} ({', '.join(gid + ':' + r for r in f['rows'])}) at decision {f['decision']}:"
                      f" {f['detail'][:300]}")
                print(f"    replay: {json.dumps({k: f[k] for k in ('config', 'seed', 'how', 'decision')})}")
        if args.failures and res["failures"]:
            with args.failures.open("a", encoding="utf-8") as fh:
                for f in res["failures"]:
                    fh.write(json.dumps(f) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
