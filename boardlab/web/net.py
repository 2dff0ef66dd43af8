"""Connection limits below the app (issue 30): what a TCP connection may hold before any request.

uvicorn's HTTP and WebSocket protocols are subclassed (:func:`protocols`) so
that every connection, before and after a WebSocket upgrade, is counted and
bounded by a :class:`Guard`:

* a **global ceiling** on open connections (``--max-connections``, lowered at
  start-up to fit the descriptor limit, which :func:`raise_fd_limit` raises
  to its hard limit where the OS allows): a connection over it is closed at
  once, so the server never runs out of descriptors (no EMFILE, no flood of
  accept() tracebacks);
* a **per-client cap** on connections that have not become WebSockets
  (``BOARDLAB_HTTP_PER_CLIENT``; WebSockets are counted by the app,
  ``BOARDLAB_WS_PER_CLIENT``);
* a **header-read timeout** (``BOARDLAB_HEADER_TIMEOUT``): a connection must
  send a complete request head within it, on its first request and on every
  later one (uvicorn's keep-alive timeout, ``BOARDLAB_KEEP_ALIVE``, closes a
  connection idle between requests), and a **body-read timeout**
  (``BOARDLAB_BODY_TIMEOUT``): the whole body must follow its head within it;
* **small kernel send buffers** (:data:`SEND_BUFFER` bytes per socket) and a
  **stall timeout** (``BOARDLAB_STALL_SECONDS``): a connection whose peer has
  taken no data for that long while the server has data waiting for it is
  aborted, which frees the kernel's and the transport's buffers at once.

Every limit that bites logs one line, rate-limited (:class:`~boardlab.web.limits.LimitLog`).
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections import Counter
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .limits import LimitLog, Limits, client_key

log = logging.getLogger("boardlab.web")

#: SO_SNDBUF asked for on every accepted socket (Linux doubles it); the kernel's
#: autotuning would otherwise let one socket that never reads hold about 4 MB.
SEND_BUFFER = 64 * 1024
#: WebSocket close codes after which the peer's further frames are discarded unparsed and the connection is
#: aborted :data:`HANGUP_GRACE` seconds later (:class:`GuardedWebSockets` ``send``): over a limit (4429,
#: ``app.CLOSE_LIMIT``) or malformed input (1007, ``app.CLOSE_MALFORMED``).
HANGUP_CODES = frozenset({4429, 1007})
#: Seconds the peer gets to read the close frame before the connection is aborted (closing at once, with
#: its frames unread, would reset the connection and could destroy the close frame before it is read).
HANGUP_GRACE = 2.0
#: Descriptors kept free for the database, log files, bot worker pipes and the listening socket.
FD_RESERVE = 128


def raise_fd_limit() -> int:
    """Raise the soft descriptor limit to the hard limit where allowed; return the soft limit now in force."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not POSIX
        return 1 << 16
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16)
    want = min(want, 1 << 20)
    if soft != resource.RLIM_INFINITY and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (ValueError, OSError):  # pragma: no cover - not permitted
            pass
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def connection_ceiling(limits: Limits, fd_limit: int) -> int:
    """The global connection ceiling: ``limits.max_connections``, but always :data:`FD_RESERVE` below ``fd_limit``."""
    return max(8, min(limits.max_connections, fd_limit - FD_RESERVE))


class Guard:
    """Counts of open connections, overall and per client, with the limits they are held to."""

    def __init__(self, limits: Limits, ceiling: int | None = None, limit_log: LimitLog | None = None) -> None:
        self.limits = limits
        self.ceiling = ceiling if ceiling is not None else limits.max_connections
        self.total = 0
        self.http: Counter[str] = Counter()  # connections not (yet) upgraded, by client
        self.limit_log = limit_log or LimitLog()
        self.refused = 0
        self.timed_out = 0
        self.stalled = 0

    def admit(self, key: str) -> str | None:
        """Count a new connection of ``key``; the reason it is refused (then nothing is counted)."""
        if self.total >= self.ceiling:
            return f"{self.total} connections open, the ceiling is {self.ceiling}"
        if self.http[key] >= self.limits.http_per_client:
            return f"{key} has {self.http[key]} HTTP connections open, the cap is {self.limits.http_per_client}"
        self.total += 1
        self.http[key] += 1
        return None

    def upgraded(self, key: str) -> None:
        """A counted connection became a WebSocket (the app counts WebSockets per client)."""
        self._dec(key)

    def closed(self, key: str, http: bool) -> None:
        self.total -= 1
        if http:
            self._dec(key)

    def _dec(self, key: str) -> None:
        self.http[key] -= 1
        if self.http[key] <= 0:
            del self.http[key]


