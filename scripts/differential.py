#!/usr/bin/env python3
"""Differential harness: the compiled core (boardlab_core) against the Python rules, the reference.

Plays seeded games of every variant, player count and a few option sets with
random, heuristic and short-ISMCTS agents (the Python agents choose), applies
each action to both engines, and after every action compares the legal actions
(in order), the state document (``State.to_json()``, digest and history included),
every seat's and the spectator's view, every seat's events, the acting seat and
the results.  Where the acting agent is ``random`` or ``heuristic``, the core's
own agent (same seed) must choose the same action.  The first difference stops
the run with exit status 1 and a replayable report (configuration, seed, agents,
the action list up to it).  It also plays ``play_games`` against
``runner.play_game`` for whole-game records.

    python scripts/differential.py --game dungeons-jewel --transitions 1000000 --jobs 2
    python scripts/differential.py --game blackfire --transitions 1000000 --jobs 2

Prints ``compared N transitions`` at the end.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

#: (variant, options) per configuration; every one is played with each of the game's player counts.
CONFIGS: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "dungeons-jewel": [
        ("rulebook", {}),
        ("concept", {}),
        ("revised", {}),
        ("rulebook", {"jewel_exit": "adjacent"}),
        ("revised", {"board_size": 5, "die": 8, "hazard_target": 5, "start_health": 1, "max_turns": 60}),
        ("concept", {"board_size": 9, "fight_steal": True, "monster_target": 4, "dragon_target": 7, "respawn_health": 1}),
        ("rulebook", {"max_turns": 25}),
    ],
    "blackfire": [
        ("final", {}),
        ("prototype", {}),
        ("final", {"tokens_per_player": 0, "colours": "seat1-red"}),
        ("final", {"archer_contest": False, "archer_offense": False, "push_radius": 0, "respawn_turns": 1,
                   "teleport_table": False, "colours": "seat1-green"}),
        ("final", {"sorcerer_kill_wins": True, "respawn": False, "speed_bonus": 5, "invulnerable_turns": 1,
                   "teleport_range": 5, "archer_range": 3, "contest_target": 2}),
        ("final", {"sorcerer_move": 4, "archer_move": 1, "warrior_move": 5, "tokens_per_player": 2, "push_radius": 5,
                   "respawn_turns": 4, "max_turns": 40}),
        ("prototype", {"token_set": "final", "archer_offense": True, "max_turns": 25}),
    ],
}

#: The player counts each game is compared at.
PLAYERS: dict[str, tuple[int, ...]] = {"dungeons-jewel": (2, 3, 4), "blackfire": (2,)}

#: Seat agents cycled through games (Python agents choose; short searches keep the harness quick).
AGENT_MIXES = [
    ("random", "random", "random", "random"),
    ("heuristic", "heuristic", "heuristic", "heuristic"),
    ("heuristic", "random", "heuristic:strength=5:caution=2.5", "random"),
    ("ismcts:iterations=8", "heuristic", "random", "heuristic:patience=3"),
]
#: Per game, where its heuristic has other parameters than the Dungeon's Jewel's.
GAME_MIXES: dict[str, list[tuple[str, ...]]] = {
    "blackfire": [
        ("random", "random"),
        ("heuristic", "heuristic"),
        ("heuristic:persona=hunter", "random"),
        ("heuristic:persona=camper:noise=0.5", "heuristic:persona=collector:danger=2:stay=1.5"),
        ("ismcts:iterations=8", "heuristic:persona=runner"),
    ],
}


def mixes(game_id: str) -> list[tuple[str, ...]]:
    """The agent mixes the harness cycles through for ``game_id``."""
    return GAME_MIXES.get(game_id, AGENT_MIXES)


class Difference(Exception):
    """The first disagreement between the core and the reference."""


def _game(game_id: str, players: int, variant: str, options: dict[str, Any]):
    from boardlab.engine import make

    return make(game_id, players=players, variant=variant, options=options)


def _tuples(actions) -> list[tuple]:
    return [tuple(a) for a in actions]


def _first_diff(a: Any, b: Any, path: str = "") -> str:
    """Where two JSON values first differ, as a short path with both values."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if a.get(k, "<missing>") != b.get(k, "<missing>"):
                return _first_diff(a.get(k, "<missing>"), b.get(k, "<missing>"), f"{path}.{k}")
    if isinstance(a, list) and isinstance(b, list) and a != b:
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_diff(x, y, f"{path}[{i}]")
        return f"{path}: lengths {len(a)} and {len(b)}"
    return f"{path}: python {str(a)[:300]} core {str(b)[:300]}"


