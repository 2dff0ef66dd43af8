"""Live matches: rebuild from the store, check and apply actions, run bots, notify pages.

A :class:`Match` holds the live state of one stored match.  Every change
goes through :meth:`Hub.act`, which checks the seat's secret, the state id
(``state.decisions``) and legality, commits the action to the store, and
only then swaps in the new state and tells every open page.  Bots are
asyncio tasks that wait a short, watchable delay and then have the decision
made in a worker process of the hub's :class:`~boardlab.web.bots.BotPool`
(bounded, with a per-move time limit), from a
:class:`~boardlab.agents.Decision` (the seat's view; never the true state).

Payloads are built per seat by :func:`snapshot` from ``state.view(seat)``,
``state.events(seat)`` and the game's scene of that view, so a page never
receives what its seat may not know.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import hmac
import re
import secrets
import unicodedata
import time
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable

from boardlab.agents import available_agents, check_spec, make_agent
from boardlab.engine import BoardlabError, InvalidOptionError, State, UnknownVariantError, derive_seed, make
from boardlab.engine.errors import UnknownAgentError
from boardlab.engine.registry import game_class
from boardlab.engine.scene import rename_seats

from .bots import BotPool, check_web_spec, fallback_action
from .db import Store, StoredMatch
from .limits import LimitLog
from .push import Feed, Outbox, Pusher

log = logging.getLogger("boardlab.web")

#: WebSocket close code for a spectator whose match was unloaded to make room (nobody was playing it).
CLOSE_UNLOADED = 4009
CLOSE_UNLOADED_REASON = "nobody is playing this match; it was unloaded to make room: reload the page to watch again"
#: WebSocket close code for a spectator of a finished match that was unloaded (the page keeps its final position).
CLOSE_FINISHED = 4010
CLOSE_FINISHED_REASON = "this match is over and nobody plays it; it was unloaded to save memory: reload the page to see it again"
#: WebSocket close code for a seat's page whose match was unloaded after its seats were silent (issue 45):
#: the page reconnects and the match resumes from the database.
CLOSE_RESTING = 4011
CLOSE_RESTING_REASON = "nobody has moved for a while; the match was put to rest: reconnect to go on"
#: Finished matches no seat has open (spectators do not count) kept in memory, most recently used
#: first; older ones are unloaded at once rather than after ``idle_seconds`` (issue 30: the soak's
#: RSS grew with every match played, each finished Dungeon's Jewel match holding about 1.6 MB for
#: 300 s, and spectators kept finished matches loaded up to ``max_matches``).
MAX_FINISHED = 16
#: Steps between the states a replay keeps (a step is rebuilt from the checkpoint before it).
REPLAY_EVERY = 32
#: States kept by the replay cache, over all matches (the cache is bounded by size, not count).
REPLAY_CACHE_STATES = 4096


class WebError(Exception):
    """An error answered with an HTTP status and a JSON ``{"detail": ...}``."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(slots=True)
class Seat:
    seat: int
    kind: str  # "human" | "bot"
    name: str
    agent: str | None = None
    token_hash: str | None = None
    #: The seat's time budget in seconds (a clock, issue 44), or None: no clock.
    clock: float | None = None

    def public(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "name": self.name, "agent": self.agent}

    def stored(self) -> dict[str, Any]:
        out = {**self.public(), "token_hash": self.token_hash}
        if self.clock is not None:
            out["clock"] = self.clock
        return out


@dataclass(eq=False)
class Match:
    """One live match: its stored record, current state and listeners."""

    record: StoredMatch
    state: State
    seats: list[Seat]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: dict[int, tuple[Any, int | None]] = field(default_factory=dict)
    bot_task: asyncio.Task | None = None
    #: When the match was last used (``time.monotonic()``); idle matches are unloaded first.
    touched: float = field(default_factory=time.monotonic)
    #: True once the hub has dropped it from memory (see :meth:`Hub.unload`).
    unloaded: bool = False
    #: The client (:func:`~boardlab.web.limits.client_key`) that created it: its bots share that
    #: client's turn in the bot pool, and its all-bot matches count against that client's budget.
    owner: str = "unknown"
    #: Results of a match ended without an action (a resignation, a loss on time), else None.
    ended: dict[str, Any] | None = None
    #: Take-backs so far: pages take a snapshot of another epoch even when its state id is lower.
    epoch: int = 0
    #: The id of the rematch, once someone asked for it.
    rematch: str | None = None
    #: A take-back asked of the other people: {"seat", "keep", "decisions"}, or None.
    undo_request: dict[str, Any] | None = None
    #: Seconds each seat has used of its clock (matches with clocks), and when the current turn began.
    clock_used: list[float] = field(default_factory=list)
    clock_since: float = field(default_factory=time.time)
    clock_task: asyncio.Task | None = None

    @property
    def over(self) -> bool:
        return self.ended is not None or self.state.is_over()

    @property
    def clocked(self) -> bool:
        return any(s.clock is not None for s in self.seats)

    def clock_left(self, now: float | None = None) -> list[float | None]:
        """Seconds left on each seat's clock (None: no clock), counting the acting seat's running turn."""
        now = time.time() if now is None else now
        acting = None if self.over else self.state.current_seat()
        out: list[float | None] = []
        for s in self.seats:
            if s.clock is None:
                out.append(None)
                continue
            used = self.clock_used[s.seat] if s.seat < len(self.clock_used) else 0.0
            if s.seat == acting:
                used += max(0.0, now - self.clock_since)
            out.append(max(0.0, s.clock - used))
        return out

    @property
    def all_bots(self) -> bool:
        return all(s.kind == "bot" for s in self.seats)

    @property
    def id(self) -> str:
        return self.record.id

    def info(self) -> dict[str, Any]:
        st = self.state
        game = st.game
        over = self.over
        results = self.ended if self.ended is not None else (st.results().to_json() if over else None)
        extra: dict[str, Any] = {"epoch": self.epoch, "rematch": self.rematch}
        if self.undo_request is not None:
            extra["undo_request"] = {"seat": self.undo_request["seat"], "decisions": self.undo_request["decisions"]}
        if self.clocked:
            left = self.clock_left()
            extra["clocks"] = {"left": [None if x is None else round(x, 1) for x in left],
                               "running": None if over else st.current_seat()}
        return {
            "id": self.id,
            "game": game.id,
            "game_name": type(game).name,
            "variant": game.variant,
            "players": game.players,
            "options": dict(game.overrides),
            "seats": [s.public() for s in self.seats],
            "status": "over" if over else "playing",
            "acting": None if over else st.current_seat(),
            "decisions": st.decisions,
            "results": results,
            "created_at": self.record.created_at,
            "updated_at": self.record.updated_at,
            **extra,
        }

    def check_token(self, seat: int | None, token: str | None) -> None:
        """Raise unless ``token`` is the secret of ``seat`` (or the host secret of a human seat)."""
        if seat is None:
            return
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise WebError(400, f"seat must be 0..{len(self.seats) - 1} or omitted for a spectator")
        if not token:
            raise WebError(401, f"a secret token is needed to see or act for seat {seat}")
        h = hash_token(token)
        s = self.seats[seat]
        if s.token_hash is not None and hmac.compare_digest(h, s.token_hash):
            return
        if s.kind == "human" and hmac.compare_digest(h, self.record.host_hash):
            return
        raise WebError(403, f"this token does not hold seat {seat}")


