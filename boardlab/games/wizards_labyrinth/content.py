"""Designed content of The Wizard's Labyrinth: the wizard deck, the loot deck and the tiles.

The seed gives only examples, so the card lists and tile values are designed
data (``data/*.json``, each marked ``"designed": true``).  This module reads
and validates them; a malformed file raises :class:`ContentError` naming the
file and the problem.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardlab.engine import ContentError, load_json_file

DATA = Path(__file__).parent / "data"

SPELL_EFFECTS = ("frost_bolt", "fireball", "shifting_gate", "switcheroo", "whirlwind")
LOOT_EFFECTS = ("heal", "boost", "sprint")
SLOTS = ("sword", "boots", "other")
#: The kinds of content a content edit may name (``Game.content_kinds``; :mod:`boardlab.engine.content_edits`).
CONTENT_KINDS = {
    "card": "a wizard card, named as in wizard_deck.json, e.g. card:Fireball (as its action tag)",
    "loot": "a loot card, named as in loot_deck.json, e.g. loot:Long Sword",
    "room": "a room tile, named DRAW/MANA by its two values, e.g. room:1/-1",
}


def room_name(room: Any) -> str:
    """A room tile's name for content edits: its draw and mana values, ``"1/-1"``."""
    return f"{room.get('draw')}/{room.get('mana')}" if isinstance(room, dict) else ""


@dataclass(frozen=True, slots=True)
class WizardCard:
    name: str
    type: str  # monster | trap | spell
    cost: int
    level: int = 0
    count: int = 0
    traps: int = 0
    blanks: int = 0
    effect: str = ""
    damage: int = 0
    removed: bool = False
    added: str = ""
    text: str = ""

    def tokens(self) -> list[str]:
        """The tokens the card places, real ones first: ``m<level>``, ``T`` (trap), ``X`` (blank)."""
        if self.type == "monster":
            return [f"m{self.level}"] * self.count + ["X"] * self.blanks
        if self.type == "trap":
            return ["T"] * self.traps + ["X"] * self.blanks
        return []


@dataclass(frozen=True, slots=True)
class LootCard:
    name: str
    type: str  # consumable | equipment
    effect: str = ""
    amount: int = 0
    slot: str = ""
    combat: int = 0
    save: int = 0
    text: str = ""


@dataclass(frozen=True, slots=True)
class Content:
    wizard_cards: dict[str, WizardCard]
    wizard_deck: tuple[str, ...]  # one entry per copy (full deck, all versions)
    loot_cards: dict[str, LootCard]
    loot_deck: tuple[str, ...]
    rooms: tuple[tuple[int, int], ...]  # (draw, mana) per room tile id
    keys: tuple[tuple[int, int], ...]


def _need(doc: dict, key: str, kind: type | tuple, where: str) -> Any:
    if key not in doc:
        raise ContentError(f"{where}: missing field {key!r}")
    val = doc[key]
    if kind is int and (isinstance(val, bool) or not isinstance(val, int)):
        raise ContentError(f"{where}: field {key!r} must be an integer, got {val!r}")
    if kind is not int and not isinstance(val, kind):
        raise ContentError(f"{where}: field {key!r} has the wrong type ({val!r})")
    return val


def _int(doc: dict, key: str, where: str, default: int = 0, low: int | None = None, high: int | None = None) -> int:
    val = doc.get(key, default)
    if isinstance(val, bool) or not isinstance(val, int):
        raise ContentError(f"{where}: field {key!r} must be an integer, got {val!r}")
    if (low is not None and val < low) or (high is not None and val > high):
        raise ContentError(f"{where}: field {key!r} must be in {low}..{high}, got {val}")
    return val


def _cards(path: Path) -> list[dict]:
    doc = load_json_file(path, "card file")
    if not isinstance(doc, dict) or not isinstance(doc.get("cards"), list) or not doc["cards"]:
        raise ContentError(f"{path}: expected an object with a non-empty list 'cards'")
    names = set()
    for i, c in enumerate(doc["cards"]):
        if not isinstance(c, dict):
            raise ContentError(f"{path}: card #{i} must be an object")
        name = _need(c, "name", str, f"{path}: card #{i}")
        if name in names:
            raise ContentError(f"{path}: card name {name!r} appears twice")
        names.add(name)
    return doc["cards"]


