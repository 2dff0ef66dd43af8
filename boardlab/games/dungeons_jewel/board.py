"""The board: a square grid of rooms, the four corner starts and the centre.

Cells are ints ``y * size + x`` (``x`` right, ``y`` down).  Every table a
turn needs (neighbours by side, the spaces around the centre, who is near
whom) is built once per configured game and shared by all its states.

A 7x7 board (``S`` = a start corner, ``D`` = the dragon and the jewel)::

    S . . . . . S        seat 1 top left, seat 2 top right,
    . . . . . . .        seat 3 bottom right, seat 4 bottom left
    . . . . . . .        (clockwise, the order of play)
    . . . D . . .
    . . . . . . .
    . . . . . . .
    S . . . . . S
"""

from __future__ import annotations

SIDES = ("N", "E", "S", "W")
#: The sides in words, for labels and the log (issue 32: a bare "E" is a code to a newcomer).
SIDE_NAMES = {"N": "north", "E": "east", "S": "south", "W": "west"}
_DELTA = ((0, -1), (1, 0), (0, 1), (-1, 0))
OPPOSITE_SIDE = (2, 3, 0, 1)


class Board:
    """Static geometry of a ``size`` x ``size`` board for ``players`` seats."""

    __slots__ = ("size", "cells", "centre", "starts", "corners", "sides", "steps", "around",
                 "near", "labels")

    def __init__(self, size: int, players: int) -> None:
        self.size = size
        n = size * size
        self.cells = n
        self.centre = (size // 2) * size + size // 2
        last = size - 1
        # clockwise corners from the top left
        self.corners = (0, last, n - 1, n - size)
        if players == 2:
            self.starts = (self.corners[0], self.corners[2])  # opposite corners
        else:
            self.starts = self.corners[:players]
        #: sides[c] = tuple of (side index, neighbour) pairs inside the board
        sides = []
        for c in range(n):
            x, y = c % size, c // size
            row = []
            for d, (dx, dy) in enumerate(_DELTA):
                nx, ny = x + dx, y + dy
                if 0 <= nx < size and 0 <= ny < size:
                    row.append((d, ny * size + nx))
            sides.append(tuple(row))
        self.sides: tuple[tuple[tuple[int, int], ...], ...] = tuple(sides)
        self.steps: tuple[tuple[int, ...], ...] = tuple(tuple(j for _, j in row) for row in sides)
        cx, cy = self.centre % size, self.centre // size
        self.around = tuple(
            (cy + dy) * size + cx + dx for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy
        )
        #: near[c]: the cells from which a player may attack a player on ``c``
        self.near = tuple(frozenset((c, *self.steps[c])) for c in range(n))
        self.labels = tuple(f"{chr(97 + c % size)}{c // size + 1}" for c in range(n))

    def xy(self, c: int) -> tuple[int, int]:
        return c % self.size, c // self.size

    def connected(self, walls: list[int]) -> bool:
        """Can every room reach every other, with ``walls[c]`` the blocked-side bitmask of ``c``?"""
        seen = bytearray(self.cells)
        seen[0] = 1
        todo = [0]
        count = 1
        sides = self.sides
        while todo:
            c = todo.pop()
            w = walls[c]
            for d, j in sides[c]:
                if not seen[j] and not w >> d & 1:
                    seen[j] = 1
                    count += 1
                    todo.append(j)
        return count == self.cells

    def distances(self, start: int, walls: list[int] | None = None, through_walls: bool = False) -> list[int]:
        """Step distances from ``start`` (``-1`` where unreachable), honouring ``walls``."""
        dist = [-1] * self.cells
        dist[start] = 0
        frontier = [start]
        sides = self.sides
        while frontier:
            nxt = []
            for c in frontier:
                w = 0 if walls is None or through_walls else walls[c]
                dc = dist[c] + 1
                for d, j in sides[c]:
                    if dist[j] < 0 and not w >> d & 1:
                        dist[j] = dc
                        nxt.append(j)
            frontier = nxt
        return dist
