"""Armies content: the card table (``data/cards.json``) and deck lists (``data/decks/*.deck``).

Cards are the seed's 33 sample cards, kept as data; what a card *does* is
named by its fields (``effect``, ``ability``, ``target``, ``windows`` ...) and
carried out by :mod:`boardlab.games.armies.cards`.  Deck lists are plain text
files a user can edit or bring::

    # comment
    deck: Gnar Vanguard
    4 Teachings of Gnar
    4 Heavy Cavalry

Every problem raises :class:`~boardlab.engine.errors.ContentError` naming the
file and the problem.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardlab.engine.errors import ContentError
from boardlab.engine.game import load_json_file

HERE = Path(__file__).parent
CARDS_FILE = HERE / "data" / "cards.json"
DECK_DIR = HERE / "data" / "decks"
DOMAINS = "GELTS"
DOMAIN_NAMES = {"G": "Gnar", "E": "Ethyr", "L": "Lorin", "T": "Tor", "S": "Shives"}
CARD_TYPES = ("leader", "maneuver", "technique", "boon", "curse", "training", "strategy")
TARGETS = ("self", "enemy", "friend", "army", "attacker", "defender", "card")
EFFECTS = (
    "battlefield_dominance", "mind_fog", "against_all_odds", "ranged", "know_thy_enemy",
    "second_wind", "without_a_trace", "hold_the_line", "ambush", "disruption",
    "double_march", "weather", "unfavorable_war", "bows_and_knives", "caught_off_guard",
)
ABILITIES = ("blood_sacrifice", "unyielding")
WINDOWS = ("own", "attack", "after_dice", "card")
DECK_SIZE = 60
MAX_COPIES = 4
_COST = re.compile(r"^(\d*)([GELTS]*)$")


def parse_cost(text: str) -> tuple[int, ...]:
    """``"3GG"`` -> ``(3, 2, 0, 0, 0, 0)``: generic, then G, E, L, T, S.

    >>> parse_cost("1EEE")
    (1, 0, 3, 0, 0, 0)
    """
    m = _COST.match(text)
    if m is None:
        raise ValueError(f"bad skill cost {text!r} (expected e.g. '3GG', 'TTT', '1L')")
    generic = int(m.group(1)) if m.group(1) else 0
    return (generic, *(m.group(2).count(d) for d in DOMAINS))


def cost_text(cost: tuple[int, ...]) -> str:
    return (str(cost[0]) if cost[0] else "") + "".join(d * cost[i + 1] for i, d in enumerate(DOMAINS))


def skill_words(combo: str) -> str:
    """A General's three starting skill points in words (issue 32: no letter codes such as ``GGL``).

    >>> skill_words("GGT"), skill_words("TTT"), skill_words("GEL")
    ('2 Gnar + 1 Tor', 'all 3 in Tor', '1 each in Gnar, Ethyr, Lorin')
    """
    doms = sorted(set(combo), key=combo.index)
    if len(doms) == 1:
        return f"all {len(combo)} in {DOMAIN_NAMES[doms[0]]}"
    if len(doms) == 2 and len(combo) == 3:
        two = max(doms, key=combo.count)
        one = doms[1] if two == doms[0] else doms[0]
        return f"2 {DOMAIN_NAMES[two]} + 1 {DOMAIN_NAMES[one]}"
    if all(combo.count(d) == 1 for d in doms):
        return "1 each in " + ", ".join(DOMAIN_NAMES[d] for d in doms)
    return " + ".join(f"{combo.count(d)} {DOMAIN_NAMES[d]}" for d in doms)


#: A run of domain letters standing alone in a card's printed text ("E + Sacrifice...", "T: This army...").
_LETTERS = re.compile(r"(?<![\w'])([GELTS]+)(?![\w'])")


def plain_card_text(text: str) -> str:
    """A card's printed text with its skill-letter costs spelled out: ``"E + Sacrifice"`` -> ``"1 Ethyr + Sacrifice"``."""
    return _LETTERS.sub(lambda m: " + ".join(f"{m.group(1).count(d)} {DOMAIN_NAMES[d]}" for d in DOMAINS if d in m.group(1)), text)


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the table (immutable; states hold card *names*)."""

    name: str
    type: str
    line: str
    cost: tuple[int, ...]
    text: str
    target: str = ""
    restriction: str = ""
    effect: str = ""
    ability: str = ""
    windows: tuple[str, ...] = ()
    offense: int = 0
    defense: int = 0
    traits: tuple[str, ...] = ()
    power: int = 0
    domain: str = ""
    grants: str = ""
    draw: int = 0
    tokens: int = 0
    token_name: str = ""
    spend_leader: bool = False
    enters_ready: bool = False
    minor: bool = False
    untargetable: bool = False
    capture_rest: bool = False
    returns: bool = False
    bloodthirst: bool = False
    no_attack: bool = False
    no_rest: bool = False
    escape: str = ""

    @property
    def major(self) -> bool:
        """Is playing this card a major action?  (Everything but Techniques, Training, and Torani Cadet.)"""
        return self.type not in ("technique", "training") and not self.minor

    @property
    def cost_total(self) -> int:
        return sum(self.cost)

    @property
    def subtypes(self) -> tuple[str, ...]:
        _, _, rest = self.line.partition(" - ")
        return tuple(rest.split()) if rest else ()


_BOOL_FIELDS = ("spend_leader", "enters_ready", "minor", "untargetable", "capture_rest", "returns",
                "bloodthirst", "no_attack", "no_rest")
_INT_FIELDS = ("offense", "defense", "power", "draw", "tokens")
_STR_FIELDS = ("line", "text", "target", "restriction", "effect", "ability", "domain", "grants", "token_name", "escape")


#: The kinds of content a content edit may name (``Game.content_kinds``; :mod:`boardlab.engine.content_edits`).
CONTENT_KINDS = {"card": "a card, named as in the card table (e.g. card:Mind Fog or card:mind-fog); "
                         "removing or adding copies changes both decks"}


def load_cards(path: str | Path = CARDS_FILE, edits: Any = None) -> dict[str, Card]:
    """Read and validate a card table; returns name -> :class:`Card`.

    ``edits`` (a :class:`~boardlab.engine.content_edits.ContentEdits`) add new
    cards (their fields as in the table) and change cards' fields before
    validation; copies in the decks are edited by :func:`edit_deck`.
    """
    doc = load_json_file(path, "Armies card file")
    where = f"Armies card file {path}"
    if not isinstance(doc, dict) or not isinstance(doc.get("cards"), list):
        raise ContentError(f"{where} must be an object with a 'cards' list")
    if edits:
        doc = {**doc, "cards": edits.apply_definitions("card", doc["cards"], key="name")}
    out: dict[str, Card] = {}
    for i, raw in enumerate(doc["cards"]):
        if not isinstance(raw, dict):
            raise ContentError(f"{where}: card #{i + 1} is not an object")
        name = raw.get("name")
        if not isinstance(name, str) or not name.strip():
            raise ContentError(f"{where}: card #{i + 1} has no name")
        if name in out:
            raise ContentError(f"{where}: card {name!r} is listed twice")
        ctype = raw.get("type")
        if ctype not in CARD_TYPES:
            raise ContentError(f"{where}: card {name!r} has type {ctype!r}; allowed: {', '.join(CARD_TYPES)}")
        try:
            cost = parse_cost(raw.get("cost", ""))
        except (ValueError, TypeError):
            raise ContentError(f"{where}: card {name!r} has a bad cost {raw.get('cost')!r} (e.g. '3GG', 'TTT', '')") from None
        kw: dict[str, Any] = {}
        for key in _BOOL_FIELDS:
            if key in raw:
                if not isinstance(raw[key], bool):
                    raise ContentError(f"{where}: card {name!r} field {key!r} must be true or false")
                kw[key] = raw[key]
        for key in _INT_FIELDS:
            if key in raw:
                if isinstance(raw[key], bool) or not isinstance(raw[key], int) or raw[key] < 0:
                    raise ContentError(f"{where}: card {name!r} field {key!r} must be a whole number >= 0")
                kw[key] = raw[key]
        for key in _STR_FIELDS:
            if key in raw:
                if not isinstance(raw[key], str):
                    raise ContentError(f"{where}: card {name!r} field {key!r} must be a string")
                kw[key] = raw[key]
        for key in ("traits", "windows"):
            if key in raw:
                val = raw[key]
                if not isinstance(val, list) or not all(isinstance(v, str) for v in val):
                    raise ContentError(f"{where}: card {name!r} field {key!r} must be a list of strings")
                kw[key] = tuple(val)
        known = {"name", "type", "cost", *_BOOL_FIELDS, *_INT_FIELDS, *_STR_FIELDS, "traits", "windows"}
        extra = sorted(set(raw) - known)
        if extra:
            raise ContentError(f"{where}: card {name!r} has unknown field {extra[0]!r}")
        for key in ("line", "text"):
            if key not in kw:
                raise ContentError(f"{where}: card {name!r} needs a {key!r} (a string)")
        card = Card(name=name, type=ctype, cost=cost, **kw)
        _check_card(card, where)
        out[name] = card
    return out


def _check_card(c: Card, where: str) -> None:
    def bad(msg: str) -> ContentError:
        return ContentError(f"{where}: card {c.name!r} {msg}")

    if c.effect and c.effect not in EFFECTS:
        raise bad(f"has unknown effect {c.effect!r}; known: {', '.join(EFFECTS)}")
    if c.ability and c.ability not in ABILITIES:
        raise bad(f"has unknown ability {c.ability!r}; known: {', '.join(ABILITIES)}")
    if c.target and c.target not in TARGETS:
        raise bad(f"has unknown target {c.target!r}; known: {', '.join(TARGETS)}")
    for w in c.windows:
        if w not in WINDOWS:
            raise bad(f"has unknown window {w!r}; known: {', '.join(WINDOWS)}")
    if c.type in ("maneuver", "technique", "boon", "curse") and not c.target:
        raise bad("needs a 'target' (where it is played)")
    if c.type in ("maneuver", "technique") and not c.effect:
        raise bad("needs an 'effect'")
    if c.type == "technique" and not c.windows:
        raise bad("needs 'windows' (when it may be played)")
    if c.type == "training" and c.domain not in tuple(DOMAINS):
        raise bad(f"needs a 'domain' among {', '.join(DOMAINS)}")
    if c.type == "strategy" and not c.effect:
        raise bad("needs an 'effect'")
    if c.grants and c.grants not in ("longbow", "guerrilla"):
        raise bad(f"grants unknown ability {c.grants!r}")
    if c.restriction and c.restriction not in ("leader", "army", "general"):
        raise bad(f"has unknown restriction {c.restriction!r}")
    if c.escape and c.escape not in ("calm", "break"):
        raise bad(f"has unknown escape {c.escape!r}")


@dataclass(frozen=True, slots=True)
class DeckList:
    name: str
    cards: tuple[str, ...]
    source: str


def builtin_decks() -> list[str]:
    """Names of the shipped deck lists (file stems in ``data/decks/``)."""
    return sorted(p.stem for p in DECK_DIR.glob("*.deck"))


def deck_presets() -> dict[str, str]:
    """The deck options' presets: each shipped deck's name -> its file, relative to the package.

    Read from ``data/decks/``, so a deck file dropped there is a new preset without a code change.
    """
    return {name: (DECK_DIR / f"{name}.deck").relative_to(HERE).as_posix() for name in builtin_decks()}


def resolve_deck_path(spec: str | Path) -> Path:
    """A shipped deck name (``gnar-lorin``) or a path to a ``.deck`` file.

    The game's deck options do not come here by name: ``Game.content_path``
    turns a preset into its shipped file and anything else into the user's
    path.  Names are for callers of :func:`load_deck` (tests, scripts).
    """
    p = DECK_DIR / f"{spec}.deck"
    if p.exists():
        return p
    q = Path(spec)
    if q.exists():
        return q
    raise ContentError(f"no Armies deck {str(spec)!r}: not a shipped deck ({', '.join(builtin_decks())}) nor a file")


def parse_deck(text: str, cards: dict[str, Card], source: str = "<deck>") -> DeckList:
    """Parse and validate a deck list: 60 cards, at most 4 of a name, only known cards."""
    name = Path(source).stem
    counts: dict[str, int] = {}
    order: list[str] = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.lower().startswith("deck:"):
            name = line[5:].strip() or name
            continue
        m = re.match(r"^(\d{1,9})\s*x?\s+(.+)$", line)  # (a count of 10+ digits is no count: refused)
        if m is None:
            raise ContentError(f"deck {source} line {lineno}: expected '<count> <card name>', got {line!r}")
        count, card = int(m.group(1)), m.group(2).strip()
        if card not in cards:
            close = [c for c in cards if c.lower() == card.lower()]
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ContentError(f"deck {source} line {lineno}: unknown card {card!r}{hint}")
        if count < 1:
            raise ContentError(f"deck {source} line {lineno}: count must be at least 1")
        if card not in counts:
            order.append(card)
        counts[card] = counts.get(card, 0) + count
    for card in order:
        if counts[card] > MAX_COPIES:
            raise ContentError(f"deck {source}: {counts[card]} copies of {card!r}; at most {MAX_COPIES} of a name")
    total = sum(counts.values())
    if total != DECK_SIZE:
        raise ContentError(f"deck {source}: has {total} cards; a deck has exactly {DECK_SIZE}")
    return DeckList(name, tuple(c for c in order for _ in range(counts[c])), source)


def edit_deck(deck: DeckList, cards: dict[str, Card], edits: Any) -> DeckList:
    """``deck`` with the content edits' copies applied: a removed card leaves it, added copies
    (and a new card's ``copies``, default 1) join it, a replaced card's copies become the other card.
    The 60-card and 4-copy deck-building limits do not bind an experiment."""
    if not edits:
        return deck
    return DeckList(deck.name, tuple(edits.apply_pool("card", deck.cards, cards)), deck.source)


def load_deck(spec: str | Path, cards: dict[str, Card]) -> DeckList:
    path = resolve_deck_path(spec)
    from boardlab.engine.files import read_text  # the one bounded reader of user files (issue 31)

    return parse_deck(read_text(path, "deck"), cards, str(path))
