"""``boardlab simulate``: play many games with agents and summarise the results.

Game *i* of a run uses a seed derived from ``--seed`` and *i* only, so the
numbers are the same whatever ``--jobs`` is (only the timing keys differ).
"""

from __future__ import annotations

import json

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from boardlab.agents.runner import run_batch, summarize, timed

from .common import (MAX_TURNS, PLAYERS, SEED, check_games, check_jobs, console, engine_option, make_game, parse_agents,
                     use_engine, worker_command)


@click.command("simulate")
@click.argument("game_id", metavar="GAME")
@click.option("--games", "n_games", type=click.IntRange(min=1), required=True, callback=check_games, help="Number of games to play.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the run.")
@click.option("--agents", help="One agent spec per seat, or one for all (e.g. 'heuristic' or 'random,heuristic:k=2').")
@click.option("--variant", help="Rule variant (default: the game's first).")
@click.option("--players", type=PLAYERS, help="Number of players (default: the game's).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="Override a game option (repeatable).")
@click.option("--max-turns", type=MAX_TURNS, help="Turn cap (games reaching it count as truncated).")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, callback=check_jobs, help="Worker processes.")
@engine_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with the summary.")
def command(game_id: str, n_games: int, seed: int, agents: str | None, variant: str | None, players: int | None,
            options: tuple[str, ...], max_turns: int | None, jobs: int, engine: str | None, as_json: bool) -> int:
    """Play GAME --games times with agents and report wins, truncations and speed."""
    game = make_game(game_id, players, variant, options, max_turns)
    specs = parse_agents(agents, game)
    choice = use_engine(engine, game, specs)
    err = console(stderr=True)
    with worker_command(None):  # SIGINT/SIGTERM: workers stopped, one line, exit 130/143
        if err.is_terminal:
            columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                       TimeElapsedColumn(), TimeRemainingColumn())
            with Progress(*columns, console=err, transient=True) as bar:
                task = bar.add_task(f"{game.id} x{n_games}", total=n_games)
                records, seconds = timed(lambda: run_batch(
                    game, specs, n_games, seed, jobs, progress=lambda k: bar.advance(task, k), engine=choice))
        else:
            records, seconds = timed(lambda: run_batch(game, specs, n_games, seed, jobs, engine=choice))
    summary = summarize(game, specs, records, seed, seconds)
    summary["jobs"] = jobs
    summary["engine"] = choice.to_json()
    if as_json:
        click.echo(json.dumps(summary))
        return 0
    out = console()
    table = Table(title=f"{game.name}: {n_games} games, variant {game.variant}, seed {seed}")
    table.add_column("seat")
    table.add_column("agent")
    table.add_column("wins", justify="right")
    table.add_column("win %", justify="right")
    for s, spec in enumerate(specs):
        w = summary["wins_by_seat"][s]
        table.add_row(str(s), spec, str(w), f"{100 * w / n_games:.1f}")
    out.print(table)
    if summary["wins_by_side"] and any(k != f"seat {i}" for i, k in enumerate(summary["wins_by_side"])):
        out.print("wins by side: " + ", ".join(f"{k} {v}" for k, v in summary["wins_by_side"].items()))
    out.print(f"truncated {summary['truncated']} ({100 * summary['truncated'] / n_games:.1f}%), "
              f"drawn {summary['draws_or_no_winner']} (a draw is no win in 'win %'; playtest, compare and arena count it as an equal share); mean turns {summary['mean_turns']:.1f}, "
              f"mean decisions {summary['mean_decisions']:.1f}")
    out.print(f"{seconds:.2f} s, {summary['games_per_second']:.1f} games/s with {jobs} job(s) on the {choice.label}")
    return 0
