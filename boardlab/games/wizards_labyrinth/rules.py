"""Rules of The Wizard's Labyrinth: setup, the wizard turn, the hero turn, combat, loot, rage.

Seat 0 is the wizard; seats 1.. are the heroes.  Cells are ``y * size + x``.
Every decision is a :class:`Prompt` on the stack; between decisions the game
works through ``todo``, a queue of small tasks (``("fight", cell)``, ...),
so the turn reads in the seed's order: wizard turn (rage, draw, play cards),
then the heroes' movement (secret choices revealed together), combat and loot.
The wizard's turn is :mod:`.wizard`, the heroes' movement :mod:`.heroes` and combat
:mod:`.combat` (mixins of :class:`LabyrinthRules`); setup, loot and the turn's end stay here.

Tiles are ``"r<id>"`` (a room from the tile list), ``"k<n>"`` (key tile n),
``"tower"`` and ``"start"``.  Tokens are ``m1``..``m5`` (monsters), ``T``
(trap) and ``X`` (blank); the wizard knows every token (bit 0 of ``known_by``).
"""

from __future__ import annotations

from typing import Any

from boardlab.engine import Deck, Prompt, Results, State, record, win_results
from boardlab.engine.codec import copy_value
from boardlab.engine.components import DIRECTIONS

from .board import DIRECTION_NAMES, START, cell_name, centre_cell, centre_cells, entrance_cell, ring_cells
from .combat import CombatMixin
from .heroes import HeroMovementMixin
from .wizard import WizardTurnMixin

WIZARD = 0


@record(aliases=("boardlab.games.wizards_labyrinth.state.Hero",))  # it lived in state.py (saved games name it so)
class Hero:
    """One hero: position, hit points, keys, equipment in front, loot hand, per-turn flags."""

    __slots__ = ("seat", "pos", "prev", "hp", "keys", "equipment", "hand", "alive", "frozen", "stuck", "sprint", "moved", "fought")

    def __init__(self, seat: int, pos: int, hp: int) -> None:
        self.seat, self.pos, self.prev, self.hp, self.keys = seat, pos, None, hp, 0
        self.equipment: list[str] = []
        self.hand: list[str] = []
        self.alive, self.frozen, self.stuck, self.sprint, self.moved, self.fought = True, False, False, False, False, False

    def __repr__(self) -> str:
        return f"Hero(seat={self.seat}, pos={self.pos}, hp={self.hp}, keys={self.keys})"


