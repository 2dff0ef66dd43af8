"""Shared helpers for the agent tests."""

from __future__ import annotations

import pytest

from boardlab.agents import Decision, make_agent
from boardlab.engine import make, registry

TEST_GAMES = ("toy", "coin", "agents-guess", "agents-race")


def real_games() -> list[str]:
    """The project's own registered games (not the test games)."""
    return [g for g in registry.game_ids() if g not in TEST_GAMES]


def load(game_id: str, **kw):
    """Make a game, skipping the test if the game's package is still being written."""
    try:
        registry.game_class(game_id)
    except ImportError as exc:  # pragma: no cover - a game not landed yet
        pytest.skip(f"{game_id} is not importable yet: {exc}")
    return make(game_id, **kw)


def states_along(game, seed: int, every: int = 1, limit: int = 400):
    """States met along a random playout (clones), every ``every`` decisions."""
    agents = [make_agent("random", game, s, seed * 7 + s) for s in range(game.players)]
    state = game.new_state(seed)
    out = []
    while not state.is_over() and state.decisions < limit:
        if state.decisions % every == 0:
            out.append(state.clone())
        seat = state.current_seat()
        state.apply(agents[seat].act(Decision(state, seat)))
    return out


class SealedDecision(Decision):
    """A decision whose true state can only be determinized: any other access fails the test."""

    __slots__ = ()

    def __init__(self, state, seat=None) -> None:
        super().__init__(state, seat)
        self._state = _Sealed(state)

    def omniscient_state(self):
        raise AssertionError("a non-omniscient agent asked for the true state")


class _Sealed:
    __slots__ = ("_inner",)

    def __init__(self, inner) -> None:
        object.__setattr__(self, "_inner", inner)

    def determinize(self, seat, rng):
        return self._inner.determinize(seat, rng)

    def view(self, seat):
        return self._inner.view(seat)

    def describe(self, action):
        return self._inner.describe(action)

    def __getattr__(self, name):
        raise AssertionError(f"an agent read {name!r} of the true state")
