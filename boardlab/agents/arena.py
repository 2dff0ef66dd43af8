"""The arena: agents play each other with seats rotated, and are rated.

Lineups.  With *k* agents and *P* seats, every group of ``m = min(k, P)``
agents (all of them when ``k <= P``; every combination of *P* when
``k > P``) is played in ``m`` rotations: in rotation *r*, seat *s* gets the
group's agent ``(s + r) % m``.  Each agent so sits in each seat equally
often, and seat or role advantage cancels.  Every lineup plays the same
deals: deal *i* uses seed ``game_seed(seed, i)`` in every lineup, so the
luck of the cards is shared too.  ``games`` is the total number of games,
rounded up to a whole number of deals.

Resuming.  With a ``log`` file, every finished game is appended to it as one
JSON line (after a header line naming the arena), and a later run with the
same arena (game, options, agents, field, seed) skips the games already in
the file: a stopped run loses nothing, and a larger ``games`` continues it.
Each finished chunk's lines are appended whole, with one ``write`` on an
``O_APPEND`` descriptor and an fsync (:func:`boardlab.engine.files.append_lines`),
so a kill leaves the log ending at a whole game; a last line cut short (a log
written otherwise) is ignored when read and dropped before appending.

Head to head.  For every pair of agents that met, the report gives the
first's score against the second (1 when it scored more in a game, 0.5 on
equal scores) with a Wilson interval.

Scoring.  In a game an agent's score is the mean of its seats' scores
(``Results.scores``: 1 for a win, 0 for a loss, team-mates share a win), so
a 2v2 team game or two copies of one agent in a four-player game are scored
consistently.  ``win_rate`` is the mean score over the games it played, with
a Wilson 95% interval.  Ratings use OpenSkill's Plackett-Luce model (Weng and
Lin 2011), which rates multi-player and team results: each game ranks the
agents by their score.  ``rating`` is the mean skill ``mu`` (25 for an
unknown player); ``sigma`` is its uncertainty and ``ordinal`` = mu - 3 sigma.

>>> lineups(["a", "b"], 2)
[('a', 'b'), ('b', 'a')]
>>> [round(x, 3) for x in wilson(60, 100)]
[0.502, 0.691]
"""

from __future__ import annotations

import json
import os
import time
from itertools import combinations
from typing import TYPE_CHECKING, Any, Callable, Sequence

from boardlab.engine.errors import SaveFileError
from boardlab.engine.files import append_lines
from boardlab.agents.runner import GameRecord, game_seed
from boardlab.stats import wilson  # noqa: F401  (re-exported)

if TYPE_CHECKING:  # pragma: no cover
    from boardlab.engine.game import Game


def lineups(agents: Sequence[str], players: int, field: str | None = None,
            roles: Sequence[str] | None = None) -> list[tuple[str, ...]]:
    """Seat assignments (one agent spec per seat) covering every group and rotation.

    With a ``field`` agent, each agent instead sits alone in each seat in
    turn with the field agent in every other seat (the fair comparison for
    asymmetric and team games: same roles, same opponents, same deals).

    With ``roles`` (each seat's role, ``State.roles()``), each agent plays
    every seat of one side: one agent per side, rotated so that each agent
    plays each side once (the head-to-head of asymmetric team games:
    the wizard against all the heroes).

    >>> lineups(["a", "b"], 3, roles=("wizard", "hero", "hero"))
    [('a', 'b', 'b'), ('b', 'a', 'a')]
    """
    k = len(agents)
    if k == 0:
        raise ValueError("the arena needs at least one agent")
    if roles is not None:
        sides = list(dict.fromkeys(roles))
        if field is not None:
            raise ValueError("sides mode and a field agent cannot be combined")
        if k != len(sides):
            raise ValueError(f"sides mode needs one agent per side ({len(sides)}: {', '.join(sides)}), got {k}")
        return [tuple(agents[(sides.index(roles[s]) + r) % k] for s in range(players)) for r in range(k)]
    if field is not None:
        return [tuple(a if s == seat else field for s in range(players)) for a in agents for seat in range(players)]
    if k <= players:
        groups = [tuple(agents)]
    else:
        groups = [tuple(agents[i] for i in idx) for idx in combinations(range(k), players)]
    out = []
    for group in groups:
        m = len(group)
        for r in range(m):
            out.append(tuple(group[(s + r) % m] for s in range(players)))
    return out


