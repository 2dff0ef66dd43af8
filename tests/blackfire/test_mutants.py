"""Tests that kill surviving mutants of Blackfire's rules modules (scripts/mutation.py, issue 42;
dispositions in benchmarks/mutation_dispositions.json)."""

from __future__ import annotations

from .helpers import UNITS, field_state


def test_a_kill_is_credited_to_the_killed_units_opponent_and_the_loss_to_its_owner():
    # kills combat.py:136 `1 - unit.side` -> `1 | unit.side` (a red loss credited as a red kill)
    for victim, side in (("RA", 1), ("GW", 0)):
        st = field_state()
        st._kill(UNITS[victim])
        kills, lost = st.stats["rule:kill"], st.stats["rule:units-lost"]
        assert kills[st.seat_of(1 - side)] == 1 and kills[st.seat_of(side)] == 0, (victim, kills)
        assert lost[st.seat_of(side)] == 1 and lost[st.seat_of(1 - side)] == 0, (victim, lost)
        assert st.units[UNITS[victim]].cell is None
