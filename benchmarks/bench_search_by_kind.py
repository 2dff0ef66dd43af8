"""Where does the search's edge come from (issue 21)?  Search only some kinds of decision.

    python benchmarks/bench_search_by_kind.py GAME --kinds stance [--players N] [--games 200]
        [--search ismcts:iterations=200:stop=sure] [--seed 3] [--jobs 2] [--json]

A *mixed* player, ``SEARCH:only=KINDS`` (docs/agents.md), runs the search (``--search``) at
decisions whose kind (the first legal action's name, as in ``boardlab fit-policy``) is in
``--kinds`` (comma-separated) and plays the game's ``heuristic`` elsewhere.  It plays ``--games`` games against the heuristic,
seat 0 and seat 1 alternating (2 players, or the mixed player in one seat of N), each game from
its own derived seed.  Reported: the mixed player's wins (a truncated game counts as a loss),
the Wilson 95% interval, the share of its decisions that were searched, and its CPU seconds per
game.  If searching one kind alone gets most of the search's edge over the heuristic, that kind
is where a distilled agent must match the search.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from multiprocessing import get_context
from typing import Any

from boardlab.agents import Decision, make_agent
from boardlab.engine import make
from boardlab.engine.rng import derive_seed
from boardlab.stats import wilson


def _game(args: tuple) -> tuple[float, int, int, float]:
    game_id, players, kinds, search, seed, index = args
    game = make(game_id, players=players)
    game.record_events = False
    gseed = derive_seed(seed, index)
    state = game.new_state(gseed)
    mine = index % game.players
    agents = [make_agent("heuristic", game, s, derive_seed(gseed, 1, s)) for s in range(game.players)]
    agents[mine] = make_agent(f"{search}:only={'+'.join(kinds)}", game, mine, derive_seed(gseed, 2))
    searched = own = 0
    cpu = 0.0
    while not state.is_over():
        seat = state.current_seat()
        d = Decision(state, seat)
        t0 = time.process_time()
        action = agents[seat].act(d)
        if seat == mine and len(d.legal) > 1:
            cpu += time.process_time() - t0
            own += 1
            searched += agents[seat].last_iterations > 0
        state.apply(action)
    res = state.results()
    won = 1.0 if mine in res.winners and not res.truncated else 0.0
    return won, searched, own, cpu


def run(game_id: str, kinds: list[str], players: int | None, games: int, search: str, seed: int, jobs: int) -> dict[str, Any]:
    n = make(game_id, players=players).players
    tasks = [(game_id, n, kinds, search, seed, i) for i in range(games)]
    t0 = time.perf_counter()
    if jobs > 1:
        with get_context("spawn").Pool(jobs) as pool:
            rows = pool.map(_game, tasks, chunksize=1)
    else:
        rows = [_game(t) for t in tasks]
    wins = sum(r[0] for r in rows)
    lo, hi = wilson(wins, games)
    return {"game": game_id, "players": n, "kinds": kinds, "search": search, "games": games, "seed": seed,
            "wins": wins, "win_rate": round(wins / games, 4), "ci_low": round(lo, 4), "ci_high": round(hi, 4),
            "fair": round(1 / n, 4), "searched_share": round(sum(r[1] for r in rows) / max(1, sum(r[2] for r in rows)), 4),
            "cpu_s_per_game": round(sum(r[3] for r in rows) / games, 3),
            "wall_s": round(time.perf_counter() - t0, 1), "python": platform.python_version()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--kinds", required=True, help="decision kinds to search, comma-separated")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--search", default="ismcts:iterations=200:stop=sure")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    out = run(a.game, a.kinds.split(","), a.players, a.games, a.search, a.seed, a.jobs)
    print(json.dumps(out) if a.json else
          f"{out['game']}: search at {','.join(out['kinds'])}: {out['wins']:.0f}/{out['games']} = {out['win_rate']:.3f} "
          f"[{out['ci_low']:.3f}, {out['ci_high']:.3f}] against the heuristic (fair {out['fair']}); "
          f"{out['searched_share']:.0%} of its decisions searched, {out['cpu_s_per_game']} CPU-s per game")


if __name__ == "__main__":
    main()
