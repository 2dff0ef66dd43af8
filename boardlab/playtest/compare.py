"""Paired comparison of two runs (two variants, rule settings or agent line-ups).

Both runs must use the same game, player count, seed and number of games, so
game *i* of each run starts from the same seed: the comparison is paired,
which removes most of the luck from the difference.

* Win rates (per seat and per role): each game scores a seat 1 for a win, an
  equal share for a draw (a finished game nobody won: half a point between two
  players, ``1/players`` in general; a side scores ``1/sides``), else 0, as in
  the verdict. The test is the exact sign test on the per-game score
  differences (two-sided binomial on the games in which B scores more against
  those in which A scores more): with no draws it is McNemar's exact test on
  the discordant pairs. The difference is the mean paired score difference.
* Truncation: McNemar's exact test (a truncated game is nobody's win and no
  draw).
* Length in turns and decisions: the mean paired difference with a
  deterministic paired bootstrap; its p-value inverts the bootstrap.
* Every measure is one family: Holm's correction runs across the seats, the
  sides, truncation and both lengths together, and a length's interval is taken
  at the level of the Holm step that decided it, so a verdict line and its
  interval never disagree.
"""

from __future__ import annotations

from typing import Any, Sequence

from boardlab.engine.errors import BoardlabError
from boardlab.engine.rng import Rng
from boardlab.stats import binom_two_sided, holm, mcnemar_exact  # noqa: F401  (binom_two_sided re-exported)

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


def interval_at(r: dict[str, Any], alpha: float) -> tuple[float, float]:
    """The percentile interval of a :func:`paired_bootstrap` result at level ``1 - alpha``."""
    dist = r.get("distribution")
    if dist is None:
        return r["difference"], r["difference"]
    import numpy as np

    lo, hi = np.percentile(np.asarray(dist), [100 * alpha / 2, 100 * (1 - alpha / 2)])
    return float(lo), float(hi)


def _with_interval(r: dict[str, Any], a: Sequence[float], b: Sequence[float]) -> dict[str, Any]:
    boot = paired_bootstrap([float(x) for x in a], [float(y) for y in b])
    r["ci_low"], r["ci_high"], r["distribution"] = boot["ci_low"], boot["ci_high"], boot["distribution"]
    return r


def draw_rule(players: int) -> str:
    """How a comparison scores a draw, in words (stated in every report)."""
    share = "half a point" if players == 2 else f"an equal share (1/{players} of a point)"
    return f"a draw (a finished game nobody won) counts as {share} for every seat and an equal share for every side"


