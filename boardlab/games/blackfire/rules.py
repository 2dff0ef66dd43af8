"""Blackfire's rules: the state and its transitions (no I/O, no drawing).

Sides are ``0`` (green, Marius) and ``1`` (red, Soren); which *seat* plays
which side is rolled at setup (``side_of_seat``).  Units are numbered 0-5:
green sorcerer, archer, warrior, then red sorcerer, archer, warrior.

A player's turn is a sequence of decisions: optionally change the warrior's
stance (before anything moves), then move each unit at most once (``move``,
``take`` the Orb, or a sorcerer's ``revive``), answering any prompt a move
raises (an archer's choice of target, a token's effect), and ``end`` the turn.
The turn also ends by itself when nothing but ``end`` is left.

The rules follow the seed's sections: Set-up, Turn Mechanics, Mechanics
(pieces, the Orb, tokens).  Readings of open points are in
``docs/rules/blackfire.md`` ("Interpretation ledger").

:class:`BlackfireRules` is not used alone: ``game.py`` composes it with the
seat views (:mod:`.view`) and the evaluation features (:mod:`.features`) into
:class:`~boardlab.games.blackfire.game.BlackfireState`.
"""

from __future__ import annotations

from typing import Any

from boardlab.engine.state import Action, Prompt, Results, State, win_results

from .combat import CombatMixin
from .pieces import (
    ARCHER, DEFENSIVE, GREEN, OFFENSIVE, RED, SIDES, SORCERER, STAT_KEYS, UNIT_NAMES, WARRIOR, Unit, unit_id,
)
from .tokens import TokensMixin


