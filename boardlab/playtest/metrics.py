"""Game-neutral playtest metrics, computed from result rows.

Every function takes plain Python data (lists of per-game dicts as stored in
``results.parquet``) so it can be checked against hand-computed cases.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any, Iterable, Sequence

from boardlab.stats import wilson  # noqa: F401  (re-exported)

Z95 = 1.959963984540054


def rate(successes: float, n: int) -> dict[str, float]:
    """A proportion with its Wilson interval as a dict."""
    lo, hi = wilson(successes, n)
    return {"count": successes, "n": n, "rate": (successes / n) if n else 0.0, "ci_low": lo, "ci_high": hi}


def _drawn(r: dict[str, Any]) -> bool:
    """A draw: a finished game nobody won (a game stopped at the turn cap is no draw)."""
    return not r["winners"] and not r.get("truncated")


def win_rates_by_seat(rows: Sequence[dict[str, Any]], players: int) -> list[dict[str, float]]:
    """Win rate of each seat over all games (a shared win counts for each winner; a draw counts as an equal share,
    ``1/players``: half a point between two players, as in the verdict and compare). ``wins`` and ``draws`` are
    the plain counts.

    >>> [r["rate"] for r in win_rates_by_seat([{"winners": [0]}, {"winners": []}], 2)]
    [0.75, 0.25]
    """
    n = len(rows)
    wins = [0] * players
    draws = sum(1 for r in rows if _drawn(r))
    for r in rows:
        for w in r["winners"]:
            wins[w] += 1
    return [{**rate(wins[s] + draws / players, n), "wins": wins[s], "draws": draws} for s in range(players)]


def win_rates_by_role(rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Win rate of each role or side: games in which some seat of that role won / games in which the role played;
    a draw counts as an equal share for every side that played (``1/sides``)."""
    played: dict[str, int] = defaultdict(int)
    won: dict[str, float] = defaultdict(float)
    for r in rows:
        roles = list(r["roles"])
        for role in set(roles):
            played[role] += 1
            if _drawn(r):
                won[role] += 1 / len(set(roles))
        for role in {roles[w] for w in r["winners"]}:
            won[role] += 1
    return {role: rate(won[role], played[role]) for role in sorted(played)}


def first_player_advantage(rows: Sequence[dict[str, Any]], players: int) -> dict[str, Any]:
    """The win rate of the seat that acted first in each game (a draw an equal share), minus the fair share ``1/players``.

    Rows record ``first_seat`` (who acted first). Rows from older runs without it fall back
    to seat 0, and the result says so (``measures`` is then ``"seat 0"``).
    """
    fair = 1.0 / players if players else 0.0
    known = [r for r in rows if r.get("first_seat") is not None]
    if known and len(known) == len(rows):
        wins = sum(1.0 if r["first_seat"] in r["winners"] else fair if _drawn(r) else 0.0 for r in rows)
        r = rate(wins, len(rows))
        measures = "first to act"
    else:
        r = win_rates_by_seat(rows, players)[0] if players else rate(0, 0)
        measures = "seat 0"
    return {"measures": measures, "first_rate": r["rate"], "seat0_rate": win_rates_by_seat(rows, players)[0]["rate"] if players else 0.0,
            "fair": fair, "advantage": r["rate"] - fair, "ci_low": r["ci_low"] - fair, "ci_high": r["ci_high"] - fair}


def balance(rows: Sequence[dict[str, Any]], players: int) -> float:
    """One minus the largest gap between seats' win rates (1.0 = perfectly balanced).

    >>> balance([{"winners": [0]}, {"winners": [1]}], 2)
    1.0
    >>> balance([{"winners": [0]}, {"winners": [0]}], 2)
    0.0
    """
    rates = [x["rate"] for x in win_rates_by_seat(rows, players)]
    if not rates:
        return 1.0
    return 1.0 - (max(rates) - min(rates))


