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

from typing import Any, Sequence

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


# -- one procedure per answer: each test with the interval that inverts it -------------------------------------
#
# Every answer the lab gives takes its p-value and its interval from one of the procedures below, at one level
# (the level of the Holm step that decided it, :func:`holm_levels`), so its verdict, its p-value and its interval
# cannot disagree. A directional question ("above", "below") takes the one-sided test; its interval is then the
# two-sided interval at twice the level, whose ends are each a one-sided bound at the level: the end on the
# question's side excludes the reference exactly when the one-sided p-value is below the level.

ALTERNATIVES = ("two-sided", "greater", "less")


def level_text(alpha: float, alternative: str = "two-sided") -> str:
    """How an interval at level ``alpha`` is labelled where it is printed: ``95%``, ``98.33%``, and for a directional
    question ``one-sided 97.5% bounds`` (each end of its interval is one).

    >>> level_text(0.05), level_text(0.05 / 3), level_text(0.025, "greater")
    ('95% interval', '98.33% interval', 'each end a one-sided 97.5% bound')
    """
    pct = f"{100 * (1 - alpha):.4g}%"
    return f"{pct} interval" if alternative == "two-sided" else f"each end a one-sided {pct} bound"


def _check_alternative(alternative: str) -> None:
    if alternative not in ALTERNATIVES:
        raise ValueError(f"alternative must be one of {', '.join(ALTERNATIVES)}, got {alternative!r}")


def score_test(successes: float, n: int, p0: float, alpha: float = ALPHA, alternative: str = "two-sided") -> tuple[float, float, float]:
    """A proportion against ``p0``: (p-value, low, high) of the score test and the Wilson interval that inverts it.

    Two-sided: the interval at level ``alpha`` excludes ``p0`` exactly when ``p < alpha``. One-sided (``greater``:
    the rate is above ``p0``; ``less``: below): the p-value is the one-sided score test's and the interval is
    Wilson's at ``2 * alpha``, so its low end exceeds ``p0`` exactly when the ``greater`` p-value is below ``alpha``.

    >>> p, lo, hi = score_test(60, 100, 0.5, 0.05, "greater")
    >>> round(p, 4), lo > 0.5
    (0.0228, True)
    """
    _check_alternative(alternative)
    if n <= 0 or not 0 < p0 < 1:
        return 1.0, 0.0, 1.0
    import math

    from scipy.stats import norm

    z = (successes / n - p0) / math.sqrt(p0 * (1 - p0) / n)
    p = {"two-sided": 2 * norm.sf(abs(z)), "greater": norm.sf(z), "less": norm.cdf(z)}[alternative]
    lo, hi = wilson(successes, n, alpha=alpha if alternative == "two-sided" else 2 * alpha)
    return float(min(1.0, p)), lo, hi


def t_test(values: Sequence[float], ref: float = 0.0, alpha: float = ALPHA, alternative: str = "two-sided") -> dict[str, float]:
    """A mean against ``ref`` (for paired games, the per-game differences against 0): Student's t-test and the t
    interval that inverts it (``mean``, ``low``, ``high``, ``p``, ``n``, ``sd``), as ``scipy.stats.ttest_1samp`` and
    its ``confidence_interval`` give them.

    Two-sided: the interval excludes ``ref`` exactly when ``p < alpha``; one-sided: as :func:`score_test`. Values all
    equal (no spread) decide by the mean alone: ``p`` is 0 when it differs from ``ref`` in the tested direction, else
    1, and the interval is the mean. One value says nothing: ``p`` is 1 and the interval spans the mean and ``ref``.

    >>> r = t_test([1, 2, 3, 4, 5], 1.0)
    >>> round(r["p"], 4), round(r["low"], 3), round(r["high"], 3)
    (0.0474, 1.037, 4.963)
    """
    _check_alternative(alternative)
    vals = [float(v) for v in values]
    n = len(vals)
    if n == 0:
        return {"mean": 0.0, "low": min(0.0, ref), "high": max(0.0, ref), "p": 1.0, "n": 0, "sd": 0.0}
    mean = sum(vals) / n
    if n == 1:
        return {"mean": mean, "low": min(mean, ref), "high": max(mean, ref), "p": 1.0, "n": 1, "sd": 0.0}
    import math
    import statistics

    sd = statistics.stdev(vals)
    if sd == 0 or not math.isfinite(sd):
        side = {"two-sided": mean != ref, "greater": mean > ref, "less": mean < ref}[alternative]
        return {"mean": mean, "low": mean, "high": mean, "p": 0.0 if side else 1.0, "n": n, "sd": 0.0}
    lo, hi = t_interval(mean, sd, n, alpha, alternative)
    from scipy.stats import t as student

    tt = (mean - ref) / (sd / math.sqrt(n))
    p = {"two-sided": 2 * student.sf(abs(tt), n - 1), "greater": student.sf(tt, n - 1), "less": student.cdf(tt, n - 1)}[alternative]
    return {"mean": mean, "low": lo, "high": hi, "p": float(min(1.0, p)), "n": n, "sd": sd}


