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


def diff_ci(k1: float, n1: int, k2: float, n2: int, alpha: float = ALPHA) -> tuple[float, float]:
    """Interval for ``k1/n1 - k2/n2`` of two independent proportions (Newcombe's hybrid score interval)."""
    if n1 <= 0 or n2 <= 0:
        return (-1.0, 1.0)
    from statsmodels.stats.proportion import confint_proportions_2indep

    lo, hi = confint_proportions_2indep(k1, n1, k2, n2, method="newcomb", compare="diff", alpha=alpha)
    return (max(-1.0, float(lo)), min(1.0, float(hi)))


def diff_p(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided p-value that two independent proportions are equal (Fisher's exact test)."""
    if n1 <= 0 or n2 <= 0:
        return 1.0
    from scipy.stats import fisher_exact

    return float(fisher_exact([[int(k1), int(n1 - k1)], [int(k2), int(n2 - k2)]]).pvalue)


def mean_ci(values: Sequence[float], alpha: float = ALPHA) -> tuple[float, float, float]:
    """Mean with its Student-t interval: (mean, low, high)."""
    vals = [float(v) for v in values]
    n = len(vals)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = sum(vals) / n
    if n == 1:
        return (mean, mean, mean)
    from scipy.stats import sem, t

    s = float(sem(vals))
    half = float(t.ppf(1 - alpha / 2, n - 1)) * s
    return (mean, mean - half, mean + half)


def paired_p(a: Sequence[float], b: Sequence[float]) -> float:
    """Two-sided p-value of a paired difference of means (Wilcoxon signed-rank; 1.0 when all pairs tie)."""
    diffs = [float(y) - float(x) for x, y in zip(a, b)]
    if not any(diffs):
        return 1.0
    from scipy.stats import wilcoxon

    return float(wilcoxon(diffs, zero_method="wilcox").pvalue)


def confidence_sequence(k: int, n: int, alpha: float = ALPHA, a: float = 0.5, b: float = 0.5) -> tuple[float, float]:
    """Anytime-valid confidence sequence for a Bernoulli rate after ``k`` successes in ``n`` trials.

    The beta-binomial mixture (Robbins 1970; Howard, Ramdas, McAuliffe & Sekhon 2021): with a
    Beta(a, b) mixture over the rate, the likelihood ratio
    ``M_n(p) = B(a + k, b + n - k) / B(a, b) / (p^k (1 - p)^(n - k))`` is a nonnegative martingale
    under rate ``p``, so by Ville's inequality ``P(exists n: M_n(p) >= 1/alpha) <= alpha``. The set
    ``{p : M_n(p) < 1/alpha}`` therefore covers the true rate at every ``n`` simultaneously: a run
    may look after every game and stop whenever it likes.
    """
    if n <= 0:
        return (0.0, 1.0)
    import math

    from scipy.optimize import brentq
    from scipy.special import betaln

    log_mix = betaln(a + k, b + n - k) - betaln(a, b)
    bound = math.log(1 / alpha)

    def g(p: float) -> float:  # log M_n(p) - log(1/alpha); negative inside the set
        return log_mix - (k * math.log(p) if k else 0.0) - ((n - k) * math.log1p(-p) if n - k else 0.0) - bound

    eps = 1e-12
    centre = min(max(k / n, eps), 1 - eps)
    if g(centre) >= 0:  # cannot happen for alpha < 1 with a proper prior, kept for safety
        return (centre, centre)
    lo = 0.0 if g(eps) < 0 else brentq(g, eps, centre)
    hi = 1.0 if g(1 - eps) < 0 else brentq(g, centre, 1 - eps)
    return (float(lo), float(hi))


def score_p(successes: float, n: int, p: float = 0.5) -> float:
    """Two-sided p-value of the score test of a proportion against ``p``: the test the Wilson interval inverts.

    So ``score_p(k, n, p) < alpha`` exactly when ``wilson(k, n, alpha)`` excludes ``p``.

    >>> round(score_p(60, 100, 0.5), 4)
    0.0455
    """
    if n <= 0 or p <= 0 or p >= 1:
        return 1.0
    import math

    from scipy.stats import norm

    z = (successes / n - p) / math.sqrt(p * (1 - p) / n)
    return float(2 * norm.sf(abs(z)))
