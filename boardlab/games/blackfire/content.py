"""Blackfire's designed content: the castle map and the token set.

The seed describes the castle but does not draw it, and fixes 15 tokens
without saying how many of each kind, so both are designed data files in this
package (``data/castle.txt``, ``data/tokens.json``, the presets of the ``map``
and ``tokens`` options), loadable from other paths through those options.  Malformed files raise
:class:`~boardlab.engine.errors.ContentError` naming the file and the problem.

A castle file is a readable text grid (see the comments at the top of
``data/castle.txt``), parsed into a :class:`~.board.Castle`::

    T .|. # .        cell rows: a cell at every even column, '|' = wall
    - -              wall rows: '-' under a cell = wall below it
    . . . # .
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from boardlab.engine.content_edits import ContentEditError
from boardlab.engine.errors import ContentError
from boardlab.engine.files import load_json_file

from .board import VALID_CELLS, Castle

#: The designed files (the ``""`` presets of the ``map`` and ``tokens`` options).
DATA = Path(__file__).parent / "data"
DEFAULT_MAP = DATA / "castle.txt"
DEFAULT_TOKENS = DATA / "tokens.json"

#: Every token kind of the final rules, in reference order.
TOKEN_KINDS = ("revive", "recall", "invulnerable", "displace", "death", "slow", "speed", "teleport")
TOKENS_PER_GAME = 15
#: The kinds of content a content edit may name (``Game.content_kinds``; :mod:`boardlab.engine.content_edits`).
CONTENT_KINDS = {"token": "a magic token kind (" + ", ".join(TOKEN_KINDS) + "), e.g. token:death"}


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
    """The castle map at ``path`` (``None``: the designed one).  Raises :class:`ContentError`."""
    p = DEFAULT_MAP if path is None else Path(path)
    from boardlab.engine.files import read_text  # the one bounded reader of user files (issue 31)

    return parse_castle(read_text(p, "castle map"), str(p))


def load_tokens(path: str | Path | None, token_set: str) -> dict[str, int]:
    """The token counts of ``token_set`` (``path`` ``None``: the designed file).  Raises
    :class:`ContentError`.  The board's token reference is not content: it is generated from the rules
    (:func:`~boardlab.games.blackfire.tokens.token_reference`), so a ``reference`` key is ignored."""
    p = DEFAULT_TOKENS if path is None else Path(path)
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
    return {k: n for k, n in counts.items() if n}


def edit_tokens(counts: dict[str, int], edits: Any, needed: int) -> dict[str, int]:
    """The token counts with the content edits applied (removed kinds leave the bag, added copies join
    it, a replaced kind's tokens become another kind).  Token kinds are rules, not data, so an edit
    names one of :data:`TOKEN_KINDS`.  The bag must still fill the treasure rooms and the players'
    placements (``needed``); more tokens than that leave the rest unused in the bag."""
    if not edits:
        return counts
    bag = edits.apply_pool("token", [k for k, n in counts.items() for _ in range(n)], TOKEN_KINDS, definitions=False)
    if len(bag) < needed:
        raise ContentEditError(f"blackfire: the edited token set has {len(bag)} tokens; the treasure rooms and the players' "
                           f"placements need {needed}: add or replace tokens instead of only removing them "
                           f"(e.g. replace:token:death=speed)")
    return {k: bag.count(k) for k in dict.fromkeys(bag)}