def t_interval(mean: float, sd: float, n: int, alpha: float = ALPHA, alternative: str = "two-sided") -> tuple[float, float]:
    """The interval of :func:`t_test` at another level, from its mean, standard deviation and count."""
    if n < 2:
        return (mean, mean) if sd == 0 else (float("-inf"), float("inf"))
    if sd == 0:
        return (mean, mean)
    import math

    from scipy.stats import t as student

    q = float(student.ppf(1 - (alpha / 2 if alternative == "two-sided" else alpha), n - 1))
    half = q * sd / math.sqrt(n)
    return (mean - half, mean + half)


def holm_levels(p_values: Sequence[float], alpha: float = ALPHA) -> tuple[list[bool], list[float], list[float]]:
    """Holm's step-down correction with the level of the step that decided each test: (rejected, adjusted p-values,
    levels). A rejected test's level is ``alpha / (m - step)`` at its step; every test from the first that is not
    rejected on takes that step's level. So a test is rejected exactly when its p-value is at most its level (and
    exactly when its adjusted p-value is at most ``alpha``), and its interval, taken at its level by the procedure
    that gave its p-value, excludes the reference exactly when it is rejected.

    >>> holm_levels([0.01, 0.04, 0.03])
    ([True, False, False], [0.03, 0.06, 0.06], [0.016666666666666666, 0.025, 0.025])
    """
    m = len(p_values)
    if not m:
        return [], [], []
    reject, adjusted = holm(p_values, alpha)
    order = sorted(range(m), key=lambda i: p_values[i])
    levels = [0.0] * m
    stop = None
    for step, i in enumerate(order):
        level = alpha / (m - step)
        if stop is None and not reject[i]:
            stop = level
        levels[i] = level if stop is None else stop
    return reject, adjusted, levels


def diff_test(k1: float, n1: int, k2: float, n2: int, alpha: float = ALPHA) -> tuple[float, float, float]:
    """Two independent proportions, ``k1/n1 - k2/n2``: (p-value, low, high) of Newcombe's hybrid score interval and the
    p-value that inverts it, the smallest level whose interval excludes zero (found by bisection on the level), so
    the interval at ``alpha`` excludes zero exactly when ``p <= alpha``.

    >>> p, lo, hi = diff_test(30, 50, 15, 50)
    >>> round(p, 4), lo > 0, diff_test(30, 50, 15, 50, alpha=p * 1.001)[1] > 0, diff_test(30, 50, 15, 50, alpha=p / 1.001)[1] > 0
    (0.0024, True, True, False)
    """
    lo, hi = diff_ci(k1, n1, k2, n2, alpha)
    if n1 <= 0 or n2 <= 0:
        return 1.0, lo, hi

    def excludes(a: float) -> bool:
        low, high = diff_ci(k1, n1, k2, n2, a)
        return low > 0 or high < 0

    top, bottom = 1 - 1e-9, 1e-16
    if not excludes(top):
        return 1.0, lo, hi
    if excludes(bottom):
        return 0.0, lo, hi
    for _ in range(48):  # geometric bisection: the interval shrinks as the level grows, so "excludes" is monotone
        mid = (top * bottom) ** 0.5
        if excludes(mid):
            top = mid
        else:
            bottom = mid
    return float(top), lo, hi


