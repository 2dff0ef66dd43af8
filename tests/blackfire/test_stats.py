"""Statistical checks of Blackfire's dice against exact probabilities (fixed seeds, wide bounds)."""

from __future__ import annotations

import math

import pytest

from boardlab.engine.components import dice_distribution
from boardlab.engine.rng import Rng

from .helpers import UNITS, field_state, place, sq, token

N = 2000


@pytest.mark.seed("blackfire:43.2", "blackfire:90.5")
def test_archer_contest_is_won_on_five_or_six():
    """"Attacker rolls a die. They must roll a 5 or 6 to kill the defender.\""""
    base = field_state()
    base.game.record_events = False
    place(base, GA=(5, 8), GS=(0, 0), GW=(0, 8), RS=(10, 1), RA=(5, 4), RW=(10, 3))
    p = sum(q for face, q in dice_distribution(6).items() if face >= 5)
    wins = 0
    for i in range(N):
        st = base.clone()
        st.rng = Rng(1_000_003 * i + 17)
        st.apply(("move", UNITS["GA"], sq(st, 5, 6)))
        attacker_alive = st.units[UNITS["GA"]].cell is not None
        defender_alive = st.units[UNITS["RA"]].cell is not None
        assert attacker_alive != defender_alive  # exactly one archer dies
        wins += attacker_alive
    sd = math.sqrt(N * p * (1 - p))
    assert abs(wins - N * p) < 5 * sd, (wins, N * p)


@pytest.mark.seed("blackfire:81.1")
def test_teleport_table_is_a_fair_d6():
    """Teleport: "Roll d6": 1-4 Orb to Red start #1-#4, 5 Mass Recall, 6 the unit teleports."""
    base = field_state()
    base.game.record_events = False
    place(base, GS=(5, 4), GA=(0, 0), GW=(7, 4), RS=(10, 1), RA=(10, 2), RW=(10, 3))
    token(base, 7, 5, "teleport")
    red_starts = base.game.castle.red_starts
    counts = [0] * 6
    for i in range(N):
        st = base.clone()
        st.rng = Rng(7_919 * i + 5)
        st.apply(("move", UNITS["GW"], sq(st, 7, 5)))
        if st.stack and st.stack[-1].kind == "teleport":
            outcome = 6
        elif st.orb_holder is None:
            outcome = red_starts.index(st.orb_cell) + 1
        else:
            assert st.stats["rule:mass-recall"][0] == 1
            outcome = 5
        counts[outcome - 1] += 1
    expected = [N * dice_distribution(6)[f] for f in range(1, 7)]
    chi2 = sum((c - e) ** 2 / e for c, e in zip(counts, expected))
    assert chi2 < 20.5, counts  # 5 degrees of freedom, p = 0.001