def completion(rows: Sequence[dict[str, Any]]) -> dict[str, float]:
    """Finished, truncated and no-winner counts and rates."""
    n = len(rows)
    trunc = sum(1 for r in rows if r["truncated"])
    nowin = sum(1 for r in rows if not r["truncated"] and not r["winners"])
    return {
        "games": n,
        "finished": n - trunc,
        "truncated": trunc,
        "truncated_rate": trunc / n if n else 0.0,
        "no_winner": nowin,
    }


def distribution(values: Iterable[float]) -> dict[str, float]:
    """Mean, standard deviation, min, quartiles and max of a list of numbers.

    >>> d = distribution([1, 2, 3, 4])
    >>> d["mean"], d["median"], d["min"], d["max"]
    (2.5, 2.5, 1, 4)
    """
    vals = sorted(values)
    n = len(vals)
    if n == 0:
        return {"n": 0, "mean": 0.0, "sd": 0.0, "min": 0, "q1": 0.0, "median": 0.0, "q3": 0.0, "max": 0}
    mean = sum(vals) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in vals) / (n - 1)) if n > 1 else 0.0
    return {"n": n, "mean": mean, "sd": sd, "min": vals[0], "q1": quantile(vals, 0.25), "median": quantile(vals, 0.5), "q3": quantile(vals, 0.75), "max": vals[-1]}


def quantile(sorted_vals: Sequence[float], q: float) -> float:
    """Linear-interpolation quantile of already sorted values.

    >>> quantile([1, 2, 3, 4], 0.5)
    2.5
    """
    if not sorted_vals:
        return 0.0
    pos = (len(sorted_vals) - 1) * q
    lo = math.floor(pos)
    hi = math.ceil(pos)
    if lo == hi:
        return float(sorted_vals[lo])
    return sorted_vals[lo] + (sorted_vals[hi] - sorted_vals[lo]) * (pos - lo)


def lead_changes(leaders: Sequence[int | None]) -> int:
    """How often the leading seat changes along a game (``None`` = tie, ignored).

    >>> lead_changes([0, 0, None, 1, 1, 0])
    2
    """
    changes = 0
    last = None
    for lead in leaders:
        if lead is None:
            continue
        if last is not None and lead != last:
            changes += 1
        last = lead
    return changes


def decided_at(leaders: Sequence[int | None], winners: Sequence[int]) -> float | None:
    """When the result was settled, as a share of the game's turns: the first turn index ``k``
    from which a winner leads (strictly, by ``State.evaluate`` at the start of every turn) at
    every turn to the end, divided by the number of turns; ``None`` when nobody won.

    0.0: the eventual winner led from the first turn; 1.0: it never led at a turn's start
    (it took the lead with the last decision).

    >>> decided_at([None, 1, 0, 0, 0], [0])
    0.4
    >>> decided_at([0, 0], [0]), decided_at([0, 1], [0]), decided_at([0, 1], [])
    (0.0, 1.0, None)
    """
    if not winners or not leaders:
        return None
    won = set(winners)
    k = len(leaders)
    while k > 0 and leaders[k - 1] in won:
        k -= 1
    return k / len(leaders)


def kingmaking_turns(leaders: Sequence[int | None], lowest_owner: Sequence[int], winners: Sequence[int]) -> int | None:
    """How many turns were opened by a seat that could no longer win and handed the lead to the winner.

    ``leaders[k]`` is the strict leader at the start of turn ``k`` (``None``: a tie) and
    ``lowest_owner[k]`` the seat that opened turn ``k`` if its evaluation was then strictly the
    lowest (``-1`` otherwise). Turn ``k`` counts when its seat did not win, was strictly last,
    no winner led at its start and a winner leads at the start of the next turn (after the last
    turn, the winner by definition). ``None`` when nobody won.

    >>> kingmaking_turns([1, 1, 2, 2], [-1, 0, -1, -1], [2])
    1
    >>> kingmaking_turns([1, 1, 2, 2], [-1, 2, -1, -1], [2])   # the winner's own move is not kingmaking
    0
    """
    if not winners:
        return None
    won = set(winners)
    count = 0
    last = len(leaders) - 1
    for k, owner in enumerate(lowest_owner):
        if owner < 0 or owner in won or leaders[k] in won:
            continue
        if k == last or leaders[k + 1] in won:
            count += 1
    return count


