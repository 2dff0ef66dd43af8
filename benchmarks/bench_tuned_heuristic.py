"""Can a tuned heuristic be the fast ``strong`` agent (issue 21)?  Search its weights, confirm on fresh seeds.

    python benchmarks/bench_tuned_heuristic.py GAME [--players N] [--trials 50] [--games 400]
        [--confirm 2000] [--seed 1] [--jobs 2] [--json]

1. **Search.** Optuna's TPE sampler (seeded) proposes ``--trials`` settings of the game heuristic's
   parameters (the search space is :data:`SPACES`; the heuristic's own defaults are the first
   trial).  Each setting plays ``--games`` arena games against the default ``heuristic``, seats
   rotated (:func:`boardlab.agents.arena.run_arena`, trial *t* on arena seed ``seed*1000 + t``).
   The objective is the setting's win rate.
2. **Confirmation.** The best setting of the search is picked on the search's own games, so its
   search win rate is biased upward (the winner's curse).  It therefore plays ``--confirm`` FRESH
   games against the default heuristic (arena seed ``seed*1000 + 999``, never used in the search),
   and only that figure, with its Wilson 95% interval, says whether it is stronger.

The fair win rate is 1/2 at 2 players and 1/N at N players (two agents, seats rotated).  Whether
a confirmed setting is also "not weaker than ``ismcts``" needs the arena (docs/benchmarks.md,
"Tuned heuristics").
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from typing import Any

from boardlab.agents import agent_class
from boardlab.agents.arena import run_arena
from boardlab.engine import make

#: Per game: parameter -> ("int", low, high) | ("float", low, high) | ("log", low, high).
SPACES: dict[str, dict[str, tuple[str, float, float]]] = {
    "dungeons-jewel": {"strength": ("int", 1, 9), "caution": ("float", 0.0, 12.0), "patience": ("int", 5, 200)},
    "blackfire": {**{w: ("log", 0.25, 4.0) for w in ("progress", "danger", "kill", "hunt", "token")},
                  "stay": ("float", -50.0, 100.0), "noise": ("float", 0.0, 20.0)},
    "armies": {"card_threshold": ("float", 0.0, 1.0)},
    "summoners-quest": {"aggression": ("float", 0.0, 4.0)},
    "wizards-labyrinth": {"noise": ("float", 0.0, 2.0)},
}


def spec_of(params: dict[str, Any]) -> str:
    return "heuristic:" + ":".join(f"{k}={v}" if isinstance(v, int) else f"{k}={v:.3f}" for k, v in params.items())


def win_rate(report: dict[str, Any], spec: str) -> dict[str, Any]:
    row = next(a for a in report["agents"] if a["agent"] == spec)
    return {k: row[k] for k in ("games", "wins", "win_rate", "ci_low", "ci_high")}


def run(game_id: str, players: int | None, trials: int, games: int, confirm: int, seed: int, jobs: int) -> dict[str, Any]:
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    game = make(game_id, players=players)
    space = SPACES[game_id]
    defaults = agent_class("heuristic", game).defaults
    rows: list[dict[str, Any]] = []

    def objective(trial: Any) -> float:
        params: dict[str, Any] = {}
        for name, (kind, low, high) in space.items():
            if kind == "int":
                params[name] = trial.suggest_int(name, int(low), int(high))
            else:
                params[name] = trial.suggest_float(name, low, high, log=kind == "log")
        spec = spec_of(params)
        report = run_arena(game, [spec, "heuristic"], games, seed=seed * 1000 + trial.number, jobs=jobs)
        result = win_rate(report, spec)
        rows.append({"trial": trial.number, "spec": spec, **result})
        print(f"trial {trial.number:3d}  {result['win_rate']:.3f} [{result['ci_low']:.3f}, {result['ci_high']:.3f}]  {spec}",
              file=sys.stderr, flush=True)
        return result["win_rate"]

    study = optuna.create_study(direction="maximize", sampler=optuna.samplers.TPESampler(seed=seed))
    study.enqueue_trial({k: defaults.get(k, (lo + hi) / 2) for k, (_kind, lo, hi) in space.items()})
    t0 = time.perf_counter()
    study.optimize(objective, n_trials=trials)
    best = max(rows, key=lambda r: (r["win_rate"], -r["trial"]))
    fresh = run_arena(game, [best["spec"], "heuristic"], confirm, seed=seed * 1000 + 999, jobs=jobs)
    return {
        "game": game_id, "players": game.players, "trials": trials, "games_per_trial": games, "seed": seed,
        "space": {k: list(v) for k, v in space.items()}, "search": rows, "best": best,
        "confirm": {"spec": best["spec"], "arena_seed": seed * 1000 + 999, **win_rate(fresh, best["spec"]),
                    "fair": round(1 / game.players, 4)},
        "wall_s": round(time.perf_counter() - t0, 1), "python": platform.python_version(),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", choices=sorted(SPACES))
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--trials", type=int, default=50)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--confirm", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    out = run(a.game, a.players, a.trials, a.games, a.confirm, a.seed, a.jobs)
    if a.json:
        print(json.dumps(out))
    else:
        c = out["confirm"]
        print(f"{out['game']} ({out['players']} players): best of {out['trials']} trials {out['best']['win_rate']:.3f} "
              f"in the search; on {c['games']} fresh games {c['win_rate']:.3f} [{c['ci_low']:.3f}, {c['ci_high']:.3f}] "
              f"(fair {c['fair']}): {c['spec']}")


if __name__ == "__main__":
    main()
