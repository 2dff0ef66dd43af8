"""One statistics helper for the lab, the arena and the findings.

Thin wrappers over statsmodels and scipy.stats so every interval and test in
boardlab comes from a well-kept library rather than hand-written formulas.

>>> lo, hi = wilson(50, 100)
>>> round(lo, 4), round(hi, 4)
(0.4038, 0.5962)
>>> round(binom_two_sided(0, 10), 5)
0.00195
"""

from __future__ import annotations

from typing import Sequence

from scipy.stats import binomtest
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

ALPHA = 0.05


def wilson(successes: float, n: int, alpha: float = ALPHA) -> tuple[float, float]:
    """Wilson score interval of a proportion (``successes`` may be fractional, e.g. draws)."""
    if n <= 0:
        return (0.0, 1.0)
    lo, hi = proportion_confint(successes, n, alpha=alpha, method="wilson")
    return (max(0.0, float(lo)), min(1.0, float(hi)))


def binom_two_sided(k: int, n: int, p: float = 0.5) -> float:
    """Exact two-sided binomial p-value of ``k`` successes in ``n`` trials."""
    if n <= 0:
        return 1.0
    return float(binomtest(int(k), int(n), p, alternative="two-sided").pvalue)


def mcnemar_exact(a_only: int, b_only: int) -> float:
    """McNemar's exact test p-value from the two discordant counts."""
    return binom_two_sided(a_only, a_only + b_only)


def holm(p_values: Sequence[float], alpha: float = ALPHA) -> tuple[list[bool], list[float]]:
    """Holm step-down correction: (reject flags, adjusted p-values)."""
    if not p_values:
        return [], []
    reject, adjusted, _, _ = multipletests(list(p_values), alpha=alpha, method="holm")
    return [bool(r) for r in reject], [float(p) for p in adjusted]
