"""Bots on a network: which agent specs a web request may ask for, and where bots think.

Web bots see only their seat's view (issue 30, finding 9): :func:`web_agent`
is the catalogue of which agents may sit at a web table.  An agent class that
reads the true state says so with ``omniscient = True`` (``omniscient-mcts``);
:data:`NOT_FOR_WEB` lists the test-only ``first``.  Both are refused over
HTTP; the CLI keeps them.

Two bounds keep bot compute from taking the server down (issue 16, finding 2):

* :func:`check_web_spec` accepts, over HTTP, the lobby's curated specs
  (:func:`boardlab.agents.menu_specs`) as they are, and any other spec only
  when each of its budget parameters is within :data:`WEB_CAPS`, its other
  numbers are finite and within :data:`MAX_NUMBER`, and its words are plain
  names (no file paths: ``eval`` must be ``auto``, ``fitted`` or ``game``).
  The CLI keeps accepting any spec.
* :class:`BotPool` runs every bot decision in a bounded pool of worker
  processes (``pebble.ProcessPool``, spawned, niced), never on the event loop.
  A decision travels as JSON (the game's configuration, ``State.to_json()``,
  the seat, the spec and the agent's seed), so a worker decides exactly as the
  server process would have.  A decision that takes longer than the per-move
  limit is stopped (its worker is killed and replaced) and the seat plays
  :func:`fallback_action` instead: a uniformly random legal action drawn from
  an RNG seeded by the match seed, the seat and the decision number, so the
  fallback itself is deterministic (whether the limit is hit depends on the
  machine).  The same fallback covers an agent that raises or answers an
  illegal action.
* Where the compiled core plays the bot's spec in the match's configuration
  (:func:`boardlab.engine.core.choose`), the worker decides with the core's agent
  (:func:`boardlab.agents.core_agent.agent_for`); otherwise with the Python agent.

Bot compute is shared fairly between clients (issue 30, finding 5): the pool's
workers are handed out round-robin by the match's owner (the client that
created it, :func:`~boardlab.web.limits.client_key`), so one client's twenty
all-bot matches get the same turn as another client's one match.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import math
import multiprocessing
import os
import re
from collections import OrderedDict, deque
from typing import TYPE_CHECKING, Any

from boardlab.agents import Decision, agent_class, menu_specs, parse_spec
from boardlab.agents.core_agent import agent_for
from boardlab.engine import Rng, derive_seed
from boardlab.engine.errors import UnknownAgentError

if TYPE_CHECKING:  # pragma: no cover
    from boardlab.engine import State

log = logging.getLogger("boardlab.web")

#: Largest value a web request may give each budget parameter of an agent spec.
#: ``iterations`` and ``time`` bound the search agents (``ismcts``, ``mcts``),
#: ``samples`` the personas, ``depth`` a search's playout cut.
WEB_CAPS: dict[str, float] = {"iterations": 1000, "time": 2.0, "samples": 64, "depth": 200}
#: Bound on the magnitude of any other numeric agent parameter from the web.
MAX_NUMBER = 1e6
#: The values ``eval`` may take over the web (never an evaluation file).
WEB_EVALS = ("auto", "fitted", "game")
_WORD = re.compile(r"^[A-Za-z0-9_-]{1,32}$")

#: Default worker processes (bots thinking at once) and per-move limit in seconds.
DEFAULT_WORKERS = max(1, min(4, os.cpu_count() or 1))
DEFAULT_MOVE_LIMIT = 10.0


#: Agents never offered or accepted as web bots although they read only the view: test fixtures.
NOT_FOR_WEB = frozenset({"first"})


def web_agent(name: str, game: Any) -> bool:
    """True if agent ``name`` may be a web bot: it sees only its seat's view and is not a test fixture."""
    if name in NOT_FOR_WEB:
        return False
    try:
        cls = agent_class(name, game)
    except UnknownAgentError:
        return False
    return not getattr(cls, "omniscient", False)


def check_web_spec(spec: str, game: Any) -> None:
    """Raise :class:`UnknownAgentError` unless a web request may ask for agent ``spec`` in ``game``.

    A curated lobby spec passes as it is; any other spec must stay within
    :data:`WEB_CAPS` (the message names the cap).  The agent's own checks
    (:func:`boardlab.agents.check_spec`) still apply after this one.
    """
    if not isinstance(spec, str):
        raise UnknownAgentError("an agent spec must be a string")
    name, params = parse_spec(spec)
    if not web_agent(name, game):
        agent_class(name, game)  # an unknown name: its own message
        raise UnknownAgentError(
            f"agent {name!r} cannot be a web bot: web bots must see only their seat's view "
            "(omniscient and test-only agents are refused)"
        )
    if spec in menu_specs(game):
        return
    if len(params) > 12:
        raise UnknownAgentError("an agent spec from the web takes at most 12 parameters")
    for key, value in params.items():
        cap = WEB_CAPS.get(key)
        if cap is not None and not (key == "depth" and value == "auto"):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise UnknownAgentError(f"agent parameter {key} must be a number, got {value!r}")
            if value > cap:
                caps = ", ".join(f"{k} <= {v:g}" for k, v in WEB_CAPS.items())
                raise UnknownAgentError(
                    f"agent parameter {key}={value:g} is over this server's cap of {cap:g} ({caps})"
                )
        elif isinstance(value, bool):
            continue
        elif isinstance(value, (int, float)):
            if not math.isfinite(value) or abs(value) > MAX_NUMBER:
                raise UnknownAgentError(f"agent parameter {key}={value!r} is out of range (at most {MAX_NUMBER:g} in size)")
        elif key == "eval":
            if value not in WEB_EVALS:
                raise UnknownAgentError(f"agent parameter eval must be one of {', '.join(WEB_EVALS)} over the web, got {value!r}")
        elif not isinstance(value, str) or not _WORD.match(value):
            raise UnknownAgentError(f"agent parameter {key} must be a plain name (letters, digits, '-', '_'), got {value!r}")


