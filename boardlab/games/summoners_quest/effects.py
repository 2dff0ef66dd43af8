"""Pieces, the effect vocabulary and the at-will actions (spells, summons, equipment, traps).

A mixin of :class:`~boardlab.games.summoners_quest.rules.SummonersQuestRules`;
every card effect in ``data/cards.json`` is carried out here, once.

Pieces are named by strings: ``"P2"`` is seat 2's summoner, ``"S7"`` the
summon with uid 7.
"""

from __future__ import annotations

from typing import Any

from boardlab.engine import record

from .content import Card

MAX_LIFE = 10


@record
class Summon:
    """A summon on the board: its card, owner, space, damage counters, status and equipment."""

    __slots__ = ("uid", "card", "owner", "pos", "damage", "status", "status_turns", "equip")

    def __init__(self, uid: int, card: str, owner: int, pos: int) -> None:
        self.uid = uid
        self.card = card
        self.owner = owner
        self.pos = pos
        self.damage = 0
        self.status: str | None = None
        self.status_turns = 0
        self.equip: list[str] = []

    def __repr__(self) -> str:
        return f"Summon({self.uid}, {self.card!r}, owner={self.owner}, pos={self.pos}, damage={self.damage})"


class EffectsMixin:
    __slots__ = ()

    # -- pieces -------------------------------------------------------------
    def owner(self, pid: str) -> int:
        return int(pid[1:]) if pid[0] == "P" else self.summons[int(pid[1:])].owner

    def pos_of(self, pid: str) -> int:
        return self.pos[int(pid[1:])] if pid[0] == "P" else self.summons[int(pid[1:])].pos

    def exists(self, pid: str) -> bool:
        return self.alive[int(pid[1:])] if pid[0] == "P" else int(pid[1:]) in self.summons

    def card_of(self, pid: str) -> Card | None:
        return None if pid[0] == "P" else self.game.cards[self.summons[int(pid[1:])].card]

    def pieces_at(self, space: int) -> list[str]:
        out = [f"P{s}" for s in range(self.game.players) if self.alive[s] and self.pos[s] == space]
        out.extend(f"S{u}" for u, m in self.summons.items() if m.pos == space)
        return out

    def pieces_of(self, seat: int) -> list[str]:
        out = [f"P{seat}"] if self.alive[seat] else []
        out.extend(f"S{u}" for u, m in self.summons.items() if m.owner == seat)
        return out

    def set_pos(self, pid: str, space: int) -> None:
        """Place a piece (no landing effects).  Tracks the gate used and resets the hold count."""
        board = self.game.board
        k = board.gate_of_space.get(space)
        if k is not None:
            self.entry[pid] = k
        if pid[0] == "P":
            s = int(pid[1:])
            if self.pos[s] == board.chamber and space != board.chamber and self.hold[s]:
                self.emit(f"Player {s + 1}'s hold on the chamber is broken.", {"seat": s, "hold": 0})
                self.hold[s] = 0
            self.pos[s] = space
        else:
            self.summons[int(pid[1:])].pos = space

    def equipment_of(self, pid: str) -> list[str]:
        return self.equip[int(pid[1:])] if pid[0] == "P" else self.summons[int(pid[1:])].equip

    def passive(self, pid: str, key: str) -> int:
        cards = self.game.cards
        return sum(cards[c].passive_value(key) for c in self.equipment_of(pid))

    def statuses_of(self, pid: str) -> list[str]:
        if pid[0] == "P":
            return [st[0] for st in self.status[int(pid[1:])]]
        m = self.summons[int(pid[1:])]
        return [m.status] if m.status else []

    def has_status(self, pid: str, name: str) -> bool:
        if pid[0] == "P":
            return any(st[0] == name for st in self.status[int(pid[1:])])
        return self.summons[int(pid[1:])].status == name

    def distance(self, a: int, b: int) -> int:
        return self.game.board.distances(self.gates)[a][b]

    def count(self, key: str, seat: int, n: int = 1) -> None:
        row = self.usage.get(key)
        if row is None:
            row = self.usage[key] = [0] * self.game.players
        row[seat] += n

    # -- the effect vocabulary ----------------------------------------------
    def add_status(self, pid: str, name: str, turns: int, source: str = "") -> None:
        """Summoners hold up to 3 effects (a full set refuses new ones); a monster holds 1 (replaced).

        ``turns`` is the card's count of its holder's turns.  The stored count is the number of the
        holder's turn ends still to pass (``tick_statuses`` takes one off at each): a turn of the
        holder counts when the status is in force at its roll, so a status gained during the holder's
        own turn after the roll (a trap, a combat ability, an after-move cast) stores one more and
        starts counting at the holder's next turn.
        """
        shown = turns
        if self.owner(pid) == self.active and self.phase not in ("temple", "pre"):
            turns += 1
        if pid[0] == "P":
            sts = self.status[int(pid[1:])]
            for st in sts:
                if st[0] == name:
                    st[1] = max(st[1], turns)
                    return
            if len(sts) >= self.game.option_values["player_status_max"]:
                self.emit(f"{self.label(pid)} already has the most status effects (3); {name}"
                          f"{f' from {source}' if source else ''} has no effect.")
                return
            sts.append([name, turns])
        else:
            m = self.summons[int(pid[1:])]
            m.status, m.status_turns = name, turns
        by = f" ({source})" if source else ""
        self.emit(f"{self.label(pid)} is {name} for {shown} turn(s){by}.", {"piece": pid, "status": name, "turns": shown})

    def damage(self, pid: str, n: int) -> None:
        n = max(0, n - self.passive(pid, "guard") - (1 if self.has_status(pid, "shielded") else 0))
        if n <= 0 or not self.exists(pid):
            return
        if pid[0] == "P":
            s = int(pid[1:])
            self.life[s] -= n
            self.emit(f"Player {s + 1} loses {n} life ({max(self.life[s], 0)} left).", {"seat": s, "damage": n})
            if self.life[s] <= 0:
                self.eliminate(s)
        else:
            m = self.summons[int(pid[1:])]
            card = self.game.cards[m.card]
            m.damage = min(card.life, m.damage + n)
            self.emit(f"{card.name} takes {n} damage ({card.life - m.damage} left).", {"piece": pid, "damage": n})
            if m.damage >= card.life:
                self.destroy_summon(m.uid)

    def heal(self, pid: str, n: int) -> None:
        if pid[0] == "P":
            s = int(pid[1:])
            self.life[s] = min(MAX_LIFE, self.life[s] + n)
        else:
            m = self.summons[int(pid[1:])]
            m.damage = max(0, m.damage - n)
        self.emit(f"{self.label(pid)} heals {n}.", {"piece": pid, "heal": n})

    def destroy_summon(self, uid: int) -> None:
        m = self.summons.pop(uid)
        self.deck.discard(m.card)
        for c in m.equip:
            self.deck.discard(c)
        self.entry.pop(f"S{uid}", None)
        self.emit(f"{self.game.cards[m.card].name} is destroyed.", {"destroyed": f"S{uid}"})

    def eliminate(self, s: int) -> None:
        self.alive[s] = False
        self.life[s] = 0
        self.pos[s] = -1
        self.hold[s] = 0
        self.status[s] = []
        for u in [u for u, m in self.summons.items() if m.owner == s]:
            self.destroy_summon(u)
        for c in self.hands[s] + self.equip[s]:
            self.deck.discard(c)
        self.hands[s] = []
        self.equip[s] = []
        self.emit(f"Player {s + 1}'s summoner is defeated.", {"eliminated": s})
        alive = [i for i in range(self.game.players) if self.alive[i]]
        if len(alive) == 1:
            self.finish(alive[0], "last summoner standing")

    def move_back(self, pid: str, n: int) -> None:
        card = self.card_of(pid)
        if card is not None and card.move == "steadfast":
            return
        p = self.pos_of(pid)
        self.set_pos(pid, self.game.board.backward(p, n))

    def draw_cards(self, seat: int, n: int) -> int:
        drawn = 0
        for _ in range(n):
            if len(self.hands[seat]) >= self.game.option_values["hand_limit"]:
                break
            c = self.deck.draw(self.rng)
            if c is None:
                break
            self.hands[seat].append(c)
            drawn += 1
            self.emit(f"Player {seat + 1} draws a card.", {"seat": seat, "draw": 1}, to=[seat],
                      private_text=f"You draw {self.game.cards[c].name}.", private_data={"seat": seat, "card": c})
        return drawn

    def apply_effects(self, effects: tuple, caster: int, target: Any, user: str | None = None, source: str = "") -> None:
        """Carry out ``effects``: ``target`` is a piece id, or a space (every enemy piece on it);
        ``source`` names what caused them in the log lines (``Frost Rune, Player 1's own trap``)."""
        if isinstance(target, int):
            victims = [p for p in self.pieces_at(target) if self.owner(p) != caster]
        else:
            victims = [target] if target is not None else []
        for e in effects:
            kind = e[0]
            if kind == "draw":
                self.draw_cards(caster, e[1])
            elif kind == "mana":
                k = min(e[1], self.used[caster])
                self.used[caster] -= k
                self.mana[caster] += k
            elif kind == "break_trap":
                space = target if isinstance(target, int) else self.pos_of(target)
                trap = self.traps.pop(space, None)
                if trap is not None:
                    self.deck.discard(trap[0])
                    self.emit(f"The trap on {self.game.board.names[space]} is destroyed.", {"space": space})
            elif kind in ("roll", "attack"):
                if self.combat is not None and user is not None:
                    self.combat["bonus"].setdefault(user, [0, 0])[0 if kind == "roll" else 1] += e[1]
            else:
                for v in victims:
                    if self.exists(v):
                        self._piece_effect(e, v, source)
            if self.winner is not None:
                return

    def _piece_effect(self, e: tuple, v: str, source: str = "") -> None:
        kind = e[0]
        board = self.game.board
        if kind == "damage":
            self.damage(v, e[1])
        elif kind == "heal":
            self.heal(v, e[1])
        elif kind == "push":
            self.move_back(v, e[1])
        elif kind == "advance":
            p = self.pos_of(v)
            for _ in range(e[1]):
                if p == board.chamber:
                    break
                p = board.fwd[p]
            self.set_pos(v, p)
        elif kind == "portal":
            p = self.pos_of(v)
            if p < 32:
                self.set_pos(v, min((q for q in board.portals if q > p), default=board.portals[0]))
        elif kind == "status":
            self.add_status(v, e[1], e[2], source)
        elif kind == "cleanse":
            if v[0] == "P":
                self.status[int(v[1:])] = []
            else:  # the status and its count go together: nothing is left to show or tick
                m = self.summons[int(v[1:])]
                m.status, m.status_turns = None, 0
        elif kind == "discard":
            s = self.owner(v)
            for _ in range(e[1]):
                if not self.hands[s]:
                    break
                c = self.hands[s].pop(self.rng.below(len(self.hands[s])))
                self.deck.discard(c)
                self.emit(f"Player {s + 1} discards {self.game.cards[c].name}.", {"seat": s, "discard": c})
        elif kind == "shatter":
            items = self.equipment_of(v)
            if items:
                c = items.pop(self.rng.below(len(items)))
                self.deck.discard(c)
                self.emit(f"{self.game.cards[c].name} is destroyed.", {"piece": v, "shattered": c})
        elif kind == "drain":
            s = self.owner(v)
            k = min(e[1], self.mana[s])
            self.mana[s] -= k
            self.used[s] += k

    # -- at-will actions ------------------------------------------------------
    def card_cost(self, seat: int, card: Card) -> int:
        """A card's mana cost; a summoner on a mana temple pays 1 less (never below 1)."""
        cost = card.cost
        if cost > 1 and self.game.board.kinds[self.pos[seat]] == "temple":
            cost -= 1
        return cost

    def _targets(self, seat: int, source: str, target: str, rng: int, effects: tuple) -> list:
        src = self.pos_of(source)
        dist = self.game.board.distances(self.gates)[src]
        if target == "self":
            return [source]
        if target == "space":
            if any(e[0] == "break_trap" for e in effects):
                return sorted(sp for sp in self.traps if dist[sp] <= rng)
            spaces = {self.pos_of(p) for s in range(self.game.players) if s != seat for p in self.pieces_of(s)}
            return sorted(sp for sp in spaces if dist[sp] <= rng)
        out = []
        for s in range(self.game.players):
            if (s == seat) != (target == "ally"):
                continue
            out.extend(p for p in self.pieces_of(s) if dist[self.pos_of(p)] <= rng)
        return out

    def at_will_actions(self, seat: int) -> list[tuple]:
        acts: list[tuple] = []
        cards = self.game.cards
        silenced = self.has_status(f"P{seat}", "silenced")
        here = self.pos[seat]
        me = f"P{seat}"
        n_equipped = len(self.equip[seat]) + sum(len(m.equip) for m in self.summons.values() if m.owner == seat)
        mana = self.mana[seat]
        seen: set[str] = set()
        for cid in self.hands[seat]:
            if cid in seen:
                continue
            seen.add(cid)
            c = cards[cid]
            if c.type == "trap":
                acts.extend(("trap", cid, sp) for sp in range(self.game.board.size) if sp not in self.traps)
                continue
            cost = self.card_cost(seat, c)
            if cost > mana:
                continue
            if c.type == "summon":
                if len(self.pieces_at(here)) == 1:
                    acts.append(("summon", cid))
            elif c.type == "spell":
                if not silenced:
                    acts.extend(("cast", cid, t) for t in self._targets(seat, me, c.target, c.range, c.effects))
            elif c.type == "equip" and n_equipped < self.game.option_values["equip_max"]:
                acts.append(("equip", cid, me))
                acts.extend(("equip", cid, p) for p in self.pieces_of(seat)[1:] if self.distance(here, self.pos_of(p)) <= 1)
        if not self.used_equip:
            for p in self.pieces_of(seat):
                if self.has_status(p, "silenced"):
                    continue
                for cid in self.equipment_of(p):
                    ab = cards[cid].ability
                    if ab is not None and ab.cost <= mana:
                        acts.extend(("use", cid, t) for t in self._targets(seat, p, ab.target, ab.range, ab.effects))
        for u, m in self.summons.items():
            if m.owner != seat or u in self.used_abilities:
                continue
            ab = cards[m.card].ability
            if ab is None or ab.when != "action" or ab.cost > mana or m.status == "silenced":
                continue
            acts.extend(("ability", u, t) for t in self._targets(seat, f"S{u}", ab.target, ab.range, ab.effects))
        for p in self.pieces_of(seat):
            acts.extend(("unequip", cid) for cid in self.equipment_of(p))
        opts = self.game.option_values
        if opts["gate_opening"] == "at-will" and mana >= opts["gate_cost"]:
            acts.extend(("open", k) for k in range(4) if not self.gates >> k & 1)
        return acts

    def spend(self, seat: int, n: int) -> None:
        self.mana[seat] -= n
        self.used[seat] += n

    def holder_of(self, cid: str) -> str:
        for p in self.pieces_of(self.active):
            if cid in self.equipment_of(p):
                return p
        raise KeyError(cid)  # pragma: no cover - legal actions guarantee it

    def apply_at_will(self, action: tuple) -> None:
        seat = self.active
        kind, cid = action[0], action[1]
        cards = self.game.cards
        if kind == "open":
            self.spend(seat, self.game.option_values["gate_cost"])
            self.gates |= 1 << cid
            self.count("rule:gate_opened", seat)
            self.emit(f"Player {seat + 1} opens gate {cid + 1}.", {"seat": seat, "gate": cid})
            return
        if kind == "ability":
            m = self.summons[cid]
            card = cards[m.card]
            ab = card.ability
            self.spend(seat, ab.cost)
            self.used_abilities.append(cid)
            self.count(f"card:{card.id}", seat)
            self.emit(f"{card.name} uses {ab.name}.", {"seat": seat, "ability": card.id, "target": action[2]})
            self.apply_effects(ab.effects, seat, action[2], f"S{cid}", f"{card.name}'s {ab.name}")
            return
        c = cards[cid]
        if kind == "unequip":
            self.equipment_of(self.holder_of(cid)).remove(cid)
            self.deck.discard(cid)
            self.emit(f"Player {seat + 1} discards {c.name}.", {"seat": seat, "unequip": cid})
            return
        if kind == "use":
            holder = self.holder_of(cid)
            self.spend(seat, c.ability.cost)
            self.used_equip = True
            self.count(f"card:{cid}", seat)
            self.emit(f"Player {seat + 1} uses {c.name}: {c.ability.name}.", {"seat": seat, "use": cid, "target": action[2]})
            if c.lasting == "expended":
                self.equipment_of(holder).remove(cid)
                self.deck.discard(cid)
            self.apply_effects(c.ability.effects, seat, action[2], holder, f"{c.name}'s {c.ability.name}")
            return
        self.hands[seat].remove(cid)
        self.count(f"card:{cid}", seat)
        if kind == "trap":
            self.traps[action[2]] = [cid, seat]
            self.emit(f"Player {seat + 1} places a face-down trap on {self.game.board.names[action[2]]}.",
                      {"seat": seat, "trap": action[2]}, to=[seat],
                      private_text=f"You place {c.name} on {self.game.board.names[action[2]]}.",
                      private_data={"seat": seat, "trap": action[2], "card": cid})
            return
        self.spend(seat, self.card_cost(seat, c))
        if kind == "summon":
            uid = self.next_uid
            self.next_uid += 1
            here = self.pos[seat]
            self.summons[uid] = Summon(uid, cid, seat, here)
            # a summon placed in the halls or the chamber came in by its summoner's gate: eviction and
            # "one space outside" go by the gate the attacker entered from (seed 38.6, 38.7)
            board = self.game.board
            k = board.gate_of_space.get(here, self.entry.get(f"P{seat}") if here == board.chamber else None)
            if k is not None:
                self.entry[f"S{uid}"] = k
            self.emit(f"Player {seat + 1} summons {c.name}.", {"seat": seat, "summon": cid, "uid": uid})
        elif kind == "equip":
            self.equipment_of(action[2]).append(cid)
            self.emit(f"Player {seat + 1} equips {c.name} on {self.label(action[2])}.", {"seat": seat, "equip": cid, "on": action[2]})
        else:
            self.deck.discard(cid)
            self.emit(f"Player {seat + 1} casts {c.name}.", {"seat": seat, "cast": cid, "target": action[2]})
            self.apply_effects(c.effects, seat, action[2], f"P{seat}", f"Player {seat + 1}'s {c.name}")

    def label(self, pid: str) -> str:
        if pid[0] == "P":
            return f"Player {int(pid[1:]) + 1}"
        m = self.summons.get(int(pid[1:]))
        return f"{self.game.cards[m.card].name} (P{m.owner + 1})" if m else pid
