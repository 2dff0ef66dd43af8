"""A heuristic agent that plays either side of The Wizard's Labyrinth from its view alone.

Heroes move as a pack: every hero computes the same team goal from public
information (the nearest face-down room or guarded key tile, dropped keys, or
the tower entrance once enough keys are held) and steps along the cheapest road
to it, a cell's monsters adding to its cost (so a hero never circles a guarded
room he is after), and the heroes meet and fight together.  The wizard puts
monsters in the heroes' way (most of all on his hidden key tiles and, once
the keys are out, in the tower), freezes or scatters groups, and rages away
the tiles that lengthen the heroes' road to the tower the most.
"""

from __future__ import annotations

import heapq
from typing import Any

from boardlab.engine.agent import BaseAgent, Decision

from .board import neighbour_table
from .features import fight_chance

LOOT_VALUE = {"Long Sword": 6, "Short Sword": 5, "Boots of Haste": 4, "Battle Elixir": 4, "Shield": 3,
              "Health Potion": 3, "Leather Boots": 2, "Sprint": 1}
CARD_VALUE = {"Goblin": 3, "Rat Swarm": 3, "Kobold Scout": 3, "Skeleton": 4, "Orc": 4, "Troll": 5, "Dragon": 5,
              "Spike Trap": 2, "Pit Field": 2, "Frost Bolt": 3, "Fireball": 4, "Shifting Gate": 1,
              "Switcheroo": 2, "Whirlwind": 4}


def win_chance(k: int, bonus: int, levels: int, combine: bool = False) -> float:
    """Exact chance that ``k`` heroes (highest d20, or the sum) + ``bonus`` reach the wizard's d20 + ``levels``."""
    return fight_chance(k, levels - bonus, combine)


class Board:
    """Geometry helpers over a view."""

    def __init__(self, st: dict[str, Any], grid: Any) -> None:
        self.st = st
        self.grid = grid
        self.n = st["size"]
        self.tiles = st["tiles"]
        self.tower = st["tower"]

    def nbrs(self, c: int) -> tuple[int, ...]:
        return self.grid.neighbours(c)

    def open(self, c: int) -> bool:
        return self.tiles[c]["state"] != "removed" and c != self.tower

    def dist(self, start: int, avoid: set[int] = frozenset()) -> dict[int, int]:
        d = {start: 0}
        front = [start]
        nb = self.grid.neighbours
        tiles, tower = self.tiles, self.tower
        while front:
            nxt = []
            for c in front:
                for j in nb(c):
                    if j not in d and j != tower and j not in avoid and tiles[j]["state"] != "removed":
                        d[j] = d[c] + 1
                        nxt.append(j)
            front = nxt
        return d

    def wdist(self, start: int, cost: list[float]) -> dict[int, float]:
        """The cheapest roads out of ``start``: a step out of cell ``c`` costs ``1 + cost[c]``.

        Taken from a goal, ``wdist(goal)[c]`` is the cost of walking from ``c`` to the goal when entering
        a cell costs 1 plus its risk: every cell entered, the goal included (see :meth:`HeuristicAgent._move`).
        Taken from a hero's cell, ``wdist(pos)[c] + cost[c]`` is that of walking from the hero to ``c``
        (less ``cost[pos]``, the same for every ``c``)."""
        nb = neighbour_table(self.grid)
        tiles, tower = self.tiles, self.tower
        blocked = [t["state"] == "removed" for t in tiles]
        blocked[tower] = True
        inf = 1e9
        d = [inf] * len(tiles)
        d[start] = 0.0
        heap = [(0.0, start)]
        pop, push = heapq.heappop, heapq.heappush
        while heap:
            dc, c = pop(heap)
            if dc > d[c]:
                continue
            nd = dc + 1.0 + cost[c]
            for j in nb[c]:
                if nd < d[j] and not blocked[j]:
                    d[j] = nd
                    push(heap, (nd, j))
        return {c: v for c, v in enumerate(d) if v < inf}


