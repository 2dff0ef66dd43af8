"""``boardlab serve``: start the web app (lobby, play in the browser, playtest lab)."""

from __future__ import annotations

import importlib
from pathlib import Path

import click

from boardlab.engine.errors import BoardlabError


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="Port to listen on.")
@click.option("--data-dir", type=click.Path(file_okay=False), help="Where saved games and lab runs are stored.")
def command(host: str, port: int, data_dir: str | None) -> int:
    """Start the web app and print its address."""
    if data_dir is not None and Path(data_dir).exists() and not Path(data_dir).is_dir():
        raise BoardlabError(f"--data-dir {data_dir} is not a directory")
    try:
        server = importlib.import_module("boardlab.web.server")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("boardlab.web"):
            raise BoardlabError("the web app (boardlab.web.server) is not available in this installation") from None
        raise
    server.run(host=host, port=port, data_dir=data_dir)
    return 0
