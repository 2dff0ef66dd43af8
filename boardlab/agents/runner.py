"""Playing whole games with agents: one game, or a batch split over processes.

Seeds are derived so that results never depend on how games are split:
game *i* of a run with seed *S* uses ``derive_seed(S, i)``, and the agent in
seat *k* of that game uses ``derive_seed(game_seed, 1000 + k)``.

Nor do they depend on the engine: :func:`run_batch` given an
:class:`~boardlab.engine.core.EngineChoice` for the compiled core has the core
play the games (rules and agents alike) and returns the same records.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

from boardlab.engine.rng import derive_seed

if TYPE_CHECKING:  # pragma: no cover
    from boardlab.engine.core import EngineChoice
    from boardlab.engine.game import Game
    from boardlab.engine.state import State


@dataclass(slots=True)
class GameRecord:
    """What one played game produced."""

    seed: int
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    truncated: bool
    reason: str
    turns: int
    decisions: int
    roles: tuple[str, ...]
    actions: list[list[Any]] = field(default_factory=list)
    metrics: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "scores": list(self.scores),
            "winners": list(self.winners),
            "truncated": self.truncated,
            "reason": self.reason,
            "turns": self.turns,
            "decisions": self.decisions,
            "roles": list(self.roles),
            "actions": self.actions,
            "metrics": self.metrics,
        }


def tune_gc_for_simulation() -> None:
    """Raise the cyclic garbage collector's thresholds for batch simulation (process-wide).

    Playouts allocate many short-lived objects (actions, views, clones) and
    create few reference cycles, so the default first-generation threshold
    (700) makes the collector run constantly; at 50,000 heuristic playouts run
    about a quarter faster.  Batch runners call this; interactive use does not.
    """
    import gc

    t0, t1, t2 = gc.get_threshold()
    if t0 < 50_000:
        gc.set_threshold(50_000, max(t1, 20), max(t2, 20))


def agent_seed(game_seed: int, seat: int) -> int:
    return derive_seed(game_seed, 1000 + seat)


def game_seed(run_seed: int, index: int) -> int:
    return derive_seed(run_seed, index)


def play_game(
    game: "Game",
    agent_specs: Sequence[str],
    seed: int,
    *,
    keep_actions: bool = False,
    on_step: Callable[["State", Any], None] | None = None,
) -> tuple["State", GameRecord]:
    """Play one game of ``game`` from ``seed`` with one agent spec per seat."""
    from . import Decision, make_agent

    if len(agent_specs) != game.players:
        raise ValueError(f"need {game.players} agents, got {len(agent_specs)}")
    agents = [make_agent(spec, game, seat, agent_seed(seed, seat)) for seat, spec in enumerate(agent_specs)]
    state = game.new_state(seed)
    actions: list[list[Any]] = []
    current_seat, apply = state.current_seat, state.apply
    acts = [a.act for a in agents]
    if not keep_actions and on_step is None:  # the simulation hot loop
        while True:
            seat = current_seat()
            if seat is None:
                break
            apply(acts[seat](Decision(state, seat)))
    else:
        while True:
            seat = current_seat()
            if seat is None:
                break
            action = acts[seat](Decision(state, seat))
            apply(action)
            if keep_actions:
                actions.append(list(action))
            if on_step is not None:
                on_step(state, action)
    res = state.results()
    record = GameRecord(
        seed=seed,
        scores=res.scores,
        winners=res.winners,
        truncated=res.truncated,
        reason=res.reason,
        turns=state.turn,
        decisions=state.decisions,
        roles=tuple(state.roles()),
        actions=actions,
    )
    return state, record


#: Configured games reused across chunks (a game is immutable once built; loading content is not free).
_GAMES: dict[str, "Game"] = {}


def configured_game(config: dict[str, Any]) -> "Game":
    """The game ``config`` (:meth:`Game.config`) describes, built once per process and reused, with
    ``record_events`` off: what a worker process plays its self-play or batch games with."""
    import json

    from boardlab.engine.registry import make

    key = json.dumps(config, sort_keys=True)
    game = _GAMES.get(key)
    if game is None:
        if len(_GAMES) > 32:
            _GAMES.clear()
        game = make(config["game"], players=config["players"], variant=config["variant"], options=config["options"])
        game.record_events = False
        _GAMES[key] = game
    return game


def _play_chunk(args: tuple) -> list[GameRecord]:
    config, specs, seeds, keep_actions, *core = args
    game = configured_game(config)
    if core and core[0] is not None:
        return core_records(game, specs, seeds, core[0], keep_actions)
    return [play_game(game, specs, s, keep_actions=keep_actions)[1] for s in seeds]


def core_records(game: "Game", specs: Sequence[str], seeds: Sequence[int], spec: str,
                 keep_actions: bool = False) -> list[GameRecord]:
    """The compiled core plays ``seeds`` (the same games as :func:`play_game`, move for move)."""
    from boardlab.engine.core import core_agent_specs, native

    docs = native().play_games(game.id, spec, core_agent_specs(game, specs), list(seeds), game.max_turns, keep_actions)
    return [GameRecord(seed=d["seed"], scores=tuple(d["scores"]), winners=tuple(d["winners"]),
                       truncated=bool(d["truncated"]), reason=d["reason"], turns=d["turns"],
                       decisions=d["decisions"], roles=tuple(d["roles"]),
                       actions=[list(a) for a in d["actions"]] if keep_actions else [])
            for d in docs]


def run_batch(
    game: "Game",
    agent_specs: Sequence[str],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    *,
    keep_actions: bool = False,
    progress: Callable[[int], None] | None = None,
    chunk_size: int | None = None,
    engine: "EngineChoice | None" = None,
) -> list[GameRecord]:
    """Play ``games`` games; results are identical whatever ``jobs`` and ``engine`` are."""
    tune_gc_for_simulation()
    seeds = [game_seed(seed, i) for i in range(games)]
    config = game.config()
    specs = list(agent_specs)
    if engine is None:  # BOARDLAB_ENGINE (--engine) decides, auto by default
        from boardlab.engine.core import choose

        engine = choose(game, specs)
    core = engine.spec if engine.engine == "core" else None
    if jobs <= 1 or games <= 1:
        out = []
        for i in range(0, games, chunk_size or 1):
            chunk = _play_chunk((config, specs, seeds[i : i + (chunk_size or 1)], keep_actions, core))
            out.extend(chunk)
            if progress:
                progress(len(chunk))
        return out
    size = chunk_size or max(1, min(50, games // (jobs * 8) or 1))
    chunks = [(config, specs, seeds[i : i + size], keep_actions, core) for i in range(0, games, size)]
    out = []
    with worker_pool(jobs) as pool:
        for chunk in pool.imap(_play_chunk, chunks):
            out.extend(chunk)
            if progress:
                progress(len(chunk))
    return out


# -- workers and interrupts -------------------------------------------------------------------------------------------
#
# Every command that runs worker processes (simulate, playtest, compare's runs, tune, study, arena) plays through
# :func:`worker_pool` inside :func:`interrupts`: SIGINT and SIGTERM raise :class:`Interrupted` in the main process,
# the pool's workers are stopped (SIGTERM, which they do not catch) and joined before the exception goes on, and
# every worker dies with its parent, even a SIGKILLed one (Linux: PR_SET_PDEATHSIG; elsewhere a thread that polls
# the parent's pid).  Workers ignore SIGINT, so Ctrl+C in a terminal (sent to the whole process group) reaches only
# the parent, which stops them.


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM reached a command while it worked; ``exit_code`` is 130 or 143 (128 + the signal)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


@contextmanager
def interrupts() -> Iterator[None]:
    """While inside, SIGINT and SIGTERM raise :class:`Interrupted` in the main thread (once: a second signal
    during the clean-up is ignored).  Elsewhere than the main thread, nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        for s in (signal.SIGINT, signal.SIGTERM):
            signal.signal(s, signal.SIG_IGN)  # the clean-up (stopping workers, removing temporary files) runs once
        raise Interrupted(signum)

    old = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def _die_with_parent(parent: int) -> None:
    """Make this process die when ``parent`` does (PR_SET_PDEATHSIG on Linux, else a polling thread)."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(1, int(signal.SIGKILL), 0, 0, 0) == 0:  # 1 = PR_SET_PDEATHSIG
                if os.getppid() != parent:  # the parent died before the call
                    os._exit(1)
                return
        except (OSError, AttributeError):  # pragma: no cover - no libc prctl: poll instead
            pass

    def watch() -> None:  # pragma: no cover - platforms without PR_SET_PDEATHSIG
        while True:
            time.sleep(0.25)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="boardlab-parent-watch", daemon=True).start()


def _worker_start(parent: int) -> None:
    """Initializer of every worker process (see :func:`worker_pool`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides; it stops the workers
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # Pool.terminate() stops a worker at once, silently
    if hasattr(signal, "pthread_sigmask"):  # (the parent blocked them while it forked: see worker_pool)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    _die_with_parent(parent)


@contextmanager
def worker_pool(jobs: int) -> Iterator[Any]:
    """A ``multiprocessing`` pool of ``jobs`` workers that stop with the command.

    On leaving normally the pool is closed and joined; on any exception (an
    :class:`Interrupted` above all) its workers are terminated and joined before
    the exception goes on, so none is alive a moment later; and each worker
    dies with its parent even if the parent is killed (see the section comment).
    """
    import multiprocessing as mp

    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    # a signal that came while the pool is being built would leave it half made (Pool.__init__ cleans up only
    # after an Exception): the signals wait until the pool stands, then raise in the try below
    mask = hasattr(signal, "pthread_sigmask") and threading.current_thread() is threading.main_thread()
    if mask:
        signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        pool = ctx.Pool(jobs, initializer=_worker_start, initargs=(os.getpid(),))
    finally:
        if mask:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    try:
        yield pool
    except BaseException:
        pool.terminate()
        pool.join()
        raise
    pool.close()
    pool.join()


def summarize(game: "Game", agent_specs: Sequence[str], records: Sequence[GameRecord], seed: int, seconds: float) -> dict[str, Any]:
    """The ``simulate --json`` summary of a batch."""
    n = len(records)
    wins = [0] * game.players
    by_role: dict[str, int] = {}
    for r in records:
        for w in r.winners:
            wins[w] += 1
        for role in sorted({r.roles[w] for w in r.winners}):
            by_role[role] = by_role.get(role, 0) + 1
    return {
        "game": game.id,
        "variant": game.variant,
        "players": game.players,
        "options": dict(game.overrides),
        "games": n,
        "seed": seed,
        "agents": list(agent_specs),
        "wins_by_seat": wins,
        "wins_by_side": by_role,
        "draws_or_no_winner": sum(1 for r in records if not r.winners and not r.truncated),
        "truncated": sum(1 for r in records if r.truncated),
        "mean_turns": (sum(r.turns for r in records) / n) if n else 0.0,
        "mean_decisions": (sum(r.decisions for r in records) / n) if n else 0.0,
        "seconds": seconds,
        "games_per_second": (n / seconds) if seconds > 0 else 0.0,
    }


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0
