"""Blackfire's designed content: the castle map and the token set.

The seed describes the castle but does not draw it, and fixes 15 tokens
without saying how many of each kind, so both are designed data files in this
package (``castle.txt``, ``tokens.json``), loadable from other paths through
the ``map`` and ``tokens`` options.  Malformed files raise
:class:`~boardlab.engine.errors.ContentError` naming the file and the problem.

A castle file is a readable text grid (see the comments at the top of
``castle.txt``)::

    T .|. # .        cell rows: a cell at every even column, '|' = wall
    - -              wall rows: '-' under a cell = wall below it
    . . . # .
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from boardlab.engine.components import Grid
from boardlab.engine.errors import ContentError
from boardlab.engine.game import load_json_file

HERE = Path(__file__).parent
DEFAULT_MAP = HERE / "castle.txt"
DEFAULT_TOKENS = HERE / "tokens.json"

#: Every token kind of the final rules, in reference order.
TOKEN_KINDS = ("revive", "recall", "invulnerable", "displace", "death", "slow", "speed", "teleport")
TOKENS_PER_GAME = 15
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


def parse_castle(text: str, path: str = "<string>") -> Castle:
    """Parse a castle map text (see the module docs).  Raises :class:`ContentError`."""
    header: dict[str, str] = {}
    grid_lines: list[str] | None = None
    for raw in text.splitlines():
        line = raw.rstrip("\r\n")
        if line.lstrip().startswith(";"):
            continue
        if grid_lines is not None:
            grid_lines.append(line.rstrip())
            continue
        if not line.strip():
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise ContentError(f"castle map {path}: expected 'key: value' or 'map:' before the grid, got {line!r}")
        key = key.strip().lower()
        if key == "map":
            grid_lines = []
        else:
            header[key] = value.strip()
    if grid_lines is None:
        raise ContentError(f"castle map {path}: no 'map:' line followed by the grid")
    while grid_lines and not grid_lines[-1]:
        grid_lines.pop()
    if not grid_lines:
        raise ContentError(f"castle map {path}: the grid after 'map:' is empty")
    if len(grid_lines) % 2 == 0:
        raise ContentError(f"castle map {path}: the grid needs cell rows and wall rows alternating, starting and ending with a cell row (odd line count), got {len(grid_lines)} lines")
    height = (len(grid_lines) + 1) // 2
    width = (len(grid_lines[0]) + 1) // 2
    if width < 2:
        raise ContentError(f"castle map {path}: the first grid row is too short")
    cols = 2 * width - 1
    chars: list[str] = []
    walls: list[tuple[tuple[int, int], tuple[int, int]]] = []
    for r, line in enumerate(grid_lines):
        if len(line) > cols:
            raise ContentError(f"castle map {path}: grid line {r + 1} is {len(line)} characters long, more than the first row's {cols}")
        line = line.ljust(cols)
        if r % 2 == 0:
            y = r // 2
            for x in range(width):
                ch = line[2 * x]
                if ch not in VALID_CELLS:
                    raise ContentError(f"castle map {path}: unknown cell character {ch!r} at ({x}, {y}); legend: . # G T 1-4 A-D")
                chars.append(ch)
                if x < width - 1:
                    sep = line[2 * x + 1]
                    if sep == "|":
                        walls.append(((x, y), (x + 1, y)))
                    elif sep != " ":
                        raise ContentError(f"castle map {path}: between cells ({x}, {y}) and ({x + 1}, {y}) expected '|' or ' ', got {sep!r}")
        else:
            y = r // 2
            for x in range(width):
                ch = line[2 * x]
                if ch == "-":
                    walls.append(((x, y), (x, y + 1)))
                elif ch != " ":
                    raise ContentError(f"castle map {path}: under cell ({x}, {y}) expected '-' or ' ', got {ch!r}")
                if x < width - 1 and line[2 * x + 1] not in " +-|":
                    raise ContentError(f"castle map {path}: wall corner after ({x}, {y}) must be '+', '-', '|' or ' ', got {line[2 * x + 1]!r}")
    designed = header.get("designed", "false").lower() in ("true", "yes", "1")
    return Castle(path, header.get("name", Path(path).stem), designed, chars, walls, grid_lines, width, height)


def load_castle(path: str | Path | None = None) -> Castle:
    p = Path(path) if path else DEFAULT_MAP
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ContentError(f"cannot read castle map {p}: {exc.strerror}") from None
    return parse_castle(text, str(p))


def load_tokens(path: str | Path | None, token_set: str) -> tuple[dict[str, int], dict[str, str]]:
    """The token counts of ``token_set`` and the board reference texts.  Raises :class:`ContentError`."""
    p = Path(path) if path else DEFAULT_TOKENS
    doc: Any = load_json_file(p, "token file")
    if not isinstance(doc, dict) or not isinstance(doc.get("sets"), dict):
        raise ContentError(f"token file {p}: needs an object with a 'sets' object")
    counts = doc["sets"].get(token_set)
    if not isinstance(counts, dict):
        known = ", ".join(sorted(doc["sets"])) or "none"
        raise ContentError(f"token file {p}: no token set {token_set!r} (sets: {known})")
    for kind, n in counts.items():
        if kind not in TOKEN_KINDS:
            raise ContentError(f"token file {p}: unknown token kind {kind!r} in set {token_set!r} (kinds: {', '.join(TOKEN_KINDS)})")
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ContentError(f"token file {p}: count of {kind!r} must be a non-negative integer, got {n!r}")
    total = sum(counts.values())
    if total != TOKENS_PER_GAME:
        raise ContentError(f"token file {p}: set {token_set!r} has {total} tokens; the rules need {TOKENS_PER_GAME}")
    ref = doc.get("reference", {})
    if not isinstance(ref, dict) or not all(isinstance(v, str) for v in ref.values()):
        raise ContentError(f"token file {p}: 'reference' must map token kinds to texts")
    return {k: n for k, n in counts.items() if n}, dict(ref)
