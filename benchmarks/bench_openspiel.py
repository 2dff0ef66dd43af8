"""Side by side with OpenSpiel, in one process on one machine, for every game.

For each game it measures:

1. boardlab's own random playouts (decisions per second);
2. the same playouts through the OpenSpiel adapter (``legal_actions`` +
   ``apply_action`` on ``pyspiel`` states);
3. boardlab's ISMCTS (iterations per second);
4. OpenSpiel's Python ``ISMCTSBot`` on the same game through the adapter, at
   the same iteration budget.

Both searches use the same leaf evaluation, so the comparison is of the
search machinery: a random rollout of ``--depth`` decisions, then the game's
``State.evaluate`` (OpenSpiel gets an evaluator doing exactly that through the
adapter).  Run::

    python benchmarks/bench_openspiel.py [--games dungeons-jewel,blackfire] [--iterations 200] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import time

import numpy as np


def bl_random_playouts(game_id: str, seconds: float) -> float:
    from boardlab.agents import Decision, RandomAgent
    from boardlab.engine import make

    game = make(game_id)
    game.record_events = False
    decisions = 0
    t0 = time.perf_counter()
    seed = 0
    while time.perf_counter() - t0 < seconds:
        state = game.new_state(seed)
        agents = [RandomAgent(game, s, seed + s) for s in range(game.players)]
        while True:
            seat = state.current_seat()
            if seat is None:
                break
            state.apply(agents[seat].act(Decision(state, seat)))
            decisions += 1
        seed += 1
    return decisions / (time.perf_counter() - t0)


def os_random_playouts(game_id: str, seconds: float) -> float:
    from boardlab.envs.openspiel import load

    rs = np.random.RandomState(0)
    decisions = 0
    t0 = time.perf_counter()
    seed = 0
    while time.perf_counter() - t0 < seconds:
        game = load(game_id, seed=seed)
        game.bl_game.record_events = False
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rs.randint(len(legal))])
            decisions += 1
        seed += 1
    return decisions / (time.perf_counter() - t0)


def mid_game(game_id: str, plies: int = 12):
    from boardlab.agents import Decision, RandomAgent
    from boardlab.engine import make

    game = make(game_id)
    game.record_events = False
    state = game.new_state(3)
    agents = [RandomAgent(game, s, 3 + s) for s in range(game.players)]
    n = 0
    # play ``plies`` decisions, then on to the first real choice (a search with one legal action is trivial)
    while n < plies or len(state.legal_actions()) < 2:
        seat = state.current_seat()
        if seat is None:
            raise RuntimeError(f"{game_id}: the game ended before a mid-game choice")
        state.apply(agents[seat].act(Decision(state, seat)))
        n += 1
    return game, state


def bl_ismcts(game_id: str, iterations: int, depth: int, decisions: int) -> float:
    from boardlab.agents import Decision, make_agent

    game, state = mid_game(game_id)
    seat = state.current_seat()
    agent = make_agent(f"ismcts:iterations={iterations}:depth={depth}:rollout=random", game, seat, 1)
    t0 = time.perf_counter()
    total = 0
    for _ in range(decisions):
        agent.act(Decision(state, seat))
        total += iterations
    return total / (time.perf_counter() - t0)


class TruncatedRollout:
    """OpenSpiel evaluator: ``depth`` random decisions, then the engine's evaluation (as boardlab's search)."""

    def __init__(self, depth: int, rs: np.random.RandomState) -> None:
        self.depth = depth
        self.rs = rs

    def evaluate(self, state):
        s = state.clone()
        for _ in range(self.depth):
            if s.is_terminal():
                break
            legal = s.legal_actions()
            s.apply_action(legal[self.rs.randint(len(legal))])
        if s.is_terminal():
            return np.array(s.returns())
        return np.array([2.0 * s.bl.evaluate(p) - 1.0 for p in range(s.num_players())])

    def prior(self, state):
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def os_ismcts(game_id: str, iterations: int, depth: int, decisions: int) -> float:
    from open_spiel.python.algorithms import ismcts

    from boardlab.envs.openspiel import BoardlabSpielState, load

    game = load(game_id)
    game.bl_game.record_events = False
    _, bl_state = mid_game(game_id)
    state = BoardlabSpielState(game, game.bl_game.state_class.from_json(bl_state.to_json(), game.bl_game))
    rs = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, TruncatedRollout(depth, rs), 0.7, iterations, random_state=rs)
    t0 = time.perf_counter()
    for _ in range(decisions):
        bot.step(state)
    return iterations * decisions / (time.perf_counter() - t0)


def main() -> None:
    from boardlab.engine import registry

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(registry.game_ids()))
    parser.add_argument("--seconds", type=float, default=3.0, help="time per random-playout measurement")
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--depth", type=int, default=20)
    parser.add_argument("--decisions", type=int, default=3, help="search decisions timed per game")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for gid in [g.strip() for g in args.games.split(",") if g.strip()]:
        row = {"game": gid}
        row["bl_random_dps"] = bl_random_playouts(gid, args.seconds)
        row["os_random_dps"] = os_random_playouts(gid, args.seconds)
        row["bl_ismcts_ips"] = bl_ismcts(gid, args.iterations, args.depth, args.decisions)
        row["os_ismcts_ips"] = os_ismcts(gid, args.iterations, args.depth, args.decisions)
        row["random_ratio"] = row["bl_random_dps"] / row["os_random_dps"]
        row["search_ratio"] = row["bl_ismcts_ips"] / row["os_ismcts_ips"]
        rows.append(row)
        if not args.json:
            print(
                f"{gid:18s} random: boardlab {row['bl_random_dps']:9.0f} dec/s, via OpenSpiel {row['os_random_dps']:8.0f} dec/s "
                f"(x{row['random_ratio']:.1f}) | ISMCTS: boardlab {row['bl_ismcts_ips']:7.0f} it/s, OpenSpiel {row['os_ismcts_ips']:7.0f} it/s "
                f"(x{row['search_ratio']:.1f})",
                flush=True,
            )
    if args.json:
        print(json.dumps({"machine": platform.processor() or platform.machine(), "python": platform.python_version(), "iterations": args.iterations, "depth": args.depth, "rows": rows}, indent=2))


if __name__ == "__main__":
    main()
