"""The heroes' movement phase: secret moves revealed together, the tower door, and beta/alpha's arrival.

"All the movement happens simultaneous ... Each hero can move one step to an adjacent room."  Each
living, unfrozen hero chooses in secret (a step, a sprint, or stay, and on the same decision potions,
Sprint and gifts); :meth:`_t_reveal` then makes every move together and queues combat, loot and
pickup.  Mixed into :class:`~.rules.LabyrinthRules` (this module never imports it: ``Hero`` in the
annotations is the record :class:`~.rules.Hero`, left unevaluated).
"""

from __future__ import annotations

from boardlab.engine import Prompt

from .board import cell_name


class HeroMovementMixin:
    __slots__ = ()

    # hero turn: movement -----------------------------------------------------
    def _t_hero_turn(self) -> None:
        self.begin_turn()
        self.phase = "move"
        self.pending = {}
        for h in self.heroes:
            h.moved = h.fought = h.sprint = False
            h.stuck = bool(self.tokens[h.pos])
            h.prev = None
        tasks = [("ask", "move", h.seat) for h in self.living() if not h.frozen]
        self.todo[0:0] = tasks + [("reveal",)]

    def move_options(self, h: Hero) -> list[tuple]:
        if h.stuck:
            return [("stay",)]
        out = [("move", j) for j in self.game.grid.neighbours(h.pos) if not self.removed[j] and (j != self.tower or self.may_enter_tower(h))]
        if h.sprint:
            for m in self.game.grid.neighbours(h.pos):
                if self.removed[m] or m == self.tower or self.tokens[m]:
                    continue
                out += [("move2", m, j) for j in self.game.grid.neighbours(m) if j != h.pos and not self.removed[j] and j != self.tower]
        out.append(("stay",))
        return out

    def may_enter_tower(self, h: Hero) -> bool:
        ent = self.entrance_cell()
        if ent is not None and h.pos != ent:
            return False
        return self.door_open or sum(x.keys for x in self.heroes_at(h.pos)) >= self.game.option_values["keys_needed"]

    def _l_move(self, p: Prompt) -> list[tuple]:
        h = self.hero(p.data["seat"])
        out = self.move_options(h)
        cards = self.game.content.loot_cards
        for name in sorted(set(h.hand)):
            c = cards[name]
            if c.effect == "heal" and h.hp < self.game.option_values["hero_hp"]:
                out.append(("use", name))
            elif c.effect == "sprint" and not h.sprint and not h.stuck:
                out.append(("use", name))
        if self.game.option_values["trading"]:
            for o in self.heroes_at(h.pos):
                if o is h:
                    continue
                out += [("give", o.seat, name) for name in sorted(set(h.hand))]
                if h.keys:
                    out.append(("give_key", o.seat))
        return out

    def _a_move(self, p: Prompt, a: tuple) -> None:
        h = self.hero(p.data["seat"])
        kind = a[0]
        if kind == "use":
            card = self.game.content.loot_cards[a[1]]
            h.hand.remove(a[1])
            self.ldeck.discard(a[1])
            self.count("loot:" + a[1], h.seat)
            if card.effect == "heal":
                top, before = self.game.option_values["hero_hp"], h.hp
                h.hp = min(top, h.hp + card.amount)
                capped = f" (it heals up to {card.amount}; {top} is the most)" if h.hp - before < card.amount else ""
                self.emit(f"Hero {h.seat} uses {a[1]} and heals {h.hp - before} HP: {before} -> {h.hp} of {top}{capped}",
                          {"seat": h.seat, "card": a[1], "healed": h.hp - before})
            else:
                h.sprint = True
                self.emit(f"Hero {h.seat} uses {a[1]}", {"seat": h.seat, "card": a[1]})
        elif kind == "give":
            h.hand.remove(a[2])
            mate = self.hero(a[1])
            worn = len(mate.equipment)
            self.receive(mate, a[2])
            if len(mate.equipment) > worn:  # equipped at once: the board shows it to everyone, so the log names it
                self.emit(f"Hero {h.seat} gives {a[2]} to Hero {a[1]}, who equips it",
                          {"seat": h.seat, "to": a[1], "card": a[2], "equipped": True})
            else:
                self.emit(f"Hero {h.seat} gives a loot card to Hero {a[1]}", {"seat": h.seat, "to": a[1]},
                          to=self.hero_seats(), private_text=f"Hero {h.seat} gives {a[2]} to Hero {a[1]}")
        elif kind == "give_key":
            h.keys -= 1
            self.hero(a[1]).keys += 1
            self.emit(f"Hero {h.seat} gives a key to Hero {a[1]}", {"seat": h.seat, "to": a[1]})
        else:
            self.stack.pop()
            self.pending[h.seat] = a
            self.emit(f"Hero {h.seat} has chosen a move", {"seat": h.seat}, to=[h.seat], private_text=f"You chose: {self.describe(a)}")

    def hero_seats(self) -> list[int]:
        return [h.seat for h in self.heroes]

    def receive(self, h: Hero, name: str) -> None:
        """Give a loot card to a hero: equipment goes in front if a slot is free, the rest in hand."""
        card = self.game.content.loot_cards[name]
        if card.type == "equipment":
            cards = self.game.content.loot_cards
            limit = {"sword": 2, "boots": 1}.get(card.slot)
            worn = sum(1 for e in h.equipment if cards[e].slot == card.slot)
            if not self.game.option_values["equipment_limits"] or limit is None or worn < limit:
                h.equipment.append(name)
                return
        h.hand.append(name)

    def _t_reveal(self) -> None:
        o = self.game.option_values
        moves, self.pending = self.pending, {}
        into_tower = [s for s, m in moves.items() if m[0] == "move" and m[1] == self.tower]
        if into_tower and not self.door_open:
            group = [self.hero(s) for s in into_tower]
            if sum(h.keys for h in group) >= o["keys_needed"]:
                need = o["keys_needed"]
                for h in group:
                    used = min(need, h.keys)
                    h.keys -= used
                    need -= used
                self.door_open = True
                self.emit("The heroes use the keys and open the tower door")
            else:
                for s in into_tower:
                    moves[s] = ("stay",)
        arrivals: dict[int, list[int]] = {}
        for s in sorted(moves):
            m, h = moves[s], self.hero(s)
            if m[0] == "stay":
                self.emit(f"Hero {s} stays on {cell_name(self.game, h.pos)}", {"seat": s, "stay": h.pos})
                continue
            h.prev, h.moved = h.pos, True
            if m[0] == "move2":
                h.prev = m[1]
                arrivals.setdefault(m[1], []).append(s)
            h.pos = m[-1]
            arrivals.setdefault(h.pos, []).append(s)
            self.emit(f"Hero {s} moves to {cell_name(self.game, h.pos)}", {"seat": s, "to": h.pos, "via": m[1] if m[0] == "move2" else None})
        self.phase = "combat"
        tasks: list[tuple] = []
        if not o["loot_phase"]:
            # A stuck hero "flip[s] all the tokens (and the tile if necessary)" (beta): on a face-down tile
            # he came to by a retreat, the tile flips as if entered (ledger 47).
            for s in sorted(moves):
                h = self.hero(s)
                if h.stuck and moves[s][0] == "stay" and not self.flipped[h.pos] and h.pos != self.tower:
                    arrivals.setdefault(h.pos, []).append(s)
            for c, seats in arrivals.items():
                if c != self.tower:
                    tasks.append(("arrive", c, tuple(seats)))
        tasks.append(("combat_phase",))
        if o["loot_phase"]:
            tasks.append(("loot_phase",))
        tasks += [("pickup",), ("end_hero_turn",)]
        self.todo[0:0] = tasks

    # beta and alpha: flip and loot on entering ------------------------------
    def _t_arrive(self, c: int, seats: tuple[int, ...]) -> None:
        entrants = [self.hero(s) for s in seats if self.hero(s).alive]
        if not entrants:
            return
        self.flip_tokens(c)
        monsters = self.monsters(c)
        if not self.flipped[c]:
            self.flip_tile(c)
            if self.tiles[c][0] == "k":
                if monsters:
                    self.unclaimed.add(c)
                else:
                    self.award_key(c, entrants[0])
            if not monsters:
                self.loot(c, 1, 1, [h.seat for h in entrants])
