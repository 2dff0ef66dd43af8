"""Issue 32: a stranger can read every game.  No player-facing string shows an internal id.

Seeded playouts of every registered built-in game (each variant, the fewest and the most
players, a random and a heuristic playout) collect every string a player reads: the
labels of the legal actions, and from every seat's scene (and the spectator's) the
title, status, prompt, hint, why-not reasons, panel rows and cards, board titles and
hover texts and target labels, then every seat's event log.  Each string is checked
for the shapes internal ids take:

* a short code with a number (``m5``, ``P0``, ``S14``, ``B1``) that no board of the
  game shows: a square named by the board's axes (Blackfire's ``m5`` is the square
  in column m, row 5), a cell or node label or a piece's text on the board;
* a letter code (``GGL``, ``pay E``, ``the E side``): capital letters that are not a
  word, a square or a label the board shows;
* a snake_case identifier (``trap_roll``);
* an agent spec (``ismcts``, ``persona:mystic``);
* a Python value (``None``, ``True``, ``('move', 3)``, ``<... object>``);
* a choice named by a bare index: an action or target label, or a panel value, that is words and a
  number alone (``move 17``, ``defend with summon 3``: cell 17 and summon 3 are ids, not names).

Each shape is a numbered rule in docs/architecture.md, "How to add a game", "Label rules";
a failure names the rule it broke and how to fix it (:data:`RULES`).

The glyphs drawn on the board (a cell's label, a piece's text and badge, a node's
label, the axes) are the names the board shows, not prose: they are where codes are
explained, so they are not checked themselves.
"""

from __future__ import annotations

import re

import pytest

from boardlab.agents import Decision, make_agent
from boardlab.engine import make
from boardlab.engine.registry import BUILTIN, game_class

#: Scene keys whose strings are ids or board glyphs, not prose (see the module docstring).
NOT_PROSE = frozenset({
    "id", "clicks", "node", "seat", "action", "kind", "shape", "color", "fill", "side", "data", "index",
    "edges", "col_labels", "row_labels",
})
#: Capitalised words that are plain English to a player, not codes.
WORDS = frozenset({"A", "I", "HP", "II", "III", "IV"})

