"""Paired comparison of two runs (two variants, rule settings or agent line-ups).

Both runs must use the same game, player count, seed and number of games, so
game *i* of each run starts from the same seed: the comparison is paired,
which removes most of the luck from the difference.

One procedure per answer (issue 46), so a verdict, its p-value and its
interval can never disagree:

* Every difference (each seat's and side's win rate, truncation, the lengths in
  turns and decisions, and the experience metrics: downtime, waiting while out,
  decided at, kingmaking, lead changes) is the mean of the per-game paired
  differences, B minus A, with one test and the interval that inverts it
  (:func:`boardlab.stats.paired_difference`). When every game scores 0 or 1
  (wins without draws, truncation, kingmaking), the test is the exact sign test
  on the games that differ (McNemar's exact test) and the interval
  Clopper-Pearson's for the share of those games B wins, scaled to the
  difference; otherwise (draws scored as shares, lengths, experience) Student's
  paired t-test and its t interval (``scipy.stats.ttest_rel`` and its
  ``confidence_interval``). Either way the interval excludes zero exactly when
  the test rejects at the interval's level. A win rate scores each game 1 for a
  win, an equal share for a draw (a finished game nobody won: half a point
  between two players, ``1/players`` in general; a side scores ``1/sides``),
  else 0, as in the verdict; truncation scores 1 for a game stopped at the turn
  cap.
* Did the winner change? One omnibus test across all seats (:func:`winner_test`):
  a paired permutation test that swaps A and B within games (exact when at
  most 16 games differ). It is a test with no interval.
* Every measure and the omnibus test are one family: Holm's correction runs
  across all of them (:func:`boardlab.stats.holm_levels`), and each interval
  is taken at the level of the Holm step that decided its test, and printed
  with that level.

The counts ``a_only`` and ``b_only`` (games in which A, B scores more) are kept
for the words. :func:`sign_test` and :func:`paired_bootstrap` are kept for
callers that want them; no comparison's verdict rests on them.
"""

from __future__ import annotations

from typing import Any, Sequence

from boardlab.engine.errors import BoardlabError
from boardlab.engine.rng import Rng
from boardlab.stats import binom_two_sided, holm, holm_levels, level_text, mcnemar_exact, paired_difference, paired_interval  # noqa: F401

ALPHA = 0.05


def sign_test(a: Sequence[float], b: Sequence[float]) -> dict[str, Any]:
    """Paired comparison of two per-game scores (a win 1, a draw an equal share, a loss 0): the exact sign test.

    ``a_only`` counts the games in which A scores more, ``b_only`` those in which B does; the p-value is the
    two-sided binomial test of ``b_only`` out of ``a_only + b_only`` (games scored alike carry no information).
    On 0/1 scores this is McNemar's exact test; a loss turned into a draw counts as a game B scores more in.

    >>> r = sign_test([1.0] * 10 + [0.0] * 10, [0.5] * 10 + [0.0] * 10)
    >>> r["a_only"], r["b_only"], r["difference"], round(r["p_value"], 5), r["significant"]
    (10, 0, -0.25, 0.00195, True)
    """
    a, b = [float(x) for x in a], [float(y) for y in b]
    a_only = sum(1 for x, y in zip(a, b) if x > y)
    b_only = sum(1 for x, y in zip(a, b) if y > x)
    n = len(a)
    p = mcnemar_exact(a_only, b_only)
    return {
        "rate_a": sum(a) / n if n else 0.0,
        "rate_b": sum(b) / n if n else 0.0,
        "difference": (sum(b) - sum(a)) / n if n else 0.0,
        "a_only": a_only,
        "b_only": b_only,
        "p_value": p,
        "significant": p < ALPHA,
    }


def mcnemar(a: Sequence[bool], b: Sequence[bool]) -> dict[str, Any]:
    """Paired comparison of two binary outcomes per game (McNemar's exact test: :func:`sign_test` on 0/1).

    >>> r = mcnemar([True] * 10 + [False] * 10, [False] * 10 + [False] * 10)
    >>> r["a_only"], r["b_only"], round(r["p_value"], 5), r["significant"]
    (10, 0, 0.00195, True)
    """
    return sign_test([float(x) for x in a], [float(y) for y in b])