def _fields(py) -> dict[str, Any]:
    """The parts of ``py.to_json()`` besides configuration, log, history and digest (without the O(log) cost)."""
    from boardlab.engine.codec import encode

    return json.loads(json.dumps({
        "rng": py.rng.state, "turn": py.turn, "decisions": py.decisions, "truncated": py.truncated,
        "stack": encode(py.stack), "data": {name: encode(getattr(py, name)) for name in py._game_fields},
    }))


def compare_state(py, core, players: int, what: str, full: bool = True, since: int = 0) -> None:
    """Raise :class:`Difference` naming the first field where ``core`` differs from ``py``.

    Always: legal actions, acting seat, results, every view, the document's fields and the
    events logged from index ``since`` on.  With ``full``: the whole document (log, history and
    digest included) and every seat's whole event log.
    """
    legal_py = _tuples(py.legal_actions())
    legal_core = _tuples(core.legal_actions())
    if legal_py != legal_core:
        raise Difference(f"{what}: legal actions differ: python {legal_py} core {legal_core}")
    if py.current_seat() != core.current_seat():
        raise Difference(f"{what}: acting seat differs: python {py.current_seat()} core {core.current_seat()}")
    if py.is_over() != core.is_over():
        raise Difference(f"{what}: is_over differs")
    if py.is_over() and py.results().to_json() != core.results():
        raise Difference(f"{what}: results differ: python {py.results().to_json()} core {core.results()}")
    if full:
        doc_py = json.loads(json.dumps(py.to_json()))
        doc_core = json.loads(core.to_json())
        if doc_py != doc_core:
            raise Difference(f"{what}: state document differs at {_first_diff(doc_py, doc_core)}")
    else:
        f_py, f_core = _fields(py), json.loads(core.fields_json())
        if f_py != f_core:
            raise Difference(f"{what}: state document differs at {_first_diff(f_py, f_core)}")
    start = 0 if full else since
    for seat in (None, *range(players)):
        v_py = json.loads(json.dumps(py.view(seat)))
        v_core = json.loads(core.view(seat))
        if v_py != v_core:
            raise Difference(f"{what}: view of seat {seat} differs at {_first_diff(v_py, v_core)}")
        e_py = json.loads(json.dumps(py.events(seat)[start:] if full else _events_from(py, seat, start)))
        e_core = json.loads(core.events(seat, start))
        if e_py != e_core:
            raise Difference(f"{what}: events of seat {seat} from {start} differ at {_first_diff(e_py, e_core)}")


def _events_from(py, seat, start: int) -> list[dict[str, Any]]:
    """``py.events(seat)[start:]`` without walking the whole log."""
    from boardlab.engine.state import _event

    out = []
    node = py._log
    for _ in range(py._log_len - start):
        out.append(_event(node[1], seat, False))
        node = node[0]
    out.reverse()
    return out


def play_and_compare(game_id: str, players: int, variant: str, options: dict[str, Any], seed: int,
                     specs: list[str], full_every: int = 1) -> int:
    """Play one game with the Python agents ``specs``, comparing after every action; returns transitions."""
    import boardlab_core

    from boardlab.agents import Decision, make_agent
    from boardlab.agents.runner import agent_seed

    game = _game(game_id, players, variant, options)
    spec = game.core_spec()
    py = game.new_state(seed)
    core = boardlab_core.CoreState(game_id, spec, seed, game.max_turns)
    agents = [make_agent(s, game, seat, agent_seed(seed, seat)) for seat, s in enumerate(specs)]
    mirrors = [boardlab_core.Agent(game_id, spec, s, seat, agent_seed(seed, seat))
               if s.split(":")[0] in ("random", "heuristic") else None for seat, s in enumerate(specs)]
    actions: list[list[Any]] = []

    def where() -> str:
        return (f"game {game_id} players={players} variant={variant} options={json.dumps(options, sort_keys=True)} "
                f"seed={seed} agents={specs} after {len(actions)} actions {json.dumps(actions)}")

    try:
        compare_state(py, core, players, "setup")
        n = 0
        while True:
            seat = py.current_seat()
            if seat is None:
                break
            action = agents[seat].act(Decision(py, seat))
            mirror = mirrors[seat]
            if mirror is not None:
                mine = mirror.act(core)
                if tuple(mine) != tuple(action):
                    raise Difference(f"agent {specs[seat]} in seat {seat}: python chose {action}, core {mine}")
            since = py._log_len
            py.apply(action)
            core.apply(tuple(action))
            actions.append(list(action))
            n += 1
            full = full_every <= 1 or n % full_every == 0 or py.is_over()
            compare_state(py, core, players, f"after action {n}", full=full, since=since)
        return n
    except Difference as exc:
        raise Difference(f"{exc}\n  replay: {where()}") from None


