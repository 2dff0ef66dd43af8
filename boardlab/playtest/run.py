"""``boardlab playtest``: run many games into a run folder, then report.

>>> from boardlab.playtest.run import plan_run  # doctest: +SKIP
"""

from __future__ import annotations

import platform
import time
from pathlib import Path
from typing import Any, Callable, Sequence

from boardlab.agents import check_spec
from boardlab.engine.errors import BoardlabError, InvalidOptionError
from boardlab.engine.registry import make

from .metrics import summary
from .simulate import RunConfig, default_jobs, iter_missing, run_local, run_ray
from .store import RunDir

BACKENDS = ("local", "ray")


def plan_run(
    game_id: str,
    *,
    games: int,
    players: int | None = None,
    variant: str | None = None,
    options: dict[str, Any] | None = None,
    agents: Sequence[str] | None = None,
    seed: int = 0,
    restrict: dict[int, Any] | None = None,
) -> RunConfig:
    """Check every argument and build the run's configuration (raises BoardlabError on bad input)."""
    if games < 1:
        raise InvalidOptionError(f"--games must be at least 1, got {games}")
    game = make(game_id, players=players, variant=variant, options=options or {})
    specs = seat_specs(game, agents)
    for seat in (restrict or {}):
        if not 0 <= seat < game.players:
            raise InvalidOptionError(f"restricted seat {seat} is not a seat of a {game.players}-player game")
    from .tags import check_tags

    checked: dict[int, list[str]] = {}
    for seat, tags in (restrict or {}).items():
        for tag in check_tags(game, [tags] if isinstance(tags, str) else list(tags)):
            if tag not in checked.setdefault(seat, []):
                checked[seat].append(tag)
    cfg = game.config()
    return RunConfig(
        game=game.id,
        players=game.players,
        variant=cfg["variant"],
        options=cfg["options"],
        agents=tuple(specs),
        games=games,
        seed=seed,
        restrict=checked,
    )


def seat_specs(game: Any, agents: Sequence[str] | None) -> list[str]:
    """One checked agent spec per seat: ``agents`` names one per seat or one for all (default: heuristic, else random)."""
    specs = list(agents or ["heuristic" if "heuristic" in getattr(game, "agents", {}) else "random"])
    if len(specs) == 1:
        specs = specs * game.players
    if len(specs) != game.players:
        raise InvalidOptionError(f"--agents needs 1 or {game.players} agent specs, got {len(specs)}")
    for spec in specs:
        check_spec(spec, game)
    return specs


def annotate(result: dict[str, Any], rows: Sequence[dict[str, Any]], config: RunConfig) -> dict[str, Any]:
    """Add ``usage_kinds`` (choice or event per key) and the plain-words ``verdict`` to a summary."""
    from .tags import game_tags
    from .verdict import classify_keys, verdict

    content: Sequence[str] = ()
    try:
        game = make(config.game, players=config.players, variant=config.variant, options=config.options)
        tags: Sequence[str] | None = game_tags(game)
        content = tuple(type(game).content_kinds)  # drawn content a designer can remove: without:KIND:NAME
    except BoardlabError:  # e.g. a variant file that has moved: no tag list, no classification
        tags = None
    kinds = classify_keys([u["key"] for u in result["usage"]], tags, content) if tags is not None else {}
    result["usage_kinds"] = kinds
    result["verdict"] = verdict(result, rows, config.players, kinds, variant=config.variant)
    for seat, tags in sorted((config.restrict or {}).items()):
        result["verdict"].append(
            f"Restricted play: seat {seat} never took {', '.join(tags)}. Its effect is this run against an unrestricted run "
            f"on the same seeds: boardlab compare UNRESTRICTED_RUN THIS_RUN (paired, with intervals).")
    return result


def engine_for(config: RunConfig) -> dict[str, Any]:
    """Which engine plays ``config`` here (:func:`boardlab.engine.core.choose`), for the manifest and the report.

    Raises :class:`~boardlab.engine.core.EngineUnavailable` when ``BOARDLAB_ENGINE`` (``--engine``) asks for
    the core and the core cannot play this run.
    """
    from boardlab.engine.core import choose

    game = make(config.game, players=config.players, variant=config.variant, options=config.options)
    return choose(game, config.agents, restricted=bool(config.restrict)).to_json()


