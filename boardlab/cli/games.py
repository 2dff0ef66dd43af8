"""``boardlab games``: list the games, their player counts, variants and agents."""

from __future__ import annotations

import json

import click
from rich.table import Table

from boardlab.agents import available_agents
from boardlab.engine import registry

from .common import console


def game_entries() -> tuple[list[dict], list[str]]:
    """JSON entries of every registered game, and warnings for games that fail to import."""
    entries, problems = [], []
    for gid in registry.game_ids():
        try:
            cls = registry.game_class(gid)
        except Exception as exc:  # a broken third-party or half-written game must not hide the others
            problems.append(f"game {gid!r} could not be loaded: {type(exc).__name__}: {exc}")
            continue
        spec = cls.spec()
        spec["players"] = cls.player_range()
        spec["agents"] = available_agents(cls)
        spec["game_agents"] = sorted(getattr(cls, "agents", {}))
        entries.append(spec)
    return entries, problems


@click.command("games")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON array of game descriptions.")
def command(as_json: bool) -> None:
    """List the games: id, name, player counts, variants (default first) and agents."""
    entries, problems = game_entries()
    for p in problems:
        click.echo(f"boardlab: warning: {' '.join(p.split())}", err=True)
    if as_json:
        click.echo(json.dumps(entries, indent=2))
        return
    table = Table(title="boardlab games", show_lines=True)
    table.add_column("id", style="bold", no_wrap=True)
    table.add_column("name")
    table.add_column("players (default)", justify="center")
    table.add_column("variants (default first)")
    table.add_column("own agents")
    for e in entries:
        players = e["players"] + (f" ({e['default_players']})" if e["min_players"] != e["max_players"] else "")
        table.add_row(e["id"], e["name"], players, ", ".join(v["name"] for v in e["variants"]), ", ".join(e["game_agents"]) or "-")
    out = console()
    out.print(table)
    from boardlab.agents import AGENTS

    out.print(f"Agents for every game: {', '.join(sorted(AGENTS))}.  Details: boardlab games --json")
