"""Personas: named playing styles built from weights over a game's features.

A game declares ``Game.personas = {"aggressive": {"attacks": 2.0, ...}, ...}``
and ``State.features(seat)`` returns named numbers for a position.  The agent
``persona:<name>`` looks one decision ahead: for each legal action it plays
the action on a few sampled states (determinizations of its own view, so it
never reads hidden information) and scores the result by the weighted sum of
the features, plus a bonus for winning.  A little seeded noise keeps two
games from being identical while staying reproducible.

Parameters: ``samples`` (determinizations per decision, default 4),
``noise`` (scale of the random jitter, default 0.05), ``win`` (weight of the
game result when the action ends the game, default 100).

>>> # persona:aggressive:samples=8   (weights from Game.personas["aggressive"])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardlab.engine.errors import UnknownAgentError

from .base import BaseAgent, Decision

if TYPE_CHECKING:  # pragma: no cover
    from boardlab.engine.game import Game
    from boardlab.engine.state import Action


def persona_weights(game: Any, name: Any) -> dict[str, float]:
    """The weights of persona ``name`` of ``game``; :class:`UnknownAgentError` lists the known ones."""
    personas = getattr(game, "personas", {}) or {}
    if name not in personas:
        gid = getattr(game, "id", "this game")
        if not personas:
            raise UnknownAgentError(f"{gid} has no personas (persona {name!r} requested)")
        raise UnknownAgentError(f"{gid} has no persona {name!r} (personas: {', '.join(sorted(personas))})")
    return dict(personas[name])


class PersonaAgent(BaseAgent):
    """One-ply lookahead maximising a persona's weighted features on sampled states."""

    defaults: dict[str, Any] = {"name": None, "samples": 4, "noise": 0.05, "win": 100.0}

    def __init__(self, game: "Game", seat: int, seed: int = 0, **params: Any) -> None:
        super().__init__(game, seat, seed, **params)
        self.check_params(game, self.params)
        self.persona = self.params["name"]
        self.weights = persona_weights(game, self.persona)
        self.samples = int(self.params["samples"])
        self.noise = float(self.params["noise"])
        self.win = float(self.params["win"])

    @classmethod
    def check_params(cls, game: Any, params: dict[str, Any]) -> None:
        unknown = sorted(set(params) - set(cls.defaults))
        if unknown:
            raise UnknownAgentError(
                f"persona agents have no parameter {unknown[0]!r} (parameters: samples, noise, win)"
            )
        merged = {**cls.defaults, **params}
        if merged["name"] is None:
            known = ", ".join(sorted(getattr(game, "personas", {}) or {})) or "none"
            raise UnknownAgentError(f"name a persona, e.g. persona:aggressive (personas: {known})")
        if game is not None:
            persona_weights(game, merged["name"])
        s = merged["samples"]
        if isinstance(s, bool) or not isinstance(s, int) or s < 1:
            raise UnknownAgentError(f"persona parameter samples must be a whole number >= 1, got {s!r}")
        for key in ("noise", "win"):
            v = merged[key]
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise UnknownAgentError(f"persona parameter {key} must be a number, got {v!r}")

    def score(self, state: Any) -> float:
        """The persona's value of ``state`` for its seat."""
        seat = self.seat
        if state.is_over():
            return self.win * state.results().scores[seat]
        feats = state.features(seat)
        return sum(w * feats.get(k, 0.0) for k, w in self.weights.items())

    def act(self, decision: Decision) -> "Action":
        legal = decision.legal
        if len(legal) == 1:
            return legal[0]
        game = decision.game
        recording = game.record_events
        game.record_events = False
        try:
            totals = [0.0] * len(legal)
            for _ in range(self.samples):
                base = decision.sample(self.rng)
                for i, a in enumerate(legal):
                    s = base.clone()
                    s.apply(a)
                    totals[i] += self.score(s)
        finally:
            game.record_events = recording
        scale = max(1.0, max(abs(t) for t in totals) / self.samples)
        best, best_value = legal[0], None
        for a, t in zip(legal, totals):
            value = t / self.samples + self.noise * scale * self.rng.random()
            if best_value is None or value > best_value:
                best, best_value = a, value
        return best