def snapshot(match: Match | None, seat: int | None, state: State | None = None, *, events: bool = True) -> dict[str, Any]:
    """Everything a page for ``seat`` (``None``: spectator) is sent; built from its view only.

    ``match`` may be ``None`` when ``state`` is given (a bare state: seats keep their default names).
    ``events=False`` leaves out the log (see :func:`seat_events`).
    """
    st = state if state is not None else match.state
    view = st.view(seat)
    acting = st.current_seat()
    ended = match.ended if match is not None and state is None else None
    if ended is not None:  # resigned or lost on time: nobody acts any more
        acting = None
        view = {**view, "acting": None, "over": True, "results": ended}
    mine = seat is not None and seat == acting
    actions = st.legal_actions() if mine else ()
    # the names typed in the lobby, in the scene, the action labels and the log alike
    defaults = st.game.seat_names()
    names = [s.name for s in match.seats] if match is not None else list(defaults)
    out = {
        "type": "snapshot",
        "match": match.info() if state is None else None,
        "seat": seat,
        "state_id": st.decisions,
        "acting": acting,
        "over": view["over"],
        "results": view["results"],
        "view": view,
        "scene": rename_seats(_scene(st, view, actions, ended), defaults, names),
        "actions": rename_seats(st.labeled_actions(), defaults, names) if mine else [],
    }
    if events:
        out["events"] = rename_seats(st.events(seat), defaults, names)
    return out


def _scene(st: State, view: dict[str, Any], actions: Any, ended: dict[str, Any] | None) -> dict[str, Any]:
    scene = st.game.scene(view, actions)
    if ended is not None:
        scene = {**scene, "prompt": "", "hint": "", "targets": [], "status": "Game over: " + (ended.get("reason") or "")}
    return scene


def seat_events(match: Match, seat: int | None, since: object = None) -> list[dict[str, Any]] | None:
    """``seat``'s events of the match logged after log mark ``since``, with the seats' names.

    ``since=None`` is the empty log's mark: all events.  ``None`` when ``since`` is not in the
    match's log (see :meth:`State.events_since`).
    """
    st = match.state
    new = st.events_since(since, seat)
    if new is None:
        return None
    return rename_seats(new, st.game.seat_names(), [s.name for s in match.seats])


#: How the hub's :class:`Pusher` reads a match: snapshots without the log, and the log piece by piece.
FEED = Feed(
    base=lambda match, seat: snapshot(match, seat, events=False),
    mark=lambda match: match.state.log_mark(),
    events=seat_events,
)


def _rebuild(m: StoredMatch) -> State:
    game = make(m.game, players=m.players, variant=m.variant, options=m.options)
    state = game.new_state(m.seed)
    for a in m.actions:
        state.apply(a)
    return state


