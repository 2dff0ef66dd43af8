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
import secrets
import time
import weakref
from dataclasses import dataclass, field
from typing import Any, Callable

from boardlab.agents import available_agents, check_spec, make_agent
from boardlab.engine import BoardlabError, InvalidOptionError, State, UnknownVariantError, derive_seed, make
from boardlab.engine.registry import game_class
from boardlab.engine.scene import rename_seats

from .bots import BotPool, check_web_spec, fallback_action
from .db import Store, StoredMatch
from .push import Outbox, Pusher

log = logging.getLogger("boardlab.web")


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


def snapshot(match: Match | None, seat: int | None, state: State | None = None) -> dict[str, Any]:
    """Everything a page for ``seat`` (``None``: spectator) is sent; built from its view only.

    ``match`` may be ``None`` when ``state`` is given (a bare state: seats keep their default names).
    """
    st = state if state is not None else match.state
    view = st.view(seat)
    acting = st.current_seat()
    mine = seat is not None and seat == acting
    actions = st.legal_actions() if mine else ()
    # the names typed in the lobby, in the scene, the action labels and the log alike
    defaults = st.game.seat_names()
    names = [s.name for s in match.seats] if match is not None else list(defaults)
    return {
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
        "events": rename_seats(st.events(seat), defaults, names),
    }


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
    ) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.pool = pool if pool is not None else BotPool()
        #: At most this many matches are held in memory; idle ones are unloaded to make room.
        self.max_matches = max_matches
        #: A match nobody watches, plays or waits on is unloaded after this many seconds.
        self.idle_seconds = idle_seconds
        self.matches: dict[str, Match] = {}
        # Every Match object still referenced somewhere (a request or socket that
        # holds it after it was unloaded): reloading adopts it again, so there is
        # never more than one live object per match.
        self._alive: weakref.WeakValueDictionary[str, Match] = weakref.WeakValueDictionary()
        self._replays: dict[str, list[State]] = {}
        self._sweeper: asyncio.Task | None = None
        self.closing = False
        self.push = Pusher()  # last snapshot pushed per match and seat: pages get incremental updates

    # -- loading -----------------------------------------------------------
    def get(self, match_id: str) -> Match:
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
        rec = self.store.load(match_id)
        if rec is None:
            raise WebError(404, f"no match {match_id!r}")
        m = self._load(rec)
        self._kick_if_running(m)
        return m

    def _load(self, rec: StoredMatch) -> Match:
        self.make_room()
        state = _rebuild(rec)
        seats = [Seat(**s) for s in rec.seats]
        m = Match(rec, state, seats)
        self.matches[rec.id] = m
        self._alive[rec.id] = m
        return m

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
        """True if nothing needs ``m`` in memory: no listener, no bot thinking, no action in progress."""
        return not m.listeners and (m.bot_task is None or m.bot_task.done()) and not m.lock.locked()

    def unload(self, m: Match) -> None:
        """Drop ``m`` from memory; its record (seed and actions) stays in the database."""
        if self.matches.get(m.id) is m:
            del self.matches[m.id]
        self._replays.pop(m.id, None)
        m.unloaded = True

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
    def create(
        self,
        game_id: str,
        players: int | None,
        variant: str | None,
        options: dict[str, Any],
        seats: list[dict[str, Any]] | None,
        seed: int | None,
    ) -> tuple[Match, list[str | None], str]:
        """Create and store a match; returns it, each seat's token (None for bots) and the host token."""
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
        for i, spec in enumerate(specs):
            kind = spec.get("kind", "human")
            name = (spec.get("name") or "").strip()[:40] or names[i]
            if kind == "human":
                tok = new_token()
                tokens.append(tok)
                out.append(Seat(i, "human", name, None, hash_token(tok)))
            elif kind == "bot":
                agent = spec.get("agent") or default_agent
                try:
                    check_web_spec(agent, game)
                    check_spec(agent, game)
                    make_agent(agent, game, i, 0)
                except BoardlabError as exc:
                    raise WebError(400, f"seat {i}: {exc}") from None
                tokens.append(None)
                out.append(Seat(i, "bot", name, agent, None))
            else:
                raise WebError(400, f"seat {i}: kind must be 'human' or 'bot', not {kind!r}")
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
        self.store.create(rec)
        m = Match(rec, state, out)
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
        self.kick(match)

    # -- listeners ---------------------------------------------------------
    def listen(self, match: Match, key: int, box: Outbox, seat: int | None) -> None:
        """Register page ``key`` (its :class:`Outbox`) for ``seat`` and queue it a full snapshot."""
        box.seat = seat
        match.listeners[key] = (box, seat)
        self.push.hello(match, box, snapshot(match, seat))

    def unlisten(self, match: Match, key: int) -> None:
        match.listeners.pop(key, None)
        if not match.listeners:
            self.push.forget(match)  # no page left: keep no copy of its last snapshots

    async def broadcast(self, match: Match) -> None:
        """Queue each page's update; never waits on a socket (a page that does not read is dropped)."""
        for key, (box, _seat) in list(match.listeners.items()):
            if box.closed.is_set():
                match.listeners.pop(key, None)
        self.push.broadcast(match, [box for box, _ in match.listeners.values()], snapshot)

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
            action = await self.pool.think(st, seat, spec, seed)
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
    def replay_states(self, match: Match) -> list[State]:
        """Every state of a finished match, rebuilt from the seed and the action log."""
        states = self._replays.get(match.id)
        if states is None:
            rec = match.record
            game = make(rec.game, players=rec.players, variant=rec.variant, options=rec.options)
            st = game.new_state(rec.seed)
            states = [st.clone()]
            for a in rec.actions:
                st.apply(a)
                states.append(st.clone())
            if len(self._replays) > 16:
                self._replays.pop(next(iter(self._replays)))
            self._replays[match.id] = states
        return states


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
