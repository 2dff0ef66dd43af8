"""Determinizations keep everything the seat knows and resample only what it does not."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.engine import encode, make
from boardlab.engine.rng import Rng

from .helpers import load, real_games, states_along


def _same(a, b) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _data(state) -> str:
    return json.dumps({name: encode(getattr(state, name)) for name in state._game_fields}, sort_keys=True)


def check_determinize(game, seed: int, every: int, limit: int) -> int:
    """Check determinizations along a playout; return how often a hidden part changed."""
    rng = Rng(seed ^ 0xD37)
    changed = 0
    for state in states_along(game, seed, every=every, limit=limit):
        before = _data(state)
        public = state.view(None)["state"]
        for seat in range(game.players):
            mine = state.view(seat)["state"]
            d = state.determinize(seat, rng)
            # everything the seat knows, and everything public, is kept
            assert _same(d.view(seat)["state"], mine)
            assert _same(d.view(None)["state"], public)
            assert d.current_seat() == state.current_seat()
            assert d.turn == state.turn and d.decisions == state.decisions
            assert len(d.stack) == len(state.stack)  # prompt data may hold hidden things (a private loot offer)
            if state.current_seat() == seat:
                assert d.legal_actions() == state.legal_actions()
            # the future is reseeded: a search cannot learn the true dice
            assert d.rng.state != state.rng.state
            # a determinization of a determinization is still consistent
            dd = d.determinize(seat, rng)
            assert _same(dd.view(seat)["state"], mine)
            # what the seat cannot see may change (other hands, face-down things, deck order)
            if _data(d) != before:
                changed += 1
        assert _data(state) == before, "determinize changed the true state"
    return changed


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4))
def test_toy_determinize_keeps_what_the_seat_knows(seed, players):
    game = make("toy", players=players)
    changed = check_determinize(game, seed, every=1, limit=60)
    assert changed > 0  # other hands are hidden: they get resampled


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_toy_determinize_preserves_the_unseen_cards(seed):
    game = make("toy", players=3)
    state = game.new_state(seed)
    d = state.determinize(0, Rng(seed))
    unseen = lambda s: Counter(s.deck.draw_pile + s.hands[1] + s.hands[2])  # noqa: E731
    assert unseen(d) == unseen(state)
    assert d.hands[0] == state.hands[0]
    assert [len(h) for h in d.hands] == [len(h) for h in state.hands]


def test_toy_determinize_samples_every_arrangement():
    # 4 unseen cards in an opponent's 2-card hand: across samples the hand varies.
    game = make("toy")
    state = game.new_state(1)
    hands = {tuple(sorted(state.determinize(0, Rng(i)).hands[1])) for i in range(200)}
    assert len(hands) >= 4


@pytest.mark.parametrize("game_id", real_games())
def test_real_games_determinize_keeps_what_the_seat_knows(game_id):
    cls = load(game_id).__class__
    changed = 0
    for players in sorted({cls.min_players, cls.default_players, cls.max_players}):
        game = load(game_id, players=players)
        for seed in (1, 2):
            changed += check_determinize(game, seed, every=9, limit=300)
    if cls.hidden_information:
        assert changed > 0, f"{game_id} hides information but determinize never resampled anything"