def fallback_action(state: "State", seat: int, match_seed: int) -> tuple:
    """The action a bot plays when its agent times out, fails or answers an illegal action.

    A uniformly random legal action from an RNG seeded by the match seed, the
    seat and the decision number: the same situation gives the same action.
    """
    legal = state.legal_actions()
    rng = Rng(derive_seed(match_seed, 2_000_029 * (seat + 1) + state.decisions))
    return legal[rng.below(len(legal))]


# -- the worker side ------------------------------------------------------------
_GAMES: dict[str, Any] = {}


def _init_worker() -> None:
    try:  # thinking yields to the server process on a busy machine
        os.nice(10)
    except OSError:  # pragma: no cover - not permitted
        pass


def _think(job: tuple) -> tuple:
    """Run one decision in a worker: rebuild the game and state from JSON, ask the agent."""
    import json

    from boardlab.engine import State, registry

    game_id, class_path, players, variant, options, doc, seat, spec, seed = job
    key = json.dumps([game_id, class_path, players, variant, options], sort_keys=True)
    game = _GAMES.get(key)
    if game is None:
        try:
            cls = registry.game_class(game_id)
            known = f"{cls.__module__}:{cls.__qualname__}" == class_path
        except Exception:
            known = False
        if not known:  # a game registered at run time in the server (e.g. by tests)
            registry.register(game_id, class_path)
        game = registry.make(game_id, players=players, variant=variant, options=options)
        if len(_GAMES) >= 32:
            _GAMES.pop(next(iter(_GAMES)))
        _GAMES[key] = game
    state = State.from_json(doc, game)
    # the compiled core decides where it plays this spec in this configuration (issue 43), else Python
    agent = agent_for(spec, game, seat, seed)
    return tuple(agent.act(Decision(state, seat)))


# -- the server side ------------------------------------------------------------
class BotPool:
    """A bounded pool of worker processes in which bots decide, with a per-move time limit."""

    def __init__(self, workers: int = DEFAULT_WORKERS, move_limit: float = DEFAULT_MOVE_LIMIT) -> None:
        if workers < 1:
            raise ValueError("a bot pool needs at least one worker")
        if not move_limit > 0:
            raise ValueError("the per-move limit must be positive")
        self.workers = workers
        self.move_limit = move_limit
        self._pool: Any = None
        self.closed = False
        #: Decisions stopped at the per-move limit, and decisions in flight (for tests and the curious).
        self.timeouts = 0
        self.pending = 0
        self._free = workers  # workers not handed out
        self._waiting: OrderedDict[str, deque[asyncio.Future]] = OrderedDict()  # by owner, in turn order

    async def _acquire(self, owner: str) -> None:
        """Wait for a worker; waiting owners are served round-robin (one decision each in turn)."""
        if self._free > 0 and not self._waiting:
            self._free -= 1
            return
        fut = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(owner, deque()).append(fut)
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():
                self._release()  # handed a worker just as we were cancelled: pass it on
            else:
                q = self._waiting.get(owner)
                if q is not None and fut in q:
                    q.remove(fut)
                    if not q:
                        del self._waiting[owner]
            raise

    def _release(self) -> None:
        while self._waiting:
            owner, q = next(iter(self._waiting.items()))
            fut = q.popleft()
            if q:
                self._waiting.move_to_end(owner)  # this owner's next decision waits for the others
            else:
                del self._waiting[owner]
            if not fut.done():
                fut.set_result(None)
                return
        self._free += 1

    def _get(self) -> Any:
        if self._pool is None:
            from pebble import ProcessPool

            self._pool = ProcessPool(
                max_workers=self.workers, initializer=_init_worker,
                context=multiprocessing.get_context("spawn"),
            )
        return self._pool

    async def think(self, state: "State", seat: int, spec: str, seed: int, owner: str = "") -> tuple | None:
        """The action ``spec`` chooses for ``seat`` in ``state``; ``None`` if it timed out or failed.

        ``owner`` is the client the match belongs to: workers go round-robin between owners.
        """
        if self.closed:
            raise asyncio.CancelledError
        self.pending += 1
        try:
            await self._acquire(owner)
            try:
                return await self._think(state, seat, spec, seed)
            finally:
                self._release()
        finally:
            self.pending -= 1

    async def _think(self, state: "State", seat: int, spec: str, seed: int) -> tuple | None:
        if self.closed:
            raise asyncio.CancelledError
        game = state.game
        cls = type(game)
        # On the event loop, not in a thread: a state builds its log lazily (clones share it), and
        # a snapshot built meanwhile on the loop raced to_json in a thread (the worker then
        # refused the document: "state field 'log' does not match"; tests/web/test_leaks.py).
        job = (
            game.id, f"{cls.__module__}:{cls.__qualname__}", game.players, game.variant,
            dict(game.overrides), state.to_json(), seat, spec, seed,
        )
        fut = self._get().schedule(_think, args=(job,), timeout=self.move_limit)
        try:
            return await asyncio.wrap_future(fut)
        except asyncio.CancelledError:
            fut.cancel()
            raise
        except (TimeoutError, concurrent.futures.TimeoutError):
            self.timeouts += 1
            log.warning("bot %r (seat %d) passed the %gs move limit; playing the fallback move", spec, seat, self.move_limit)
            return None
        except Exception:
            log.exception("bot %r (seat %d) failed; playing the fallback move", spec, seat)
            return None

    def close(self) -> None:
        """Stop every worker now (running decisions are abandoned) and wait for them to exit."""
        self.closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.stop()
            pool.join(timeout=10)
