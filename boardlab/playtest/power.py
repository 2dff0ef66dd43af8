"""What a run could not see: the smallest effect a test detects with 80% power, and the games a smaller one needs.

Normal approximations for two-sided tests at level ``alpha`` (pass the level of the Holm step that decided the
test, not 0.05, when the test is one of a family):

* a win rate against a fixed share ``fair`` (the score test): ``(z(1 - alpha/2) + z(power)) * sqrt(fair (1 - fair) / n)``;
* a paired difference of two win rates (McNemar's test) with discordance rate ``psi`` (the share of games whose
  result differs between the two settings): ``(z(1 - alpha/2) + z(power)) * sqrt(psi / n)``, the usual
  approximation under the null (Connor 1987, without the small ``d**2`` term);
* a mean paired difference (length) with standard error ``se`` (the paired t-test's):
  ``(z(1 - alpha/2) + z(power)) * se``.

Each ``games_to_see_*`` inverts its formula for a stated smaller effect, assuming the run's own spread
(``fair``, ``psi`` or the per-game standard deviation) stays the same.

>>> round(100 * detectable_share(300, 0.25, 0.05), 1)
7.0
>>> games_to_see_share(0.02, 0.25, 0.05)
3680
>>> round(100 * detectable_paired(300, 0.2, 0.05), 1)
7.2
>>> games_to_see_paired(0.05, 0.2, 0.05)
628
"""

from __future__ import annotations

import math

from scipy.stats import norm

POWER = 0.8


def z_sum(alpha: float, power: float = POWER) -> float:
    """``z(1 - alpha/2) + z(power)``: how many standard errors an effect must be to be seen with ``power``."""
    return float(norm.ppf(1 - alpha / 2) + norm.ppf(power))


def detectable_share(n: int, fair: float, alpha: float, power: float = POWER) -> float:
    """The smallest edge over ``fair`` a two-sided level-``alpha`` test sees with ``power`` over ``n`` games."""
    return z_sum(alpha, power) * math.sqrt(fair * (1 - fair) / n) if n else 1.0


def games_to_see_share(edge: float, fair: float, alpha: float, power: float = POWER) -> int:
    """Games needed to see an ``edge`` over ``fair`` with ``power`` (level ``alpha``)."""
    return math.ceil((z_sum(alpha, power) / edge) ** 2 * fair * (1 - fair))


def detectable_paired(n: int, psi: float, alpha: float, power: float = POWER) -> float:
    """The smallest paired win-rate difference McNemar's test at level ``alpha`` sees with ``power`` over ``n``
    paired games whose results differ in a share ``psi`` of the games."""
    return z_sum(alpha, power) * math.sqrt(psi / n) if n else 1.0


def games_to_see_paired(diff: float, psi: float, alpha: float, power: float = POWER) -> int:
    """Paired games needed to see a win-rate difference ``diff`` (discordance rate ``psi``)."""
    return max(1, math.ceil((z_sum(alpha, power) / diff) ** 2 * psi))


def detectable_mean(se: float, alpha: float, power: float = POWER) -> float:
    """The smallest mean difference a level-``alpha`` test sees with ``power`` when its standard error is ``se``."""
    return z_sum(alpha, power) * se


def games_to_see_mean(diff: float, se: float, n: int, alpha: float, power: float = POWER) -> int:
    """Paired games needed to see a mean difference ``diff``, when ``n`` games gave the standard error ``se``."""
    return max(1, math.ceil(n * (detectable_mean(se, alpha, power) / diff) ** 2))


def smaller_step(detectable: float, steps: tuple[float, ...]) -> float | None:
    """The largest of ``steps`` (a round effect to state) below ``detectable``, or None when none is."""
    below = [s for s in steps if s < detectable]
    return max(below) if below else None