class LabyrinthRules(WizardTurnMixin, HeroMovementMixin, CombatMixin, State):
    """The rules: state fields and transitions.  The full state is :class:`~.game.LabyrinthState`, which binds
    in the seat views (:mod:`.view`) and the evaluation features (:mod:`.features`)."""

    __slots__ = (
        "phase", "winner", "tower", "entrance", "start", "tiles", "flipped", "removed", "tile_pool",
        "tokens", "heroes", "wdeck", "whand", "mana", "mana_left", "ldeck", "dropped_keys",
        "dropped_cards", "keys_taken", "door_open", "cleared", "unclaimed", "todo", "pending",
        "boost", "stats",
    )

    # ------------------------------------------------------------------ setup
    def _setup(self) -> None:
        g, o = self.game, self.game.option_values
        n = g.size
        self.phase, self.winner = "setup", ""
        self.start = START  # ledger: the heroes' start tile is the top-left corner
        self.tower = centre_cell(n)
        self.entrance = ""
        rooms = [f"r{i}" for i in range(len(g.content.rooms))]
        self.rng.shuffle(rooms)
        special = {self.start: "start", self.tower: "tower"}
        self.tiles = [special[c] if c in special else rooms.pop() for c in range(n * n)]
        self.tile_pool = rooms
        self.flipped = [False] * (n * n)
        self.flipped[self.start] = self.flipped[self.tower] = True
        self.removed = [False] * (n * n)
        self.tokens = [[] for _ in range(n * n)]
        self.heroes = [Hero(s, self.start, o["hero_hp"]) for s in range(1, g.players)]
        self.wdeck = Deck(g.deck_cards)
        self.wdeck.shuffle(self.rng)
        self.ldeck = Deck(g.content.loot_deck)
        self.ldeck.shuffle(self.rng)
        self.whand, self.mana, self.mana_left = [], o["start_mana"], 0
        self.dropped_keys, self.dropped_cards = {}, {}
        self.keys_taken, self.door_open = 0, False
        self.cleared, self.unclaimed = set(), set()
        self.pending, self.boost, self.stats = {}, 0, {}
        self.todo = []
        if n % 2 == 0:
            self.todo.append(("ask", "tower"))
        if o["tower_entrance"]:
            self.todo.append(("ask", "entrance"))
        self.todo += [("ask", "key")] * 3 + [("opening",), ("wizard_turn", True)]
        self.begin_turn()
        self._run()

    # ------------------------------------------------------------------ copying
    def _copy_fields(self, new: "LabyrinthRules") -> None:  # type: ignore[override]
        """Fast clone (the generic field copy is several times slower; search clones constantly)."""
        new.phase, new.winner, new.tower, new.entrance, new.start = self.phase, self.winner, self.tower, self.entrance, self.start
        new.tiles = self.tiles[:]
        new.flipped = self.flipped[:]
        new.removed = self.removed[:]
        new.tile_pool = self.tile_pool[:]
        new.tokens = [[t.copy() for t in toks] if toks else [] for toks in self.tokens]
        heroes = []
        for h in self.heroes:
            c = Hero.__new__(Hero)
            c.seat, c.pos, c.prev, c.hp, c.keys = h.seat, h.pos, h.prev, h.hp, h.keys
            c.equipment, c.hand = h.equipment[:], h.hand[:]
            c.alive, c.frozen, c.stuck, c.sprint, c.moved, c.fought = h.alive, h.frozen, h.stuck, h.sprint, h.moved, h.fought
            heroes.append(c)
        new.heroes = heroes
        new.wdeck = self.wdeck.copy()
        new.whand = self.whand[:]
        new.mana, new.mana_left = self.mana, self.mana_left
        new.ldeck = self.ldeck.copy()
        new.dropped_keys = copy_value(self.dropped_keys) if self.dropped_keys else {}
        new.dropped_cards = copy_value(self.dropped_cards) if self.dropped_cards else {}
        new.keys_taken, new.door_open = self.keys_taken, self.door_open
        new.cleared = set(self.cleared)
        new.unclaimed = set(self.unclaimed)
        new.todo = copy_value(self.todo) if self.todo else []
        new.pending = copy_value(self.pending) if self.pending else {}
        new.boost = self.boost
        new.stats = {k: v[:] for k, v in self.stats.items()}

    def centre_cells(self) -> list[int]:
        return centre_cells(self.game.size)

    # ------------------------------------------------------------- task loop
    def _run(self) -> None:
        while not self.stack and not self.winner and self.todo:
            task = self.todo.pop(0)
            getattr(self, "_t_" + task[0])(*task[1:])

    def _t_ask(self, kind: str, *args: Any) -> None:
        seat = args[0] if kind == "move" else WIZARD
        self.stack.append(Prompt(seat, kind, {"seat": seat} if kind == "move" else None))

    def _t_opening(self) -> None:
        o = self.game.option_values
        self.stack.append(Prompt(WIZARD, "keep", {"cards": self.wdeck.draw_many(self.rng, o["opening_draw"]), "left": o["opening_keep"]}))

    def _current_seat(self) -> int:
        return self.stack[-1].seat if self.stack else WIZARD

    def _is_over(self) -> bool:
        return bool(self.winner)

    def _results(self) -> Results:
        if self.winner == "wizard":
            return win_results(self.game.players, [WIZARD], "the wizard killed every hero")
        return win_results(self.game.players, [h.seat for h in self.heroes], "the heroes defeated the tower")

    def roles(self) -> tuple[str, ...]:
        return ("wizard",) + ("hero",) * (self.game.players - 1)

    def metrics(self) -> dict[str, list[int]]:
        return {k: list(v) for k, v in sorted(self.stats.items())}

    # ---------------------------------------------------------------- helpers
    def hero(self, seat: int) -> Hero:
        return self.heroes[seat - 1]

    def living(self) -> list[Hero]:
        return [h for h in self.heroes if h.alive]

    def heroes_at(self, c: int) -> list[Hero]:
        return [h for h in self.heroes if h.alive and h.pos == c]

    def tower_open(self) -> bool:
        return self.keys_taken >= self.game.option_values["keys_needed"]

    def rage_active(self) -> bool:
        return self.game.option_values["rage"] and self.tower_open()

    def entrance_cell(self) -> int | None:
        return entrance_cell(self.game.size, self.tower, self.entrance)

    def ring(self) -> set[int]:
        return ring_cells(self.game.size, self.tower)

    def bonus(self, h: Hero, field: str) -> int:
        cards = self.game.content.loot_cards
        return sum(getattr(cards[e], field) for e in h.equipment)

    def count(self, key: str, seat: int, by: int = 1) -> None:
        row = self.stats.get(key)
        if row is None:
            row = self.stats[key] = [0] * self.game.players
        row[seat] += by

    def placeable(self, token: str) -> list[int]:
        """Tiles where ``token`` may go: no hero there, below the token limit, not removed; the tower
        only for monsters and blanks once the keys are taken."""
        limit, tokens, removed = self.game.token_limit, self.tokens, self.removed
        heroes = {h.pos for h in self.heroes if h.alive}
        tower_ok = token != "T" and self.tower_open()
        return [c for c in range(len(tokens)) if not removed[c] and len(tokens[c]) < limit and c not in heroes
                and (c != self.tower or tower_ok)]

    def rage_removable(self) -> list[int]:
        """Tiles the raging wizard may remove (a real connectivity search per candidate)."""
        ring = self.ring()
        occupied = {h.pos for h in self.living()}
        goal = self.entrance_cell()
        if goal is None:
            goal = min(ring)
        must_reach = occupied | {c for c, k in self.dropped_keys.items() if k and c != self.tower}
        out = []
        for c in range(len(self.tiles)):
            if self.removed[c] or c == self.tower or c in ring or c in must_reach:
                continue
            if self.reaches(goal, must_reach, blocked=c):
                out.append(c)
        return out

    def reaches(self, goal: int, cells: set[int], blocked: int | None = None) -> bool:
        """Can every cell in ``cells`` walk to ``goal`` over remaining tiles (not through the tower)?"""
        removed, tower = self.removed, self.tower
        dist = self.game.grid.distances(goal, passable=lambda j: not removed[j] and j != tower and j != blocked)
        return all(c in dist for c in cells)

    # ------------------------------------------------------------- legal acts
    def _legal_actions(self) -> list[tuple]:
        p = self.stack[-1]
        return getattr(self, "_l_" + p.kind)(p)

    def _apply(self, action: tuple) -> None:
        p = self.stack[-1]
        getattr(self, "_a_" + p.kind)(p, action)
        self._run()

    # setup ------------------------------------------------------------------
    def _l_tower(self, p: Prompt) -> list[tuple]:
        return [("tower", c) for c in self.centre_cells()]

    def _a_tower(self, p: Prompt, a: tuple) -> None:
        self.stack.pop()
        old, self.tower = self.tower, a[1]
        self.tiles[old], self.flipped[old] = self.tiles[a[1]], self.flipped[a[1]]
        self.tiles[a[1]], self.flipped[a[1]] = "tower", True
        self.emit(f"The wizard raises the tower at {cell_name(self.game, a[1])}", {"tower": a[1]})

    def _l_entrance(self, p: Prompt) -> list[tuple]:
        return [("entrance", d) for d in DIRECTIONS]

    def _a_entrance(self, p: Prompt, a: tuple) -> None:
        self.stack.pop()
        self.entrance = a[1]
        self.emit(f"The tower entrance faces {DIRECTION_NAMES[a[1]]}", {"entrance": a[1]})

    def _l_key(self, p: Prompt) -> list[tuple]:
        return [("key", c) for c, t in enumerate(self.tiles) if t[0] == "r"]

    def _a_key(self, p: Prompt, a: tuple) -> None:
        self.stack.pop()
        k = sum(1 for t in self.tiles if t[0] == "k")
        self.tile_pool.append(self.tiles[a[1]])
        self.tiles[a[1]] = f"k{k}"
        self.emit("The wizard hides a key tile", to=[WIZARD], private_text=f"You hide key {k + 1} at {cell_name(self.game, a[1])}")

    def _l_keep(self, p: Prompt) -> list[tuple]:
        return [("keep", c) for c in sorted(set(p.data["cards"]))]

    def _a_keep(self, p: Prompt, a: tuple) -> None:
        p.data["cards"].remove(a[1])
        self.whand.append(a[1])
        p.data["left"] -= 1
        self.emit("The wizard keeps a card", to=[WIZARD], private_text=f"You keep {a[1]}")
        if p.data["left"] == 0 or not p.data["cards"]:
            self.stack.pop()
            self.wdeck.draw_pile.extend(p.data["cards"])
            self.wdeck.shuffle(self.rng)
            self.emit("The wizard keeps his opening hand", to=[WIZARD], private_text=f"You keep {', '.join(self.whand)}")

    # loot --------------------------------------------------------------------
    def loot(self, c: int, draw: int, keep: int, seats: list[int]) -> None:
        cards = self.ldeck.draw_many(self.rng, draw)
        if not cards:
            return
        keep = min(keep, len(cards))
        if keep == len(cards) and len(seats) == 1:
            h = self.hero(seats[0])
            worn = len(h.equipment)
            for name in cards:
                self.receive(h, name)
                self.count("loot:drawn", h.seat)
            eq = h.equipment[worn:]  # equipped at once: the board shows them to everyone, so the log names them
            self.emit(f"Hero {h.seat} loots {len(cards)} card(s)" + (f", equipping {', '.join(eq)}" if eq else ""),
                      {"seat": h.seat, "equipped": eq} if eq else {"seat": h.seat}, to=self.hero_seats(),
                      private_text=f"Hero {h.seat} loots {', '.join(cards)}")
            return
        self.stack.append(Prompt(min(seats), "loot", {"cards": cards, "keep": keep, "to": sorted(seats)}))

    def _l_loot(self, p: Prompt) -> list[tuple]:
        return [("take", i, s) for i in range(len(p.data["cards"])) for s in p.data["to"]]

    def _a_loot(self, p: Prompt, a: tuple) -> None:
        name = p.data["cards"].pop(a[1])
        worn = len(self.hero(a[2]).equipment)
        self.receive(self.hero(a[2]), name)
        self.count("loot:drawn", a[2])
        if len(self.hero(a[2]).equipment) > worn:  # equipped at once: the board shows it, so the log names it
            self.emit(f"Hero {a[2]} takes {name} and equips it", {"seat": a[2], "card": name, "equipped": True})
        else:
            self.emit(f"Hero {a[2]} takes a loot card", {"seat": a[2]}, to=self.hero_seats(), private_text=f"Hero {a[2]} takes {name}")
        p.data["keep"] -= 1
        if p.data["keep"] == 0 or not p.data["cards"]:
            self.stack.pop()
            for rest in p.data["cards"]:
                self.ldeck.discard(rest)
            if p.data["cards"]:
                self.emit(f"Discarded loot: {', '.join(p.data['cards'])}", {"discarded": list(p.data["cards"])})

    def flip_tile(self, c: int) -> None:
        """Turn a tile face up: the wizard draws or discards, and the wheel turns, by its values."""
        o = self.game.option_values
        self.flipped[c] = True
        t = self.tiles[c]
        draw, mana = self.game.content.keys[int(t[1:])] if t[0] == "k" else self.game.content.rooms[int(t[1:])]
        self.emit(f"Room {cell_name(self.game, c)} is flipped: {'key, ' if t[0] == 'k' else ''}cards {draw:+d}, mana {mana:+d}",
                  {"cell": c, "tile": "key" if t[0] == "k" else "room", "draw": draw, "mana": mana})
        self.count("tile:flipped", WIZARD)
        self.mana = max(0, min(o["mana_max"], self.mana + mana))
        if draw > 0:
            got = self.wdeck.draw_many(self.rng, draw)
            self.whand += got
            self.emit(f"The wizard draws {len(got)} card(s)", to=[WIZARD], private_text=f"You draw {', '.join(got) or 'nothing'}")
        elif draw < 0 and self.whand:
            # Several rooms flipped in one loot phase share one discard prompt: what they
            # owe adds up, and owing at least the whole hand discards it at once.
            pending = next((q for q in self.stack if q.kind == "discard"), None)
            owed = -draw + (pending.data["left"] if pending is not None else 0)
            if owed >= len(self.whand):
                if pending is not None:
                    self.stack.remove(pending)
                self.wdeck.discard_pile.extend(self.whand)
                self.emit(f"The wizard discards {', '.join(self.whand)}", {"discarded": list(self.whand)})
                self.whand = []
            elif pending is not None:
                pending.data["left"] = owed
            else:
                self.stack.append(Prompt(WIZARD, "discard", {"left": owed}))

    def _l_discard(self, p: Prompt) -> list[tuple]:
        return [("discard", n) for n in sorted(set(self.whand))]

    def _a_discard(self, p: Prompt, a: tuple) -> None:
        self.whand.remove(a[1])
        self.wdeck.discard(a[1])
        self.emit(f"The wizard discards {a[1]}", {"discarded": [a[1]]})
        p.data["left"] -= 1
        if p.data["left"] == 0 or not self.whand:
            self.stack.pop()

    def award_key(self, c: int, h: Hero) -> None:
        self.unclaimed.discard(c)
        h.keys += 1
        self.keys_taken += 1
        self.count("key:found", h.seat)
        self.emit(f"Hero {h.seat} finds a key on {cell_name(self.game, c)}!", {"seat": h.seat, "cell": c, "keys_taken": self.keys_taken})

    def _t_loot_phase(self) -> None:
        """Flip the face-down tiles with heroes on them, apply their values, award keys and room loot.

        A tile that still holds tokens is not flipped: its tokens were not fought this turn (a hero the
        wizard sent there in retreat), and the monsters come before the tile ("first flip the monsters and
        when they are killed they heroes get to flip the tiles", ledger 46)."""
        self.phase = "loot"
        for c in sorted({h.pos for h in self.living() if not h.frozen}):
            if self.flipped[c] or self.tokens[c]:
                continue
            here = [h for h in self.heroes_at(c) if not h.frozen]
            self.flip_tile(c)
            if self.tiles[c][0] == "k":
                self.award_key(c, here[0])
            for h in here:
                if not h.fought:
                    self.loot(c, 1, 1, [h.seat])

    def _t_pickup(self) -> None:
        for c in sorted(set(self.dropped_keys) | set(self.dropped_cards)):
            here = self.heroes_at(c)
            if not here or self.monsters(c):
                continue
            h = here[0]
            k = self.dropped_keys.pop(c, 0)
            h.keys += k
            for name in self.dropped_cards.pop(c, []):
                self.receive(h, name)
            self.emit(f"Hero {h.seat} picks up what was dropped on {cell_name(self.game, c)}", {"seat": h.seat, "cell": c, "keys": k})

    def _t_end_hero_turn(self) -> None:
        for h in self.heroes:
            h.frozen = False
        self.todo.append(("wizard_turn",))
