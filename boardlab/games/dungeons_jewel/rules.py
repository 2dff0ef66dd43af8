"""The Dungeon's Jewel: the rules, in the order of the seed's rulebook.

Setup -> Basic rules (move, draw and place a dungeon token, survive the
hazard, loot, health) -> the centre (dragon and jewel) -> Attacking ->
Special spaces (trap door, monster, wall).  Views, determinization and labels
live in :mod:`.view`, the evaluation features in :mod:`.features`; the full
state, :class:`~.game.DungeonState`, binds them to these rules.

State layout (flat lists so that :meth:`clone` is a handful of slices):

* ``pos``, ``health``, ``power`` (attack power), ``items``: one entry per seat;
* ``tokens[c]``: the dungeon token id on room ``c`` (``None`` = no token yet);
  ``known[c]``: bitmask of seats that have seen it, plus :data:`FACE_UP`;
* ``walls[c]``: bitmask of blocked sides of ``c`` (bit ``d`` for side ``d`` in
  N, E, S, W); ``facing``: room -> side of each placed wall token;
* ``pile`` (dungeon tokens, top = end) and ``deck`` (treasure cards), both hidden;
* ``jewel``: the seat carrying the jewel, ``None`` while the dragon guards it;
  ``exit``: the seat that has just beaten the dragon and may, on its next turn,
  step to any space surrounding the centre (``None`` once that turn is played,
  or under ``jewel_exit_turn=any`` once it leaves the centre; ``None`` as soon
  as the jewel leaves that seat);
* ``stats``: flat usage counters (``game.stat_keys`` x seats) for the lab.
"""

from __future__ import annotations

from boardlab.engine import Prompt, Results, State, win_results

from .board import OPPOSITE_SIDE, SIDE_NAMES, SIDES

#: ``known`` bit meaning "face up": every seat knows the token.
FACE_UP = 1 << 8

_NUMBER_WORDS = {4: "four", 6: "six", 8: "eight", 10: "ten", 12: "twelve", 20: "twenty"}


def die_name(sides: int, plural: bool = False) -> str:
    """``a six-sided die`` (``six-sided dice`` when ``plural``): no ``d6`` a reader might take for a room."""
    kind = f"{_NUMBER_WORDS.get(sides, str(sides))}-sided"
    return f"{kind} dice" if plural else f"a {kind} die"


PLACE_ACTIONS = (("place", "secret"), ("place", "reveal"))
ROLL = ("roll",)
DRAGON = ("dragon",)


