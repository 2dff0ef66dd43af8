"""``boardlab fit-policy``: distil a search agent into a fast policy.

``boardlab fit-policy dungeons-jewel --players 2 --games 300 --jobs 2 --out policy.json``
lets the teacher (``ismcts:iterations=200`` unless ``--teacher`` says
otherwise) play self-play games, records its root visit shares at every
decision with a choice, fits one conditional-logit model per decision kind
and writes the policy file (see :mod:`boardlab.agents.policy` and
:mod:`boardlab.playtest.policyfit`).  The ``policy`` agent plays it with
``policy:file=policy.json``; a game's own file (``policy_file``, in its
``data/``) is what ``policy`` plays by default.  Refit after a rule change,
then measure the result in the arena before trusting it.
"""

from __future__ import annotations

import json

import click

from boardlab.agents.policy import DEFAULT_TEACHER
from boardlab.engine.errors import UnknownAgentError
from boardlab.engine.files import atomic_write

from .common import PLAYERS, SEED, check_agent, check_games, check_jobs, check_output_file, console, make_game


@click.command("fit-policy")
@click.argument("game_id", metavar="GAME")
@click.option("--teacher", default=DEFAULT_TEACHER, show_default=True,
              help="The search agent to imitate (it plays every seat).")
@click.option("--games", "n_games", type=click.IntRange(min=5), default=300, show_default=True, callback=check_games,
              help="Self-play games of the teacher.")
@click.option("--players", type=PLAYERS, help="Number of players (default: the game's).")
@click.option("--variant", help="Rule variant (default: the game's first).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="Override a game option (repeatable).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the self-play games.")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, callback=check_jobs, help="Worker processes.")
@click.option("--out", "out", type=click.Path(dir_okay=False), required=True, callback=check_output_file,
              help="Policy JSON file to write.")
def command(game_id: str, teacher: str, n_games: int, players: int | None, variant: str | None,
            options: tuple[str, ...], seed: int, jobs: int, out: str) -> int:
    """Fit a fast policy for GAME that imitates a search agent's decisions; write it to --out."""
    from boardlab.playtest.policyfit import fit_policy

    game = make_game(game_id, players, variant, options)
    teacher = teacher.strip()
    if not teacher.startswith(("ismcts", "mcts")):
        raise UnknownAgentError(f"--teacher must be a search agent (ismcts or mcts), got {teacher!r}")
    check_agent(teacher, game, 0)
    with console(stderr=True).status(f"playing {n_games} games of {game.name}..."):
        data = fit_policy(game, teacher, n_games, seed, jobs)
    atomic_write(out, json.dumps(data, indent=1, sort_keys=True) + "\n", "policy file")
    kinds = data["fit"]["kinds"]
    summary = ", ".join(f"{k} {s['policy_agrees']} (heuristic {s['heuristic_agrees']})"
                        for k, s in sorted(kinds.items()) if s["held_out"])
    console().print(f"wrote {out}: {sum(s['decisions'] for s in kinds.values())} decisions; "
                    f"held-out agreement with the teacher: {summary}")
    return 0
