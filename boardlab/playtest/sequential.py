"""Sequential stopping for ``playtest --until-ci WIDTH``: stop once the win rates are known well enough.

Looking at a fixed-sample interval after every block and stopping when it is narrow
enough is not valid: the chance that some look misleads grows with the number of looks.
Here every look uses an **anytime-valid confidence sequence** instead
(:func:`boardlab.stats.confidence_sequence`, the beta-binomial mixture of Robbins and of
Howard et al. 2021): its coverage holds simultaneously at every number of games, so the
run may stop at any look. The seats' (or, when roles are sides, the sides') win rates
are covered together by a Bonferroni split of alpha across them. The run stops at the
first look where every interval is narrower than WIDTH, or at ``--games``.
"""

from __future__ import annotations

from typing import Any, Sequence

from boardlab.stats import ALPHA, confidence_sequence

METHOD = ("beta-binomial mixture confidence sequence (Robbins 1970; Howard et al. 2021), "
          "anytime-valid, Bonferroni across the seats or sides")


def _items(rows: Sequence[dict[str, Any]], players: int) -> list[tuple[str, int]]:
    from .metrics import roles_add_information

    if roles_add_information(rows) and all(len(set(r.get("winner_roles") or [])) <= 1 for r in rows):
        roles = sorted({role for r in rows for role in r["roles"]})
        return [(f"side {role}", sum(1 for r in rows if role in (r.get("winner_roles") or []))) for role in roles]
    return [(f"seat {s}", sum(1 for r in rows if s in r["winners"])) for s in range(players)]


def status(rows: Sequence[dict[str, Any]], players: int, width: float, alpha: float = ALPHA) -> dict[str, Any]:
    """The confidence sequences after ``rows`` (games 0..n-1) and whether all are narrower than ``width``."""
    n = len(rows)
    items = _items(rows, players) if n else [(f"seat {s}", 0) for s in range(players)]
    each = alpha / max(1, len(items))
    intervals = []
    for label, k in items:
        lo, hi = confidence_sequence(k, n, each)
        intervals.append({"label": label, "wins": k, "rate": k / n if n else 0.0, "ci_low": lo, "ci_high": hi})
    widest = max(i["ci_high"] - i["ci_low"] for i in intervals)
    return {"method": METHOD, "alpha": alpha, "until_ci": width, "games": n, "intervals": intervals,
            "max_width": widest, "done": widest <= width}