def compare_records(game_id: str, players: int, variant: str, options: dict[str, Any], seeds: list[int],
                    specs: list[str]) -> int:
    """``play_games`` against ``runner.play_game`` (records, action lists, stats) for ``seeds``."""
    import boardlab_core

    from boardlab.agents.runner import play_game

    game = _game(game_id, players, variant, options)
    game.record_events = False
    records = boardlab_core.play_games(game_id, game.core_spec(), specs, seeds, game.max_turns, True)
    total = 0
    for seed, rec in zip(seeds, records):
        state, ref = play_game(game, specs, seed, keep_actions=True)
        want = ref.to_json()
        want.pop("metrics")
        want["stats"] = state.metrics()
        got = json.loads(json.dumps(rec))
        want = json.loads(json.dumps(want))
        if got != want:
            diff = [k for k in want if want[k] != got.get(k)]
            raise Difference(f"play_games differs from runner.play_game in {diff}: game {game_id} players={players} "
                             f"variant={variant} options={json.dumps(options, sort_keys=True)} seed={seed} agents={specs}")
        total += ref.decisions
    return total


def tasks(game_id: str, start_seed: int):
    """An endless stream of (players, variant, options, seed, specs) to compare."""
    configs = CONFIGS[game_id]
    counts = PLAYERS[game_id]
    agent_mixes = mixes(game_id)
    i = 0
    while True:
        variant, options = configs[i % len(configs)]
        players = counts[(i // len(configs)) % len(counts)]
        mix = agent_mixes[(i // (len(counts) * len(configs))) % len(agent_mixes)]
        yield players, variant, options, start_seed + i, list(mix[:players])
        i += 1


def _worker(args: tuple) -> tuple[int, str | None]:
    game_id, players, variant, options, seed, specs, full_every = args
    try:
        return play_and_compare(game_id, players, variant, options, seed, specs, full_every), None
    except Difference as exc:
        return 0, str(exc)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="dungeons-jewel", choices=sorted(CONFIGS))
    ap.add_argument("--transitions", type=int, default=20000, help="stop after comparing this many actions")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0, help="first game seed")
    ap.add_argument("--full-every", type=int, default=100,
                    help="compare the whole state document and event logs every N actions (views and legal actions: always)")
    ap.add_argument("--records", type=int, default=0, help="also compare this many whole games of play_games per configuration")
    args = ap.parse_args(argv)
    try:
        import boardlab_core  # noqa: F401
    except ImportError:
        print("boardlab_core is not installed (pip install -e crates/boardlab-core)", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    compared = games = 0
    stream = ((args.game, *t, args.full_every) for t in tasks(args.game, args.seed))
    failure = None
    if args.jobs > 1:
        import multiprocessing as mp

        with mp.get_context("fork").Pool(args.jobs) as pool:
            for n, err in pool.imap(_worker, stream, chunksize=1):
                compared += n
                games += 1
                if err:
                    failure = err
                if failure or compared >= args.transitions:
                    pool.terminate()
                    break
    else:
        for task in stream:
            n, err = _worker(task)
            compared += n
            games += 1
            if err:
                failure = err
            if failure or compared >= args.transitions:
                break
    if failure is None and args.records:
        for variant, options in CONFIGS[args.game]:
            for players in PLAYERS[args.game]:
                for mix in mixes(args.game)[:4]:
                    seeds = [args.seed + 7919 * k + players for k in range(args.records)]
                    try:
                        compare_records(args.game, players, variant, options, seeds, list(mix[:players]))
                    except Difference as exc:
                        failure = str(exc)
                        break
                if failure:
                    break
            if failure:
                break
    seconds = time.perf_counter() - t0
    if failure:
        print(f"DIFFERENCE: {failure}")
        print(f"compared {compared} transitions in {games} games before the difference ({seconds:.1f} s)")
        return 1
    print(f"compared {compared} transitions in {games} games, no difference ({seconds:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
