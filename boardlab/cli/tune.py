"""``boardlab tune``: search rule parameters toward balance or a target length with Optuna."""

from __future__ import annotations

import json

import click

from boardlab.cli.common import (MAX_GAMES, PLAYERS, FiniteFloat, check_games, check_jobs, check_output_dir, check_output_file,
                                 console, engine_option, interruptible, keep_in, use_engine)


@click.command("tune")
@click.argument("game_id", metavar="GAME")
@click.option("--target", "targets", multiple=True, required=True, help="balance, truncation or length=TURNS (repeat for several: Pareto front).")
@click.option("--params", default=None, help="Comma-separated tunable parameters (default: all the game declares).")
@click.option("--trials", type=click.IntRange(1, 10_000), default=20, show_default=True)
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True, callback=check_games, help="Games per evaluation.")
@click.option("--repeats", type=click.IntRange(1, 100), default=1, show_default=True, help="Evaluation blocks per trial (more = less noise).")
@click.option("--players", type=PLAYERS, default=None)
@click.option("--variant", default=None)
@click.option("--agents", default=None)
@click.option("--seed", type=click.IntRange(0, 2**32 - 1), default=0, show_default=True, help="Seed of the search and of its games (0..2^32-1, what the samplers take).")
@click.option("--sampler", type=click.Choice(["tpe", "random", "cmaes", "nsga2", "qmc"]), default="tpe", show_default=True)
@click.option("--closeness", type=FiniteFloat(0, 1000), default=0.05, show_default=True, help="Penalty weight for moving away from the designer's values.")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, callback=check_jobs)
@click.option("--rungs", type=click.IntRange(1, 8), default=3, show_default=True, help="Successive-halving rungs: the best 1/eta of the settings play eta times more games at each.")
@click.option("--eta", type=click.IntRange(2, 10), default=3, show_default=True, help="Halving factor between rungs.")
@click.option("--tolerance", "tolerance", multiple=True, type=FiniteFloat(0, 1000), help="Loss within which a target counts as reached, one per --target (defaults: balance 0.05, truncation 0.01, length 0.05).")
@click.option("--confirm-games", type=click.IntRange(1, MAX_GAMES), default=None, help="Fresh games for the final confirmation (default: the top rung's games).")
@click.option("--out", "out", type=click.Path(file_okay=False), default=None, callback=check_output_dir,
              help="Run folder (default: runs/tune-<game>-s<seed>).")
@click.option("--quiet", is_flag=True, help="No progress bar or trial table.")
@click.option("--save-variant", type=click.Path(dir_okay=False), default=None, callback=check_output_file, help="Write the best settings as a variant file (play it with --variant FILE).")
@click.option("--save-unconfirmed", is_flag=True, help="With --save-variant: write the setting even if the confirmation did not confirm it (the file records the verdict and p-values).")
@click.option("--json", "as_json", is_flag=True)
@engine_option
@interruptible
def command(game_id, targets, params, trials, games, repeats, players, variant, agents, seed, sampler, closeness, jobs, rungs, eta,
            tolerance, confirm_games, out, quiet, save_variant, as_json, save_unconfirmed=False, engine=None):
    """Search GAME's tunable rule parameters toward the targets, race the promising ones, confirm on fresh games."""
    use_engine(engine)
    from boardlab.cli.common import make_game, parse_agents
    from boardlab.engine.errors import InvalidOptionError
    from boardlab.playtest.tune import Target, save_variant as save, tune

    if save_unconfirmed and not save_variant:
        raise InvalidOptionError("--save-unconfirmed needs --save-variant FILE")
    for text in targets:
        Target.parse(text)  # a bad target fails before any game is made
    top = games * repeats * eta ** (rungs - 1)
    if top > MAX_GAMES:
        raise InvalidOptionError(f"the top rung would play {top:,} games per setting (--games x --repeats x --eta^(--rungs - 1)); "
                                 f"at most {MAX_GAMES:,}")
    game = make_game(game_id, players, variant)
    specs = parse_agents(agents, game)
    from pathlib import Path

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    out = out or f"runs/tune-{game_id}-s{seed}"
    keep_in(out)
    err = console(stderr=True)
    show = not (quiet or as_json) and err.is_terminal
    bar = Progress(TextColumn("tuning: games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("ETA"),
                   TimeRemainingColumn(), console=err, disable=not show)
    task = bar.add_task("games", total=None)

    def on_trial(rec):
        if show:
            losses = ", ".join(f"{l:.3f} [{iv[0]:.3f}, {iv[1]:.3f}]" for l, iv in zip(rec["losses"], rec["intervals"]))
            bar.console.print(f"trial {rec['number']:>3} rung {rec['rung']} {rec['games']:>5} games  {rec['params']}  loss {losses}"
                              f"{'  within tolerance' if rec['reached'] else ''}")

    with bar:
        result = tune(
            game_id, targets=list(targets), params=[p.strip() for p in params.split(",")] if params else None,
            trials=trials, games=games, repeats=repeats, players=game.players, variant=variant, agents=specs,
            seed=seed, sampler=sampler, closeness=closeness, jobs=jobs, rungs=rungs, eta=eta,
            tolerance=list(tolerance) or None, confirm_games=confirm_games, out=Path(out),
            progress=lambda done, total: bar.update(task, completed=done, total=total), on_trial=on_trial,
        )
    refused = None
    if save_variant:
        from boardlab.playtest.tune import UnconfirmedSettingError

        try:
            result["variant_file"] = str(save(result, save_variant, unconfirmed=save_unconfirmed))
        except UnconfirmedSettingError as exc:  # the run stands; only the file is withheld (exit 1 after the report)
            refused = result["variant_not_saved"] = str(exc)
    if as_json:
        click.echo(json.dumps(result, sort_keys=True))
        if refused:
            click.echo(refused, err=True)
            raise SystemExit(1)
        return
    from rich.table import Table

    con = console()
    con.print(f"Tuned {game_id} toward {', '.join(result['targets'])}: {trials} trials, rungs of "
              f"{', '.join(map(str, result['rung_games']))} games, {result['games_played']} games played")
    table = Table(title="Trials (one row per evaluation; promoted settings reappear with more games)")
    for col in ("trial", "parameters", "games", *[f"{t} loss [95% CI]" for t in result["targets"]], "distance", "in tol."):
        table.add_column(col)
    for r in result["trial_table"]:
        table.add_row(str(r["number"]), json.dumps(r["params"], sort_keys=True), str(r["games"]),
                      *[f"{l:.3f} [{iv[0]:.3f}, {iv[1]:.3f}]" for l, iv in zip(r["losses"], r["intervals"])],
                      f"{r['distance']:.3f}", "yes" if r["reached"] else "no")
    con.print(table)
    con.print(f"Designer's values: {result['defaults']} -> losses {[round(x, 4) for x in result['default_losses']]} on {result['default_games']} games")
    if "pareto_front" in result:
        con.print("Pareto front:")
        for f in result["pareto_front"]:
            con.print(f"  {f['params']} -> {[round(x, 4) for x in f['losses']]}")
    else:
        con.print(f"Best: {result['best']['params']} -> losses {[round(x, 4) for x in result['best']['losses']]} on the same {result['best']['games']} games")
    con.print(f"Confirmation: {result['confirmation']['verdict']}. {result['confirmation']['text']}")
    con.print(f"Tuning report: {Path(out) / 'tune.html'}")
    if refused:
        click.echo(refused, err=True)
        raise SystemExit(1)
    if save_variant:
        con.print(f"Saved variant file {save_variant}; play it with --variant {save_variant}")
