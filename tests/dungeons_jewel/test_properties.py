"""Property tests: random and heuristic playouts under every variant and player count keep
their invariants, never crash, round-trip through JSON at every step, are deterministic by
seed and leak nothing (the shared conformance checks)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.engine import make
from tests.conformance import check_bad_actions, check_playout

VARIANTS = ("rulebook", "concept", "revised")
FACE_UP = 1 << 8


def invariants(s) -> None:
    g = s.game
    n = g.players
    b = g.board
    content = g.content
    # every token is on the board or in the pile; every treasure card in a hand or the deck
    on_board = [k for k in s.tokens if k is not None]
    assert sorted(on_board + s.pile) == sorted(content.token_pile())
    held = [i for hand in s.items for i in hand]
    assert sorted(held + s.deck) == sorted(content.treasure_deck())
    for seat in range(n):
        assert 1 <= s.health[seat] <= max(g.opt_start_health, g.opt_respawn_health)
        assert s.power[seat] == sum(1 for i in s.items[seat] if i in g.attack_items)
        assert 0 <= s.pos[seat] < b.cells
    # start corners and the centre never hold a token; walls are face up and symmetric
    for c in (*b.starts, b.centre):
        assert s.tokens[c] is None
    for c, kind in enumerate(s.tokens):
        if kind is not None and g.token_type[kind] == "wall":
            assert s.known[c] & FACE_UP
    for c in range(b.cells):
        for d, j in b.sides[c]:
            assert (s.walls[c] >> d & 1) == (s.walls[j] >> (d + 2) % 4 & 1)
    assert b.connected(s.walls)
    assert s.jewel is None or 0 <= s.jewel < n
    if s.winner is not None:
        assert s.jewel == s.winner and s.pos[s.winner] == b.starts[s.winner]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(VARIANTS), players=st.sampled_from([2, 3, 4]))
def test_random_playouts_conform(seed, variant, players):
    check_playout("dungeons-jewel", seed, players=players, variant=variant,
                  options={"max_turns": 40}, every=2, leak_every=7, invariants=invariants)


@settings(max_examples=9, deadline=None)
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(VARIANTS), players=st.sampled_from([2, 3, 4]))
def test_heuristic_playouts_conform_and_finish(seed, variant, players):
    final = check_playout("dungeons-jewel", seed, players=players, variant=variant, agent="heuristic",
                          every=6, leak_every=11, invariants=invariants)
    assert final.is_over()


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_variant_and_player_count_plays_to_the_cap(variant, players):
    """Fast path (no event log) for a long random game: invariants hold at every step."""
    from boardlab.engine import Rng

    game = make("dungeons-jewel", players=players, variant=variant, options={"max_turns": 300})
    game.record_events = False
    s = game.new_state(players * 7 + len(variant))
    rng = Rng(3)
    while not s.is_over():
        legal = s.legal_actions()
        assert legal
        s.apply(legal[rng.below(len(legal))])
        invariants(s)
    check_bad_actions(make("dungeons-jewel", players=players, variant=variant).new_state(1))
