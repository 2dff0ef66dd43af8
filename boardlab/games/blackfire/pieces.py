"""Blackfire's pieces: sides, unit kinds and the :class:`Unit` record."""

from __future__ import annotations

from boardlab.engine.codec import record

from .content import TOKEN_KINDS

GREEN, RED = 0, 1
SIDES = ("green", "red")
KINDS = ("sorcerer", "archer", "warrior")
SORCERER, ARCHER, WARRIOR = 0, 1, 2
OFFENSIVE, DEFENSIVE = "offensive", "defensive"
UNIT_NAMES = tuple(f"{s} {k}" for s in SIDES for k in KINDS)
STAT_KEYS = (
    *(f"token:{k}" for k in TOKEN_KINDS),
    "attack:landing", "attack:archer", "rule:archer-contest", "rule:contest-won", "rule:blocked",
    "rule:absorbed", "rule:revive", "rule:respawn", "rule:push", "rule:orb-pickup", "rule:stance",
    "rule:kill", "rule:units-lost", "rule:teleport-orb", "rule:mass-recall", "attack:revive",
)


def unit_id(side: int, kind: int) -> int:
    return side * 3 + kind


@record
class Unit:
    """One piece.  ``cell`` is ``None`` while dead; ``respawn`` counts a dead sorcerer's own turns left."""

    __slots__ = ("side", "kind", "cell", "stance", "slow_at", "inv_until", "respawn")

    def __init__(self, side: int, kind: int, cell: int | None) -> None:
        self.side = side
        self.kind = kind
        self.cell = cell
        self.stance = OFFENSIVE
        self.slow_at: int | None = None
        self.inv_until: int | None = None
        self.respawn: int | None = None

    def __repr__(self) -> str:
        return f"Unit({UNIT_NAMES[self.side * 3 + self.kind]!r}, cell={self.cell}, stance={self.stance})"
