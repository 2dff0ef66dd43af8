"""``boardlab playtest``: thousands of games into a run folder, with metrics and an HTML report."""

from __future__ import annotations

import json
from pathlib import Path

import click

from boardlab.cli.common import (MAX_GAMES, MAX_TURNS, PLAYERS, SEED, FiniteFloat, check_games, check_jobs, check_output_dir,
                                 console, engine_option, interruptible, keep_in, make_game, parse_agents, use_engine)
from boardlab.engine.errors import InvalidOptionError


def _parse_restrict(pairs: tuple[str, ...]) -> dict[int, list[str]]:
    """SEAT=TAG pairs; a seat given several times accumulates its tags."""
    out: dict[int, list[str]] = {}
    for pair in pairs:
        seat, sep, tag = pair.partition("=")
        if not sep or not seat.strip().isdigit() or not tag.strip():
            raise click.BadParameter(f"{pair!r} must look like SEAT=TAG, e.g. 0=card:fireball", param_hint="'--restrict'")
        tags = out.setdefault(int(seat), [])
        if tag.strip() not in tags:
            tags.append(tag.strip())
    return out


#: The client preface of HTTP/2 (RFC 9113 section 3.4) followed by an empty SETTINGS frame.
_H2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"


def check_ray_address(address: str, timeout: float = 3.0) -> None:
    """Refuse a ``--ray-address`` that is malformed or where no Ray cluster answers (Ray would retry for minutes).

    A Ray head (its GCS, or the Ray Client server behind ``ray://``) speaks gRPC,
    so it answers an HTTP/2 client preface with a SETTINGS frame; anything
    else that happens to accept the connection (a web server, a proxy, a
    firewall that accepts and then stays silent) is refused here in at most
    ``2 * timeout`` seconds, before Ray starts and prints its own retries.
    """
    import socket

    if address in ("auto", "local"):
        return
    target = address.removeprefix("ray://")
    host, sep, port = target.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise InvalidOptionError(f"--ray-address must look like HOST:PORT (or ray://HOST:PORT, auto), got {address!r}")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout) as conn:
            conn.settimeout(timeout)
            conn.sendall(_H2_PREFACE)
            reply = b""
            while len(reply) < 9:
                chunk = conn.recv(9 - len(reply))
                if not chunk:
                    break
                reply += chunk
    except socket.timeout:
        raise InvalidOptionError(f"--ray-address {address}: no Ray cluster answers there (no reply in {timeout:g} s)") from None
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise InvalidOptionError(f"--ray-address {address}: no Ray cluster answers there ({reason})") from None
    if len(reply) < 9 or reply[3] != 0x04:  # the server's preface is a SETTINGS frame (type 4)
        raise InvalidOptionError(f"--ray-address {address}: something answers there, but not a Ray cluster (no gRPC reply)")


def _progress_runner(total_hint: int, quiet: bool):
    """A rich progress bar with an ETA on a terminal; silent otherwise."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    out = console(stderr=True)
    if quiet or not out.is_terminal:
        return None, None
    progress = Progress(TextColumn("playing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), console=out)
    task = progress.add_task("games", total=total_hint)
    return progress, lambda done, total: progress.update(task, completed=done, total=total)


def games_for_edge(players: int, edge: float) -> int:
    """Games that see a seat's (or the first player's) ``edge`` over the fair share 1/players with 80% power, at the
    strictest Holm level of the verdict's family (every seat and the first player: players + 1 claims)."""
    from boardlab.playtest.power import games_to_see_share
    from boardlab.stats import ALPHA

    n = games_to_see_share(edge, 1.0 / players, ALPHA / (players + 1))
    if n > MAX_GAMES:
        raise InvalidOptionError(f"--detect {edge:g}: seeing that edge takes {n:,} games, more than {MAX_GAMES:,}; ask for a larger edge")
    return n


#: At most this many games per matchup for ``--luck-games`` (the dice share plays three per unit on top).
MAX_LUCK_GAMES = 100_000


#: At most this many variants in one ``playtest --variant a,b,c`` (each plays every game).
MAX_VARIANTS = 8


def _compare_many(folders: list[Path]) -> dict:
    """Every variant's run against the first (the base) on the same seeds, one Holm family (issue 34)."""
    from boardlab.playtest.compare import compare_many
    from boardlab.playtest.store import RunDir

    return compare_many((folders[0].name, RunDir(folders[0]).read_results()),
                        [(f.name, RunDir(f).read_results()) for f in folders[1:]])


