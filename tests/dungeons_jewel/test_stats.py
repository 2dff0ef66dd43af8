"""The hazard roll, the monster, the dragon fight and the attack contest match their exact odds.

Each check samples the real rules code (``apply``) with a fixed seed and
compares the count with the exact probability from ``dice_distribution``,
allowing five standard deviations (a false alarm has odds below one in a
million, and the fixed seed makes the test deterministic anyway).
"""

from __future__ import annotations

import math

import pytest

from boardlab.engine import Rng, dice_distribution

from .helpers import CENTRE, blank, cell, give, place, put

N = 3000
VARIANTS = ("rulebook", "concept", "revised")
POWER_ITEMS = ["broadsword", "shield", "boots", "helmet"]


def _assert_rate(hits: int, p: float, n: int = N) -> None:
    sigma = math.sqrt(n * p * (1 - p))
    assert abs(hits - n * p) <= 5 * sigma + 1, f"{hits}/{n} observed, {n * p:.1f} expected (p={p:.4f})"


def _p_at_least(dist: dict[int, float], need: int) -> float:
    return sum(p for total, p in dist.items() if total >= need)


def _sample(base, actions, outcome, seed: int) -> int:
    rng = Rng(seed)
    hits = 0
    for _ in range(N):
        s = base.clone()
        s.rng = rng
        for a in actions:
            s.apply(a)
        hits += outcome(s)
    return hits


@pytest.mark.seed("dungeons-jewel:17.11", "dungeons-jewel:61.9")
@pytest.mark.parametrize("variant", VARIANTS)
def test_hazard_roll(variant):
    base = blank(variant=variant)
    put(base, cell(1, 0), "fire")
    g = base.game
    p = _p_at_least(dice_distribution(g.opt_die), g.opt_hazard)
    assert p == {"rulebook": 0.5, "concept": 4 / 6, "revised": 0.5}[variant]
    hits = _sample(base, [("move", cell(1, 0)), ("roll",)], lambda s: s.health[0] == 2, 11)
    _assert_rate(hits, p)


@pytest.mark.seed("dungeons-jewel:33.3", "dungeons-jewel:120.2", "dungeons-jewel:120.3")
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("power", [0, 2])
def test_monster_roll(variant, power):
    base = blank(variant=variant)
    give(base, 0, *POWER_ITEMS[:power])
    put(base, cell(1, 0), "monster")
    p = _p_at_least({f + power: q for f, q in dice_distribution(6).items()}, 6)
    hits = _sample(base, [("move", cell(1, 0)), ("roll",)], lambda s: s.health[0] == 2, 12 + power)
    _assert_rate(hits, p)


@pytest.mark.seed("dungeons-jewel:25.3", "dungeons-jewel:25.4", "dungeons-jewel:61.18", "dungeons-jewel:61.19", "dungeons-jewel:174.1")
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("power", [0, 3])
def test_dragon_fight(variant, power):
    base = blank(variant=variant)
    give(base, 0, *POWER_ITEMS[:power])
    place(base, 0, cell(3, 2))
    target = base.game.opt_dragon
    p = _p_at_least(dice_distribution(6, 2), target - power)
    hits = _sample(base, [("move", CENTRE)], lambda s: s.jewel == 0, 13 + power)
    _assert_rate(hits, p)


def _contest(a: int, d: int) -> tuple[float, float, float]:
    die = dice_distribution(6)
    win = lose = tie = 0.0
    for x, px in die.items():
        for y, py in die.items():
            if x + a > y + d:
                win += px * py
            elif x + a < y + d:
                lose += px * py
            else:
                tie += px * py
    return win, lose, tie


@pytest.mark.seed("dungeons-jewel:29.2", "dungeons-jewel:67.2")
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("powers", [(0, 0), (2, 1)])
def test_attack_contest(variant, powers):
    base = blank(variant=variant)
    place(base, 0, cell(2, 2))
    place(base, 1, cell(3, 2))
    give(base, 0, *POWER_ITEMS[:powers[0]])
    give(base, 1, *POWER_ITEMS[2:2 + powers[1]])
    win, lose, tie = _contest(*powers)
    rng = Rng(17)
    counts = [0, 0, 0]
    for _ in range(N):
        s = base.clone()
        s.rng = rng
        s.apply(("attack", 1))
        if s.health[1] == 1:
            counts[0] += 1
        elif s.health[0] == 1:
            counts[1] += 1
        else:
            counts[2] += 1
    for hits, p in zip(counts, (win, lose, tie)):
        _assert_rate(hits, p)