def manifest_for(config: RunConfig, backend: str, jobs: int) -> dict[str, Any]:
    import boardlab

    return {
        "boardlab_version": boardlab.__version__,
        "config": config.to_json(),
        "seed_rule": "game i uses derive_seed(seed, i); seat k's agent derive_seed(game_seed, 1000 + k)",
        "backend": backend,
        "jobs": jobs,
        "engine": engine_for(config),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "complete": False,
    }


def execute(
    config: RunConfig,
    out: str | Path,
    *,
    backend: str = "local",
    jobs: int | None = None,
    ray_address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    chunk_size: int = 20,
    stop_after: int | None = None,
    until_ci: float | None = None,
    look_every: int | None = None,
) -> dict[str, Any]:
    """Run (or resume) ``config`` into folder ``out``; returns the metrics summary.

    ``progress(done, total)`` is called after each chunk.  ``stop_after``
    stops after that many new games (used to test resuming).  ``until_ci``
    plays in blocks of ``look_every`` games (default 100) and stops at the first
    look where every seat's (or side's) anytime-valid interval is narrower than it
    (see :mod:`boardlab.playtest.sequential`); ``config.games`` is then the maximum.
    """
    if until_ci is not None and not 0 < until_ci < 1:
        raise InvalidOptionError(f"--until-ci must be a width between 0 and 1 (e.g. 0.1 for 10 points), got {until_ci}")
    if backend not in BACKENDS:
        raise InvalidOptionError(f"unknown backend {backend!r} (backends: {', '.join(BACKENDS)})")
    jobs = jobs or default_jobs()
    engine = engine_for(config)  # before any file is written: --engine core that cannot run exits at once
    run = RunDir(out)
    if run.exists():
        old = run.read_manifest()
        if old.get("config") != config.to_json():
            raise BoardlabError(f"{run.path} holds a different run; choose another --out folder")
        manifest = old
        if old.get("engine") != engine:  # this session's engine (the rows do not depend on it)
            manifest = {**old, "engine": engine}
            run.write_manifest(manifest)
    else:
        manifest = manifest_for(config, backend, jobs)
        run.write_manifest(manifest)
    rows = {r["index"]: r for r in run.read_parts()}
    todo = iter_missing(config.games, rows)
    if stop_after is not None:
        todo = todo[:stop_after]
    total = config.games
    if progress:
        progress(len(rows), total)
    t0 = time.perf_counter()

    def on_chunk(chunk: list[dict[str, Any]]) -> None:
        run.write_part(chunk)
        for r in chunk:
            rows[r["index"]] = r
        if progress:
            progress(len(rows), total)

    def play(indexes: list[int]) -> None:
        if backend == "ray":
            run_ray(config, indexes, jobs, on_chunk, address=ray_address, chunk_size=chunk_size)
        else:
            run_local(config, indexes, jobs, on_chunk, chunk_size=chunk_size)

    seq: dict[str, Any] | None = None
    if until_ci is not None:
        from .sequential import status

        if (manifest.get("sequential") or {}).get("stopped"):
            todo = []  # an earlier session already stopped this run
        step = look_every or 100
        while True:
            prefix = [rows[i] for i in range(len(rows)) if i in rows]
            seq = status(prefix, config.players, until_ci)
            if seq["done"] or not todo:
                break
            block, todo = todo[:step], todo[step:]
            play(block)
        stopped = seq["done"] and len(rows) < config.games
        seq.update({"games_max": config.games, "games_played": len(rows), "games_saved": config.games - len(rows), "stopped": stopped})
        manifest = {**manifest, "sequential": {k: seq[k] for k in ("until_ci", "method", "alpha", "games_played", "games_max", "games_saved", "stopped")}}
        run.write_manifest(manifest)
    elif todo:
        play(todo)
    seconds = time.perf_counter() - t0
    ordered = [rows[i] for i in sorted(rows)]
    result = summary(ordered, config.players)
    if seq is not None:
        result["sequential"] = seq
    annotate(result, ordered, config)
    result["complete"] = len(ordered) == config.games or bool(seq and seq["stopped"])
    if result["complete"]:
        run.finalize(ordered)
        manifest = {**manifest, "complete": True, "seconds_last_session": seconds}
        run.write_manifest(manifest)
        from .report import write_report

        write_report(run.path, manifest, result, ordered)
    return result
