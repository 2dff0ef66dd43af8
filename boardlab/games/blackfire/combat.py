"""Blackfire's combat: a unit stopping on a square, landing attacks, archer fire and kills.

A mixin of :class:`~boardlab.games.blackfire.rules.BlackfireRules` (the seed's
"Mechanics": pieces, the archer's two-space kill zone, the archer contest).
The order at a stop is: landing attack, archer fire, then the Orb or a token
(``docs/rules/blackfire.md``, ledger 29).
"""

from __future__ import annotations

from typing import Sequence

from boardlab.engine.state import Prompt

from .pieces import ARCHER, GREEN, OFFENSIVE, RED, SIDES, SORCERER, UNIT_NAMES, unit_id


class CombatMixin:
    __slots__ = ()

    # -- movement, attacks and pick-ups -------------------------------------
    def _move(self, u: int, dest: int) -> None:
        unit = self.units[u]
        label = self.game.castle.label
        enemies = [i for i, v in enumerate(self.units) if v.cell == dest and v.side != unit.side]
        if enemies:
            survived = [e for e in enemies if not self._attack(e, u, "attack:landing")]
            if survived:
                self.emit(f"The {UNIT_NAMES[u]} stays on {label(unit.cell)}: its attack was absorbed.", {"unit": u})
                return
        self.emit(f"The {UNIT_NAMES[u]} moves to {label(dest)}.", {"unit": u, "from": unit.cell, "to": dest})
        unit.cell = dest
        self._stop(u, own=True)

    def _stop(self, u: int, own: bool) -> None:
        """A unit stops on a square: archers fire, then it picks up the Orb or a token (own moves only)."""
        unit = self.units[u]
        opt = self.game.opt
        dist = self.game.castle.dist[unit.cell]
        foe = 1 - unit.side
        archer = self.units[unit_id(foe, ARCHER)]
        in_range = archer.cell is not None and dist[archer.cell] <= opt["archer_range"]
        if unit.kind == ARCHER and in_range and opt["archer_contest"]:
            # two archers meet, by its own move or "placed within range of him via magic" (a displaced
            # archer too, ledger 14): the archer that arrived is the attacker and needs 5 or 6
            self._contest(u)
        elif in_range:
            # "Opposing pieces cannot stop within two spaces without being killed" (with no contest, an
            # archer is shot like any other piece)
            self._attack(u, unit_id(foe, ARCHER), "attack:archer")
        elif unit.kind == ARCHER and own and opt["archer_offense"]:
            # "If an archer is displaced, it cannot immediately attack" (hence ``own``)
            targets = [e for e in range(foe * 3, foe * 3 + 3)
                       if self.units[e].cell is not None and dist[self.units[e].cell] <= opt["archer_range"]
                       and not self._guarded(self.units[e])]
            if len(targets) > 1:
                self.stack.append(Prompt(self.seat_of(unit.side), "shoot", {"unit": u, "targets": targets}))
                return
            if targets:
                self._attack(targets[0], u, "attack:archer")
        if own:
            self._after_fire(u)

    def _contest(self, u: int) -> None:
        """Archer ``u`` arrived within range of the enemy archer: "the attacker rolls a d6", ``u`` attacking."""
        side = self.units[u].side
        foe = unit_id(1 - side, ARCHER)
        r = self.rng.roll(6)
        won = r >= self.game.opt["contest_target"]
        self._count("rule:archer-contest", side)
        self.emit(f"Archer contest: the {UNIT_NAMES[u]} rolls a six-sided die: {r},"
                  f" needed {self.game.opt['contest_target']}: {'wins' if won else 'loses'}.",
                  {"unit": u, "roll": r, "won": won})
        if won:
            self._count("rule:contest-won", side)
            self._attack(foe, u, "attack:archer")
        else:
            self._attack(u, foe, "attack:archer")

    def _placed(self, placed: Sequence[int], side: int) -> None:
        """Units ``placed`` were put on new squares by a token, a revival or a respawn push (not a stop:
        nobody is shot, ledger 26). If that brings the two archers within range, they meet and hold the
        contest (ledger 14): the archer that was placed attacks; if both were (Mass Recall), the archer of
        ``side``, whose token it was."""
        if self.winner is not None or not self.game.opt["archer_contest"]:
            return
        archers = [unit_id(s, ARCHER) for s in (GREEN, RED)]
        cells = [self.units[a].cell for a in archers]
        if None in cells or self.game.castle.dist[cells[0]][cells[1]] > self.game.opt["archer_range"]:
            return
        moved = [a for a in archers if a in placed]
        if moved:
            self._contest(moved[0] if len(moved) == 1 else unit_id(side, ARCHER))

    def _after_fire(self, u: int) -> None:
        unit = self.units[u]
        if unit.cell is None:
            return
        if unit.kind == SORCERER and self.orb_holder is None and self.orb_cell == unit.cell:
            self._take_orb(u)
            if unit.cell in self.tokens:
                # the Orb lay on a token (its carrier was shot there): the sorcerer stopped on the token, so
                # it picks it up too, after the Orb, and a Speed token gives it nothing (ledger 40)
                self._pickup(u, took_orb=True)
        elif unit.cell in self.tokens:
            self._pickup(u)
        elif unit.kind == SORCERER and self.orb_holder != u:
            self.revive_from = u

    def _attack(self, target: int, by: int, how: str) -> bool:
        """``by`` attacks ``target``; returns True if it was killed."""
        t = self.units[target]
        side = self.units[by].side
        if self._guarded(t) and self.orb_holder != by:
            self._count("rule:blocked", t.side)
            self.emit(f"The defensive {UNIT_NAMES[target]} blocks the attack.", {"unit": target})
            return False
        if t.inv_until is not None:
            t.inv_until = None
            self._count("rule:absorbed", t.side)
            self.emit(f"The {UNIT_NAMES[target]} is invulnerable: the attack is absorbed.", {"unit": target})
            return False
        self._count(how, side)
        self.emit(f"The {UNIT_NAMES[by]} kills the {UNIT_NAMES[target]}.", {"unit": target, "by": by})
        self._kill(target)
        return True

    def _kill(self, u: int) -> None:
        unit = self.units[u]
        cell = unit.cell
        unit.cell = None
        unit.stance = OFFENSIVE
        unit.slow_at = None
        unit.inv_until = None
        self._count("rule:units-lost", unit.side)
        self._count("rule:kill", 1 - unit.side)
        if self.orb_holder == u:
            self.orb_holder = None
            self.orb_cell = cell
            self.emit(f"The Orb falls on {self.game.castle.label(cell)}.", {"cell": cell})
        opt = self.game.opt
        if unit.kind == SORCERER:
            if opt["sorcerer_kill_wins"]:
                self._win(1 - unit.side, f"{SIDES[1 - unit.side]} killed the {SIDES[unit.side]} sorcerer")
                return
            unit.respawn = opt["respawn_turns"] if opt["respawn"] else None
        if all(v.cell is None for v in self.units[unit.side * 3: unit.side * 3 + 3]):
            self._win(1 - unit.side, f"{SIDES[unit.side]} has no unit left")
