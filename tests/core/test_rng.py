"""The core's SplitMix64 is boardlab.engine.rng.Rng bit for bit: raw outputs, below()'s rejection,
rolls, floats, choices, shuffles (Fisher-Yates order) and derive_seed."""

from __future__ import annotations

import pytest

core = pytest.importorskip("boardlab_core", reason="boardlab_core (the compiled core) is not installed")

from boardlab.engine.rng import Rng, derive_seed  # noqa: E402

SEEDS = [0, 1, 42, 2**63 - 1, 2**64 - 1, 2**64 + 5, 0x9E3779B97F4A7C15, 123456789]


@pytest.mark.parametrize("seed", SEEDS)
def test_raw_outputs_and_state(seed):
    py, rs = Rng(seed), core.SplitMix64(seed)
    assert rs.state == py.state
    assert [rs.next64() for _ in range(2000)] == [py.next64() for _ in range(2000)]
    assert rs.state == py.state


@pytest.mark.parametrize("seed", SEEDS)
def test_below_rejection_and_rolls(seed):
    py, rs = Rng(seed), core.SplitMix64(seed)
    # bounds near 2**63 make rejection likely, so the draw order after a rejection is checked too
    bounds = [1, 2, 3, 5, 6, 7, 12, 20, 47, 100, 4095, 4096, 4097, 10**9 + 7, 2**62 + 1, 3 * 2**61 + 1, 2**63 - 1]
    for k in range(3000):
        n = bounds[k % len(bounds)]
        assert rs.below(n) == py.below(n), (k, n)
    for sides in (4, 6, 8, 20):
        assert [rs.roll(sides) for _ in range(300)] == [py.roll(sides) for _ in range(300)]
    assert [rs.random() for _ in range(300)] == [py.random() for _ in range(300)]
    assert rs.state == py.state


def test_rejection_actually_happens():
    """With n = 3 * 2**61 + 1 about a quarter of the draws are rejected: the streams must stay in step."""
    n = 3 * 2**61 + 1
    limit = (1 << 64) - ((1 << 64) % n)
    probe = Rng(9)
    raws = [probe.next64() for _ in range(50)]
    assert any(x >= limit for x in raws)
    py, rs = Rng(9), core.SplitMix64(9)
    assert [rs.below(n) for _ in range(40)] == [py.below(n) for _ in range(40)]
    assert rs.state == py.state


@pytest.mark.parametrize("seed", SEEDS)
def test_shuffle_and_choice(seed):
    py, rs = Rng(seed), core.SplitMix64(seed)
    for length in (0, 1, 2, 3, 10, 48, 100, 300):
        items = [f"t{i}" for i in range(length)]
        want = items[:]
        py.shuffle(want)
        got = rs.shuffle(items)
        assert got == want, length
        assert items == [f"t{i}" for i in range(length)]  # a shuffled copy; the argument is untouched
    seq = ["a", "b", "c", "d", "e", "f", "g"]
    assert [rs.choice(seq) for _ in range(500)] == [py.choice(seq) for _ in range(500)]
    assert rs.state == py.state


def test_derive_seed_matches():
    cases = [(0,), (5, 1000), (5, 1001), (2**70 + 3, -5, 7), (123, 77, 2), (123, 78), (2**64 - 1, 2**64, 0), (-1, 3)]
    for args in cases:
        assert core.derive_seed(*args) == derive_seed(*args), args
    for seed in range(300):
        for seat in range(4):
            assert core.derive_seed(seed, 1000 + seat) == derive_seed(seed, 1000 + seat)


def test_below_refuses_empty_range():
    with pytest.raises(ValueError):
        core.SplitMix64(1).below(0)
