"""Property tests: the shared conformance checks over seeds, player counts and variants."""

import pytest
from hypothesis import given, settings, strategies as st

from boardlab.engine import make
from boardlab.agents.runner import run_batch
from tests.conformance import check_bad_actions, check_playout


def invariants(state):
    for s in range(state.game.players):
        assert 0 <= state.life[s] <= 10
        assert state.mana[s] >= 0 and state.used[s] >= 0
        assert len(state.hands[s]) <= 5
        assert len(state.status[s]) <= 3
        eq = len(state.equip[s]) + sum(len(m.equip) for m in state.summons.values() if m.owner == s)
        assert eq <= 3
    for m in state.summons.values():
        assert 0 <= m.damage < state.game.cards[m.card].life
    # every card is somewhere exactly once
    cards = list(state.deck.draw_pile) + list(state.deck.discard_pile) + [c for h in state.hands for c in h]
    cards += [c for e in state.equip for c in e] + [t[0] for t in state.traps.values()]
    cards += [m.card for m in state.summons.values()] + [c for m in state.summons.values() for c in m.equip]
    assert sorted(cards) == sorted(state.game.cards)


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_random_playouts_conform(players, seed):
    # capped at 40 turns (random play is long); the cap's truncation is itself checked
    final = check_playout("summoners-quest", seed, players=players, options={"max_turns": 40},
                          every=3, leak_every=5, invariants=invariants)
    assert final.is_over()


@pytest.mark.parametrize("variant", ["empty-hands", "gates-at-will", "defender-ties"])
@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_variants_conform(variant, seed):
    check_playout("summoners-quest", seed, players=3, variant=variant, options={"max_turns": 30},
                  every=4, leak_every=6, invariants=invariants)


@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_heuristic_playouts_conform(seed):
    check_playout("summoners-quest", seed, players=4, agent="heuristic", every=8, leak_every=10, invariants=invariants)


def test_bad_actions_change_nothing():
    state = make("summoners-quest", players=2).new_state(3)
    check_bad_actions(state)
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    check_bad_actions(state)


def test_heuristic_games_finish():
    # the full acceptance check is 300 four-player games with under 5% truncated (see the report)
    records = run_batch(make("summoners-quest", players=4), ["heuristic"] * 4, 12, seed=11)
    assert sum(r.truncated for r in records) == 0
    assert all(r.winners for r in records)
