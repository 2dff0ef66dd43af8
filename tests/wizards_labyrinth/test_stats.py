"""Statistical checks of trap saves and of two-hero combat against exact probabilities.

Each check runs the real rule code many times from a fixed seed and requires the observed
frequency to lie within 4.5 standard deviations of the exact value (a fixed-seed test that a
wrong rule, e.g. 10+ instead of 7+ or the sum instead of the highest roll, fails by far).
"""

from __future__ import annotations

import math

import pytest

from boardlab.engine import Rng, Token, dice_distribution

from .helpers import scenario

N = 2000


def within(hits: int, n: int, p: float) -> bool:
    return abs(hits - n * p) <= 4.5 * math.sqrt(n * p * (1 - p)) + 1


@pytest.mark.seed("wizards-labyrinth:27.1", "wizards-labyrinth:61.1")
@pytest.mark.parametrize("traps,target", [(1, 7), (2, 10), (3, 13)])
def test_trap_save_frequency(traps, target):
    s = scenario()
    s.rng = Rng(1234 + traps)
    h = s.hero(1)
    saved = 0
    for _ in range(N):
        h.hp, h.pos = 10, 5
        s.tokens[5] = [Token("T", False, 1) for _ in range(traps)]
        s._t_combat(5)
        saved += h.hp == 10
    p = (21 - target) / 20
    assert within(saved, N, p), (saved / N, p)


def exact_two_hero_win(bonus: int, levels: int, combine: bool) -> float:
    heroes = dice_distribution(20, 2) if combine else {m: (m * m - (m - 1) ** 2) / 400 for m in range(1, 21)}
    return sum(ph / 20 for w in range(1, 21) for t, ph in heroes.items() if t + bonus >= w + levels)


@pytest.mark.seed("wizards-labyrinth:27.1", "wizards-labyrinth:56.1", "wizards-labyrinth:335.5")
@pytest.mark.parametrize("variant,combine", [("final", False), ("alpha", True)])
def test_two_hero_combat_frequency(variant, combine):
    s = scenario(variant=variant)
    s.rng = Rng(99)
    s.hero(1).equipment = ["Short Sword"]
    s.hero(2).equipment = ["Long Sword"]
    levels = 9 if not combine else 16
    wins = 0
    for _ in range(N):
        for h in s.heroes:
            h.hp, h.pos, h.prev, h.moved = 10, 5, 0, True
        s.tokens[5] = [Token("m5", True, 1), Token(f"m{levels - 5}", True, 1)]
        s.stack.clear()
        s._t_fight(5)
        wins += not s.tokens[5]
    p = exact_two_hero_win(3, levels, combine)
    assert 0.2 < p < 0.8
    assert within(wins, N, p), (wins / N, p)
    # the other reading would be far off
    other = exact_two_hero_win(3, levels, not combine)
    assert not within(wins, N, other)
