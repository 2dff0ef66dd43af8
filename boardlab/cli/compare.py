"""``boardlab compare RUN_A RUN_B``: paired comparison of two playtest runs."""

from __future__ import annotations

import json

import click

from boardlab.cli.common import console


@click.command("compare")
@click.argument("run_a", type=click.Path(exists=True, file_okay=False))
@click.argument("run_b", type=click.Path(exists=True, file_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as one JSON object.")
def command(run_a: str, run_b: str, as_json: bool) -> None:
    """Compare two playtest runs made with the same seed and number of games (paired by seed)."""
    from boardlab.playtest.compare import compare_rows, markdown_comparison
    from boardlab.playtest.store import RunDir

    a, b = RunDir(run_a), RunDir(run_b)
    result = compare_rows(a.read_results(), b.read_results())
    if as_json:
        click.echo(json.dumps(result, sort_keys=True))
    else:
        console().print(markdown_comparison(run_a, run_b, result))
