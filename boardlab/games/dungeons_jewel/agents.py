"""A heuristic player that plays like the post-mortem's players.

"Players often just walked randomly until they what they felt was a
comfortable amount of attack power ... Once this happened all players would
try to make it to the center first ... Players will often only attack once a
player has a jewel."

So: explore new rooms for loot until attack power reaches ``strength`` (the
bar lowers as the game drags on or the treasure runs out), then head for the
dragon; carry the jewel home by the safest path; and when someone else has
the jewel, attack the carrier if adjacent, else head it off at its corner or
chase it.  Routes weigh each room by the chance of failing its hazard, as far
as this seat knows the room.  It decides from ``decision.view`` and
``decision.legal`` only.
"""

from __future__ import annotations

import heapq
from typing import Any

from boardlab.engine.agent import BaseAgent, Decision

class HeuristicAgent(BaseAgent):
    defaults = {"strength": 3, "caution": 4.0, "patience": 40}

    def act(self, decision: Decision) -> tuple:
        legal = decision.legal
        if len(legal) == 1:
            return legal[0]
        v = decision.view["state"]
        kind = legal[0][0]
        if kind == "place":
            return ("place", "secret")
        if kind in ("use", "roll"):
            return legal[0]  # an item that survives the hazard comes first
        if kind == "take":
            return self._take(legal)
        if kind == "wall":
            return self._wall(v, legal)
        return self._turn(decision.view, v, legal)

    # -- knowledge ---------------------------------------------------------
    def _fail_chance(self, v: dict[str, Any]) -> list[float]:
        """For each room, this seat's estimate of failing there (0 for safe rooms)."""
        g = self.game
        me = self.seat
        die = g.opt_die
        p_hazard = min(1.0, max(0.0, (g.opt_hazard - 1) / die))
        p_monster = min(1.0, max(0.0, (g.opt_monster - 1 - v["power"][me]) / die))
        cures = {k for k, item in g.cure.items() if item in v["items"][me]}
        unknown = p_hazard * 0.8 + p_monster * 0.2
        cells = v["size"] * v["size"]
        risk = [unknown] * cells
        for c, face, _up in v["tokens"]:
            if face is None:
                continue
            t = g.token_type[face]
            if t == "wall" or face in cures:
                risk[c] = 0.0
            elif t == "monster":
                risk[c] = p_monster
            else:
                risk[c] = p_hazard
        for c in v["starts"]:
            risk[c] = 0.0
        risk[v["centre"]] = 0.0
        return risk

    def _route(self, v: dict[str, Any], targets: list[int], risk: list[float], weight: float,
               avoid_centre: bool, need: Any = None) -> tuple[list[float], list[float]]:
        """Reverse Dijkstra: cost of the cheapest way from each room to a target.

        With ``need`` (rooms), the search stops once every one of them is settled: their
        costs are then final (Dijkstra never changes a settled room), so they are exactly
        what the full search gives; other rooms' entries may be left too high.
        """
        size = v["size"]
        cells = size * size
        blocked = v["blocked"]
        through = self.game.wall_item in v["items"][self.seat]
        centre = v["centre"]
        enter = [1.0 + weight * r for r in risk]
        if avoid_centre:
            enter[centre] += 50.0
        sides = self.game.board.sides
        dist = [1e9] * cells
        heap = []
        for t in targets:
            dist[t] = 0.0
            heap.append((0.0, t))
        heapq.heapify(heap)
        left = None if need is None else set(need)
        while heap:
            d, x = heapq.heappop(heap)
            if d > dist[x]:
                continue
            if left is not None and x in left:
                left.discard(x)
                if not left:
                    break
            w = 0 if through else blocked[x]
            nd = d + enter[x]
            for side, y in sides[x]:
                if not w >> side & 1 and nd < dist[y]:
                    dist[y] = nd
                    heapq.heappush(heap, (nd, y))
        return dist, enter

    # -- a main turn -------------------------------------------------------
    def _turn(self, view: dict[str, Any], v: dict[str, Any], legal: tuple) -> tuple:
        g = self.game
        me = self.seat
        jewel = v["jewel"]
        pos = v["positions"]
        starts = v["starts"]
        centre = v["centre"]
        risk = self._fail_chance(v)
        moves = [a for a in legal if a[0] == "move"]
        if jewel is not None and jewel != me:
            attack = ("attack", jewel)
            if attack in legal:
                return attack
            home = starts[jewel]
            mine = self._steps(v, pos[me], home)
            theirs = self._steps(v, pos[jewel], home)
            target = [home] if mine < theirs else [pos[jewel]]
            return self._best_move(v, moves, target, risk, self.params["caution"], avoid_centre=True)
        if jewel == me:
            weight = self.params["caution"] * (3.0 if v["health"][me] == 1 else 1.5)
            return self._best_move(v, moves, [starts[me]], risk, weight, avoid_centre=False)
        patience = self.params["patience"] * g.players
        bar = self.params["strength"] - view["turn"] // patience
        new_rooms = [c for c in range(v["size"] ** 2) if c not in starts and c != centre]
        taken = {c for c, _f, _u in v["tokens"]}
        new_rooms = [c for c in new_rooms if c not in taken]
        ready = v["power"][me] >= bar or v["treasure_deck"] == 0 or not new_rooms or v["token_pile"] == 0
        if ready:
            if ("dragon",) in legal:
                return ("dragon",)
            return self._best_move(v, moves, [centre], risk, self.params["caution"], avoid_centre=False)
        return self._best_move(v, moves, new_rooms, risk, 1.0, avoid_centre=True)

    def _steps(self, v: dict[str, Any], a: int, b: int) -> int:
        size = v["size"]
        return abs(a % size - b % size) + abs(a // size - b // size)

    def _best_move(self, v, moves, targets, risk, weight, avoid_centre) -> tuple:
        # Only the move destinations' costs are read below.
        dist, enter = self._route(v, targets, risk, weight, avoid_centre, need=[a[1] for a in moves])
        best = None
        best_cost = 0.0
        for a in moves:
            c = a[1]
            cost = dist[c] + (0.0 if c in targets else enter[c]) + self.rng.random() * 0.01
            if best is None or cost < best_cost:
                best, best_cost = a, cost
        return best if best is not None else moves[0]

    # -- prompts -----------------------------------------------------------
    def _take(self, legal: tuple) -> tuple:
        g = self.game
        for a in legal:
            if a[1] in g.attack_items:
                return a
        return legal[0]

    def _wall(self, v: dict[str, Any], legal: tuple) -> tuple:
        """Turn the wall where it lengthens the opponents' way to their goal the most."""
        if legal[0][1] == "none":
            return legal[0]
        b = self.game.board
        cell = v["pending"]["cell"]
        me = self.seat
        jewel = v["jewel"]
        best, best_score = legal[0], None
        for a in legal:
            d = "NESW".index(a[1])
            walls = list(v["blocked"])
            walls[cell] |= 1 << d
            j = dict(b.sides[cell])[d]
            walls[j] |= 1 << (d + 2) % 4
            score = 0
            for s, p in enumerate(v["positions"]):
                goal = v["starts"][s] if jewel == s else v["centre"]
                dist = b.distances(goal, walls)[p]
                score += -dist * 2 if s == me else dist
            if best_score is None or score > best_score:
                best, best_score = a, score
        return best
