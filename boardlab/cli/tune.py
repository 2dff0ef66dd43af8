"""``boardlab tune``: search rule parameters toward balance or a target length with Optuna."""

from __future__ import annotations

import json

import click

from boardlab.cli.common import check_games, check_jobs, check_output_file, console


@click.command("tune")
@click.argument("game_id", metavar="GAME")
@click.option("--target", "targets", multiple=True, required=True, help="balance, truncation or length=TURNS (repeat for several: Pareto front).")
@click.option("--params", default=None, help="Comma-separated tunable parameters (default: all the game declares).")
@click.option("--trials", type=click.IntRange(min=1), default=20, show_default=True)
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True, callback=check_games, help="Games per evaluation.")
@click.option("--repeats", type=click.IntRange(min=1), default=1, show_default=True, help="Evaluation blocks per trial (more = less noise).")
@click.option("--players", type=int, default=None)
@click.option("--variant", default=None)
@click.option("--agents", default=None)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--sampler", type=click.Choice(["tpe", "random", "cmaes", "nsga2", "qmc"]), default="tpe", show_default=True)
@click.option("--closeness", type=click.FloatRange(min=0), default=0.05, show_default=True, help="Penalty weight for moving away from the designer's values.")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, callback=check_jobs)
@click.option("--save-variant", type=click.Path(dir_okay=False), default=None, callback=check_output_file, help="Write the best settings as a variant file (play it with --variant FILE).")
@click.option("--json", "as_json", is_flag=True)
def command(game_id, targets, params, trials, games, repeats, players, variant, agents, seed, sampler, closeness, jobs, save_variant, as_json):
    """Search GAME's tunable rule parameters toward the targets."""
    from boardlab.cli.common import make_game, parse_agents
    from boardlab.playtest.tune import save_variant as save, tune

    game = make_game(game_id, players, variant)
    specs = parse_agents(agents, game)
    result = tune(
        game_id, targets=list(targets), params=[p.strip() for p in params.split(",")] if params else None,
        trials=trials, games=games, repeats=repeats, players=game.players, variant=variant, agents=specs,
        seed=seed, sampler=sampler, closeness=closeness, jobs=jobs,
    )
    if save_variant:
        result["variant_file"] = str(save(result, save_variant))
    if as_json:
        click.echo(json.dumps(result, sort_keys=True))
        return
    con = console()
    con.print(f"Tuned {game_id} toward {', '.join(result['targets'])} ({trials} trials x {result['games_per_trial']} games)")
    con.print(f"Designer's values: {result['defaults']} -> losses {[round(x, 4) for x in result['default_losses']]}")
    if "pareto_front" in result:
        con.print("Pareto front:")
        for f in result["pareto_front"]:
            con.print(f"  {f['params']} -> {[round(x, 4) for x in f['losses']]}")
    else:
        con.print(f"Best: {result['best']['params']} -> losses {[round(x, 4) for x in result['best']['losses']]}")
    if save_variant:
        con.print(f"Saved variant file {save_variant}; play it with --variant {save_variant}")
