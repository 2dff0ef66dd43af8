"""Blackfire's castle geometry: the square legend and the parsed :class:`Castle`.

A castle is a grid of squares numbered row by row (``i = y * width + x``)
with walls between some neighbours and inaccessible squares (``#``); its
special squares are green's start (the centre), four red starts, four exits
and seven treasure rooms.  Reading a castle *file* is :mod:`.content`'s job;
a :class:`Castle` checks what the rules need of the grid it is given and
raises :class:`~boardlab.engine.errors.ContentError` naming the file.
"""

from __future__ import annotations

from boardlab.engine.components import Grid
from boardlab.engine.errors import ContentError

TREASURE_ROOMS = 7

FLOOR_CHARS = {".": "floor", "T": "treasure", "G": "green-start"}
RED_START_CHARS = "1234"
EXIT_CHARS = "ABCD"
VALID_CELLS = set(FLOOR_CHARS) | set(RED_START_CHARS) | set(EXIT_CHARS) | {"#"}


class Castle:
    """The parsed, immutable castle: grid, special squares and distance tables.

    ``dist[a][b]`` is the walking distance (orthogonal steps that cross no
    wall and no inaccessible square); unreachable pairs get :attr:`FAR`.
    :meth:`manhattan` ignores walls (Displace and Teleport do).
    """

    FAR = 999

    __slots__ = (
        "path", "name", "designed", "width", "height", "grid", "chars", "green_start",
        "red_starts", "exits", "treasure", "cells", "dist", "placeable", "placeable_set", "lines",
    )

    def __init__(self, path: str, name: str, designed: bool, chars: list[str], walls: list, lines: list[str], width: int, height: int) -> None:
        self.path = path
        self.name = name
        self.designed = designed
        self.width = width
        self.height = height
        self.chars = chars
        self.lines = lines
        blocked = [(i % width, i // width) for i, c in enumerate(chars) if c == "#"]
        self.grid = Grid(width, height, walls=walls, blocked=blocked)
        where = lambda ch: [i for i, c in enumerate(chars) if c == ch]  # noqa: E731
        greens = where("G")
        if len(greens) != 1:
            raise ContentError(f"castle map {path}: needs exactly one green start 'G', found {len(greens)}")
        self.green_start: int = greens[0]
        self.red_starts: tuple[int, ...] = tuple(self._one(ch, f"red start #{k + 1}") for k, ch in enumerate(RED_START_CHARS))
        self.exits: tuple[int, ...] = tuple(self._one(ch, f"exit #{k + 1}") for k, ch in enumerate(EXIT_CHARS))
        self.treasure: tuple[int, ...] = tuple(where("T"))
        if len(self.treasure) != TREASURE_ROOMS:
            raise ContentError(f"castle map {path}: needs {TREASURE_ROOMS} treasure rooms 'T', found {len(self.treasure)}")
        self.cells: tuple[int, ...] = tuple(i for i, c in enumerate(chars) if c != "#")
        n = width * height
        far = self.FAR
        dist = []
        for i in range(n):
            row = [far] * n
            if chars[i] != "#":
                for j, d in self.grid.distances(i).items():
                    row[j] = d
            dist.append(row)
        self.dist: list[list[int]] = dist
        for k, e in enumerate(self.exits):
            x, y = e % width, e // width
            if x not in (0, width - 1) and y not in (0, height - 1):
                raise ContentError(f"castle map {path}: exit #{k + 1} at ({x}, {y}) is not on the edge of the castle")
        for i in (*self.red_starts, *self.exits, *self.treasure):
            if dist[self.green_start][i] >= far:
                x, y = i % width, i // width
                raise ContentError(f"castle map {path}: square ({x}, {y}) '{chars[i]}' cannot be reached from the green start")
        special = {self.green_start, *self.red_starts, *self.exits, *self.treasure}
        #: squares where players may place their four tokens
        self.placeable: tuple[int, ...] = tuple(i for i in self.cells if i not in special and dist[self.green_start][i] < far)
        self.placeable_set = frozenset(self.placeable)
        if len(self.placeable) < 2 * 8:
            raise ContentError(f"castle map {path}: only {len(self.placeable)} free squares for the players' tokens")

    def _one(self, ch: str, what: str) -> int:
        found = [i for i, c in enumerate(self.chars) if c == ch]
        if len(found) != 1:
            raise ContentError(f"castle map {self.path}: needs exactly one {what} '{ch}', found {len(found)}")
        return found[0]

    def xy(self, i: int) -> tuple[int, int]:
        return (i % self.width, i // self.width)

    def index(self, x: int, y: int) -> int:
        return y * self.width + x

    def manhattan(self, a: int, b: int) -> int:
        w = self.width
        return abs(a % w - b % w) + abs(a // w - b // w)

    def within_manhattan(self, a: int, r: int) -> list[int]:
        """Accessible squares at Manhattan distance 1..r of ``a`` (walls ignored)."""
        w, h = self.width, self.height
        ax, ay = a % w, a // w
        out = []
        for y in range(max(0, ay - r), min(h, ay + r + 1)):
            span = r - abs(y - ay)
            for x in range(max(0, ax - span), min(w, ax + span + 1)):
                j = y * w + x
                if j != a and self.chars[j] != "#":
                    out.append(j)
        return out

    def label(self, i: int) -> str:
        """A chess-like square name: column letter + row number from the top (``h8``)."""
        x, y = i % self.width, i // self.width
        return f"{chr(97 + x)}{y + 1}"
