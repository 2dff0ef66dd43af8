"""Summoner's Quest rules: setup, the turn, movement, landing, combat and victory.

Reads in the seed's order.  A turn is: recover 2 mana (and poison ticks, and
the chamber hold counts), at-will actions (``pre``), roll 2d6, one movement
(``move``), the landing sequence (equipment, traps, combat, space effect),
at-will actions again (``post``), end.  Pending decisions inside the landing
sequence are prompts on ``self.stack``; ``self.flow`` (landing) and
``self.combat`` hold the sequence's progress so a saved state resumes exactly.
"""

from __future__ import annotations

from boardlab.engine import Deck, Prompt, Results, State, win_results
from boardlab.engine.codec import copy_value

from .combat import CombatMixin
from .effects import EffectsMixin, Summon

START_LIFE = 10


class SummonersQuestRules(CombatMixin, EffectsMixin, State):
    """The state and its transitions.  The full state is ``game.SummonersQuestState``, which
    binds in the views (view.py) and the evaluation features (features.py)."""

    __slots__ = (
        "order", "active", "phase", "dice", "pos", "life", "alive", "start", "mana", "used",
        "hands", "deck", "status", "equip", "summons", "next_uid", "traps", "gates", "entry",
        "hold", "used_equip", "used_abilities", "flow", "combat", "usage", "winner", "reason",
    )

    # -- Copying (search clones constantly; the generic field copy is several times slower) --
    def _copy_fields(self, new: "SummonersQuestRules") -> None:  # type: ignore[override]
        new.order = self.order[:]
        new.active, new.phase, new.dice = self.active, self.phase, self.dice
        new.pos, new.life, new.alive, new.start = self.pos[:], self.life[:], self.alive[:], self.start[:]
        new.mana, new.used = self.mana[:], self.used[:]
        new.hands = [h[:] for h in self.hands]
        new.deck = self.deck.copy()
        new.status = copy_value(self.status)
        new.equip = [e[:] for e in self.equip]
        summons = {}
        for uid, m in self.summons.items():
            c = Summon.__new__(Summon)
            c.uid, c.card, c.owner, c.pos, c.damage = m.uid, m.card, m.owner, m.pos, m.damage
            c.status, c.status_turns, c.equip = m.status, m.status_turns, m.equip[:]
            summons[uid] = c
        new.summons = summons
        new.next_uid = self.next_uid
        new.traps = {k: v[:] for k, v in self.traps.items()}
        new.gates = self.gates
        new.entry = copy_value(self.entry) if self.entry else {}
        new.hold = self.hold[:]
        new.used_equip = self.used_equip
        new.used_abilities = self.used_abilities[:]
        new.flow = copy_value(self.flow) if self.flow is not None else None
        new.combat = copy_value(self.combat) if self.combat is not None else None
        new.usage = {k: v[:] for k, v in self.usage.items()}
        new.winner, new.reason = self.winner, self.reason

    # -- Setup ----------------------------------------------------------------
    def _setup(self) -> None:
        game = self.game
        n = game.players
        opts = game.option_values
        self.pos = [-1] * n
        self.life = [START_LIFE] * n
        self.alive = [True] * n
        self.start = [-1] * n
        self.mana = [opts["start_mana"]] * n
        self.used = [0] * n
        self.status = [[] for _ in range(n)]
        self.equip = [[] for _ in range(n)]
        self.summons = {}
        self.next_uid = 1
        self.traps = {}
        self.gates = 0
        self.entry = {}
        self.hold = [0] * n
        self.used_equip = False
        self.used_abilities = []
        self.flow = None
        self.combat = None
        self.usage = {}
        self.winner = None
        self.reason = ""
        self.dice = ()
        self.deck = Deck(list(game.cards))
        self.deck.shuffle(self.rng)
        self.hands = [self.deck.draw_many(self.rng, opts["starting_hand"]) for _ in range(n)]
        self.order = self.roll_order(list(range(n)))
        self.emit("Turn order: " + ", ".join(f"Player {s + 1}" for s in self.order), {"order": list(self.order)})
        self.phase = "temple"
        self.active = self.order[0]

    def roll_order(self, seats: list[int]) -> list[int]:
        """Each seat rolls a d6, highest first; tied seats re-roll among themselves, keeping their place."""
        rolls = {s: self.rng.roll(6) for s in seats}
        self.emit("Turn order: each rolls a six-sided die, the highest plays first: "
                  + ", ".join(f"Player {s + 1} {r}" for s, r in rolls.items()), {"rolls": {str(s): r for s, r in rolls.items()}})
        out: list[int] = []
        for value in sorted(set(rolls.values()), reverse=True):
            group = [s for s in seats if rolls[s] == value]
            out.extend(group if len(group) == 1 else self.roll_order(group))
        return out

    # -- turn flow ------------------------------------------------------------
    def _current_seat(self) -> int | None:
        return self.active

    def start_turn(self, seat: int) -> None:
        self.active = seat
        self.begin_turn()
        self.phase = "pre"
        self.dice = ()
        self.used_equip = False
        self.used_abilities = []
        k = min(self.game.option_values["mana_recovery"], self.used[seat])
        self.used[seat] -= k
        self.mana[seat] += k
        for p in self.pieces_of(seat):
            if self.exists(p) and self.has_status(p, "poisoned"):
                self.emit(f"{self.label(p)} suffers from poison.", {"poison": p})
                self.damage(p, 1)
                if self.winner is not None:
                    return
        if not self.alive[seat]:
            self.end_turn()
            return
        if self.pos[seat] == self.game.board.chamber:
            self.hold[seat] += 1
            self.emit(f"Player {seat + 1} holds the chamber of victory ({self.hold[seat]}).", {"seat": seat, "hold": self.hold[seat]})

    def end_turn(self) -> None:
        seat = self.active
        self.flow = None
        self.combat = None
        self.stack.clear()
        for p in self.pieces_of(seat):
            self.tick_statuses(p)
        if self.alive[seat] and self.pos[seat] == self.game.board.chamber and self.hold[seat] >= self.game.option_values["hold_turns"]:
            self.finish(seat, "held the chamber of victory")
            return
        i = self.order.index(seat)
        for j in range(1, len(self.order) + 1):
            nxt = self.order[(i + j) % len(self.order)]
            if self.alive[nxt]:
                self.start_turn(nxt)
                return

    def tick_statuses(self, pid: str) -> None:
        if pid[0] == "P":
            sts = self.status[int(pid[1:])]
            for st in sts:
                st[1] -= 1
            sts[:] = [st for st in sts if st[1] > 0]
        else:
            m = self.summons[int(pid[1:])]
            if m.status:
                m.status_turns -= 1
                if m.status_turns <= 0:
                    m.status, m.status_turns = None, 0

    def finish(self, seat: int, reason: str) -> None:
        if self.winner is None:
            self.winner = seat
            self.reason = reason
            self.phase = "over"
            self.stack.clear()
            self.flow = None
            self.combat = None
            self.emit(f"Player {seat + 1} wins: {reason}.", {"winner": seat, "reason": reason})

    def _is_over(self) -> bool:
        return self.winner is not None

    def _results(self) -> Results:
        return win_results(self.game.players, [self.winner], self.reason)

    # -- legal actions ----------------------------------------------------------
    def _legal_actions(self) -> list[tuple]:
        if self.stack:
            return self.prompt_actions(self.stack[-1])
        seat = self.active
        if self.phase == "temple":
            taken = set(self.start)
            return [("temple", t) for t in self.game.board.temples if t not in taken]
        if self.phase == "move":
            return self.move_actions(seat) or [("stay",)]
        acts = self.at_will_actions(seat)
        acts.append(("roll",) if self.phase == "pre" else ("end",))
        return acts

    def prompt_actions(self, pr: Prompt) -> list[tuple]:
        kind, d = pr.kind, pr.data
        if kind == "trap_victim":
            return [("victim", p) for p in d["movers"]]
        if kind == "attack":
            return [("attack", a, t) for a, t in d["pairs"]]
        if kind == "defend":
            return [("defend", u) for u in d["summons"]] + [("no_defend",)]
        if kind == "precombat":
            return [("boost", u) for u in self.combat_abilities(pr.seat)] + [("fight",)]
        if kind == "portal":
            return [("jump",), ("stay_portal",)]
        if kind == "hand_full":
            return [("discard_draw", c) for c in sorted(set(self.hands[pr.seat]))] + [("keep",)]
        raise AssertionError(kind)  # pragma: no cover

    # -- Movement -------------------------------------------------------------
    def move_steps(self, pid: str, roll: int) -> int:
        n = roll + self.passive(pid, "move")
        card = self.card_of(pid)
        if card is not None:
            n += {"swift": 1, "slow": -1}.get(card.move, 0)
        if self.has_status(pid, "hasted"):
            n += 2
        if self.has_status(pid, "slowed"):
            n -= 2
        return max(1, n)

    def can_move(self, pid: str) -> bool:
        return self.pos_of(pid) != self.game.board.chamber and not self.has_status(pid, "stunned")

    def destinations(self, pid: str, n: int, backwards_ok: bool) -> list[tuple[int, int]]:
        """``(dest, gate)`` pairs: forward paths (gate = -1 or the gate turned into), or backwards (gate -2)."""
        board = self.game.board
        p = self.pos_of(pid)
        seat = self.owner(pid)
        cost = self.game.option_values["gate_cost"]
        if self.game.option_values["gate_opening"] == "at-will":
            cost = 10**9  # closed gates are opened only by the at-will action
        out: list[tuple[int, int]] = []
        if not self.has_status(pid, "reversed"):
            for dest, gate, _ in board.forward(p, n):
                if gate >= 0 and p < 32 and not (self.gates >> gate & 1) and self.mana[seat] < cost:
                    continue
                if gate >= 0 and p >= 32:
                    gate = -1
                if (dest, gate) not in out:
                    out.append((dest, gate))
        if self.has_status(pid, "reversed") or (backwards_ok and p < 32):
            out.append((board.backward(p, n), -2))
        return out

    def move_actions(self, seat: int) -> list[tuple]:
        roll = sum(self.dice)
        acts: list[tuple] = []
        me = f"P{seat}"
        if self.can_move(me):
            acts.extend(("move", "P", d, g) for d, g in self.destinations(me, self.move_steps(me, roll), False))
        for u, m in self.summons.items():
            sid = f"S{u}"
            if m.owner != seat or not self.can_move(sid):
                continue
            acts.extend(("move", sid, d, g) for d, g in self.destinations(sid, self.move_steps(sid, roll), True))
            if (m.pos == self.pos[seat] and self.can_move(me) and not self.has_status(me, "reversed")
                    and not self.has_status(sid, "reversed")):
                acts.extend(("move", f"B{u}", d, g) for d, g in self.destinations(me, max(1, roll // 2), False) if g != -2)
        return acts

    def do_move(self, action: tuple) -> None:
        _, who, dest, gate = action
        seat = self.active
        board = self.game.board
        movers = [f"P{seat}"] if who == "P" else [f"S{who[1:]}"] if who[0] == "S" else [f"P{seat}", f"S{who[1:]}"]
        lead = movers[0]
        start = self.pos_of(lead)
        if gate >= 0 and not (self.gates >> gate & 1):
            self.spend(seat, self.game.option_values["gate_cost"])
            self.gates |= 1 << gate
            self.count("rule:gate_opened", seat)
            self.emit(f"Player {seat + 1} opens the {board.names[board.gate_space(gate)]}.", {"seat": seat, "gate": gate})
        if lead[0] == "P" and gate != -2 and start < 32:
            roll = sum(self.dice)
            steps = self.move_steps(lead, roll) if who == "P" else max(1, roll // 2)
            crossed = any(self.start[seat] in passed for d, g, passed in board.forward(start, steps) if d == dest and g == gate)
            if crossed:
                self.mana[seat] += 2
                self.count("rule:temple_crossed", seat)
                self.emit(f"Player {seat + 1} crosses their temple: +2 maximum mana.", {"seat": seat, "mana_max": 2})
        for p in movers:
            if gate >= 0:
                self.entry[p] = gate
            self.set_pos(p, dest)
        self.emit(f"{' and '.join(self.label(p) for p in movers)} move{'s' if len(movers) == 1 else ''} to {board.names[dest]}.",
                  {"movers": movers, "to": dest})
        self.flow = {"movers": movers, "space": dest, "step": "trap", "jump": True}
        self.phase = "landing"

    # -- applying actions ---------------------------------------------------------
    def _apply(self, action: tuple) -> None:
        kind = action[0]
        if self.stack:
            self.answer_prompt(self.stack.pop(), action)
        elif kind == "temple":
            self.start[self.active] = action[1]
            self.pos[self.active] = action[1]
            self.emit(f"Player {self.active + 1} starts at the {self.game.board.names[action[1]]}.", {"seat": self.active, "temple": action[1]})
            i = self.order.index(self.active)
            if i + 1 < len(self.order):
                self.active = self.order[i + 1]
            else:
                self.start_turn(self.order[0])
            return
        elif kind == "roll":
            self.dice = (self.rng.roll(6), self.rng.roll(6))
            self.phase = "move"
            self.emit(f"Player {self.active + 1} rolls two six-sided dice to move: {self.dice[0]}+{self.dice[1]} = {sum(self.dice)}.",
                      {"dice": list(self.dice)})
        elif kind == "move":
            self.do_move(action)
        elif kind == "stay":
            self.phase = "post"
        elif kind == "end":
            self.end_turn()
            return
        else:
            self.apply_at_will(action)
        self.advance()

    def answer_prompt(self, pr: Prompt, action: tuple) -> None:
        kind = action[0]
        if kind == "victim":
            self.spring_trap(pr.data["space"], action[1])
        elif kind == "attack":
            self.start_combat(action[1], action[2])
        elif kind == "defend":
            self.combat["def"] = f"S{action[1]}"
            self.emit(f"{self.label(self.combat['def'])} defends its summoner.", {"defend": self.combat["def"]})
        elif kind == "no_defend":
            pass
        elif kind == "boost":
            self.use_combat_ability(pr.seat, action[1])
            if self.combat is not None:
                self.combat["asked"].remove(pr.seat)  # asked again if another ability is usable
        elif kind == "fight":
            pass
        elif kind == "jump":
            self.jump(pr.data["movers"])
        elif kind == "stay_portal":
            pass
        elif kind == "discard_draw":
            s = pr.seat
            self.hands[s].remove(action[1])
            self.deck.discard(action[1])
            self.emit(f"Player {s + 1} discards {self.game.cards[action[1]].name} to draw.", {"seat": s, "discard": action[1]})
            self.draw_cards(s, 1)
        elif kind == "keep":
            pass

    def advance(self) -> None:
        """Run the landing sequence until a decision is needed or it ends."""
        while not self.stack and self.winner is None:
            if not self.alive[self.active]:
                self.end_turn()
                return
            if self.combat is not None:
                self.combat_step()
            elif self.flow is not None:
                self.landing_step()
            else:
                if self.phase == "landing":
                    self.phase = "post"
                return

    # -- the order of operations on landing ----------------------------------------
    def landing_step(self) -> None:
        f = self.flow
        f["movers"] = [p for p in f["movers"] if self.exists(p) and self.pos_of(p) == f["space"]]
        if not f["movers"]:
            self.flow = None
            return
        step = f["step"]
        space = f["space"]
        if step == "trap":
            f["step"] = "combat"
            if space in self.traps:
                if len(f["movers"]) > 1:
                    self.stack.append(Prompt(self.active, "trap_victim", {"space": space, "movers": list(f["movers"])}))
                else:
                    self.spring_trap(space, f["movers"][0])
        elif step == "combat":
            f["step"] = "space"
            enemies = [p for p in self.pieces_at(space) if self.owner(p) != self.active]
            if enemies:
                pairs = [[a, t] for a in f["movers"] for t in enemies]
                if len(pairs) == 1:
                    self.start_combat(*pairs[0])
                else:
                    self.stack.append(Prompt(self.active, "attack", {"pairs": pairs}))
        else:
            self.flow = None
            self.space_effect(f["movers"], space, f["jump"])

    def spring_trap(self, space: int, victim: str) -> None:
        """Equipment first (a ward negates), then the negation roll, then the trap's effect."""
        cid, owner = self.traps.pop(space)
        card = self.game.cards[cid]
        self.deck.discard(cid)
        self.count(f"trap:{cid}", self.owner(victim))
        whose = (f"Player {owner + 1}'s own trap: a trap catches its owner's pieces too" if self.owner(victim) == owner
                 else f"Player {owner + 1}'s trap")
        self.emit(f"{self.label(victim)} springs {card.name} ({whose}).", {"trap": cid, "victim": victim, "owner": owner})
        for eq in list(self.equipment_of(victim)):
            ec = self.game.cards[eq]
            if ec.passive_value("ward"):
                self.emit(f"{ec.name} negates the trap.", {"ward": eq})
                if ec.lasting == "expended":
                    self.equipment_of(victim).remove(eq)
                    self.deck.discard(eq)
                return
        need = card.negate
        vcard = self.card_of(victim)
        bonus = self.passive(victim, "trap_roll") + (2 if vcard is not None and vcard.move == "trapsense" else 0)
        r = self.rng.roll(6)
        roll = f"{self.label(victim)} rolls a six-sided die to negate {card.name}: {r}" + (
            f", +{bonus} trap bonus = {r + bonus}" if bonus else "") + f", needed {need}"
        if r + bonus >= need:
            self.emit(f"{roll}: the trap is destroyed.", {"negate": r, "need": need})
            return
        self.emit(f"{roll}: the trap takes effect.", {"negate": r, "need": need})
        source = f"{card.name}, Player {owner + 1}'s {'own ' if self.owner(victim) == owner else ''}trap"
        self.apply_effects(card.summon_effects if vcard is not None else card.effects, owner, victim, source=source)

    def space_effect(self, movers: list[str], space: int, jump: bool) -> None:
        kind = self.game.board.kinds[space]
        seat = self.active
        if kind == "focus" and f"P{seat}" in movers:
            self.focus_draw(seat)
        elif kind == "portal" and jump:
            self.stack.append(Prompt(seat, "portal", {"movers": list(movers), "space": space}))

    def focus_draw(self, seat: int) -> None:
        self.count("rule:focus_draw", seat)
        if len(self.hands[seat]) >= self.game.option_values["hand_limit"]:
            if self.deck.can_draw():
                self.stack.append(Prompt(seat, "hand_full", None))
        else:
            self.draw_cards(seat, 1)

    def jump(self, movers: list[str]) -> None:
        board = self.game.board
        p = self.pos_of(movers[0])
        nxt = board.portals[(board.portals.index(p) + 1) % len(board.portals)]
        for m in movers:
            self.set_pos(m, nxt)
        self.count("rule:portal_jump", self.active)
        self.emit(f"{' and '.join(self.label(m) for m in movers)} {'jumps' if len(movers) == 1 else 'jump'} to {board.names[nxt]}.", {"movers": movers, "to": nxt})
        self.flow = {"movers": list(movers), "space": nxt, "step": "trap", "jump": False}

    # -- roles and metrics ----------------------------------------------------------
    def roles(self) -> tuple[str, ...]:
        return tuple(f"summoner {i + 1}" for i in range(self.game.players))

    def metrics(self) -> dict[str, list[int]]:
        return {k: list(v) for k, v in sorted(self.usage.items())}

