"""Geometry of The Wizard's Labyrinth: the square grid of tiles, where the start and the tower go.

Cells are ``y * size + x`` (``x`` the column, ``y`` the row from the top).
The heroes start in the top-left corner; the tower stands in the centre (on
an even grid the wizard picks one of the four centre tiles); the tiles
around the tower are its ring, and the tower entrance is the ring tile the
entrance faces.
"""

from __future__ import annotations

from typing import Any

from boardlab.engine.components import DIRECTIONS

#: Grid size by player count (seed: 3 players 5x5, 4 players 6x6, 5 players 7x7).
GRID_SIZE = {3: 5, 4: 6, 5: 7}

#: The heroes' start tile (ledger: the top-left corner).
START = 0

_NEIGHBOURS: dict[int, tuple[tuple[int, ...], ...]] = {}


#: The sides of a tile in words, for labels and the log (issue 32: a bare "E" is a code to a newcomer).
DIRECTION_NAMES = {"N": "north", "E": "east", "S": "south", "W": "west"}


def token_name(kind: str) -> str:
    """A token in words, as the board's key names it: ``"X"`` -> ``"a blank"``, ``"T"`` -> ``"a trap"``,
    ``"m3"`` -> ``"a level 3 monster"`` (never the id ``m3``, issue 32)."""
    return "a blank" if kind == "X" else "a trap" if kind == "T" else f"a level {kind[1:]} monster"


def stack_position(i: int, n: int, cell: str, face: str | None = None) -> str:
    """Token ``i`` (from 0) of a tile's stack of ``n`` in words: ``"the 1st of 3 tokens on E5 (face down)"``.

    Issue 32: "1 on A1" read as a monster level; the number is the token's place in the tile's stack.
    ``face`` is what the reader may know of it: its kind, or ``None`` for face down.
    """
    k = i + 1
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    what = "face down" if face is None else token_name(face)
    if n == 1:
        return f"the only token on {cell} ({what})"
    return f"the {k}{suffix} of {n} tokens on {cell} ({what})"


def token_list(kinds: list[str]) -> str:
    """``["m2", "X", "T"]`` -> ``"a level 2 monster, a blank and a trap"``."""
    words = [token_name(k) for k in kinds]
    return " and ".join(words) if len(words) < 3 else ", ".join(words[:-1]) + " and " + words[-1]


def cell_name(game: Any, c: int) -> str:
    """Chess-like cell names: column letter, row number from the top (``A1`` is the top-left)."""
    n = game.size
    return f"{'ABCDEFG'[c % n]}{c // n + 1}"


def centre_cell(n: int) -> int:
    """The tower's tile before the wizard chooses: the centre (lower right of the four on an even grid)."""
    return (n // 2) * n + n // 2


def centre_cells(n: int) -> list[int]:
    """The centre tile(s) the tower may stand on: one on an odd grid, four on an even one."""
    lo, hi = (n - 1) // 2, n // 2
    return sorted({y * n + x for x in (lo, hi) for y in (lo, hi)})


def entrance_cell(n: int, tower: int, entrance: str) -> int | None:
    """The tile in front of the tower entrance facing ``entrance`` (``None`` without an entrance)."""
    if not entrance:
        return None
    dx, dy = DIRECTIONS[entrance]
    return tower + dy * n + dx


def ring_cells(n: int, tower: int) -> set[int]:
    """The 8 tiles around the tower ("the last layer of tiles around the wizard tower")."""
    tx, ty = tower % n, tower // n
    return {(ty + dy) * n + tx + dx for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy}


def neighbour_table(grid: Any) -> tuple[tuple[int, ...], ...]:
    """Every cell's neighbours as one tuple (the grids are plain squares, so one table per size)."""
    table = _NEIGHBOURS.get(grid.width)
    if table is None:
        table = _NEIGHBOURS[grid.width] = tuple(grid.neighbours(i) for i in range(grid.width * grid.height))
    return table
