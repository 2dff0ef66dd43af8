"""Combat: the seed's "Combat (Attacking)", "Combat (Defending)" and "Post Combat", and eviction.

A mixin of :class:`~boardlab.games.summoners_quest.rules.SummonersQuestRules`.
``self.combat`` holds one fight in progress: attacker, defender, space, the
bonuses from combat abilities, and its stage (``defend`` -> ``abilities`` ->
``dice``), so a saved game resumes in the middle of a fight.
"""

from __future__ import annotations

from boardlab.engine import Prompt


class CombatMixin:
    __slots__ = ()

    # -- Combat -----------------------------------------------------------------
    def start_combat(self, attacker: str, target: str) -> None:
        space = self.pos_of(target)
        self.combat = {"att": attacker, "def": target, "space": space, "bonus": {}, "asked": [], "stage": "defend"}
        self.emit(f"{self.label(attacker)} attacks {self.label(target)}.", {"attacker": attacker, "target": target})

    def combat_abilities(self, seat: int) -> list[int]:
        c = self.combat
        out = []
        for pid in (c["att"], c["def"]):
            if pid[0] != "S" or self.owner(pid) != seat or not self.exists(pid):
                continue
            u = int(pid[1:])
            m = self.summons[u]
            ab = self.game.cards[m.card].ability
            if (ab is not None and ab.when == "combat" and ab.cost <= self.mana[seat] and u not in self.used_abilities
                    and m.status != "silenced"):
                out.append(u)
        return out

    def use_combat_ability(self, seat: int, uid: int) -> None:
        m = self.summons[uid]
        card = self.game.cards[m.card]
        ab = card.ability
        self.spend(seat, ab.cost)
        self.used_abilities.append(uid)
        self.count(f"card:{card.id}", seat)
        me = f"S{uid}"
        other = self.combat["def"] if self.combat["att"] == me else self.combat["att"]
        self.emit(f"{card.name} uses {ab.name}.", {"ability": card.id})
        self.apply_effects(ab.effects, seat, other if ab.target == "opponent" else me, me, f"{card.name}'s {ab.name}")

    def combat_step(self) -> None:
        c = self.combat
        if not (self.exists(c["att"]) and self.exists(c["def"])):
            self.combat = None
            return
        if c["stage"] == "defend":
            c["stage"] = "abilities"
            target = c["def"]
            if target[0] == "P":
                s = int(target[1:])
                mine = [u for u, m in self.summons.items() if m.owner == s and m.pos == c["space"]]
                if mine:
                    self.stack.append(Prompt(s, "defend", {"summons": mine, "attacker": c["att"]}))
            return
        if c["stage"] == "abilities":
            for pid in (c["att"], c["def"]):
                seat = self.owner(pid)
                if seat not in c["asked"]:
                    c["asked"].append(seat)
                    if self.combat_abilities(seat):
                        self.stack.append(Prompt(seat, "precombat", {"attacker": c["att"], "defender": c["def"]}))
                        return
            c["stage"] = "dice"
            return
        self.resolve_combat()

    def combat_mods(self, pid: str) -> int:
        n = self.passive(pid, "roll") + self.combat["bonus"].get(pid, [0, 0])[0]
        if self.has_status(pid, "blessed"):
            n += 1
        if self.has_status(pid, "weakened"):
            n -= 1
        return n

    def hit(self, winner: str, loser: str) -> int:
        """Damage of a winning piece: a summon deals its Attack; a summoner 2 + modifiers, or its life against a summon."""
        bonus = self.combat["bonus"].get(winner, [0, 0])[1] + self.passive(winner, "attack")
        card = self.card_of(winner)
        if card is not None:
            return card.attack + bonus
        if loser[0] == "S":
            return self.life[int(winner[1:])]
        return 2 + bonus

    def resolve_combat(self) -> None:
        c = self.combat
        att, dfn, space = c["att"], c["def"], c["space"]
        ties = self.game.option_values["ties"]
        while True:
            ra, rd = self.rng.roll(6), self.rng.roll(6)
            ta, td = ra + self.combat_mods(att), rd + self.combat_mods(dfn)
            tie = {"reroll": "a tie: both roll again", "attacker": "a tie: the attacker wins",
                   "defender": "a tie: the defender wins"}.get(ties, "")

            def side(pid: str, r: int, t: int) -> str:
                return f"{self.label(pid)} rolls {r}" + (f", {t - r:+d} bonus = {t}" if t != r else "")
            self.emit(f"Combat: each side rolls a six-sided die, the higher total wins ({tie}):"
                      f" attacker {side(att, ra, ta)}; defender {side(dfn, rd, td)}.", {"attacker_roll": ra, "defender_roll": rd})
            if ta != td or ties != "reroll":
                break
            self.count("rule:combat_tie", self.owner(att))
        att_wins = ta > td or (ta == td and ties == "attacker")
        winner, loser = (att, dfn) if att_wins else (dfn, att)
        self.count("combat:won", self.owner(winner))
        self.count("combat:lost", self.owner(loser))
        dmg = self.hit(winner, loser)
        board = self.game.board
        # "If a player in the victory space has a monster with them and the monster loses, the
        # attacker moves one space outside": decided before the damage, which may destroy the monster.
        owner = self.owner(dfn)
        monster_with_occupant = (space == board.chamber and dfn[0] == "S" and self.alive[owner]
                                 and self.pos[owner] == board.chamber)
        self.combat = None
        self.emit(f"{self.label(winner)} wins the combat.", {"winner": winner, "loser": loser})
        self.damage(loser, dmg)
        if self.winner is not None:
            return
        if att_wins:
            if monster_with_occupant:  # destroyed or not, the monster lost
                self.set_pos(att, board.gate_space(self.entry.get(att, 0)) + 2)
                self.emit(f"{self.label(att)} is driven out of the chamber.", {"moved": att})
            elif not self.exists(dfn):
                return
            elif space == board.chamber:
                self.set_pos(dfn, board.portal_of_gate[self.entry.get(att, 0)])
                self.count("rule:eviction", self.owner(att))
                self.emit(f"{self.label(dfn)} is evicted from the chamber.", {"evicted": dfn})
            else:
                self.move_back(dfn, 1)
        else:
            if not self.exists(att):
                return
            if space == board.chamber:
                # "must move back one space": steadfast or not, nobody keeps a lost attack's chamber
                self.set_pos(att, board.gate_space(self.entry.get(att, 0)) + 2)
            else:
                self.move_back(att, 1)
            new = self.pos_of(att)
            if new != space and self.flow is not None and att in self.flow["movers"]:
                self.flow = {"movers": [att], "space": new, "step": "space", "jump": True}
