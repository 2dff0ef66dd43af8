"""A tiny grid game for the web tests: walk your pawn to your secret goal.

Each seat has a pawn and a secret goal cell that only it knows.  On its turn
a seat moves its pawn one cell orthogonally (not through a wall or onto a
blocked cell) or waits.  The first pawn on its own goal wins.  The scene has
a grid with walls, a blocked cell, pawns and the seat's own goal token, and
two-click targets (the pawn, then the cell) so the browser's multi-click
selection is exercised.
"""

from __future__ import annotations

from boardlab.engine import Game, Results, State, Variant, win_results
from boardlab.engine.scene import cell_id, status_line

SIZE = 5
BLOCKED = (2, 2)
WALLS = {((1, 0), "E"), ((3, 4), "W")}
COLORS = ["#c0392b", "#2471a3", "#1e8449", "#b9770e"]
STARTS = [(0, 0), (4, 4), (4, 0), (0, 4)]


def _wall(a, b) -> bool:
    (x1, y1), (x2, y2) = a, b
    for (cx, cy), side in WALLS:
        edges = {"E": ((cx, cy), (cx + 1, cy)), "W": ((cx - 1, cy), (cx, cy)),
                 "N": ((cx, cy - 1), (cx, cy)), "S": ((cx, cy), (cx, cy + 1))}[side]
        if {edges[0], edges[1]} == {(x1, y1), (x2, y2)}:
            return True
    return False


class GridState(State):
    __slots__ = ("pos", "goals", "seat")

    def _setup(self) -> None:
        n = self.game.players
        self.pos = [list(STARTS[i]) for i in range(n)]
        free = [(x, y) for y in range(SIZE) for x in range(SIZE) if (x, y) != BLOCKED and (x, y) not in STARTS[:n]]
        self.goals = []
        for _ in range(n):
            c = free.pop(self.rng.below(len(free)))
            self.goals.append(list(c))
        self.seat = 0
        self.begin_turn()

    def _current_seat(self) -> int:
        return self.seat

    def _legal_actions(self):
        x, y = self.pos[self.seat]
        out = []
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
            nx, ny = x + dx, y + dy
            if 0 <= nx < SIZE and 0 <= ny < SIZE and (nx, ny) != BLOCKED and not _wall((x, y), (nx, ny)):
                out.append(("move", nx, ny))
        out.append(("wait",))
        return out

    def _apply(self, action) -> None:
        s = self.seat
        if action[0] == "move":
            self.pos[s] = [action[1], action[2]]
            self.emit(f"Player {s + 1} moves to {action[1]},{action[2]}", {"seat": s})
            if self.pos[s] == self.goals[s]:
                self.emit(f"Player {s + 1} reaches a secret goal", {"seat": s})
                return
        else:
            roll = self.rng.roll(6)
            self.emit(f"Player {s + 1} waits and rolls {roll}", {"roll": roll},
                      to=[s], private_text=f"You wait (your goal is {self.goals[s][0]},{self.goals[s][1]})")
        self.seat = (s + 1) % self.game.players
        self.begin_turn()

    def _is_over(self) -> bool:
        return any(p == g for p, g in zip(self.pos, self.goals))

    def _results(self) -> Results:
        return win_results(self.game.players, [i for i, (p, g) in enumerate(zip(self.pos, self.goals)) if p == g], "reached the secret goal")

    def _view(self, seat):
        return {"pos": [list(p) for p in self.pos], "goal": list(self.goals[seat]) if seat is not None else None, "seat": self.seat}

    def _determinize(self, seat, rng) -> None:
        n = self.game.players
        taken = {tuple(self.goals[seat])} if seat is not None else set()
        free = [(x, y) for y in range(SIZE) for x in range(SIZE) if (x, y) != BLOCKED]
        for s in range(n):
            if s != seat:
                opts = [c for c in free if list(c) not in self.pos and c not in taken]
                c = rng.choice(opts)
                taken.add(c)
                self.goals[s] = list(c)

    def describe(self, action) -> str:
        return f"move to {action[1]},{action[2]}" if action[0] == "move" else "wait"


class GridGame(Game):
    id = "gridtest"
    name = "Secret goals"
    description = "Walk your pawn to a goal only you know (web tests only)."
    min_players, max_players, default_players = 2, 4, 2
    hidden_information = True
    variants = (Variant("standard", "The only variant."),)
    state_class = GridState
    default_max_turns = 80

    def scene(self, view, actions=()):
        st = view["state"]
        seat = view["seat"]
        cells = [{"x": x, "y": y, "fill": "#efe8da" if (x + y) % 2 else "#e6dcc6", "label": f"{x},{y}"}
                 for y in range(SIZE) for x in range(SIZE)]
        cells[BLOCKED[1] * SIZE + BLOCKED[0]].update(blocked=True, label="", title="rock")
        items = [{"id": f"p{i}", "x": p[0], "y": p[1], "text": f"P{i + 1}", "color": COLORS[i], "shape": "circle", "title": f"Player {i + 1}"}
                 for i, p in enumerate(st["pos"])]
        if st["goal"] is not None:
            items.append({"id": "goal", "x": st["goal"][0], "y": st["goal"][1], "text": "G", "color": "#f2b33d", "shape": "token", "title": "your secret goal"})
        targets = []
        for i, a in enumerate(actions):
            if a[0] == "move":
                targets.append({"action": i, "clicks": [f"item:p{seat}", cell_id("main", a[1], a[2])], "label": f"move to {a[1]},{a[2]}"})
        return {
            "title": self.name,
            "status": status_line(view),
            "prompt": "Click your pawn, then a square" if actions else "",
            "boards": [{"id": "main", "kind": "grid", "cols": SIZE, "rows": SIZE, "cells": cells,
                        "walls": [{"x": c[0], "y": c[1], "side": s} for c, s in sorted(WALLS)], "items": items}],
            "panels": [{"title": f"Player {i + 1}", "seat": i, "active": view["acting"] == i, "color": COLORS[i],
                        "rows": [["Square", f"{p[0]},{p[1]}"], ["Goal", f"{st['goal'][0]},{st['goal'][1]}" if i == seat else "secret"]]}
                       for i, p in enumerate(st["pos"])],
            "targets": targets,
        }
