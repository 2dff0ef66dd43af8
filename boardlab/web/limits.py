"""The server's limits (issue 16, finding 5 and finding 2): what one client and all bots may use.

:class:`Limits` gathers them with their defaults; ``boardlab serve`` options
and environment variables set them (:meth:`Limits.from_env`):

====================  ============================  ===========================================  =======
option                environment variable          meaning                                      default
====================  ============================  ===========================================  =======
``--bot-workers``     ``BOARDLAB_BOT_WORKERS``      worker processes in which bots think         min(4, CPUs)
``--bot-move-limit``  ``BOARDLAB_BOT_MOVE_LIMIT``   seconds a bot may think per move              10
``--create-rate``     ``BOARDLAB_CREATE_RATE``      matches one client may create per minute     20
``--create-burst``    ``BOARDLAB_CREATE_BURST``     ... of which at once (token-bucket size)      10
``--max-matches``     ``BOARDLAB_MAX_MATCHES``      matches held in memory                       200
``--idle-seconds``    ``BOARDLAB_IDLE_SECONDS``     a match nobody watches is unloaded after      300
====================  ============================  ===========================================  =======

A client is the peer address of the connection (``request.client.host``);
behind a reverse proxy every client shares the proxy's address, so set the
rate for the proxy (or limit at the proxy).  ``X-Forwarded-For`` is not
trusted.
"""

from __future__ import annotations

import math
import os
import time
from collections import OrderedDict
from dataclasses import dataclass, fields

from boardlab.engine.errors import BoardlabError

from .bots import DEFAULT_MOVE_LIMIT, DEFAULT_WORKERS


@dataclass(frozen=True)
class Limits:
    """Every configurable limit of the web server (see the module docs for the defaults)."""

    bot_workers: int = DEFAULT_WORKERS
    bot_move_limit: float = DEFAULT_MOVE_LIMIT
    create_rate: float = 20.0
    create_burst: int = 10
    max_matches: int = 200
    idle_seconds: float = 300.0

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise BoardlabError(f"limit {f.name} must be a number, got {v!r}")
            low = 1 if f.type in (int, "int") else 0
            if v < low or (low == 0 and v <= 0):
                raise BoardlabError(f"limit {f.name} must be {'>= 1' if low else '> 0'}, got {v!r}")

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, **overrides: object) -> "Limits":
        """Limits from ``BOARDLAB_<NAME>`` environment variables, then ``overrides`` (``None`` = unset)."""
        env = dict(os.environ) if env is None else env
        values: dict[str, object] = {}
        for f in fields(cls):
            raw = env.get(f"BOARDLAB_{f.name.upper()}")
            if raw is not None and raw.strip():
                conv = int if f.type in (int, "int") else float
                try:
                    values[f.name] = conv(raw)
                except ValueError:
                    raise BoardlabError(f"BOARDLAB_{f.name.upper()} must be a{'n integer' if conv is int else ' number'}, got {raw!r}") from None
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)  # type: ignore[arg-type]


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
