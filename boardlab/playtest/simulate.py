"""Instrumented playouts: one result row per game, and backends that run many.

A row holds everything the metrics need (seat and role outcomes, length,
choice points, branching, lead changes judged by ``State.evaluate``, and the
game's own ``State.metrics()`` counters).  Rows depend only on the run's
configuration and the game index, never on the backend, the job count or the
engine, so local and Ray runs, on the Python rules or the compiled core, give
identical results apart from timings.  On the core (:mod:`boardlab.engine.core`,
chosen per chunk by ``BOARDLAB_ENGINE`` / ``--engine``), the core plays each game,
rules and agents, and the Python rules replay its actions to measure the row: a
core action the reference finds illegal raises, so a row is never silently wrong.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from boardlab.agents import Decision, make_agent
from boardlab.engine.registry import make
from boardlab.agents.runner import agent_seed, game_seed, tune_gc_for_simulation

from .metrics import decided_at, kingmaking_turns, lead_changes, leader_of


@dataclass(frozen=True)
class RunConfig:
    """Everything that determines a playtest run's results."""

    game: str
    players: int
    variant: str
    options: dict[str, Any]
    agents: tuple[str, ...]
    games: int
    seed: int = 0
    #: ``{seat: [tag, ...]}``: that seat's agent never takes actions tagged with any of the tags
    #: (restricted play; tags match case-insensitively). A plain string is one tag.
    restrict: dict[int, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "variant": self.variant,
            "options": dict(self.options),
            "agents": list(self.agents),
            "games": self.games,
            "seed": self.seed,
            "restrict": {str(k): _tag_list(v) for k, v in self.restrict.items()},
        }

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> "RunConfig":
        return cls(
            game=doc["game"],
            players=int(doc["players"]),
            variant=doc["variant"],
            options=dict(doc.get("options") or {}),
            agents=tuple(doc["agents"]),
            games=int(doc["games"]),
            seed=int(doc.get("seed", 0)),
            restrict={int(k): _tag_list(v) for k, v in (doc.get("restrict") or {}).items()},
        )


def _tag_list(value: Any) -> list[str]:
    """One tag or several, as a list (run folders written before tags accumulated hold a string)."""
    return [value] if isinstance(value, str) else list(value)


class _Restricted:
    """Wraps an agent so it never picks actions carrying any of the given tags (unless nothing
    else is legal). Tags match case-insensitively."""

    def __init__(self, agent: Any, tags: Any) -> None:
        self.agent = agent
        self.tags = frozenset(t.lower() for t in _tag_list(tags))
        self.name = f"{agent.name} (never {', '.join(sorted(self.tags))})"

    def act(self, decision: Decision) -> tuple:
        state = decision._state
        tags = self.tags
        allowed = tuple(a for a in decision.legal if not any(t.lower() in tags for t in state.action_tags(a)))
        if allowed and len(allowed) < len(decision.legal):
            decision.legal = allowed
        return self.agent.act(decision)


class _Replay:
    """Plays back a recorded action list (the compiled core's game), one action per decision."""

    name = "replay"

    def __init__(self, actions: Sequence[Sequence[Any]]) -> None:
        self.actions = iter(actions)

    def act(self, decision: Decision) -> tuple:
        return tuple(next(self.actions))