@click.command("playtest")
@click.argument("game_id", metavar="GAME")
@click.option("--variant", "variants", default=None, help="Variant name or variant file; 'a,b,c' runs each on the same seeds and compares every one with the first.")
@click.option("--players", type=PLAYERS, default=None, help="Number of players.")
@click.option("--agents", default=None, help="One agent spec per seat, or one for all (default: heuristic).")
@click.option("--games", type=click.IntRange(min=1), default=200, show_default=True, callback=check_games, help="Number of games.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Run seed (game i uses a seed derived from it).")
@click.option("--jobs", type=click.IntRange(min=1), default=None, callback=check_jobs, help="Worker processes (default: all cores).")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True, help="Where the games run.")
@click.option("--ray-address", default=None, help="Address of an existing Ray cluster (default: start a local one).")
@click.option("--out", "out", type=click.Path(file_okay=False), default=None, callback=check_output_dir,
              help="Run folder (default: runs/<game>-<variant>-s<seed>-n<games>).")
@click.option("--option", "options", multiple=True, metavar="K=V", help="Rule option override (repeatable).")
@click.option("--max-turns", type=MAX_TURNS, default=None, help="Turn cap.")
@click.option("--restrict", multiple=True, metavar="SEAT=TAG", help="Restricted play: SEAT's agent never takes actions tagged TAG (e.g. 0=card:Ambush; case-insensitive; repeat to add tags; --list-tags lists them).")
@click.option("--until-ci", type=FiniteFloat(0, 1, low_open=True), default=None, metavar="WIDTH",
              help="Sequential stopping: stop once every seat's (or side's) anytime-valid 95% interval is narrower than WIDTH (e.g. 0.1); --games is then the maximum.")
@click.option("--look-every", type=click.IntRange(1, MAX_GAMES), default=100, show_default=True, help="Games between looks with --until-ci.")
@click.option("--skill-check", "skill_agent", is_flag=False, flag_value="auto", default=None, metavar="[AGENT]",
              help="Re-test the verdicts (seats, sides, first player, each variant's effect) with the search agent, sequentially; AGENT defaults to the game's measured search (docs/playtest.md, 'Skill check').")
@click.option("--skill-games", type=click.IntRange(1, MAX_GAMES), default=None, help="Most games per variant for --skill-check (default 20 on the Python rules, 1400 where the compiled core plays the search).")
@click.option("--luck-games", type=click.IntRange(1, MAX_LUCK_GAMES), default=None, metavar="N",
              help="Luck against skill: N games each of the heuristic against random and the search against the heuristic "
                   "(seats rotated), plus 3N for the dice share (docs/playtest.md, 'Luck against skill').")
@click.option("--luck-search-games", type=click.IntRange(0, MAX_LUCK_GAMES), default=None, metavar="M",
              help="Games of the search against the heuristic for --luck-games (default N; 0: not played; the search is slow).")
@click.option("--detect", type=FiniteFloat(0, 0.5, low_open=True), default=None, metavar="EDGE",
              help="Play as many games as it takes to see a seat's or the first player's edge of EDGE (e.g. 0.02) over "
                   "its fair share with 80% power after Holm's correction across the verdict's claims (replaces --games).")
