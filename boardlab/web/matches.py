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

    def public(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "name": self.name, "agent": self.agent}

    def stored(self) -> dict[str, Any]:
        return {**self.public(), "token_hash": self.token_hash}


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

    @property
    def all_bots(self) -> bool:
        return all(s.kind == "bot" for s in self.seats)

    @property
    def id(self) -> str:
        return self.record.id

    def info(self) -> dict[str, Any]:
        st = self.state
        game = st.game
        over = st.is_over()
        return {
            "id": self.id,
            "game": game.id,
            "game_name": type(game).name,
            "variant": game.variant,
            "players": game.players,
            "options": dict(game.overrides),
            "seats": [s.public() for s in self.seats],
            "status": "over" if over else "playing",
            "acting": st.current_seat(),
            "decisions": st.decisions,
            "results": st.results().to_json() if over else None,
            "created_at": self.record.created_at,
            "updated_at": self.record.updated_at,
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
        "scene": rename_seats(st.game.scene(view, actions), defaults, names),
        "actions": rename_seats(st.labeled_actions(), defaults, names) if mine else [],
    }
    if events:
        out["events"] = rename_seats(st.events(seat), defaults, names)
    return out


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
    @staticmethod
    def idle(m: Match) -> bool:
        """True if no seat is playing ``m``: no seat's page open, no bot thinking, no action in progress.

        Spectators do not count (issue 30, finding 1): a match only watched can be
        unloaded to make room, and its spectators are then closed
        (:data:`CLOSE_UNLOADED`), so idle watchers can never hold the server's slots.
        """
        return (
            not any(seat is not None for _box, seat in m.listeners.values())
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
        for key, (box, _seat) in list(m.listeners.items()):
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
        raise WebError(503, f"the server is busy: it holds its maximum of {self.max_matches} active matches; try again later")

    def sweep(self, now: float | None = None) -> int:
        """Unload every idle match untouched for ``idle_seconds``; returns how many."""
        now = time.monotonic() if now is None else now
        old = [m for m in self.matches.values() if self.idle(m) and now - m.touched >= self.idle_seconds]
        for m in old:
            self.unload(m)
        return len(old)

    async def _sweep_forever(self) -> None:
        while not self.closing:
            await asyncio.sleep(max(0.05, min(30.0, self.idle_seconds / 4)))
            self.sweep()

    async def resume_all(self) -> int:
        """Restart the bots of unfinished matches (after a restart); start unloading idle matches.

        A match whose next move is a person's stays in the database until someone
        opens it.  At most ``max_matches`` are resumed; the others resume when opened.
        """
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())
        n = 0
        for mid in self.store.ids(status="playing"):
            if mid in self.matches:
                m = self.matches[mid]
            else:
                if len(self.matches) >= self.max_matches:
                    log.warning("%d live matches: the others resume when opened", len(self.matches))
                    break
                rec = self.store.load(mid)
                if rec is None:  # pragma: no cover - deleted meanwhile
                    continue
                m = self._load(rec)
            self.kick(m)
            if m.bot_task is None:
                self.unload(m)  # a person is to move: no need to hold it
            else:
                n += 1
        return n

    # -- creation ----------------------------------------------------------
    def bot_matches(self, owner: str) -> int:
        """All-bot matches of client ``owner`` still playing in memory."""
        return sum(1 for m in self.matches.values() if m.owner == owner and m.all_bots and not m.state.is_over())

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
                out.append(Seat(i, "human", name, None, hash_token(tok)))
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
            if st.is_over():
                raise WebError(409, "the game is over")
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
            match.state = new
            match.record.actions.append(list(chosen))
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
        if self.closing:
            return
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
            action = await self.pool.think(st, seat, spec, seed, owner=match.owner)
            if action is None or action not in st.legal_actions():
                # timed out, failed or illegal: a deterministic random move keeps the match going
                action = fallback_action(st, seat, match.record.seed)
            try:
                await self.act(match, seat, None, st.decisions, list(action), bot=True)
            except WebError:
                return

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
    names = [clean_name(r) or labels[i] for i, r in enumerate(raw)]
    for i, name in enumerate(names):
        if raw[i] is None or not clean_name(raw[i]):
            continue  # the seat's own label
        w = _words(name)
        others = [labels[j] for j in range(len(labels)) if j != i]
        others += [f"{word} {k}" for k in range(1, 17) if k != i + 1 for word in ("player", "seat")]
        for label in others:
            lw = _words(label)
            if w and (w == lw[: len(w)] and (len(w) >= 2 or w == lw) or lw == w[: len(lw)]):
                raise WebError(400, f"seat {i}: the name {name!r} reads as another seat's label ({label!r}); choose another")
        for j in range(i):
            if _words(names[j]) == w:
                raise WebError(400, f"seat {i}: the name {name!r} is already seat {j}'s")
    return names
