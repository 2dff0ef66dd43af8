"""Verdict speed (issue 21): how long a 1,000-game playtest between given agents takes here.

    python benchmarks/bench_verdict.py GAME [--games N] [--agents SPEC] [--jobs 2] [--seed S] [--json]
    python benchmarks/bench_verdict.py GAME --profile K [--profile-agent SPEC]

Timing mode plays ``--games`` games exactly as ``boardlab simulate GAME --agents SPEC --jobs J``
does: the same configured game (``runner.configured_game``), the same ``runner.play_game`` per game,
the same seeds (game *i* uses ``game_seed(seed, i)``), the garbage-collector tuning, and ``J``
forked worker processes.  The only difference is that each worker also reads its own CPU clock
around every game, so the report has a per-game CPU time with a 95% interval.

It prints two figures for 1,000 games, both **extrapolated** from the ``--games`` played:

* ``extrapolated_1000_wall_s`` = 1000 / (measured games per wall second): what this machine, with
  whatever else it was running at the time, would take.
* ``extrapolated_1000_quiet_s`` = 1000 x (mean CPU seconds per game) / jobs, with a 95% interval:
  what a quiet machine with ``jobs`` free cores would take (perfect parallel split assumed; the
  lab's measured 2-job efficiency is about 0.95-1.0, see docs/benchmarks.md).

Caveat: the default ``ismcts`` budget is 200 iterations **or** 2 seconds per decision, whichever
ends first.  On a loaded machine some decisions hit the 2 s cap and run fewer iterations, so the
wall figure understates what the same agent costs at full strength; use
``--agents ismcts:iterations=200`` for a load-independent budget.

Profile mode (``--profile K``) plays one heuristic game from ``--seed`` and, at ``K`` choice points
spread over it (at 1/(K+1), 2/(K+1), ... of the game's decisions), profiles one search decision
with cProfile (agent ``--profile-agent``, default ``ismcts:iterations=200``: the default budget
without its 2 s cap, which cProfile's own overhead would otherwise trigger).  It reports where the
search loop's time goes, as shares of the search:

* by what the search loop calls (inclusive times of each call edge out of ``SearchAgent.search``):
  rules transitions (``apply``), legal actions (``legal_actions``, also via ``Decision``), clone,
  determinize (``Decision.sample`` / ``State.determinize``), the heuristic playout policy (its
  ``act``, including whatever it calls), evaluation (fitted or hand-written, and ``results``),
  and the rest (the search's own bookkeeping: selection, UCB, node updates, Rng);
* inside the heuristic playout policy, the same split one level down;
* by self time, per source file (sums to 100% of the profile; C builtins apart).

cProfile adds a fixed cost per Python call, so it inflates code made of many tiny calls; read
the shares as +-10 points, not as exact figures.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import math
import os
import pstats
import statistics
import sys
import time
from typing import Any

from boardlab.agents import Decision, make_agent
from boardlab.cli.common import make_game, parse_agents
from boardlab.agents import runner
from boardlab.agents.runner import game_seed, tune_gc_for_simulation

TARGET_GAMES = 1000


# -- timing ------------------------------------------------------------------------------------


def _timed_game(args: tuple[dict[str, Any], list[str], int]) -> tuple[int, float, float, int, str]:
    """Play one game as ``boardlab simulate`` does; return (seed, CPU s, wall s, decisions, outcome)."""
    config, specs, seed = args
    game = runner.configured_game(config)
    c0, w0 = time.process_time(), time.perf_counter()
    _, record = runner.play_game(game, specs, seed)
    outcome = json.dumps([record.scores, record.winners, record.turns, record.decisions, record.reason])
    return seed, time.process_time() - c0, time.perf_counter() - w0, record.decisions, outcome


def t_interval(xs: list[float]) -> tuple[float, float, float]:
    """Mean and two-sided 95% Student-t interval of ``xs`` (lower end clamped at 0)."""
    from scipy import stats

    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, float("nan"), float("nan")
    half = stats.t.ppf(0.975, len(xs) - 1) * statistics.stdev(xs) / math.sqrt(len(xs))
    return m, max(0.0, m - half), m + half  # a time is never negative


def measure(game_id: str, games: int, agents: str | None, jobs: int, seed: int) -> dict[str, Any]:
    game = make_game(game_id, None, None)
    specs = parse_agents(agents, game)
    tune_gc_for_simulation()
    config = game.config()
    work = [(config, specs, game_seed(seed, i)) for i in range(games)]
    t0 = time.perf_counter()
    if jobs <= 1:
        rows = [_timed_game(w) for w in work]
    else:
        import multiprocessing as mp

        ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
        with ctx.Pool(jobs) as pool:
            rows = list(pool.imap_unordered(_timed_game, work))
    wall = time.perf_counter() - t0
    cpu = [r[1] for r in rows]
    decisions = sum(r[3] for r in rows)
    m, lo, hi = t_interval(cpu)
    gps = games / wall
    import hashlib

    # Same seeds and agents give the same games: the fingerprint shows a speed change kept every outcome
    # (meaningful with an iteration budget only; a time budget depends on the machine's speed).
    fingerprint = hashlib.sha256(json.dumps(sorted((r[0], r[4]) for r in rows)).encode()).hexdigest()[:16]
    return {
        "game": game.id,
        "agents": ",".join(specs),
        "games": games,
        "jobs": jobs,
        "seed": seed,
        "wall_s": wall,
        "games_per_s": gps,
        "cpu_s_per_game": m,
        "cpu_s_per_game_95ci": [lo, hi],
        "decisions_per_game": decisions / games,
        "decisions_per_cpu_s": decisions / sum(cpu),
        "extrapolated_from_games": games,
        "extrapolated_1000_wall_s": TARGET_GAMES / gps,
        "extrapolated_1000_quiet_s": TARGET_GAMES * m / jobs,
        "extrapolated_1000_quiet_s_95ci": [TARGET_GAMES * lo / jobs, TARGET_GAMES * hi / jobs],
        "load_average_1min_before_after": None,
        "nproc": os.cpu_count(),
        "outcome_fingerprint": fingerprint,
    }


# -- profiling ---------------------------------------------------------------------------------

#: Call-edge categories: (category, predicate on (file, function name)).
def _sampler_line() -> int:
    """The line of ISMCTS's determinizing lambda (``lambda: decision.sample(rng)``) in agents/mcts.py."""
    import inspect

    from boardlab.agents.mcts import ISMCTSAgent

    lines, first = inspect.getsourcelines(ISMCTSAgent._root_sampler)
    return first + next(i for i, line in enumerate(lines) if "lambda" in line)