class Hub:
    """All live matches of one server, backed by a :class:`Store`."""

    def __init__(
        self,
        store: Store,
        bot_delay: float = 0.8,
        pool: BotPool | None = None,
        max_matches: int = 200,
        idle_seconds: float = 300.0,
        max_finished: int = MAX_FINISHED,
    ) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.pool = pool if pool is not None else BotPool()
        #: At most this many matches are held in memory; idle ones are unloaded to make room.
        self.max_matches = max_matches
        #: A match no seat plays (spectators do not count) is unloaded after this many seconds.
        self.idle_seconds = idle_seconds
        #: Finished matches no seat has open (spectators do not count) are held at most this many (:meth:`trim_finished`).
        self.max_finished = max_finished
        self.matches: dict[str, Match] = {}
        # Every Match object still referenced somewhere (a request or socket that
        # holds it after it was unloaded): reloading adopts it again, so there is
        # never more than one live object per match.
        self._alive: weakref.WeakValueDictionary[str, Match] = weakref.WeakValueDictionary()
        self._replays: OrderedDict[str, tuple[int, list[State]]] = OrderedDict()
        self._loading: dict[str, asyncio.Future] = {}
        self._sweeper: asyncio.Task | None = None
        self.closing = False
        self.push = Pusher(FEED)  # last snapshot pushed per match and seat: pages get incremental updates
        self.limit_log = LimitLog()
        #: A seat's page that has said nothing (no hello, no move) this long no longer keeps its match busy
        #: (issue 45: seven addresses held every slot with 201 silent seat sockets).
        self.seat_silence = 120.0
        #: Unfinished matches untouched (no move) this long are deleted by the sweeper; finished ones stay.
        self.expire_seconds = 168 * 3600.0
        self.expired = 0

    # -- loading -----------------------------------------------------------
    def _live(self, match_id: str) -> Match | None:
        """The match if it is loaded (or still alive elsewhere and adopted); None if it must be read.

        Raises 404 for an id that cannot be a match id, before any lookup in the store."""
        m = self.matches.get(match_id)
        if m is not None:
            m.touched = time.monotonic()
            return m
        if not isinstance(match_id, str) or not match_id.replace("-", "").replace("_", "").isalnum() or len(match_id) > 32:
            raise WebError(404, f"no match {match_id!r}")
        m = self._alive.get(match_id)
        if m is not None:
            self._adopt(m)
        return m

    def get(self, match_id: str) -> Match:
        m = self._live(match_id)
        if m is not None:
            return m
        rec = self.store.load(match_id)
        if rec is None:
            raise WebError(404, f"no match {match_id!r}")
        m = self._load(rec)
        self._kick_if_running(m)
        return m

    def _load(self, rec: StoredMatch, state: State | None = None) -> Match:
        self.make_room()
        if state is None:
            state = _rebuild(rec)
        seats = [Seat(**s) for s in rec.seats]
        m = Match(rec, state, seats)
        if rec.status == "over" and not state.is_over():
            m.ended = rec.results or {"scores": [], "winners": [], "truncated": False, "reason": "the game was ended"}
        if m.clocked:
            m.clock_used, m.clock_since = clock_from_times(rec, state)
        self.matches[rec.id] = m
        self._alive[rec.id] = m
        if rec.status == "over":
            self.trim_finished(keep=m)
        return m

    async def open(self, match_id: str) -> Match:
        """:meth:`get`, with the database read and the rebuild in a worker thread (never on the event loop).

        Concurrent opens of one match share one load, so there is still one live object per match.
        """
        m = self._live(match_id)
        if m is not None:
            return m
        pending = self._loading.get(match_id)
        if pending is None:
            pending = self._loading[match_id] = asyncio.ensure_future(self._read(match_id))
            pending.add_done_callback(lambda _f: self._loading.pop(match_id, None))
        rec, state = await asyncio.shield(pending)
        m = self.matches.get(match_id) or self._alive.get(match_id)
        if m is not None:  # another opener got there first
            self._adopt(m)
            return m
        m = self._load(rec, state)
        self._kick_if_running(m)
        return m

    async def _read(self, match_id: str) -> tuple[StoredMatch, State]:
        rec = await asyncio.to_thread(self.store.load, match_id)
        if rec is None:
            raise WebError(404, f"no match {match_id!r}")
        return rec, await asyncio.to_thread(_rebuild, rec)

    def _adopt(self, m: Match) -> None:
        """Hold an unloaded match (still referenced somewhere) in memory again."""
        if self.matches.get(m.id) is not m:
            self.make_room()
            self.matches[m.id] = m
            m.unloaded = False
        m.touched = time.monotonic()

    def _kick_if_running(self, m: Match) -> None:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return
        self.kick(m)

    # -- unloading ---------------------------------------------------------
    def idle(self, m: Match, now: float | None = None) -> bool:
        """True if no seat is playing ``m``: no seat's page heard from lately, no bot thinking, no action in progress.

        Spectators do not count (issue 30, finding 1): a match only watched can be
        unloaded to make room, and its spectators are then closed
        (:data:`CLOSE_UNLOADED`), so idle watchers can never hold the server's slots.
        Nor does a seat's page that has said nothing for :attr:`seat_silence` seconds
        (issue 45): unloading closes it with :data:`CLOSE_RESTING`, and it reconnects.
        """
        now = time.monotonic() if now is None else now
        return (
            not any(seat is not None and now - getattr(box, "heard", now) < self.seat_silence
                    for box, seat in m.listeners.values())
            and (m.bot_task is None or m.bot_task.done())
            and not m.lock.locked()
        )

    def unload(self, m: Match, code: int = CLOSE_UNLOADED, reason: str = CLOSE_UNLOADED_REASON) -> None:
        """Drop ``m`` from memory; its record (seed and actions) stays in the database.

        Its spectators' sockets (if any) are closed with ``code`` (:data:`CLOSE_UNLOADED`).
        """
        if self.matches.get(m.id) is m:
            del self.matches[m.id]
        self._replays.pop(m.id, None)
        m.unloaded = True
        for key, (box, seat) in list(m.listeners.items()):
            if seat is not None and code == CLOSE_UNLOADED:  # a silent seat's page: it may come back
                box.drop(CLOSE_RESTING, CLOSE_RESTING_REASON, quiet=True)
            else:
                box.drop(code, reason, quiet=True)
            m.listeners.pop(key, None)
        self.push.forget(m)

    def trim_finished(self, keep: Match | None = None) -> int:
        """Unload finished matches that no seat has open beyond the :attr:`max_finished` most recently used.

        Spectators do not keep a finished match loaded (issue 30): theirs are closed with
        :data:`CLOSE_FINISHED` (the page keeps the final position it was sent).  A replay or a
        late page reloads one from the database.  Called when a match ends, when a finished
        match loses a page, or when one is loaded (``keep``: that one stays).  Returns how many
        were unloaded.
        """
        done = [m for m in self.matches.values() if m.record.status == "over" and self.idle(m)]
        extra = len(done) - self.max_finished
        if extra <= 0:
            return 0
        out = sorted((m for m in done if m is not keep), key=lambda m: m.touched)[:extra]
        for m in out:
            self.unload(m, CLOSE_FINISHED, CLOSE_FINISHED_REASON)
        return len(out)

    def make_room(self) -> None:
        """Unload idle matches, least recently used first, until one more fits; else a 503."""
        if len(self.matches) < self.max_matches:
            return
        for m in sorted((m for m in self.matches.values() if self.idle(m)), key=lambda m: m.touched):
            self.unload(m)
            if len(self.matches) < self.max_matches:
                return
        self.limit_log.hit("matches", "refusing a match: all %d slots have a seat playing", self.max_matches)
        raise WebError(503, f"the server is busy: it holds its maximum of {self.max_matches} active matches; try again later")

    def sweep(self, now: float | None = None) -> int:
        """Unload every idle match untouched for ``idle_seconds``; returns how many."""
        now = time.monotonic() if now is None else now
        old = [m for m in self.matches.values() if self.idle(m) and now - m.touched >= self.idle_seconds]
        for m in old:
            self.unload(m)
        return len(old)

    async def _sweep_forever(self) -> None:
        last_expiry = time.monotonic()
        while not self.closing:
            await asyncio.sleep(max(0.05, min(30.0, self.idle_seconds / 4)))
            self.sweep()
            if time.monotonic() - last_expiry >= min(3600.0, self.expire_seconds / 4):
                last_expiry = time.monotonic()
                await self.expire()

    async def expire(self, now: float | None = None) -> int:
        """Delete unfinished matches untouched for :attr:`expire_seconds` (issue 45), except those in memory.

        Finished matches stay for their replays.  Runs in a worker thread; returns how many went.
        """
        cutoff = (time.time() if now is None else now) - self.expire_seconds
        n = await asyncio.to_thread(self.store.expire, cutoff, set(self.matches))
        if n:
            self.expired += n
            log.warning("deleted %d unfinished matches nobody touched for %g hours", n, self.expire_seconds / 3600)
        return n

    async def resume_all(self) -> int:
        """Restart the bots of unfinished matches (after a restart); start unloading idle matches.

        A match whose next move is a person's stays in the database until someone
        opens it.  At most ``max_matches`` are resumed; the others resume when opened.
        """
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())
        # issue 45: the server listens while this runs (the app starts it in the background), and every
        # read and rebuild is in a worker thread; matches with no bot seat are left until opened
        await self.expire()
        n = 0
        for mid in await asyncio.to_thread(self.store.ids, "playing", True):
            if self.closing:
                break
            if mid in self.matches:
                m = self.matches[mid]
            else:
                if len(self.matches) >= self.max_matches:
                    log.warning("%d live matches: the others resume when opened", len(self.matches))
                    break
                try:
                    m = await self.open(mid)
                except WebError:  # pragma: no cover - deleted meanwhile
                    continue
            self.kick(m)
            if m.bot_task is None:
                if self.idle(m):
                    self.unload(m)  # a person is to move: no need to hold it
            else:
                n += 1
        return n

    # -- creation ----------------------------------------------------------
    def bot_matches(self, owner: str) -> int:
        """All-bot matches of client ``owner`` still playing in memory."""
        return sum(1 for m in self.matches.values() if m.owner == owner and m.all_bots and not m.over)

    async def create(
        self,
        game_id: str,
        players: int | None,
        variant: str | None,
        options: dict[str, Any],
        seats: list[dict[str, Any]] | None,
        seed: int | None,
        owner: str = "unknown",
        bot_budget: int | None = None,
        clock: float | None = None,
    ) -> tuple[Match, list[str | None], str]:
        """Create and store a match; returns it, each seat's token (None for bots) and the host token.

        ``owner`` is the creating client; with ``bot_budget``, a client may have at most that
        many all-bot matches playing at once (a 429 otherwise).  The database write runs in a
        worker thread.
        """
        try:
            cls = game_class(game_id)
            check_untrusted_options(cls, variant, options)
            game = make(game_id, players=players, variant=variant, options=options)
        except BoardlabError as exc:
            raise WebError(400, str(exc)) from None
        n = game.players
        specs = seats if seats is not None else [{"kind": "human"}] + [{"kind": "bot"}] * (n - 1)
        if len(specs) != n:
            raise WebError(400, f"need one seat description per player: {n}, got {len(specs)}")
        names = game.seat_names()
        default_agent = "heuristic" if "heuristic" in available_agents(cls) else "random"
        out: list[Seat] = []
        tokens: list[str | None] = []
        chosen = check_names([spec.get("name") for spec in specs], names)
        for i, spec in enumerate(specs):
            kind = spec.get("kind", "human")
            name = chosen[i]
            if kind == "human":
                tok = new_token()
                tokens.append(tok)
                out.append(Seat(i, "human", name, None, hash_token(tok), clock))
            elif kind == "bot":
                agent = spec.get("agent") or default_agent
                try:
                    check_web_spec(agent, game)
                    check_spec(agent, game)
                    if getattr(make_agent(agent, game, i, 0), "omniscient", False):
                        raise UnknownAgentError(f"agent {agent!r} reads hidden information; a web bot must see only its seat's view")
                except BoardlabError as exc:
                    raise WebError(400, f"seat {i}: {exc}") from None
                tokens.append(None)
                out.append(Seat(i, "bot", name, agent, None))
            else:
                raise WebError(400, f"seat {i}: kind must be 'human' or 'bot', not {kind!r}")
        if bot_budget is not None and all(s.kind == "bot" for s in out) and self.bot_matches(owner) >= bot_budget:
            raise WebError(
                429, f"at most {bot_budget} all-bot matches from one client may be playing at once; "
                     "wait for one to end (or take a seat yourself)",
            )
        self.make_room()
        if seed is None:
            seed = secrets.randbits(48)
        try:
            state = game.new_state(seed)
        except BoardlabError as exc:
            raise WebError(400, str(exc)) from None
        host = new_token()
        now = time.time()
        rec = StoredMatch(
            id=secrets.token_urlsafe(9), game=game.id, players=n, variant=game.variant,
            options=dict(game.overrides), seed=seed, seats=[s.stored() for s in out],
            host_hash=hash_token(host), status="playing", results=None,
            created_at=now, updated_at=now,
        )
        await asyncio.to_thread(self.store.create, rec)
        try:  # others may have filled the room while the row was written; the match exists now
            self.make_room()
        except WebError:
            log.warning("holding %d matches, one over --max-matches: every other one is busy", len(self.matches))
        m = Match(rec, state, out, owner=owner)
        m.clock_used = [0.0] * n
        self.matches[rec.id] = m
        self._alive[rec.id] = m
        return m, tokens, host

    # -- acting ------------------------------------------------------------
    async def act(
        self,
        match: Match,
        seat: Any,
        token: str | None,
        state_id: Any,
        action: Any = None,
        index: Any = None,
        *,
        bot: bool = False,
        epoch: int | None = None,
    ) -> None:
        """Check and apply one action for ``seat``; commit it; notify listeners.

        Raises :class:`WebError` (4xx) and changes nothing when anything is wrong.
        """
        if match.unloaded:  # held by a request since before it was unloaded: in memory again
            self._adopt(match)
        match.touched = time.monotonic()
        if not bot:
            if seat is None:
                raise WebError(400, "say which seat acts ('seat')")
            match.check_token(seat, token)
            if match.seats[seat].kind != "human":
                raise WebError(403, f"seat {seat} is played by a bot")
        if isinstance(state_id, bool) or not isinstance(state_id, int):
            raise WebError(400, "state_id must be the integer state id of the view you act on")
        async with match.lock:
            st = match.state
            if match.over:
                raise WebError(409, "the game is over")
            if not bot and self._flagged(match):
                await self._time_out(match)
                await self.repush(match)
                raise WebError(409, "the game is over: your clock ran out")
            if epoch is not None and epoch != match.epoch:
                raise WebError(409, "a move was taken back meanwhile")
            if state_id != st.decisions:
                raise WebError(409, f"stale state id {state_id}: the game has moved on to {st.decisions}; reload")
            acting = st.current_seat()
            if seat != acting:
                raise WebError(409, f"it is not seat {seat}'s turn (seat {acting} is acting)")
            legal = st.legal_actions()
            if index is not None:
                if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(legal):
                    raise WebError(400, f"action index must be 0..{len(legal) - 1}")
                chosen = legal[index]
                if action is not None and tuple(action) != chosen:
                    raise WebError(400, "'action' and 'index' disagree")
            elif isinstance(action, list):
                chosen = tuple(action)
                if chosen not in legal:
                    raise WebError(400, f"illegal action {action!r}")
            else:
                raise WebError(400, "give the action as a JSON array ('action') or its index ('index')")
            new = st.clone()
            try:
                new.apply(chosen)
            except BoardlabError as exc:  # pragma: no cover - legal was checked
                raise WebError(400, str(exc)) from None
            over = new.is_over()
            results = new.results().to_json() if over else None
            if bot:
                await self._write_retrying(match, st.decisions, seat, list(chosen), results)
            else:  # a person's move: a failed write is a 503 and they try again
                await asyncio.to_thread(
                    self.store.append_action, match.id, st.decisions, seat, list(chosen), results
                )
            if match.clocked:
                now = time.time()
                while len(match.clock_used) <= seat:
                    match.clock_used.append(0.0)
                match.clock_used[seat] += max(0.0, now - match.clock_since)
                match.clock_since = now
            match.undo_request = None
            match.state = new
            match.record.actions.append(list(chosen))
            match.record.times.append(time.time())
            match.record.updated_at = time.time()
            if over:
                match.record.status = "over"
                match.record.results = results
        await self.broadcast(match)
        if over:
            self.trim_finished(keep=match)
        self.kick(match)

    # -- listeners ---------------------------------------------------------
    def listen(self, match: Match, key: int, box: Outbox, seat: int | None) -> None:
        """Register page ``key`` (its :class:`Outbox`) for ``seat`` and queue it a full snapshot."""
        box.seat = seat
        match.listeners[key] = (box, seat)
        self.push.hello(match, box, match.state.decisions)

    def unlisten(self, match: Match, key: int) -> None:
        match.listeners.pop(key, None)
        if not match.listeners:
            self.push.forget(match)  # no page left: keep no copy of its last snapshots
        if match.record.status == "over":  # a seat's page leaving may make it one finished match too many
            self.trim_finished()

    async def broadcast(self, match: Match) -> None:
        """Queue each page's update; never waits on a socket (a page that does not read is dropped)."""
        for key, (box, _seat) in list(match.listeners.items()):
            if box.closed.is_set():
                match.listeners.pop(key, None)
        self.push.broadcast(match, [box for box, _ in match.listeners.values()])

    # -- bots --------------------------------------------------------------
    def kick(self, match: Match) -> None:
        """Start the bot task of ``match`` if a bot is to act and none is running."""
        if self.closing or match.ended is not None:
            return
        self._arm_clock(match)
        seat = match.state.current_seat()
        if seat is None or match.seats[seat].kind != "bot":
            return
        if match.bot_task is not None and not match.bot_task.done():
            return
        match.bot_task = asyncio.get_running_loop().create_task(self._bots(match))

    async def _write_retrying(self, match: Match, idx: int, seat: int, action: list[Any], results: Any) -> None:
        """Commit a bot's move, retrying with back-off (0.5 s doubling to 30 s) while the database fails.

        A locked or full database (issue 30, finding 7) must not kill the match's bot task: each
        failure is one log line, and the match goes on as soon as the write succeeds.
        """
        delay = 0.5
        while True:
            try:
                await asyncio.to_thread(self.store.append_action, match.id, idx, seat, action, results)
                if delay > 0.5:
                    log.warning("database writes work again; match %s goes on", match.id)
                return
            except Exception as exc:
                if self.closing:
                    raise
                self.limit_log.hit(
                    "database", "cannot store a bot's move in match %s (%s: %s); retrying in %gs",
                    match.id, type(exc).__name__, str(exc).splitlines()[0][:200] if str(exc) else "", delay,
                )
                await asyncio.sleep(delay)
                delay = min(30.0, delay * 2)

    async def _bots(self, match: Match) -> None:
        while not self.closing:
            st = match.state
            seat = st.current_seat()
            if seat is None or match.seats[seat].kind != "bot":
                return
            if self.bot_delay > 0:
                await asyncio.sleep(self.bot_delay)
            st = match.state
            if st.current_seat() != seat:
                continue
            spec = match.seats[seat].agent or "random"
            # A fresh agent per decision, seeded from the match seed and the
            # decision number, so a resumed match plays on exactly as it would have.
            seed = derive_seed(match.record.seed, 1_000_003 * (seat + 1) + st.decisions)
            epoch = match.epoch
            action = await self.pool.think(st, seat, spec, seed, owner=match.owner)
            if match.epoch != epoch or match.ended is not None:  # taken back (or ended) meanwhile: think again
                continue
            if action is None or action not in st.legal_actions():
                # timed out, failed or illegal: a deterministic random move keeps the match going
                action = fallback_action(st, seat, match.record.seed)
            try:
                await self.act(match, seat, None, st.decisions, list(action), bot=True, epoch=epoch)
            except WebError:
                return

    # -- clocks (issue 44) ---------------------------------------------------
    def _flagged(self, match: Match) -> bool:
        """True when the acting seat has a clock and it has run out."""
        if not match.clocked or match.over:
            return False
        seat = match.state.current_seat()
        left = match.clock_left()
        return seat is not None and left[seat] is not None and left[seat] <= 0

    async def _time_out(self, match: Match) -> None:
        """End the match: the acting seat lost on time (called with the match's lock held)."""
        seat = match.state.current_seat()
        if seat is None or match.over:
            return
        name = match.seats[seat].name
        await self._finish(match, [s.seat for s in match.seats if s.seat != seat], f"{name} ran out of time")

    async def _finish(self, match: Match, winners: list[int], reason: str) -> None:
        n = len(match.seats)
        results = {"scores": [1.0 if i in winners else 0.0 for i in range(n)], "winners": winners,
                   "truncated": False, "reason": reason}
        await asyncio.to_thread(self.store.finish, match.id, results)
        match.ended = results
        match.undo_request = None
        match.record.status = "over"
        match.record.results = results
        match.record.updated_at = time.time()

    def _arm_clock(self, match: Match) -> None:
        """Wake up when the acting seat's clock runs out (one timer per match)."""
        if not match.clocked or match.over:
            return
        if match.clock_task is not None and not match.clock_task.done():
            match.clock_task.cancel()
        seat = match.state.current_seat()
        if seat is None or match.seats[seat].clock is None:
            return
        left = match.clock_left()[seat] or 0.0
        decisions, epoch = match.state.decisions, match.epoch

        async def ring() -> None:
            await asyncio.sleep(left + 0.05)
            async with match.lock:
                if match.state.decisions != decisions or match.epoch != epoch or not self._flagged(match):
                    return
                await self._time_out(match)
            await self.repush(match)

        match.clock_task = asyncio.get_running_loop().create_task(ring())

    # -- resign, rematch, take back (issue 44) ----------------------------------
    def _person(self, match: Match, seat: Any, token: str | None) -> None:
        if seat is None:
            raise WebError(400, "say which seat ('seat')")
        match.check_token(seat, token)
        if match.seats[seat].kind != "human":
            raise WebError(403, f"seat {seat} is played by a bot")

    async def resign(self, match: Match, seat: Any, token: str | None) -> None:
        """``seat`` gives up: the match ends and every other seat wins."""
        self._person(match, seat, token)
        async with match.lock:
            if match.over:
                raise WebError(409, "the game is over")
            others = [s.seat for s in match.seats if s.seat != seat]
            await self._finish(match, others, f"{match.seats[seat].name} resigned")
        await self.repush(match)
        self.trim_finished(keep=match)

    async def make_rematch(self, match: Match, seat: Any, token: str | None) -> Match:
        """A new match with the same game, options, seats, names, bots, clocks and secrets (each
        person's link works for the rematch: only the match id changes); one per match."""
        if seat is not None:
            match.check_token(seat, token)
        elif not token or not hmac.compare_digest(hash_token(token), match.record.host_hash):
            raise WebError(401, "a seat's secret (or the host's) is needed to ask for a rematch")
        if not match.over:
            raise WebError(409, "the game is not over yet")
        if match.rematch is not None:
            return await self.open(match.rematch)
        rec0 = match.record
        game = make(rec0.game, players=rec0.players, variant=rec0.variant, options=rec0.options)
        seed = secrets.randbits(48)
        state = game.new_state(seed)
        now = time.time()
        seats = [Seat(s.seat, s.kind, s.name, s.agent, s.token_hash, s.clock) for s in match.seats]
        rec = StoredMatch(
            id=secrets.token_urlsafe(9), game=rec0.game, players=rec0.players, variant=rec0.variant,
            options=dict(rec0.options), seed=seed, seats=[s.stored() for s in seats],
            host_hash=rec0.host_hash, status="playing", results=None, created_at=now, updated_at=now,
        )
        self.make_room()
        await asyncio.to_thread(self.store.create, rec)
        m = Match(rec, state, seats, owner=match.owner)
        m.clock_used = [0.0] * len(seats)
        self.matches[rec.id] = m
        self._alive[rec.id] = m
        match.rematch = rec.id
        await self.repush(match)
        self.kick(m)
        return m

    async def take_back(self, match: Match, seat: Any, token: str | None) -> dict[str, Any]:
        """Take back ``seat``'s last move (and the bots' moves since), if no hidden information was
        revealed since; between people, ask the others (:meth:`answer_take_back`)."""
        self._person(match, seat, token)
        if match.over:
            raise WebError(409, "can't take back: the game is over")
        rec, decisions = match.record, match.state.decisions
        plan = await asyncio.to_thread(plan_take_back, rec, seat, list(rec.actions[:decisions]))
        if plan["why_not"]:
            raise WebError(409, "can't take back your last move: " + plan["why_not"])
        others = [s.seat for s in match.seats if s.kind == "human" and s.seat != seat]
        if others and not (match.record.host_hash and token and hmac.compare_digest(hash_token(token), match.record.host_hash)):
            async with match.lock:
                if match.state.decisions != decisions:
                    raise WebError(409, "the game moved on meanwhile; try again")
                match.undo_request = {"seat": seat, "keep": plan["keep"], "decisions": decisions}
            await self.repush(match)
            return {"pending": True}
        await self._rewind(match, decisions, plan)
        return {"pending": False, "keep": plan["keep"]}

    async def answer_take_back(self, match: Match, seat: Any, token: str | None, accept: bool) -> dict[str, Any]:
        self._person(match, seat, token)
        req = match.undo_request
        if req is None:
            raise WebError(409, "nobody asked to take back a move")
        if req["seat"] == seat:
            raise WebError(409, "the other side answers your request")
        if not accept:
            match.undo_request = None
            await self.repush(match)
            return {"accepted": False}
        plan = await asyncio.to_thread(plan_take_back, match.record, req["seat"], list(match.record.actions[: req["decisions"]]))
        if plan["why_not"]:
            match.undo_request = None
            await self.repush(match)
            raise WebError(409, "can't take back the move any more: " + plan["why_not"])
        await self._rewind(match, req["decisions"], plan)
        return {"accepted": True}

    async def _rewind(self, match: Match, decisions: int, plan: dict[str, Any]) -> None:
        keep = plan["keep"]
        async with match.lock:
            if match.over or match.state.decisions != decisions:
                raise WebError(409, "the game moved on meanwhile; try again")
            await asyncio.to_thread(self.store.truncate, match.id, keep)
            match.state = plan["state"]
            del match.record.actions[keep:]
            del match.record.times[keep:]
            match.record.updated_at = time.time()
            match.epoch += 1
            match.undo_request = None
            if match.clocked:
                match.clock_since = time.time()
        await self.repush(match)  # every page gets a full snapshot of the earlier state (its state id is lower)
        self.kick(match)

    async def repush(self, match: Match) -> None:
        """Send every page a full snapshot: the match changed without a move (same state id, or a
        lower one), which an update from one state id to the next cannot say."""
        self.push.forget(match)
        for box, _seat in match.listeners.values():
            box.sent_id = None
        await self.broadcast(match)

    async def history(self, match: Match, seat: int | None, step: int) -> dict[str, Any]:
        """``seat``'s view after ``step`` actions of a match being played (what it saw then)."""
        n = match.state.decisions
        if not 0 <= step <= n:
            raise WebError(400, f"step must be 0..{n}")
        actions = list(match.record.actions[:n])
        return await asyncio.to_thread(_history_at, match, seat, step, actions, n)

    async def close(self) -> None:
        self.closing = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        tasks = [m.bot_task for m in self.matches.values() if m.bot_task is not None and not m.bot_task.done()]
        for t in tasks:
            t.cancel()
        for t in tasks:
            try:
                await t
            except (asyncio.CancelledError, Exception):
                pass
        await asyncio.to_thread(self.pool.close)

    # -- replays -----------------------------------------------------------
    async def replay_state(self, match: Match, step: int) -> tuple[State, State | None, int]:
        """(state after ``step`` actions, the state before it or None, number of steps) of a finished match.

        Built in a worker thread from checkpoints every :data:`REPLAY_EVERY` steps, cached
        with at most :data:`REPLAY_CACHE_STATES` states over all matches (least recently
        used first out), so a replay never blocks the event loop and its memory is bounded
        by size, not by a count of matches.
        """
        entry = self._replays.get(match.id)
        if entry is None:
            entry = await asyncio.to_thread(_checkpoints, match.record)
            self._replays[match.id] = entry
            total = sum(len(cps) for _n, cps in self._replays.values())
            while total > REPLAY_CACHE_STATES and len(self._replays) > 1:
                _mid, (_n, cps) = self._replays.popitem(last=False)
                total -= len(cps)
        else:
            self._replays.move_to_end(match.id)
        steps, checkpoints = entry
        if not 0 <= step <= steps:
            raise WebError(400, f"step must be 0..{steps}")
        return await asyncio.to_thread(_replay_at, match.record, checkpoints, step) + (steps,)


