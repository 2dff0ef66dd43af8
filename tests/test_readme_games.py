"""README.md's game table lists exactly the built-in games, with their ids and player counts.

The table is static text (it renders on the repository's front page); ``boardlab new-game`` adds a row for
the game it scaffolds, and this test keeps the table and :data:`boardlab.games.BUILTIN` in step.
"""

from __future__ import annotations

import re
from pathlib import Path

from boardlab.engine import game_class
from boardlab.games import BUILTIN

README = Path(__file__).resolve().parent.parent / "README.md"


def game_rows(text: str) -> list[list[str]]:
    """The rows of the first table whose header starts ``| game | id | players |``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(r"\|\s*game\s*\|\s*id\s*\|\s*players\s*\|", line))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def test_the_readme_game_table_is_the_registry():
    rows = game_rows(README.read_text(encoding="utf-8"))
    ids = [row[1].strip("`") for row in rows]
    assert sorted(ids) == sorted(BUILTIN), "README.md's game table and BUILTIN differ"
    for name, gid, players, *_ in rows:
        cls = game_class(gid.strip("`"))
        low, high = cls.min_players, cls.max_players
        assert players == (str(low) if low == high else f"{low}-{high}"), (gid, players)
        assert name == cls.name, (gid, name, cls.name)
