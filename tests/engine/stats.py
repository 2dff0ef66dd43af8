"""Chi-square goodness of fit without scipy (critical values at p = 0.001)."""

from __future__ import annotations

from typing import Mapping

#: Upper 0.1% points of the chi-square distribution, by degrees of freedom.
CHI2_999 = {1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515, 6: 22.458, 7: 24.322, 8: 26.124,
            9: 27.877, 10: 29.588, 11: 31.264, 12: 32.909, 15: 37.697, 19: 43.820, 20: 45.315, 23: 49.728}


def chi_square(counts: Mapping, probs: Mapping) -> tuple[float, int]:
    """The statistic and degrees of freedom of ``counts`` against exact ``probs``."""
    n = sum(counts.values())
    assert set(counts) <= set(probs), f"outcomes outside the support: {set(counts) - set(probs)}"
    stat = 0.0
    for k, p in probs.items():
        expected = n * p
        assert expected >= 5, "too few samples for a chi-square test"
        stat += (counts.get(k, 0) - expected) ** 2 / expected
    return stat, len(probs) - 1


def assert_fits(counts: Mapping, probs: Mapping) -> None:
    stat, df = chi_square(counts, probs)
    assert stat < CHI2_999[df], f"chi-square {stat:.2f} >= {CHI2_999[df]} (df={df}): {dict(counts)} vs {dict(probs)}"