def clock_from_times(rec: StoredMatch, state: State) -> tuple[list[float], float]:
    """Each seat's used clock time and when the current turn began, from the stored action times."""
    game = make(rec.game, players=rec.players, variant=rec.variant, options=rec.options)
    st = game.new_state(rec.seed)
    used = [0.0] * rec.players
    since = rec.created_at
    for a, at in zip(rec.actions, rec.times):
        seat = st.current_seat()
        if seat is not None:
            used[seat] += max(0.0, at - since)
        since = at
        st.apply(a)
    return used, since if rec.times else time.time()


def _history_at(match: Match, seat: int | None, step: int, actions: list[Any], total: int) -> dict[str, Any]:
    rec = match.record
    game = make(rec.game, players=rec.players, variant=rec.variant, options=rec.options)
    st = game.new_state(rec.seed)
    prev = None
    for i, a in enumerate(actions[:step]):
        if i == step - 1:
            prev = st.clone()
        st.apply(a)
    view = st.view(seat)
    defaults, names = game.seat_names(), [s.name for s in match.seats]
    out = {"type": "history", "seat": seat, "step": step, "steps": total, "state_id": st.decisions,
           "acting": st.current_seat(), "view": view,
           "scene": rename_seats({**game.scene(view, ()), "targets": []}, defaults, names)}
    if prev is not None:
        a = tuple(actions[step - 1])
        out["last_action"] = rename_seats({"seat": prev.current_seat(), "label": prev.describe(a)}, defaults, names)
    else:
        out["last_action"] = None
    return out


