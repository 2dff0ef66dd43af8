"""``boardlab study PLAN.toml``: answer a designer's questions, each with as many games as it needs, in one HTML report."""

from __future__ import annotations

import json
from pathlib import Path

import click

from boardlab.cli.common import (MAX_GAMES, check_jobs, check_output_dir, check_output_file, console, engine_option,
                                 interruptible, keep_in, use_engine)


@click.command("study")
@click.argument("plan", metavar="PLAN.toml")
@click.option("--out", "out", type=click.Path(file_okay=False), default=None, callback=check_output_dir,
              help="Study folder: its runs, study.json and study.html (default: runs/study-<plan name>).")
@click.option("--jobs", type=click.IntRange(min=1), default=None, callback=check_jobs, help="Worker processes (default: all cores).")
@click.option("--max-games", type=click.IntRange(1, MAX_GAMES), default=None,
              help="Most games of any run (default: the study's max_games).")
@click.option("--findings", "findings", type=click.Path(dir_okay=False), default=None, callback=check_output_file,
              help="Also rewrite the generated block (between <!-- study:begin --> and <!-- study:end -->) of this findings page.")
@click.option("--json", "as_json", is_flag=True, help="Print the answers as one JSON object.")
@click.option("--quiet", is_flag=True, help="No progress lines.")
@engine_option
@interruptible
def command(plan: str, out: str | None, jobs: int | None, max_games: int | None, findings: str | None, as_json: bool,
            quiet: bool, engine: str | None = None) -> None:
    """Answer every question of the study file PLAN.toml (see docs/playtest.md, 'Studies').

    Each question gets a plain-words verdict (holds, does not hold, undecided) with its interval, corrected with
    Holm's method across the study's questions. An interrupted study resumes with the same --out.
    """
    from boardlab.playtest import findings as page
    from boardlab.playtest.study import load, run_study

    use_engine(engine)

    study = load(plan)
    if findings:  # a page without its markers is a one-line error before any game is played
        page.replace_block(Path(findings).read_text(encoding="utf-8") if Path(findings).is_file() else "", "", f"findings page {findings}")
    folder = Path(out or f"runs/study-{Path(plan).stem}")
    keep_in(folder)
    err = console(stderr=True)
    log = None if quiet or as_json else (lambda msg: err.print(msg, markup=False))
    doc = run_study(study, folder, jobs=jobs, max_games=max_games, log=log)
    if findings:
        command_line = f"boardlab study {plan}" + (f" --max-games {max_games}" if max_games else "") + f" --findings {findings}"
        page.write(findings, doc, command_line)
    if as_json:
        click.echo(json.dumps(doc, sort_keys=True, default=float))
        return
    con = console()
    con.print(f"# {doc['title']}\n")
    for a in doc["questions"]:
        con.print(f"* {a['id']}: {a['words']}")
    con.print(f"\nReport: {folder / 'study.html'}\nData:   {folder / 'study.json'}" + (f"\nPage:   {findings}" if findings else ""))
