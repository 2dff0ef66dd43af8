"""Evaluation features and the hand-set evaluation of Summoner's Quest (bots and the lab).

A mixin of the composed state (``game.py``); everything here reads the state,
nothing changes the game.
"""

from __future__ import annotations

import math
from typing import Any


def chamber_distance(st: Any, seat: int) -> int:
    board = st.game.board
    p = st.pos[seat]
    if p < 0:
        return 40
    if p >= 32:
        return board.distances(0b1111)[p][board.chamber]
    ahead = min((q - p) % 32 for q in board.portals)
    return ahead + 4


class SummonersQuestFeatures:
    __slots__ = ()

    def features(self, seat: int) -> dict[str, float]:
        n = self.game.players
        others = [s for s in range(n) if s != seat and self.alive[s]]
        mine = [m for m in self.summons.values() if m.owner == seat]
        cards = self.game.cards
        return {
            "life": self.life[seat] / 10,
            "enemy_life": (sum(self.life[s] for s in others) / (10 * len(others))) if others else 0.0,
            "mana": (self.mana[seat] + self.used[seat]) / 12,
            "active_mana": self.mana[seat] / 12,
            "cards": len(self.hands[seat]) / 5,
            "summon_power": sum(cards[m.card].attack + cards[m.card].life - m.damage for m in mine) / 20,
            "equipment": (len(self.equip[seat]) + sum(len(m.equip) for m in mine)) / 3,
            "hold": self.hold[seat] / max(1, self.game.option_values["hold_turns"]),
            "in_centre": 1.0 if self.pos[seat] >= 32 else 0.0,
            "near_chamber": 1 - min(chamber_distance(self, seat), 20) / 20,
            "alive_opponents": len(others) / max(1, n - 1),
        }

    def evaluate(self, seat: int) -> float:
        if self.winner is not None:
            return 1.0 if self.winner == seat else 0.0
        if not self.alive[seat]:
            return 0.0
        f = self.features(seat)
        score = (1.5 * f["life"] - 1.0 * f["enemy_life"] + 0.5 * f["mana"] + 0.3 * f["cards"] + 0.6 * f["summon_power"]
                 + 0.3 * f["equipment"] + 2.0 * f["hold"] + 0.8 * f["in_centre"] + 0.5 * f["near_chamber"] - 0.5 * f["alive_opponents"])
        return 1 / (1 + math.exp(-(score - 1.5)))
