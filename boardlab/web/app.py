"""The boardlab web app: lobby, game and replay pages, and the JSON API behind them.

``create_app(data_dir=..., database_url=..., bot_delay=...)`` builds a FastAPI
application.  The API is documented at ``/docs`` (OpenAPI) and in
``docs/web.md``.  Every error is a 4xx JSON ``{"detail": "..."}``; the state
changes only when a request succeeds.
"""

from __future__ import annotations

import html
import json
import logging
import math
import os
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from boardlab.agents import menu_specs
from boardlab.engine import BoardlabError
from boardlab.engine.registry import game_class, game_ids

from . import rules
from .bots import BotPool
from .db import Store, database_url
from .limits import Limits, RateLimiter
from .matches import Hub, Match, WebError, snapshot

STATIC = Path(__file__).parent / "static"
#: Largest request body (and WebSocket message) accepted, in bytes.
MAX_BODY = 64 * 1024


# -- request bodies -----------------------------------------------------------
class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "bot"] = "human"
    agent: str | None = Field(None, max_length=200, description="Agent spec for a bot, e.g. 'heuristic'")
    name: str | None = Field(None, max_length=40, description="Display name of the seat")


class CreateMatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(..., max_length=64, description="Game id, e.g. 'dungeons-jewel'")
    players: int | None = Field(None, description="Player count (default: the game's)")
    variant: str | None = Field(None, max_length=64, description="Variant name (default: the first)")
    options: dict[str, Any] = Field(default_factory=dict, description="Option overrides")
    seats: list[SeatSpec] | None = Field(None, max_length=16, description="One per player; default: seat 0 human, others bots")
    seed: int | None = Field(None, ge=0, lt=2**62, description="Random seed (default: random)")


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


class WsAct(ActFields):
    type: Literal["act"]


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
    spec["agents"] = menu_specs(cls)
    spec["has_rules"] = rules.rules_path(cls) is not None
    return spec


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


