"""Property tests: the shared conformance checks over random seeds, for both variants."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from boardlab.engine import make
from boardlab.games.blackfire.content import TOKEN_KINDS
from tests.conformance import check_bad_actions, check_playout

SHORT = {"max_turns": 30}


def _invariants(state) -> None:
    if state.phase != "play":
        return
    # at most one unit per square once play has begun, except the units still on their start squares
    cells = [u.cell for u in state.units if u.cell is not None]
    starts = {state.game.castle.green_start, state.game.castle.red_starts[state.red_start]}
    dup = {c for c in cells if cells.count(c) > 1}
    assert dup <= starts, dup
    # the Orb is held by a living sorcerer or lies on an accessible square
    if state.orb_holder is not None:
        holder = state.units[state.orb_holder]
        assert holder.kind == 0 and holder.cell is not None
    else:
        assert state.orb_cell in state.game.castle.cells
    assert len(state.tokens) + len(state.bag) + sum(state.revealed.values()) == 15
    assert all(state.game.castle.chars[c] != "#" for c in state.tokens)


@pytest.mark.parametrize("variant", ["final", "prototype"])
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st_.integers(0, 2**31))
def test_random_playouts_conform(variant, seed):
    check_playout("blackfire", seed, variant=variant, options=SHORT, every=4, leak_every=6, invariants=_invariants)


@pytest.mark.parametrize("variant", ["final", "prototype"])
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st_.integers(0, 2**31))
def test_heuristic_playouts_conform(variant, seed):
    state = check_playout("blackfire", seed, variant=variant, agent="heuristic", options={"max_turns": 60},
                          every=6, leak_every=8, invariants=_invariants)
    assert state.is_over()


@settings(max_examples=8, deadline=None)
@given(seed=st_.integers(0, 2**31), steps=st_.integers(0, 40))
def test_bad_actions_leave_the_state_unchanged(seed, steps):
    game = make("blackfire", options=SHORT)
    state = game.new_state(seed)
    for i in range(steps):
        if state.is_over():
            break
        legal = state.legal_actions()
        state.apply(legal[(seed + i) % len(legal)])
    if not state.is_over():
        check_bad_actions(state)


def _views(state):
    return [json.dumps(state.view(s), sort_keys=True) for s in (None, 0, 1)]


@pytest.mark.seed("blackfire:13.1")
@settings(max_examples=6, deadline=None)
@given(seed=st_.integers(0, 2**31))
def test_no_view_shows_a_face_down_tokens_kind(seed):
    """The seed shuffles the tokens face down before anyone places them, so no seat (not even the
    placer) may learn a token's kind before it is picked up: changing the kinds of the face-down
    tokens changes no view."""
    game = make("blackfire", options=SHORT)
    state = game.new_state(seed)
    i = 0
    while not state.is_over():
        if i % 3 == 0:
            before = _views(state)
            other = state.clone()
            hidden = sorted(other.tokens)
            for n, c in enumerate(hidden):
                other.tokens[c] = TOKEN_KINDS[(TOKEN_KINDS.index(other.tokens[c]) + 1 + n) % len(TOKEN_KINDS)]
            other.bag = [TOKEN_KINDS[(TOKEN_KINDS.index(k) + 3) % len(TOKEN_KINDS)] for k in other.bag]
            assert _views(other) == before
            for s in (None, 0, 1):
                scene = game.scene(state.view(s), state.legal_actions() if s == state.current_seat() else ())
                text = json.dumps(scene)
                for c in hidden:
                    x, y = game.castle.xy(c)
                    item = next(it for it in scene["boards"][0]["items"] if it["id"] == f"token-{x}-{y}")
                    assert item["face_down"] and item["text"] == "?"
                assert text  # JSON-safe
        legal = state.legal_actions()
        state.apply(legal[(seed >> (i % 20) ^ i) % len(legal)])
        i += 1