def sign_interval(a_only: int, b_only: int, n: int, alpha: float = ALPHA, alternative: str = "two-sided") -> tuple[float, float]:
    """The interval of :func:`paired_difference` for 0/1 outcomes: Clopper-Pearson's for the share ``b_only / (a_only +
    b_only)`` of the games that differ, scaled to the mean paired difference ``(b_only - a_only) / n`` given how many
    games differ."""
    d = a_only + b_only
    if d == 0 or n <= 0:
        return (0.0, 0.0)
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = proportion_confint(b_only, d, alpha=alpha if alternative == "two-sided" else 2 * alpha, method="beta")
    lo, hi = (0.0 if b_only == 0 else float(lo)), (1.0 if b_only == d else float(hi))
    return (d / n * (2 * lo - 1), d / n * (2 * hi - 1))


def paired_difference(diffs: Sequence[float], alpha: float = ALPHA, alternative: str = "two-sided") -> dict[str, Any]:
    """The mean of paired per-game differences (B minus A) with one test and the interval that inverts it.

    When every difference is -1, 0 or 1 (a win against a loss, a game stopped at the turn cap or not), the test is
    the exact sign test on the games that differ (McNemar's exact test) and the interval Clopper-Pearson's for the
    share of those games B wins, scaled to the difference: both come from the same binomial tails, so the interval
    at ``alpha`` excludes zero exactly when ``p < alpha`` (``"test": "exact sign test"``). Otherwise (draws scored
    as shares, lengths, experience) the test is Student's paired t-test and the interval its t interval
    (:func:`t_test`, ``"test": "paired t-test"``). One-sided alternatives as :func:`score_test`.

    >>> r = paired_difference([1] * 6 + [0] * 34)
    >>> r["test"], round(r["p"], 5), r["low"] > 0
    ('exact sign test', 0.03125, True)
    >>> paired_difference([1] * 6 + [0] * 34, alpha=0.03)["low"] > 0
    False
    """
    _check_alternative(alternative)
    vals = [float(x) for x in diffs]
    n = len(vals)
    if n and all(v in (-1.0, 0.0, 1.0) for v in vals):
        a_only, b_only = sum(1 for v in vals if v < 0), sum(1 for v in vals if v > 0)
        d = a_only + b_only
        if d == 0:
            p = 1.0
        else:
            up, down = (float(binomtest(b_only, d, 0.5, alternative=side).pvalue) for side in ("greater", "less"))
            p = {"two-sided": min(1.0, 2 * min(up, down)), "greater": up, "less": down}[alternative]
        lo, hi = sign_interval(a_only, b_only, n, alpha, alternative)
        return {"mean": (b_only - a_only) / n, "low": lo, "high": hi, "p": p, "n": n, "sd": None,
                "a_only": a_only, "b_only": b_only, "test": "exact sign test"}
    r = t_test(vals, 0.0, alpha, alternative)
    return {**r, "a_only": sum(1 for v in vals if v < 0), "b_only": sum(1 for v in vals if v > 0), "test": "paired t-test"}


def paired_interval(r: dict[str, Any], alpha: float, alternative: str = "two-sided") -> tuple[float, float]:
    """The interval of a :func:`paired_difference` result at another level (its own procedure's)."""
    if r["test"] == "exact sign test":
        return sign_interval(r["a_only"], r["b_only"], r["n"], alpha, alternative)
    if r["n"] < 2:
        return (min(r["mean"], 0.0), max(r["mean"], 0.0))
    return t_interval(r["mean"], r["sd"], r["n"], alpha, alternative)
