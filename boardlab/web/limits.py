"""The server's limits (issues 16 and 30): what one client, one socket and all bots may use.

:class:`Limits` gathers them with their defaults and allowed ranges;
``boardlab serve`` options and environment variables set them
(:meth:`Limits.from_env`; a value out of its range, or not a number, is a
:class:`~boardlab.engine.errors.BoardlabError`: one line, exit code 2):

============================  ==============================  ==============================================  ============
option                        environment variable            meaning                                         default
============================  ==============================  ==============================================  ============
``--bot-workers``             ``BOARDLAB_BOT_WORKERS``        worker processes in which bots think            min(4, CPUs)
``--bot-move-limit``          ``BOARDLAB_BOT_MOVE_LIMIT``     seconds a bot may think per move                10
``--create-rate``             ``BOARDLAB_CREATE_RATE``        matches one client may create per minute        20
``--create-burst``            ``BOARDLAB_CREATE_BURST``       ... of which at once (token-bucket size)        10
``--max-matches``             ``BOARDLAB_MAX_MATCHES``        matches held in memory                          200
``--idle-seconds``            ``BOARDLAB_IDLE_SECONDS``       a match nobody plays is unloaded after          300
``--max-connections``         ``BOARDLAB_MAX_CONNECTIONS``    open connections in all (lowered to fit fds)    4096
..                            ``BOARDLAB_HTTP_PER_CLIENT``    concurrent HTTP connections per client          32
..                            ``BOARDLAB_WS_PER_CLIENT``      WebSockets per client                           32
..                            ``BOARDLAB_SPECTATORS_PER_CLIENT``  spectator WebSockets per client             8
..                            ``BOARDLAB_BOT_MATCHES_PER_CLIENT`` all-bot matches playing per client          3
..                            ``BOARDLAB_HEADER_TIMEOUT``     seconds to send a request's headers             10
..                            ``BOARDLAB_KEEP_ALIVE``         seconds an idle keep-alive connection is kept   20
..                            ``BOARDLAB_STALL_SECONDS``      seconds a socket may not take any data          5
..                            ``BOARDLAB_WS_RATE``            messages per second one WebSocket may send      10
..                            ``BOARDLAB_WS_BURST``           ... of which at once                            30
..                            ``BOARDLAB_BODY_TIMEOUT``       seconds to send a whole request body            20
..                            ``BOARDLAB_HELLO_TIMEOUT``      seconds a WebSocket has to say hello            5
..                            ``BOARDLAB_SEAT_SILENCE``       a seat page silent this long no longer pins     120
..                            ``BOARDLAB_READ_RATE``          heavy reads (state, history, replay) a second   20
..                            ``BOARDLAB_READ_BURST``         ... of which at once                            100
..                            ``BOARDLAB_REBUILD_RATE``       matches one client may have rebuilt a minute    30
..                            ``BOARDLAB_REBUILD_BURST``      ... of which at once                            10
..                            ``BOARDLAB_REBUILDS``           rebuilds (load, replay) running at once, in all 2
..                            ``BOARDLAB_EXPIRE_HOURS``       unfinished matches untouched this long deleted  168
============================  ==============================  ==============================================  ============

Moves and other changes over REST (``POST /api/matches/{id}/...``) share the
WebSocket's message rate per client (``BOARDLAB_WS_RATE``/``BOARDLAB_WS_BURST``).

A client is the peer address of the connection (``request.client.host``; an
IPv6 address counts by its /64 prefix, which one host usually holds whole:
:func:`client_key`).  Behind a reverse proxy every client shares the proxy's
address unless ``--forwarded-allow-ips`` names the proxy (then the proxy's
``X-Forwarded-For`` is believed; see docs/web.md for the risk).
"""

from __future__ import annotations

import ipaddress
import logging
import math
import os
import time
from collections import OrderedDict
from dataclasses import dataclass, fields
from typing import Any

from boardlab.engine.errors import BoardlabError

from .bots import DEFAULT_MOVE_LIMIT, DEFAULT_WORKERS

#: (lowest, highest) allowed value of each limit.
RANGES: dict[str, tuple[float, float]] = {
    "bot_workers": (1, 256),
    "bot_move_limit": (0.001, 3600),
    "create_rate": (0.001, 1e6),
    "create_burst": (1, 1_000_000),
    "max_matches": (1, 1_000_000),
    "idle_seconds": (0.001, 1e9),
    "max_connections": (8, 1_000_000),
    "http_per_client": (1, 1_000_000),
    "ws_per_client": (1, 1_000_000),
    "spectators_per_client": (0, 1_000_000),
    "bot_matches_per_client": (0, 1_000_000),
    "header_timeout": (0.1, 3600),
    "keep_alive": (0.1, 3600),
    "stall_seconds": (0.1, 3600),
    "ws_rate": (0.01, 1e6),
    "ws_burst": (1, 1_000_000),
    "body_timeout": (0.1, 3600),
    "hello_timeout": (0.1, 3600),
    "seat_silence": (1, 1e9),
    "read_rate": (0.01, 1e6),
    "read_burst": (1, 1_000_000),
    "rebuild_rate": (0.01, 1e6),
    "rebuild_burst": (1, 1_000_000),
    "rebuilds": (1, 1024),
    "expire_hours": (0.001, 1e6),
}


