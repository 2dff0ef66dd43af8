"""Blackfire's position features and evaluation (``State.features`` / ``State.evaluate``).

Used by the search agents and the lab (``boardlab fit-eval``, the personas'
weights in :attr:`BlackfireGame.personas`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .rules import BlackfireRules


class BlackfireFeatures:
    """The features and evaluation of a Blackfire state (a mixin of the composed state)."""

    __slots__ = ()

    def features(self, seat: int) -> dict[str, float]:
        return position_features(self, seat)  # type: ignore[arg-type]

    def evaluate(self, seat: int) -> float:
        return position_value(self, seat)  # type: ignore[arg-type]


def position_features(state: "BlackfireRules", seat: int) -> dict[str, float]:
    if state.side_of_seat is None:
        return {"orb": 0.0, "exit_progress": 0.0, "material": 0.0, "safety": 0.0,
                "enemy_carrier_pressure": 0.0, "tokens": 0.0}
    castle = state.game.castle
    dist = castle.dist
    side = state.side_of_seat[seat]
    units = state.units
    alive = [sum(1 for v in units[s * 3: s * 3 + 3] if v.cell is not None) for s in (0, 1)]
    holder = state.orb_holder
    exit_cell = castle.exits[state.exit]
    orb = 0.0
    progress = 0.0
    safety = 1.0
    pressure = 0.0
    if holder is not None:
        h = units[holder]
        d = min(dist[h.cell][exit_cell], 30)
        mine = h.side == side
        orb = 1.0 if mine else -1.0
        progress = (1.0 - d / 30.0) * orb
        enemy = 1 - h.side
        near = min((dist[v.cell][h.cell] for v in units[enemy * 3: enemy * 3 + 3] if v.cell is not None), default=30)
        closeness = 1.0 - min(near, 10) / 10.0
        if mine:
            safety = 1.0 - closeness
        else:
            pressure = closeness
    tokens = sum(state.stats[f"token:{k}"][seat] for k in state.game.token_counts) / 15.0
    return {
        "orb": orb,
        "exit_progress": progress,
        "material": (alive[side] - alive[1 - side]) / 3.0,
        "safety": safety,
        "enemy_carrier_pressure": pressure,
        "tokens": tokens,
    }


DEFAULT_WEIGHTS = {"orb": 1.0, "exit_progress": 2.5, "material": 1.0, "safety": 0.5, "enemy_carrier_pressure": 0.5, "tokens": 0.2}


def position_value(state: "BlackfireRules", seat: int, weights: dict[str, float] | None = None) -> float:
    if state.winner is not None:
        return 1.0 if state.seat_of(state.winner) == seat else 0.0
    f = position_features(state, seat)
    w = weights or DEFAULT_WEIGHTS
    x = sum(w.get(k, 0.0) * v for k, v in f.items())
    return 1.0 / (1.0 + math.exp(-x))
