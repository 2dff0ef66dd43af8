"""Paired comparison of two runs (two variants, rule settings or agent line-ups).

Both runs must use the same game, player count, seed and number of games, so
game *i* of each run starts from the same seed: the comparison is paired,
which removes most of the luck from the difference.

* Win rates (per seat and per role) and truncation: McNemar's exact test on
  the discordant pairs (two-sided binomial), with the paired difference.
* Length in turns and decisions: the mean paired difference with a
  deterministic paired-bootstrap 95% interval; significant when the interval
  excludes zero.
"""

from __future__ import annotations

from typing import Any, Sequence

from boardlab.engine.errors import BoardlabError
from boardlab.engine.rng import Rng
from boardlab.stats import binom_two_sided, holm, mcnemar_exact  # noqa: F401  (binom_two_sided re-exported)

ALPHA = 0.05


def mcnemar(a: Sequence[bool], b: Sequence[bool]) -> dict[str, Any]:
    """Paired comparison of two binary outcomes per game.

    >>> r = mcnemar([True] * 10 + [False] * 10, [False] * 10 + [False] * 10)
    >>> r["a_only"], r["b_only"], round(r["p_value"], 5), r["significant"]
    (10, 0, 0.00195, True)
    """
    a_only = sum(1 for x, y in zip(a, b) if x and not y)
    b_only = sum(1 for x, y in zip(a, b) if y and not x)
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


def paired_bootstrap(a: Sequence[float], b: Sequence[float], resamples: int = 2000, seed: int = 0) -> dict[str, Any]:
    """Mean of ``b - a`` with a percentile bootstrap 95% interval (deterministic)."""
    diffs = [y - x for x, y in zip(a, b)]
    n = len(diffs)
    if n == 0:
        return {"mean_a": 0.0, "mean_b": 0.0, "difference": 0.0, "ci_low": 0.0, "ci_high": 0.0, "significant": False}
    rng = Rng(seed)
    means = []
    for _ in range(resamples):
        total = 0.0
        for _ in range(n):
            total += diffs[rng.below(n)]
        means.append(total / n)
    means.sort()
    lo = means[int(0.025 * resamples)]
    hi = means[min(resamples - 1, int(0.975 * resamples))]
    return {
        "mean_a": sum(a) / n,
        "mean_b": sum(b) / n,
        "difference": sum(diffs) / n,
        "ci_low": lo,
        "ci_high": hi,
        "significant": lo > 0 or hi < 0,
    }


def compare_rows(rows_a: Sequence[dict[str, Any]], rows_b: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Compare two runs' rows paired by seed."""
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
        seats.append(mcnemar([s in a["winners"] for a, _ in pairs], [s in b["winners"] for _, b in pairs]))
    roles = sorted({role for a, b in pairs for role in (*a["roles"], *b["roles"])})
    by_role = {
        role: mcnemar([role in a["winner_roles"] for a, _ in pairs], [role in b["winner_roles"] for _, b in pairs])
        for role in roles
    }
    _holm_adjust(seats)
    _holm_adjust([r for role, r in by_role.items() if not role.startswith("seat ")])
    return {
        "paired_games": len(pairs),
        "win_by_seat": seats,
        "win_by_role": by_role,
        "truncated": mcnemar([a["truncated"] for a, _ in pairs], [b["truncated"] for _, b in pairs]),
        "turns": paired_bootstrap([a["turns"] for a, _ in pairs], [b["turns"] for _, b in pairs]),
        "decisions": paired_bootstrap([a["decisions"] for a, _ in pairs], [b["decisions"] for _, b in pairs]),
    }


def _holm_adjust(results: list[dict[str, Any]]) -> None:
    """Holm's correction across a family of tests (the seats, or the roles): adds ``p_holm``
    and makes ``significant`` mean significant after the correction."""
    reject, adjusted = holm([r["p_value"] for r in results], alpha=ALPHA)
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
        f"{result['paired_games']} paired games (same seeds). Win-rate p-values are McNemar's exact test;"
        " 'significant' is after Holm's correction across the seats (and, separately, across the roles).",
        "",
        "| measure | A | B | B - A | p / 95% CI | significant |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for s, r in enumerate(result["win_by_seat"]):
        lines.append(f"| seat {s} win rate | {100 * r['rate_a']:.1f}% | {100 * r['rate_b']:.1f}% | {100 * r['difference']:+.1f} pts | p={r['p_value']:.3g} (Holm {r.get('p_holm', r['p_value']):.3g}) | {mark(r['significant'])} |")
    for role, r in result["win_by_role"].items():
        if role.startswith("seat "):
            continue
        lines.append(f"| {role} win rate | {100 * r['rate_a']:.1f}% | {100 * r['rate_b']:.1f}% | {100 * r['difference']:+.1f} pts | p={r['p_value']:.3g} (Holm {r.get('p_holm', r['p_value']):.3g}) | {mark(r['significant'])} |")
    t = result["truncated"]
    lines.append(f"| truncated | {100 * t['rate_a']:.1f}% | {100 * t['rate_b']:.1f}% | {100 * t['difference']:+.1f} pts | p={t['p_value']:.3g} | {mark(t['significant'])} |")
    for key in ("turns", "decisions"):
        r = result[key]
        lines.append(f"| mean {key} | {r['mean_a']:.1f} | {r['mean_b']:.1f} | {r['difference']:+.2f} | {r['ci_low']:+.2f} to {r['ci_high']:+.2f} | {mark(r['significant'])} |")
    return "\n".join(lines) + "\n"