#: Resampled worlds a take-back is checked against (see :func:`plan_take_back`).
TAKE_BACK_WORLDS = 4


def plan_take_back(rec: StoredMatch, seat: int, actions: list[Any]) -> dict[str, Any]:
    """Can ``seat`` take back its last move?  ``{"keep", "state", "why_not"}``.

    Replays the match from its seed.  ``keep`` is the index of the seat's last decision and
    ``state`` the state before it.  The move can be taken back when nothing hidden was revealed
    since: no chance was used (the generator's state did not change while the moves since were
    applied), and the seat's view and log after them are the same in every world that agrees
    with what the seat saw before its move (the state before it, determinized for the seat
    :data:`TAKE_BACK_WORLDS` times, with the same moves replayed).  Otherwise ``why_not`` says
    what happened ("a die was rolled or a card drawn: ...").
    """
    game = make(rec.game, players=rec.players, variant=rec.variant, options=rec.options)
    st = game.new_state(rec.seed)
    seats: list[int | None] = []
    before: State | None = None
    for a in actions:
        seats.append(st.current_seat())
        st.apply(a)
    mine = [i for i, s in enumerate(seats) if s == seat]
    if not mine:
        return {"keep": None, "state": None, "why_not": "you have not moved yet"}
    keep = mine[-1]
    st = game.new_state(rec.seed)
    for a in actions[:keep]:
        st.apply(a)
    before = st.clone()
    chance: list[int] = []
    for i in range(keep, len(actions)):
        r0 = st.rng.state
        st.apply(actions[i])
        if st.rng.state != r0:
            chance.append(i)
    if chance:
        texts = [e["text"] for e in st.events(seat) if e.get("decision") == chance[0] and e.get("text")]
        what = ("; ".join(texts[:2]) if texts else "")
        return {"keep": keep, "state": None,
                "why_not": "a die was rolled or a card drawn since" + (f" ({what.rstrip('.')})" if what else "")}
    real_view = _seen(st, seat)
    real_log = [e["text"] for e in st.events(seat) if e.get("decision", -1) >= keep]
    for w in range(TAKE_BACK_WORLDS):
        try:
            world = before.determinize(seat, derive_seed(rec.seed, 7919 * (keep + 1) + w))
        except Exception:  # a game that cannot resample: be safe
            return {"keep": keep, "state": None, "why_not": "this game cannot tell whether hidden information was revealed"}
        mark = world.log_mark()
        try:
            for a in actions[keep:]:
                world.apply(a)
        except BoardlabError:
            return {"keep": keep, "state": None, "why_not": "a move since then showed hidden information"}
        new = world.events_since(mark, seat) or []
        if _seen(world, seat) != real_view or [e["text"] for e in new] != real_log:
            return {"keep": keep, "state": None, "why_not": "hidden information was revealed since"}
    return {"keep": keep, "state": before, "why_not": None}