def load_wizard_deck(path: Path, edits: Any = None) -> tuple[dict[str, WizardCard], tuple[str, ...]]:
    cards: dict[str, WizardCard] = {}
    deck: list[str] = []
    raw = _cards(path)
    for c in edits.apply_entries("card", raw, key="name", count="copies") if edits else raw:
        where = f"{path}: card {c['name']!r}"
        kind = _need(c, "type", str, where)
        if kind not in ("monster", "trap", "spell"):
            raise ContentError(f"{where}: type must be monster, trap or spell, got {kind!r}")
        card = WizardCard(
            name=c["name"], type=kind, cost=_int(c, "cost", where, 1, 0, 20),
            level=_int(c, "level", where, 0, 0, 5), count=_int(c, "count", where, 0, 0, 5),
            traps=_int(c, "traps", where, 0, 0, 5), blanks=_int(c, "blanks", where, 0, 0, 5),
            effect=c.get("effect", ""), damage=_int(c, "damage", where, 0, 0, 10),
            removed=bool(c.get("removed", False)), added=str(c.get("added", "")), text=str(c.get("text", "")),
        )
        if kind == "monster" and not (1 <= card.level <= 5 and card.count >= 1):
            raise ContentError(f"{where}: a monster needs level 1..5 and count >= 1")
        if kind == "trap" and card.traps < 1:
            raise ContentError(f"{where}: a trap card needs traps >= 1")
        if kind == "spell" and card.effect not in SPELL_EFFECTS:
            raise ContentError(f"{where}: unknown spell effect {card.effect!r} (known: {', '.join(SPELL_EFFECTS)})")
        cards[card.name] = card
        deck += [card.name] * _int(c, "copies", where, 1, 0, 40)
    if not deck:
        raise ContentError(f"{path}: the wizard deck has no cards")
    return cards, tuple(deck)


def load_loot_deck(path: Path, edits: Any = None) -> tuple[dict[str, LootCard], tuple[str, ...]]:
    cards: dict[str, LootCard] = {}
    deck: list[str] = []
    raw = _cards(path)
    for c in edits.apply_entries("loot", raw, key="name", count="copies") if edits else raw:
        where = f"{path}: card {c['name']!r}"
        kind = _need(c, "type", str, where)
        if kind == "consumable":
            effect = c.get("effect")
            if effect not in LOOT_EFFECTS:
                raise ContentError(f"{where}: consumable effect must be one of {', '.join(LOOT_EFFECTS)}, got {effect!r}")
            card = LootCard(c["name"], kind, effect=effect, amount=_int(c, "amount", where, 0, 0, 20), text=str(c.get("text", "")))
        elif kind == "equipment":
            slot = c.get("slot")
            if slot not in SLOTS:
                raise ContentError(f"{where}: equipment slot must be one of {', '.join(SLOTS)}, got {slot!r}")
            card = LootCard(c["name"], kind, slot=slot, combat=_int(c, "combat", where, 0, -10, 10),
                            save=_int(c, "save", where, 0, -10, 10), text=str(c.get("text", "")))
        else:
            raise ContentError(f"{where}: type must be consumable or equipment, got {kind!r}")
        cards[card.name] = card
        deck += [card.name] * _int(c, "copies", where, 1, 0, 40)
    if not deck:
        raise ContentError(f"{path}: the loot deck has no cards")
    return cards, tuple(deck)


def load_tiles(path: Path, edits: Any = None) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    doc = load_json_file(path, "tile file")
    if not isinstance(doc, dict) or not isinstance(doc.get("rooms"), list) or not isinstance(doc.get("keys"), list):
        raise ContentError(f"{path}: expected an object with lists 'rooms' and 'keys'")
    if edits:
        doc = {**doc, "rooms": edits.apply_entries("room", doc["rooms"], key="name", count="copies", name_of=room_name)}
    rooms: list[tuple[int, int]] = []
    for i, r in enumerate(doc["rooms"]):
        if not isinstance(r, dict):
            raise ContentError(f"{path}: room #{i} must be an object")
        where = f"{path}: room #{i}"
        val = (_int(r, "draw", where, 0, -3, 3), _int(r, "mana", where, 0, -3, 3))
        rooms += [val] * _int(r, "copies", where, 1, 0, 60)
    if len(doc["keys"]) != 3:
        raise ContentError(f"{path}: there must be exactly 3 key tiles, got {len(doc['keys'])}")
    keys = []
    for i, k in enumerate(doc["keys"]):
        if not isinstance(k, dict):
            raise ContentError(f"{path}: key tile #{i} must be an object")
        keys.append((_int(k, "draw", f"{path}: key #{i}", 0, -3, 3), _int(k, "mana", f"{path}: key #{i}", 0, -3, 3)))
    return tuple(rooms), tuple(keys)


def load_content(content_dir: str | Path = DATA, edits: Any = None) -> Content:
    """Read the three data files from the folder ``content_dir`` (the game passes ``Game.content_path``).

    ``edits`` (a :class:`~boardlab.engine.content_edits.ContentEdits`) change the
    files' entries before validation: a removed card or tile has 0 copies, added
    copies raise ``copies``, a new card takes the file's fields.
    """
    base = Path(content_dir)
    wcards, wdeck = load_wizard_deck(base / "wizard_deck.json", edits)
    lcards, ldeck = load_loot_deck(base / "loot_deck.json", edits)
    rooms, keys = load_tiles(base / "tiles.json", edits)
    return Content(wcards, wdeck, lcards, ldeck, rooms, keys)