class DungeonRules(State):
    """The rules of a position (the full state is :class:`~.game.DungeonState`)."""

    __slots__ = ("seat", "first", "pos", "health", "power", "items", "tokens", "known",
                 "walls", "facing", "pile", "deck", "jewel", "exit", "winner", "stats")

    # -- Setup -------------------------------------------------------------
    def _setup(self) -> None:
        g = self.game
        n = g.players
        self.pos = list(g.board.starts)
        self.health = [g.opt_start_health] * n
        self.power = [0] * n
        self.items = [[] for _ in range(n)]
        cells = g.board.cells
        self.tokens = [None] * cells
        self.known = [0] * cells
        self.walls = [0] * cells
        self.facing = {}
        self.pile = g.content.token_pile()
        self.rng.shuffle(self.pile)
        self.deck = g.content.treasure_deck()
        self.rng.shuffle(self.deck)
        self.jewel = None
        self.exit = None
        self.winner = None
        self.stats = [0] * (len(g.stat_keys) * n)
        # "If no one can decide, then there is a die roll.  The person who rolls
        # the highest has to shuffle and start first."  Ties roll again.
        contenders = list(range(n))
        while len(contenders) > 1:
            rolls = [self.rng.roll(g.opt_die) for _ in contenders]
            best = max(rolls)
            self.emit(
                "Rolls for the first player: " + ", ".join(f"{g.seat_name(s)} {r}" for s, r in zip(contenders, rolls)),
                {"rolls": [[s, r] for s, r in zip(contenders, rolls)]},
            )
            contenders = [s for s, r in zip(contenders, rolls) if r == best]
        self.first = self.seat = contenders[0]
        self.emit(f"{g.seat_name(self.seat)} shuffles and starts.", {"first": self.seat})
        self.begin_turn()

    # -- turn flow ---------------------------------------------------------
    def _current_seat(self) -> int:
        return self.seat

    def _is_over(self) -> bool:
        return self.winner is not None

    def _results(self) -> Results:
        return win_results(self.game.players, (self.winner,), "brought the jewel home")

    def _count(self, key: str, seat: int) -> None:
        g = self.game
        self.stats[g.stat_index[key] * g.players + seat] += 1

    def _legal_actions(self) -> list:
        g = self.game
        if self.stack:
            p = self.stack[-1]
            kind = p.kind
            if kind == "survive":
                cure = g.cure.get(self.tokens[p.data[0]])
                if cure is not None and cure in self.items[p.seat]:
                    return [g.use_actions[cure], ROLL]
                return [ROLL]
            if kind == "place":
                return list(PLACE_ACTIONS)
            if kind == "wall":
                return self._wall_choices(p.data)
            # "take": one item of the defeated player
            return [g.take_actions[i] for i in sorted(set(self.items[p.data]))]
        s = self.seat
        c = self.pos[s]
        b = g.board
        out = []
        w = 0 if g.wall_item in self.items[s] else self.walls[c]
        moves = g.move_actions
        for d, j in b.sides[c]:
            if not w >> d & 1:
                out.append(moves[j])
        centre = b.centre
        if c == centre:
            if self.jewel is None:
                out.append(DRAGON)
            elif self.jewel == s and self.exit == s and g.opt_exit_any:
                # rulebook: "on their next turn, moves to any space surrounding the center space":
                # that one turn only (ledger 32); concept: "then they can move to any space
                # surrounding the center space", on any turn until they leave it (ledger 34)
                for j in b.around:
                    if moves[j] not in out and j not in b.steps[c]:
                        out.append(moves[j])
        near = b.near[c]
        pos = self.pos
        attacks = g.attack_actions
        for t in range(g.players):
            if t != s and pos[t] in near:
                out.append(attacks[t])
        return out

    def _apply(self, action: tuple) -> None:
        kind = action[0]
        if self.stack:
            p = self.stack.pop()
            if kind == "roll":
                self._roll_hazard(p.data[0], p.data[1])
            elif kind == "use":
                self._use_item(p.data[0], p.data[1], action[1])
            elif kind == "place":
                self._place(p.data, action[1] == "reveal")
            elif kind == "wall":
                self._turn_wall(p.data, action[1])
            else:
                self._take(p.seat, p.data, action[1])
        else:
            if self.exit == self.seat and (kind == "move" or self.game.opt_exit_next_turn):
                self.exit = None  # the slayer's "next turn" is this one (ledger 32), or it leaves (ledger 34)
            if kind == "move":
                self._move(action[1])
            elif kind == "attack":
                self._attack(action[1])
            else:
                self._fight_dragon()
        if not self.stack and self.winner is None:
            self.seat = (self.seat + 1) % self.game.players
            self.begin_turn()

    # -- Basic rules: moving into a room -----------------------------------
    def _move(self, cell: int) -> None:
        """Announce the room, draw (or look at) its token, and move there."""
        g = self.game
        s = self.seat
        self.pos[s] = cell
        if g.record_events:
            self.emit(f"{g.seat_name(s)} moves to {g.board.labels[cell]}.", {"seat": s, "cell": cell})
        starts = g.board.starts
        if cell in starts:
            # start corners hold no dungeon token; reaching your own with the jewel wins
            if self.jewel == s and cell == starts[s]:
                self._win(s)
            return
        if cell == g.board.centre:
            if self.jewel is None:
                self._fight_dragon()
            return
        kind = self.tokens[cell]
        if kind is None:
            if not self.pile:
                if g.record_events:
                    self.emit("The dungeon token pile is empty: the room is empty.", {"cell": cell})
                return
            kind = self.pile.pop()
            self.tokens[cell] = kind
            self._count(g.token_stat[kind], s)
            if g.token_type[kind] == "wall":
                # "must leave it facing up to remind players which way the wall is facing"
                self.known[cell] = FACE_UP | 1 << s
                if g.record_events:
                    self.emit(f"{g.seat_name(s)} draws a wall token.", {"seat": s, "cell": cell, "token": kind})
                self.stack.append(Prompt(s, "wall", cell))
            else:
                self.known[cell] = 1 << s
                if g.record_events:
                    self.emit(
                        f"{g.seat_name(s)} draws a dungeon token for {g.board.labels[cell]}.",
                        {"seat": s, "cell": cell}, to=[s],
                        private_text=f"You draw {g.token_name[kind]} for {g.board.labels[cell]}.",
                        private_data={"seat": s, "cell": cell, "token": kind},
                    )
                self.stack.append(Prompt(s, "place", cell))
            return
        # "the player can look at the token ... instead of redrawing a new token"
        self.known[cell] |= 1 << s
        if g.token_type[kind] == "wall":
            return  # a wall room: no roll, no loot
        self._count(g.token_stat[kind], s)
        self.stack.append(Prompt(s, "survive", (cell, 0)))  # an old room: no loot

    def _place(self, cell: int, reveal: bool) -> None:
        """Place the drawn token face down (kept secret) or face up."""
        s = self.seat
        if reveal:
            self.known[cell] |= FACE_UP
        g = self.game
        if g.record_events:
            if reveal:
                kind = self.tokens[cell]
                self.emit(f"{g.seat_name(s)} places {g.token_name[kind]} face up on {g.board.labels[cell]}.",
                          {"seat": s, "cell": cell, "token": kind})
            else:
                self.emit(f"{g.seat_name(s)} places the token face down.", {"seat": s, "cell": cell})
        self.stack.append(Prompt(s, "survive", (cell, 1)))  # a new room: loot on survival

    # -- Basic rules: surviving the hazard ---------------------------------
    def _use_item(self, cell: int, loot: int, item: str) -> None:
        """"If the player has an item that helps ... they do not have to roll"."""
        s = self.seat
        g = self.game
        self._count("rule:item_used", s)
        if g.record_events:
            self.emit(f"{g.seat_name(s)} survives the room with an item.", {"seat": s, "cell": cell}, to=[s],
                      private_text=f"You survive {g.token_name[self.tokens[cell]]} with {g.item_name[item]}.",
                      private_data={"seat": s, "cell": cell, "token": self.tokens[cell], "item": item})
        if loot:
            self._loot(s)

    def _roll_hazard(self, cell: int, loot: int) -> None:
        g = self.game
        s = self.seat
        kind = self.tokens[cell]
        ttype = g.token_type[kind]
        r = self.rng.roll(g.opt_die)
        if ttype == "monster":
            # "The player must roll the die and then add it to their attack power.
            # The sum must be higher than 5."
            ok = r + self.power[s] >= g.opt_monster
        else:
            ok = r >= g.opt_hazard
        if g.record_events:
            die = die_name(g.opt_die)
            if ttype == "monster":
                need = g.opt_monster
                sum_text = f"{r} on {die} + {self.power[s]} attack power = {r + self.power[s]}, needed {need}"
            else:
                need = g.opt_hazard
                sum_text = f"{r} on {die}, needed {need}"
            verdict = "survives" if ok else "fails"
            if self.known[cell] & FACE_UP:
                public = (f"{g.seat_name(s)} rolls against {g.token_name[kind]}: {sum_text}: "
                          f"{verdict} the room.")
            else:  # the target would tell what the face-down token is
                public = f"{g.seat_name(s)} rolls {r} on {die} and {verdict} the room (its token is secret)."
            self.emit(public, {"seat": s, "cell": cell, "roll": r, "ok": ok},
                      to=[s], private_text=f"You roll against {g.token_name[kind]}: {sum_text}: "
                                           f"{'you survive' if ok else 'you fail'}.",
                      private_data={"seat": s, "cell": cell, "roll": r, "ok": ok, "token": kind})
        if ok:
            if loot:
                self._loot(s)
        elif ttype == "trapdoor":
            # "the player does not lose a health point, but does move back to their starting position"
            self._count("rule:trapdoor_home", s)
            self._send_home(s)
        else:
            self._damage(s)

    def _loot(self, s: int) -> None:
        """Pull a treasure card and reveal it."""
        g = self.game
        if not self.deck:
            self._count("rule:no_loot_left", s)
            if g.record_events:
                self.emit("The treasure pile is empty: no loot.", {"seat": s})
            return
        item = self.deck.pop()
        self.items[s].append(item)
        if item in g.attack_items:
            self.power[s] += 1
        self._count(g.item_stat[item], s)
        if g.record_events:
            self.emit(f"{g.seat_name(s)} loots {g.item_name[item]}.", {"seat": s, "item": item})

    # -- Basic rules: health and returning to the start -----------------------
    def _damage(self, s: int) -> None:
        self.health[s] -= 1
        g = self.game
        if self.health[s] <= 0:
            self._count("rule:respawn", s)
            self._send_home(s)
            self.health[s] = g.opt_respawn_health
            if g.record_events:
                self.emit(f"{g.seat_name(s)} is out of health and starts over.", {"seat": s})
        elif g.record_events:
            self.emit(f"{g.seat_name(s)} loses a health point.", {"seat": s, "health": self.health[s]})

    def _send_home(self, s: int) -> None:
        g = self.game
        if self.jewel == s:
            # sent home is not "making it" home: the dragon takes the jewel back
            self.jewel = None
            self.exit = None
            self._count("rule:jewel_dropped", s)
            if g.record_events:
                self.emit(f"{g.seat_name(s)} drops the jewel; it returns to the dragon.", {"seat": s})
        self.pos[s] = g.board.starts[s]

    # -- The centre: the dragon and the jewel -------------------------------
    def _fight_dragon(self) -> None:
        g = self.game
        s = self.seat
        r1 = self.rng.roll(g.opt_die)
        r2 = self.rng.roll(g.opt_die)
        total = r1 + r2 + self.power[s]
        ok = total >= g.opt_dragon
        self._count("dragon:fight", s)
        if g.record_events:
            self.emit(f"{g.seat_name(s)} fights the dragon: two {die_name(g.opt_die, True)} {r1}+{r2}, "
                      f"+{self.power[s]} attack power = {total}, needed {g.opt_dragon}: "
                      f"{'wins the jewel' if ok else 'fails'}.",
                      {"seat": s, "rolls": [r1, r2], "total": total, "ok": ok})
        if ok:
            self._count("dragon:won", s)
            self.jewel = s
            self.exit = s
        else:
            self._damage(s)

    def _win(self, s: int) -> None:
        self.winner = s
        g = self.game
        if g.record_events:
            self.emit(f"{g.seat_name(s)} brings the jewel home and wins!", {"winner": s})

    # -- Attacking ---------------------------------------------------------
    def _attack(self, t: int) -> None:
        """Both roll a die and add attack power; the lower sum takes damage, a tie nothing."""
        g = self.game
        s = self.seat
        a = self.rng.roll(g.opt_die) + self.power[s]
        d = self.rng.roll(g.opt_die) + self.power[t]
        if a > d:
            win, lose = s, t
            self._count("attack:won_as_attacker", s)
        elif d > a:
            win, lose = t, s
            self._count("attack:won_as_defender", t)
        else:
            self._count("attack:tie", s)
            if g.record_events:
                self.emit(f"{g.seat_name(s)} attacks {g.seat_name(t)}: {self._contest_text(t, a, d)}, a tie.",
                          {"seat": s, "target": t, "sums": [a, d]})
            return
        if g.record_events:
            self.emit(f"{g.seat_name(s)} attacks {g.seat_name(t)}: {self._contest_text(t, a, d)}, "
                      f"{g.seat_name(win)} wins.",
                      {"seat": s, "target": t, "sums": [a, d], "winner": win})
        if self.jewel == lose:
            # "If the player is attacked by another player and defeated, then that
            # player gains the jewel"
            self.jewel = win
            if self.exit == lose:
                self.exit = None  # the slayer's step off the centre goes with the jewel (ledger 32)
            self._count("rule:jewel_taken", win)
            if g.record_events:
                self.emit(f"{g.seat_name(win)} takes the jewel.", {"seat": win})
        self._damage(lose)
        if self.jewel == win and self.pos[win] == g.board.starts[win]:
            self._win(win)
            return
        if g.opt_steal and self.items[lose]:
            # revision log: "players can take one item from a player they defeat"
            self.stack.append(Prompt(win, "take", lose))

    def _contest_text(self, t: int, a: int, d: int) -> str:
        """``a`` and ``d`` are die + attack power of the attacker and of ``t``, in words."""
        s, g = self.seat, self.game
        die = die_name(g.opt_die)
        return (f"each rolls {die} and adds attack power: {a - self.power[s]} + {self.power[s]} = {a} "
                f"against {d - self.power[t]} + {self.power[t]} = {d}")

    def _take(self, win: int, lose: int, item: str) -> None:
        g = self.game
        self.items[lose].remove(item)
        self.items[win].append(item)
        if item in g.attack_items:
            self.power[lose] -= 1
            self.power[win] += 1
        self._count("rule:item_stolen", win)
        if g.record_events:
            self.emit(f"{g.seat_name(win)} takes {g.item_name[item]} from {g.seat_name(lose)}.",
                      {"seat": win, "from": lose, "item": item})

    # -- Special spaces: the wall --------------------------------------------
    def _wall_choices(self, cell: int) -> list:
        """Sides the drawer may turn the wall to: any side with a room beyond it,
        as long as every room stays reachable (``("wall", "none")`` if no side is)."""
        b = self.game.board
        walls = self.walls
        out = []
        for d, j in b.sides[cell]:
            if walls[cell] >> d & 1:
                continue  # already blocked: turning the wall there blocks nothing (ledger 33)
            walls[cell] |= 1 << d
            walls[j] |= 1 << OPPOSITE_SIDE[d]
            if b.connected(walls):
                out.append(("wall", SIDES[d]))
            walls[cell] &= ~(1 << d)
            walls[j] &= ~(1 << OPPOSITE_SIDE[d])
        return out or [("wall", "none")]

    def _turn_wall(self, cell: int, side: str) -> None:
        g = self.game
        s = self.seat
        if side != "none":
            d = SIDES.index(side)
            j = dict(g.board.sides[cell])[d]
            self.walls[cell] |= 1 << d
            self.walls[j] |= 1 << OPPOSITE_SIDE[d]
            self.facing[cell] = d
        if g.record_events:
            self.emit(f"{g.seat_name(s)} turns the wall to the {SIDE_NAMES[side]} side of {g.board.labels[cell]}." if side != "none"
                      else f"{g.seat_name(s)} sets the wall of {g.board.labels[cell]} on no side: every side would cut a room off.",
                      {"seat": s, "cell": cell, "side": side})

    # -- playtest hooks ------------------------------------------------------
    def metrics(self) -> dict[str, list[int]]:
        g = self.game
        n = g.players
        st = self.stats
        return {k: st[i * n:(i + 1) * n] for i, k in enumerate(g.stat_keys)}

    # -- copying -------------------------------------------------------------
    def _copy_fields(self, new: "DungeonRules") -> None:  # type: ignore[override]
        new.seat = self.seat
        new.first = self.first
        new.pos = self.pos[:]
        new.health = self.health[:]
        new.power = self.power[:]
        new.items = [i[:] for i in self.items]
        new.tokens = self.tokens[:]
        new.known = self.known[:]
        new.walls = self.walls[:]
        new.facing = self.facing.copy()
        new.pile = self.pile[:]
        new.deck = self.deck[:]
        new.jewel = self.jewel
        new.exit = self.exit
        new.winner = self.winner
        new.stats = self.stats[:]