_SECURITY_HEADERS = [
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
) -> FastAPI:
    """Build the app.  ``database_url_`` (or ``BOARDLAB_DATABASE_URL``) overrides the SQLite file.

    ``limits`` (default: :meth:`Limits.from_env`) sets the bot pool, the per-move
    limit, the creation rate and the cap on matches in memory.
    """
    url = database_url(data_dir, database_url_ or os.environ.get("BOARDLAB_DATABASE_URL"))
    if bot_delay is None:
        bot_delay = float(os.environ.get("BOARDLAB_BOT_DELAY", "0.8"))
    if limits is None:
        limits = Limits.from_env()
    store = Store(url)
    hub = Hub(
        store, bot_delay=bot_delay, pool=BotPool(limits.bot_workers, limits.bot_move_limit),
        max_matches=limits.max_matches, idle_seconds=limits.idle_seconds,
    )
    creations = RateLimiter(limits.create_rate, limits.create_burst)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> Any:
        await hub.resume_all()
        yield
        await hub.close()
        store.close()

    app = FastAPI(
        title="boardlab",
        summary="Play the boardlab games in the browser: lobby, seats with secret links, live updates, replays.",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.state.hub = hub
    app.state.store = store
    app.state.limits = limits
    app.add_middleware(_BodyLimit, limit=MAX_BODY)
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
        body = rules.rules_html(cls)
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
        out = []
        for gid in game_ids():
            try:
                out.append(_game_entry(gid))
            except Exception:  # a broken game module must not take the lobby down
                logging.getLogger("boardlab.web").exception("game %r cannot be listed", gid)
                continue
        return {"games": out}

    @app.get("/api/games/{game_id}", tags=["games"], summary="One game's metadata")
    async def get_game(game_id: str) -> dict[str, Any]:
        try:
            return _game_entry(game_id)
        except BoardlabError as exc:
            raise WebError(404, str(exc)) from None

    @app.get("/api/games/{game_id}/rules", tags=["games"], summary="A game's rules document")
    async def get_rules(game_id: str) -> dict[str, Any]:
        try:
            cls = game_class(game_id)
        except BoardlabError as exc:
            raise WebError(404, str(exc)) from None
        return {"game": game_id, "markdown": rules.rules_text(cls), "html": rules.rules_html(cls)}

    # -- API: matches --------------------------------------------------------
    @app.post("/api/matches", tags=["matches"], status_code=201, summary="Create a match")
    async def create_match(body: CreateMatch, request: Request) -> dict[str, Any]:
        client = request.client.host if request.client is not None else "unknown"
        wait = creations.take(client)
        if wait:
            raise StarletteHTTPException(
                429,
                f"too many new matches from {client}: at most {limits.create_burst} at once and "
                f"{limits.create_rate:g} a minute; try again in {math.ceil(wait)} s",
                headers={"Retry-After": str(math.ceil(wait))},
            )
        seats = [s.model_dump() for s in body.seats] if body.seats is not None else None
        match, tokens, host = hub.create(body.game, body.players, body.variant, body.options, seats, body.seed)
        hub.kick(match)
        return {"match": match.info(), **_links(match, tokens, host)}

    @app.get("/api/matches", tags=["matches"], summary="Recent matches (public information)")
    async def list_matches(limit: int = Query(30, ge=1, le=200)) -> dict[str, Any]:
        out = []
        for rec in store.recent(limit):
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
    async def get_match(match_id: str) -> dict[str, Any]:
        return hub.get(match_id).info()

    @app.get("/api/matches/{match_id}/state", tags=["matches"], summary="A seat's snapshot (or the spectator's)")
    async def get_state(
        match_id: str,
        seat: int | None = Query(None, description="Seat to view; omit for the spectator view"),
        authorization: str | None = Header(None),
        x_boardlab_token: str | None = Header(None),
    ) -> dict[str, Any]:
        match = hub.get(match_id)
        match.check_token(seat, _token(authorization, x_boardlab_token))
        return snapshot(match, seat)

    @app.post("/api/matches/{match_id}/actions", tags=["matches"], summary="Act for a seat")
    async def post_action(
        match_id: str,
        body: ActRequest,
        authorization: str | None = Header(None),
        x_boardlab_token: str | None = Header(None),
    ) -> dict[str, Any]:
        match = hub.get(match_id)
        await hub.act(match, body.seat, _token(authorization, x_boardlab_token), body.state_id, body.action, body.index)
        return snapshot(match, body.seat)

    @app.get("/api/matches/{match_id}/record", tags=["replays"], summary="Seed and action log of a finished match")
    async def get_record(match_id: str) -> dict[str, Any]:
        match = hub.get(match_id)
        if not match.state.is_over():
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
    ) -> dict[str, Any]:
        match = hub.get(match_id)
        if not match.state.is_over():
            raise WebError(409, "replays open once the game is over")
        if seat is not None and not 0 <= seat < match.state.game.players:
            raise WebError(400, f"seat must be 0..{match.state.game.players - 1} or omitted")
        states = hub.replay_states(match)
        if step >= len(states):
            raise WebError(400, f"step must be 0..{len(states) - 1}")
        st = states[step]
        snap = snapshot(match, seat, st)
        snap["type"] = "replay"
        snap["match"] = match.info()
        snap["step"] = step
        snap["steps"] = len(states) - 1
        snap["actions"] = []
        if step > 0:
            prev = states[step - 1]
            a = tuple(match.record.actions[step - 1])
            snap["last_action"] = {"seat": prev.current_seat(), "action": list(a), "label": prev.describe(a)}
        else:
            snap["last_action"] = None
        return snap

    # -- WebSocket ------------------------------------------------------------
    @app.websocket("/api/matches/{match_id}/ws")
    async def match_ws(websocket: WebSocket, match_id: str) -> None:
        """Live updates.  Send ``{"type": "hello", "seat": K, "token": T}`` (omit both to spectate);
        every change then arrives as a ``snapshot``.  Act with
        ``{"type": "act", "state_id": N, "action": [...]}`` (or ``"index"``)."""
        import asyncio

        await websocket.accept()
        try:
            match = hub.get(match_id)
        except WebError as exc:
            await websocket.send_json({"type": "error", "status": exc.status, "detail": exc.detail})
            await websocket.close(code=4404)
            return
        lock = asyncio.Lock()

        async def send(msg: dict[str, Any]) -> None:
            async with lock:
                await websocket.send_json(msg)

        key = id(websocket)
        seat: int | None = None
        token: str | None = None
        hello = False
        try:
            while True:
                text = await websocket.receive_text()
                try:
                    if len(text) > MAX_BODY:
                        raise WebError(413, f"message over {MAX_BODY} bytes")
                    try:
                        msg = json.loads(text)
                    except json.JSONDecodeError:
                        raise WebError(400, "malformed JSON message") from None
                    if not isinstance(msg, dict):
                        raise WebError(400, "a message must be a JSON object with a 'type'")
                    kind = msg.get("type")
                    if kind == "hello":
                        s, t = msg.get("seat"), msg.get("token")
                        if t is not None and not isinstance(t, str):
                            raise WebError(400, "token must be a string")
                        match.check_token(s, t)
                        seat, token, hello = s, t, True
                        hub.listen(match, key, send, seat)
                        await send(snapshot(match, seat))
                    elif kind == "act":
                        if not hello or seat is None:
                            raise WebError(401, "say hello with a seat and its token before acting")
                        try:
                            req = WsAct.model_validate(msg)
                        except ValidationError as exc:
                            raise _field_error(exc) from None
                        await hub.act(match, seat, token, req.state_id, req.action, req.index)
                    elif kind == "ping":
                        await send({"type": "pong"})
                    else:
                        raise WebError(400, "message type must be hello, act or ping")
                except WebError as exc:
                    await send({"type": "error", "status": exc.status, "detail": exc.detail})
        except WebSocketDisconnect:
            pass
        finally:
            hub.unlisten(match, key)

    return app
