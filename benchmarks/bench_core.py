"""The compiled core (boardlab_core) against the Python reference, side by side in one run.

    python benchmarks/bench_core.py --game dungeons-jewel
    python benchmarks/bench_core.py --game blackfire          (2 players: --players is ignored)
    python benchmarks/bench_core.py --players 4 --games 200 --search-decisions 20 --ismcts-games 40 --json

For the same configuration, seeds and agents it measures, Python then core:

* random playouts: decisions/s (whole games, ``runner.play_game`` vs ``play_games``);
* heuristic playouts: decisions/s;
* ISMCTS at the same budget (``ismcts:iterations=N``, default parameters otherwise):
  search iterations/s over the same decisions (positions reached by heuristic play);
* default ISMCTS (``ismcts``: 200 iterations, heuristic playouts, fitted evaluation at
  depth 12): games/s with every seat searching (Python: ``--py-ismcts-games`` games,
  few, it is slow), and the estimated time of 1,000 such games on 2 processes.

Rates are per CPU second of this process (``time.process_time``), which a shared
machine distorts least; the wall-clock seconds and the load average are printed too.
Targets (issue 43): random and ISMCTS >= 30x Python; 1,000 default-ISMCTS games on
2 cores in <= 300 s.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from boardlab.agents import Decision, make_agent  # noqa: E402
from boardlab.agents.runner import agent_seed, play_game, tune_gc_for_simulation  # noqa: E402
from boardlab.engine import make  # noqa: E402


def timed(fn: Callable[[], Any]) -> tuple[Any, float, float]:
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.process_time() - c, time.perf_counter() - w


def playouts(game, spec_json: str, agent: str, games: int, seed: int) -> dict[str, Any]:
    import boardlab_core

    seeds = [seed + i for i in range(games)]
    specs = [agent] * game.players
    py_recs, py_cpu, py_wall = timed(lambda: [play_game(game, specs, s)[1] for s in seeds])
    core_recs, c_cpu, c_wall = timed(lambda: boardlab_core.play_games(game.id, spec_json, specs, seeds, game.max_turns, False))
    py_dec = sum(r.decisions for r in py_recs)
    c_dec = sum(r["decisions"] for r in core_recs)
    same = py_dec == c_dec and all(r.winners == tuple(c["winners"]) for r, c in zip(py_recs, core_recs))
    return {
        "agent": agent, "games": games, "decisions": py_dec, "identical_games": same,
        "python_decisions_per_s": py_dec / py_cpu, "core_decisions_per_s": c_dec / c_cpu,
        "speedup": (c_dec / c_cpu) / (py_dec / py_cpu), "python_wall_s": py_wall, "core_wall_s": c_wall,
    }


def search_positions(game, count: int, seed: int) -> list[tuple[int, list[list[Any]]]]:
    """(game seed, action list) pairs leading to ``count`` decisions with more than one legal action
    (heuristic play; short games spread them over several seeds)."""
    out = []
    s = seed
    while len(out) < count:
        state = game.new_state(s)
        agents = [make_agent("heuristic", game, k, agent_seed(s, k)) for k in range(game.players)]
        actions: list[list[Any]] = []
        while not state.is_over() and len(out) < count:
            seat = state.current_seat()
            if len(state.legal_actions()) > 1 and len(actions) % 7 == 3:
                out.append((s, list(actions)))
            a = agents[seat].act(Decision(state, seat))
            state.apply(a)
            actions.append(list(a))
        s += 1
    return out


def search_speed(game, spec_json: str, iterations: int, decisions: int, seed: int) -> dict[str, Any]:
    import boardlab_core

    spec = f"ismcts:iterations={iterations}"
    positions = search_positions(game, decisions, seed)
    py_iters = core_iters = 0
    py_cpu = core_cpu = 0.0
    for k, (game_seed, actions) in enumerate(positions):
        state = game.new_state(game_seed)
        core = boardlab_core.CoreState(game.id, spec_json, game_seed, game.max_turns)
        for a in actions:
            state.apply(a)
            core.apply(a)
        seat = state.current_seat()
        agent = make_agent(spec, game, seat, 1000 + k)
        _, cpu, _ = timed(lambda: agent.act(Decision(state, seat)))
        py_cpu += cpu
        py_iters += agent.last_iterations
        cagent = boardlab_core.Agent(game.id, spec_json, spec, seat, 1000 + k)
        _, cpu, _ = timed(lambda: cagent.act(core))
        core_cpu += cpu
        core_iters += cagent.last_iterations
    return {
        "agent": spec, "decisions": len(positions),
        "python_iterations_per_s": py_iters / py_cpu, "core_iterations_per_s": core_iters / core_cpu,
        "speedup": (core_iters / core_cpu) / (py_iters / py_cpu),
    }


def ismcts_games(game, spec_json: str, games: int, py_games: int, seed: int) -> dict[str, Any]:
    import boardlab_core

    specs = ["ismcts"] * game.players
    seeds = [seed + i for i in range(games)]
    recs, c_cpu, c_wall = timed(lambda: boardlab_core.play_games(game.id, spec_json, specs, seeds, game.max_turns, False))
    out = {"agent": "ismcts (default)", "core_games": games, "core_games_per_s": games / c_cpu,
           "core_decisions_per_game": sum(r["decisions"] for r in recs) / games,
           "core_1000_games_on_2_processes_s": 1000 / (2 * games / c_cpu)}
    if py_games:
        _, p_cpu, _ = timed(lambda: [play_game(game, specs, seed + i) for i in range(py_games)])
        out.update({"python_games": py_games, "python_games_per_s": py_games / p_cpu,
                    "speedup": (games / c_cpu) / (py_games / p_cpu)})
    # strength check: one default-ISMCTS seat against heuristics, core games
    mixed = ["ismcts"] + ["heuristic"] * (game.players - 1)
    recs = boardlab_core.play_games(game.id, spec_json, mixed, seeds, game.max_turns, False)
    out["core_ismcts_seat0_win_rate_vs_heuristics"] = sum(1 for r in recs if 0 in r["winners"]) / games
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="dungeons-jewel")
    ap.add_argument("--players", type=int, default=4, help="seats (games with a fixed count use theirs)")
    ap.add_argument("--variant", default=None)
    ap.add_argument("--games", type=int, default=100, help="random and heuristic games per engine")
    ap.add_argument("--iterations", type=int, default=200, help="ISMCTS iterations per decision for the search speed")
    ap.add_argument("--search-decisions", type=int, default=10)
    ap.add_argument("--ismcts-games", type=int, default=20, help="default-ISMCTS games played by the core")
    ap.add_argument("--py-ismcts-games", type=int, default=1, help="default-ISMCTS games played by Python (slow)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    try:
        import boardlab_core
    except ImportError:
        print("boardlab_core is not installed (pip install -e crates/boardlab-core)", file=sys.stderr)
        return 2
    from boardlab.engine import game_class

    tune_gc_for_simulation()
    cls = game_class(args.game)
    players = min(max(args.players, cls.min_players), cls.max_players)
    game = make(args.game, players=players, variant=args.variant)
    game.record_events = False
    spec_json = game.core_spec()
    report: dict[str, Any] = {
        "game": game.id, "players": game.players, "variant": game.variant, "core": boardlab_core.__version__,
        "python": platform.python_version(), "cpus": os.cpu_count(), "load_before": os.getloadavg(),
    }
    report["random"] = playouts(game, spec_json, "random", args.games, args.seed)
    report["heuristic"] = playouts(game, spec_json, "heuristic", args.games, args.seed)
    report["search"] = search_speed(game, spec_json, args.iterations, args.search_decisions, args.seed)
    report["ismcts_games"] = ismcts_games(game, spec_json, args.ismcts_games, args.py_ismcts_games, args.seed)
    report["load_after"] = os.getloadavg()
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{game.name}, {game.players} players, variant {game.variant}; load average before {report['load_before']}, "
          f"after {report['load_after']} on {report['cpus']} CPUs (rates per CPU second)")
    for key in ("random", "heuristic"):
        r = report[key]
        print(f"  {key:9} playouts: python {r['python_decisions_per_s']:>12,.0f} decisions/s   core "
              f"{r['core_decisions_per_s']:>14,.0f} decisions/s   x{r['speedup']:.0f}   identical games: {r['identical_games']}")
    s = report["search"]
    print(f"  {s['agent']}: python {s['python_iterations_per_s']:,.0f} iterations/s   core "
          f"{s['core_iterations_per_s']:,.0f} iterations/s   x{s['speedup']:.0f}  ({s['decisions']} decisions)")
    g = report["ismcts_games"]
    line = f"  default ismcts games: core {g['core_games_per_s']:.2f} games/s ({g['core_decisions_per_game']:.0f} decisions/game)"
    if "python_games_per_s" in g:
        line += f", python {g['python_games_per_s']:.4f} games/s, x{g['speedup']:.0f}"
    print(line)
    print(f"  1,000 default-ISMCTS games on 2 processes: about {g['core_1000_games_on_2_processes_s']:.0f} s (CPU-based)")
    print(f"  core ISMCTS in seat 0 against heuristics: wins {g['core_ismcts_seat0_win_rate_vs_heuristics']:.0%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
