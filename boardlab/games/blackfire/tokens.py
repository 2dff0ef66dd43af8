"""Blackfire's tokens: what picking one up does (the seed's "Mechanics" token list).

A mixin of :class:`~boardlab.games.blackfire.rules.BlackfireRules`.  Tokens
that need a choice (Speed, Revive, Displace, Teleport 6) push a prompt that
the rules answer; the rest take effect at once.
"""

from __future__ import annotations

from boardlab.engine.state import Prompt

from .pieces import ARCHER, GREEN, RED, SORCERER, UNIT_NAMES, WARRIOR, unit_id


class TokensMixin:
    __slots__ = ()

    # -- token pick-ups ------------------------------------------------------
    def _pickup(self, u: int) -> None:
        unit = self.units[u]
        kind = self.tokens.pop(unit.cell)
        self.revealed[kind] = self.revealed.get(kind, 0) + 1
        self._count(f"token:{kind}", unit.side)
        article = "an" if kind[0] in "aeiou" else "a"
        self.emit(f"The {UNIT_NAMES[u]} picks up {article} {kind.capitalize()} token.", {"unit": u, "token": kind})
        opt = self.game.opt
        seat = self.seat_of(unit.side)
        if kind == "speed":
            self.stack.append(Prompt(seat, "speed", {"unit": u, "points": opt["speed_bonus"]}))
        elif kind == "slow":
            unit.slow_at = self.turn + 2  # the owner's next turn
        elif kind == "invulnerable":
            unit.inv_until = self.turn + 2 * opt["invulnerable_turns"]
        elif kind == "death":
            self._kill(u)
        elif kind == "revive":
            self.stack.append(Prompt(seat, "revive-token", {"unit": u}))
        elif kind == "recall":
            self._recall(unit.side)
        elif kind == "displace":
            self.stack.append(Prompt(seat, "displace", {"unit": u}))
        elif kind == "teleport":
            r = self.rng.roll(6) if opt["teleport_table"] else 6
            if opt["teleport_table"]:
                self.emit(f"Teleport: the {UNIT_NAMES[u]} rolls {r}.", {"unit": u, "roll": r})
            if r <= 4:
                self._count("rule:teleport-orb", unit.side)
                self.orb_holder = None
                self.orb_cell = self.game.castle.red_starts[r - 1]
                self.emit(f"The Orb is moved to Red start #{r}.", {"cell": self.orb_cell})
            elif r == 5:
                self._count("rule:mass-recall", unit.side)
                self.emit("Mass Recall: all units return to their sorcerer.")
                self._recall(GREEN)
                self._recall(RED)
            else:
                self.stack.append(Prompt(seat, "teleport", {"unit": u}))

    def _recall(self, side: int) -> None:
        sorc = self.units[unit_id(side, SORCERER)]
        if sorc.cell is None:
            return
        for u in (unit_id(side, ARCHER), unit_id(side, WARRIOR)):
            if self.units[u].cell is not None:
                self.units[u].cell = self._nearest_free(sorc.cell, ignore=u)
                self.emit(f"The {UNIT_NAMES[u]} is recalled to {self.game.castle.label(self.units[u].cell)}.",
                          {"unit": u, "cell": self.units[u].cell})
