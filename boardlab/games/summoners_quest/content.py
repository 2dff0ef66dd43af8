"""The card list: loading, validation and the effect vocabulary.

Every card is data (``data/cards.json``, designed content).  An effect is a
list ``[kind, *args]`` from a small vocabulary that the rules implement once
(:mod:`boardlab.games.summoners_quest.effects`):

=================  =======================================================
effect             meaning
=================  =======================================================
``damage n``       the target piece loses n life (summoner) or takes n
                   damage counters (summon)
``heal n``         the target regains n life (max 10) / loses n counters
``push n``         the target moves n spaces back (no space effects)
``advance n``      the target moves n spaces clockwise (no space effects)
``portal``         the target jumps to the next portal clockwise
``status s t``     the target gains status ``s`` for ``t`` of its owner's turns
``cleanse``        the target loses all status effects
``draw n``         the acting player draws n cards (not past the hand limit)
``discard n``      the target's owner discards n cards at random
``mana n``         the acting player recovers n used mana stones
``drain n``        the target's owner moves n active mana stones to used
``break_trap``     the trap on the target space is destroyed
``shatter``        one item equipped on the target (at random) is destroyed
``roll n``         (combat) +n to your die in this combat
``attack n``       (combat) +n damage if you win this combat
=================  =======================================================

Targets: ``self`` (the user), ``enemy``/``ally`` (one piece within range),
``space`` (every enemy piece on one space within range), ``opponent`` (the
combat opponent).  Statuses: see :data:`STATUSES`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardlab.engine import ContentError, load_json_file

EFFECTS: dict[str, int] = {  # kind -> number of arguments
    "damage": 1, "heal": 1, "push": 1, "advance": 1, "portal": 0, "status": 2, "cleanse": 0,
    "draw": 1, "discard": 1, "mana": 1, "drain": 1, "break_trap": 0, "shatter": 0, "roll": 1, "attack": 1,
}
COMBAT_ONLY = ("roll", "attack")
STATUSES: dict[str, str] = {
    "poisoned": "loses 1 life (or takes 1 damage) at the start of its owner's turn",
    "stunned": "cannot move",
    "weakened": "-1 to its combat die",
    "blessed": "+1 to its combat die",
    "shielded": "takes 1 less damage from each hit",
    "slowed": "moves 2 fewer spaces (at least 1)",
    "hasted": "moves 2 more spaces",
    "reversed": "moves counter-clockwise only, and may leave the halls backwards",
    "silenced": "cannot cast spells or use abilities",
}
TARGETS = ("self", "enemy", "ally", "space", "opponent")
MOVES = {"normal": "moves the roll", "swift": "moves 1 extra space", "slow": "moves 1 space less (at least 1)",
         "steadfast": "cannot be pushed back", "trapsense": "+2 to trap negation rolls"}
PASSIVES = ("attack", "roll", "guard", "trap_roll", "ward", "move")
TYPES = ("summon", "spell", "equip", "trap")


@dataclass(frozen=True, slots=True)
class Ability:
    name: str
    cost: int
    range: int
    when: str  # "action" (at will) or "combat" (before the dice)
    target: str
    effects: tuple[tuple, ...]


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    name: str
    type: str
    cost: int = 0
    lore: str = ""
    attack: int = 0
    life: int = 0
    move: str = "normal"
    ability: Ability | None = None
    range: int = 0
    target: str = "self"
    effects: tuple[tuple, ...] = ()
    summon_effects: tuple[tuple, ...] = ()
    negate: int = 0
    lasting: str = ""
    passive: tuple[tuple[str, int], ...] = ()

    def passive_value(self, key: str) -> int:
        for k, v in self.passive:
            if k == key:
                return v
        return 0


def _int(d: dict, key: str, where: str, low: int, high: int, default: int | None = None) -> int:
    v = d.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
        raise ContentError(f"{where}: '{key}' must be an integer {low}..{high}, got {v!r}")
    return v


def _effects(raw: Any, where: str, combat_ok: bool) -> tuple[tuple, ...]:
    if not isinstance(raw, list) or not raw:
        raise ContentError(f"{where}: 'effects' must be a non-empty list of [kind, args...]")
    out = []
    for e in raw:
        if not isinstance(e, list) or not e or e[0] not in EFFECTS:
            raise ContentError(f"{where}: unknown effect {e!r} (known: {', '.join(EFFECTS)})")
        kind = e[0]
        if len(e) != 1 + EFFECTS[kind]:
            raise ContentError(f"{where}: effect {kind!r} takes {EFFECTS[kind]} argument(s), got {e!r}")
        if kind == "status":
            if e[1] not in STATUSES:
                raise ContentError(f"{where}: unknown status {e[1]!r} (known: {', '.join(STATUSES)})")
            if isinstance(e[2], bool) or not isinstance(e[2], int) or not 1 <= e[2] <= 9:
                raise ContentError(f"{where}: status duration must be 1..9, got {e[2]!r}")
        elif EFFECTS[kind] == 1 and (isinstance(e[1], bool) or not isinstance(e[1], int) or not 1 <= e[1] <= 10):
            raise ContentError(f"{where}: effect {kind!r} needs an amount 1..10, got {e[1]!r}")
        if kind in COMBAT_ONLY and not combat_ok:
            raise ContentError(f"{where}: effect {kind!r} only works in combat abilities")
        out.append(tuple(e))
    return tuple(out)


def _ability(raw: Any, where: str) -> Ability:
    if not isinstance(raw, dict):
        raise ContentError(f"{where}: 'ability' must be an object")
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise ContentError(f"{where}: ability needs a 'name'")
    when = raw.get("when")
    if when not in ("action", "combat"):
        raise ContentError(f"{where}: ability 'when' must be 'action' or 'combat', got {when!r}")
    target = raw.get("target")
    allowed = ("self", "opponent") if when == "combat" else ("self", "enemy", "ally", "space")
    if target not in allowed:
        raise ContentError(f"{where}: a {when} ability's target must be one of {', '.join(allowed)}, got {target!r}")
    return Ability(name, _int(raw, "cost", where, 0, 10), _int(raw, "range", where, 0, 12, 0), when, target,
                   _effects(raw.get("effects"), where, when == "combat"))


def parse_card(raw: Any, where: str) -> Card:
    if not isinstance(raw, dict):
        raise ContentError(f"{where}: a card must be a JSON object")
    cid, name, typ = raw.get("id"), raw.get("name"), raw.get("type")
    if not isinstance(cid, str) or not cid or not isinstance(name, str) or not name:
        raise ContentError(f"{where}: a card needs a string 'id' and 'name'")
    where = f"{where} ({cid})"
    if typ not in TYPES:
        raise ContentError(f"{where}: 'type' must be one of {', '.join(TYPES)}, got {typ!r}")
    if typ == "summon":
        move = raw.get("move", "normal")
        if move not in MOVES:
            raise ContentError(f"{where}: 'move' must be one of {', '.join(MOVES)}, got {move!r}")
        lore = raw.get("lore")
        if not isinstance(lore, str):
            raise ContentError(f"{where}: a summon needs its folklore in 'lore'")
        return Card(cid, name, typ, _int(raw, "cost", where, 1, 12), lore, _int(raw, "attack", where, 0, 10),
                    _int(raw, "life", where, 1, 12), move, _ability(raw["ability"], where) if "ability" in raw else None)
    if typ == "spell":
        target = raw.get("target")
        if target not in ("self", "enemy", "ally", "space"):
            raise ContentError(f"{where}: a spell's target must be self, enemy, ally or space, got {target!r}")
        return Card(cid, name, typ, _int(raw, "cost", where, 0, 12), range=_int(raw, "range", where, 0, 12, 0),
                    target=target, effects=_effects(raw.get("effects"), where, False))
    if typ == "equip":
        lasting = raw.get("lasting")
        if lasting not in ("perpetual", "expended"):
            raise ContentError(f"{where}: 'lasting' must be 'perpetual' or 'expended', got {lasting!r}")
        passive = raw.get("passive", {})
        if not isinstance(passive, dict) or any(k not in PASSIVES for k in passive):
            raise ContentError(f"{where}: 'passive' keys must be among {', '.join(PASSIVES)}")
        pas = tuple((k, _int(passive, k, where, 1, 5)) for k in PASSIVES if k in passive)
        ability = _ability(raw["ability"], where) if "ability" in raw else None
        if ability is not None and ability.when != "action":
            raise ContentError(f"{where}: an equipment ability must have 'when': 'action'")
        if not pas and ability is None:
            raise ContentError(f"{where}: equipment needs a 'passive' or an 'ability'")
        return Card(cid, name, typ, _int(raw, "cost", where, 0, 12), ability=ability, lasting=lasting, passive=pas)
    return Card(cid, name, typ, 0, negate=_int(raw, "negate", where, 2, 6),
                effects=_effects(raw.get("effects"), where, False),
                summon_effects=_effects(raw.get("summon_effects", raw.get("effects")), where, False))


#: The kinds of content a content edit may name (``Game.content_kinds``; :mod:`boardlab.engine.content_edits`).
CONTENT_KINDS = {"card": "a card of the deck (one copy of each), named by its id, e.g. card:fireball"}


def load_cards(path: str | Path, edits: Any = None) -> dict[str, Card]:
    """Read and validate a card file; returns cards by id in file order.

    ``edits`` (a :class:`~boardlab.engine.content_edits.ContentEdits`) change the
    file's cards before validation: a removed card leaves the deck, a new card
    (its fields as in the file) joins it, a replacement changes a card's fields.
    """
    doc = load_json_file(path, "card file")
    where = f"card file {path}"
    if not isinstance(doc, dict) or not isinstance(doc.get("cards"), list) or not doc["cards"]:
        raise ContentError(f"{where}: must be an object with a non-empty 'cards' list")
    if edits:
        doc = {**doc, "cards": edits.apply_entries("card", doc["cards"], key="id")}
        if not doc["cards"]:
            raise ContentError(f"{where}: the content edits leave no card in the deck")
    cards: dict[str, Card] = {}
    for i, raw in enumerate(doc["cards"]):
        card = parse_card(raw, f"{where}, card #{i}")
        if card.id in cards:
            raise ContentError(f"{where}: duplicate card id {card.id!r}")
        cards[card.id] = card
    return cards


def default_cards_path() -> Path:
    return Path(__file__).with_name("data") / "cards.json"


def describe_effects(effects: tuple[tuple, ...]) -> str:
    parts = []
    for e in effects:
        k = e[0]
        if k == "status":
            parts.append(f"{e[1]} for {e[2]} turn{'s' if e[2] > 1 else ''}")
        elif k == "roll":
            parts.append(f"+{e[1]} to its combat die")
        elif k == "attack":
            parts.append(f"+{e[1]} damage if it wins")
        elif len(e) == 2:
            parts.append(f"{k} {e[1]}")
        else:
            parts.append(k.replace("_", " "))
    return ", ".join(parts)


def describe_ability(a: Ability) -> str:
    rng = f"range {a.range}" if a.range else "same space"
    when = "before the combat dice" if a.when == "combat" else "at will"
    return f"{a.name} ({a.cost} mana, {when}, {a.target}, {rng}): {describe_effects(a.effects)}"


#: An equipment's passive bonus in a player's words (issue 32: never the data key such as ``trap_roll``).
PASSIVE_WORDS = {"attack": "+{} damage when it wins a combat", "roll": "+{} to combat rolls", "guard": "{} less damage taken",
                 "trap_roll": "+{} to rolls against traps", "move": "+{} to movement rolls"}


def card_text(c: Card) -> str:
    """A one-line rules text generated from the data."""
    if c.type == "summon":
        ab = f"; {describe_ability(c.ability)}" if c.ability else ""
        return f"{c.lore}. Attack {c.attack}, life {c.life}, {c.move} ({MOVES[c.move]}){ab}"
    if c.type == "spell":
        rng = f"range {c.range}" if c.range else "own space"
        return f"{c.target}, {rng}: {describe_effects(c.effects)}"
    if c.type == "equip":
        pas = ", ".join(PASSIVE_WORDS[k].format(v) if k != "ward" else "negates one trap" for k, v in c.passive)
        parts = [c.lasting]
        if pas:
            parts.append(f"passive: {pas}")
        if c.ability:
            parts.append(describe_ability(c.ability))
        return "; ".join(parts)
    return f"negate on {c.negate}+; summoner: {describe_effects(c.effects)}; summon: {describe_effects(c.summon_effects)}"


# -- the card list of the rules document -------------------------------------------
def _row(cells: list[str]) -> str:
    return "| " + " | ".join(c.replace("|", "/") for c in cells) + " |"


def card_table(cards: dict[str, Card]) -> str:
    out: list[str] = []
    groups = [("summon", "Summons (40)"), ("spell", "Spells (20)"), ("equip", "Equipment (20)"), ("trap", "Traps (20)")]
    for typ, title in groups:
        out.append(f"### {title}\n")
        chosen = [c for c in cards.values() if c.type == typ]
        if typ == "summon":
            out.append(_row(["Card", "Folklore", "Cost", "Attack", "Life", "Movement", "Ability"]))
            out.append(_row(["---"] * 7))
            for c in chosen:
                out.append(_row([c.name, c.lore, str(c.cost), str(c.attack), str(c.life), c.move,
                                 describe_ability(c.ability) if c.ability else "-"]))
        elif typ == "spell":
            out.append(_row(["Card", "Cost", "Range", "Target", "Effect"]))
            out.append(_row(["---"] * 5))
            for c in chosen:
                out.append(_row([c.name, str(c.cost), str(c.range), c.target, describe_effects(c.effects)]))
        elif typ == "equip":
            out.append(_row(["Card", "Cost to equip", "Kind", "Effects"]))
            out.append(_row(["---"] * 4))
            for c in chosen:
                out.append(_row([c.name, str(c.cost), c.lasting, card_text(c).split("; ", 1)[1] if "; " in card_text(c) else "-"]))
        else:
            out.append(_row(["Card", "Negate on", "On a summoner", "On a summon"]))
            out.append(_row(["---"] * 4))
            for c in chosen:
                out.append(_row([c.name, f"{c.negate}+", describe_effects(c.effects), describe_effects(c.summon_effects)]))
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":  # pragma: no cover
    print(card_table(load_cards(default_cards_path())), end="")
