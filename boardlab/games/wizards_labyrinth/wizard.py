"""The wizard's turn: rage, the draw, and playing monster, trap and spell cards.

"The wizard starts his turn by drawing a card from his deck. He then plays any cards he can from
his hand with the mana he has to use and ends his turn."  Once the keys are taken the turn opens
with the Rage of the wizard.  Mixed into :class:`~.rules.LabyrinthRules` (this module never imports it).
"""

from __future__ import annotations

from typing import Any

from boardlab.engine import Prompt, Token
from boardlab.engine.components import DIRECTIONS

from .board import DIRECTION_NAMES, cell_name, token_name

WIZARD = 0


class WizardTurnMixin:
    __slots__ = ()

    # wizard turn -------------------------------------------------------------
    def _t_wizard_turn(self, first: bool = False) -> None:
        self.begin_turn()
        self.phase = "wizard"
        tasks: list[tuple] = [("rage", self.game.players)] if self.rage_active() else []
        # alpha's "First turn": the opening five are that turn's draw (ledger 43)
        draw = not first or self.game.option_values["first_turn_draw"]
        self.todo[0:0] = tasks + [("wizard_draw",) if draw else ("wizard_draw", 0), ("ask", "main")]

    def _t_wizard_draw(self, draw: int = 1) -> None:
        """Draw a card (none on alpha's first turn); at the wheel's maximum draw an extra card instead of gaining mana."""
        o = self.game.option_values
        extra = 0
        if self.mana >= o["mana_max"]:
            extra = 1
        else:
            self.mana = min(o["mana_max"], self.mana + o["mana_per_turn"])
        cards = self.wdeck.draw_many(self.rng, draw + extra)
        self.whand += cards
        self.mana_left = self.mana
        if draw + extra:
            self.emit(f"The wizard draws {len(cards)} card(s)", to=[WIZARD], private_text=f"You draw {', '.join(cards) or 'nothing'}")

    def _t_rage(self, left: int) -> None:
        if left > 0 and self.rage_removable():
            self.stack.append(Prompt(WIZARD, "rage", {"left": left}))

    def _l_rage(self, p: Prompt) -> list[tuple]:
        return [("remove", c) for c in self.rage_removable()]

    def _a_rage(self, p: Prompt, a: tuple) -> None:
        self.stack.pop()
        c = a[1]
        self.removed[c] = True
        for t in self.tokens[c]:
            self.count("token:lost", WIZARD)
        self.tokens[c] = []
        for name in self.dropped_cards.pop(c, ()):  # loot on a removed tile is discarded (ledger 38)
            self.ldeck.discard(name)
        self.count("rule:rage_removed", WIZARD)
        self.emit(f"The wizard's rage destroys {cell_name(self.game, c)}", {"removed": c})
        self.todo.insert(0, ("rage", p.data["left"] - 1))

    def _l_main(self, p: Prompt) -> list[tuple]:
        cards = self.game.content.wizard_cards
        out = [("play", name) for name in sorted(set(self.whand)) if cards[name].cost <= self.mana_left and self.playable(cards[name])]
        out.append(("end",))
        return out

    def playable(self, card: Any) -> bool:
        if card.type != "spell":
            return bool(self.placeable(card.tokens()[0]))  # its real token must fit somewhere
        e = card.effect
        if e in ("frost_bolt", "fireball"):
            return bool(self.living())
        if e == "shifting_gate":
            return bool(self.entrance)
        if e == "switcheroo":
            return bool(self._l_switch_hero(None))
        if e == "whirlwind":
            return bool(self._l_whirl_target(None))
        return False  # pragma: no cover

    def _a_main(self, p: Prompt, a: tuple) -> None:
        if a[0] == "end":
            self.stack.pop()
            self.emit("The wizard ends his turn")
            self.todo.insert(0, ("hero_turn",))
            return
        card = self.game.content.wizard_cards[a[1]]
        self.whand.remove(card.name)
        self.mana_left -= card.cost
        (self.wdeck.remove if card.removed else self.wdeck.discard)(card.name)
        self.count("card:" + card.name, WIZARD)
        self.emit(f"The wizard plays {card.name}", {"card": card.name})
        if card.type != "spell":
            self.stack.append(Prompt(WIZARD, "place", {"card": card.name, "tokens": card.tokens()}))
        elif card.effect in ("frost_bolt", "fireball"):
            self.stack.append(Prompt(WIZARD, "spell_target", {"card": card.name}))
        elif card.effect == "shifting_gate":
            self.stack.append(Prompt(WIZARD, "gate"))
        elif card.effect == "switcheroo":
            self.stack.append(Prompt(WIZARD, "switch_hero"))
        else:
            self.stack.append(Prompt(WIZARD, "whirl_target", {"card": card.name}))

    def _l_place(self, p: Prompt) -> list[tuple]:
        """The wizard places the card's tokens face down in any order he likes (so the order tells nothing)."""
        kinds = sorted(set(p.data["tokens"]))
        cells = {k: set(self.placeable(k)) for k in kinds}
        return [("place", c, k) for c in range(len(self.tiles)) for k in kinds if c in cells[k]]

    def _a_place(self, p: Prompt, a: tuple) -> None:
        p.data["tokens"].remove(a[2])
        p.data.setdefault("placed", []).append(a[1])
        self.tokens[a[1]].append(Token(a[2], False, 1 << WIZARD))
        self.count("token:" + a[2], WIZARD)
        self.emit(f"The wizard places a token on {cell_name(self.game, a[1])}", {"cell": a[1]}, to=[WIZARD],
                  private_text=f"You place {token_name(a[2])} on {cell_name(self.game, a[1])}")
        if not p.data["tokens"] or not self._l_place(p):
            self.stack.pop()
            if p.data["tokens"]:  # the prompt ends early, as the board shows: say how many, never which
                n = len(p.data["tokens"])
                self.emit(f"No tile can take the last {f'{n} tokens' if n > 1 else 'token'} of {p.data['card']}"
                          f" (at most {self.game.token_limit} tokens on a tile, none on a hero's tile)",
                          {"card": p.data["card"], "unplaced": n})

    def _l_spell_target(self, p: Prompt) -> list[tuple]:
        return [("target", c) for c in sorted({h.pos for h in self.living()})]

    def _a_spell_target(self, p: Prompt, a: tuple) -> None:
        self.stack.pop()
        card = self.game.content.wizard_cards[p.data["card"]]
        here = self.heroes_at(a[1])
        if card.effect == "frost_bolt":
            for h in here:
                h.frozen = True
                self.count("rule:frozen", h.seat)
            self.emit(f"Frost Bolt freezes the heroes on {cell_name(self.game, a[1])}", {"cell": a[1]})
        else:
            self.emit(f"{card.name} strikes {cell_name(self.game, a[1])}", {"cell": a[1]})
            for h in here:
                self.damage(h, card.damage, "spell:damage")

    def _l_gate(self, p: Prompt) -> list[tuple]:
        return [("face", d) for d in DIRECTIONS if d != self.entrance]

    def _a_gate(self, p: Prompt, a: tuple) -> None:
        self.stack.pop()
        self.entrance = a[1]
        self.emit(f"The tower entrance turns to face {DIRECTION_NAMES[a[1]]}", {"entrance": a[1]})

    def _l_switch_hero(self, p: Prompt | None) -> list[tuple]:
        """Heroes that can swap with some token: the token lands on the hero's tile, which must stay within
        the token limit ("a maximum number of tokens on a single tile equal to the total number of players",
        ledger 37) and must have no other hero left on it ("any tile that does not have a player on it",
        ledger 44; option ``switcheroo_onto_heroes`` lifts this)."""
        limit = self.game.token_limit
        crowd_ok = self.game.option_values["switcheroo_onto_heroes"]
        living = self.living()
        return [("hero", h.seat) for h in living
                if len(self.tokens[h.pos]) < limit
                and (crowd_ok or not any(o is not h and o.pos == h.pos for o in living))
                and self._l_switch_token(Prompt(WIZARD, "switch_token", {"seat": h.seat}))]

    def _a_switch_hero(self, p: Prompt, a: tuple) -> None:
        self.stack[-1] = Prompt(WIZARD, "switch_token", {"seat": a[1]})
        self.emit(f"Switcheroo: the wizard picks Hero {a[1]}", {"seat": a[1]})

    def _l_switch_token(self, p: Prompt) -> list[tuple]:
        pos = self.hero(p.data["seat"]).pos
        cells = [c for c in range(len(self.tiles)) if c not in (self.tower, pos) and self.tokens[c]]
        if any(self.removed):  # never onto a tile the Rage has cut off from the tower (ledger 39)
            goal = self.entrance_cell()
            goal = min(self.ring()) if goal is None else goal
            dist = self.game.grid.distances(goal, passable=lambda j: not self.removed[j] and j != self.tower)
            cells = [c for c in cells if c in dist]
        return [("token", c, i) for c in cells for i in range(len(self.tokens[c]))]

    def _a_switch_token(self, p: Prompt, a: tuple) -> None:
        self.stack.pop()
        h = self.hero(p.data["seat"])
        where = self._stack_words(a[1], a[2])
        tok = self.tokens[a[1]].pop(a[2])
        self.tokens[h.pos].append(tok)
        self.emit(f"Switcheroo: Hero {h.seat} swaps places with {where}",
                  {"seat": h.seat, "from": h.pos, "to": a[1], "index": a[2]})
        h.pos, h.prev = a[1], None

    def whirl_destinations(self, c: int) -> list[int]:
        return [j for j in self.game.grid.neighbours(c) if not self.removed[j] and j != self.tower]

    def _l_whirl_target(self, p: Prompt | None) -> list[tuple]:
        return [("target", c) for c in sorted({h.pos for h in self.living()}) if self.whirl_destinations(c)]

    def _a_whirl_target(self, p: Prompt, a: tuple) -> None:
        seats = [h.seat for h in self.heroes_at(a[1])]
        self.stack[-1] = Prompt(WIZARD, "whirl_push", {"card": p.data["card"], "cell": a[1], "seats": seats, "used": []})
        self.emit(f"Whirlwind tears through {cell_name(self.game, a[1])}", {"cell": a[1]})

    def _l_whirl_push(self, p: Prompt) -> list[tuple]:
        dests = self.whirl_destinations(p.data["cell"])
        free = [j for j in dests if j not in p.data["used"]]
        return [("push", j) for j in (free or dests)]

    def _a_whirl_push(self, p: Prompt, a: tuple) -> None:
        h = self.hero(p.data["seats"].pop(0))
        h.pos, h.prev = a[1], None
        p.data["used"].append(a[1])
        self.emit(f"Hero {h.seat} is blown to {cell_name(self.game, a[1])}", {"seat": h.seat, "to": a[1]})
        if not p.data["seats"]:
            self.stack.pop()
            card = self.game.content.wizard_cards[p.data["card"]]
            c = p.data["cell"]
            for _ in range(card.count):
                if len(self.tokens[c]) < self.game.token_limit:
                    self.tokens[c].append(Token(f"m{card.level}", True, 1 << WIZARD))
