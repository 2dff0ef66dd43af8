"""Materials: the dungeon tokens and the treasure cards, read from a data file.

The seed names nine dungeon tokens and sixteen items but gives no counts, so
the counts are *designed* (``data/content.json``, marked ``"designed": true``).
Another file can be used with the ``content`` option; it is validated here and
any problem raises :class:`ContentError` naming the file and the entry.

Token ``type`` is one of ``hazard`` (roll to survive), ``monster`` (die plus
attack power), ``trapdoor`` (a failed roll sends the player home without
damage) and ``wall`` (turned by the drawer to block one side of the room).
Item ``effect`` is ``survive`` (survive the token named by ``hazard`` without
rolling), ``walls`` (walk through walls) or ``attack`` (+1 attack power).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardlab.engine import ContentError, load_json_file

#: The designed file (the ``content`` option's ``""`` preset in game.py).
DEFAULT_CONTENT = Path(__file__).parent / "data" / "content.json"

TOKEN_TYPES = ("hazard", "monster", "trapdoor", "wall")
ITEM_EFFECTS = ("survive", "walls", "attack")


@dataclass(frozen=True, slots=True)
class TokenKind:
    id: str
    name: str
    type: str
    count: int
    text: str


@dataclass(frozen=True, slots=True)
class ItemKind:
    id: str
    name: str
    effect: str
    hazard: str | None
    count: int


@dataclass(frozen=True, slots=True)
class Content:
    """Validated token and treasure lists."""

    path: str
    designed: bool
    tokens: tuple[TokenKind, ...]
    items: tuple[ItemKind, ...]

    def token(self, kind: str) -> TokenKind:
        for t in self.tokens:
            if t.id == kind:
                return t
        raise KeyError(kind)

    def token_pile(self) -> list[str]:
        return [t.id for t in self.tokens for _ in range(t.count)]

    def treasure_deck(self) -> list[str]:
        return [i.id for i in self.items for _ in range(i.count)]


#: The kinds of content a content edit may name (``Game.content_kinds``; :mod:`boardlab.engine.content_edits`).
CONTENT_KINDS = {
    "item": "a treasure card (loot), named by its id, e.g. item:gloves",
    "token": "a dungeon token, named by its id, e.g. token:monster",
}


def load_content(path: str | Path = DEFAULT_CONTENT, edits: Any = None) -> Content:
    """Read and validate a content file (``Game.content_path("content")`` picks it).

    ``edits`` (a :class:`~boardlab.engine.content_edits.ContentEdits`) change the
    file's ``items`` and ``tokens`` before validation: a removed entry's count
    becomes 0, added copies raise it, a new entry takes the file's fields.
    """
    p = Path(path)
    doc = load_json_file(p, "Dungeon's Jewel content file")
    if edits and isinstance(doc, dict):
        doc = dict(doc)
        for kind, section in (("token", "tokens"), ("item", "items")):
            if isinstance(doc.get(section), list):
                doc[section] = edits.apply_entries(kind, doc[section], key="id", count="count")
    return parse_content(doc, str(p))


def _fail(where: str, problem: str) -> ContentError:
    return ContentError(f"Dungeon's Jewel content file {where}: {problem}")


def _entry_id(where: str, entry: Any, i: int, section: str, seen: set[str]) -> str:
    if not isinstance(entry, dict):
        raise _fail(where, f"{section}[{i}] must be an object, got {type(entry).__name__}")
    ident = entry.get("id")
    if not isinstance(ident, str) or not ident or not ident.replace("_", "").isalnum():
        raise _fail(where, f"{section}[{i}] needs an 'id' made of letters, digits and '_', got {ident!r}")
    if ident in seen:
        raise _fail(where, f"{section} id {ident!r} appears twice")
    seen.add(ident)
    return ident


def _count(where: str, entry: dict, label: str) -> int:
    count = entry.get("count")
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 200:
        raise _fail(where, f"{label} needs an integer 'count' from 0 to 200, got {count!r}")
    return count


def _text(where: str, entry: dict, key: str, label: str, default: str) -> str:
    value = entry.get(key, default)
    if not isinstance(value, str):
        raise _fail(where, f"{label} field {key!r} must be a string, got {value!r}")
    return value


def parse_content(doc: Any, where: str = "<data>") -> Content:
    """Validate a decoded content document (see the module docstring for the format)."""
    if not isinstance(doc, dict):
        raise _fail(where, "the top level must be a JSON object with 'tokens' and 'items'")
    for key in ("tokens", "items"):
        if not isinstance(doc.get(key), list) or not doc[key]:
            raise _fail(where, f"{key!r} must be a non-empty list")
    seen: set[str] = set()
    tokens = []
    for i, entry in enumerate(doc["tokens"]):
        ident = _entry_id(where, entry, i, "tokens", seen)
        label = f"token {ident!r}"
        ttype = entry.get("type")
        if ttype not in TOKEN_TYPES:
            raise _fail(where, f"{label} has type {ttype!r}; allowed: {', '.join(TOKEN_TYPES)}")
        tokens.append(TokenKind(ident, _text(where, entry, "name", label, ident), ttype,
                                _count(where, entry, label), _text(where, entry, "text", label, "")))
    if sum(t.count for t in tokens) == 0:
        raise _fail(where, "the dungeon token pile is empty (every count is 0)")
    token_ids = {t.id: t for t in tokens}
    items = []
    seen_items: set[str] = set()
    for i, entry in enumerate(doc["items"]):
        ident = _entry_id(where, entry, i, "items", seen_items)
        label = f"item {ident!r}"
        effect = entry.get("effect")
        if effect not in ITEM_EFFECTS:
            raise _fail(where, f"{label} has effect {effect!r}; allowed: {', '.join(ITEM_EFFECTS)}")
        hazard = entry.get("hazard")
        if effect == "survive":
            if hazard not in token_ids:
                raise _fail(where, f"{label} survives {hazard!r}, which is not a token id ({', '.join(token_ids)})")
            if token_ids[hazard].type == "wall":
                raise _fail(where, f"{label} cannot 'survive' a wall; use effect 'walls'")
        elif hazard is not None:
            raise _fail(where, f"{label} has a 'hazard' but its effect is {effect!r}")
        items.append(ItemKind(ident, _text(where, entry, "name", label, ident), effect, hazard, _count(where, entry, label)))
    designed = doc.get("designed", False)
    if not isinstance(designed, bool):
        raise _fail(where, f"'designed' must be true or false, got {designed!r}")
    return Content(where, designed, tuple(tokens), tuple(items))
