"""Property tests: random and heuristic playouts under every variant and player count keep
their invariants, never crash, round-trip through JSON at every step, are deterministic by
seed and leak nothing (the shared conformance checks)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.engine import make
from boardlab.engine.properties import check_transition
from tests.conformance import check_bad_actions, check_playout

VARIANTS = ("rulebook", "concept", "revised")

# The invariants this file once checked (tokens and cards conserved, health in bounds, attack power =
# attack items, no token on a corner or the centre, walls face up, symmetric and never sealing a room,
# a winner holds the jewel at home) are rule properties now, in
# boardlab/games/dungeons_jewel/properties.py: check_playout runs them after every action.


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(VARIANTS), players=st.sampled_from([2, 3, 4]))
def test_random_playouts_conform(seed, variant, players):
    check_playout("dungeons-jewel", seed, players=players, variant=variant,
                  options={"max_turns": 40}, every=2, leak_every=7)


@settings(max_examples=9, deadline=None)
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(VARIANTS), players=st.sampled_from([2, 3, 4]))
def test_heuristic_playouts_conform_and_finish(seed, variant, players):
    final = check_playout("dungeons-jewel", seed, players=players, variant=variant, agent="heuristic",
                          every=6, leak_every=11)
    assert final.is_over()


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_variant_and_player_count_plays_to_the_cap(variant, players):
    """Fast path (no event log) for a long random game: every rule property holds at every step."""
    from boardlab.engine import Rng

    game = make("dungeons-jewel", players=players, variant=variant, options={"max_turns": 300})
    game.record_events = False
    s = game.new_state(players * 7 + len(variant))
    rng = Rng(3)
    while not s.is_over():
        legal = s.legal_actions()
        assert legal
        action = legal[rng.below(len(legal))]
        before = s.clone()
        s.apply(action)
        check_transition(before, action, s)
    check_bad_actions(make("dungeons-jewel", players=players, variant=variant).new_state(1))