SAMPLER_LINE = _sampler_line()

CATEGORIES: list[tuple[str, Any]] = [
    ("rules transitions (apply)", lambda f, n: n in ("apply", "_apply")),
    ("legal actions / current seat", lambda f, n: n in ("legal_actions", "_legal_actions", "current_seat")),
    ("clone", lambda f, n: n in ("clone", "_clone")),
    ("determinize", lambda f, n: n in ("determinize", "_determinize", "sample")),
    ("seat view (for the heuristic)", lambda f, n: n in ("view", "_view")),
    ("heuristic playout policy", lambda f, n: n in ("act", "ranked") and "/games/" in f),
    ("evaluation", lambda f, n: n in ("results", "evaluate", "values", "features", "roles", "<lambda>")
     and ("evaluation" in f or "/games/" in f or "state.py" in f or "mcts.py" in f)),
]


def _category(func: tuple[str, int, str]) -> str | None:
    f, line, n = func
    if n == "<lambda>" and f.endswith("agents/mcts.py") and line == SAMPLER_LINE:
        return "determinize"
    if n == "__init__" and f.endswith("engine/agent.py"):
        return "legal actions / current seat"  # Decision(state, seat) = current_seat() + legal_actions()
    for name, pred in CATEGORIES:
        if pred(f, n):
            return name
    if f.endswith("engine/rng.py"):
        return "random numbers (Rng)"
    if f.endswith("agents/mcts.py"):
        return "search bookkeeping (own code)"  # UCB selection, playout variety
    if "/games/" in f:
        return "rules queries (other game functions)"
    return None


def _edge_split(st: pstats.Stats, inside: Any, own: str) -> tuple[dict[str, float], float, dict[str, float]]:
    """Where the time of a group of functions (``inside``) goes, by category.

    The group's total is the inclusive time of every call edge entering it from outside; every
    edge leaving it to a Python function outside is put in a category (C builtins count as the
    group's own code); the rest is the group's own code.  Returns the split, the total and the
    uncategorised callees (for checking the categories).
    """
    raw = st.stats  # type: ignore[attr-defined]
    total = 0.0
    out: dict[str, float] = {}
    unknown: dict[str, float] = {}
    for callee, (_cc, _nc, _tt, _ct, callers) in raw.items():
        for caller, edge in callers.items():
            if inside(callee) and not inside(caller):
                total += edge[3]
            elif inside(caller) and not inside(callee) and callee[0] != "~":
                cat = _category(callee)
                if cat is None:
                    cat = "other calls"
                    name = f"{os.path.basename(callee[0])}:{callee[2]}"
                    unknown[name] = unknown.get(name, 0.0) + edge[3]
                out[cat] = out.get(cat, 0.0) + edge[3]
    out[own] = total - sum(out.values())
    return out, total, unknown


def _file_split(st: pstats.Stats) -> dict[str, float]:
    raw = st.stats  # type: ignore[attr-defined]
    out: dict[str, float] = {}
    for (f, _, n), v in raw.items():
        if f == "~":
            key = "C builtins (" + ("list/dict/len/..." if n else "?") + ")"
        else:
            parts = f.replace("\\", "/").split("/boardlab/")
            key = "boardlab/" + parts[-1] if len(parts) > 1 else os.path.basename(f)
        out[key] = out.get(key, 0.0) + v[2]
    return out


