"""``boardlab compare RUN_A RUN_B``: paired comparison of two playtest runs."""

from __future__ import annotations

import json

import click

from boardlab.cli.common import check_output_file, console


def _results(run) -> list:
    """The run's result rows; a corrupt or unreadable results.parquet is a one-line error."""
    from boardlab.engine.errors import BoardlabError, SaveFileError

    try:
        return run.read_results()
    except BoardlabError:
        raise
    except Exception as exc:  # pyarrow.ArrowInvalid, OSError, a schema without the expected columns...
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise SaveFileError(f"{run.results_path} cannot be read ({type(exc).__name__}: {first})") from None


def _label(path: str, run) -> str:
    """``PATH: game (variant, N players...)`` from the run's manifest; a manifest without a run's config is a one-line error."""
    from boardlab.engine.errors import SaveFileError
    from boardlab.playtest.report import heading

    manifest = run.read_manifest()
    try:
        return f"{path}: {heading(manifest['config'])}"
    except (KeyError, TypeError, AttributeError, ValueError):
        raise SaveFileError(f"{run.manifest_path} is not a playtest run manifest (its 'config' lacks the game, variant "
                            "or players)") from None


@click.command("compare")
@click.argument("run_a", type=click.Path(exists=True, file_okay=False))
@click.argument("run_b", type=click.Path(exists=True, file_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as one JSON object.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), default=None, callback=check_output_file,
              help="Where to write the HTML comparison (default: RUN_B/comparison.html).")
def command(run_a: str, run_b: str, as_json: bool, html_path: str | None) -> None:
    """Compare two playtest runs made with the same seed and number of games (paired by seed)."""
    from pathlib import Path

    from boardlab.playtest.compare import compare_rows, html_comparison, markdown_comparison
    from boardlab.playtest.store import RunDir

    from boardlab.engine.files import check_output

    a, b = RunDir(run_a), RunDir(run_b)
    target = check_output(html_path or Path(run_b) / "comparison.html", "HTML comparison")  # before any work
    result = compare_rows(_results(a), _results(b))
    label_a, label_b = _label(run_a, a), _label(run_b, b)
    out = html_comparison(label_a, label_b, result, target)
    result["html"] = str(out)
    if as_json:
        click.echo(json.dumps(result, sort_keys=True))
    else:
        console().print(markdown_comparison(label_a, label_b, result))
        console().print(f"HTML comparison: {out}")