class BlackfireRules(CombatMixin, TokensMixin, State):
    __slots__ = (
        "phase", "bag", "tokens", "placing", "side_of_seat", "red_start", "exit", "units",
        "orb_cell", "orb_holder", "side", "moved", "stance_done", "revive_from", "winner",
        "reason", "stats", "revealed",
    )

    # -- set-up ------------------------------------------------------------
    def _setup(self) -> None:
        game = self.game
        castle = game.castle
        self.bag = [k for k, n in game.token_counts.items() for _ in range(n)]
        self.rng.shuffle(self.bag)  # "Turn tokens upside down and shuffle."
        self.tokens = {}
        for cell in castle.treasure:  # "Place one in each of the seven treasure rooms"
            self.tokens[cell] = self.bag.pop()
        self.placing = [[], []]
        self.phase = "place"
        self.side_of_seat = None
        self.red_start = None
        self.exit = None
        self.units = []
        self.orb_cell = None
        self.orb_holder = None
        self.side = GREEN
        self.moved = []
        self.stance_done = False
        self.revive_from = None
        self.winner = None
        self.reason = ""
        self.stats = {k: [0, 0] for k in STAT_KEYS}
        self.revealed = {}
        self.emit("Fifteen tokens are shuffled face down; seven go to the treasure rooms.")
        if game.opt["tokens_per_player"] == 0:
            self._finish_setup()

    def _finish_setup(self) -> None:
        castle = self.game.castle
        opt = self.game.opt
        taken = set(self.tokens)
        for seat in (0, 1):  # the secret placements are revealed
            for cell in self.placing[seat]:
                if cell in taken:  # both players chose this square: the later token goes to the nearest free one
                    cell = next(c for c in self._nearest(cell) if c in castle.placeable_set and c not in taken)
                taken.add(cell)
                self.tokens[cell] = self.bag.pop()
        self.placing = [[], []]
        self.emit("The players' tokens are revealed face down.", {"tokens": sorted(self.tokens)})
        self.red_start = self.rng.roll(4) - 1
        r = self.red_start + 1
        self.emit(f"Rolled {r} on a four-sided die: red starts at start square R{r}"
                  f" ({castle.label(castle.red_starts[self.red_start])}).", {"roll": r})
        self.exit = self.rng.roll(4) - 1
        r = self.exit + 1
        self.emit(f"Rolled {r} on a four-sided die: exit E{r} ({castle.label(castle.exits[self.exit])}) is open;"
                  " the Orb leaves the castle there.", {"roll": r})
        fixed = opt["colours"]
        if fixed == "roll":
            r = self.rng.roll(6)
            green_seat = 0 if r % 2 == 0 else 1
            self.emit(f"Player 1 rolls a six-sided die: {r}, {'even' if r % 2 == 0 else 'odd'}, so Player {green_seat + 1}"
                      " plays green (even: Player 1 is green).", {"roll": r})
        else:
            green_seat = 0 if fixed == "seat1-green" else 1
        self.side_of_seat = [GREEN, RED] if green_seat == 0 else [RED, GREEN]
        starts = (castle.green_start, castle.red_starts[self.red_start])
        self.units = [Unit(side, kind, starts[side]) for side in (GREEN, RED) for kind in range(3)]
        self.orb_holder = unit_id(GREEN, SORCERER)  # green starts "with the orb"
        self.phase = "play"
        self.side = GREEN  # "Green always starts first."
        self._start_turn()

    # -- turn structure ------------------------------------------------------
    def seat_of(self, side: int) -> int:
        return self.side_of_seat.index(side)

    def _current_seat(self) -> int:
        if self.phase == "place":
            return 0 if len(self.placing[0]) < self.game.opt["tokens_per_player"] else 1
        return self.seat_of(self.side)

    def _start_turn(self) -> None:
        self.begin_turn()
        side = self.side
        self.moved = []
        self.stance_done = False
        self.revive_from = None
        for u in self.units:
            if u.inv_until is not None and u.inv_until <= self.turn:
                u.inv_until = None
            if u.slow_at is not None and u.slow_at < self.turn:
                u.slow_at = None
        sorc = self.units[unit_id(side, SORCERER)]
        if sorc.cell is None and sorc.respawn is not None:
            sorc.respawn -= 1
            if sorc.respawn <= 0:
                self._respawn(unit_id(side, SORCERER))

    def _end_turn(self) -> None:
        self.side = 1 - self.side
        self._start_turn()

    def allowance(self, u: int) -> int:
        """Spaces unit ``u`` may move this turn (natural movement, stance, Slow)."""
        unit = self.units[u]
        opt = self.game.opt
        if unit.kind == WARRIOR:
            base = 0 if unit.stance == DEFENSIVE else opt["warrior_move"]
        elif unit.kind == ARCHER:
            base = opt["archer_move"]
        else:
            base = opt["sorcerer_move"]
        if base and unit.slow_at == self.turn:
            base -= 1
        return base

    # -- legal actions -------------------------------------------------------
    def _legal_actions(self) -> list[Action]:
        if self.phase == "place":
            mine = self.placing[self._current_seat()]
            return [("place", c) for c in self.game.castle.placeable if c not in mine]
        if self.stack:
            return self._prompt_actions(self.stack[-1])
        return self._turn_actions()

    def _turn_actions(self) -> list[Action]:
        side = self.side
        out: list[Action] = []
        units = self.units
        base = side * 3
        war = units[base + WARRIOR]
        if not self.moved and not self.stance_done and war.cell is not None:
            out.append(("stance", base + WARRIOR))
        for u in range(base, base + 3):
            unit = units[u]
            if unit.cell is None or u in self.moved:
                continue
            a = self.allowance(u)
            if a:
                out.extend(("move", u, c) for c in self.reach(u, a))
            if unit.kind == SORCERER and self.orb_holder is None and self.orb_cell == unit.cell:
                out.append(("take", u))
        sorc = base + SORCERER
        if units[sorc].cell is not None and self.orb_holder != sorc and (sorc not in self.moved or self.revive_from == sorc):
            dead = [u for u in (base + ARCHER, base + WARRIOR) if units[u].cell is None]
            if dead:
                squares = self._revive_squares(self.game.castle.grid.neighbours(units[sorc].cell), side)
                out.extend(("revive", d, c) for d in dead for c in squares)
        out.append(("end",))
        return out

    def _prompt_actions(self, p: Prompt) -> list[Action]:
        d = p.data
        kind = p.kind
        if kind == "shoot":
            return [("shoot", t) for t in d["targets"]]
        if kind == "speed":
            return [*(("move", d["unit"], c) for c in self.reach(d["unit"], d["points"])), ("stop",)]
        if kind == "teleport":
            return [*(("jump", c) for c in self._free_within(self.units[d["unit"]].cell, self.game.opt["teleport_range"])), ("stay",)]
        if kind == "displace":
            side = self.units[d["unit"]].side
            out: list[Action] = []
            for e in range(3 * (1 - side), 3 * (1 - side) + 3):
                cell = self.units[e].cell
                if cell is not None:
                    out.extend(("displace", e, c) for c in self._free_within(cell, 2) if not self._hands_a_win(e, c))
            return out or [("pass",)]
        if kind == "revive-token":
            side = self.units[d["unit"]].side
            dead = [u for u in range(side * 3, side * 3 + 3) if self.units[u].cell is None]
            squares = self._revive_squares(self.game.castle.cells, side)
            return [("revive", u, c) for u in dead for c in squares] or [("pass",)]
        raise AssertionError(f"unknown prompt {kind}")  # pragma: no cover

    def reach(self, u: int, points: int) -> list[int]:
        """Squares unit ``u`` may end a move of up to ``points`` spaces on.

        Units pass over tokens, the Orb and any unit except an opposing
        defensive warrior; they may not stop on a friendly unit, and stop on
        an enemy only to attack it (a defensive warrior only by the Orb carrier).
        """
        units = self.units
        unit = units[u]
        side = unit.side
        nbrs = self.game.castle.grid._nbrs
        occ: dict[int, int] = {}
        blockers = set()
        for v in units:
            if v.cell is not None:
                occ[v.cell] = v.side
                if v.side != side and v.kind == WARRIOR and v.stance == DEFENSIVE:
                    blockers.add(v.cell)
        carrier = self.orb_holder == u
        seen = {unit.cell}
        frontier = [unit.cell]
        out = []
        for _ in range(points):
            nxt = []
            for c in frontier:
                for n in nbrs[c]:
                    if n in seen:
                        continue
                    seen.add(n)
                    if n in blockers:
                        if carrier:
                            out.append(n)
                        continue
                    nxt.append(n)
                    if occ.get(n, -1) != side:
                        out.append(n)
            frontier = nxt
        return out

    def _occupied(self) -> set[int]:
        return {v.cell for v in self.units if v.cell is not None}

    def _free_within(self, cell: int, r: int) -> list[int]:
        """Empty, token-free, accessible squares within ``r`` (Manhattan, through walls)."""
        occ = self._occupied()
        return [c for c in self.game.castle.within_manhattan(cell, r) if c not in occ and c not in self.tokens]

    def _revive_squares(self, cells: Any, side: int) -> list[int]:
        """Squares a dead unit of ``side`` may be revived onto: empty, or an enemy that can be attacked."""
        out = []
        occ: dict[int, list[Unit]] = {}
        for v in self.units:
            if v.cell is not None:
                occ.setdefault(v.cell, []).append(v)
        for c in cells:
            if c in self.tokens:
                continue
            # every unit on the square must be an attackable enemy (an invulnerable one sharing it holds)
            if all(v.side != side and not self._guarded(v) and v.inv_until is None for v in occ.get(c, ())):
                out.append(c)
        return out

    def _hands_a_win(self, u: int, cell: int) -> bool:
        """Whether putting unit ``u`` on ``cell`` by the enemy's magic would carry the Orb out: the winner
        must "take" the Orb to the exit, so Displace and the respawn push never put the carrier on the
        open exit (ledger 35)."""
        return u == self.orb_holder and self.exit is not None and cell == self.game.castle.exits[self.exit]

    def _guarded(self, v: Unit) -> bool:
        return v.kind == WARRIOR and v.stance == DEFENSIVE

    def _nearest(self, cell: int) -> list[int]:
        """Accessible squares by walking distance from ``cell`` (ties by index)."""
        row = self.game.castle.dist[cell]
        return sorted(self.game.castle.cells, key=lambda c: (row[c], c))

    def _nearest_free(self, cell: int, ignore: int | None = None) -> int:
        occ = {v.cell for i, v in enumerate(self.units) if v.cell is not None and i != ignore}
        return next(c for c in self._nearest(cell) if c not in occ and c not in self.tokens)

    # -- applying actions ----------------------------------------------------
    def _apply(self, action: Action) -> None:
        kind = action[0]
        if self.phase == "place":
            seat = self._current_seat()
            self.placing[seat].append(action[1])
            n = len(self.placing[seat])
            self.emit(f"Player {seat + 1} places a token ({n}/{self.game.opt['tokens_per_player']}).", {"seat": seat},
                      to=[seat], private_text=f"You place a face-down token on {self.game.castle.label(action[1])}.",
                      private_data={"seat": seat, "cell": action[1]})
            if len(self.placing[1]) == self.game.opt["tokens_per_player"]:
                self._finish_setup()
            return
        if self.stack:
            self._answer(self.stack[-1], action)
        elif kind == "end":
            self.emit(f"{SIDES[self.side].capitalize()} ends the turn.")
            self._end_turn()
            self._after_action(auto_end=False)
            return
        elif kind == "stance":
            u = action[1]
            unit = self.units[u]
            unit.stance = DEFENSIVE if unit.stance == OFFENSIVE else OFFENSIVE
            self.stance_done = True
            self._count("rule:stance", unit.side)
            self.emit(f"The {UNIT_NAMES[u]} takes the {unit.stance} stance.", {"unit": u, "stance": unit.stance})
        elif kind == "move":
            self.revive_from = None
            self.moved.append(action[1])
            self._move(action[1], action[2])
        elif kind == "take":
            self.revive_from = None
            u = action[1]
            self.moved.append(u)
            self._take_orb(u)
        elif kind == "revive":
            self.revive_from = None
            sorc = unit_id(self.side, SORCERER)
            if sorc not in self.moved:
                self.moved.append(sorc)
            self._revive(action[1], action[2], "the sorcerer")
        self._after_action()

    def _after_action(self, auto_end: bool = True) -> None:
        self._check_exit()
        if self.winner is not None:
            self.stack = []
            return
        if auto_end and not self.stack and self._turn_actions() == [("end",)]:
            self._end_turn()

    def _answer(self, p: Prompt, action: Action) -> None:
        self.stack.pop()
        kind = action[0]
        d = p.data
        if kind == "shoot":
            self._attack(action[1], d["unit"], "attack:archer")
            self._after_fire(d["unit"])
        elif kind == "move":
            self._move(action[1], action[2])
        elif kind == "jump":
            u = d["unit"]
            self.units[u].cell = action[1]
            self.emit(f"The {UNIT_NAMES[u]} teleports to {self.game.castle.label(action[1])}.", {"unit": u, "cell": action[1]})
            self._stop(u, own=True)
        elif kind == "displace":
            e, cell = action[1], action[2]
            self.units[e].cell = cell
            self.emit(f"The {UNIT_NAMES[e]} is displaced to {self.game.castle.label(cell)}.", {"unit": e, "cell": cell})
            self._stop(e, own=False)
        elif kind == "revive":
            self._revive(action[1], action[2], "a Revive token")
        # "stop", "stay", "pass": nothing more happens

    # -- winning, the Orb, revival and respawn ------------------------------
    def _win(self, side: int, reason: str) -> None:
        if self.winner is None:
            self.winner = side
            self.reason = reason
            self.stack = []
            self.emit(f"{SIDES[side].capitalize()} wins: {reason}.", {"winner": side})

    def _check_exit(self) -> None:
        h = self.orb_holder
        if h is not None and self.exit is not None and self.units[h].cell == self.game.castle.exits[self.exit]:
            self._win(self.units[h].side, f"the {SIDES[self.units[h].side]} sorcerer carried the Orb out of exit #{self.exit + 1}")

    def _take_orb(self, u: int) -> None:
        self.orb_holder = u
        self.orb_cell = None
        self._count("rule:orb-pickup", self.units[u].side)
        self.emit(f"The {UNIT_NAMES[u]} takes the Orb of Blackfire.", {"unit": u})

    def _revive(self, u: int, cell: int, how: str) -> None:
        side = self.units[u].side
        self._count("rule:revive", side)
        for e, v in enumerate(self.units):
            if v.cell == cell and v.side != side:  # "that unit is automatically killed"
                self.emit(f"The revived {UNIT_NAMES[u]} appears on the {UNIT_NAMES[e]}.", {"unit": e})
                self._count("attack:revive", side)
                self._kill(e)
        unit = self.units[u]
        unit.cell = cell
        unit.respawn = None
        self.emit(f"{how.capitalize()} revives the {UNIT_NAMES[u]} on {self.game.castle.label(cell)}.", {"unit": u, "cell": cell})
        self._placed([u], side)

    def _respawn(self, u: int) -> None:
        unit = self.units[u]
        unit.respawn = None
        side = unit.side
        if all(v.cell is None for v in self.units[side * 3: side * 3 + 3]):
            return  # "as long as friendly piece is still alive" (the game is over by then anyway)
        castle = self.game.castle
        start = castle.green_start if side == GREEN else castle.red_starts[self.red_start]
        radius = self.game.opt["push_radius"]
        # where it respawns: the start square, or the nearest square without a friend or a token when a
        # friend stands there (enemies on it are pushed off); the push counts "four spaces from the
        # Sorcerer" from that square (issue 42)
        friends = {v.cell for v in self.units[side * 3: side * 3 + 3] if v.cell is not None}
        here = (next(c for c in self._nearest(start) if c not in friends and c not in self.tokens) if radius
                else self._nearest_free(start, ignore=u))
        row = castle.dist[here]
        pushed = []
        for e in range((1 - side) * 3, (1 - side) * 3 + 3):
            v = self.units[e]
            if v.cell is not None and radius and row[v.cell] <= radius:
                v.cell = self._push_square(here, v.cell, radius + 1, e)
                pushed.append(e)
                self._count("rule:push", side)
                self.emit(f"The {UNIT_NAMES[e]} is pushed back to {castle.label(v.cell)}.", {"unit": e, "cell": v.cell})
        unit.cell = here
        self._count("rule:respawn", side)
        self.emit(f"The {UNIT_NAMES[u]} respawns on {castle.label(unit.cell)}.", {"unit": u, "cell": unit.cell})
        self._placed(pushed, side)

    def _push_square(self, centre: int, frm: int, d: int, ignore: int) -> int:
        """The free square at walking distance ``d`` (or more) from ``centre`` nearest to ``frm``."""
        castle = self.game.castle
        row, here = castle.dist[centre], castle.dist[frm]
        occ = {v.cell for i, v in enumerate(self.units) if v.cell is not None and i != ignore}
        options = [c for c in castle.cells if d <= row[c] < castle.FAR and c not in occ and c not in self.tokens
                   and not self._hands_a_win(ignore, c)]
        return min(options, key=lambda c: (row[c], here[c], castle.manhattan(frm, c), c))

    def _count(self, key: str, side: int) -> None:
        if self.side_of_seat is None:
            return
        counts = self.stats.get(key)
        if counts is None:
            counts = self.stats[key] = [0, 0]
        counts[self.seat_of(side)] += 1

    # -- end of game -----------------------------------------------------------
    def _is_over(self) -> bool:
        return self.winner is not None

    def _results(self) -> Results:
        return win_results(2, [self.seat_of(self.winner)], self.reason)

    def roles(self) -> tuple[str, ...]:
        if self.side_of_seat is None:
            return ("undecided", "undecided")
        return tuple(SIDES[s] for s in self.side_of_seat)

    def metrics(self) -> dict[str, list[int]]:
        return {k: list(v) for k, v in self.stats.items()}

    def _copy_fields(self, new: "BlackfireRules") -> None:
        new.phase = self.phase
        new.bag = list(self.bag)
        new.tokens = dict(self.tokens)
        new.placing = [list(self.placing[0]), list(self.placing[1])]
        new.side_of_seat = list(self.side_of_seat) if self.side_of_seat is not None else None
        new.red_start = self.red_start
        new.exit = self.exit
        units = []
        for v in self.units:
            w = Unit.__new__(Unit)
            w.side, w.kind, w.cell, w.stance = v.side, v.kind, v.cell, v.stance
            w.slow_at, w.inv_until, w.respawn = v.slow_at, v.inv_until, v.respawn
            units.append(w)
        new.units = units
        new.orb_cell = self.orb_cell
        new.orb_holder = self.orb_holder
        new.side = self.side
        new.moved = list(self.moved)
        new.stance_done = self.stance_done
        new.revive_from = self.revive_from
        new.winner = self.winner
        new.reason = self.reason
        new.stats = {k: list(v) for k, v in self.stats.items()}
        new.revealed = dict(self.revealed)