def measures(result: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every measure a comparison states, named: the seats, the sides, truncation and both lengths."""
    out = [(f"seat {s} win rate", r) for s, r in enumerate(result["win_by_seat"])]
    out += [(f"{role} win rate", r) for role, r in result["win_by_role"].items() if not role.startswith("seat ")]
    return out + [("truncated", result["truncated"]), ("mean turns", result["turns"]), ("mean decisions", result["decisions"])]


def correct(family: list[dict[str, Any]]) -> None:
    """Holm's correction across ``family`` (measures of one or several comparisons); then each measure's interval is
    its paired bootstrap's at the level of the Holm step that decided it, and a measure is significant only when
    the test rejects and that interval excludes zero, so a verdict line never disagrees with its interval."""
    _holm_adjust(family)
    for r in family:
        if "distribution" in r:
            r["ci_low"], r["ci_high"] = interval_at(r, r["alpha"])
            r["significant"] = r["significant"] and (r["ci_low"] > 0 or r["ci_high"] < 0)
            del r["distribution"]


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
        xa, xb = [seat_points(a, s, players) for a, _ in pairs], [seat_points(b, s, players) for _, b in pairs]
        seats.append(_with_interval(sign_test(xa, xb), xa, xb))
    roles = sorted({role for a, b in pairs for role in (*a["roles"], *b["roles"])})
    by_role = {}
    for role in roles:
        xa, xb = [role_points(a, role) for a, _ in pairs], [role_points(b, role) for _, b in pairs]
        by_role[role] = _with_interval(sign_test(xa, xb), xa, xb)
    n = len(pairs)
    result = {
        "paired_games": n,
        # descriptive, not a test of the family: a change in draws shows in the win rates as half points
        "drawn": {"count_a": sum(drawn(a) for a, _ in pairs), "count_b": sum(drawn(b) for _, b in pairs),
                  "rate_a": sum(drawn(a) for a, _ in pairs) / n, "rate_b": sum(drawn(b) for _, b in pairs) / n},
        "win_by_seat": seats,
        "win_by_role": by_role,
        "truncated": _with_interval(mcnemar([a["truncated"] for a, _ in pairs], [b["truncated"] for _, b in pairs]),
                                    [a["truncated"] for a, _ in pairs], [b["truncated"] for _, b in pairs]),
        "turns": paired_bootstrap([a["turns"] for a, _ in pairs], [b["turns"] for _, b in pairs]),
        "decisions": paired_bootstrap([a["decisions"] for a, _ in pairs], [b["decisions"] for _, b in pairs]),
    }
    if adjust:
        family = [r for _, r in measures(result)]
        correct(family)
        result["family"] = len(family)
    return result


def compare_many(base: tuple[str, Sequence[dict[str, Any]]], others: Sequence[tuple[str, Sequence[dict[str, Any]]]]) -> dict[str, Any]:
    """Each of several runs against one base run, paired by seed, with Holm's correction across every measure of
    every comparison as one family. ``table`` lists every (variant, measure) sorted by effect: win rates by the
    absolute difference in points first, then truncation and the lengths."""
    comparisons = [(label, compare_rows(base[1], rows, adjust=False)) for label, rows in others]
    family = [r for _, res in comparisons for _, r in measures(res)]
    correct(family)
    table = []
    for label, res in comparisons:
        res["family"] = len(family)
        for name, r in measures(res):
            table.append({"variant": label, "measure": name, **r})
    kind = {True: 0, False: 1}
    table.sort(key=lambda t: (kind[t["measure"].endswith("win rate")], -abs(t["difference"]), t["variant"], t["measure"]))
    return {"base": base[0], "family": len(family), "comparisons": dict(comparisons), "table": table}


def markdown_many(result: dict[str, Any]) -> str:
    """The :func:`compare_many` table as Markdown."""
    lines = [f"# Variants against {result['base']}", "",
             f"Paired games (same seeds). In every win rate {_draw_rule_of(result)}; its p-value is the exact sign test on the"
             f" per-game score differences (McNemar's when no game is drawn). Holm's correction runs across all {result['family']}"
             " measures of every comparison; each interval is at the level of the Holm step that decided it. Sorted by effect.", "",
             "| variant | measure | base | variant | difference [CI] | p (Holm) | significant |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for t in result["table"]:
        rate = t["measure"].endswith("win rate") or t["measure"] == "truncated"
        if rate:
            a, b = f"{100 * t['rate_a']:.1f}%", f"{100 * t['rate_b']:.1f}%"
            d = f"{100 * t['difference']:+.1f} pts [{100 * t['ci_low']:+.1f}, {100 * t['ci_high']:+.1f}]"
        else:
            a, b = f"{t['mean_a']:.1f}", f"{t['mean_b']:.1f}"
            d = f"{t['difference']:+.2f} [{t['ci_low']:+.2f}, {t['ci_high']:+.2f}]"
        lines.append(f"| {t['variant']} | {t['measure']} | {a} | {b} | {d} | {t.get('p_holm', t['p_value']):.3g} | "
                     f"{'**yes**' if t['significant'] else 'no'} |")
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
    ax.set_xlabel(f"variant - {result['base']}, percentage points, a draw half a point\n(Holm-level paired bootstrap CI; * significant)")
    ax.set_title("Every variant against the base")
    path = Path(path)
    path.write_text(_fig_svg(fig), encoding="utf-8")
    return path


def _holm_adjust(results: list[dict[str, Any]]) -> None:
    """Holm's correction across one family of tests (every measure a comparison states: seats, sides, truncation
    and length): adds ``p_holm`` and ``alpha`` (the level of the Holm step that decided the test) and makes
    ``significant`` mean significant after the correction."""
    reject, adjusted = holm([r["p_value"] for r in results], alpha=ALPHA)
    order = sorted(range(len(results)), key=lambda i: results[i]["p_value"])
    m = len(results)
    stop = None
    for step, i in enumerate(order):
        level = ALPHA / (m - step)
        if stop is None and not reject[i]:
            stop = level
        results[i]["alpha"] = level if stop is None else stop
    for r, rej, p in zip(results, reject, adjusted):
        r["p_holm"] = p
        r["significant"] = rej


def markdown_comparison(label_a: str, label_b: str, result: dict[str, Any]) -> str:
    """A Markdown table of a comparison; significant rows are marked."""

    def mark(sig: bool) -> str:
        return "**yes**" if sig else "no"

    lines = [
        f"# Comparison: A = {label_a}, B = {label_b}",
        "",
        f"{result['paired_games']} paired games (same seeds). In every win rate {draw_rule(len(result['win_by_seat']))};"
        f" its p-value is the exact sign test on the per-game score differences (McNemar's exact test when no game is drawn)."
        f" Truncation p-values are McNemar's exact test, length p-values invert the paired bootstrap; 'significant' is"
        f" after Holm's correction across all {result.get('family', '')} measures of this table as one family.",
        "",
        f"Drawn: {_drawn_words(result)}.",
        "",
        "| measure | A | B | B - A [95% CI] | p / 95% CI | significant |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for s, r in enumerate(result["win_by_seat"]):
        lines.append(f"| seat {s} win rate | {100 * r['rate_a']:.1f}% | {100 * r['rate_b']:.1f}% | {100 * r['difference']:+.1f} pts [{100 * r.get('ci_low', 0):+.1f}, {100 * r.get('ci_high', 0):+.1f}] | p={r['p_value']:.3g} (Holm {r.get('p_holm', r['p_value']):.3g}) | {mark(r['significant'])} |")
    for role, r in result["win_by_role"].items():
        if role.startswith("seat "):
            continue
        lines.append(f"| {role} win rate | {100 * r['rate_a']:.1f}% | {100 * r['rate_b']:.1f}% | {100 * r['difference']:+.1f} pts [{100 * r.get('ci_low', 0):+.1f}, {100 * r.get('ci_high', 0):+.1f}] | p={r['p_value']:.3g} (Holm {r.get('p_holm', r['p_value']):.3g}) | {mark(r['significant'])} |")
    t = result["truncated"]
    lines.append(f"| truncated | {100 * t['rate_a']:.1f}% | {100 * t['rate_b']:.1f}% | {100 * t['difference']:+.1f} pts | p={t['p_value']:.3g} (Holm {t.get('p_holm', t['p_value']):.3g}) | {mark(t['significant'])} |")
    for key in ("turns", "decisions"):
        r = result[key]
        lines.append(f"| mean {key} | {r['mean_a']:.1f} | {r['mean_b']:.1f} | {r['difference']:+.2f} [{r['ci_low']:+.2f}, {r['ci_high']:+.2f}] | p={r.get('p_value', 1):.3g} (Holm {r.get('p_holm', r.get('p_value', 1)):.3g}) | {mark(r['significant'])} |")
    return "\n".join(lines) + "\n"


def _drawn_words(result: dict[str, Any]) -> str:
    d = result.get("drawn") or {"count_a": 0, "count_b": 0}
    n = result["paired_games"]
    return f"{d['count_a']} of {n} games with A ({100 * d['count_a'] / n:.1f}%), {d['count_b']} with B ({100 * d['count_b'] / n:.1f}%)"


def comparison_verdict(label_a: str, label_b: str, result: dict[str, Any]) -> list[str]:
    """Plain sentences: each difference that survives Holm's correction, with its interval; else that none is seen.
    A draw counts as an equal share for every seat (half a point between two players), and the verdict says so
    whenever either run has a draw."""
    lines = []
    n = result["paired_games"]
    players = len(result["win_by_seat"])
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
    verb = "scores" if d["count_a"] or d["count_b"] else "wins"
    for name, r in rows:
        if r["significant"]:
            more = "more" if r["difference"] > 0 else "less"
            lines.append(f"{name} {verb} {100 * r['rate_b']:.0f}% with B against {100 * r['rate_a']:.0f}% with A: "
                         f"{100 * abs(r['difference']):.0f} points {more} often [{100 * r['ci_low']:+.0f}, {100 * r['ci_high']:+.0f}] "
                         f"({'sign test' if verb == 'scores' else 'McNemar'} p = {r.get('p_holm', r['p_value']):.2g} after Holm's correction across the {result.get('family', '')} measures).")
    if not any(r["significant"] for _, r in rows) and not (d["count_a"] == n and d["count_b"] == n):
        widest = max((max(abs(r.get("ci_low", 0)), abs(r.get("ci_high", 0))) for _, r in rows), default=0.0)
        if all(r["a_only"] == r["b_only"] == 0 for _, r in rows):
            lines.append(f"No win rate differs between A and B: every seat and side scored the same with A as with B "
                         f"in each of the {n} paired games.")
        else:
            lines.append(f"No win rate differs between A and B beyond chance over {n} paired games (after Holm's correction); "
                         f"differences up to about {100 * widest:.0f} points cannot be ruled out.")
    t = result["truncated"]
    if t["significant"]:
        lines.append(f"B hits the turn cap in {100 * t['rate_b']:.0f}% of games against {100 * t['rate_a']:.0f}% with A "
                     f"(p = {t.get('p_holm', t['p_value']):.2g} after Holm).")
    r = result["turns"]
    if r["significant"]:
        lines.append(f"Games are {abs(r['difference']):.1f} turns {'longer' if r['difference'] > 0 else 'shorter'} with B "
                     f"[{r['ci_low']:+.1f}, {r['ci_high']:+.1f}] ({r['mean_b']:.1f} against {r['mean_a']:.1f}; "
                     f"p = {r.get('p_holm', r.get('p_value', 1)):.2g} after Holm).")
    else:
        lines.append(f"Game length does not differ beyond chance ({r['mean_a']:.1f} turns with A, {r['mean_b']:.1f} with B, "
                     f"difference [{r['ci_low']:+.1f}, {r['ci_high']:+.1f}] after Holm's correction across the "
                     f"{result.get('family', '')} measures).")
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
    ax.set_xlabel("B - A, percentage points, a draw half a point (paired bootstrap CI; * significant after Holm)")
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
    path = Path(path)
    path.write_text(page, encoding="utf-8")
    return path
