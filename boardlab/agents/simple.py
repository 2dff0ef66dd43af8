"""Game-neutral baseline agents."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import BaseAgent, Decision

if TYPE_CHECKING:  # pragma: no cover
    from boardlab.engine.state import Action


class RandomAgent(BaseAgent):
    """Chooses uniformly among the legal actions (seeded, so reproducible)."""

    def act(self, decision: Decision) -> "Action":
        legal = decision.legal
        return legal[self.rng.below(len(legal))]


class FirstAgent(BaseAgent):
    """Always takes the first legal action (for tests)."""

    def act(self, decision: Decision) -> "Action":
        return decision.legal[0]