def drawn(r: dict[str, Any]) -> bool:
    """A draw: a finished game nobody won (a game stopped at the turn cap is no draw)."""
    return not r["winners"] and not r.get("truncated")


def seat_points(r: dict[str, Any], seat: int, players: int) -> float:
    """A seat's points in one game: 1 for a win (a shared win counts for each winner), ``1/players`` for a draw
    (half a point between two players), else 0 -- as in the verdict."""
    if seat in r["winners"]:
        return 1.0
    return 1.0 / players if drawn(r) else 0.0


def role_points(r: dict[str, Any], role: str) -> float:
    """A side's points in one game: 1 when it won, an equal share of a draw among the sides that played, else 0."""
    if role in (r.get("winner_roles") or []):
        return 1.0
    sides = set(r["roles"])
    return 1.0 / len(sides) if drawn(r) and role in sides else 0.0


def paired_bootstrap(a: Sequence[float], b: Sequence[float], resamples: int = 2000, seed: int = 0) -> dict[str, Any]:
    """Mean of ``b - a`` with a percentile bootstrap 95% interval (scipy.stats.bootstrap, seeded: deterministic).

    ``p_value`` inverts the same bootstrap distribution (twice the smaller share of resampled means on either
    side of zero), so the percentile interval at level ``1 - a`` excludes zero exactly when ``p_value < a``;
    ``distribution`` keeps the resampled means for intervals at other levels (:func:`interval_at`).
    """
    diffs = [float(y) - float(x) for x, y in zip(a, b)]
    n = len(diffs)
    if n == 0:
        return {"mean_a": 0.0, "mean_b": 0.0, "difference": 0.0, "ci_low": 0.0, "ci_high": 0.0, "significant": False,
                "p_value": 1.0}
    mean = sum(diffs) / n
    dist = None
    if n == 1 or len(set(diffs)) == 1:
        lo = hi = mean
        p = 1.0 if mean == 0 else 0.0
    else:
        import numpy as np
        from scipy.stats import bootstrap

        res = bootstrap((np.asarray(diffs),), np.mean, n_resamples=resamples, method="percentile",
                        confidence_level=1 - ALPHA, random_state=np.random.default_rng(seed))
        lo, hi = float(res.confidence_interval.low), float(res.confidence_interval.high)
        boot = res.bootstrap_distribution
        p = min(1.0, 2 * min(float(np.mean(boot <= 0)), float(np.mean(boot >= 0))))
        dist = tuple(boot.tolist())
    return {
        "mean_a": sum(a) / n,
        "mean_b": sum(b) / n,
        "difference": mean,
        "ci_low": lo,
        "ci_high": hi,
        "significant": lo > 0 or hi < 0,
        "p_value": p,
        "distribution": dist,
    }


def paired(a: Sequence[float], b: Sequence[float]) -> dict[str, Any]:
    """The paired difference ``b - a`` per game with one test and the interval that inverts it
    (:func:`boardlab.stats.paired_difference`: the exact sign test with its Clopper-Pearson interval for 0/1 outcomes,
    else the paired t-test with its t interval), at 95% here; :func:`correct` re-takes it at its Holm level.

    >>> r = paired([0, 0, 1, 0, 1, 0], [1, 1, 1, 0, 1, 1])
    >>> r["difference"], r["a_only"], r["b_only"], round(r["p_value"], 4), r["test"]
    (0.5, 0, 3, 0.25, 'exact sign test')
    """
    a, b = [float(x) for x in a], [float(y) for y in b]
    n = len(a)
    r = paired_difference([y - x for x, y in zip(a, b)], ALPHA)
    mean_a, mean_b = (sum(a) / n, sum(b) / n) if n else (0.0, 0.0)
    return {"rate_a": mean_a, "rate_b": mean_b, "mean_a": mean_a, "mean_b": mean_b, "difference": r["mean"],
            "a_only": r["a_only"], "b_only": r["b_only"], "n": n, "sd": r["sd"], "test": r["test"],
            "p_value": r["p"], "ci_low": r["low"], "ci_high": r["high"], "alpha": ALPHA, "significant": r["p"] < ALPHA}


