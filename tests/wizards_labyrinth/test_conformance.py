"""The shared conformance checks for every version and player count (hypothesis over seeds)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.engine import make
from tests.conformance import check_bad_actions, check_playout

VARIANTS = ("final", "beta", "beta-playtest", "alpha")


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_random_playouts_conform(variant, players, seed):
    check_playout("wizards-labyrinth", seed, players=players, variant=variant,
                  options={"max_turns": 12}, every=3, leak_every=5)


@pytest.mark.parametrize("variant", ["final", "beta", "alpha"])
def test_heuristic_full_game_conforms(variant):
    state = check_playout("wizards-labyrinth", 3, players=3, variant=variant, agent="heuristic",
                          every=15, leak_every=25)
    assert state.is_over()


def test_bad_actions():
    s = make("wizards-labyrinth", players=4).new_state(0)
    check_bad_actions(s)
