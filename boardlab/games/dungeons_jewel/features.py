"""Evaluation features of a position, for the search agents and the lab.

``features(seat)`` gives the named numbers a fitted evaluation weighs
(``data/evaluation.json``, ``boardlab fit-eval``); ``evaluate(seat)`` is the
hand-made estimate of the seat's chance to win used without one.
"""

from __future__ import annotations

from .rules import FACE_UP


class DungeonFeatures:
    """Mixin of :class:`~.game.DungeonState`: the evaluation features of the rules' state."""

    __slots__ = ()

    def _goal_distance(self, seat: int) -> int:
        """Steps (ignoring walls) to the seat's next goal: home with the jewel, else the centre."""
        b = self.game.board
        c = self.pos[seat]
        target = b.starts[seat] if self.jewel == seat else b.centre
        if self.jewel is not None and self.jewel != seat:
            target = self.pos[self.jewel]
        (x, y), (tx, ty) = b.xy(c), b.xy(target)
        return abs(x - tx) + abs(y - ty)

    def features(self, seat: int) -> dict[str, float]:
        g = self.game
        size = g.board.size
        mine = self.jewel == seat
        bit = 1 << seat
        chance = g.dragon_chance[min(int(self.power[seat]), len(g.dragon_chance) - 1)]
        closeness = 1.0 - self._goal_distance(seat) / (2 * size)
        seen = sum(1 for c, k in enumerate(self.tokens) if k is not None and self.known[c] & (bit | FACE_UP))
        return {
            "health": float(self.health[seat]),
            "power": float(self.power[seat]),
            "items": float(len(self.items[seat])),
            "has_jewel": 1.0 if mine else 0.0,
            "opponent_has_jewel": 1.0 if self.jewel is not None and not mine else 0.0,
            "goal_closeness": closeness,
            "explored": seen / g.board.cells,
            # the chance to beat the dragon now (two dice + power): what more attack power is worth
            "dragon_chance": chance,
            # ... and how near that fight is, while the dragon still holds the jewel
            "dragon_reach": chance * closeness if self.jewel is None else 0.0,
        }

    def evaluate(self, seat: int) -> float:
        if self.winner is not None:
            return 1.0 if self.winner == seat else 0.0
        f = self.features(seat)
        value = 0.2 + 0.04 * min(f["power"], 6) + 0.03 * f["health"] + 0.1 * f["goal_closeness"]
        if f["has_jewel"]:
            value = 0.55 + 0.4 * f["goal_closeness"]
        elif f["opponent_has_jewel"]:
            value *= 0.6
        return max(0.0, min(1.0, value))