def interval_at(r: dict[str, Any], alpha: float) -> tuple[float, float]:
    """The interval of a :func:`paired` measure at level ``1 - alpha`` (its own test's inversion)."""
    return paired_interval({**r, "mean": r["difference"]}, alpha)


def winner_test(a: Sequence[Sequence[float]], b: Sequence[Sequence[float]], resamples: int = 9999, seed: int = 0) -> dict[str, Any]:
    """Did the distribution of winners change? One paired test across all seats.

    ``a[i]`` and ``b[i]`` are every seat's points in game ``i`` with A and with B. Under "B changes nothing", A and
    B are exchangeable within each game, so swapping them in any set of games (flipping the sign of that game's
    vector of per-seat differences) is as likely as the games played. The statistic is the sum over seats of the
    squared total difference; the p-value is the share of swaps at least as extreme: exact over every swap when at
    most 16 games differ, else from ``resamples`` seeded random swaps (``(1 + hits) / (1 + resamples)``). A test with
    no interval: its answer is "changed" or "not seen to change", at its Holm level.

    >>> r = winner_test([[1, 0]] * 6, [[0, 1]] * 6)
    >>> r["changed_games"], r["exact"], round(r["p_value"], 5)
    (6, True, 0.03125)
    """
    import numpy as np

    d = np.asarray(b, dtype=float) - np.asarray(a, dtype=float)
    n = len(d)
    if d.ndim != 2:
        d = d.reshape(n, -1)
    d = d[np.any(d != 0, axis=1)]
    k = len(d)
    out = {"n": n, "changed_games": k, "resamples": 0, "exact": True, "test": "paired permutation"}
    if k == 0:
        return {**out, "statistic": 0.0, "p_value": 1.0, "significant": False}
    obs = float(np.sum(d.sum(axis=0) ** 2))
    tol = 1e-9 * max(1.0, obs)
    if k <= 16:
        signs = ((np.arange(2 ** k)[:, None] >> np.arange(k)) & 1) * 2 - 1
        stats = np.sum((signs @ d) ** 2, axis=1)
        p = float(np.mean(stats >= obs - tol))
    else:
        rng = np.random.default_rng(seed)
        hits, left = 0, resamples
        while left:
            m = min(left, 500)
            signs = rng.integers(0, 2, size=(m, k), dtype=np.int8) * 2 - 1
            hits += int(np.sum(np.sum((signs @ d) ** 2, axis=1) >= obs - tol))
            left -= m
        p = (1 + hits) / (1 + resamples)
        out.update(resamples=resamples, exact=False)
    return {**out, "statistic": obs, "p_value": min(1.0, p), "significant": p < ALPHA}


def _with_interval(r: dict[str, Any], a: Sequence[float], b: Sequence[float]) -> dict[str, Any]:
    """Kept for older callers: the :func:`paired` measure of ``a`` and ``b``."""
    return {**r, **{k: v for k, v in paired(a, b).items() if k not in ("a_only", "b_only")}}


def draw_rule(players: int) -> str:
    """How a comparison scores a draw, in words (stated in every report)."""
    share = "half a point" if players == 2 else f"an equal share (1/{players} of a point)"
    return f"a draw (a finished game nobody won) counts as {share} for every seat and an equal share for every side"


#: The experience metrics a comparison states (docs/playtest.md "Experience"), as per-game values: name, unit, value.
def _mean_over_seats(key: str) -> Any:
    return lambda r: (sum(r[key]) / len(r[key])) if r.get(key) else None


EXPERIENCE = (
    ("downtime", "decisions", _mean_over_seats("downtime_mean")),
    ("waiting while out", "turns", _mean_over_seats("waiting_out")),
    ("decided at", "share of the turns", lambda r: r.get("decided_at")),
    ("kingmaking", "share of games", lambda r: None if r.get("kingmaking") is None else float(r["kingmaking"] > 0)),
    ("lead changes", "per game", lambda r: r.get("lead_changes")),
)