def _seen(st: State, seat: int) -> Any:
    v = st.view(seat)
    return v["state"], v["acting"], v["over"], v["prompt"]


def _checkpoints(rec: StoredMatch) -> tuple[int, list[State]]:
    game = make(rec.game, players=rec.players, variant=rec.variant, options=rec.options)
    st = game.new_state(rec.seed)
    out = [st.clone()]
    for i, a in enumerate(rec.actions, 1):
        st.apply(a)
        if i % REPLAY_EVERY == 0:
            out.append(st.clone())
    return len(rec.actions), out


def _replay_at(rec: StoredMatch, checkpoints: list[State], step: int) -> tuple[State, State | None]:
    base = (step - 1) // REPLAY_EVERY if step > 0 else 0
    st = checkpoints[base].clone()
    prev = None
    for i in range(base * REPLAY_EVERY, step):
        if i == step - 1:
            prev = st.clone()
        st.apply(rec.actions[i])
    return st, prev


SendFn = Callable[[dict[str, Any]], Any]


def check_untrusted_options(cls: Any, variant: Any, options: dict[str, Any]) -> None:
    """Refuse, with a 400 naming the allowed values, any file path in a web request.

    Options over HTTP are data: :meth:`Game.check_untrusted` allows a content
    option only its shipped presets and a variant only a declared name, never
    a variant file.  Nothing here opens a file.
    """
    try:
        cls.check_untrusted(variant, options)
    except (InvalidOptionError, UnknownVariantError) as exc:
        raise WebError(400, str(exc)) from None
    cap = max_turns_cap(cls)
    mt = options.get("max_turns", 0)
    if isinstance(mt, bool) or not isinstance(mt, int) or not 0 <= mt <= cap:
        raise WebError(
            400, f"option 'max_turns' over the web must be an integer in 0..{cap} "
                 f"({cls.id}'s turn cap; 0 = the cap), got {str(mt)[:40]}",
        )


