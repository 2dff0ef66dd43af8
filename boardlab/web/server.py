"""Run the web app with uvicorn: ``run(host, port, data_dir)``; :func:`uvicorn_config` holds its options."""

from __future__ import annotations

import logging
import os
import queue
import socket
import sys
import threading
from pathlib import Path
from typing import Any

from boardlab.engine.errors import BoardlabError


def uvicorn_config(app: Any, host: str, port: int, forwarded_allow_ips: str | None = None, fd_limit: int | None = None) -> Any:
    """The ``uvicorn.Config`` boardlab serves ``app`` with (issue 30): every connection limit in place.

    * ``X-Forwarded-For``/``X-Forwarded-Proto`` are ignored unless ``forwarded_allow_ips``
      names the proxies to believe (uvicorn would otherwise trust them from 127.0.0.1,
      which lets any local process, or a proxy that passes the header on, choose its address);
    * the protocols of :mod:`boardlab.web.net` count connections per client and overall,
      time out slow request heads, and abort sockets that stop taking data;
    * ``limit_concurrency`` (uvicorn's 503) and the global ceiling fit the descriptor limit.
    """
    import uvicorn

    from .app import MAX_BODY
    from .net import Guard, connection_ceiling, protocols, quiet_uvicorn_log

    limits = app.state.limits
    ceiling = connection_ceiling(limits, fd_limit if fd_limit is not None else _fd_soft_limit())
    guard = Guard(limits, ceiling, app.state.hub.limit_log)
    app.state.guard = guard
    http, ws = protocols(guard)
    config = uvicorn.Config(
        app, host=host, port=port, log_level="warning", access_log=False,
        http=http, ws=ws, ws_max_size=MAX_BODY, ws_max_queue=16,
        ws_ping_interval=20.0, ws_ping_timeout=20.0,
        proxy_headers=forwarded_allow_ips is not None,
        forwarded_allow_ips=forwarded_allow_ips if forwarded_allow_ips is not None else "",
        # the guard refuses connections over the ceiling; uvicorn's own 503 is a backstop just above it
        limit_concurrency=ceiling + 16, timeout_keep_alive=limits.keep_alive,  # type: ignore[arg-type]
        timeout_graceful_shutdown=5, server_header=False,
    )
    quiet_uvicorn_log()  # after Config, which configures uvicorn's loggers
    return config


#: Log records waiting for the writer thread; more are dropped (and counted) rather than wait.
LOG_QUEUE = 1000


class _OffLoop(logging.Handler):
    """Hands each record to the writer thread of :func:`log_off_loop` instead of writing it."""

    def __init__(self, target: logging.Handler, pending: "queue.Queue[Any]", dropped: list[int]) -> None:
        super().__init__(target.level)
        self.target, self.pending, self.dropped = target, pending, dropped

    def emit(self, record: logging.LogRecord) -> None:
        try:
            record.msg, record.args = record.getMessage(), None  # formatted now: its arguments may change
            self.pending.put_nowait((self.target, record))
        except queue.Full:
            self.dropped[0] += 1
        except Exception:  # pragma: no cover - a malformed message
            self.handleError(record)


def log_off_loop(loggers: tuple[str, ...] = ("uvicorn", "uvicorn.access", "boardlab"), size: int = LOG_QUEUE) -> threading.Thread:
    """Write the server's log lines from a thread, never from the event loop (issue 30).

    A warning written on the loop to a stderr that does not take it (a pipe nobody reads, a
    terminal paused with Ctrl+S, a stuck log collector) blocked the write and froze the whole
    server: the soak benchmark's 30-minute run stopped answering when its unread stderr pipe
    filled.  Each handler of ``loggers`` (a logger with none on its way to the root, like
    ``boardlab``, gets a stderr handler in place of Python's last-resort one) is replaced by
    one that queues the record, at most ``size`` waiting; when the
    queue is full, records are dropped and counted, and the count is written once the writer
    catches up.  Returns the writer thread (a daemon).
    """
    pending: queue.Queue[Any] = queue.Queue(size)
    dropped = [0]
    for name in loggers:
        logger = logging.getLogger(name)
        targets = [h for h in logger.handlers if not isinstance(h, _OffLoop)]
        if not logger.hasHandlers():  # it would reach Python's last-resort handler, on the loop
            fallback = logging.StreamHandler(sys.stderr)
            fallback.setLevel(logging.WARNING)
            targets = [fallback]
            logger.propagate = False
        for h in targets:
            if h in logger.handlers:
                logger.removeHandler(h)
            logger.addHandler(_OffLoop(h, pending, dropped))

    def write() -> None:
        while True:
            target, record = pending.get()
            target.handle(record)
            if dropped[0] and pending.empty():
                n, dropped[0] = dropped[0], 0
                target.handle(logging.makeLogRecord({
                    "name": "boardlab.web", "levelno": logging.WARNING, "levelname": "WARNING",
                    "msg": f"{n} log lines were dropped: the log output did not keep up",
                }))

    writer = threading.Thread(target=write, name="boardlab-log-writer", daemon=True)
    writer.start()
    return writer


