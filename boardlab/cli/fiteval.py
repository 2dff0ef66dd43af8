"""``boardlab fit-eval``: fit a game's evaluation for search agents from self-play.

``boardlab fit-eval dungeons-jewel --players 2 --games 400 --agents heuristic,heuristic:strength=5 --out eval.json``
plays the games, fits one logistic model per role over the game's features
and writes the evaluation file (see :mod:`boardlab.playtest.evalfit`).
Search agents use it with ``ismcts:eval=eval.json``; a game's own file
(``evaluation_file``) is what ``eval=auto`` picks up.  With ``--merge`` the
models of other player counts already in ``--out`` are kept.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from boardlab.engine.evaluation import FittedEvaluation
from boardlab.engine.errors import UnknownAgentError
from boardlab.engine.files import atomic_write

from .common import PLAYERS, SEED, check_agent, check_games, check_jobs, check_output_file, console, default_agent, make_game


@click.command("fit-eval")
@click.argument("game_id", metavar="GAME")
@click.option("--agents", help="Self-play agents, comma-separated; game i seats them in rotation (vary them for "
                                "better data).  Default: the game's heuristic, else random.")
@click.option("--games", "n_games", type=click.IntRange(min=5), default=300, show_default=True, callback=check_games, help="Self-play games.")
@click.option("--players", type=PLAYERS, help="Number of players (default: the game's).")
@click.option("--variant", help="Rule variant (default: the game's first).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="Override a game option (repeatable).")
@click.option("--every", type=click.IntRange(1, 10_000), default=3, show_default=True, help="Record every n-th position.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the self-play games.")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, callback=check_jobs, help="Worker processes.")
@click.option("--out", "out", type=click.Path(dir_okay=False), required=True, callback=check_output_file, help="Evaluation JSON file to write.")
@click.option("--merge", is_flag=True, help="Keep the other player counts' models already in --out.")
def command(game_id: str, agents: str | None, n_games: int, players: int | None, variant: str | None, options: tuple[str, ...],
            every: int, seed: int, jobs: int, out: str, merge: bool) -> int:
    """Fit GAME's evaluation (win chance from its features) on self-play games; write it to --out."""
    from boardlab.playtest.evalfit import fit_evaluation

    game = make_game(game_id, players, variant, options)
    agents = agents if agents is not None else default_agent(game)
    specs = [s.strip() for s in agents.split(",")]
    if any(not s for s in specs):
        raise UnknownAgentError(f"--agents {agents!r} has an empty agent name")
    for spec in specs:
        if spec == "human":
            raise UnknownAgentError("the 'human' agent cannot play self-play games")
        check_agent(spec, game, 0)
    base = FittedEvaluation.load(out) if merge and Path(out).exists() else None
    with console(stderr=True).status(f"playing {n_games} games of {game.name}..."):
        data = fit_evaluation(game, specs, n_games, seed, every, jobs, base)
    atomic_write(out, json.dumps(data, indent=1, sort_keys=True) + "\n", "evaluation file")
    s = data["fit"][str(game.players)]
    console().print(f"wrote {out}: {s['positions']} positions; held-out log-loss {s['logloss_fitted']} "
                  f"(constant {s['logloss_constant']}, the game's evaluate {s['logloss_game_evaluate']})")
    return 0
