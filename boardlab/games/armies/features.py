"""Armies position evaluation and features (used by the bots and the lab).

Also the exact binary-dice odds and attack squares the heuristic agent scores
moves with (:mod:`boardlab.games.armies.agents`).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING, Sequence

from . import board as B

if TYPE_CHECKING:  # pragma: no cover
    from .rules import ArmiesRules, Army

VALUE = {"P": 1.0, "N": 3.0, "B": 3.2, "R": 5.0, "Q": 9.0, "K": 0.0}


@lru_cache(maxsize=None)
def _binom(n: int) -> tuple[float, ...]:
    return tuple(math.comb(n, k) / 2 ** n for k in range(n + 1))


@lru_cache(maxsize=None)
def win_chance(att_dice: int, bonus: int, def_dice: int, def_bonus: int = 0) -> float:
    """Exact P(attack > defense): attack = successes of ``att_dice`` + ``bonus``, defense likewise."""
    pa, pd = _binom(att_dice), _binom(def_dice)
    total = 0.0
    for a, p in enumerate(pa):
        for d, q in enumerate(pd):
            if a + bonus > d + def_bonus:
                total += p * q
    return total


def attack_chance(st: "ArmiesRules", att: "Army", dfn: "Army", kind: str = "melee", power: int | None = None) -> float:
    if power is not None:
        return win_chance(0, power, st.defense(dfn))
    return win_chance(st.offense(att), 0 if kind == "ranged" else 1, st.defense(dfn))


def attack_squares(st: "ArmiesRules", a: "Army") -> Sequence[int]:
    """Squares ``a`` could attack by moving (the General attacks like a king).  Do not mutate.

    Pawns, knights and the General attack the same squares whatever the board:
    their shared tables are returned as they are.
    """
    kind = a.kind
    if kind == "K":
        return B.KING[a.sq]
    if kind == "N":
        return B.KNIGHT[a.sq]
    if kind == "P":
        return B.PAWN_ATTACKS[a.seat][a.sq]
    return B.threats(st.board, kind, a.sq, a.seat, st.move_limit(kind))


def _life(st: "ArmiesRules", seat: int) -> int:
    for a in st.armies.values():
        if a.kind == "K" and a.seat == seat:
            return sum(a.maxs)
    return 0


def features(st: "ArmiesRules", seat: int) -> dict[str, float]:
    """The evaluation features of ``seat`` (for personas and fitted evaluations)."""
    mat = [0.0, 0.0]
    skill = [0, 0]
    leaders = [0, 0]
    for a in st.armies.values():
        mat[a.seat] += VALUE[a.kind] + 0.3 * (st.offense(a) + st.defense(a))
        skill[a.seat] += sum(a.maxs)
        leaders[a.seat] += a.leader is not None
    gsq = [st.general(s).sq for s in (0, 1)]
    hits = [0, 0]
    board = st.board
    for a in st.armies.values():  # ``gsq[1 - a.seat] in attack_squares(st, a)``, without building the lists
        g = gsq[1 - a.seat]
        if a.kind == "K":
            hit = g in B.KING[a.sq]
        else:
            hit = B.threatens(board, a.kind, a.sq, a.seat, g, st.move_limit(a.kind))
        if hit:
            hits[a.seat] += 1
    o = 1 - seat
    return {
        "material": (mat[seat] - mat[o]) / 40.0,
        "general_life": (_life(st, seat) - _life(st, o)) / 4.0,
        "skill": (skill[seat] - skill[o]) / 10.0,
        "cards": (len(st.hands[seat]) - len(st.hands[o])) / 7.0,
        "leaders": (leaders[seat] - leaders[o]) / 4.0,
        "general_threat": hits[seat] / 3.0,
        "general_safety": -hits[o] / 3.0,
        "attacks": (hits[seat] - hits[o]) / 3.0,
    }


def evaluate(st: "ArmiesRules", seat: int) -> float:
    if st.winner is not None:
        return 1.0 if st.winner == seat else 0.0
    f = features(st, seat)
    x = 2.0 * f["material"] + 1.5 * f["general_life"] + 0.5 * f["skill"] + 0.3 * f["cards"] \
        + 0.5 * f["general_threat"] + 0.7 * f["general_safety"]
    return 1.0 / (1.0 + math.exp(-x))


class ArmiesFeatures:
    """The evaluation half of an Armies position (bound into ``ArmiesState`` in game.py)."""

    __slots__ = ()

    def evaluate(self, seat: int) -> float:
        return evaluate(self, seat)  # type: ignore[arg-type]

    def features(self, seat: int) -> dict[str, float]:
        return features(self, seat)  # type: ignore[arg-type]