def _experience(pairs: Sequence[tuple[dict[str, Any], dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    """Each experience metric both runs recorded, paired over the games where both have a value (decided at and
    kingmaking need a winner); a metric measured in fewer than 2 paired games is left out."""
    out = {}
    for name, unit, value in EXPERIENCE:
        both = [(value(a), value(b)) for a, b in pairs]
        both = [(float(x), float(y)) for x, y in both if x is not None and y is not None]
        if len(both) >= 2:
            out[name] = {**paired([x for x, _ in both], [y for _, y in both]), "unit": unit}
    return out


def measures(result: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every answer a comparison states, named: the omnibus winner test, the seats, the sides, truncation, both
    lengths and the experience metrics. One Holm family."""
    out = [("winner distribution", result["winners"])] if "winners" in result else []
    out += [(f"seat {s} win rate", r) for s, r in enumerate(result["win_by_seat"])]
    out += [(f"{role} win rate", r) for role, r in result["win_by_role"].items() if not role.startswith("seat ")]
    out += [("truncated", result["truncated"]), ("mean turns", result["turns"]), ("mean decisions", result["decisions"])]
    return out + [(f"mean {name}" if name != "kingmaking" else name, r) for name, r in (result.get("experience") or {}).items()]


def correct(family: list[dict[str, Any]]) -> None:
    """Holm's correction across ``family`` (answers of one or several comparisons): each gets ``p_holm``, ``alpha``
    (the level of the Holm step that decided it) and ``significant`` (rejected at that step); each interval is then
    re-taken at ``alpha`` by the test's own inversion, so it excludes zero exactly when the answer is significant."""
    reject, adjusted, levels = holm_levels([r["p_value"] for r in family], ALPHA)
    for r, rej, p, level in zip(family, reject, adjusted, levels):
        r["p_holm"], r["alpha"], r["significant"] = p, level, bool(rej)
        if "test" in r and r["test"] != "paired permutation":
            r["ci_low"], r["ci_high"] = interval_at(r, level)
        r.pop("distribution", None)


def compare_rows(rows_a: Sequence[dict[str, Any]], rows_b: Sequence[dict[str, Any]], adjust: bool = True) -> dict[str, Any]:
    """Compare two runs' rows paired by seed (``adjust=False``: leave the correction to the caller, :func:`compare_many`)."""
    by_seed_b = {r["seed"]: r for r in rows_b}
    pairs = [(r, by_seed_b[r["seed"]]) for r in rows_a if r["seed"] in by_seed_b]
    if not pairs:
        raise BoardlabError("the two runs share no game seeds; run both with the same --seed and --games")
    players = rows_a[0]["players"]
    if rows_a[0].get("game") != rows_b[0].get("game"):
        raise BoardlabError(f"the two runs are of different games ({rows_a[0].get('game')} and {rows_b[0].get('game')})")
    if rows_b[0]["players"] != players:
        raise BoardlabError(f"the two runs have different player counts ({players} and {rows_b[0]['players']})")
    seats = []
    for s in range(players):
        seats.append(paired([seat_points(a, s, players) for a, _ in pairs], [seat_points(b, s, players) for _, b in pairs]))
    roles = sorted({role for a, b in pairs for role in (*a["roles"], *b["roles"])})
    by_role = {role: paired([role_points(a, role) for a, _ in pairs], [role_points(b, role) for _, b in pairs]) for role in roles}
    n = len(pairs)
    result = {
        "paired_games": n,
        # descriptive, not a test of the family: a change in draws shows in the win rates as half points
        "drawn": {"count_a": sum(drawn(a) for a, _ in pairs), "count_b": sum(drawn(b) for _, b in pairs),
                  "rate_a": sum(drawn(a) for a, _ in pairs) / n, "rate_b": sum(drawn(b) for _, b in pairs) / n},
        "winners": winner_test([[seat_points(a, s, players) for s in range(players)] for a, _ in pairs],
                               [[seat_points(b, s, players) for s in range(players)] for _, b in pairs]),
        "win_by_seat": seats,
        "win_by_role": by_role,
        "truncated": paired([float(a["truncated"]) for a, _ in pairs], [float(b["truncated"]) for _, b in pairs]),
        "turns": paired([a["turns"] for a, _ in pairs], [b["turns"] for _, b in pairs]),
        "decisions": paired([a["decisions"] for a, _ in pairs], [b["decisions"] for _, b in pairs]),
        "experience": _experience(pairs),
    }
    if adjust:
        family = [r for _, r in measures(result)]
        correct(family)
        result["family"] = len(family)
    return result


def compare_many(base: tuple[str, Sequence[dict[str, Any]]], others: Sequence[tuple[str, Sequence[dict[str, Any]]]]) -> dict[str, Any]:
    """Each of several runs against one base run, paired by seed, with Holm's correction across every answer of
    every comparison as one family. ``table`` lists every (variant, measure) sorted by effect: the omnibus winner
    tests first, then win rates by the absolute difference in points, then truncation, the lengths and experience."""
    comparisons = [(label, compare_rows(base[1], rows, adjust=False)) for label, rows in others]
    family = [r for _, res in comparisons for _, r in measures(res)]
    correct(family)
    table = []
    for label, res in comparisons:
        res["family"] = len(family)
        for name, r in measures(res):
            table.append({"variant": label, "measure": name, **r})

    def kind(t: dict[str, Any]) -> int:
        return 0 if t["measure"] == "winner distribution" else (1 if t["measure"].endswith("win rate") else 2)

    table.sort(key=lambda t: (kind(t), -abs(t.get("difference", 0.0)), t["variant"], t["measure"]))
    return {"base": base[0], "family": len(family), "comparisons": dict(comparisons), "table": table}


def _is_rate(measure: str) -> bool:
    return measure.endswith("win rate") or measure in ("truncated", "kingmaking")


def difference_text(name: str, r: dict[str, Any], digits: int = 1) -> str:
    """A measure's difference with its interval and the interval's level: ``+3.0 pts [-1.2, +7.2] (98.33% interval)``;
    the omnibus winner test has no interval."""
    if "changed_games" in r:
        return f"{r['changed_games']} games changed who scored (a test, no interval)"
    level = level_text(r.get("alpha", ALPHA))
    if _is_rate(name):
        return f"{100 * r['difference']:+.{digits}f} pts [{100 * r['ci_low']:+.{digits}f}, {100 * r['ci_high']:+.{digits}f}] ({level})"
    return f"{r['difference']:+.2f} [{r['ci_low']:+.2f}, {r['ci_high']:+.2f}] ({level})"


PROCEDURES = ("Every difference is the mean paired difference (B minus A) with one test and the interval that inverts it: "
              "the exact sign test (McNemar's) with Clopper-Pearson's interval when every game scores 0 or 1, else "
              "Student's paired t-test with its t interval; the winner distribution is one paired permutation test across "
              "all seats (a test, no interval).")


def markdown_many(result: dict[str, Any]) -> str:
    """The :func:`compare_many` table as Markdown; every interval is labelled with its level."""
    lines = [f"# Variants against {result['base']}", "",
             f"Paired games (same seeds). In every win rate {_draw_rule_of(result)}. {PROCEDURES} Holm's correction runs"
             f" across all {result['family']} answers of every comparison; each interval is at the level of the Holm step that"
             " decided it (printed beside it), so it excludes zero exactly when the answer is significant. Sorted by effect.", "",
             "| variant | measure | base | variant | difference, interval (level) | p (Holm) | significant |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for t in result["table"]:
        if "changed_games" in t:
            a = b = ""
        elif _is_rate(t["measure"]):
            a, b = f"{100 * t['rate_a']:.1f}%", f"{100 * t['rate_b']:.1f}%"
        else:
            a, b = f"{t['mean_a']:.2f}", f"{t['mean_b']:.2f}"
        lines.append(f"| {t['variant']} | {t['measure']} | {a} | {b} | {difference_text(t['measure'], t)} | "
                     f"{t.get('p_holm', t['p_value']):.3g} | {'**yes**' if t['significant'] else 'no'} |")
    return "\n".join(lines) + "\n"


def _draw_rule_of(result: dict[str, Any]) -> str:
    comparisons = list(result.get("comparisons", {}).values())
    players = len(comparisons[0]["win_by_seat"]) if comparisons else 2
    return draw_rule(players)


def forest_plot(result: dict[str, Any], path: Any) -> Any:
    """An SVG forest plot of every win-rate difference of a :func:`compare_many` result, with its interval."""
    from pathlib import Path

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .report import _fig_svg

    items = [t for t in result["table"] if t["measure"].endswith("win rate")]
    fig, ax = plt.subplots(figsize=(7, 0.35 * len(items) + 1.3))
    ys = list(range(len(items)))
    d = [100 * t["difference"] for t in items]
    err = [[100 * (t["difference"] - t["ci_low"]) for t in items], [100 * (t["ci_high"] - t["difference"]) for t in items]]
    ax.errorbar(d, ys, xerr=err, fmt="o", capsize=3, color="#3b6ea8")
    ax.set_yticks(ys, [f"{t['variant']}: {t['measure']}{' *' if t['significant'] else ''}" for t in items])
    ax.invert_yaxis()
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel(f"variant - {result['base']}, percentage points, a draw half a point\n(each answer's interval at its Holm level; * significant)")
    ax.set_title("Every variant against the base")
    from boardlab.engine.files import atomic_write

    return atomic_write(Path(path), _fig_svg(fig), "forest plot", error=BoardlabError)


def _holm_adjust(results: list[dict[str, Any]]) -> None:
    """Holm's correction across one family of tests: adds ``p_holm`` and ``alpha`` (the level of the Holm step that
    decided the test) and makes ``significant`` mean significant after the correction (:func:`correct` without
    re-taking the intervals)."""
    reject, adjusted, levels = holm_levels([r["p_value"] for r in results], ALPHA)
    for r, rej, p, level in zip(results, reject, adjusted, levels):
        r["p_holm"], r["alpha"], r["significant"] = p, level, bool(rej)


def markdown_comparison(label_a: str, label_b: str, result: dict[str, Any]) -> str:
    """A Markdown table of a comparison: every answer with its interval (labelled with its level) and its Holm p."""

    def mark(sig: bool) -> str:
        return "**yes**" if sig else "no"

    lines = [
        f"# Comparison: A = {label_a}, B = {label_b}",
        "",
        f"{result['paired_games']} paired games (same seeds). In every win rate {draw_rule(len(result['win_by_seat']))}."
        f" {PROCEDURES} 'significant' is after Holm's correction across all {result.get('family', '')} answers of this table"
        " as one family, and each interval is at the level of the Holm step that decided it, so it excludes zero exactly"
        " when the answer is significant.",
        "",
        f"Drawn: {_drawn_words(result)}.",
        "",
        "| measure | A | B | B - A, interval (level) | p (Holm) | significant |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for name, r in measures(result):
        if "changed_games" in r:
            a = b = ""
        elif _is_rate(name):
            a, b = f"{100 * r['rate_a']:.1f}%", f"{100 * r['rate_b']:.1f}%"
        else:
            a, b = f"{r['mean_a']:.2f}", f"{r['mean_b']:.2f}"
        lines.append(f"| {name} | {a} | {b} | {difference_text(name, r)} | p={r['p_value']:.3g} (Holm {r.get('p_holm', r['p_value']):.3g}) "
                     f"| {mark(r['significant'])} |")
    return "\n".join(lines) + "\n"


def _drawn_words(result: dict[str, Any]) -> str:
    d = result.get("drawn") or {"count_a": 0, "count_b": 0}
    n = result["paired_games"]
    return f"{d['count_a']} of {n} games with A ({100 * d['count_a'] / n:.1f}%), {d['count_b']} with B ({100 * d['count_b'] / n:.1f}%)"


def comparison_verdict(label_a: str, label_b: str, result: dict[str, Any]) -> list[str]:
    """Plain sentences: whether the winners changed, each difference that survives Holm's correction with its
    interval (labelled with its level); else what the games could not rule out. A draw counts as an equal share for
    every seat (half a point between two players), and the verdict says so whenever either run has a draw."""
    lines = []
    n = result["paired_games"]
    players = len(result["win_by_seat"])
    family = result.get("family", "")
    d = result.get("drawn") or {"count_a": 0, "count_b": 0}
    rows = [(f"Seat {s}", r) for s, r in enumerate(result["win_by_seat"])]
    rows += [(f"The {role} side", r) for role, r in result["win_by_role"].items() if not role.startswith("seat ")]
    share = "half a point" if players == 2 else "an equal share"
    if d["count_a"] == n and d["count_b"] == n:
        lines.append(f"All {n} paired games were drawn with both A and B: every seat scored {share} in every game, "
                     "so no seat or side does better or worse with B.")
    elif d["count_a"] or d["count_b"]:
        lines.append(f"{100 * d['count_a'] / n:.0f}% of games were drawn with A and {100 * d['count_b'] / n:.0f}% with B; "
                     f"{draw_rule(players)}, so the rates below are scores, not wins alone.")
    w = result.get("winners")
    if w is not None and w["changed_games"]:  # no game changed: the line below says every seat scored the same
        how = "exact over every swap" if w["exact"] else f"{w['resamples']:,} random swaps"
        if w["significant"]:
            lines.append(f"The winners changed: who scores differs between A and B in {w['changed_games']} of {n} games, more than "
                         f"swapping A and B within games gives by chance (paired permutation test across all seats, {how}; "
                         f"p = {w['p_holm']:.2g} after Holm's correction across the {family} answers).")
        else:
            lines.append(f"The distribution of winners is not seen to change: who scores differs in {w['changed_games']} of {n} "
                         f"games, no more than swapping A and B within games gives by chance (paired permutation test across all "
                         f"seats, {how}; p = {w['p_holm']:.2g} after Holm's correction across the {family} answers).")
    verb = "scores" if d["count_a"] or d["count_b"] else "wins"
    for name, r in rows:
        if r["significant"]:
            more = "more" if r["difference"] > 0 else "less"
            lines.append(f"{name} {verb} {100 * r['rate_b']:.0f}% with B against {100 * r['rate_a']:.0f}% with A: "
                         f"{100 * abs(r['difference']):.0f} points {more} often [{100 * r['ci_low']:+.0f}, {100 * r['ci_high']:+.0f}] "
                         f"({level_text(r['alpha'])}; {r['test']} p = {r['p_holm']:.2g} after Holm's correction across the "
                         f"{family} answers).")
    if not any(r["significant"] for _, r in rows) and not (d["count_a"] == n and d["count_b"] == n):
        if all(r["a_only"] == r["b_only"] == 0 for _, r in rows):
            lines.append(f"No win rate differs between A and B: every seat and side scored the same with A as with B "
                         f"in each of the {n} paired games.")
        else:
            widest = max(rows, key=lambda nr: max(abs(nr[1]["ci_low"]), abs(nr[1]["ci_high"])))[1]
            lines.append(f"No win rate differs between A and B beyond chance over {n} paired games (after Holm's correction); "
                         f"these games cannot rule out differences up to about {100 * max(abs(widest['ci_low']), abs(widest['ci_high'])):.0f} "
                         f"points either way (the widest {level_text(widest['alpha'])}).")
    t = result["truncated"]
    if t["significant"]:
        lines.append(f"B hits the turn cap in {100 * t['rate_b']:.0f}% of games against {100 * t['rate_a']:.0f}% with A "
                     f"[{100 * t['ci_low']:+.0f}, {100 * t['ci_high']:+.0f}] points ({level_text(t['alpha'])}; "
                     f"p = {t['p_holm']:.2g} after Holm).")
    r = result["turns"]
    if r["significant"]:
        lines.append(f"Games are {abs(r['difference']):.1f} turns {'longer' if r['difference'] > 0 else 'shorter'} with B "
                     f"[{r['ci_low']:+.1f}, {r['ci_high']:+.1f}] ({level_text(r['alpha'])}; {r['mean_b']:.1f} against {r['mean_a']:.1f}; "
                     f"p = {r['p_holm']:.2g} after Holm).")
    else:
        lines.append(f"Game length does not differ beyond chance ({r['mean_a']:.1f} turns with A, {r['mean_b']:.1f} with B, "
                     f"difference [{r['ci_low']:+.1f}, {r['ci_high']:+.1f}], {level_text(r['alpha'])} after Holm's correction "
                     f"across the {family} answers).")
    exp = result.get("experience") or {}
    changed = [(k, e) for k, e in exp.items() if e["significant"]]
    for k, e in changed:
        if k == "kingmaking":
            what = (f"Kingmaking happens in {100 * e['rate_b']:.0f}% of games with B against {100 * e['rate_a']:.0f}% with A "
                    f"[{100 * e['ci_low']:+.0f}, {100 * e['ci_high']:+.0f}] points")
        else:
            what = (f"Mean {k} is {e['mean_b']:.2f} with B against {e['mean_a']:.2f} with A ({e['unit']}): "
                    f"{e['difference']:+.2f} [{e['ci_low']:+.2f}, {e['ci_high']:+.2f}]")
        lines.append(f"{what} ({level_text(e['alpha'])}; p = {e['p_holm']:.2g} after Holm).")
    if exp and not changed:
        lines.append(f"No experience metric ({', '.join(exp)}) differs between A and B beyond chance (after Holm's correction; "
                     "the table gives each with its interval).")
    return lines


def html_comparison(label_a: str, label_b: str, result: dict[str, Any], path: Any) -> Any:
    """Write a self-contained HTML comparison (verdict, table, and a plot of the differences with intervals)."""
    import html
    from pathlib import Path

    from markdown_it import MarkdownIt

    from .report import _fig_svg

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    items = [(f"seat {s}", r) for s, r in enumerate(result["win_by_seat"])]
    items += [(role, r) for role, r in result["win_by_role"].items() if not role.startswith("seat ")]
    items.append(("truncated", result["truncated"]))
    fig, ax = plt.subplots(figsize=(6.5, 0.4 * len(items) + 1.2))
    ys = list(range(len(items)))
    d = [100 * r["difference"] for _, r in items]
    err = [[100 * (r["difference"] - r["ci_low"]) for _, r in items], [100 * (r["ci_high"] - r["difference"]) for _, r in items]]
    ax.errorbar(d, ys, xerr=err, fmt="o", capsize=4, color="#3b6ea8")
    ax.set_yticks(ys, [k + (" *" if r["significant"] else "") for k, r in items])
    ax.invert_yaxis()
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel("B - A, percentage points, a draw half a point (each answer's interval at its Holm level;\n"
                  "* significant after Holm)")
    ax.set_title("What changes from A to B")
    svg = _fig_svg(fig)
    verdict = "".join(f"<li>{html.escape(v)}</li>" for v in comparison_verdict(label_a, label_b, result))
    table = MarkdownIt("commonmark", {"html": False}).enable("table").render(markdown_comparison(label_a, label_b, result).split("\n", 1)[1])
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>boardlab comparison</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }}
svg {{ max-width: 100%; height: auto; }} table {{ border-collapse: collapse; }}
td, th {{ border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; }}
</style></head><body>
<h1>Comparison</h1>
<p>A = <b>{html.escape(label_a)}</b><br>B = <b>{html.escape(label_b)}</b></p>
<section><h2>Verdict</h2><ul id="verdict">{verdict}</ul></section>
<section><h2>Differences</h2>{svg}</section>
<section id="table">{table}</section>
</body></html>
"""
    from boardlab.engine.files import atomic_write

    return atomic_write(Path(path), page, "HTML comparison", error=BoardlabError)