def max_turns_cap(cls: Any) -> int:
    """The most turns a match created over the web may last: the game's own default cap.

    A match that reaches it ends as truncated (the engine marks its results), so no
    all-bot match runs forever (issue 30, finding 5).
    """
    return int(cls.default_max_turns)


# -- seat names ---------------------------------------------------------------------
#: Combining marks allowed after one base character (more are dropped: no "Zalgo" towers).
MAX_COMBINING = 2
#: Longest seat name, in characters after cleaning.
MAX_NAME = 40


def clean_name(raw: Any) -> str:
    """A seat name as typed, made safe to show: no control or format characters, few stacked marks, NFC.

    Control characters (``Cc``), format characters (``Cf``: the bidi overrides and
    isolates, zero-width joiners) and unassigned/private/surrogate code points are
    removed, white space is collapsed, and at most :data:`MAX_COMBINING` combining
    marks follow a character.  The result is cut to :data:`MAX_NAME` characters.
    """
    if not isinstance(raw, str):
        return ""
    out: list[str] = []
    marks = 0
    for ch in unicodedata.normalize("NFD", raw):  # marks counted on the decomposed text, then recomposed
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            continue
        if cat in ("Mn", "Me"):
            if not out or marks >= MAX_COMBINING:
                continue
            marks += 1
        else:
            marks = 0
        out.append(" " if cat == "Zs" or ch.isspace() else ch)
    return unicodedata.normalize("NFC", " ".join("".join(out).split()))[:MAX_NAME].strip()


