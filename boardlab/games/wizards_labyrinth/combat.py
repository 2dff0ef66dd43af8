"""Combat: tokens flipped, traps sprung, the fight with the monsters, boosts, retreat, damage and death.

"The wizard rolls a dice for the monster(s) and add the level of all monster(s)"; the heroes "all
roll a dice and choose the highest roll and add all of the heroes equipment and bonuses" ("in case
of a tie the hero/heroes win").  Mixed into :class:`~.rules.LabyrinthRules` (this module never
imports it: ``Hero`` in the annotations is the record :class:`~.rules.Hero`, left unevaluated).
"""

from __future__ import annotations

from boardlab.engine import Prompt, Token

from .board import cell_name, token_list

WIZARD = 0
_NUMBER_WORDS = {4: "four", 6: "six", 8: "eight", 10: "ten", 12: "twelve", 20: "twenty"}


def die_words(sides: int) -> str:
    """``twenty-sided`` for 20: no ``d20`` a reader might take for a square."""
    return f"{_NUMBER_WORDS.get(sides, str(sides))}-sided"


class CombatMixin:
    __slots__ = ()

    # combat ------------------------------------------------------------------
    def monsters(self, c: int) -> list[Token]:
        return [t for t in self.tokens[c] if t.kind[0] == "m"]

    def flip_tokens(self, c: int) -> None:
        toks = self.tokens[c]
        if toks and not all(t.face_up for t in toks):
            for t in toks:
                t.face_up = True
            self.emit(f"Tokens flipped on {cell_name(self.game, c)}: {token_list([t.kind for t in toks])}", {"cell": c, "tokens": [t.kind for t in toks]})
        self.tokens[c] = [t for t in toks if t.kind != "X"]

    def _t_combat_phase(self) -> None:
        # The combatants are fixed now: a hero sent into a later fight's tile is resolved next turn (ledger 14).
        fighters = [h for h in self.living() if not h.frozen and (self.tokens[h.pos] or h.pos == self.tower)]
        cells = sorted({h.pos for h in fighters})
        self.todo[0:0] = [("combat", c, [h.seat for h in fighters if h.pos == c]) for c in cells]

    def _t_combat(self, c: int, seats: list[int] | None = None) -> None:
        o = self.game.option_values
        self.flip_tokens(c)
        heroes = [h for h in self.heroes_at(c) if not h.frozen and (seats is None or h.seat in seats)]
        traps = sum(1 for t in self.tokens[c] if t.kind == "T")
        if traps:
            target = o[f"trap_save_{min(traps, 3)}"]
            for h in heroes:
                r = self.rng.roll(o["trap_die"])  # a d20 in every version (ledger 45)
                total = r + self.bonus(h, "save")
                ok = total >= target
                bonus = f", +{total - r} save bonus = {total}" if total != r else ""
                self.emit(f"Hero {h.seat} rolls a {die_words(o['trap_die'])} die against {traps} trap(s): {r}{bonus},"
                          f" needed {target}: {'saved' if ok else 'hurt'}",
                          {"seat": h.seat, "roll": r, "target": target, "saved": ok})
                self.count("trap:saves", h.seat)
                if not ok:
                    dmg = o["trap_damage"] * (traps if o["trap_damage_per_trap"] else 1)
                    self.damage(h, dmg, "trap:damage")
            self.tokens[c] = [t for t in self.tokens[c] if t.kind != "T"]
        heroes = [h for h in heroes if h.alive]
        if not heroes or self.winner:
            return
        if not self.monsters(c):
            if c == self.tower:
                self.heroes_win()
            return
        self.boost = 0
        self.todo.insert(0, ("fight", c, [h.seat for h in heroes]))
        cards = self.game.content.loot_cards
        for h in reversed(heroes):
            if any(cards[x].effect == "boost" for x in h.hand):
                self.stack.append(Prompt(h.seat, "boost", {"cell": c}))

    def _l_boost(self, p: Prompt) -> list[tuple]:
        cards = self.game.content.loot_cards
        h = self.hero(p.seat)
        return [("boost", n) for n in sorted(set(h.hand)) if cards[n].effect == "boost"] + [("pass",)]

    def _a_boost(self, p: Prompt, a: tuple) -> None:
        if a[0] == "pass":
            self.stack.pop()
            return
        h = self.hero(p.seat)
        h.hand.remove(a[1])
        self.ldeck.discard(a[1])
        self.boost += self.game.content.loot_cards[a[1]].amount
        self.count("loot:" + a[1], h.seat)
        self.emit(f"Hero {h.seat} drinks {a[1]}", {"seat": h.seat, "card": a[1]})
        if len(self._l_boost(p)) == 1:
            self.stack.pop()

    def _t_fight(self, c: int, seats: list[int] | None = None) -> None:
        o = self.game.option_values
        heroes = [h for h in self.heroes_at(c) if not h.frozen and (seats is None or h.seat in seats)]
        mons = self.monsters(c)
        if not heroes or not mons:
            return
        levels = sum(int(t.kind[1:]) for t in mons)
        wroll = self.rng.roll(20)
        rolls = [self.rng.roll(20) for _ in heroes]
        base = sum(rolls) if o["combine_rolls"] else max(rolls)
        bonus = sum(self.bonus(h, "combat") for h in heroes) + self.boost
        self.boost = 0
        won = base + bonus >= wroll + levels
        if len(rolls) == 1:
            hero_roll = f"the hero rolls a {die_words(20)} die: {rolls[0]}"
        else:
            how = "added" if o["combine_rolls"] else "the best counts"
            hero_roll = f"the heroes roll a {die_words(20)} die each: {' and '.join(map(str, rolls))} ({how}: {base})"
        self.emit(
            f"Fight on {cell_name(self.game, c)}: the wizard rolls a {die_words(20)} die for the monsters:"
            f" {wroll}, +{levels} monster level(s) = {wroll + levels}; {hero_roll}, +{bonus} equipment and bonuses"
            f" = {base + bonus}, needed {wroll + levels} (a tie goes to the heroes): "
            + ("the heroes win" if won else "the monsters win"),
            {"cell": c, "wizard": wroll, "levels": levels, "rolls": rolls, "bonus": bonus, "heroes_win": won},
        )
        for h in heroes:
            h.fought = True
            self.count("combat:" + ("won" if won else "lost"), h.seat)
        self.count("combat:" + ("lost" if won else "won"), WIZARD)
        if won:
            self.tokens[c] = [t for t in self.tokens[c] if t.kind[0] != "m"]
            if c == self.tower:
                self.heroes_win()
                return
            if c in self.unclaimed:
                self.award_key(c, heroes[0])
            first = c not in self.cleared
            self.cleared.add(c)
            draw = o["win_loot_draw"] if first else o["win_loot_repeat_draw"]
            self.loot(c, draw, draw if o["win_loot_keep_all"] else 1, [h.seat for h in heroes])
            return
        dmg = len(mons) if o["loss_damage_per_monster"] else 1
        for h in heroes:
            self.damage(h, dmg, "combat:damage")
        for h in heroes:
            if not h.alive:
                continue
            if h.moved and h.prev is not None:
                h.pos = h.prev
                self.emit(f"Hero {h.seat} retreats to {cell_name(self.game, h.pos)}", {"seat": h.seat, "to": h.pos})
            elif self.whirl_destinations(c):
                chooser = WIZARD if o["stuck_retreat"] == "wizard" else h.seat
                self.stack.append(Prompt(chooser, "retreat", {"seat": h.seat, "cell": c}))

    def _l_retreat(self, p: Prompt) -> list[tuple]:
        return [("retreat", j) for j in self.whirl_destinations(p.data["cell"])]

    def _a_retreat(self, p: Prompt, a: tuple) -> None:
        self.stack.pop()
        h = self.hero(p.data["seat"])
        h.pos = a[1]
        self.emit(f"Hero {h.seat} retreats to {cell_name(self.game, a[1])}", {"seat": h.seat, "to": a[1]})

    def damage(self, h: Hero, amount: int, metric: str) -> None:
        if amount <= 0 or not h.alive:
            return
        h.hp -= amount
        self.count(metric, h.seat, amount)
        if h.hp <= 0:
            h.hp, h.alive = 0, False
            c = h.pos
            if h.keys:
                self.dropped_keys[c] = self.dropped_keys.get(c, 0) + h.keys
            items = h.equipment + h.hand
            if items:
                self.dropped_cards.setdefault(c, []).extend(items)
            h.keys, h.equipment, h.hand = 0, [], []
            self.count("hero:deaths", h.seat)
            self.emit(f"Hero {h.seat} dies on {cell_name(self.game, c)}", {"seat": h.seat, "cell": c})
            if not self.living():
                self.winner = "wizard"
                self.phase = "over"
                self.stack.clear()
                self.todo.clear()

    def heroes_win(self) -> None:
        self.winner = "heroes"
        self.phase = "over"
        self.stack.clear()
        self.todo.clear()
        self.emit("The heroes storm the tower and defeat the wizard!")