CODE = re.compile(r"(?<![\w'#-])([A-Za-z]+\d+[a-z]?)(?![\w'])")
CAPS = re.compile(r"(?<![\w'#-])([A-Z][A-Z]+|[B-HJ-Z])(?![\w'’-])")
SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
AGENT = re.compile(r"persona:|\bismcts\b|\bmcts\b")
PYTHON = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|[(\[{]\s*['\"]|<[\w.]+ object\b")
BARE = re.compile(r"^[a-z][a-z ]* \d+$")
#: Where a string names a choice or a thing (so a bare number in it is an index, not a count).
CHOICES = ("action label", "scene label", "scene rows")

DECISIONS = 160  # per playout: enough to reach combat, cards and the end of most games


def _configs(game_id: str) -> list[tuple[str, int, str]]:
    cls = game_class(game_id)
    counts = sorted({cls.min_players, cls.max_players})
    return [(v.name, n, agent) for v in cls.variants for n in counts for agent in ("random", "heuristic")]


def _prose(obj, key: str = ""):
    """(where, string) for every prose string of a scene; board glyphs are collected apart."""
    if key in NOT_PROSE:
        return
    if isinstance(obj, str):
        yield key, obj
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from _prose(v, key)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from _prose(v, k)


def _board_names(scene: dict) -> set[str]:
    """Every name the scene's boards show: squares by their axes, cell and node labels, piece texts."""
    names: set[str] = set()
    for b in scene.get("boards") or ():
        cols, rows = b.get("col_labels") or [], b.get("row_labels") or []
        names.update(f"{c}{r}" for c in cols for r in rows)
        for c in b.get("cells") or ():
            names.update(str(c.get("label") or "").split())
        for n in b.get("nodes") or ():
            names.update(str(n.get("label") or "").split())
        for it in b.get("items") or ():
            names.update(str(it.get("text") or "").split())
    return names


def _glyphless(scene: dict) -> dict:
    """The scene without the board glyphs (cell labels, piece texts), which are names, not prose."""
    out = dict(scene)
    boards = []
    for b in scene.get("boards") or ():
        b = dict(b)
        b["cells"] = [{k: v for k, v in c.items() if k != "label"} for c in b.get("cells") or ()]
        b["nodes"] = [{k: v for k, v in n.items() if k != "label"} for n in b.get("nodes") or ()]
        b["items"] = [{k: v for k, v in it.items() if k not in ("text", "badge")} for it in b.get("items") or ()]
        boards.append(b)
    out["boards"] = boards
    return out


def player_strings(game_id: str, variant: str, players: int, agent: str, seed: int = 1):
    """(strings by where they were seen, the names the boards showed) along one seeded playout."""
    game = make(game_id, players=players, variant=variant)
    bots = [make_agent(agent, game, s, seed * 7 + s) for s in range(players)]
    state = game.new_state(seed)
    seen: dict[str, set[str]] = {}
    names: set[str] = set()
    while True:
        acting = state.current_seat()
        for seat in [*range(players), None]:
            mine = seat is not None and seat == acting
            if not mine and state.decisions % 4 and not state.is_over():
                continue  # the other seats' scenes every fourth decision: they change less
            scene = game.scene(state.view(seat), state.legal_actions() if mine else ())
            names |= _board_names(scene)
            for where, s in _prose(_glyphless(scene)):
                seen.setdefault(f"scene {where}", set()).add(s)
        for a in state.legal_actions():
            seen.setdefault("action label", set()).add(state.describe(a))
        if state.is_over() or state.decisions >= DECISIONS:
            break
        state.apply(bots[acting].act(Decision(state, acting)))
    for seat in [*range(players), None]:
        for ev in state.events(seat):
            seen.setdefault("log", set()).add(ev["text"])
    return seen, names


#: The label rules (docs/architecture.md, "How to add a game", "Label rules"): each rule's name, and how to fix
#: a string that breaks it.
RULES = {
    "code": ("1. a short code with a number that no board shows (P1, S14, m1)",
             "write the name (\"Player 1\", \"summon 14\"), or show the code on the board (a piece's text, an axis)"),
    "caps": ("2. capital letters that are not a word or a name the board shows (GGL, pay E)",
             "write the word (\"pay 1 gold\", \"the east side\")"),
    "snake": ("3. a snake_case identifier (trap_roll)", "write it in words (\"trap roll\")"),
    "agent": ("4. an agent spec (ismcts, persona:mystic)", "use the agent's display name"),
    "python": ("5. a Python value (None, True, ('move', 3))", "format the value for a player (\"-\", \"yes\", a label)"),
    "bare": ("6. a choice named by words and a bare number (bid 4, move 17): the number reads as an index",
             "say what the number is: \"bid the 4 card\", \"move 2 to square 5\", \"take 3 coins\""),
}


def breaches(text: str, names: set[str], choice: bool = False) -> list[tuple[str, str]]:
    """``(what, rule)`` for every internal id in ``text``, ``rule`` a key of :data:`RULES`; ``choice``:
    ``text`` names a choice or a thing (an action or target label, a panel value), where a bare number is an index."""
    upper = {n.upper() for n in names}
    bad = [(m, "code") for m in CODE.findall(text) if m.upper() not in upper]
    bad += [(m, "caps") for m in CAPS.findall(text) if m not in WORDS and m.upper() not in upper]
    bad += [(m, "snake") for m in SNAKE.findall(text)] + [(m, "agent") for m in AGENT.findall(text)]
    bad += [(m, "python") for m in PYTHON.findall(text)]
    if choice and BARE.match(text):
        bad.append((text, "bare"))
    return bad


def jargon(text: str, names: set[str], choice: bool = False) -> list[str]:
    """The internal ids in ``text`` (empty when a stranger can read it); see :func:`breaches`."""
    return [what for what, _rule in breaches(text, names, choice)]


def report(found: dict[tuple[str, str], str]) -> str:
    """The failure message: each broken rule, how to fix it, and where (``found``: (rule, where: code) -> example)."""
    lines = ["internal ids a stranger cannot read (the label rules: docs/architecture.md, \"How to add a game\", \"Label rules\"):"]
    for rule in RULES:
        hits = sorted((k[1], v) for k, v in found.items() if k[0] == rule)
        if hits:
            name, fix = RULES[rule]
            lines.append(f"rule {name}\n  fix: {fix}")
            lines += [f"  {where} in {example}" for where, example in hits[:20]]
    return "\n".join(lines)


def test_the_checker_finds_ids_and_spares_names():
    names = {"m5", "A1", "CV", "S1", "TOWER"}
    assert jargon("Tokens flipped on A1: X m1", names) == ["m1", "X"]
    assert jargon("The green archer moves to m5 (CV, S1); TOWER", names) == []
    assert jargon("Black gives the General GGL; pays 1 G", names) == ["GGL", "G"]
    assert jargon("P0 vs S14; passive: trap_roll +1; your move: move2 12 13", names) == ["P0", "S14", "move2", "trap_roll"]
    assert jargon("bot · persona:mystic, ismcts", names) == ["persona:", "ismcts"]
    assert jargon("held None ('move', 3)", names) == ["None", "('"]
    assert jargon("A hero with 3 HP; I see exit #4", names) == []
    assert jargon("move 17", names, choice=True) == ["move 17"] and jargon("move to A1", names, choice=True) == []
    assert jargon("mana 5", names) == []  # a count, where no choice is named


@pytest.mark.parametrize("game_id", sorted(BUILTIN))
def test_no_internal_ids_in_what_players_read(game_id):
    found: dict[tuple[str, str], str] = {}
    for variant, players, agent in _configs(game_id):
        seen, names = player_strings(game_id, variant, players, agent)
        for where, strings in seen.items():
            for s in sorted(strings):
                for code, rule in breaches(s, names, where in CHOICES):
                    found.setdefault((rule, f"{where}: {code!r}"), f"{s!r} ({variant}, {players} players, {agent})")
    assert not found, report(found)


def test_the_failure_message_names_the_broken_rule_and_its_fix():
    """Issue 46: the docs' own style (bid 4) and P1 in a panel failed with no word of which rule or how to fix it."""
    found = {}
    for where, text, choice in (("action label", "bid 4", True), ("scene rows", "P1 leads", False)):
        for code, rule in breaches(text, set(), choice):
            found[(rule, f"{where}: {code!r}")] = repr(text)
    assert sorted(rule for rule, _ in found) == ["bare", "code"]
    message = report(found)
    assert "rule 6. a choice named by words and a bare number" in message and "bid the 4 card" in message
    assert "rule 1. a short code with a number" in message and '"Player 1"' in message
    assert "action label: 'bid 4' in 'bid 4'" in message and "scene rows: 'P1' in 'P1 leads'" in message
    assert breaches("bid the 4 card", set(), True) == [] and breaches("Player 1 leads", set()) == []