@click.option("--list-tags", is_flag=True, help="List the game's action tags (what --restrict accepts) and exit.")
@click.option("--json", "as_json", is_flag=True, help="Print the metrics summary as one JSON object.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@engine_option
@interruptible
def command(game_id, variants, players, agents, games, seed, jobs, backend, ray_address, out, options, max_turns, restrict, until_ci, look_every, skill_agent, skill_games, luck_games, luck_search_games, detect, list_tags, as_json, quiet, engine=None):
    """Playtest GAME: run many bot games, store results.parquet, write report.html.

    An interrupted run resumes: run the same command again with the same --out. SIGINT or SIGTERM stops the
    workers, keeps every finished chunk of games and exits 130 or 143 with one line saying how many were kept.
    """
    use_engine(engine)
    from boardlab.playtest import execute, plan_run
    from boardlab.playtest.compare import compare_rows, markdown_comparison
    from boardlab.playtest.report import markdown_summary
    from boardlab.playtest.store import RunDir

    if backend == "ray" and ray_address:
        check_ray_address(ray_address)
    names = [v.strip() for v in variants.split(",")] if variants else [None]
    if len(names) > MAX_VARIANTS or any(n == "" for n in names):
        raise InvalidOptionError(f"--variant takes one variant, or up to {MAX_VARIANTS} separated by commas (the first is the base)")
    restrict_map = _parse_restrict(restrict)
    if detect is not None:
        games = games_for_edge(make_game(game_id, players, names[0], options, max_turns).players, detect)
        if not (quiet or as_json):
            console(stderr=True).print(f"--detect {detect:g}: {games:,} games per variant")
    if luck_search_games is not None and luck_games is None:
        raise InvalidOptionError("--luck-search-games needs --luck-games")
    if skill_games is not None and skill_agent is None:
        raise InvalidOptionError("--skill-games needs --skill-check")
    if list_tags:
        from boardlab.playtest.tags import game_tags

        tags = game_tags(make_game(game_id, players, names[0], options, max_turns))
        click.echo(json.dumps(list(tags)) if as_json else "\n".join(tags))
        return
    configs = []
    for v in names:
        game = make_game(game_id, players, v, options, max_turns)
        specs = parse_agents(agents, game)
        cfg = game.config()
        configs.append(plan_run(game_id, games=games, players=game.players, variant=cfg["variant"],
                                options=cfg["options"], agents=specs, seed=seed, restrict=restrict_map))
    if skill_agent is not None:
        from boardlab.playtest.skill import check_skill_agent

        check_skill_agent(configs[0], skill_agent)
    results = []
    folders = []
    for v, cfg in zip(names, configs):
        label = Path(v).stem if v and v.endswith(".json") else (v or cfg.variant)  # v may carry content edits
        folder = Path(out) / label if out and len(configs) > 1 else Path(out or f"runs/{cfg.game}-{label}-s{seed}-n{games}")
        keep_in(Path(out) if out else folder)
        progress, callback = _progress_runner(games, quiet or as_json)
        if progress:
            with progress:
                res = execute(cfg, folder, backend=backend, jobs=jobs, ray_address=ray_address, progress=callback,
                              until_ci=until_ci, look_every=look_every)
        else:
            res = execute(cfg, folder, backend=backend, jobs=jobs, ray_address=ray_address, until_ci=until_ci, look_every=look_every)
        results.append(res)
        folders.append(folder)
    if luck_games is not None:
        from boardlab.playtest.luck import run_luck

        run_luck(configs, folders, results, luck_games, jobs, quiet or as_json, luck_search_games)
    if skill_agent is not None:
        from boardlab.playtest.skill import run_skill_check

        run_skill_check(configs, folders, results, skill_agent, skill_games, jobs, quiet or as_json)
    if as_json:
        doc = {"runs": [{"folder": str(f), **r} for f, r in zip(folders, results)]}
        if len(configs) == 2:
            doc["comparison"] = compare_rows(RunDir(folders[0]).read_results(), RunDir(folders[1]).read_results())
        elif len(configs) > 2:
            many = _compare_many(folders)
            doc["comparison"] = {k: v for k, v in many.items() if k != "comparisons"}
        click.echo(json.dumps(doc if len(configs) > 1 else doc["runs"][0], sort_keys=True))
        return
    con = console()
    for folder, res in zip(folders, results):
        con.print(markdown_summary(RunDir(folder).read_manifest(), res))
        con.print(f"Results: {folder / 'results.parquet'}\nReport:  {folder / 'report.html'}\n")
    if len(configs) > 2:
        from boardlab.playtest.compare import forest_plot, markdown_many

        many = _compare_many(folders)
        con.print(markdown_many(many))
        plot = forest_plot(many, folders[0].parent / f"forest-{folders[0].name}.svg")
        con.print(f"Forest plot: {plot}")
    if len(configs) == 2:
        from boardlab.playtest.compare import html_comparison

        cmp = compare_rows(RunDir(folders[0]).read_results(), RunDir(folders[1]).read_results())
        con.print(markdown_comparison(str(folders[0]), str(folders[1]), cmp))
        out_html = html_comparison(str(folders[0]), str(folders[1]), cmp, folders[1].parent / f"comparison-{folders[0].name}-{folders[1].name}.html")
        con.print(f"HTML comparison: {out_html}")