class HeuristicAgent(BaseAgent):
    """Plays the wizard in seat 0 and a hero elsewhere, from ``decision.view`` and ``decision.legal``."""

    #: ``group=1``: the heroes keep together (every hero follows the first living hero's goal), the
    #: play the designers saw ("the heroes were too powerful when they stuck together"); the default
    #: heroes spread out to explore (in pairs at four).
    defaults = {"noise": 0.3, "group": 0}

    def act(self, decision: Decision) -> tuple:
        legal = decision.legal
        if len(legal) == 1:
            return legal[0]
        self._costs_memo: dict[tuple[int, int], list[float]] = {}  # (see cell_costs)
        st = decision.view["state"]
        kind = (st["prompt"] or {}).get("kind", "")
        fn = getattr(self, "_" + kind, None)
        action = fn(st, legal, decision.game) if fn else None
        return action if action in legal else legal[0]

    def best(self, legal: list, score) -> tuple:
        noise = self.params["noise"]
        return max(legal, key=lambda a: score(a) + noise * self.rng.random())

    # ------------------------------------------------------------ wizard
    def _tower(self, st, legal, game):
        return max(legal, key=lambda a: (a[1] % st["size"]) + (a[1] // st["size"]))

    def _entrance(self, st, legal, game):
        b = Board(st, game.grid)
        d = b.dist(st["start"])
        n = st["size"]
        step = {"N": -n, "S": n, "E": 1, "W": -1}
        return max(legal, key=lambda a: d.get(st["tower"] + step[a[1]], 0))

    def _key(self, st, legal, game):
        b = Board(st, game.grid)
        d = b.dist(st["start"])
        placed = [c for c, t in enumerate(st["tiles"]) if t.get("kind") == "key"]
        def score(a):
            c = a[1]
            spread = min((abs(c % b.n - k % b.n) + abs(c // b.n - k // b.n) for k in placed), default=4)
            return d.get(c, 0) + 0.7 * min(spread, 4)
        return self.best(legal, score)

    def _keep(self, st, legal, game):
        return max(legal, key=lambda a: CARD_VALUE.get(a[1], 2) - 0.3 * game.content.wizard_cards[a[1]].cost)

    def _discard(self, st, legal, game):
        return min(legal, key=lambda a: CARD_VALUE.get(a[1], 2))

    def _rage(self, st, legal, game):
        b = Board(st, game.grid)
        goal = st["entrance_cell"] if st["entrance_cell"] is not None else b.nbrs(st["tower"])[0]
        heroes = [h["pos"] for h in st["heroes"] if h["alive"]]
        def score(a):
            d = b.dist(goal, avoid={a[1]})
            return sum(d.get(h, 0) for h in heroes) - 0.01 * min(abs(a[1] - h) for h in heroes)
        return max(legal, key=score)

    def _main(self, st, legal, game):
        cards = game.content.wizard_cards
        heroes = [h for h in st["heroes"] if h["alive"]]
        b = Board(st, game.grid)
        tower_room = st["tower_open"] and len(st["tokens"][st["tower"]]) < game.token_limit
        goal = st["entrance_cell"]
        def score(a):
            if a[0] == "end":
                return 0.5
            c = cards[a[1]]
            if c.type == "monster":
                base = 2 + c.level * c.count + (4 if tower_room else 0)
            elif c.type == "trap":
                base = 1.5 + c.traps
            elif c.effect == "frost_bolt":
                near = goal is not None and st["tower_open"] and any(h["pos"] == goal for h in heroes)
                base = 6 if near else 1.5 * max(sum(1 for h in heroes if h["pos"] == p) for p in {h["pos"] for h in heroes})
            elif c.effect == "fireball":
                base = 2 * max(sum(1 for h in heroes if h["pos"] == p) for p in {h["pos"] for h in heroes}) + (3 if min(h["hp"] for h in heroes) <= 2 else 0)
            elif c.effect == "whirlwind":
                base = 3 * max(sum(1 for h in heroes if h["pos"] == p) for p in {h["pos"] for h in heroes})
            elif c.effect == "switcheroo":
                # Switcheroo moves a hero for free: played carelessly it carries a hero deeper into the
                # labyrinth (toward rooms to explore, keys and the tower), a gift to the heroes. It is worth
                # most when it can split a group (the designers' reason for the card), which the rules allow
                # only with the option switcheroo_onto_heroes (ledger 44); otherwise it scores 0.3 + 0.6 for
                # its cost, just above ending the turn (0.5), and sends a lone hero far from the tower.
                grouped = game.option_values["switcheroo_onto_heroes"] and any(
                    sum(1 for h in heroes if h["pos"] == q) > 1 for q in {h["pos"] for h in heroes})
                base = 3.5 if grouped else 0.3
            else:
                base = 3 if goal is not None and st["tower_open"] else 0.2
            return base + c.cost * 0.3
        return self.best(legal, score)

    def _place(self, st, legal, game):
        """Plan where every token still to place goes, then place one of them chosen uniformly at random.

        The heroes watch the order of the face-down placements, so the order must not depend on what the
        tokens are (issue 30 item 14: placing the scored-highest pair first put the card's monster first
        about 65% of the time, against 1 in 3 by chance). Each placement is a uniformly random token of the
        plan, so the next token placed is any remaining token with equal chance; where they go still
        follows the scores (monsters on key tiles, in the tower ...)."""
        b = Board(st, game.grid)
        heroes = [h["pos"] for h in st["heroes"] if h["alive"]]
        dists = [b.dist(h) for h in heroes]
        goal = st["entrance_cell"]
        noise = self.params["noise"]
        extra: dict[int, int] = {}
        def score(c, k):
            if c == st["tower"]:
                return 20 if k[0] == "m" else 3
            dh = min((d.get(c, 99) for d in dists), default=9)
            tile = st["tiles"][c]
            s = -abs(dh - 1.2) * 1.5
            if tile["state"] == "down":
                s += 1.0 + (3.0 if tile.get("kind") == "key" and k != "X" else 0)
            if goal is not None and st["tower_open"] and c == goal:
                s += 4
            s -= 0.8 * (len(st["tokens"][c]) + extra.get(c, 0))
            return s
        cells: dict[str, list[int]] = {}
        for a in legal:
            cells.setdefault(a[2], []).append(a[1])
        left = (st.get("prompt") or {}).get("tokens") or sorted(cells)
        limit = game.token_limit
        plan: list[tuple] = []
        # monsters first, then traps, then blanks: the most valuable token takes the best tile
        for k in sorted(left, key=lambda k: (k[0] != "m", k[0] != "T", k)):
            free = [c for c in cells.get(k, ()) if len(st["tokens"][c]) + extra.get(c, 0) < limit]
            if not free:
                continue
            c = max(free, key=lambda c: score(c, k) + noise * self.rng.random())
            extra[c] = extra.get(c, 0) + 1
            plan.append(("place", c, k))
        if not plan:
            return self.best(legal, lambda a: score(a[1], a[2]))
        return plan[self.rng.below(len(plan))]

    def _spell_target(self, st, legal, game):
        heroes = [h for h in st["heroes"] if h["alive"]]
        goal = st["entrance_cell"]
        def score(a):
            here = [h for h in heroes if h["pos"] == a[1]]
            return len(here) * 3 + sum(h["keys"] for h in here) * 2 + (4 if a[1] == goal else 0) - min(h["hp"] for h in here) * 0.1
        return max(legal, key=score)

    _whirl_target = _spell_target

    def _gate(self, st, legal, game):
        b = Board(st, game.grid)
        heroes = [h["pos"] for h in st["heroes"] if h["alive"]]
        n = st["size"]
        step = {"N": -n, "S": n, "E": 1, "W": -1}
        def score(a):
            d = b.dist(st["tower"] + step[a[1]])
            return sum(d.get(h, 0) for h in heroes)
        return max(legal, key=score)

    def _switch_hero(self, st, legal, game):
        """A hero who is with others (splitting the group; only with the option switcheroo_onto_heroes, ledger 44),
        the key holder first among them, then the healthiest."""
        hs = {h["seat"]: h for h in st["heroes"]}
        living = [h for h in st["heroes"] if h["alive"]]
        def company(seat):
            return sum(1 for h in living if h["pos"] == hs[seat]["pos"] and h["seat"] != seat)
        return max(legal, key=lambda a: (company(a[1]) > 0, hs[a[1]]["keys"], hs[a[1]]["hp"]))

    def _switch_token(self, st, legal, game):
        """Send the hero where he helps his side least: far from the tower and from the other heroes, onto
        monsters he must fight alone, and not onto a face-down room (that would explore it for him)."""
        b = Board(st, game.grid)
        seat = (st.get("prompt") or {}).get("hero")
        living = [h for h in st["heroes"] if h["alive"]]
        others = [h["pos"] for h in living if h["seat"] != seat]
        tower = b.nbrs(st["tower"])
        goal = st["entrance_cell"] if st["entrance_cell"] is not None else None
        to_goal = b.dist(goal) if goal is not None else None
        from_ring = [b.dist(c) for c in tower if b.open(c)]
        from_others = [b.dist(c) for c in others]
        def score(a):
            c = a[1]
            far = to_goal.get(c, 12) if to_goal is not None else min((d.get(c, 12) for d in from_ring), default=0)
            alone = min((d.get(c, 12) for d in from_others), default=0)
            monsters = sum(int(t[1:]) for t in st["tokens"][c] if t and t[0] == "m")
            down = 50 if st["tiles"][c]["state"] == "down" else 0
            return 1.0 * far + 0.6 * min(alone, 6) + 0.5 * monsters - down
        return max(legal, key=score)

    def _whirl_push(self, st, legal, game):
        b = Board(st, game.grid)
        goal = st["entrance_cell"] if st["entrance_cell"] is not None else st["start"]
        d = b.dist(goal)
        return max(legal, key=lambda a: d.get(a[1], 0) + 2 * len(st["tokens"][a[1]]))

    def _retreat(self, st, legal, game):
        if st["prompt"]["seat"] == 0:
            b = Board(st, game.grid)
            goal = st["entrance_cell"] if st["entrance_cell"] is not None else st["start"]
            d = b.dist(goal)
            return max(legal, key=lambda a: 3 * len(st["tokens"][a[1]]) + d.get(a[1], 0))
        return min(legal, key=lambda a: (len(st["tokens"][a[1]]), a[1]))

    # ------------------------------------------------------------- heroes
    def team_goal(self, st, game) -> int | None:
        """The goal of this hero: every hero computes all goals the same way from public information.

        Keys held (or an open door): the tower entrance.  Dropped keys: go and get them.  Otherwise the
        heroes spread out, each taking the nearest face-down room or guarded key tile no lower seat has
        claimed, "nearest" by the cost of the road there (:meth:`cell_costs`); four heroes explore in
        pairs (the second of each pair follows the first).
        """
        b = Board(st, game.grid)
        living = [h for h in st["heroes"] if h["alive"]]
        keys = sum(h["keys"] for h in living)
        if st["door_open"] or keys >= st["keys_needed"]:
            return st["entrance_cell"] if st["entrance_cell"] is not None else self.nearest_ring(b, living[0]["pos"])
        dropped = [c for c, k, _cards in st["dropped"] if k]
        claimed: set[int] = set()
        goal = None
        pairs = len(living) >= 4
        for i, h in enumerate(living):
            if (self.params["group"] and i > 0) or (pairs and i % 2 == 1):
                pass  # follow the partner's (or, grouping, the first hero's) goal
            else:
                # the road's cost counts the monsters on the way (see _move), so the goal is one the hero
                # walks to: a room behind monsters he would not face is not his nearest
                cost = self.cell_costs(st, game, h, living)
                d = b.wdist(h["pos"], cost)
                if dropped:
                    goal = min(dropped, key=lambda c: (d.get(c, 99) + cost[c], c))
                else:
                    # rooms to explore, and key tiles whose key is still guarded (a lost fight leaves the
                    # key there under its monsters: with no room left face down, the heroes once waited at
                    # the tower for ever, beta 3 players seed 2215748035547023972)
                    todo = [c for c, t in enumerate(st["tiles"]) if c in d and (t["state"] == "down" or t.get("unclaimed"))]
                    down = [c for c in todo if c not in claimed] or todo
                    if not down:
                        return st["entrance_cell"]
                    goal = min(down, key=lambda c: d[c] + cost[c] + 0.6 * len(st["tokens"][c]) + 0.02 * c)
                    claimed.add(goal)
            if h["seat"] == self.seat:
                return goal
        return goal

    def nearest_ring(self, b: Board, pos: int) -> int:
        d = b.dist(pos)
        ring = [j for j in b.nbrs(b.tower) if j in d]
        return min(ring, key=lambda j: (d[j], j)) if ring else pos

    def _move(self, st, legal, game):
        me = next(h for h in st["heroes"] if h["seat"] == self.seat)
        cards = game.content.loot_cards
        living = [h for h in st["heroes"] if h["alive"]]
        # 1. heal when hurt
        for a in legal:
            if a[0] == "use" and cards[a[1]].effect == "heal" and me["hp"] <= 5:
                return a
        # 2. hand spare equipment to a teammate with a free slot
        for a in legal:
            if a[0] == "give":
                card = cards[a[2]]
                mate = next(h for h in living if h["seat"] == a[1])
                if card.type == "equipment" and self.free_slot(mate, card.slot, cards):
                    return a
        goal = self.team_goal(st, game)
        b = Board(st, game.grid)
        # 3. the tower: enter when the pack is gathered at the entrance
        tower_moves = [a for a in legal if a[0] == "move" and a[1] == st["tower"]]
        if tower_moves:
            here = [h for h in living if h["pos"] == me["pos"]]
            if len(here) >= min(len(living), 2) or st["door_open"]:
                return tower_moves[0]
            return ("stay",)
        if goal is None or goal == me["pos"]:
            return ("stay",) if ("stay",) in legal else legal[-1]
        d = b.dist(goal)
        # 4. sprint when far away
        if d.get(me["pos"], 0) >= 4:
            for a in legal:
                if a[0] == "use" and cards[a[1]].effect == "sprint":
                    return a
        # The road to the goal: entering a cell costs 1 plus its risk, and a move is scored by what
        # entering its cell and then walking on costs.  Scoring the plain distance and the risk of the
        # next cell alone let a hero avoid a risky cell on his road by stepping to a safe cell as far
        # from the goal, and two heroes so swapped tiles for ever (final, 3 players, seed
        # 2215748035547023972: the second key lay in a room behind monsters).  Along the cheapest road
        # the cost falls every step, so a hero with a fixed goal gets there.
        cost = self.cell_costs(st, game, me, living)
        wd = b.wdist(goal, cost)
        def score(a):
            if a[0] == "stay":  # standing still only gives the wizard time
                return -wd.get(me["pos"], 50) - 8
            if a[0] not in ("move", "move2"):
                return -1000
            c = a[-1]
            return -wd.get(c, 50) - 1.0 - cost[c] - (1.0 + cost[a[1]] if a[0] == "move2" else 0.0)
        return self.best(legal, score)

    def cell_costs(self, st, game, h: dict, living: list) -> list[float]:
        """Each cell -> the risk for hero ``h`` of entering it (public information only).

        Revealed monsters cost up to 6 by the chance of losing to them (fought by ``len(living) - 1``
        heroes, at least one, with the equipment of the heroes on ``h``'s tile); each face-down token
        costs 0.4 (0.6 when ``h`` has 4 hit points or fewer).  Memoized per decision (by ``h``'s cell and
        hit points, all it depends on besides the view)."""
        memo = self._costs_memo
        key = (h["pos"], h["hp"])
        out = memo.get(key)
        if out is not None:
            return out
        cards = game.content.loot_cards
        bonus = sum(cards[e].combat for x in living if x["pos"] == h["pos"] for e in x["equipment"])
        k = max(1, len(living) - 1)
        combine = game.option_values["combine_rolls"]
        hidden = 0.4 * (1.5 if h["hp"] <= 4 else 1)
        out = [0.0] * len(st["tokens"])
        for c, toks in enumerate(st["tokens"]):
            if not toks:
                continue
            levels = 0
            unknown = 0
            for t in toks:
                if t is None:
                    unknown += 1
                elif t[0] == "m":
                    levels += int(t[1:])
            out[c] = (6 * (1 - win_chance(k, bonus, levels, combine)) if levels else 0.0) + hidden * unknown
        memo[key] = out
        return out

    def free_slot(self, h: dict, slot: str, cards) -> bool:
        limit = {"sword": 2, "boots": 1}.get(slot)
        return limit is None or sum(1 for e in h["equipment"] if cards[e].slot == slot) < limit

    def _boost(self, st, legal, game):
        return next((a for a in legal if a[0] == "boost"), legal[-1])

    def _loot(self, st, legal, game):
        cards = game.content.loot_cards
        offer = st["prompt"]["cards"]
        hs = {h["seat"]: h for h in st["heroes"]}
        def score(a):
            card = cards[offer[a[1]]]
            h = hs[a[2]]
            v = LOOT_VALUE.get(card.name, 2)
            if card.type == "equipment" and not self.free_slot(h, card.slot, cards):
                v -= 3
            if card.effect == "heal":
                v += (10 - h["hp"]) * 0.4
            return v - 0.1 * len(h["equipment"])
        return max(legal, key=score)
