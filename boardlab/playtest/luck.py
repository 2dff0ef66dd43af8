"""Luck against skill (issue 34): how far a stronger agent beats a weaker one, and the dice's share of outcomes.

Two matchups, each on ``games`` games of the run's configuration (the same game, variant, options and player
count), on seeds derived from the run's seed, with the strong agent's seat rotated over every seat (game *i* puts
it in seat ``i % players``) so a seat's advantage cancels:

* ``heuristic-random``: the game's heuristic against ``random``;
* ``search-heuristic``: the search the skill check plays (:data:`boardlab.playtest.skill.STRENGTH`) against the
  heuristic.

With more than two players one seat plays the strong agent and every other seat the weak one. A game scores the
strong seat's **points**: 1 for a win (a shared win too, as in the verdict), an equal share 1/n of a finished game
nobody won, 0 for a loss or a truncated game. When roles are sides shared by several seats (the Labyrinth's heroes),
the strong seat's *side* scores (1/sides for a draw). The rate is points per game with its Wilson 95% interval,
against the fair share 1/n (1/sides).

**Dice share** (heuristic against random): all chance in a game comes from the state's own generator, seeded by
the game seed (``game.new_state(seed)``), while each agent draws from its own generator, seeded separately
(``agent_seed(base, seat)``); so the two sources can be varied apart (common random numbers). To keep the same
chance at the same moment of two games that are played differently, the dice games reseed the state's generator
before every decision from (chance seed, turn, decisions so far in the turn) (:func:`play_one` with ``sync``).
Unit *i* plays three games with the same seating: chance c and agent streams a, the same chance with fresh agent
streams (c, a'), and fresh chance with the same agent streams (c', a). With Y the strong side's points and V the
variance of Y (pooled within seatings, so the seat advantage counts as neither source), the first-order shares of
variance (Sobol's indices, in Jansen's difference form) are

    S_chance    = 1 - mean((Y(c,a) - Y(c,a'))^2) / (2 V)     explained by the chance alone
    S_decisions = 1 - mean((Y(c,a) - Y(c',a))^2) / (2 V)     explained by the agents' own random choices alone

and the rest, 1 - S_chance - S_decisions, is their interaction. The dice share is S_chance; chance takes part in
at most 1 - S_decisions. Intervals: percentile bootstrap over units (resampled within seatings), clipped to [0, 1].
Limits: keyed by turn and step, the dice are the same *at the same moment*, not for the same event (a fight that
happens a turn later in the other game rolls other dice); that part counts as interaction. It is the share in the
*heuristic against random* games; other players' share differs. It is not measurable when an agent draws from the
game's own generator (checked at every decision: the state's generator must not move while an agent decides) or
when the outcome never varies (the heuristic wins every game). A game that declares no chance (``Game.chance``
False) has dice share 0 by construction and plays no dice games.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Callable, Sequence

from boardlab.engine.rng import derive_seed

from .sections import NOT_MEASURED, luck_lines  # noqa: F401  (NOT_MEASURED re-exported)

#: Salt of the luck games' seeds (``derive_seed(run_seed, SALT, matchup, i)``): never a run's own game seed.
SALT = 0x10C4
#: The dice units' matchup number in :func:`seeds` (the score-rate games use 0 and 1).
DICE = 2
#: Bootstrap resamples of the dice share's interval.
BOOT = 2000
#: Seed of the bootstrap.
BOOT_SEED = 34
#: The matchups, in the order reported.
MATCHUPS = ("heuristic-random", "search-heuristic")
#: Bump when the measurement changes, so a saved ``luck.json`` is not reused for another method.
VERSION = 1


# --- playing ---------------------------------------------------------------------------------------------------


def play_one(game: Any, specs: Sequence[str], chance_seed: int, agent_base: int, sync: bool = False) -> dict[str, Any]:
    """Play one game: chance from ``chance_seed`` (the state's generator), seat k's agent from
    ``agent_seed(agent_base, seat)``. With ``agent_base == chance_seed`` and ``sync`` False this is the batch
    runner's game from that seed.

    With ``sync`` the state's generator is reseeded before every decision from ``(chance_seed, turn, step)``, step
    counting the decisions since the turn began: the chance after the k-th decision of turn t is then the same
    in two games with the same chance seed however differently they were played (each reseed starts a fresh
    SplitMix64 stream, so the dice keep their distribution).

    ``touched`` is True when some agent moved the state's own generator while deciding (chance and agent randomness
    are then not separable)."""
    from boardlab.agents import Decision, make_agent
    from boardlab.agents.runner import agent_seed
    from boardlab.engine.rng import Rng

    agents = [make_agent(spec, game, seat, agent_seed(agent_base, seat)) for seat, spec in enumerate(specs)]
    state = game.new_state(chance_seed)
    touched = False
    turn, step = -1, 0
    while True:
        seat = state.current_seat()
        if seat is None:
            break
        if sync:
            if state.turn != turn:
                turn, step = state.turn, 0
            state.rng = Rng(derive_seed(chance_seed, turn, step))
            step += 1
        rng = state.rng
        before = rng.state
        action = agents[seat].act(Decision(state, seat))
        if state.rng is not rng or rng.state != before:
            touched = True
        state.apply(action)
    res = state.results()
    return {"winners": list(res.winners), "roles": list(state.roles()), "truncated": bool(res.truncated), "touched": touched}


def _play_tasks(args: tuple[dict[str, Any], list[tuple[list[str], int, int]]]) -> list[dict[str, Any]]:
    from boardlab.agents.runner import configured_game, tune_gc_for_simulation

    config, tasks = args
    tune_gc_for_simulation()
    game = configured_game(config)
    return [play_one(game, specs, c, a, sync=True) for specs, c, a in tasks]


def _run(config: dict[str, Any], tasks: list[tuple[list[str], int, int]], jobs: int,
         progress: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    """Play ``tasks`` (specs, chance seed, agent base) in order, over ``jobs`` processes; results in task order."""
    size = 1 if jobs > 1 else 8
    chunks = [(config, tasks[i:i + size]) for i in range(0, len(tasks), size)]
    out: list[dict[str, Any]] = []
    if jobs <= 1 or len(chunks) <= 1:
        for ch in chunks:
            out.extend(_play_tasks(ch))
            if progress:
                progress(len(ch[1]))
        return out
    from boardlab.agents.runner import worker_pool

    with worker_pool(jobs) as pool:
        for part in pool.imap(_play_tasks, chunks):
            out.extend(part)
            if progress:
                progress(len(part))
    return out


# --- scoring ---------------------------------------------------------------------------------------------------


def points(result: dict[str, Any], seat: int) -> tuple[float, float]:
    """The strong ``seat``'s points in one game and the fair share: per seat (1/n), or per side (1/sides) when
    roles are shared by several seats."""
    roles = result["roles"]
    n = len(roles)
    if len(set(roles)) < n:  # sides: the strong seat's side scores
        sides = len(set(roles))
        if roles[seat] in {roles[w] for w in result["winners"]}:
            return 1.0, 1.0 / sides
        return (1.0 / sides if not result["winners"] and not result["truncated"] else 0.0), 1.0 / sides
    if seat in result["winners"]:
        return 1.0, 1.0 / n
    return (1.0 / n if not result["winners"] and not result["truncated"] else 0.0), 1.0 / n


def score_rate(ys: Sequence[float], fair: float) -> dict[str, Any]:
    """Points per game with the Wilson 95% interval (points may be fractional: draws)."""
    from boardlab.stats import wilson

    n = len(ys)
    k = float(sum(ys))
    lo, hi = wilson(k, n)
    return {"games": n, "points": k, "rate": k / n if n else 0.0, "ci_low": lo, "ci_high": hi, "fair": fair}


def dice_share(units: Sequence[tuple[int, float, float, float]], boot: int = BOOT, seed: int = BOOT_SEED) -> dict[str, Any]:
    """The variance decomposition of the strong side's points over units ``(seating, Y(c,a), Y(c,a'), Y(c',a))``.

    Returns ``chance`` (first-order share of the chance stream), ``decisions`` (of the agents' streams),
    ``interaction`` and ``chance_total`` (1 - decisions), each an estimate with a percentile bootstrap 95% interval
    (units resampled within seatings), clipped to [0, 1]; ``measurable`` False when the outcome never varied.
    """
    import numpy as np

    groups: dict[int, list[tuple[float, float, float]]] = {}
    for r, y0, yc, ya in units:
        groups.setdefault(r, []).append((y0, yc, ya))
    arrays = [np.array(g, dtype=float) for g in groups.values() if len(g) >= 2]
    if not arrays:
        return {"measurable": False, "reason": "too few games (at least two per seating are needed)", "units": len(units)}

    def shares(samples: list[np.ndarray]) -> np.ndarray:
        """Each sample array has shape (B, m_r, 3); returns (B, 2): S_chance, S_decisions."""
        ss = sum(((s - s.mean(axis=1, keepdims=True)) ** 2).sum(axis=1).mean(axis=-1) for s in samples)  # (B,)
        dof = sum(s.shape[1] - 1 for s in samples)
        var = ss / dof
        m = sum(s.shape[1] for s in samples)
        dc = sum(((s[..., 0] - s[..., 1]) ** 2).sum(axis=1) for s in samples) / m
        da = sum(((s[..., 0] - s[..., 2]) ** 2).sum(axis=1) for s in samples) / m
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.stack([1 - dc / (2 * var), 1 - da / (2 * var)], axis=-1)

    point = shares([a[None] for a in arrays])[0]
    if not np.all(np.isfinite(point)):
        return {"measurable": False, "reason": "the strong side scored the same in every game (no variance to share out)", "units": len(units)}
    gen = np.random.default_rng(seed)
    draws = shares([a[gen.integers(0, len(a), size=(boot, len(a)))] for a in arrays])
    finite = np.all(np.isfinite(draws), axis=1)
    if finite.mean() < 0.975:  # in over 2.5% of resamples the outcome never varies: no 95% interval exists
        ys = np.concatenate([a.ravel() for a in arrays])
        values, counts = np.unique(ys, return_counts=True)
        return {"measurable": False, "units": len(units),
                "reason": f"the strong side's result almost never varied ({len(ys) - counts.max()} of {len(ys)} games "
                          f"differ from the usual result): too little variance to share out"}
    draws = draws[finite]

    def stat(est: float, values: np.ndarray) -> dict[str, float]:
        lo, hi = np.quantile(values, [0.025, 0.975]) if len(values) else (0.0, 1.0)
        clip = lambda x: float(min(1.0, max(0.0, x)))  # noqa: E731
        return {"estimate": clip(est), "ci_low": clip(lo), "ci_high": clip(hi)}

    sc, sa = draws[:, 0], draws[:, 1]
    return {
        "measurable": True,
        "units": len(units),
        "chance": stat(point[0], sc),
        "decisions": stat(point[1], sa),
        "interaction": stat(1 - point[0] - point[1], 1 - sc - sa),
        "chance_total": stat(1 - point[1], 1 - sa),
    }


# --- the measurement -------------------------------------------------------------------------------------------


def seeds(run_seed: int, matchup: int, i: int) -> tuple[int, int, int]:
    """Unit ``i`` of a matchup: its seed u (chance and agents of the base game), a fresh agent base, a fresh chance."""
    u = derive_seed(run_seed, SALT, matchup, i)
    return u, derive_seed(u, 1), derive_seed(u, 2)


def measure(config: Any, games: int, *, jobs: int = 1, search: str | None = None, dice: bool = True,
            search_games: int | None = None, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Luck against skill for ``config`` (a :class:`RunConfig`, or anything with game, players, variant, options, seed).

    ``games`` batch-runner games per matchup; with ``dice``, ``games`` more units of three synchronised
    heuristic-random games for the dice share (none for a game without chance). ``search`` overrides the table's search spec;
    ``search_games`` (default ``games``) is the search matchup's games (0: not played)."""
    from boardlab.engine.registry import make

    from .skill import search_strength

    game = make(config.game, players=config.players, variant=config.variant, options=config.options)
    n = game.players
    cfg = game.config()
    strength = search_strength(game.id, n)
    spec = search or strength["spec"]
    has_heuristic = "heuristic" in getattr(game, "agents", {})
    search_games = games if search_games is None else search_games
    doc: dict[str, Any] = {"version": VERSION, "games": games, "search_games": search_games, "players": n, "seed": config.seed, "search": spec,
                           "search_evidence": strength["evidence"], "chance": bool(game.chance), "matchups": []}
    t0 = time.perf_counter()
    if not has_heuristic:
        doc["reason"] = "the game has no heuristic agent"
        doc["dice"] = {"status": "not measured", "reason": "the game has no heuristic agent"}
        return doc
    pairs = [("heuristic-random", "heuristic", "random"), ("search-heuristic", spec, "heuristic")]
    measure_dice = dice and game.chance
    total = games * (1 + (3 if measure_dice else 0)) + search_games
    done = [0]

    def tick(k: int) -> None:
        done[0] += k
        if progress:
            progress(done[0], total)

    from boardlab.agents.runner import run_batch

    for j, (mid, strong, weak) in enumerate(pairs):
        count_all = games if j == 0 else search_games
        if not count_all:
            doc["matchups"].append({"id": mid, "strong": strong, "weak": weak, "games": 0})
            continue
        # the score rate: ordinary batch-runner games, game i with the strong agent in seat i % n
        base: list[dict[str, Any]] = []
        for seat in range(n):
            count = len(range(seat, count_all, n))
            if not count:
                continue
            specs = [strong if s == seat else weak for s in range(n)]
            recs = run_batch(game, specs, count, seed=derive_seed(config.seed, SALT, j, seat), jobs=jobs,
                             progress=tick)
            base += [{"winners": list(r.winners), "roles": list(r.roles), "truncated": r.truncated, "seat": seat}
                     for r in recs]
        scored = [points(r, r["seat"]) for r in base]
        entry = {"id": mid, "strong": strong, "weak": weak,
                 **score_rate([p for p, _ in scored], scored[0][1] if scored else 1.0 / n),
                 "sides": bool(base and len(set(base[0]["roles"])) < n),
                 "truncated": sum(1 for r in base if r["truncated"])}
        doc["matchups"].append(entry)
        if measure_dice and mid == "heuristic-random":
            doc["dice"] = {"matchup": mid, **_dice(cfg, strong, weak, n, games, config.seed, jobs, tick)}
    if "dice" not in doc:
        doc["dice"] = ({"status": "none", "reason": "the game has no chance (Game.chance is False): 0 by construction"}
                       if not game.chance else {"status": "not measured", "reason": "dice games were not asked for"})
    doc["seconds"] = time.perf_counter() - t0
    return doc


def _dice(cfg: dict[str, Any], strong: str, weak: str, n: int, units: int, run_seed: int, jobs: int,
          tick: Callable[[int], None]) -> dict[str, Any]:
    """The dice share: ``units`` units of three synchronised games (docs/playtest.md "Luck against skill")."""
    tasks = []
    seats = []
    for i in range(units):
        seat = i % n
        specs = [strong if s == seat else weak for s in range(n)]
        u, a2, c2 = seeds(run_seed, DICE, i)
        tasks += [(specs, u, u), (specs, u, a2), (specs, c2, u)]
        seats.append(seat)
    results = _run(cfg, tasks, jobs, tick)
    if any(r["touched"] for r in results):
        return {"status": "not measurable",
                "reason": "an agent draws from the game's own chance generator, so chance and the agents' randomness "
                          "cannot be varied apart"}
    share = dice_share([(seats[i], *(points(results[3 * i + k], seats[i])[0] for k in range(3))) for i in range(units)])
    if not share["measurable"]:
        return {"status": "not measurable", "reason": share["reason"]}
    return {"status": "measured", **share}


# --- the report ------------------------------------------------------------------------------------------------


lines = luck_lines  # the Experience section's luck bullets (formatted in .sections)


def _fresh(doc: dict[str, Any] | None, games: int, search_games: int, seed: int, search: str) -> bool:
    return bool(doc) and doc.get("version") == VERSION and doc.get("games") == games and doc.get("seed") == seed \
        and doc.get("search") == search and doc.get("search_games") == search_games


def run_luck(configs: Sequence[Any], folders: Sequence[Path], results: list[dict[str, Any]], games: int,
             jobs: int | None, quiet: bool, search_games: int | None = None) -> list[dict[str, Any]]:
    """The CLI's ``--luck-games N``: measure every run (saved as ``luck.json``; the same command again reuses it),
    add it to the run's summary (key ``luck``) and rewrite its report."""
    import sys

    from boardlab.engine.errors import BoardlabError
    from boardlab.engine.files import atomic_write

    from .report import write_report
    from .simulate import default_jobs
    from .skill import search_strength
    from .store import RunDir

    if not all(r.get("complete") for r in results):
        raise BoardlabError("--luck-games needs finished runs; run the same command again to finish them first")
    docs = []
    for cfg, folder, res in zip(configs, folders, results):
        path = Path(folder) / "luck.json"
        old = json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
        sg = games if search_games is None else search_games
        if not _fresh(old, games, sg, cfg.seed, search_strength(cfg.game, cfg.players)["spec"]):
            progress = None
            if not quiet and sys.stderr.isatty():
                def progress(done: int, total: int) -> None:
                    print(f"luck against skill: {done} of {total} games", file=sys.stderr, flush=True)
            old = measure(cfg, games, jobs=jobs or default_jobs(), search_games=sg, progress=progress)
            atomic_write(path, json.dumps(old, indent=2, sort_keys=True), "luck summary", error=BoardlabError)
        res["luck"] = old
        run = RunDir(folder)
        write_report(run.path, run.read_manifest(), res, run.read_results())
        docs.append(old)
    return docs
