"""The compiled core's ISMCTS against Python's (issue 43): strength at equal iterations and at equal time.

    nice python benchmarks/bench_core_strength.py agreement --games 4
    nice python benchmarks/bench_core_strength.py iterations --games 400 --jobs 2 --log /tmp/a.jsonl
    nice python benchmarks/bench_core_strength.py time --iterations 6000 --games 100 --jobs 2 --log /tmp/b.jsonl
    nice python benchmarks/bench_core_strength.py skill --python-games 3 --core-games 100

Each part prints one JSON object and, with ``--out``, writes it (atomically) to that file.

``agreement``
    Python ``ismcts:iterations=N`` plays every seat; at every decision the core's ISMCTS with the
    same spec and the same seed (``core-ismcts``, :mod:`boardlab.agents.core_agent`, one agent per
    seat kept for the game as Python's are) decides on the same position.  It reports how often
    the two choose the same action, and each one's CPU seconds per decision (``time.process_time``:
    on a shared machine the wall clock measures the neighbours), hence the core's iteration count
    that costs what Python's ``N`` costs (``--budget-iterations`` checks a candidate on the same
    positions).
``iterations``
    The arena (``boardlab.agents.arena.run_arena``, seats rotated, shared deals): ``core-ismcts``
    against ``ismcts`` at the same iteration count, 2 players, with the Wilson interval of the
    core's head-to-head score.  With ``--log`` a stopped run resumes.
``time``
    The same arena with the core searching ``--iterations`` (the count that costs what Python's
    default 200 does, from ``agreement``) against Python's ``ismcts:iterations=200``.  With
    ``--proxy`` the 200-iteration side is the core's ``ismcts`` (whole games in the core, half the
    CPU): ``agreement`` shows it chooses Python's action at every decision with the same seed, so
    the games are the same ones; a short run without ``--proxy`` on the same seed checks that.
``skill``
    ``playtest --skill-check`` plays ``strong`` (``ismcts:iterations=200:stop=sure``) in every seat,
    20 games by default.  This part times Python's games and the core's (``play_games``) at that
    spec, and reports how many core games fit in the time of Python's 20, and how many games a
    share needs for +-5 points (the check's anytime-valid confidence sequence, and Wilson).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from boardlab.agents import Decision, make_agent  # noqa: E402
from boardlab.agents.runner import agent_seed, game_seed, tune_gc_for_simulation  # noqa: E402
from boardlab.engine import make  # noqa: E402

GAME = "dungeons-jewel"


def machine() -> dict[str, Any]:
    return {"python": platform.python_version(), "cpus": os.cpu_count(),
            "load_average": [round(x, 2) for x in os.getloadavg()]}


def agreement(args: argparse.Namespace) -> dict[str, Any]:
    """Same positions, same seeds: how often the core's ISMCTS chooses Python's action, and the cost of each."""
    import boardlab_core

    game = make(GAME, players=2)
    game.record_events = False
    spec = f"ismcts:iterations={args.iterations}"
    same = total = 0
    py_cpu = core_cpu = 0.0
    docs: list[tuple[str, int]] = []
    games = []
    for i in range(args.games):
        seed = game_seed(args.seed, i)
        py = [make_agent(spec, game, s, agent_seed(seed, s)) for s in range(2)]
        co = [make_agent("core-" + spec, game, s, agent_seed(seed, s)) for s in range(2)]
        state = game.new_state(seed)
        g_same = g_total = 0
        while (seat := state.current_seat()) is not None:
            c = time.process_time()
            a = py[seat].act(Decision(state, seat))
            py_cpu += time.process_time() - c
            c = time.process_time()
            b = co[seat].act(Decision(state, seat))
            core_cpu += time.process_time() - c
            g_same += a == b
            g_total += 1
            if len(docs) < args.positions:
                docs.append((json.dumps(state.to_json()), seat))
            state.apply(a)
        same += g_same
        total += g_total
        games.append({"seed": seed, "decisions": g_total, "same": g_same, "winners": list(state.results().winners)})
    out: dict[str, Any] = {
        "part": "agreement", "game": GAME, "players": 2, "spec": spec, "games": games, "decisions": total,
        "same_action": same, "agreement": round(same / total, 4),
        "python_cpu_per_decision": round(py_cpu / total, 5), "core_cpu_per_decision": round(core_cpu / total, 6),
        "cost_ratio": round(py_cpu / core_cpu, 1),
        "core_iterations_at_python_cost": int(round(args.iterations * py_cpu / core_cpu, -2)),
    }
    # the candidate budget's cost on the same positions (fresh agents, the conversion included)
    spec_json = game.core_spec()
    for iters in args.budget_iterations:
        c = time.process_time()
        for k, (doc, seat) in enumerate(docs):
            st = boardlab_core.state_from_json(game.id, spec_json, doc)
            boardlab_core.Agent(game.id, spec_json, f"ismcts:iterations={iters}", seat, k).act(st)
        cpu = (time.process_time() - c) / max(1, len(docs))
        py_per = py_cpu / total
        out.setdefault("budgets", []).append({"core_iterations": iters, "positions": len(docs),
                                              "core_cpu_per_decision": round(cpu, 5),
                                              "python_cpu_per_decision": round(py_per, 5),
                                              "core_over_python": round(cpu / py_per, 3)})
    return out


def arena(args: argparse.Namespace, core_spec: str, py_spec: str) -> dict[str, Any]:
    from boardlab.agents.arena import run_arena

    game = make(GAME, players=2)
    c, w = time.process_time(), time.perf_counter()
    rep = run_arena(game, [core_spec, py_spec], args.games, seed=args.seed, jobs=args.jobs, log=args.log)
    h2h = [h for h in rep.get("head_to_head", []) if h.get("agent") == core_spec] or rep.get("head_to_head")
    return {"part": args.part, "game": GAME, "players": 2, "core": core_spec, "python": py_spec,
            "games": rep["games"], "truncated": rep["truncated"], "engines": rep["engines"],
            "agents": rep["agents"], "head_to_head": h2h, "seconds": rep["seconds"],
            "cpu_seconds_parent": round(time.process_time() - c, 1), "wall_seconds": round(time.perf_counter() - w, 1)}


def games_for_half_width(width: float, alpha: float, sequence: bool) -> int:
    """Fewest games whose interval around a share of 1/2 is at most +-``width``."""
    from boardlab.stats import confidence_sequence, wilson

    lo, hi = 2, 200_000
    while lo < hi:
        n = (lo + hi) // 2
        a, b = confidence_sequence(n // 2, n, alpha) if sequence else wilson(n // 2, n)
        if (b - a) / 2 <= width:
            hi = n
        else:
            lo = n + 1
    return lo


def skill(args: argparse.Namespace) -> dict[str, Any]:
    from boardlab.agents.runner import run_batch
    from boardlab.engine.core import choose
    from boardlab.playtest.skill import DEFAULT_GAMES
    from boardlab.stats import ALPHA

    game = make(GAME, players=2)
    spec = "ismcts:iterations=200:stop=sure"  # what the check's "strong" plays (boardlab/agents/levels.py)
    specs = [spec] * game.players
    c = time.process_time()
    py = run_batch(game, specs, args.python_games, seed=args.seed, engine=choose(game, specs, "python"))
    py_cpu = (time.process_time() - c) / args.python_games
    c = time.process_time()
    core = run_batch(game, specs, args.core_games, seed=args.seed, engine=choose(game, specs, "core"))
    core_cpu = (time.process_time() - c) / args.core_games
    budget = DEFAULT_GAMES * py_cpu
    return {
        "part": "skill", "game": GAME, "players": 2, "spec": spec,
        "python_games": args.python_games, "python_cpu_per_game": round(py_cpu, 2),
        "python_decisions_per_game": round(sum(r.decisions for r in py) / len(py), 1),
        "core_games": args.core_games, "core_cpu_per_game": round(core_cpu, 4),
        "core_decisions_per_game": round(sum(r.decisions for r in core) / len(core), 1),
        "default_games": DEFAULT_GAMES, "python_cpu_of_default_check": round(budget, 1),
        "core_games_in_that_time": int(budget / core_cpu),
        "games_for_5_points": {
            "confidence_sequence_alpha": ALPHA,
            "confidence_sequence": games_for_half_width(0.05, ALPHA, True),
            "confidence_sequence_bonferroni_3": games_for_half_width(0.05, ALPHA / 3, True),
            "wilson_95": games_for_half_width(0.05, ALPHA, False),
        },
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("part", choices=("agreement", "iterations", "time", "skill"))
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--positions", type=int, default=200, help="agreement: positions kept to time candidate budgets on")
    ap.add_argument("--budget-iterations", type=int, nargs="*", default=[], help="agreement: core budgets to time")
    ap.add_argument("--python-games", type=int, default=3)
    ap.add_argument("--core-games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=43)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--log", default=None, help="arena parts: the resumable arena log")
    ap.add_argument("--proxy", action="store_true",
                    help="time: play Python's side with the core's ismcts (it chooses as Python's: see agreement)")
    ap.add_argument("--out", default=None, help="write the JSON result here (atomically)")
    args = ap.parse_args(argv)
    tune_gc_for_simulation()
    t0 = time.perf_counter()
    if args.part == "agreement":
        res = agreement(args)
    elif args.part == "iterations":
        res = arena(args, f"core-ismcts:iterations={args.iterations}", f"ismcts:iterations={args.iterations}")
    elif args.part == "time" and args.proxy:  # the whole games in the core: Python's 200 as the core plays it
        res = arena(args, f"ismcts:iterations={args.iterations}", "ismcts:iterations=200")
        res["proxy"] = "both searches run in the core; the core's ismcts:iterations=200 stands for Python's (see agreement)"
    elif args.part == "time":
        res = arena(args, f"core-ismcts:iterations={args.iterations}", "ismcts:iterations=200")
    else:
        res = skill(args)
    res["machine"] = machine()
    res["wall_seconds_total"] = round(time.perf_counter() - t0, 1)
    text = json.dumps(res, indent=1)
    print(text)
    if args.out:
        from boardlab.engine.files import atomic_write

        atomic_write(args.out, text + "\n", "benchmark result")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
