"""The boardlab web app: lobby, game and replay pages, and the JSON API behind them.

``create_app(data_dir=..., database_url=..., bot_delay=...)`` builds a FastAPI
application.  The API is documented at ``/docs`` (OpenAPI) and in
``docs/web.md``.  Every error is a 4xx JSON ``{"detail": "..."}``; the state
changes only when a request succeeds.
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
import math
import os
import time
from collections import Counter
from contextlib import asynccontextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

from boardlab.agents import menu_specs
from boardlab.agents.levels import LEVELS, level_spec
from boardlab.engine import BoardlabError
from boardlab.engine.registry import game_class, game_ids, make

from . import rules
from .bots import BotPool, web_agent
from .db import database_url, open_store
from .limits import Bucket, Limits, RateLimiter, client_key, env_setting
from .matches import Hub, Match, WebError, snapshot
from .push import DEFAULT_QUEUE, Outbox, encode

STATIC = Path(__file__).parent / "static"
#: Largest request body (and WebSocket message) accepted, in bytes.
MAX_BODY = 64 * 1024


# -- request bodies -----------------------------------------------------------
class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "bot"] = "human"
    agent: str | None = Field(None, max_length=200, description="Agent spec for a bot, e.g. 'heuristic'")
    name: str | None = Field(None, max_length=200, description="Display name of the seat (cleaned, then cut to 40 characters)")


class CreateMatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(..., max_length=64, description="Game id, e.g. 'dungeons-jewel'")
    players: int | None = Field(None, description="Player count (default: the game's)")
    variant: str | None = Field(None, max_length=64, description="Variant name (default: the first)")
    options: dict[str, Any] = Field(default_factory=dict, description="Option overrides")
    seats: list[SeatSpec] | None = Field(None, max_length=16, description="One per player; default: seat 0 human, others bots")
    seed: int | None = Field(None, ge=0, lt=2**62, description="Random seed (default: random)")
    clock: int | None = Field(None, ge=30, le=86400, description="A clock: seconds each person has for the whole game "
                              "(a loss on time); only for matches between people (two or more human seats). Default: none")


class ActFields(BaseModel):
    """The fields of a move, shared by REST (:class:`ActRequest`) and the WebSocket ``act`` message.

    Strict: no bool for an int, no numeric strings, no floats; anything else is a 422 naming the field.
    """

    model_config = ConfigDict(extra="forbid", strict=True)
    state_id: int = Field(..., description="The state_id of the snapshot you act on")
    action: list[int | str] | None = Field(None, max_length=32, description="The action as a JSON array")
    index: int | None = Field(None, description="Or: its index in the snapshot's 'actions'")


class ActRequest(ActFields):
    seat: int = Field(..., description="The seat acting")


class SeatRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int | None = Field(None, description="The seat asking (omit for a rematch asked with the host's token)")


class AnswerRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int = Field(..., description="The seat answering")
    accept: bool = Field(..., description="True to allow the take-back")


class WsAct(ActFields):
    type: Literal["act"]


#: WebSocket close code for a socket over a limit (sockets per client, spectators, message rate).
CLOSE_LIMIT = 4429
#: WebSocket close code for a malformed message (binary, not JSON, a lone surrogate).
CLOSE_MALFORMED = 1007
#: WebSocket close code for a socket that said no ``hello`` within ``hello_timeout`` seconds (issue 45).
CLOSE_NO_HELLO = 4408


def origin_allowed(origin: str | None, host: str | None, allowed: frozenset[str]) -> bool:
    """Whether a request with ``Origin: origin`` to ``Host: host`` may go on (issue 45, cross-site WebSockets).

    No Origin (a script, not a browser page): yes.  Otherwise the origin's host and port must be the
    served ``host``, or the origin must be listed in ``allowed`` (``BOARDLAB_ALLOWED_ORIGINS``, for a
    deployment behind a proxy that changes the Host header; ``*`` allows every origin).
    """
    if origin is None:
        return True
    o = origin.strip().lower().rstrip("/")
    if "*" in allowed or o in allowed:
        return True
    try:
        parts = urlsplit(o)
    except ValueError:
        return False
    return bool(host) and parts.scheme in ("http", "https") and parts.netloc == host.strip().lower()


class Malformed(WebError):
    """A WebSocket message no page sends (binary, a huge number, a lone surrogate): the socket is closed."""


def _parse_ws(raw: dict[str, Any]) -> dict[str, Any]:
    """The JSON object in a WebSocket message; a :class:`WebError` (or :class:`Malformed`) saying why not."""
    text = raw.get("text")
    if text is None:
        raise Malformed(400, "binary frames are not accepted: send JSON text")
    if len(text) > MAX_BODY:
        raise WebError(413, f"message over {MAX_BODY} bytes")
    try:
        msg = json.loads(text)
    except json.JSONDecodeError:
        raise WebError(400, "malformed JSON message") from None
    except (ValueError, RecursionError):  # a number over Python's 4,300-digit limit, deep nesting
        raise Malformed(400, "malformed JSON message: a number or nesting out of range") from None
    if "\\u" in text:
        try:
            json.dumps(msg, ensure_ascii=False).encode("utf-8", "strict")
        except UnicodeEncodeError:
            raise Malformed(400, "malformed message: a string holds a lone surrogate") from None
    if not isinstance(msg, dict):
        raise WebError(400, "a message must be a JSON object with a 'type'")
    return msg


async def _refuse(websocket: WebSocket, status: int, detail: str, code: int) -> None:
    try:
        await websocket.send_json({"type": "error", "status": status, "detail": detail})
        await websocket.close(code=code)
    except Exception:
        pass


def _close_with(box: Outbox, status: int, detail: str, code: int) -> None:
    """Queue a JSON error, then close the socket with ``code`` once it is sent."""
    box.push({"type": "error", "status": status, "detail": detail})
    box.finish(code, detail[:120])


def _field_error(exc: ValidationError) -> WebError:
    """A 422 naming the first offending field of a request model."""
    err = exc.errors()[0]
    field = ".".join(str(p) for p in err.get("loc", ())) or "body"
    return WebError(422, f"{field}: {err.get('msg', 'invalid')}")


# -- helpers ------------------------------------------------------------------
def _token(authorization: str | None, x_token: str | None) -> str | None:
    if x_token:
        return x_token
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


def _game_entry(gid: str) -> dict[str, Any]:
    cls = game_class(gid)
    spec = cls.spec()
    spec["summary"] = rules.summary(cls)
    spec["agents"] = [a for a in menu_specs(cls) if web_agent(a.split(":")[0], cls)]
    spec["agent_details"] = {a: _agent_detail(cls, a) for a in spec["agents"]}
    spec["seat_names"] = _seat_names(gid)
    spec["has_rules"] = rules.rules_path(cls) is not None
    spec["quick_start"] = rules.quick_start_html(cls)
    # the seat a newcomer is given by default in the lobby, and why (the fresh person's trial, issue 44:
    # the Labyrinth's seat 1 is the Wizard, its hardest role); a game without one starts at seat 1
    spec["newcomer_seat"] = int(getattr(cls, "newcomer_seat", 0))
    spec["newcomer_note"] = str(getattr(cls, "newcomer_note", ""))
    return spec


@lru_cache(maxsize=64)
def _seat_names(gid: str) -> dict[str, list[str]]:
    """The seats' role names (``Game.seat_names``: Wizard, Hero 1, White, Black...) by player count,
    default variant: the lobby shows them on the seat rows (issue 32)."""
    cls = game_class(gid)
    out: dict[str, list[str]] = {}
    for n in range(cls.min_players, cls.max_players + 1):
        try:
            out[str(n)] = make(gid, players=n).seat_names()
        except BoardlabError:
            continue
    return out


#: What each agent is, in a player's words; the lobby names them plainly (Easy, Medium, Hard...)
#: and shows this with the concrete spec in a detail (docs/agents.md, "Levels").
AGENT_WORDS = {
    "easy": "quick, plays the game's rule of thumb",
    "medium": "looks ahead a little (about 1 s a move)",
    "hard": "looks ahead further (up to about 2 s a move)",
    "heuristic": "the game's own rule-of-thumb player",
    "ismcts": "a search that tries many imagined games before each move, guessing what it cannot see",
    "mcts": "a simpler search that makes one guess at what it cannot see",
    "random": "picks any legal move at random",
}


def _agent_detail(cls: Any, spec: str) -> str:
    name, _, param = spec.partition(":")
    if name in LEVELS:
        return f"{AGENT_WORDS.get(name, name)}. Agent: {name} = {level_spec(cls, name)}"
    if name == "persona":
        weights = (getattr(cls, "personas", None) or {}).get(param, {})
        cares = ", ".join(k.replace("_", " ") for k, v in sorted(weights.items(), key=lambda kv: -kv[1]) if v > 0)
        return f"a playing style: the rule-of-thumb player caring most about {cares or param}. Agent: {spec}"
    return f"{AGENT_WORDS.get(name, 'an agent of this game')}. Agent: {spec}"


def _links(match: Match, tokens: list[str | None], host: str) -> dict[str, Any]:
    mid = match.id
    return {
        "seats": [
            {**s.public(), "token": tok, "link": f"/game/{mid}#seat={s.seat}&token={tok}" if tok else None}
            for s, tok in zip(match.seats, tokens)
        ],
        "spectator_link": f"/game/{mid}",
        "hotseat_link": f"/game/{mid}#host={host}",
        "replay_link": f"/replay/{mid}",
        "host_token": host,
    }


class GamesList:
    """The ``GET /api/games`` answer, built and encoded once per set of registered games (issue 30).

    Building it reads every rules document, renders the quick starts and scans the installed
    packages' entry points: about 20 ms of the event loop per request, which the soak's probe
    (a lobby asking for the games) paid every 0.2 s.  The answer is rebuilt, in a worker thread,
    when the registry's built-in or run-time registered games change or a rules document's
    modification time does; a game package installed while the server runs is listed after a restart.
    """

    def __init__(self) -> None:
        self._key: Any = None
        self._ids: list[str] = []
        self._body: bytes | None = None
        self.builds = 0

    @staticmethod
    def _registered() -> Any:
        from boardlab.engine import registry

        return (tuple(registry.BUILTIN.items()), tuple((k, repr(v)) for k, v in registry._extra.items()))

    def _key_now(self, registered: Any) -> Any:
        stamps = []
        for gid in self._ids:
            try:
                path = rules.rules_path(game_class(gid))
                stamps.append(path.stat().st_mtime_ns if path is not None else None)
            except (BoardlabError, OSError):
                stamps.append(None)
        return registered, tuple(stamps)

    def _build(self, registered: Any) -> tuple[Any, list[str], bytes]:
        ids = game_ids()
        out = []
        for gid in ids:
            try:
                out.append(_game_entry(gid))
            except Exception:  # a broken game module must not take the lobby down
                logging.getLogger("boardlab.web").exception("game %r cannot be listed", gid)
                continue
        self._ids = ids
        return self._key_now(registered), ids, encode({"games": out}).encode()

    async def body(self) -> bytes:
        registered = self._registered()
        if self._body is None or self._key_now(registered) != self._key:
            self._key, self._ids, self._body = await asyncio.to_thread(self._build, registered)
            self.builds += 1
        return self._body


def _snapshot_response(snap: dict[str, Any]) -> Response:
    """A snapshot as JSON, encoded once by :func:`push.encode` (plain JSON values already).

    FastAPI's default path (``jsonable_encoder``) walks the whole log in Python:
    about 11 ms for a late Labyrinth snapshot against 1 ms here, on every move.
    """
    return Response(encode(snap), media_type="application/json")


#: The Content-Security-Policy of every response (issue 30, finding 11): scripts, styles,
#: images and connections from this origin only; no inline script, no inline style
#: attribute, no plugin, no framing.  The pages load nothing from elsewhere.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)

_SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


class _BodyLimit:
    """ASGI middleware: refuse request bodies over ``limit`` bytes with 413; add security headers."""

    def __init__(self, app: Any, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = scope.get("path", "").startswith("/api/")
        inner_send = send

        async def send(msg: Any) -> None:  # noqa: F811 - wraps the server's send
            if msg["type"] == "http.response.start":
                headers = list(msg.get("headers", [])) + _SECURITY_HEADERS
                if api:
                    headers.append((b"cache-control", b"no-store"))
                msg = {**msg, "headers": headers}
            await inner_send(msg)

        for k, v in scope.get("headers", []):
            if k == b"content-length":
                try:
                    too_big = int(v) > self.limit
                except ValueError:
                    too_big = True
                if too_big:
                    resp = JSONResponse({"detail": f"request body over {self.limit} bytes"}, status_code=413)
                    await resp(scope, receive, send)
                    return
        seen = 0

        async def limited() -> Any:
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > self.limit:
                    raise StarletteHTTPException(413, f"request body over {self.limit} bytes")
            return msg

        await self.app(scope, limited, send)


def create_app(
    data_dir: str | Path | None = None,
    database_url_: str | None = None,
    bot_delay: float | None = None,
    limits: Limits | None = None,
    *,
    send_queue: int | None = None,
    allowed_origins: str | None = None,
) -> FastAPI:
    """Build the app.  ``database_url_`` (or ``BOARDLAB_DATABASE_URL``) overrides the SQLite file.

    ``limits`` (default: :meth:`Limits.from_env`) sets the bot pool, the per-move
    limit, the creation rate and the cap on matches in memory.
    ``send_queue`` (or ``BOARDLAB_SEND_QUEUE``, default 64): messages a WebSocket
    may have waiting before it is dropped as too slow.
    ``allowed_origins`` (or ``BOARDLAB_ALLOWED_ORIGINS``): comma-separated origins, besides the
    served host's own, whose pages may open WebSockets and send changes (``*``: any).
    """
    if send_queue is None:
        send_queue = env_setting("BOARDLAB_SEND_QUEUE", DEFAULT_QUEUE, 1, 100_000, integer=True)
    if bot_delay is None:
        bot_delay = env_setting("BOARDLAB_BOT_DELAY", 0.8, 0, 60)
    if limits is None:
        limits = Limits.from_env()
    store = open_store(database_url(data_dir, database_url_ or os.environ.get("BOARDLAB_DATABASE_URL")))
    hub = Hub(
        store, bot_delay=bot_delay, pool=BotPool(limits.bot_workers, limits.bot_move_limit),
        max_matches=limits.max_matches, idle_seconds=limits.idle_seconds,
    )
    creations = RateLimiter(limits.create_rate, limits.create_burst)
    hub.seat_silence = limits.seat_silence
    hub.expire_seconds = limits.expire_hours * 3600.0
    # issue 45: moves over REST share the WebSocket's message rate; heavy reads and rebuilds are rationed
    changes = RateLimiter(limits.ws_rate * 60.0, limits.ws_burst)
    reads = RateLimiter(limits.read_rate * 60.0, limits.read_burst)
    rebuilds = RateLimiter(limits.rebuild_rate, limits.rebuild_burst)
    rebuilding = asyncio.Semaphore(limits.rebuilds)
    if allowed_origins is None:
        allowed_origins = os.environ.get("BOARDLAB_ALLOWED_ORIGINS", "")
    origins = frozenset(o.strip().lower().rstrip("/") for o in allowed_origins.split(",") if o.strip())
    sockets: Counter[str] = Counter()  # open WebSockets by client
    spectators: Counter[str] = Counter()  # ... of which spectating (said hello without a seat)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> Any:
        # issue 45: listen first; unfinished matches resume in the background (reads and rebuilds in threads)
        from .confusables import _classes

        async def start() -> None:
            await asyncio.to_thread(_classes)  # the name checks' confusable classes, read once
            await hub.resume_all()

        resume = app.state.resume = asyncio.get_running_loop().create_task(start())
        yield
        if not resume.done():
            resume.cancel()
        try:
            await resume
        except (asyncio.CancelledError, Exception):
            pass
        await hub.close()
        store.close()

    app = FastAPI(
        title="boardlab",
        summary="Play the boardlab games in the browser: lobby, seats with secret links, live updates, replays.",
        version="0.1.0",
        lifespan=lifespan,
        # FastAPI's /docs and /redoc load their scripts from a public CDN: off (the schema stays at /openapi.json)
        docs_url=None, redoc_url=None,
    )
    app.state.hub = hub
    app.state.store = store
    app.state.limits = limits
    app.state.sockets = sockets
    app.state.spectators = spectators
    games_list = app.state.games_list = GamesList()
    app.add_middleware(_BodyLimit, limit=MAX_BODY)

    def _client(conn: Any) -> str:
        return client_key(conn.client.host if conn.client is not None else None)

    def _ration(limiter: RateLimiter, client: str, what: str, kind: str) -> None:
        wait = limiter.take(client)
        if wait:
            hub.limit_log.hit(kind, "refusing %s from %s: over its rate", what, client)
            raise StarletteHTTPException(
                429, f"too many {what} from {client}; try again in {math.ceil(wait)} s",
                headers={"Retry-After": str(math.ceil(wait))},
            )

    def _change(request: Request) -> None:
        """A change over REST: same-origin pages only, at the WebSocket's message rate (issue 45)."""
        if not origin_allowed(request.headers.get("origin"), request.headers.get("host"), origins):
            hub.limit_log.hit("origin", "refusing a change from origin %s", request.headers.get("origin", "")[:100])
            raise WebError(403, "this origin may not change matches here (see BOARDLAB_ALLOWED_ORIGINS)")
        _ration(changes, _client(request), "moves and changes", "move-rate")

    async def _open(match_id: str, client: str) -> Match:
        """``hub.open``; a match not in memory is a rebuild: rationed per client and in all (issue 45)."""
        if match_id in hub.matches or (isinstance(match_id, str) and hub._alive.get(match_id) is not None):
            return await hub.open(match_id)
        _ration(rebuilds, client, "match loads", "rebuild-rate")
        async with rebuilding:
            return await hub.open(match_id)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # -- errors: always JSON, never a 500 for bad input ---------------------
    @app.exception_handler(WebError)
    async def _web_error(request: Request, exc: WebError) -> JSONResponse:
        return JSONResponse({"detail": exc.detail}, status_code=exc.status)

    @app.exception_handler(BoardlabError)
    async def _bl_error(request: Request, exc: BoardlabError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=400)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for e in exc.errors()[:5]:
            loc = ".".join(str(x) for x in e.get("loc", ()) if x != "body")
            parts.append(f"{loc}: {e.get('msg')}" if loc else str(e.get("msg")))
        return JSONResponse({"detail": "malformed request: " + "; ".join(parts)}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"detail": exc.detail}, status_code=exc.status_code, headers=getattr(exc, "headers", None))

    @app.exception_handler(OperationalError)
    async def _busy(request: Request, exc: OperationalError) -> JSONResponse:
        # The database could not be reached or stayed locked: not the client's fault, and
        # nothing was applied (an action is committed before it is acknowledged).
        logging.getLogger("boardlab.web").warning("database unavailable: %s", exc)
        return JSONResponse({"detail": "the database is busy; try again"}, status_code=503, headers={"Retry-After": "1"})

    @app.exception_handler(Exception)
    async def _crash(request: Request, exc: Exception) -> JSONResponse:  # pragma: no cover - a bug
        return JSONResponse({"detail": f"internal error: {type(exc).__name__}"}, status_code=500)

    # -- pages --------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(STATIC / "lobby.html")

    @app.get("/game/{match_id}", include_in_schema=False)
    async def game_page(match_id: str) -> FileResponse:
        return FileResponse(STATIC / "game.html")

    @app.get("/replay/{match_id}", include_in_schema=False)
    async def replay_page(match_id: str) -> FileResponse:
        return FileResponse(STATIC / "replay.html")

    @app.get("/rules/{game_id}", include_in_schema=False, response_class=HTMLResponse)
    async def rules_page(game_id: str) -> HTMLResponse:
        try:
            cls = game_class(game_id)
        except BoardlabError as exc:
            raise WebError(404, str(exc)) from None
        body = await asyncio.to_thread(rules.rules_html, cls)  # rendered once per file version, never on the loop
        title = html.escape(cls.name)
        return HTMLResponse(
            f"<!doctype html><html lang=en><head><meta charset=utf-8>"
            f"<meta name=viewport content='width=device-width,initial-scale=1'>"
            f"<title>{title}: rules</title><link rel=stylesheet href='/static/app.css'></head>"
            f"<body class=rules-page><header class=topbar><a class=brand href='/'>boardlab</a>"
            f"<span class=crumb>{title} &middot; rules</span></header>"
            f"<main class=doc>{body}</main></body></html>"
        )

    # -- API: games ----------------------------------------------------------
    @app.get("/api/games", tags=["games"], summary="List the games with variants, options, agents")
    async def list_games() -> dict[str, Any]:
        return Response(await games_list.body(), media_type="application/json")  # type: ignore[return-value]

    @app.get("/api/games/{game_id}", tags=["games"], summary="One game's metadata")
    async def get_game(game_id: str) -> dict[str, Any]:
        try:
            return await asyncio.to_thread(_game_entry, game_id)  # reads the rules document: off the loop
        except BoardlabError as exc:
            raise WebError(404, str(exc)) from None

    @app.get("/api/games/{game_id}/rules", tags=["games"], summary="A game's rules document")
    async def get_rules(game_id: str) -> dict[str, Any]:
        try:
            cls = game_class(game_id)
        except BoardlabError as exc:
            raise WebError(404, str(exc)) from None
        html_ = await asyncio.to_thread(rules.rules_html, cls)
        return {"game": game_id, "markdown": await asyncio.to_thread(rules.rules_text, cls), "html": html_}

    # -- API: matches --------------------------------------------------------
    @app.post("/api/matches", tags=["matches"], status_code=201, summary="Create a match")
    async def create_match(body: CreateMatch, request: Request) -> dict[str, Any]:
        client = client_key(request.client.host if request.client is not None else None)
        if not origin_allowed(request.headers.get("origin"), request.headers.get("host"), origins):
            raise WebError(403, "this origin may not create matches here (see BOARDLAB_ALLOWED_ORIGINS)")
        wait = creations.take(client)
        if wait:
            raise StarletteHTTPException(
                429,
                f"too many new matches from {client}: at most {limits.create_burst} at once and "
                f"{limits.create_rate:g} a minute; try again in {math.ceil(wait)} s",
                headers={"Retry-After": str(math.ceil(wait))},
            )
        seats = [s.model_dump() for s in body.seats] if body.seats is not None else None
        if body.clock is not None and sum(1 for s in (seats or []) if s.get("kind", "human") == "human") < 2:
            raise WebError(400, "a clock is for matches between people: seat two or more humans")
        match, tokens, host = await hub.create(
            body.game, body.players, body.variant, body.options, seats, body.seed,
            owner=client, bot_budget=limits.bot_matches_per_client, clock=body.clock,
        )
        hub.kick(match)
        return {"match": match.info(), **_links(match, tokens, host)}

    @app.get("/api/matches", tags=["matches"], summary="Recent matches (public information)")
    async def list_matches(limit: int = Query(30, ge=1, le=200)) -> dict[str, Any]:
        out = []
        for rec in await asyncio.to_thread(store.recent, limit):
            m = hub.matches.get(rec.id)
            if m is not None:
                out.append(m.info())
            else:
                out.append({
                    "id": rec.id, "game": rec.game, "variant": rec.variant, "players": rec.players,
                    "seats": [{k: s[k] for k in ("seat", "kind", "name", "agent")} for s in rec.seats],
                    "status": rec.status, "results": rec.results,
                    "created_at": rec.created_at, "updated_at": rec.updated_at,
                })
        for entry in out:
            try:
                entry["game_name"] = game_class(entry["game"]).name
            except BoardlabError:
                entry["game_name"] = entry["game"]
        return {"matches": out}

    @app.get("/api/matches/{match_id}", tags=["matches"], summary="A match's public information")
    async def get_match(match_id: str, request: Request) -> dict[str, Any]:
        return (await _open(match_id, _client(request))).info()

    @app.get("/api/matches/{match_id}/state", tags=["matches"], summary="A seat's snapshot (or the spectator's)")
    async def get_state(
        match_id: str,
        seat: int | None = Query(None, description="Seat to view; omit for the spectator view"),
        authorization: str | None = Header(None),
        x_boardlab_token: str | None = Header(None),
        request: Request = None,  # type: ignore[assignment]
    ) -> dict[str, Any]:
        client = _client(request)
        _ration(reads, client, "snapshot, history and replay reads", "read-rate")
        match = await _open(match_id, client)
        match.check_token(seat, _token(authorization, x_boardlab_token))
        # the whole log's snapshot (about 120 ms at 1,818 decisions) is built in a worker thread
        return _snapshot_response(await asyncio.to_thread(snapshot, match, seat))

    @app.post("/api/matches/{match_id}/actions", tags=["matches"], summary="Act for a seat")
    async def post_action(
        match_id: str,
        body: ActRequest,
        authorization: str | None = Header(None),
        x_boardlab_token: str | None = Header(None),
        request: Request = None,  # type: ignore[assignment]
    ) -> dict[str, Any]:
        _change(request)
        match = await _open(match_id, _client(request))
        await hub.act(match, body.seat, _token(authorization, x_boardlab_token), body.state_id, body.action, body.index)
        return _snapshot_response(await asyncio.to_thread(snapshot, match, body.seat))

    @app.post("/api/matches/{match_id}/resign", tags=["matches"], summary="Resign: the game ends and the other seats win")
    async def post_resign(
        match_id: str, body: SeatRequest, authorization: str | None = Header(None), x_boardlab_token: str | None = Header(None),
        request: Request = None,  # type: ignore[assignment]
    ) -> dict[str, Any]:
        _change(request)
        match = await _open(match_id, _client(request))
        await hub.resign(match, body.seat, _token(authorization, x_boardlab_token))
        return _snapshot_response(await asyncio.to_thread(snapshot, match, body.seat))

    @app.post("/api/matches/{match_id}/rematch", tags=["matches"], summary="A rematch: same seats, bots, options and links")
    async def post_rematch(
        match_id: str, body: SeatRequest, authorization: str | None = Header(None), x_boardlab_token: str | None = Header(None),
        request: Request = None,  # type: ignore[assignment]
    ) -> dict[str, Any]:
        _change(request)
        match = await _open(match_id, _client(request))
        new = await hub.make_rematch(match, body.seat, _token(authorization, x_boardlab_token))
        return {"match": new.info()}

    @app.post("/api/matches/{match_id}/takeback", tags=["matches"], summary="Take back your last move (or ask the other people)")
    async def post_takeback(
        match_id: str, body: SeatRequest, authorization: str | None = Header(None), x_boardlab_token: str | None = Header(None),
        request: Request = None,  # type: ignore[assignment]
    ) -> dict[str, Any]:
        _change(request)
        match = await _open(match_id, _client(request))
        out = await hub.take_back(match, body.seat, _token(authorization, x_boardlab_token))
        return {**out, "snapshot": await asyncio.to_thread(snapshot, match, body.seat)}

    @app.post("/api/matches/{match_id}/takeback/answer", tags=["matches"], summary="Accept or refuse another seat's take-back")
    async def post_takeback_answer(
        match_id: str, body: AnswerRequest, authorization: str | None = Header(None), x_boardlab_token: str | None = Header(None),
        request: Request = None,  # type: ignore[assignment]
    ) -> dict[str, Any]:
        _change(request)
        match = await _open(match_id, _client(request))
        return await hub.answer_take_back(match, body.seat, _token(authorization, x_boardlab_token), body.accept)

    @app.get("/api/matches/{match_id}/history", tags=["matches"], summary="A seat's view after N moves of a match in play")
    async def get_history(
        match_id: str,
        step: int = Query(..., ge=0, description="Number of actions applied"),
        seat: int | None = Query(None, description="Point of view; omit for the spectator"),
        authorization: str | None = Header(None),
        x_boardlab_token: str | None = Header(None),
        request: Request = None,  # type: ignore[assignment]
    ) -> dict[str, Any]:
        client = _client(request)
        _ration(reads, client, "snapshot, history and replay reads", "read-rate")
        match = await _open(match_id, client)
        match.check_token(seat, _token(authorization, x_boardlab_token))
        return await hub.history(match, seat, step)

    @app.get("/api/matches/{match_id}/record", tags=["replays"], summary="Seed and action log of a finished match")
    async def get_record(match_id: str, request: Request) -> dict[str, Any]:
        match = await _open(match_id, _client(request))
        if not match.over:
            raise WebError(409, "the record (seed and actions) is shown once the game is over")
        rec = match.record
        return {
            "id": rec.id, "game": rec.game, "players": rec.players, "variant": rec.variant,
            "options": rec.options, "seed": rec.seed, "seats": [s.public() for s in match.seats],
            "actions": rec.actions, "results": rec.results,
        }

    @app.get("/api/matches/{match_id}/replay", tags=["replays"], summary="One step of a finished match's replay")
    async def get_replay(
        match_id: str,
        step: int = Query(0, ge=0, description="Number of actions applied"),
        seat: int | None = Query(None, description="Point of view; omit for the spectator"),
        request: Request = None,  # type: ignore[assignment]
    ) -> dict[str, Any]:
        client = _client(request)
        _ration(reads, client, "snapshot, history and replay reads", "read-rate")
        match = await _open(match_id, client)
        if not match.over:
            raise WebError(409, "replays open once the game is over")
        if seat is not None and not 0 <= seat < match.state.game.players:
            raise WebError(400, f"seat must be 0..{match.state.game.players - 1} or omitted")
        if match.id in hub._replays:
            st, prev, steps = await hub.replay_state(match, step)
        else:  # its checkpoints are a rebuild of the whole match: rationed like a load (issue 45)
            _ration(rebuilds, client, "match loads", "rebuild-rate")
            async with rebuilding:
                st, prev, steps = await hub.replay_state(match, step)
        snap = await asyncio.to_thread(snapshot, match, seat, st)
        snap["type"] = "replay"
        snap["match"] = match.info()
        snap["step"] = step
        snap["steps"] = steps
        snap["actions"] = []
        if step > 0 and prev is not None:
            a = tuple(match.record.actions[step - 1])
            snap["last_action"] = {"seat": prev.current_seat(), "action": list(a), "label": prev.describe(a)}
        else:
            snap["last_action"] = None
        return snap

    # -- WebSocket ------------------------------------------------------------
    @app.websocket("/api/matches/{match_id}/ws")
    async def match_ws(websocket: WebSocket, match_id: str) -> None:
        """Live updates.  Send ``{"type": "hello", "seat": K, "token": T}`` (omit both to spectate);
        a ``snapshot`` follows, then an ``update`` per change (what changed since the last message;
        see ``boardlab/web/push.py``).  Act with ``{"type": "act", "state_id": N, "action": [...]}``
        (or ``"index"``).  Every message to the page goes through a bounded queue drained by its own
        task: a page that does not read is closed with code 4008 and never slows the match.

        Limits (issue 30): at most ``ws_per_client`` sockets per client and ``spectators_per_client``
        of them spectating; ``ws_rate`` messages a second (``ws_burst`` at once) per socket; a
        binary frame, text that is not JSON (or has a number over 4,300 digits) or a string with a
        lone surrogate gets a JSON error and a close (:data:`CLOSE_MALFORMED`).  A refused socket
        gets a JSON error and :data:`CLOSE_LIMIT`."""
        client = client_key(websocket.client.host if websocket.client is not None else None)
        if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host"), origins):
            # issue 45: another site's page (Origin: http://evil.example) could open a seat's socket
            hub.limit_log.hit("origin", "refusing a WebSocket from %s with origin %s", client, websocket.headers.get("origin", "")[:100])
            await websocket.close(code=1008)  # before the upgrade: an HTTP 403
            return
        await websocket.accept()
        if sockets[client] >= limits.ws_per_client:
            hub.limit_log.hit("websockets", "refusing a WebSocket from %s: it has %d open (the cap)", client, sockets[client])
            await _refuse(websocket, 429, f"too many WebSockets from {client}: at most {limits.ws_per_client}", CLOSE_LIMIT)
            return
        sockets[client] += 1
        box: Outbox | None = None
        match: Match | None = None
        key = id(websocket)
        spectating = False
        try:
            # issue 45: nothing is loaded before the hello, and a socket that says none in time is closed;
            # an unknown match is told at once (its row is looked up, in a thread, not loaded)
            if match_id not in hub.matches:
                try:
                    hub._live(match_id)
                    known = await asyncio.to_thread(store.exists, match_id)
                except WebError:
                    known = False
                if not known:
                    await websocket.send_json({"type": "error", "status": 404, "detail": f"no match {match_id!r}"})
                    await websocket.close(code=4404)
                    return
            box = Outbox(websocket, send_queue)
            seat: int | None = None
            token: str | None = None
            hello = False
            rate = Bucket(limits.ws_rate, limits.ws_burst)
            closed = asyncio.ensure_future(box.closed.wait())
            loop = asyncio.get_running_loop()
            hello_by = loop.time() + limits.hello_timeout
            try:
                while True:
                    recv = asyncio.ensure_future(websocket.receive())
                    await asyncio.wait((recv, closed), return_when=asyncio.FIRST_COMPLETED,
                                       timeout=None if hello else max(0.0, hello_by - loop.time()))
                    if not recv.done() and not closed.done():  # no hello in time
                        recv.cancel()
                        hub.limit_log.hit("hello-timeout", "closing a WebSocket from %s: no hello in %gs", client, limits.hello_timeout)
                        _close_with(box, 408, f"say hello within {limits.hello_timeout:g} s", CLOSE_NO_HELLO)
                        break
                    if not recv.done():  # dropped as too slow, or the sender found the socket gone
                        recv.cancel()
                        break
                    raw = recv.result()
                    if raw["type"] == "websocket.disconnect":
                        break
                    if not rate.take():
                        hub.limit_log.hit("ws-rate", "closing a WebSocket from %s: over %g messages a second", client, limits.ws_rate)
                        _close_with(box, 429, f"too many messages: at most {limits.ws_rate:g} a second", CLOSE_LIMIT)
                        break
                    try:
                        msg = _parse_ws(raw)
                    except Malformed as exc:
                        hub.limit_log.hit("ws-malformed", "closing a WebSocket from %s: %s", client, exc.detail)
                        _close_with(box, exc.status, exc.detail, CLOSE_MALFORMED)
                        break
                    except WebError as exc:
                        box.push({"type": "error", "status": exc.status, "detail": exc.detail})
                        continue
                    try:
                        kind = msg.get("type")
                        if kind == "hello":
                            s, t = msg.get("seat"), msg.get("token")
                            if t is not None and not isinstance(t, str):
                                raise WebError(400, "token must be a string")
                            if match is None:
                                try:
                                    opened = await _open(match_id, client)
                                except WebError as exc:
                                    code = 4404 if exc.status == 404 else CLOSE_LIMIT
                                    _close_with(box, exc.status, exc.detail, code)
                                    break
                                except StarletteHTTPException as exc:  # over the rebuild rate
                                    _close_with(box, exc.status_code, str(exc.detail), CLOSE_LIMIT)
                                    break
                                opened.check_token(s, t)  # a refused hello holds nothing
                                match = opened
                            match.check_token(s, t)
                            if s is None and not spectating:
                                if spectators[client] >= limits.spectators_per_client:
                                    hub.limit_log.hit("spectators", "refusing a spectator from %s: it watches with %d sockets (the cap)", client, spectators[client])
                                    raise WebError(429, f"too many spectator sockets from {client}: at most {limits.spectators_per_client}")
                                spectators[client] += 1
                                spectating = True
                            elif s is not None and spectating:
                                spectators[client] -= 1
                                spectating = False
                            if match.unloaded:
                                hub._adopt(match)
                            seat, token, hello = s, t, True
                            box.heard = time.monotonic()
                            hub.listen(match, key, box, seat)
                        elif kind == "act":
                            if not hello or seat is None or match is None:
                                raise WebError(401, "say hello with a seat and its token before acting")
                            try:
                                req = WsAct.model_validate(msg)
                            except ValidationError as exc:
                                raise _field_error(exc) from None
                            box.heard = time.monotonic()
                            await hub.act(match, seat, token, req.state_id, req.action, req.index)
                        elif kind == "ping":
                            box.push({"type": "pong"})
                        else:
                            raise WebError(400, "message type must be hello, act or ping")
                    except WebError as exc:
                        box.push({"type": "error", "status": exc.status, "detail": exc.detail})
            except (WebSocketDisconnect, RuntimeError):
                pass
            finally:
                closed.cancel()
        finally:
            sockets[client] -= 1
            if sockets[client] <= 0:
                del sockets[client]
            if spectating:
                spectators[client] -= 1
                if spectators[client] <= 0:
                    del spectators[client]
            if match is not None:
                hub.unlisten(match, key)
            if box is not None:
                await box.aclose()

    return app