def play_row(config: RunConfig, index: int, game: Any = None, actions: Sequence[Sequence[Any]] | None = None) -> dict[str, Any]:
    """Play game ``index`` of the run and return its result row.

    ``actions``: the game's actions as the compiled core played them; the Python rules replay them
    (an action they find illegal raises :class:`~boardlab.engine.errors.IllegalActionError`).
    """
    if game is None:
        game = make(config.game, players=config.players, variant=config.variant, options=config.options)
        game.record_events = False
    seed = game_seed(config.seed, index)
    agents: list[Any] = []
    if actions is not None:
        agents = [_Replay(actions)] * game.players
    for seat, spec in enumerate(config.agents if actions is None else ()):
        agent = make_agent(spec, game, seat, agent_seed(seed, seat))
        if seat in config.restrict:
            agent = _Restricted(agent, config.restrict[seat])
        agents.append(agent)
    state = game.new_state(seed)
    players = game.players
    choice_points = 0
    branching_sum = 0
    leaders: list[int | None] = []
    gaps: list[float] = []
    last_turn = -1
    # Who acted first: the first seat to act in turn 1 or later (turn 0 is setup by the
    # engine's convention, e.g. Blackfire's placement before colours are rolled); a game
    # that never leaves turn 0 falls back to the first seat that acted at all.
    first_seat: int | None = None
    first_any: int | None = None
    # Experience metrics (docs/playtest.md "Experience"), O(1) per decision, O(players) per turn.
    decision = 0                      # index of the decision about to be made
    last_decision = [-1] * players    # each seat's last decision index (downtime)
    wait_sum = [0] * players
    wait_n = [0] * players
    wait_max = [0] * players
    turn_index = -1                   # index of the current turn among turns in which someone decided
    last_turn_index = [-1] * players  # each seat's last such turn (waiting while out)
    waiting_out = [0] * players
    round_gap = players - 1           # others' turns a seat waits in an ordinary round
    lowest_owner: list[int] = []      # per turn: the seat opening it if strictly lowest by evaluate, else -1
    while True:
        seat = state.current_seat()
        if seat is None:
            break
        if first_any is None:
            first_any = seat
        if first_seat is None and state.turn >= 1:
            first_seat = seat
        legal = state.legal_actions()
        if len(legal) > 1:
            choice_points += 1
        branching_sum += len(legal)
        if state.turn != last_turn:
            last_turn = state.turn
            turn_index += 1
            values = [state.evaluate(s) for s in range(players)]
            leaders.append(leader_of(values))
            ordered = sorted(values, reverse=True)
            gaps.append(ordered[0] - ordered[1] if len(ordered) > 1 else 0.0)
            if players > 2:
                mine = values[seat]
                lowest_owner.append(seat if all(mine < v - 1e-9 for s, v in enumerate(values) if s != seat) else -1)
        gap = decision - last_decision[seat] - 1
        if gap > 0 and last_decision[seat] >= 0:
            wait_sum[seat] += gap
            wait_n[seat] += 1
            if gap > wait_max[seat]:
                wait_max[seat] = gap
        last_decision[seat] = decision
        decision += 1
        if last_turn_index[seat] != turn_index:
            skipped = turn_index - last_turn_index[seat] - 1 - round_gap
            if skipped > 0:
                waiting_out[seat] += skipped
            last_turn_index[seat] = turn_index
        state.apply(agents[seat].act(Decision(state, seat)))
    for s in range(players):
        skipped = turn_index - last_turn_index[s] - round_gap  # turns after its last decision, beyond a round
        if skipped > 0:
            waiting_out[s] += skipped
    res = state.results()
    roles = list(state.roles())
    return {
        "index": index,
        "seed": seed,
        "game": game.id,
        "variant": game.variant,
        "players": players,
        "options": json.dumps(config.options, sort_keys=True),
        "agents": list(config.agents),
        "roles": roles,
        "winners": list(res.winners),
        "winner_roles": sorted({roles[w] for w in res.winners}),
        "scores": [float(x) for x in res.scores],
        "truncated": bool(res.truncated),
        "reason": res.reason,
        "turns": state.turn,
        "decisions": state.decisions,
        "choice_points": choice_points,
        "mean_branching": branching_sum / state.decisions if state.decisions else 0.0,
        "lead_changes": lead_changes(leaders),
        "closeness": 1.0 - (sum(gaps) / len(gaps)) if gaps else 1.0,
        "metrics": {k: [int(c) for c in v] for k, v in sorted(state.metrics().items())},
        "first_seat": first_seat if first_seat is not None else first_any,
        "downtime_mean": [wait_sum[s] / wait_n[s] if wait_n[s] else 0.0 for s in range(players)],
        "downtime_max": wait_max,
        "waiting_out": waiting_out,
        "decided_at": decided_at(leaders, res.winners),
        "kingmaking": kingmaking_turns(leaders, lowest_owner, res.winners) if players > 2 else None,
    }


def play_rows(config_doc: dict[str, Any], indexes: Sequence[int]) -> list[dict[str, Any]]:
    """Play several games of a run (the unit of work a backend ships to a worker)."""
    tune_gc_for_simulation()
    config = RunConfig.from_json(config_doc)
    game = make(config.game, players=config.players, variant=config.variant, options=config.options)
    game.record_events = False
    from boardlab.engine.core import choose, core_agent_specs, native

    choice = choose(game, config.agents, restricted=bool(config.restrict))
    if choice.engine == "core":
        seeds = [game_seed(config.seed, i) for i in indexes]
        docs = native().play_games(game.id, choice.spec, core_agent_specs(game, config.agents), seeds, game.max_turns, True)
        return [play_row(config, i, game, d["actions"]) for i, d in zip(indexes, docs)]
    return [play_row(config, i, game) for i in indexes]


def chunks(indexes: Sequence[int], size: int) -> list[list[int]]:
    return [list(indexes[i : i + size]) for i in range(0, len(indexes), size)]


def default_jobs() -> int:
    return max(1, os.cpu_count() or 1)


def run_local(
    config: RunConfig,
    indexes: Sequence[int],
    jobs: int,
    on_chunk: Callable[[list[dict[str, Any]]], None],
    chunk_size: int = 20,
) -> None:
    """Play ``indexes`` on this machine with ``jobs`` processes; ``on_chunk`` gets rows in index order."""
    doc = config.to_json()
    parts = chunks(indexes, chunk_size)
    if jobs <= 1 or len(parts) <= 1:
        for part in parts:
            on_chunk(play_rows(doc, part))
        return
    from boardlab.agents.runner import worker_pool

    with worker_pool(jobs) as pool:  # stopped within a second of SIGINT/SIGTERM; dies with a killed parent
        for rows in pool.imap(_play_rows_star, [(doc, p) for p in parts]):
            on_chunk(rows)


def _play_rows_star(args: tuple[dict[str, Any], list[int]]) -> list[dict[str, Any]]:
    return play_rows(*args)


def run_ray(
    config: RunConfig,
    indexes: Sequence[int],
    jobs: int,
    on_chunk: Callable[[list[dict[str, Any]]], None],
    address: str | None = None,
    chunk_size: int = 20,
) -> None:
    """Play ``indexes`` as Ray tasks: a local Ray instance by default, or the cluster at ``address``."""
    import ray

    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
        if address:
            kwargs["address"] = address
        else:
            kwargs["num_cpus"] = max(1, jobs)
        ray.init(**kwargs)
        started = True
    try:
        remote = ray.remote(play_rows)
        doc = config.to_json()
        parts = chunks(indexes, chunk_size)
        pending = [remote.remote(doc, p) for p in parts]
        # yield results in submission order so the store is written deterministically
        for ref in pending:
            on_chunk(ray.get(ref))
    finally:
        if started:
            ray.shutdown()


def iter_missing(total: int, done: Iterable[int]) -> list[int]:
    have = set(done)
    return [i for i in range(total) if i not in have]