class QuietRepeats(logging.Filter):
    """A log filter letting each distinct message through at most once every ``every`` seconds.

    Put on uvicorn's ``uvicorn.error`` logger, whose per-request warnings ("Invalid HTTP
    request received.") a client could otherwise repeat as fast as it can open connections.
    """

    def __init__(self, every: float = 10.0) -> None:
        super().__init__()
        self.every = every
        self._last: dict[str, float] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        import time

        key = str(record.msg)[:200]
        now = time.monotonic()
        if now - self._last.get(key, -1e18) < self.every:
            return False
        if len(self._last) > 1000:
            self._last.clear()
        self._last[key] = now
        return True


def quiet_uvicorn_log() -> None:
    """Install :class:`QuietRepeats` on ``uvicorn.error`` (once)."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, QuietRepeats) for f in logger.filters):
        logger.addFilter(QuietRepeats())


def _small_buffers(transport: Any) -> None:
    sock = transport.get_extra_info("socket")
    if sock is not None:
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        except OSError:  # pragma: no cover
            pass


class _Stall:
    """Aborts a transport whose peer takes no data for ``seconds`` while writing is paused."""

    __slots__ = ("transport", "guard", "seconds", "handle", "left", "what")

    def __init__(self, transport: Any, guard: Guard, what: str) -> None:
        self.transport = transport
        self.guard = guard
        self.seconds = guard.limits.stall_seconds
        self.handle: asyncio.TimerHandle | None = None
        self.left = -1
        self.what = what

    def paused(self) -> None:
        if self.handle is None:
            self.left = self.transport.get_write_buffer_size()
            self.handle = asyncio.get_running_loop().call_later(self.seconds, self._check)

    def resumed(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None

    def _check(self) -> None:
        self.handle = None
        if self.transport.is_closing() and self.transport.get_write_buffer_size() == 0:
            return
        now = self.transport.get_write_buffer_size()
        if now < self.left:  # it is reading, slowly: give it another period
            self.left = now
            self.handle = asyncio.get_running_loop().call_later(self.seconds, self._check)
            return
        self.guard.stalled += 1
        peer = self.transport.get_extra_info("peername")
        self.guard.limit_log.hit(
            "stall", "closing a %s connection from %s that took no data for %gs (%d bytes waiting)",
            self.what, peer[0] if peer else "?", self.seconds, now,
        )
        self.transport.abort()


class _StallHooks:
    """Flow-control hooks shared by both protocols: paused writing arms the connection's :class:`_Stall`, resumed disarms it.

    Put before the uvicorn protocol in the bases; the subclass sets ``self._stall`` in ``connection_made``.
    """

    _stall: _Stall

    def pause_writing(self) -> None:
        super().pause_writing()  # type: ignore[misc]
        self._stall.paused()

    def resume_writing(self) -> None:
        super().resume_writing()  # type: ignore[misc]
        self._stall.resumed()


def protocols(guard: Guard) -> tuple[type, type]:
    """(HTTP protocol class, WebSocket protocol class) for ``uvicorn.Config(http=..., ws=...)`` bound to ``guard``."""

    class GuardedWebSockets(_StallHooks, WebSocketsSansIOProtocol):
        def connection_made(self, transport: Any) -> None:  # called by the HTTP protocol on upgrade
            super().connection_made(transport)
            self._key = client_key(self.client[0] if self.client else None)
            self._stall = _Stall(transport, guard, "WebSocket")
            guard.upgraded(self._key)

        def connection_lost(self, exc: Exception | None) -> None:
            guard.closed(self._key, http=False)
            self._stall.resumed()
            super().connection_lost(exc)

        def send_receive_event_to_app(self) -> None:
            if self.curr_msg_data_type == "text" and not self.close_sent:
                data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
                try:
                    data.decode()
                except UnicodeDecodeError:  # uvicorn would log a traceback: one line instead
                    self.frames = []
                    guard.limit_log.hit("ws-malformed", "closing a WebSocket from %s: a text frame is not UTF-8", self._key)
                    self.conn.send_close(1007, "text frames must be UTF-8")
                    self.handle_parser_exception()
                    return
            super().send_receive_event_to_app()

        _discard = False

        def data_received(self, data: bytes) -> None:
            if self._discard:  # hanging up after a limit: the peer's frames are read but not parsed
                return
            super().data_received(data)

        async def send(self, message: Any) -> None:  # type: ignore[override]
            await super().send(message)
            if (message.get("type") == "websocket.close" and message.get("code") in HANGUP_CODES
                    and self.close_sent and not self._discard):
                # A flooder's frames already in flight (about 30,000 a connection in the soak) would
                # each be parsed by uvicorn while it waits up to 10 s for the close reply: discard
                # them instead, and abort the connection once the peer has had time to read the close.
                self._discard = True
                if self.close_timer is not None:
                    self.close_timer.cancel()
                self.close_timer = self.loop.call_later(HANGUP_GRACE, self.transport.abort)

        async def run_asgi(self) -> None:
            # the app may abort a socket that will never take its close frame (push.Outbox.drop)
            self.scope.setdefault("extensions", {})["boardlab.transport"] = self.transport  # type: ignore[index]
            await super().run_asgi()

    class GuardedH11(_StallHooks, H11Protocol):
        _counted = False
        _header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._key = client_key(self.client[0] if self.client else None)
            self._stall = _Stall(transport, guard, "HTTP")
            why = guard.admit(self._key)
            if why is not None:
                guard.refused += 1
                guard.limit_log.hit("connections", "refusing a connection: %s", why)
                transport.abort()
                return
            self._counted = True
            _small_buffers(transport)
            self._arm_header_timer()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm_header_timer()
            self._disarm_body_timer()
            self._stall.resumed()
            if self._counted:
                self._counted = False
                guard.closed(self._key, http=True)
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.transport.get_protocol() is not self:  # upgraded to a WebSocket
                self._counted = False
                self._disarm_header_timer()
                self._disarm_body_timer()
            elif self.conn.their_state is h11.IDLE:
                self._arm_header_timer()  # a request head is still on its way
            else:
                self._disarm_header_timer()
                if self.conn.their_state is h11.SEND_BODY:
                    self._arm_body_timer()  # the head came; the whole body must follow in time
                else:
                    self._disarm_body_timer()

        _body_timer: asyncio.TimerHandle | None = None

        def _arm_body_timer(self) -> None:
            if self._body_timer is None:
                self._body_timer = self.loop.call_later(guard.limits.body_timeout, self._body_timeout)

        def _disarm_body_timer(self) -> None:
            if self._body_timer is not None:
                self._body_timer.cancel()
                self._body_timer = None

        def _body_timeout(self) -> None:
            # issue 45: the header timeout covered only the head; a POST declaring 60,000 bytes and
            # sending 10 held its connection (and one of its client's 32) for ever
            self._body_timer = None
            if self.transport.is_closing() or self.transport.get_protocol() is not self:
                return
            if self.conn.their_state is h11.SEND_BODY:
                guard.timed_out += 1
                guard.limit_log.hit(
                    "body-timeout", "closing a connection from %s that sent no complete request body in %gs",
                    self._key, guard.limits.body_timeout,
                )
                self.transport.abort()

        def _arm_header_timer(self) -> None:
            if self._header_timer is None:
                self._header_timer = self.loop.call_later(guard.limits.header_timeout, self._header_timeout)

        def _disarm_header_timer(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _header_timeout(self) -> None:
            self._header_timer = None
            if self.transport.is_closing() or self.transport.get_protocol() is not self:
                return
            if self.conn.their_state is h11.IDLE:  # no complete request head yet
                guard.timed_out += 1
                guard.limit_log.hit(
                    "header-timeout", "closing a connection from %s that sent no complete request in %gs",
                    self._key, guard.limits.header_timeout,
                )
                self.transport.abort()

    return GuardedH11, GuardedWebSockets
