"""Statistical checks of movement (2d6, halved) and combat against exact probabilities."""

import pytest

from boardlab.engine import dice_distribution
from boardlab.engine.rng import Rng

from .helpers import fresh, put

N = 3000


def chi_square(counts: dict[int, int], probs: dict[int, float], n: int) -> float:
    return sum((counts.get(k, 0) - n * p) ** 2 / (n * p) for k, p in probs.items())


@pytest.mark.seed("summoners-quest:40.1", "summoners-quest:40.4")
def test_movement_options_follow_2d6_and_the_halved_roll():
    # "Movement is determined by the roll of 2d6 dice." / "Round down when halving the roll"
    base = fresh()
    base.pos[0] = 9  # clear of portals, so each option has one destination
    put(base, 0, "einherjar", 9)
    full, half = {}, {}
    for i in range(N):
        st = base.clone()
        st.rng = Rng(1000 + i)
        st.apply(("roll",))
        acts = st.legal_actions()
        (p_move,) = [a for a in acts if a[1] == "P"]
        b_moves = [a for a in acts if a[1][0] == "B"]
        full[p_move[2] - 9] = full.get(p_move[2] - 9, 0) + 1
        # half moves: the portal at 12 may add a gate branch only with 10 mana; there is none
        (b,) = b_moves
        half[b[2] - 9] = half.get(b[2] - 9, 0) + 1
    exact = dice_distribution(6, 2)
    assert set(full) <= set(exact)
    assert chi_square(full, exact, N) < 29.6  # df 10, p = 0.001
    halved: dict[int, float] = {}
    for total, p in exact.items():
        halved[total // 2] = halved.get(total // 2, 0.0) + p
    assert chi_square(half, halved, N) < 22.5  # df 5, p = 0.001


def combat_win_rate(variant=None, attacker_status=None, n=N):
    base = fresh(variant=variant)
    base.pos[0] = base.pos[1] = 5
    if attacker_status:
        base.status[0] = [[attacker_status, 5]]
    wins = 0
    for i in range(n):
        st = base.clone()
        st.rng = Rng(7000 + i)
        st.combat = {"att": "P0", "def": "P1", "space": 5, "bonus": {}, "asked": [], "stage": "dice"}
        st.resolve_combat()
        wins += st.life[1] < 10
    return wins / n


def within(p_hat: float, p: float, n: int = N) -> bool:
    return abs(p_hat - p) < 4 * (p * (1 - p) / n) ** 0.5


@pytest.mark.seed("summoners-quest:42.3")
def test_combat_is_even_with_rerolled_ties():
    assert within(combat_win_rate(), 0.5)


def test_combat_with_defender_ties():
    assert within(combat_win_rate("defender-ties"), 15 / 36)


def test_combat_with_a_blessed_attacker():
    # +1 to the attacker's die: wins 21/36, ties 5/36 (re-rolled), loses 10/36
    assert within(combat_win_rate(attacker_status="blessed"), 21 / 31)
