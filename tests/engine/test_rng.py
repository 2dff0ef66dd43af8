"""The state RNG: determinism, exact copies and the exact distribution of dice and shuffles."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.engine import Rng, derive_seed, dice_distribution, roll

from .stats import assert_fits, chi_square


@given(st.integers(min_value=0, max_value=2**64 - 1))
@settings(max_examples=50, deadline=None)
def test_same_seed_same_stream(seed):
    a, b = Rng(seed), Rng(seed)
    assert [a.next64() for _ in range(20)] == [b.next64() for _ in range(20)]


def test_copy_and_state_resume_identically():
    r = Rng(99)
    for _ in range(7):
        r.roll(6)
    c = r.copy()
    saved = Rng(r.state)
    assert [r.roll(20) for _ in range(30)] == [c.roll(20) for _ in range(30)] == [saved.roll(20) for _ in range(30)]


def test_different_seeds_differ():
    assert [Rng(1).next64() for _ in range(3)] != [Rng(2).next64() for _ in range(3)]


@given(st.integers(min_value=1, max_value=10**6), st.integers(min_value=0, max_value=2**63))
@settings(max_examples=100, deadline=None)
def test_below_and_roll_in_range(n, seed):
    r = Rng(seed)
    assert 0 <= r.below(n) < n
    assert 1 <= r.roll(n) <= n


def test_below_rejects_empty_range():
    with pytest.raises(ValueError):
        Rng(0).below(0)


@pytest.mark.parametrize("sides", [2, 3, 4, 6, 8, 10, 12, 20])
def test_single_die_is_uniform(sides):
    r = Rng(1234 + sides)
    counts = Counter(r.roll(sides) for _ in range(600 * sides))
    assert set(counts) == set(range(1, sides + 1))
    assert_fits(counts, dice_distribution(sides))


@pytest.mark.parametrize("sides,count", [(6, 2), (6, 3), (4, 2)])
def test_dice_sums_match_exact_distribution(sides, count):
    r = Rng(77)
    dist = dice_distribution(sides, count)
    # merge rare tails so every expected count is at least 5
    n = 30000
    counts = Counter(sum(roll(r, sides, count)) for _ in range(n))
    lo = [k for k in dist if n * dist[k] < 20]
    merged_p = {("tail" if k in lo else k): 0.0 for k in dist}
    merged_c: Counter = Counter()
    for k, p in dist.items():
        merged_p["tail" if k in lo else k] += p
    for k, c in counts.items():
        merged_c["tail" if k in lo else k] += c
    assert_fits(merged_c, merged_p)


def test_dice_distribution_exact_values():
    d = dice_distribution(6, 2)
    assert abs(sum(d.values()) - 1) < 1e-12
    assert d[7] == pytest.approx(6 / 36) and d[2] == pytest.approx(1 / 36) and d[12] == pytest.approx(1 / 36)
    assert dice_distribution(10) == {k: pytest.approx(0.1) for k in range(1, 11)}


def test_chi_square_detects_a_loaded_die():
    """The statistical helper must be able to fail."""
    counts = Counter({1: 1200, 2: 1000, 3: 1000, 4: 1000, 5: 1000, 6: 800})
    stat, df = chi_square(counts, dice_distribution(6))
    with pytest.raises(AssertionError):
        assert_fits(counts, dice_distribution(6))
    assert stat > 20


def test_shuffle_gives_every_permutation_equally_often():
    r = Rng(5)
    perms = list(itertools.permutations("abc"))
    counts: Counter = Counter()
    for _ in range(12000):
        items = list("abc")
        r.shuffle(items)
        counts[tuple(items)] += 1
    assert_fits(counts, {p: 1 / 6 for p in perms})


def test_choice_is_uniform():
    r = Rng(8)
    counts = Counter(r.choice("wxyz") for _ in range(8000))
    assert_fits(counts, {k: 0.25 for k in "wxyz"})


def test_random_float_in_unit_interval():
    r = Rng(3)
    xs = [r.random() for _ in range(2000)]
    assert all(0.0 <= x < 1.0 for x in xs)
    assert 0.45 < sum(xs) / len(xs) < 0.55


def test_derive_seed_is_deterministic_and_spreads():
    assert derive_seed(1, 2) == derive_seed(1, 2)
    seeds = {derive_seed(42, i) for i in range(1000)}
    assert len(seeds) == 1000
    assert all(0 <= s < 2**63 for s in seeds)
    assert derive_seed(1, 2) != derive_seed(2, 1)
