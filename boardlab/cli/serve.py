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
@click.option("--bot-workers", type=click.IntRange(1, 256), default=None,
              help="Worker processes in which bots think [env BOARDLAB_BOT_WORKERS; default min(4, CPUs)].")
@click.option("--bot-move-limit", type=click.FloatRange(0, 3600, min_open=True), default=None,
              help="Seconds a bot may think per move, then it plays a seeded random move [env BOARDLAB_BOT_MOVE_LIMIT; default 10].")
@click.option("--create-rate", type=click.FloatRange(0, 1e6, min_open=True), default=None,
              help="Matches one client (IP address) may create per minute [env BOARDLAB_CREATE_RATE; default 20].")
@click.option("--create-burst", type=click.IntRange(1, 1_000_000), default=None,
              help="Matches one client may create at once before the rate applies [env BOARDLAB_CREATE_BURST; default 10].")
@click.option("--max-matches", type=click.IntRange(1, 1_000_000), default=None,
              help="Matches held in memory; idle ones are unloaded first [env BOARDLAB_MAX_MATCHES; default 200].")
@click.option("--idle-seconds", type=click.FloatRange(0, 1e9, min_open=True), default=None,
              help="A match no seat plays (spectators do not count) is unloaded from memory after this long [env BOARDLAB_IDLE_SECONDS; default 300].")
@click.option("--max-connections", type=click.IntRange(8, 1_000_000), default=None,
              help="Open connections in all; lowered to fit the descriptor limit [env BOARDLAB_MAX_CONNECTIONS; default 4096].")
@click.option("--forwarded-allow-ips", default=None, metavar="IPS",
              help="Comma-separated addresses of reverse proxies whose X-Forwarded-For is believed ('*': any). "
                   "Default: none. Only name a proxy that overwrites the header: any client that can reach "
                   "the port from a listed address chooses its own address, and so escapes every per-client limit.")
def command(
    host: str, port: int, data_dir: str | None, bot_workers: int | None, bot_move_limit: float | None,
    create_rate: float | None, create_burst: int | None, max_matches: int | None, idle_seconds: float | None,
    max_connections: int | None = None, forwarded_allow_ips: str | None = None,
) -> int:
    """Start the web app and print its address."""
    if data_dir is not None and Path(data_dir).exists() and not Path(data_dir).is_dir():
        raise BoardlabError(f"--data-dir {data_dir} is not a directory")
    try:
        server = importlib.import_module("boardlab.web.server")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("boardlab.web"):
            raise BoardlabError("the web app (boardlab.web.server) is not available in this installation") from None
        raise
    from boardlab.web.limits import Limits

    limits = Limits.from_env(
        bot_workers=bot_workers, bot_move_limit=bot_move_limit, create_rate=create_rate,
        create_burst=create_burst, max_matches=max_matches, idle_seconds=idle_seconds,
        max_connections=max_connections,
    )
    run_kw: dict = {"host": host, "port": port, "data_dir": data_dir, "limits": limits}
    if forwarded_allow_ips is not None:
        if not forwarded_allow_ips.strip():
            raise BoardlabError("--forwarded-allow-ips needs at least one address (or '*')")
        run_kw["forwarded_allow_ips"] = forwarded_allow_ips
    server.run(**run_kw)
    return 0