def _words(text: str) -> list[str]:
    folded = unicodedata.normalize("NFKD", text).casefold()
    return re.findall(r"[^\W_]+", "".join(c for c in folded if not unicodedata.combining(c)))


def check_names(raw: list[Any], labels: list[str]) -> list[str]:
    """Each seat's display name: the typed name (cleaned) or the seat's label; refuse impersonation.

    A name may not read as another seat's label (``"Player 2"`` for seat 0 of a game
    whose seat 1 is "Player 2 (top right)", ``"Wizard"`` for a hero) or as the generic
    ``Player N``/``Seat N`` of another seat, and two seats may not share a name: the
    page's prompts ("Player 2 (top right) to act") must never be ambiguous.
    """
    from .confusables import fold, is_blank

    for i, r in enumerate(raw):  # issue 45: U+3164, U+FFA0, U+2800... display as nothing
        if clean_name(r) and is_blank(clean_name(r)):
            raise WebError(400, f"seat {i}: the name shows as blank; type a name or leave it empty")
    names = [clean_name(r) or labels[i] for i, r in enumerate(raw)]
    for i, name in enumerate(names):
        if raw[i] is None or not clean_name(raw[i]):
            continue  # the seat's own label
        # words compared by their confusable skeleton, case- and space-folded (issue 45:
        # "PIayer 2", "Рlayer 2" with a Cyrillic Р, "Player ٢" and "Player2" read as "Player 2")
        w = [k for k in (fold(x) for x in re.findall(r"[^\W_]+", name)) if k]
        others = [labels[j] for j in range(len(labels)) if j != i]
        others += [f"{word} {k}" for k in range(1, 17) if k != i + 1 for word in ("player", "seat")]
        for label in others:
            lw = [k for k in (fold(x) for x in re.findall(r"[^\W_]+", label)) if k]
            lj = "".join(lw)
            if w and (
                any("".join(w[:n]) == lj for n in range(1, len(w) + 1))  # it starts with the label
                or any("".join(w) == "".join(lw[:n]) for n in range(2, len(lw) + 1))  # ... or the label's first words
                or "".join(w) == lj
            ):
                raise WebError(400, f"seat {i}: the name {name!r} reads as another seat's label ({label!r}); choose another")
        for j in range(i):
            if fold(names[j]) == "".join(w):
                raise WebError(400, f"seat {i}: the name {name!r} is already seat {j}'s")
    return names
