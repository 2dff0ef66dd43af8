"""Evaluation features of a position, for search agents and the playtest lab.

Everything used here is public (points, unplayed cards, prizes), so the
features of a determinized state say nothing a seat may not know.
"""

from __future__ import annotations


class GoofspielFeatures:
    """Mixin of :class:`~.game.GoofspielState`: the evaluation features of the rules' state."""

    __slots__ = ()

    def features(self, seat: int) -> dict[str, float]:
        other = 1 - seat
        return {
            "lead": float(self.points[seat] - self.points[other]),
            "hand_edge": float(sum(self.hands[seat]) - sum(self.hands[other])),
            "prize": float(self.prize),
        }

    def evaluate(self, seat: int) -> float:
        """The share of the points still to play for that the lead is worth, in [0, 1]."""
        other = 1 - seat
        at_stake = self.prize + sum(self.prizes)
        lead = self.points[seat] - self.points[other]
        if at_stake == 0:
            return 1.0 if lead > 0 else 0.0 if lead < 0 else 0.5
        return max(0.0, min(1.0, 0.5 + lead / (2 * at_stake)))