@dataclass(frozen=True)
class Limits:
    """Every configurable limit of the web server (see the module docs for the defaults)."""

    bot_workers: int = DEFAULT_WORKERS
    bot_move_limit: float = DEFAULT_MOVE_LIMIT
    create_rate: float = 20.0
    create_burst: int = 10
    max_matches: int = 200
    idle_seconds: float = 300.0
    max_connections: int = 4096
    http_per_client: int = 32
    ws_per_client: int = 32
    spectators_per_client: int = 8
    bot_matches_per_client: int = 3
    header_timeout: float = 10.0
    #: Longer than the idle expiry of common HTTP client libraries (httpx 5 s, undici 4 s, aiohttp 15 s):
    #: a client that keeps idle connections for no longer never sends a request on a connection the
    #: server is closing at that moment (the HTTP/1.1 keep-alive race, which the client sees as a reset).
    keep_alive: float = 20.0
    stall_seconds: float = 5.0
    ws_rate: float = 10.0
    ws_burst: int = 30
    #: Issue 45: a request body must arrive whole within this many seconds of its head.
    body_timeout: float = 20.0
    #: A WebSocket that has not said ``hello`` this long after opening is closed (nothing is loaded before).
    hello_timeout: float = 5.0
    #: A seat's page that has sent nothing (no hello, no move) this long no longer keeps its match busy.
    seat_silence: float = 120.0
    #: Heavy reads (a snapshot, a history step, a replay step) per second per client, and the burst.
    read_rate: float = 20.0
    read_burst: int = 100
    #: Matches one client may have rebuilt from the database (a load, a replay's checkpoints) a minute.
    rebuild_rate: float = 30.0
    rebuild_burst: int = 10
    #: Rebuilds running at once over all clients (the others wait their turn).
    rebuilds: int = 2
    #: Unfinished matches nobody has touched for this many hours are deleted (finished ones are kept).
    expire_hours: float = 168.0

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            integer = f.type in (int, "int")
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or (integer and v != int(v)):
                raise BoardlabError(f"limit {f.name} must be a{'n integer' if integer else ' number'}, got {v!r}")
            low, high = RANGES[f.name]
            if not low <= v <= high:
                raise BoardlabError(f"limit {f.name} must be in {_fmt(low)}..{_fmt(high)}, got {v!r}")

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, **overrides: object) -> "Limits":
        """Limits from ``BOARDLAB_<NAME>`` environment variables, then ``overrides`` (``None`` = unset)."""
        env = dict(os.environ) if env is None else env
        values: dict[str, object] = {}
        for f in fields(cls):
            name = f"BOARDLAB_{f.name.upper()}"
            raw = env.get(name)
            if raw is not None and raw.strip():
                low, high = RANGES[f.name]
                values[f.name] = env_number(name, raw, low, high, integer=f.type in (int, "int"))
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)  # type: ignore[arg-type]


def env_number(name: str, raw: str, low: float, high: float, integer: bool = False) -> Any:
    """``raw`` (the value of environment variable ``name``) as a number in ``low..high``; else one-line error."""
    kind = "an integer" if integer else "a number"
    try:
        value: Any = int(raw) if integer else float(raw)
    except ValueError:
        value = None
    if value is None or not math.isfinite(value) or not low <= value <= high:
        raise BoardlabError(f"{name} must be {kind} in {_fmt(low)}..{_fmt(high)}, got {raw[:40]!r}")
    return value


def _fmt(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:g}"


def env_setting(name: str, default: Any, low: float, high: float, integer: bool = False) -> Any:
    """Environment variable ``name`` checked by :func:`env_number`, or ``default`` when unset or empty."""
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    return env_number(name, raw, low, high, integer)


def client_key(host: str | None) -> str:
    """The key one client's limits are counted under: its IPv4 address, or its IPv6 /64 prefix."""
    if not host:
        return "unknown"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host  # e.g. "testclient"
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class LimitLog:
    """One warning line per kind of limit at most every ``every`` seconds, with how many were not logged.

    A limit that bites a thousand times a second must not flood the log:
    ``hit("ws-rate", "... %s", x)`` logs the first time, then at most once per
    ``every`` seconds, adding "(N more since the last message)".
    """

    def __init__(self, logger: logging.Logger | None = None, every: float = 10.0) -> None:
        self.log = logger or logging.getLogger("boardlab.web")
        self.every = every
        self._last: dict[str, tuple[float, int]] = {}
        self.counts: dict[str, int] = {}

    def hit(self, kind: str, msg: str, *args: Any) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + 1
        now = time.monotonic()
        last, skipped = self._last.get(kind, (-math.inf, 0))
        if now - last < self.every:
            self._last[kind] = (last, skipped + 1)
            return
        more = f" ({skipped} more since the last message)" if skipped else ""
        self.log.warning("limit %s: " + msg + more, kind, *args)
        self._last[kind] = (now, 0)


class RateLimiter:
    """Token buckets by client key: ``rate_per_minute`` refill, ``burst`` capacity.

    At most ``max_clients`` buckets are kept (least recently used dropped; a
    dropped client starts again with a full bucket).
    """

    def __init__(self, rate_per_minute: float, burst: int, max_clients: int = 10_000) -> None:
        self.rate = rate_per_minute / 60.0
        self.burst = float(burst)
        self.max_clients = max_clients
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, key: str, now: float | None = None) -> float:
        """Spend one token of ``key``; return 0 if allowed, else the seconds until one is free."""
        now = time.monotonic() if now is None else now
        tokens, last = self._buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        wait = 0.0
        if tokens >= 1.0:
            tokens -= 1.0
        else:
            wait = (1.0 - tokens) / self.rate
        self._buckets[key] = (tokens, now)
        while len(self._buckets) > self.max_clients:
            self._buckets.popitem(last=False)
        return wait


class Bucket:
    """One token bucket (a socket's message rate): ``rate`` per second, ``burst`` capacity."""

    __slots__ = ("rate", "burst", "tokens", "last")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.last = time.monotonic()

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False