def _play_tasks(args: tuple[dict[str, Any], list[tuple[int, tuple[str, ...], int]]]) -> list[tuple[int, GameRecord]]:
    config, tasks = args
    from boardlab.engine.registry import make
    from boardlab.agents.runner import play_game

    from boardlab.agents.runner import core_records
    from boardlab.engine.core import choose

    game = make(config["game"], players=config["players"], variant=config["variant"], options=config["options"])
    game.record_events = False
    out = []
    for order, lineup, seed in tasks:
        choice = choose(game, lineup)  # the same game on either engine; the core where it plays every agent
        if choice.engine == "core":
            out.append((order, core_records(game, lineup, [seed], choice.spec)[0]))
        else:
            out.append((order, play_game(game, list(lineup), seed)[1]))
    return out


def agent_scores(lineup: Sequence[str], scores: Sequence[float]) -> dict[str, float]:
    """Each distinct agent's mean score over the seats it held in one game."""
    sums: dict[str, list[float]] = {}
    for spec, sc in zip(lineup, scores):
        sums.setdefault(spec, []).append(sc)
    return {spec: sum(v) / len(v) for spec, v in sums.items()}


def run_arena(
    game: "Game",
    agents: Sequence[str],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    *,
    field: str | None = None,
    progress: Callable[[int], None] | None = None,
    log: "str | os.PathLike[str] | None" = None,
    sides: bool = False,
) -> dict[str, Any]:
    """Play ``agents`` against each other in ``game``; return the arena report (see module docs).

    With ``sides``, each agent plays every seat of one side at a time (see
    :func:`lineups`): one agent per side (``State.roles()``).

    With ``log``, finished games are appended to that JSON-lines file and
    games already in it are not played again (see "Resuming" above).

    With ``field``, every agent plays each seat against copies of the field
    agent (see :func:`lineups`); an agent's score is then its own seat's.

    The report is JSON-safe: ``{"game", "variant", "players", "seed", "games",
    "deals", "lineups", "seconds", "agents": [{"agent", "games", "wins",
    "win_rate", "ci_low", "ci_high", "rating", "sigma", "ordinal"}, ...]}``,
    agents sorted by rating.  Results do not depend on ``jobs``.
    """
    from boardlab.agents import check_spec

    agents = list(agents)
    if len(set(agents)) != len(agents):
        raise ValueError("each agent may be named only once (add a parameter to tell copies apart)")
    for spec in [*agents, *([field] if field else [])]:
        check_spec(spec, game)
    if games < 1:
        raise ValueError("games must be at least 1")
    roles = game.new_state(seed).roles() if sides else None
    table = lineups(agents, game.players, field, roles)
    deals = -(-games // len(table))
    seeds = [game_seed(seed, i) for i in range(deals)]
    tasks = [(i * len(table) + j, lineup, s) for i, s in enumerate(seeds) for j, lineup in enumerate(table)]
    lineup_of = {order: lineup for order, lineup, _ in tasks}
    config = game.config()
    t0 = time.perf_counter()
    results: list[tuple[int, GameRecord]] = []
    sink = None
    if log is not None:
        header = {"arena": 1, "config": config, "agents": agents, "field": field, "sides": sides, "seed": seed,
                  "lineups": [list(lu) for lu in table]}
        done = read_log(log, header)
        for order, record in done.items():
            if order in lineup_of:
                results.append((order, record))
                if progress:
                    progress(1)
        tasks = [t for t in tasks if t[0] not in done]
        sink = _open_log(log, header)

    def keep(chunk: list[tuple[int, GameRecord]]) -> None:
        results.extend(chunk)
        if sink is not None:  # whole lines, appended with O_APPEND and fsynced (a kill never leaves half a game)
            lines = []
            for order, record in chunk:
                line = record.to_json()
                del line["actions"], line["metrics"]
                lines.append(json.dumps({"order": order, **line}))
            append_lines(sink, lines, "arena log", error=SaveFileError)
        if progress:
            progress(len(chunk))

    _run_tasks(config, tasks, jobs, keep)
    results.sort(key=lambda x: x[0])
    players = game.players
    report = rate(agents, [(lineup_of[o], r, (o % len(table)) % players) for o, r in results], field)
    report.update({
        "game": game.id,
        "variant": game.variant,
        "players": game.players,
        "options": dict(game.overrides),
        "seed": seed,
        "games": len(results),
        "deals": deals,
        "lineups": [list(lu) for lu in table],
        "field": field,
        "sides": sides,
        "truncated": sum(1 for _, r in results if r.truncated),
        "seconds": round(time.perf_counter() - t0, 3),
        "engines": _engines(game, table),
    })
    return report


def _engines(game: "Game", table: Sequence[Sequence[str]]) -> dict[str, int]:
    """How many of the lineups each engine plays (``{"core": 2, "python": 1}``): the report says which ran."""
    from boardlab.engine.core import choose

    out: dict[str, int] = {}
    for lineup in table:
        name = choose(game, lineup).engine
        out[name] = out.get(name, 0) + 1
    return out


def _run_tasks(config: dict[str, Any], tasks: list, jobs: int,
               keep: Callable[[list[tuple[int, GameRecord]]], None]) -> None:
    """Play ``tasks``, handing each finished chunk of games to ``keep``."""
    if jobs <= 1 or len(tasks) <= 1:
        for t in tasks:
            keep(_play_tasks((config, [t])))
        return
    from .runner import worker_pool

    size = max(1, min(8, len(tasks) // (jobs * 4) or 1))
    chunks = [(config, tasks[i : i + size]) for i in range(0, len(tasks), size)]
    with worker_pool(jobs) as pool:  # stopped within a second of SIGINT/SIGTERM; dies with a killed parent
        for chunk in pool.imap_unordered(_play_tasks, chunks):
            keep(chunk)


def read_log(path: "str | os.PathLike[str]", header: dict[str, Any]) -> dict[int, GameRecord]:
    """The games already recorded in an arena log, by task order (empty if the file does not exist).

    Raises :class:`~boardlab.engine.errors.SaveFileError` if the file belongs to a different arena or is not
    an arena log.  A last line cut short (a run killed while writing) is ignored.
    """
    if not os.path.exists(path):
        return {}
    from boardlab.engine.files import read_text  # the one bounded reader of user files (issue 31)

    lines = read_text(path, "arena log", error=SaveFileError, limit=1 << 30).split("\n")
    if not lines or not lines[0].strip():
        return {}
    try:
        first = json.loads(lines[0])
    except ValueError:
        raise SaveFileError(f"{os.fspath(path)} is not an arena log (its first line is not JSON)") from None
    if not isinstance(first, dict) or first.get("arena") != 1:
        raise SaveFileError(f"{os.fspath(path)} is not an arena log (no arena header)")
    if first != json.loads(json.dumps(header)):
        differ = sorted(k for k in header if first.get(k) != json.loads(json.dumps(header[k])))
        raise SaveFileError(f"{os.fspath(path)} was written by a different arena (it differs in: {', '.join(differ)})")
    done: dict[int, GameRecord] = {}
    for n, text in enumerate(lines[1:], start=2):
        if not text.strip():
            continue
        try:
            row = json.loads(text)
            order = int(row["order"])
            done[order] = GameRecord(
                seed=int(row["seed"]), scores=tuple(float(x) for x in row["scores"]),
                winners=tuple(int(x) for x in row["winners"]), truncated=bool(row["truncated"]),
                reason=str(row["reason"]), turns=int(row["turns"]), decisions=int(row["decisions"]),
                roles=tuple(str(x) for x in row["roles"]))
        except (ValueError, KeyError, TypeError, OverflowError):  # (OverflowError: int() of Infinity)
            if n == len(lines) or (n == len(lines) - 1 and not lines[-1].strip()):
                continue  # the last line was cut short
            raise SaveFileError(f"{os.fspath(path)} line {n} is not a game record") from None
    return done


def _open_log(path: "str | os.PathLike[str]", header: dict[str, Any]) -> "str | os.PathLike[str]":
    """Make ``path`` ready for appending games (see :func:`~boardlab.engine.files.append_lines`): a last line cut
    short is dropped, so appended games start on their own line; a new log gets its header line."""
    if os.path.exists(path) and os.path.getsize(path) > 0:
        with open(path, "rb+") as g:
            data = g.read()
            if not data.endswith(b"\n"):
                g.truncate(data.rfind(b"\n") + 1)
                os.fsync(g.fileno())
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        append_lines(path, [json.dumps(header)], "arena log", error=SaveFileError)
    return path


def rate(agents: Sequence[str], played: Sequence[tuple[Any, ...]], field: str | None = None) -> dict[str, Any]:
    """Win rates, Wilson intervals and OpenSkill ratings from played games (in order).

    ``played`` holds ``(lineup, record)`` pairs, or with a ``field`` agent
    ``(lineup, record, seat)`` where ``seat`` is the tested agent's; the
    field's other seats are then rated as one more player named
    ``field:<spec>`` (not reported).
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    everyone = [*agents, *([f"field:{field}"] if field is not None else [])]
    ratings = {a: model.rating(name=a) for a in everyone}
    count = {a: 0 for a in everyone}
    wins = {a: 0.0 for a in everyone}
    pairs: dict[tuple[str, str], list[float]] = {}
    seats: dict[str, dict[int, list[float]]] = {a: {} for a in everyone}
    for item in played:
        lineup, record = item[0], item[1]
        if field is not None:
            solo = item[2]  # the seat of the agent under test
            others = [record.scores[i] for i in range(len(lineup)) if i != solo] or [0.0]
            per_agent = {lineup[solo]: record.scores[solo], f"field:{field}": sum(others) / len(others)}
            cell = seats[lineup[solo]].setdefault(solo, [0, 0.0])
            cell[0] += 1
            cell[1] += record.scores[solo]
        else:
            per_agent = agent_scores(lineup, record.scores)
        names = sorted(per_agent, key=everyone.index)
        if field is None:
            for i, a in enumerate(names):
                for b in names[i + 1 :]:
                    h = pairs.setdefault((a, b), [0, 0.0])
                    h[0] += 1
                    h[1] += 1.0 if per_agent[a] > per_agent[b] else 0.5 if per_agent[a] == per_agent[b] else 0.0
        for a in names:
            count[a] += 1
            wins[a] += per_agent[a]
        if len(names) < 2:
            continue
        teams = [[ratings[a]] for a in names]
        new = model.rate(teams, scores=[per_agent[a] for a in names])
        for a, team in zip(names, new):
            ratings[a] = team[0]
    rows = []
    for a in agents:
        n = count[a]
        lo, hi = wilson(wins[a], n)
        r = ratings[a]
        rows.append({
            "agent": a,
            "games": n,
            "wins": round(wins[a], 3),
            "win_rate": round(wins[a] / n, 4) if n else 0.0,
            "ci_low": round(lo, 4),
            "ci_high": round(hi, 4),
            "rating": round(r.mu, 3),
            "sigma": round(r.sigma, 3),
            "ordinal": round(r.ordinal(), 3),
        })
        if field is not None:  # per seat (role): in team games only some seats are decided by the agent alone
            rows[-1]["by_seat"] = [
                {"seat": s, "games": c[0], "win_rate": round(c[1] / c[0], 4)} for s, c in sorted(seats[a].items())
            ]
    rows.sort(key=lambda row: (-row["rating"], agents.index(row["agent"])))
    head = []
    for (a, b), (n, score) in pairs.items():
        lo, hi = wilson(score, n)
        head.append({"agent": a, "opponent": b, "games": n, "score": round(score / n, 4),
                     "ci_low": round(lo, 4), "ci_high": round(hi, 4)})
    return {"agents": rows, "head_to_head": head}


def with_budget(spec: str, budget: int) -> str:
    """``spec`` with its ``iterations`` parameter set to ``budget``."""
    name, *parts = spec.split(":")
    parts = [p for p in parts if not p.startswith("iterations=")]
    return ":".join([name, *parts, f"iterations={budget}"])


def ladder(
    game: "Game",
    base: str,
    budgets: Sequence[int],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    *,
    field: str | None = None,
    progress: Callable[[int], None] | None = None,
    log: "str | os.PathLike[str] | None" = None,
    sides: bool = False,
) -> dict[str, Any]:
    """The skill ladder: ``base`` at each of ``budgets`` iterations, played against each other.

    Adds ``"ladder": [{"budget", "agent", "win_rate", "ci_low", "ci_high", "rating"}, ...]``
    in budget order.  A steep ladder means thinking pays (a game of skill);
    a flat one means luck dominates.
    """
    if len(budgets) < 2:
        raise ValueError("a ladder needs at least two budgets")
    if any(isinstance(b, bool) or not isinstance(b, int) or b < 1 for b in budgets):
        raise ValueError("budgets must be whole numbers >= 1")
    specs = [with_budget(base, b) for b in budgets]
    report = run_arena(game, specs, games, seed, jobs, field=field, progress=progress, log=log, sides=sides)
    by_spec = {row["agent"]: row for row in report["agents"]}
    report["ladder"] = [
        {"budget": b, **{k: by_spec[s][k] for k in ("agent", "win_rate", "ci_low", "ci_high", "rating")}}
        for b, s in zip(budgets, specs)
    ]
    return report


def format_report(report: dict[str, Any]) -> str:
    """The arena report as a plain-text table."""
    lines = [
        f"{report['game']} ({report['variant']}, {report['players']} players): "
        f"{report['games']} games, {report['deals']} deals x {len(report['lineups'])} seatings, "
        f"{report['seconds']:.1f} s" + (f"; each agent alone against {report['field']}" if report.get("field") else ""),
        f"{'agent':<36} {'games':>6} {'win rate':>9} {'95% CI':>15} {'rating':>8} {'sigma':>6}",
    ]
    for row in report["agents"]:
        ci = f"{row['ci_low']:.3f}-{row['ci_high']:.3f}"
        lines.append(
            f"{row['agent']:<36} {row['games']:>6} {row['win_rate']:>9.3f} {ci:>15} {row['rating']:>8.2f} {row['sigma']:>6.2f}"
        )
    if report.get("head_to_head") and len(report["agents"]) > 2:
        lines.append("head to head (score of the first against the second; a draw counts half):")
        for h in report["head_to_head"]:
            lines.append(f"  {h['agent']} vs {h['opponent']}: {h['score']:.3f} [{h['ci_low']:.3f}, {h['ci_high']:.3f}] in {h['games']} games")
    if report.get("field"):
        for row in report["agents"]:
            cells = ", ".join(f"seat {c['seat']} {c['win_rate']:.2f}" for c in row.get("by_seat", []))
            lines.append(f"  {row['agent']} by seat: {cells}")
    if report.get("truncated"):
        lines.append(f"{report['truncated']} games were stopped by the turn cap (scored as no win).")
    if report.get("engines"):
        names = {"core": "the compiled core", "python": "the Python rules"}
        lines.append("engine: " + ", ".join(f"{names.get(k, k)} for {v} of {len(report['lineups'])} seatings"
                                            for k, v in sorted(report["engines"].items())))
    if "ladder" in report:
        lines.append("ladder (budget -> win rate):")
        for row in report["ladder"]:
            lines.append(f"  {row['budget']:>6}  {row['win_rate']:.3f} [{row['ci_low']:.3f}, {row['ci_high']:.3f}]  rating {row['rating']:.2f}")
    return "\n".join(lines)
