"""Run the web app with uvicorn: ``run(host, port, data_dir)``."""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import Any

from boardlab.engine.errors import BoardlabError


def run(host: str = "127.0.0.1", port: int = 8000, data_dir: str | None = None, limits: Any = None) -> None:
    """Serve boardlab on ``host:port`` until stopped, storing games in ``data_dir``.

    The database is ``<data_dir>/boardlab.sqlite3`` (``data_dir`` defaults to
    ``$BOARDLAB_DATA_DIR`` or ``./data``) unless ``BOARDLAB_DATABASE_URL``
    names another database (e.g. PostgreSQL).  ``BOARDLAB_BOT_DELAY`` sets the
    seconds a bot waits before moving (default 0.8).  Unfinished games resume,
    bots included, when the server starts.  ``limits`` (a
    :class:`~boardlab.web.limits.Limits`; default from the environment) bounds
    bots, match creation and matches in memory.  SIGTERM or Ctrl+C stop the
    server: open connections get 5 seconds, bot workers are stopped.
    """
    import uvicorn

    from .app import MAX_BODY, create_app

    _check_port(host, port)
    data = Path(data_dir) if data_dir else Path(os.environ.get("BOARDLAB_DATA_DIR", "data"))
    app = create_app(data_dir=data, limits=limits)
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else ("localhost" if host == "::" else host)
    if ":" in shown:
        shown = f"[{shown}]"
    url = app.state.store.url
    where = url.removeprefix("sqlite:///") if url.startswith("sqlite") else "the database named by BOARDLAB_DATABASE_URL"
    print(f"boardlab is running at http://{shown}:{port}/", flush=True)
    print(f"  games are stored in {where}; press Ctrl+C to stop", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=MAX_BODY, access_log=False,
                timeout_graceful_shutdown=5)


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
