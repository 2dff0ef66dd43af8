"""The statistics helper against exact probabilities computed by hand."""

from math import comb

from boardlab import stats
from boardlab.agents import arena
from boardlab.playtest import compare, metrics


def test_binomial_exact_two_sided():
    # 0 of 10: two tails of 1/1024 each.
    assert abs(stats.binom_two_sided(0, 10) - 2 / 1024) < 1e-12
    # 2 of 10: P(X<=2)+P(X>=8) = 2*(1+10+45)/1024
    assert abs(stats.binom_two_sided(2, 10) - 2 * 56 / 1024) < 1e-12
    assert stats.binom_two_sided(5, 10) == 1.0
    assert stats.binom_two_sided(0, 0) == 1.0


def test_mcnemar_uses_discordant_pairs_only():
    a = [True] * 7 + [False] * 1 + [True] * 30
    b = [False] * 7 + [True] * 1 + [True] * 30
    r = compare.mcnemar(a, b)
    expected = 2 * sum(comb(8, i) for i in range(2)) / 2**8
    assert (r["a_only"], r["b_only"]) == (7, 1)
    assert abs(r["p_value"] - expected) < 1e-12


def test_wilson_matches_closed_form_and_is_shared():
    lo, hi = stats.wilson(50, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.4038, 0.5962)
    assert stats.wilson(0, 0) == (0.0, 1.0)
    assert stats.wilson(0, 20)[0] == 0.0 and abs(stats.wilson(20, 20)[1] - 1.0) < 1e-12
    # n=20, 0 successes: z^2/(n+z^2) is the upper bound
    z2 = 1.959963984540054**2
    assert abs(stats.wilson(0, 20)[1] - z2 / (20 + z2)) < 1e-12
    assert metrics.wilson is stats.wilson and arena.wilson is stats.wilson


def test_holm_adjusts_across_comparisons():
    reject, adj = stats.holm([0.044, 0.5, 0.3, 0.9])
    # smallest p times 4 comparisons: no longer significant
    assert abs(adj[0] - 0.176) < 1e-12 and reject == [False] * 4


def test_difference_and_mean_intervals():
    lo, hi = stats.diff_ci(30, 100, 20, 100)
    assert lo < 0.1 < hi and round(lo, 3) == -0.020
    m, lo, hi = stats.mean_ci([1, 2, 3, 4, 5])
    # t(0.975, 4) = 2.7764; sem = sqrt(2.5/5)
    assert m == 3 and abs(hi - (3 + 2.7764451 * (2.5 / 5) ** 0.5)) < 1e-6
    assert stats.diff_p(10, 10, 0, 10) < 1e-4 and stats.diff_p(5, 10, 5, 10) == 1.0