def _function_split(st: pstats.Stats) -> dict[str, float]:
    raw = st.stats  # type: ignore[attr-defined]
    return {f"{os.path.basename(f)}:{line}({n})": v[2] for (f, line, n), v in raw.items()}


def choice_states(game: Any, seed: int, k: int) -> list[tuple[Any, int]]:
    """States (clones) at ``k`` choice points spread over one heuristic game from ``seed``."""
    specs = parse_agents(None, game)
    agents = [make_agent(s, game, i, seed + i) for i, s in enumerate(specs)]
    state = game.new_state(seed)
    points: list[tuple[Any, int]] = []
    while (seat := state.current_seat()) is not None:
        d = Decision(state, seat)
        if len(d.legal) > 1:
            points.append((state.clone(), seat))
        state.apply(agents[seat].act(d))
    if not points:
        return []
    return [points[(len(points) * (j + 1)) // (k + 1)] for j in range(k)]


def profile(game_id: str, k: int, spec: str, seed: int) -> dict[str, Any]:
    game = make_game(game_id, None, None)
    game.record_events = False
    tune_gc_for_simulation()
    prof = cProfile.Profile()
    iters = 0
    wall = 0.0
    for state, seat in choice_states(game, seed, k):
        agent = make_agent(spec, game, seat, seed)
        d = Decision(state, seat)
        prof.enable()
        agent.act(d)
        prof.disable()
        iters += agent.last_iterations
        wall += agent.last_seconds
    st = pstats.Stats(prof)
    is_search = lambda fn: fn[2] == "search" and fn[0].endswith("agents/mcts.py")  # noqa: E731
    policy_file = f"/games/{game.id.replace('-', '_')}/agents.py"
    is_policy = lambda fn: fn[0].endswith(policy_file)  # noqa: E731
    search, search_total, unknown = _edge_split(st, is_search, "search bookkeeping (own code)")
    policy, policy_total, unknown2 = _edge_split(st, is_policy, "heuristic's own code")
    for key, v in unknown2.items():
        unknown[key] = unknown.get(key, 0.0) + v
    # Combined: the policy's share of the search replaced by its own split.
    combined = dict(search)
    share = combined.pop("heuristic playout policy", 0.0)
    if policy_total:
        for key, v in policy.items():
            combined[key] = combined.get(key, 0.0) + share * v / policy_total
    files = _file_split(st)
    all_total = sum(files.values())

    def pct(d: dict[str, float], t: float, n: int = 99) -> dict[str, float]:
        return {key: round(100 * v / t, 1) for key, v in sorted(d.items(), key=lambda kv: -kv[1])[:n]} if t else {}

    return {
        "game": game.id,
        "agent": spec,
        "decisions_profiled": k,
        "iterations": iters,
        "search_s_under_cprofile": wall,
        "where_the_time_goes_pct": pct(combined, search_total),
        "search_loop_calls_pct": pct(search, search_total),
        "inside_heuristic_policy_pct": pct(policy, policy_total),
        "uncategorised_calls_pct_of_search": pct(unknown, search_total, 6),
        "self_time_by_file_pct": pct(files, all_total, 10),
        "self_time_top_functions_pct": pct(_function_split(st), all_total, 8),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=8, help="games to play (the 1,000-game figure is extrapolated)")
    parser.add_argument("--agents", default="ismcts", help="agent spec(s), as for boardlab simulate (default ismcts)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--profile", type=int, default=0, metavar="K", help="profile K search decisions instead")
    parser.add_argument("--profile-agent", default="ismcts:iterations=200")
    args = parser.parse_args(argv)
    if args.games < 1 or args.jobs < 1 or args.profile < 0:
        parser.error("--games and --jobs must be >= 1, --profile >= 0")
    from boardlab.engine.errors import BoardlabError

    try:
        if args.profile:
            out = profile(args.game, args.profile, args.profile_agent, args.seed)
        else:
            before = os.getloadavg()[0]
            out = measure(args.game, args.games, args.agents, args.jobs, args.seed)
            out["load_average_1min_before_after"] = [before, os.getloadavg()[0]]
    except BoardlabError as exc:  # unknown game, agent or parameter: one line, exit code 2
        parser.exit(2, f"bench_verdict.py: error: {exc}\n")
    if args.json:
        print(json.dumps(out))
    else:
        for key, v in out.items():
            if isinstance(v, dict):
                print(f"{key}:")
                for k2, v2 in v.items():
                    print(f"    {k2:40s} {v2}")
            elif isinstance(v, float):
                print(f"{key:32s} {v:.3f}")
            else:
                print(f"{key:32s} {v}")
        if not args.profile:
            print(f"(1,000-game figures are extrapolated from {out['games']} games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