def leader_of(values: Sequence[float], eps: float = 1e-9) -> int | None:
    """The seat with the strictly highest value, or ``None`` on a tie."""
    if not values:
        return None
    best = max(values)
    top = [i for i, v in enumerate(values) if v >= best - eps]
    return top[0] if len(top) == 1 else None


def feature_usage(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """For each per-game metric key (``"card:fireball"``): how often it occurs, and win rates with and without it.

    A seat "uses" a key in a game when its count is positive.  ``win_used`` is
    the win rate of seats that used it, ``win_unused`` of seats that did not
    (over games where the key was recorded), and ``delta`` their difference with
    Newcombe's interval (``delta_ci``) and the p-value that inverts it (:func:`boardlab.stats.diff_test`); ``p_holm``
    and ``significant`` are after Holm's correction across all keys, and ``delta_ci`` is taken at the level of the
    Holm step that decided the key (``alpha``), so a key is significant exactly when its interval excludes zero.

    When only some roles ever use a key (the wizard's cards in the Labyrinth), the
    comparison is made within those roles (``within_roles``): comparing the wizard's
    games with the heroes' would measure the role, not the key.
    """
    from boardlab.stats import diff_ci, diff_test, holm_levels

    users: dict[str, set[str]] = defaultdict(set)
    for r in rows if roles_add_information(rows) else ():
        roles = list(r.get("roles") or [])
        for key, counts in (r.get("metrics") or {}).items():
            for seat, c in enumerate(counts):
                if c > 0:
                    users[key].add(roles[seat] if seat < len(roles) else f"seat {seat}")
    all_roles = {(list(r.get("roles") or [])[s] if s < len(r.get("roles") or []) else f"seat {s}") for r in rows for s in range(len(r.get("roles") or []))}
    stats: dict[str, dict[str, float]] = defaultdict(lambda: {"occurrences": 0, "games": 0, "used": 0, "used_won": 0, "unused": 0, "unused_won": 0})
    for r in rows:
        winners = set(r["winners"])
        roles = list(r.get("roles") or [])
        for key, counts in (r.get("metrics") or {}).items():
            s = stats[key]
            s["games"] += 1 if any(counts) else 0
            s["occurrences"] += sum(counts)
            within = users.get(key) or set()
            for seat, c in enumerate(counts):
                role = roles[seat] if seat < len(roles) else f"seat {seat}"
                if within and role not in within:
                    continue
                won = seat in winners
                if c > 0:
                    s["used"] += 1
                    s["used_won"] += won
                else:
                    s["unused"] += 1
                    s["unused_won"] += won
    out = []
    for key in sorted(stats):
        s = stats[key]
        used = rate(s["used_won"], int(s["used"]))
        unused = rate(s["unused_won"], int(s["unused"]))
        both = bool(s["used"] and s["unused"])
        within = sorted(users.get(key) or ())
        out.append({
            "key": key,
            "occurrences": s["occurrences"],
            "games_with": s["games"],
            "seat_games_used": int(s["used"]),
            "win_used": used["rate"],
            "win_used_ci": [used["ci_low"], used["ci_high"]],
            "win_unused": unused["rate"],
            "win_unused_ci": [unused["ci_low"], unused["ci_high"]],
            "delta": used["rate"] - unused["rate"] if both else None,
            "delta_ci": list(diff_ci(s["used_won"], int(s["used"]), s["unused_won"], int(s["unused"]))) if both else None,
            "p_value": diff_test(s["used_won"], int(s["used"]), s["unused_won"], int(s["unused"]))[0] if both else None,
            "counts": [s["used_won"], int(s["used"]), s["unused_won"], int(s["unused"])],
            "within_roles": within if within and set(within) != all_roles and len(all_roles) > 1 else None,
        })
    tested = [u for u in out if u["p_value"] is not None]
    reject, adjusted, levels = holm_levels([u["p_value"] for u in tested])
    counts = {u["key"]: u.pop("counts") for u in out}
    for u in out:
        u["p_holm"], u["significant"], u["alpha"] = None, False, 0.05
    for u, rej, p, level in zip(tested, reject, adjusted, levels):
        # one procedure: the p-value inverts Newcombe's interval, and the interval is taken at the key's Holm level,
        # so a key is significant exactly when its printed interval excludes zero
        u["p_holm"], u["significant"], u["alpha"] = p, rej, level
        u["delta_ci"] = list(diff_ci(*counts[u["key"]], alpha=level))
    return out


def roles_add_information(rows: Sequence[dict[str, Any]]) -> bool:
    """True when roles are not just seat names: a role shared by seats (teams) or seats changing roles between games.

    >>> roles_add_information([{"roles": ["a", "b"]}, {"roles": ["a", "b"]}])
    False
    >>> roles_add_information([{"roles": ["green", "red"]}, {"roles": ["red", "green"]}])
    True
    """
    first = None
    for r in rows:
        roles = tuple(r["roles"])
        if len(set(roles)) < len(roles):
            return True
        if first is None:
            first = roles
        elif roles != first:
            return True
    return False


def interval(values: Iterable[float]) -> dict[str, float]:
    """A mean with its Student-t 95% interval as a dict (``n`` = 0 when there are no values)."""
    from boardlab.stats import mean_ci

    vals = [float(v) for v in values]
    mean, lo, hi = mean_ci(vals)
    return {"n": len(vals), "mean": mean, "ci_low": lo, "ci_high": hi}


def experience(rows: Sequence[dict[str, Any]], players: int) -> dict[str, Any]:
    """The experience metrics of a run (docs/playtest.md "Experience"), each with a 95% interval.

    Means over games use Student's t; shares of games use Wilson. Rows written before these
    metrics existed lack their columns: such metrics have ``n`` = 0 (``recorded`` False).
    """
    have = [r for r in rows if r.get("downtime_mean") is not None]
    per_seat = lambda key: [interval(r[key][s] for r in have) for s in range(players)]  # noqa: E731
    decided = [r["decided_at"] for r in have if r.get("decided_at") is not None]
    king = [r["kingmaking"] for r in have if r.get("kingmaking") is not None]
    return {
        "recorded": bool(have),
        "games": len(have),
        "downtime": interval(sum(r["downtime_mean"]) / len(r["downtime_mean"]) for r in have if r["downtime_mean"]),
        "downtime_max": interval(max(r["downtime_max"]) for r in have if r["downtime_max"]),
        "downtime_by_seat": per_seat("downtime_mean"),
        "waiting_out": interval(sum(r["waiting_out"]) / len(r["waiting_out"]) for r in have if r["waiting_out"]),
        "waiting_out_max": interval(max(r["waiting_out"]) for r in have if r["waiting_out"]),
        "waiting_out_by_seat": per_seat("waiting_out"),
        "waiting_out_games": rate(sum(1 for r in have if any(r["waiting_out"])), len(have)),
        "decided_at": interval(decided),
        "kingmaking": rate(sum(1 for k in king if k > 0), len(king)) if players > 2 else None,
        "kingmaking_turns": interval(king) if players > 2 else None,
        "lead_changes": interval(r["lead_changes"] for r in rows),
        "closeness": interval(r["closeness"] for r in rows),
    }


def summary(rows: Sequence[dict[str, Any]], players: int) -> dict[str, Any]:
    """Every game-neutral metric of a run."""
    return {
        "games": len(rows),
        "roles_add_information": roles_add_information(rows),
        "win_by_seat": win_rates_by_seat(rows, players),
        "win_by_role": win_rates_by_role(rows),
        "first_player_advantage": first_player_advantage(rows, players),
        "balance": balance(rows, players),
        "completion": completion(rows),
        "turns": distribution(r["turns"] for r in rows),
        "decisions": distribution(r["decisions"] for r in rows),
        "choice_points": distribution(r["choice_points"] for r in rows),
        "branching": distribution(r["mean_branching"] for r in rows),
        "lead_changes": distribution(r["lead_changes"] for r in rows),
        "closeness": distribution(r["closeness"] for r in rows),
        "usage": feature_usage(rows),
        "experience": experience(rows, players),
    }
