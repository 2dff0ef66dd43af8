#!/usr/bin/env python3
"""The replay figures of docs/findings/summoners-quest.md (the ones outside the generated block).

    python scripts/findings_sq_replay.py --games 300 --seed 2026

Replays the findings runs of Summoner's Quest move by move, with the same
agents and per-game seeds as ``scripts/findings.py`` (the lab's ``play_row``
seed rule), and prints: when the first gate opens, how often its opener wins,
how many summoners are knocked out and how long they then wait, combats and
tied rolls per game, how games end, and the persona against the heuristic in
seat 0 on the same seeds (McNemar). Every replayed game is checked against the
lab's own row for the same index (length and winners), so the figures describe
exactly the games in the generated block.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from boardlab.agents import Decision, make_agent  # noqa: E402
from boardlab.engine.registry import make  # noqa: E402
from boardlab.agents.runner import agent_seed, game_seed  # noqa: E402
from boardlab.playtest.simulate import RunConfig, play_row  # noqa: E402
from boardlab.stats import mcnemar_exact, wilson  # noqa: E402

GAME = "summoners-quest"
SETTINGS = [  # (label, variant, players, agents)
    ("standard, 4 players", "standard", 4, ["heuristic"] * 4),
    ("standard, 3 players", "standard", 3, ["heuristic"] * 3),
    ("standard, 2 players", "standard", 2, ["heuristic"] * 2),
    ("empty-hands, 4 players", "empty-hands", 4, ["heuristic"] * 4),
    ("gates-at-will, 4 players", "gates-at-will", 4, ["heuristic"] * 4),
    ("defender-ties, 4 players", "defender-ties", 4, ["heuristic"] * 4),
    ("king-of-the-hill in seat 0", "standard", 4, ["persona:king-of-the-hill"] + ["heuristic"] * 3),
    ("warlord in seat 0", "standard", 4, ["persona:warlord"] + ["heuristic"] * 3),
]


def replay(variant: str, players: int, agents: list[str], index: int, seed: int) -> dict:
    """One game, watched: the turn and seat of the first gate opened, and each knock-out's turn."""
    game = make(GAME, players=players, variant=variant)
    game.record_events = False
    gseed = game_seed(seed, index)
    bots = [make_agent(spec, game, s, agent_seed(gseed, s)) for s, spec in enumerate(agents)]
    state = game.new_state(gseed)
    first_gate = None  # (turn, seat)
    out_turn: dict[int, int] = {}
    last_turn = -1
    while True:
        seat = state.current_seat()
        if seat is None:
            break
        if state.turn != last_turn:  # the lab evaluates once per turn; kept so the replay is the same walk
            last_turn = state.turn
            for s in range(players):
                state.evaluate(s)
        gates, alive = state.gates, list(state.alive)
        state.apply(bots[seat].act(Decision(state, seat)))
        if first_gate is None and state.gates != gates:
            first_gate = (state.turn, seat)
        for s in range(players):
            if alive[s] and not state.alive[s]:
                out_turn[s] = state.turn
    res = state.results()
    return {"turns": state.turn, "winners": list(res.winners), "reason": res.reason,
            "first_gate": first_gate, "out": out_turn, "metrics": state.metrics()}


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def ci(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{pct(k / n if n else 0)} ({pct(lo)}-{pct(hi)}; {k}/{n})"


def quartiles(xs: list[float]) -> str:
    if len(xs) < 2:
        return "-"
    q = statistics.quantiles(xs, n=4, method="inclusive")
    return f"mean {statistics.fmean(xs):.1f}, median {statistics.median(xs):g}, quartiles {q[0]:g}-{q[2]:g}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--check", type=int, default=300, help="games per setting checked against the lab's play_row")
    args = parser.parse_args()
    seat0_wins: dict[str, list[bool]] = {}
    for label, variant, players, agents in SETTINGS:
        games = [replay(variant, players, agents, i, args.seed) for i in range(args.games)]
        cfg = RunConfig(game=GAME, players=players, variant=variant, options={}, agents=tuple(agents), games=args.games, seed=args.seed)
        for i in range(min(args.check, args.games)):
            row = play_row(cfg, i)
            assert (row["turns"], row["winners"]) == (games[i]["turns"], games[i]["winners"]), (label, i)
        n = len(games)
        seat0_wins[label] = [0 in g["winners"] for g in games]
        print(f"## {label}: {n} games (replays match the lab's rows for {min(args.check, n)})")
        print(f"- length: {quartiles([g['turns'] for g in games])} player-turns")
        chamber = sum(g["reason"] == "held the chamber of victory" for g in games)
        print(f"- ended by holding the chamber: {ci(chamber, n)}; last summoner standing: {n - chamber}")
        opened = [g for g in games if g["first_gate"] is not None]
        print(f"- a gate opened in {ci(len(opened), n)}")
        if opened:
            before = [g["turns"] - g["first_gate"][0] for g in opened]
            print(f"- first gate to the end: {quartiles(before)} player-turns")
            opener_won = sum(g["first_gate"][1] in g["winners"] for g in opened)
            print(f"- the first gate's opener wins {ci(opener_won, len(opened))} of games with a gate "
                  f"({ci(opener_won, n)} of all games; fair {pct(1 / players)})")
        seat_open = [(g["metrics"].get("rule:gate_opened", [0] * players)[s] > 0, s in g["winners"])
                     for g in games for s in range(players)]
        k1 = sum(w for o, w in seat_open if o)
        n1 = sum(1 for o, _ in seat_open if o)
        k0 = sum(w for o, w in seat_open if not o)
        print(f"- per seat: opened a gate and won {ci(k1, n1)}; did not open one and won {ci(k0, len(seat_open) - n1)}")
        ko_games = sum(1 for g in games if g["out"])
        kos = sum(len(g["out"]) for g in games)
        waits = [g["turns"] - t for g in games for t in g["out"].values()]
        print(f"- knock-outs: some in {ci(ko_games, n)}; {kos / n:.2f} a game")
        if waits:
            share = statistics.fmean((g["turns"] - t) / g["turns"] for g in games for t in g["out"].values())
            print(f"- a knocked-out summoner waits: {quartiles(waits)} player-turns ({pct(share)} of its game on average)")
        combats = sum(sum(g["metrics"].get("combat:won", [])) for g in games) / n
        ties = sum(sum(g["metrics"].get("rule:combat_tie", [])) for g in games) / n
        print(f"- combats {combats:.1f} a game, tied rolls re-rolled {ties:.1f} a game")
        print()
    base = seat0_wins["standard, 4 players"]
    for label in ("king-of-the-hill in seat 0", "warlord in seat 0"):
        other = seat0_wins[label]
        a_only = sum(b and not o for b, o in zip(base, other))
        b_only = sum(o and not b for b, o in zip(base, other))
        print(f"{label} vs the heuristic in seat 0 on the same seeds: seat 0 wins {sum(other)} vs {sum(base)}; "
              f"McNemar exact p = {mcnemar_exact(a_only, b_only):.2g} (discordant {a_only}/{b_only})")


if __name__ == "__main__":
    main()
