"""Blackfire's tokens: what picking one up does (the seed's "Mechanics" token list).

A mixin of :class:`~boardlab.games.blackfire.rules.BlackfireRules`.  Tokens
that need a choice (Speed, Revive, Displace, Teleport 6) push a prompt that
the rules answer; the rest take effect at once.  :func:`token_reference` writes
the board's token reference from the same option values, so the reference the
players read says what these effects do under every variant and option.
"""

from __future__ import annotations

from typing import Any, Mapping

from boardlab.engine.state import Prompt

from .content import TOKEN_KINDS
from .pieces import ARCHER, GREEN, RED, SORCERER, UNIT_NAMES, WARRIOR, unit_id


def _spaces(n: int) -> str:
    return f"{n} space" if n == 1 else f"{n} spaces"


def token_reference(opt: Mapping[str, Any], counts: Mapping[str, int]) -> dict[str, str]:
    """The token reference "written directly on the board" (playtest notes), one text per token kind of
    this game's set, in reference order.  Generated from the rules' own option values, so it says what
    :class:`TokensMixin` does under every variant and option (the scene's reference panel shows it)."""
    reach = opt["archer_range"]
    if opt["archer_contest"]:
        meet = (f" If this puts your archer within {_spaces(reach)} of the enemy archer, they hold the archer "
                f"contest (yours attacks and needs {opt['contest_target']}+).")
        mass = (f" If the two archers end within {_spaces(reach)} of each other, they hold the archer contest "
                f"(the archer moved attacks, yours if both were; it needs {opt['contest_target']}+).")
        displaced = (f" A displaced archer cannot shoot, but if it lands within {_spaces(reach)} of your archer the "
                     f"two hold the archer contest (it needs {opt['contest_target']}+); any other unit landing there "
                     "is shot.")
    else:
        meet = mass = ""
        displaced = f" A displaced archer cannot shoot; a unit landing within {_spaces(reach)} of your archer is shot."
    turns = opt["invulnerable_turns"]
    texts = {
        "revive": "Revive one of your own dead units (sorcerer, archer or warrior) on any free square without a "
                  "token, or on an enemy that is neither defensive nor invulnerable, killing it." + meet,
        "recall": "Move your archer and warrior to the free squares nearest your Sorcerer." + meet,
        "invulnerable": f"The unit is immune to 1 attack. Lasts only through the opponent's next "
                        f"{turns} turn{'s' if turns != 1 else ''}.",
        "displace": "Move a single enemy unit up to 2 spaces to a free square without a token, through walls but "
                    "not into inaccessible areas; never the Orb carrier onto the open exit." + displaced,
        "death": "The unit that collects the token is killed.",
        "slow": "The unit moves 1 less space on its next turn.",
        "speed": f"The unit can move up to {opt['speed_bonus']} more space{'s' if opt['speed_bonus'] != 1 else ''} immediately.",
    }
    jump = (f"the unit may teleport up to {_spaces(opt['teleport_range'])}, regardless of walls, but not into "
            "inaccessible spaces")
    if opt["teleport_table"]:
        texts["teleport"] = ("Roll a six-sided die. 1-4: move the Orb to red start square R1-R4. 5: Mass Recall, every archer and "
                             f"warrior returns to its Sorcerer.{mass} 6: {jump}.")
    else:
        texts["teleport"] = jump[0].upper() + jump[1:] + "."
    return {k: texts[k] for k in TOKEN_KINDS if counts.get(k)}


class TokensMixin:
    __slots__ = ()

    # -- token pick-ups ------------------------------------------------------
    def _pickup(self, u: int, took_orb: bool = False) -> None:
        """Unit ``u`` picks up the token on its square and uses it; ``took_orb``: it has just taken the Orb
        on this square, whose pick-up loses every movement point, "Even those gained by a speed token"."""
        unit = self.units[u]
        kind = self.tokens.pop(unit.cell)
        self.revealed[kind] = self.revealed.get(kind, 0) + 1
        self._count(f"token:{kind}", unit.side)
        article = "an" if kind[0] in "aeiou" else "a"
        self.emit(f"The {UNIT_NAMES[u]} picks up {article} {kind.capitalize()} token.", {"unit": u, "token": kind})
        opt = self.game.opt
        seat = self.seat_of(unit.side)
        if kind == "speed" and took_orb:
            self.emit("Taking the Orb ends its movement: the Speed points are lost.", {"unit": u})
        elif kind == "speed":
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
            self._placed(self._recall(unit.side), unit.side)
        elif kind == "displace":
            self.stack.append(Prompt(seat, "displace", {"unit": u}))
        elif kind == "teleport":
            r = self.rng.roll(6) if opt["teleport_table"] else 6
            if opt["teleport_table"]:
                self.emit(f"Teleport: the {UNIT_NAMES[u]} rolls a six-sided die: {r} (1-4: the Orb moves to that red"
                          " start square, 5: Mass Recall, 6: the unit teleports).", {"unit": u, "roll": r})
            if r <= 4:
                self._count("rule:teleport-orb", unit.side)
                self.orb_holder = None
                self.orb_cell = self.game.castle.red_starts[r - 1]
                self.emit(f"The Orb is moved to red start square R{r} ({self.game.castle.label(self.orb_cell)}).",
                          {"cell": self.orb_cell})
            elif r == 5:
                self._count("rule:mass-recall", unit.side)
                self.emit("Mass Recall: all units return to their sorcerer.")
                self._placed(self._recall(GREEN) + self._recall(RED), unit.side)
            else:
                self.stack.append(Prompt(seat, "teleport", {"unit": u}))

    def _recall(self, side: int) -> list[int]:
        """Move ``side``'s living archer and warrior to the free squares nearest its sorcerer; the units moved."""
        sorc = self.units[unit_id(side, SORCERER)]
        moved: list[int] = []
        if sorc.cell is None:
            return moved
        for u in (unit_id(side, ARCHER), unit_id(side, WARRIOR)):
            if self.units[u].cell is not None:
                moved.append(u)
                self.units[u].cell = self._nearest_free(sorc.cell, ignore=u)
                self.emit(f"The {UNIT_NAMES[u]} is recalled to {self.game.castle.label(self.units[u].cell)}.",
                          {"unit": u, "cell": self.units[u].cell})
        return moved