#: Allocations between young garbage collections in the server (CPython's default is 700).
GC_YOUNG = 20_000


def tune_gc() -> None:
    """Keep full garbage collections rare and short in a long-running server (issue 30).

    A full collection walks every tracked object while holding the event loop; on the soak's
    2-core machine it took about 200 ms at 140 MB, and with CPython's default thresholds
    snapshots and requests that live a second (a move apart) were promoted to the old
    generation fast enough to force one every 3 s: the probe's p99 was those pauses.  What
    start-up made (modules, the app, the games' rules) is moved to the permanent generation
    (:func:`gc.freeze`), and young collections run every :data:`GC_YOUNG` allocations, so
    short-lived objects die young instead of being promoted.  Reference counting still frees
    everything without cycles at once; cycles are still collected.
    """
    import gc

    gc.collect()
    gc.freeze()
    _, g1, g2 = gc.get_threshold()
    gc.set_threshold(GC_YOUNG, g1, g2)


def _fd_soft_limit() -> int:
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        return soft if soft != resource.RLIM_INFINITY else 1 << 20
    except ImportError:  # pragma: no cover
        return 1 << 16


def run(
    host: str = "127.0.0.1", port: int = 8000, data_dir: str | None = None, limits: Any = None,
    forwarded_allow_ips: str | None = None,
) -> None:
    """Serve boardlab on ``host:port`` until stopped, storing games in ``data_dir``.

    The database is ``<data_dir>/boardlab.sqlite3`` (``data_dir`` defaults to
    ``$BOARDLAB_DATA_DIR`` or ``./data``) unless ``BOARDLAB_DATABASE_URL``
    names another database (e.g. PostgreSQL).  ``BOARDLAB_BOT_DELAY`` sets the
    seconds a bot waits before moving (default 0.8).  Unfinished games resume,
    bots included, when the server starts.  ``limits`` (a
    :class:`~boardlab.web.limits.Limits`; default from the environment) bounds
    bots, match creation, matches in memory and connections.
    ``forwarded_allow_ips`` (comma-separated addresses or ``*``) names the
    reverse proxies whose ``X-Forwarded-For`` is believed; by default none is.
    SIGTERM or Ctrl+C stop the server: open connections get 5 seconds, bot
    workers are stopped.  The soft descriptor limit is raised to the hard limit
    where the OS allows.
    """
    import uvicorn

    from .app import create_app
    from .net import raise_fd_limit

    _check_port(host, port)
    fds = raise_fd_limit()
    data = Path(data_dir) if data_dir else Path(os.environ.get("BOARDLAB_DATA_DIR", "data"))
    app = create_app(data_dir=data, limits=limits)
    config = uvicorn_config(app, host, port, forwarded_allow_ips, fd_limit=fds)
    logging.getLogger("boardlab.web").setLevel(logging.WARNING)
    log_off_loop()
    tune_gc()
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else ("localhost" if host == "::" else host)
    if ":" in shown:
        shown = f"[{shown}]"
    url = app.state.store.url
    where = url.removeprefix("sqlite:///") if url.startswith("sqlite") else "the database named by BOARDLAB_DATABASE_URL"
    print(f"boardlab is running at http://{shown}:{port}/", flush=True)
    print(f"  games are stored in {where}; press Ctrl+C to stop", flush=True)
    uvicorn.Server(config).run()


def _check_port(host: str, port: int) -> None:
    """Fail with a one-line error if ``host:port`` cannot be bound."""
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise BoardlabError(f"cannot resolve host {host!r}: {exc.strerror}") from None
    family, _, _, _, addr = infos[0]
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(addr)
        except OSError as exc:
            raise BoardlabError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
