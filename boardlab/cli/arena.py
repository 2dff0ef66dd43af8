"""``boardlab arena``: agents play each other with seats rotated; win rates with intervals and ratings.

``boardlab arena GAME --agents ismcts,heuristic,random --games 200 --jobs 2``
plays every lineup on the same deals (see :mod:`boardlab.agents.arena`).
``--ladder ismcts --budgets 25,50,100,200`` plays one agent at several
iteration budgets against itself: the skill ladder.
"""

from __future__ import annotations

import json

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from boardlab.agents.arena import format_report, ladder, lineups, run_arena, with_budget
from boardlab.engine.errors import InvalidOptionError, UnknownAgentError

from .common import PLAYERS, SEED, check_agent, check_games, check_jobs, check_output_file, console, make_game, engine_option, use_engine, worker_command


def _specs(text: str) -> list[str]:
    specs = [s.strip() for s in text.split(",")]
    if any(not s for s in specs):
        raise UnknownAgentError(f"--agents {text!r} has an empty agent name")
    if len(set(specs)) != len(specs):
        raise UnknownAgentError(f"--agents {text!r} names an agent twice (give copies different parameters)")
    return specs


def _budgets(text: str) -> list[int]:
    try:
        budgets = [int(b) for b in text.split(",")]
    except ValueError:
        raise click.BadParameter(f"{text!r} must be whole numbers separated by commas, e.g. 25,50,100", param_hint="'--budgets'") from None
    if len(budgets) < 2 or any(b < 1 for b in budgets) or len(set(budgets)) != len(budgets):
        raise click.BadParameter(f"{text!r} needs at least two different budgets >= 1", param_hint="'--budgets'")
    return budgets


@click.command("arena")
@click.argument("game_id", metavar="GAME")
@click.option("--agents", help="Agents to compare, comma-separated (e.g. 'ismcts,heuristic,random').")
@click.option("--ladder", "ladder_spec", metavar="AGENT", help="Skill ladder: this agent at each of --budgets iterations.")
@click.option("--field", metavar="AGENT",
              help="Play each agent alone in each seat against copies of AGENT (fair for asymmetric and team games).")
@click.option("--sides", is_flag=True,
              help="One agent per side, playing every seat of it (asymmetric team games: wizard vs heroes).")
@click.option("--budgets", default="25,50,100,200", show_default=True, help="Iteration budgets of the --ladder.")
@click.option("--games", "n_games", type=click.IntRange(min=1), required=True, callback=check_games,
              help="Total games (rounded up to whole deals played in every seating).")
@click.option("--players", type=PLAYERS, help="Number of players (default: the game's).")
@click.option("--variant", help="Rule variant (default: the game's first).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="Override a game option (repeatable).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the run (deal i uses a seed derived from it).")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, callback=check_jobs, help="Worker processes.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with an 'agents' list.")
@click.option("--log", "log", type=click.Path(dir_okay=False, writable=True), metavar="FILE", callback=check_output_file,
              help="Append each finished game to FILE (JSON lines) and skip games already there: resume a stopped run.")
@engine_option
def command(game_id: str, agents: str | None, ladder_spec: str | None, field: str | None, sides: bool, budgets: str, n_games: int,
            players: int | None, variant: str | None, options: tuple[str, ...], seed: int, jobs: int,
            as_json: bool, log: str | None, engine: str | None = None) -> int:
    """Play agents against each other in GAME, seats rotated; report win rates (Wilson 95%) and OpenSkill ratings."""
    use_engine(engine)
    if (agents is None) == (ladder_spec is None):
        raise click.UsageError("give either --agents A,B[,C...] or --ladder AGENT")
    game = make_game(game_id, players, variant, options)
    if ladder_spec is not None:
        steps = _budgets(budgets)
        if not _has_iterations(ladder_spec.strip(), game):
            raise InvalidOptionError(f"--ladder needs a search agent with an 'iterations' parameter, got {ladder_spec!r}")
        specs = [with_budget(ladder_spec.strip(), b) for b in steps]
    else:
        specs = _specs(agents or "")
        if len(specs) < 2 and field is None:
            raise UnknownAgentError("--agents needs at least two agents to compare (or one with --field)")
    if field is not None:
        field = field.strip()
    for spec in [*specs, *([field] if field else [])]:
        if spec == "human":
            raise UnknownAgentError("the 'human' agent cannot play in the arena")
        check_agent(spec, game, 0)
    roles = None
    if sides:
        if field is not None:
            raise click.UsageError("--sides and --field cannot be combined")
        roles = game.new_state(seed).roles()
        n_sides = len(set(roles))
        if len(specs) != n_sides:
            raise click.UsageError(f"--sides needs one agent per side: {n_sides} ({', '.join(dict.fromkeys(roles))}), got {len(specs)}")
    seatings = len(lineups(specs, game.players, field, roles))
    total = -(-n_games // seatings) * seatings

    def run(progress=None):  # type: ignore[no-untyped-def]
        if ladder_spec is not None:
            return ladder(game, ladder_spec.strip(), steps, n_games, seed, jobs, field=field, progress=progress, log=log,
                          sides=sides)
        return run_arena(game, specs, n_games, seed, jobs, field=field, progress=progress, log=log, sides=sides)

    err = console(stderr=True)
    with worker_command(log):  # SIGINT/SIGTERM: workers stopped, one line, exit 130/143; the log keeps whole games
        if err.is_terminal and not as_json:
            columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                       TimeElapsedColumn(), TimeRemainingColumn())
            with Progress(*columns, console=err, transient=True) as bar:
                task = bar.add_task(f"{game.id} arena", total=total)
                report = run(lambda k: bar.advance(task, k))
        else:
            report = run()
    report["jobs"] = jobs
    if as_json:
        click.echo(json.dumps(report))
    else:
        click.echo(format_report(report))
    return 0


def _has_iterations(spec: str, game) -> bool:  # type: ignore[no-untyped-def]
    from boardlab.agents import agent_class, parse_spec

    name, _ = parse_spec(spec)
    return "iterations" in getattr(agent_class(name, game), "defaults", {})
