"""Run the web app with uvicorn: ``run(host, port, data_dir)``."""

from __future__ import annotations

import os
from pathlib import Path


def run(host: str = "127.0.0.1", port: int = 8000, data_dir: str | None = None) -> None:
    """Serve boardlab on ``host:port`` until stopped, storing games in ``data_dir``.

    The database is ``<data_dir>/boardlab.sqlite3`` unless the environment
    variable ``BOARDLAB_DATABASE_URL`` names another (e.g. PostgreSQL).
    Unfinished games resume, bots included, when the server starts.
    """
    import uvicorn

    from .app import MAX_BODY, create_app

    data = Path(data_dir) if data_dir else Path(os.environ.get("BOARDLAB_DATA_DIR", "boardlab-data"))
    app = create_app(data_dir=data)
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    url = app.state.store.url
    where = url.removeprefix("sqlite:///") if url.startswith("sqlite") else "the database named by BOARDLAB_DATABASE_URL"
    print(f"boardlab is running at http://{shown}:{port}/", flush=True)
    print(f"  games are stored in {where}; press Ctrl+C to stop", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=MAX_BODY, access_log=False)
