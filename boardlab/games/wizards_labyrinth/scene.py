"""The scene of The Wizard's Labyrinth, built from a seat's view only (so it cannot leak).

The board is the tile grid: face-down rooms (blank, dark; the wizard sees ``key``
on his hidden key tiles), flipped rooms with their card/mana values, the key
tiles, the start tile and the tower (walled on every side but the entrance).
Items are the tokens (face down when the viewer does not know them), the
heroes (badge: hit points) and dropped loot.  A second board draws the mana
wheel as a ring of its values with a pointer (badge: mana left this turn).  Panels show the wizard's mana
wheel, hand (to the wizard only) and deck sizes, each hero's HP, keys,
equipment and hand, and the cards of the current prompt.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from boardlab.engine.components import DIRECTIONS
from boardlab.engine.scene import cell_id, chess_axes, status_line

from .board import DIRECTION_NAMES, cell_name, ring_cells, stack_position, token_name
from .view import card_gist

HERO_COLORS = ("#1f77b4", "#2ca02c", "#d68b00", "#17becf")
TOKEN_TEXT = {"T": "T", "X": "X"}

PROMPTS = {
    "tower": "Wizard: choose the centre tile for the tower",
    "entrance": "Wizard: choose the direction the tower entrance faces",
    "key": "Wizard: hide a key tile (the heroes close their eyes)",
    "keep": "Wizard: keep cards from the opening draw",
    "rage": "Wizard's rage: remove a tile",
    "main": "Wizard: play cards with your mana, then end the turn",
    "place": "Wizard: place the next token",
    "spell_target": "Wizard: choose the tile to target",
    "gate": "Wizard: turn the tower entrance",
    "switch_hero": "Switcheroo: choose a hero",
    "switch_token": "Switcheroo: choose the token to swap with",
    "whirl_target": "Whirlwind: choose a room with heroes",
    "whirl_push": "Whirlwind: choose where the hero is blown",
    "discard": "Wizard: discard a card",
    "move": "Hero: choose your move (secret until every hero has chosen)",
    "boost": "Hero: play combat bonuses before the dice",
    "loot": "Heroes: choose who takes which loot card",
    "retreat": "Choose the tile the beaten hero retreats to",
}


def _prompt_text(game: Any, st: dict[str, Any], prompt: dict[str, Any]) -> str:
    """The prompt line; the opening keep and token placing say their counts (a new player missed them)."""
    o = game.option_values
    if prompt["kind"] == "keep":
        left = o["opening_keep"] - st["wizard"]["hand_size"]
        return (f"Wizard: keep {o['opening_keep']} of the {o['opening_draw']} cards of the opening draw"
                f" ({left} more to choose)")
    if prompt["kind"] == "place":
        return f"Wizard: place the next token (at most {game.token_limit} tokens on a tile)"
    return PROMPTS.get(prompt["kind"], "")


def _cell_label(tile: dict[str, Any]) -> tuple[str, str, str]:
    st, kind = tile["state"], tile.get("kind")
    if st == "removed":
        return "", "#222222", "destroyed by the wizard's rage"
    if kind == "tower":
        return "TOWER", "#7a4fb5", "the wizard's tower and mana wheel"
    if kind == "start":
        return "START", "#a8d5a2", "the heroes' start tile"
    if st == "down":
        if kind == "key":
            return "key", "#8a6d2f", "face-down key tile (only you know)"
        return "", "#6b5b45", "face-down room"
    vals = f"{tile['draw']:+d}/{tile['mana']:+d}"
    if kind == "key":
        return "KEY", "#f3d36b", "key tile" + (" (key still guarded)" if tile.get("unclaimed") else "")
    return vals, "#e8dcc0", f"room (cards/mana): wizard cards {tile['draw']:+d}, mana wheel {tile['mana']:+d}"


def build_scene(game: Any, view: dict[str, Any], actions: Sequence[tuple] = ()) -> dict[str, Any]:
    st = view["state"]
    n = st["size"]
    seat = view["seat"]
    names = game.seat_names()
    xy = lambda c: (c % n, c // n)  # noqa: E731
    cid = lambda c: cell_id("main", *xy(c))  # noqa: E731
    cells, items, walls = [], [], []
    for c, tile in enumerate(st["tiles"]):
        label, fill, title = _cell_label(tile)
        x, y = xy(c)
        cells.append({"x": x, "y": y, "fill": fill, "label": label, "title": title, "blocked": tile["state"] == "removed"})
    tx, ty = xy(st["tower"])
    for side in DIRECTIONS:
        if st["entrance"] and side != st["entrance"]:
            walls.append({"x": tx, "y": ty, "side": side, "color": "#3b1f63"})
    for c, toks in enumerate(st["tokens"]):
        x, y = xy(c)
        for i, face in enumerate(toks):
            text = "?" if face is None else TOKEN_TEXT.get(face, face[1:])
            kind = "blank" if face == "X" else "trap" if face == "T" else "unknown" if face is None else f"level {face[1:]} monster"
            items.append({"id": f"tok{c}-{i}", "x": x, "y": y, "text": text, "shape": "token", "face_down": face is None,
                          "color": "#444" if face is None else "#b22" if face and face[0] == "m" else "#a60", "title": kind})
    for c, keys, cards in st["dropped"]:
        x, y = xy(c)
        items.append({"id": f"drop{c}", "x": x, "y": y, "text": "loot", "shape": "card", "badge": str(keys) if keys else "",
                      "title": f"dropped: {keys} key(s), {', '.join(cards) or 'no cards'}"})
    for h in st["heroes"]:
        if not h["alive"]:
            continue
        x, y = xy(h["pos"])
        flags = [f for f in ("frozen", "stuck", "sprint") if h[f]]
        items.append({"id": f"hero{h['seat']}", "x": x, "y": y, "text": f"H{h['seat']}", "shape": "circle",
                      "color": HERO_COLORS[(h["seat"] - 1) % 4], "badge": str(h["hp"]),
                      "title": f"Hero {h['seat']}: {h['hp']} HP, {h['keys']} key(s)" + (f" ({', '.join(flags)})" if flags else "")})
    panels = [_wizard_panel(game, st, view)]
    for h in st["heroes"]:
        panels.append(_hero_panel(game, h, view))
    panels.append({"title": "Quest", "rows": [
        ["Keys found", f"{st['keys_taken']} (need {st['keys_needed']})"],
        ["Tower door", "open" if st["door_open"] else "locked"],
        ["Rage (the wizard destroys tiles each turn once the keys are taken)", "yes" if st["rage"] else "no"],
        ["Loot deck", str(st["loot"]["deck"])],
        ["Loot discard", str(len(st["loot"]["discard"]))],
    ]})
    prompt = st["prompt"]
    if prompt and prompt.get("cards") is not None:
        prefix = "open" if prompt["kind"] == "keep" else "offer"
        panels.append({"title": "Cards offered", "rows": [], "cards": [
            {"id": f"{prefix}-{i}", "name": name, "text": _card_text(game, name)} for i, name in enumerate(prompt["cards"])]})
    if prompt and prompt["kind"] == "place" and prompt.get("tokens") is None:
        panels.append({"title": f"Tokens of {prompt.get('card')} to place", "rows": [["Left to place", str(prompt["tokens_left"])]]})
    elif prompt and prompt["kind"] == "place":
        panels.append({"title": f"Tokens of {prompt.get('card')} to place", "rows": [["Left to place", str(prompt["tokens_left"])]],
                       "cards": [{"id": f"tok-{k}", "name": _token_count(k, prompt["tokens"].count(k))}
                                 for k in sorted(set(prompt["tokens"]))]})
    targets = _targets(st, actions, cid, lambda c: cell_name(game, c), lambda n: card_gist(game, n))
    why_not = why_not_map(game, view, {c for t in targets for c in t["clicks"]})
    for panel in panels:
        for card in panel.get("cards") or ():
            if f"card:{card['id']}" in why_not:
                card["why_not"] = why_not[f"card:{card['id']}"]
    acting = view.get("acting")
    hint = decision_hint(game, st, prompt, actions) if prompt and acting == seat and seat is not None and not view.get("over") else ""
    if hint and prompt["kind"] == "main" and seat == 0:
        blocked = {name: why_not[f"card:wiz-{i}"] for i, name in enumerate(st["wizard"]["hand"] or ())
                   if f"card:wiz-{i}" in why_not}
        if blocked:  # one short line per card (issue 44); the card itself shows the whole reason
            hint += "\nNot playable now:" + "".join(f"\n\u2022 {n}: {_short_reason(r)}" for n, r in blocked.items())
    status = status_line(view, names)
    if not view.get("over"):
        status += f" - {st['phase']} phase"
    over_note = _over_note(game, st, view) if view.get("over") else ""
    return {
        "title": game.name,
        "status": status,
        "prompt": _prompt_text(game, st, prompt) if prompt and acting == seat and seat is not None else "",
        "boards": [{"id": "main", "kind": "grid", "cols": n, "rows": n, **chess_axes(n, n, upper=True), "cells": cells, "walls": walls, "items": items},
                   _wheel(st["wizard"])],
        "panels": panels,
        "targets": targets,
        "why_not": why_not,
        **({"action_labels": labels} if (labels := action_labels(game, st, actions)) else {}),
        **({"key_notes": notes} if (notes := key_notes(st)) else {}),
        **({"hint": hint} if hint else {}),
        **({"over_note": over_note} if over_note else {}),
    }


#: The Key's lines for the words on the board (the second fresh trial, issue 44: "+2/-1", "(stuck)").
ROOM_NOTE = ("A face-up room's label, such as +2/-1: when the room was flipped the wizard drew that many"
             " cards (a minus: discarded that many) and the mana wheel turned by the second number"
             " (a minus: the wizard lost that much mana).")
HERO_NOTES = {
    "frozen": "(frozen): hit by a Frost Bolt, the hero neither moves nor fights until the heroes' turn ends.",
    "stuck": "(stuck): a token shares the hero's tile, so this turn the hero cannot leave it and can only stay.",
    "sprint": "(sprint): the hero played Sprint and may move two tiles this turn.",
}


def key_notes(st: dict[str, Any]) -> list[str]:
    """The Key's lines explaining a face-up room's values and the marks after a hero's name (the
    scene's ``key_notes``): only those the board shows now."""
    notes = []
    if any(t["state"] == "up" and t.get("kind") == "room" for t in st["tiles"]):
        notes.append(ROOM_NOTE)
    marks = {f for h in st["heroes"] if h["alive"] for f in HERO_NOTES if h[f]}
    notes += [HERO_NOTES[f] for f in HERO_NOTES if f in marks]
    return notes


def _over_note(game: Any, st: dict[str, Any], view: dict[str, Any]) -> str:
    """Why the game ended, in plain words, under the result (the fresh person's trial, issue 44: the
    heroes' win through a tower with no monster in it was not explained)."""
    res = view.get("results") or {}
    if res.get("truncated"):
        return ""
    if 0 in (res.get("winners") or []):
        return "The wizard won: every hero died in his labyrinth."
    tower = cell_name(game, st["tower"])
    note = (f"The heroes won: with {st['keys_needed']} key(s) they opened the tower ({tower}), a hero stepped in,"
            " and no monster there was left to stop him. A tower holding no monster token falls at once, without"
            " a fight; the wizard guards it by placing monster tokens in it once the heroes have the keys.")
    return note


def _short_reason(reason: str) -> str:
    """A card's why-not reason cut to a few words for the hint's one line per card."""
    import re

    m = re.match(r"it costs (\d+) mana and you have (\d+) left", reason)
    if m:
        return f"costs {m.group(1)} mana, you have {m.group(2)}"
    return reason.split(" (")[0].split(": ")[0]


def _token_count(kind: str, n: int) -> str:
    """``2 blanks``, ``1 level 3 monster``: each kind of token still to place, with how many."""
    name = {"X": "blank", "T": "trap"}.get(kind, f"level {kind[1:]} monster")
    return f"{n} {name}{'s' if n != 1 else ''}"


def _switch_reason(game: Any, st: dict[str, Any], h: dict[str, Any]) -> str:
    """Why Switcheroo cannot pick living hero ``h``, from the view."""
    n = len(st["tokens"][h["pos"]])
    if n >= game.token_limit:
        return f"Hero {h['seat']}'s tile already holds {n} tokens, the most a tile may hold, so no token can land there"
    others = [o for o in st["heroes"] if o["alive"] and o is not h and o["pos"] == h["pos"]]
    if others and not game.option_values["switcheroo_onto_heroes"]:
        return f"Hero {h['seat']} shares his tile with another hero, and tokens never land on a hero's tile"
    return f"no token on the board can swap with Hero {h['seat']} (none on a tile still joined to the tower)"


def decision_hint(game: Any, st: dict[str, Any], prompt: dict[str, Any], actions: Sequence[tuple] = ()) -> str:
    """One line that explains the acting seat's decision: the goals, the limits, why a choice is missing."""
    o = game.option_values
    kind = prompt["kind"]
    need = st["keys_needed"]
    goal = (f"The wizard hides 3 key tiles; once the heroes hold {need} key(s) the tower opens, and a hero who"
            " reaches the tower and beats its monsters wins for the heroes. The wizard wins if every hero dies."
            + (" Once the tower opens the wizard rages: each of his turns starts by destroying tiles." if o["rage"] else ""))
    start = cell_name(game, st["start"]) if st.get("start") is not None else "the start"
    if kind == "tower":
        return ("Your tower goes on one of the centre tiles. The heroes start on " + start + " and must walk to it"
                f" holding {need} key(s); a tower farther from their start is a longer walk for them.")
    if kind == "entrance":
        return ("The tower has walls on three sides: the heroes can enter it only from the tile in front of its"
                f" entrance. An entrance facing away from their start ({start}) makes them walk around the tower.")
    if kind == "key":
        return (f"You hide 3 key tiles in all, face down, by clicking face-down rooms; only you see where. The heroes"
                f" need {need} of them to open your tower. Tip: keys far from their start ({start}) and from each"
                " other make them search longer. You lose if a hero gets into the tower and beats its monsters.")
    if kind == "keep":
        return (f"You drew {o['opening_draw']} cards and keep {o['opening_keep']} of them, one at a time;"
                " the others go back into your deck.")
    if kind == "rage":
        return ("Rage: once the heroes hold the keys, each of your turns begins by destroying tiles, one per player."
                " Only tiles whose loss still leaves every hero (and every dropped key) a way to the tower can go;"
                " the tower's neighbours and the heroes' tiles always stay.")
    if kind == "main":
        return (f"Cards cost mana from your wheel ({st['wizard']['mana_left']} left this turn); the rooms the heroes flip"
                " turn the wheel. You lose if a hero reaches the tower and beats its monsters.")
    if kind == "place":
        return (f"Tokens go face down on tiles with no hero, at most {game.token_limit} on a tile (the number of"
                " players); the blanks hide where the real ones are. If no tile can take the rest, they are not placed.")
    if kind == "switch_hero":
        offered = {a[1] for a in actions if a[0] == "hero"}
        missing = [h for h in st["heroes"] if h["alive"] and h["seat"] not in offered]
        reasons = "; ".join(_switch_reason(game, st, h) for h in missing)
        return "Switcheroo swaps a hero with a token elsewhere" + (f"; not offered: {reasons}." if reasons else ".")
    if kind == "move":
        return goal
    if kind == "boost":
        me = next((h for h in st["heroes"] if h["seat"] == prompt["seat"]), None)
        if me is None:
            return ""
        here = [h for h in st["heroes"] if h["alive"] and h["pos"] == me["pos"] and not h["frozen"]]
        levels = sum(int(t[1:]) for t in st["tokens"][me["pos"]] if t and t[0] == "m")
        cards = game.content.loot_cards
        bonus = sum(getattr(cards.get(e), "combat", 0) or 0 for h in here for e in h["equipment"])
        best = "add their dice" if o["combine_rolls"] else "the best die counts"
        return (f"The wizard will roll a twenty-sided die + {levels} (the monsters' levels here); the heroes here roll"
                f" one each ({best}) + {bonus} from equipment, + any bonus played now; a tie goes to the heroes.")
    if kind == "loot":
        keep = prompt.get("keep")
        return (f"The heroes keep {keep} more of these cards: give each to one of the heroes here;"
                " the cards not taken are discarded.") if keep else ""
    return ""


def _placeable_text(game: Any, st: dict[str, Any], c: int, token: str | None = None) -> str | None:
    """Why no token (or ``token``) may go on tile ``c``, from the view, or None if one may."""
    heroes = {h["pos"] for h in st["heroes"] if h["alive"]}
    n = len(st["tokens"][c])
    if st["tiles"][c]["state"] == "removed":
        return "the tile was destroyed by the wizard's rage"
    if c in heroes:
        return "a hero stands there: tokens never go on a hero's tile"
    if n >= game.token_limit:
        return f"the tile holds {n} tokens, the most one tile may hold ({game.token_limit})"
    if c == st["tower"] and not st["tower_open"]:
        return "the tower takes tokens only once the heroes have taken the keys"
    if c == st["tower"] and token == "T":
        return "no trap goes in the tower"
    return None


def _rage_reason(game: Any, st: dict[str, Any], c: int) -> str:
    """Why the raging wizard may not destroy tile ``c``, from the view."""
    n = st["size"]
    if st["tiles"][c]["state"] == "removed":
        return "the tile is already destroyed"
    if c == st["tower"]:
        return "the tower itself cannot be destroyed"
    if c in ring_cells(n, st["tower"]):
        return "the tiles around the tower always stay"
    if any(h["alive"] and h["pos"] == c for h in st["heroes"]):
        return "a hero stands there"
    if any(k and d == c for d, k, _cards in st["dropped"]):
        return "a dropped key lies there"
    return "destroying it would cut a hero or a dropped key off from the tower"


def _wizard_card_reason(game: Any, st: dict[str, Any], name: str) -> str:
    card = game.content.wizard_cards[name]
    left = st["wizard"]["mana_left"]
    if card.cost > left:
        return f"it costs {card.cost} mana and you have {left} left this turn"
    living = [h for h in st["heroes"] if h["alive"]]
    if card.type != "spell":
        token = card.tokens()[0]
        if all(_placeable_text(game, st, c, token) for c in range(len(st["tiles"]))):
            return (f"no tile can take its tokens: every tile has a hero on it, holds {game.token_limit} tokens"
                    " (the limit) or is destroyed")
        return "it cannot be played now"
    if card.effect in ("frost_bolt", "fireball") and not living:
        return "no living hero to target"
    if card.effect == "shifting_gate" and not st["entrance"]:
        return "the tower has no entrance to turn yet"
    if card.effect == "switcheroo":
        return f"no hero can swap with a token now (the token must land on a tile holding fewer than {game.token_limit} tokens, with no other hero)"
    if card.effect == "whirlwind":
        return "no room with heroes has a tile beside it to blow them to"
    return "it cannot be played now"


def _loot_reason(game: Any, st: dict[str, Any], me: dict[str, Any], name: str, kind: str) -> str:
    card = game.content.loot_cards[name]
    if kind == "boost":
        return "only combat bonuses (such as Battle Elixir) can be played before these dice"
    if card.effect == "heal":
        return f"you are at full health ({me['hp']} HP)" if kind == "move" else "a potion is drunk on your movement decision"
    if card.effect == "sprint":
        if kind != "move":
            return "Sprint is played on your movement decision"
        return "you are stuck on a tile with tokens, so you cannot sprint" if me["stuck"] else "you already sprint this turn"
    if card.effect == "boost":
        return "a combat bonus: it is played in a fight, before the dice"
    if card.type == "equipment":
        return f"equipment kept in hand: you already wear the most {card.slot} items allowed"
    return "it cannot be played now"


def why_not_map(game: Any, view: dict[str, Any], used: set[str]) -> dict[str, str]:
    """Why the acting seat cannot use each card or tile that no legal action's target clicks
    (click id -> reason), from its view only; empty when the seat is not acting."""
    st = view["state"]
    seat = view.get("seat")
    prompt = st["prompt"]
    out: dict[str, str] = {}
    if seat is None or view.get("acting") != seat or view.get("over") or not prompt:
        return out
    n = st["size"]
    cid = lambda c: cell_id("main", c % n, c // n)  # noqa: E731
    kind = prompt["kind"]
    first = "finish this step first: " + PROMPTS.get(kind, kind).split(": ", 1)[-1].lower()
    cells = range(len(st["tiles"]))
    if seat == 0:
        for i, name in enumerate(st["wizard"]["hand"] or ()):
            click = f"card:wiz-{i}"
            if click not in used:
                out[click] = _wizard_card_reason(game, st, name) if kind == "main" else first
        for c in cells:
            if cid(c) in used:
                continue
            if kind == "place":
                out[cid(c)] = _placeable_text(game, st, c) or "none of the tokens left to place may go there"
            elif kind in ("spell_target", "whirl_target"):
                out[cid(c)] = "no hero is there" if not any(h["alive"] and h["pos"] == c for h in st["heroes"]) \
                    else "no tile beside it to blow the heroes to"
            elif kind == "main":
                out[cid(c)] = "play a card first: tokens are placed with a monster or trap card"
            elif kind == "rage":
                out[cid(c)] = _rage_reason(game, st, c)
            else:
                out[cid(c)] = first
        return out
    me = next(h for h in st["heroes"] if h["seat"] == seat)
    for i, name in enumerate(me["hand"] or ()):
        click = f"card:h{seat}-{i}"
        if click not in used and kind in ("move", "boost"):
            out[click] = _loot_reason(game, st, me, name, kind)
    if kind == "move":
        near = set(game.grid.neighbours(me["pos"]))
        for c in cells:
            if cid(c) in used:
                continue
            tile = st["tiles"][c]
            if me["stuck"]:
                out[cid(c)] = "a token shares your tile: you are stuck this turn and can only stay"
            elif c == me["pos"]:
                out[cid(c)] = "you are here: choose 'stay' to stay"
            elif tile["state"] == "removed":
                out[cid(c)] = "the tile was destroyed by the wizard's rage"
            elif c == st["tower"]:
                out[cid(c)] = (f"the tower opens only for heroes who together hold {st['keys_needed']} keys"
                               + (", from the tile in front of its entrance" if st["entrance"] else ""))
            elif c not in near:
                out[cid(c)] = "not next to you: a hero moves one step to a neighbouring tile" + (
                    " (two with Sprint, the first into a room without tokens)" if me["sprint"] else "")
    return out


def _wheel(w: dict[str, Any]) -> dict[str, Any]:
    """The mana wheel as a ring of nodes 0..max; the pointer (an item) marks the current value.

    The board's title says it in words ("Mana wheel: 2 of 8, 0 left to spend this turn");
    ``track`` asks a text renderer to draw it as one line, ``small`` lets the browser draw it
    small beside the labyrinth."""
    top, now, left = w["mana_max"], w["mana"], w["mana_left"]
    nodes = []
    for v in range(top + 1):
        angle = 2 * math.pi * v / (top + 1) - math.pi / 2
        nodes.append({"id": f"m{v}", "x": round(0.5 + 0.4 * math.cos(angle), 3), "y": round(0.5 + 0.4 * math.sin(angle), 3),
                      "label": str(v), "fill": "#7a4fb5" if v == now else "#d9cbe9", "highlight": v == now,
                      "title": f"mana {v}" + (" (maximum: an extra card each turn)" if v == top else "")})
    edges = [[f"m{v}", f"m{(v + 1) % (top + 1)}"] for v in range(top + 1)]
    items = [{"id": "wheel", "node": f"m{now}", "text": str(now), "color": "#7a4fb5", "shape": "token",
              "title": f"the wheel's pointer: {now} mana a turn, {left} left to spend this turn"}]
    title = f"Mana wheel: {now} of {top}, {left} left to spend this turn"
    return {"id": "wheel", "kind": "nodes", "title": title, "track": True, "small": True,
            "nodes": nodes, "edges": edges, "items": items}


def _card_text(game: Any, name: str) -> str:
    c = game.content.wizard_cards.get(name) or game.content.loot_cards.get(name)
    if c is None:
        return ""
    cost = f"[{c.cost} mana] " if hasattr(c, "cost") else ""
    return cost + c.text


def _wizard_panel(game: Any, st: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    w = st["wizard"]
    rows = [
        ["Mana wheel", f"{w['mana']} / {w['mana_max']}"],
        ["Mana left", str(w["mana_left"])],
        ["Hand", f"{w['hand_size']} card(s)"],
        ["Deck", str(w["deck"])],
        ["Discard", str(len(w["discard"]))],
        ["Removed", ", ".join(w["removed"]) or "-"],
    ]
    panel: dict[str, Any] = {"title": "Wizard", "seat": 0, "active": view.get("acting") == 0, "color": "#7a4fb5", "rows": rows}
    if w["hand"] is not None:
        panel["cards"] = [{"id": f"wiz-{i}", "name": name, "text": _card_text(game, name)} for i, name in enumerate(w["hand"])]
    return panel


def _move_words(game: Any, move: list) -> str:
    """A hero's chosen (secret) move in words, as the action list named it: ``["move", 17]`` -> ``"move to D3"``."""
    if move[0] == "move":
        return f"move to {cell_name(game, move[1])}"
    if move[0] == "move2":
        return f"sprint via {cell_name(game, move[1])} to {cell_name(game, move[2])}"
    return "stay"


def _hero_panel(game: Any, h: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    status = "dead" if not h["alive"] else ", ".join(f for f in ("frozen", "stuck", "sprint") if h[f]) or "ready"
    if h["chosen"]:
        status += " (move chosen)"
    rows = [["HP", str(h["hp"])], ["Keys", str(h["keys"])], ["Equipment", ", ".join(h["equipment"]) or "-"],
            ["Hand", f"{h['hand_size']} card(s)"], ["Status", status]]
    if h["move"] is not None:
        rows.append(["Your move", _move_words(game, h["move"])])
    cards = [{"id": f"h{h['seat']}-{i}", "name": name, "text": _card_text(game, name)} for i, name in enumerate(h["hand"] or [])]
    return {"title": f"Hero {h['seat']}", "seat": h["seat"], "active": view.get("acting") == h["seat"],
            "color": HERO_COLORS[(h["seat"] - 1) % 4], "rows": rows, "cards": cards}


#: Target labels of the actions on one tile, worded as the action list words them (issue 32: never a cell number).
CELL_WORDS = {"tower": "raise the tower at {}", "key": "hide a key tile at {}", "remove": "rage: remove {}",
              "target": "target {}", "push": "blow the hero to {}", "retreat": "retreat to {}", "move": "move to {}"}


def _offer_name(offer: Sequence[str], i: int) -> str:
    """Offered card ``i`` by its name, with its place when the offer holds the name twice."""
    return offer[i] + (f" (card {i + 1})" if offer.count(offer[i]) > 1 else "")


def action_labels(game: Any, st: dict[str, Any], actions: Sequence[tuple]) -> dict[str, str]:
    """Labels for the action list that only this seat's view can give (the scene's ``action_labels``,
    by action index). The loot choice's action reads "card 1 to Hero 1" (``describe`` is the same for
    every seat, and the wizard may not learn a loot card's name), so a hero, who sees the offer, gets
    "Long Sword to Hero 1 (plus two to all your combat rolls)" (the second fresh trial, issue 44)."""
    offer = (st["prompt"] or {}).get("cards") or []
    return {str(i): f"{_offer_name(offer, a[1])} to Hero {a[2]}" + card_gist(game, offer[a[1]])
            for i, a in enumerate(actions) if a[0] == "take" and a[1] < len(offer)}


def _targets(st: dict[str, Any], actions: Sequence[tuple], cid: Any, name: Any, gist: Any = lambda n: "") -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    seen: set[tuple] = set()
    n = st["size"]
    wiz_hand = st["wizard"]["hand"] or []
    prompt = st["prompt"] or {}
    offer = prompt.get("cards") or []
    acting_hero = next((h for h in st["heroes"] if h["seat"] == prompt.get("seat")), None)
    hand = (acting_hero or {}).get("hand") or []

    def add(i: int, clicks: list[str], label: str) -> None:
        key = tuple(clicks)
        if key not in seen:
            seen.add(key)
            out.append({"action": i, "clicks": clicks, "label": label})

    for i, a in enumerate(actions):
        k = a[0]
        if k == "place":
            add(i, [f"card:tok-{a[2]}", cid(a[1])], f"place {token_name(a[2])} on {name(a[1])}")
        elif k in CELL_WORDS:
            add(i, [cid(a[1])], CELL_WORDS[k].format(name(a[1])))
        elif k == "move2":
            add(i, [cid(a[2])], f"sprint via {name(a[1])} to {name(a[2])}")
        elif k in ("entrance", "face"):
            dx, dy = DIRECTIONS[a[1]]
            c = st["tower"] + dy * n + dx
            add(i, [cid(c)], f"entrance faces {DIRECTION_NAMES[a[1]]}")
        elif k == "hero":
            add(i, [f"item:hero{a[1]}"], f"Hero {a[1]}")
        elif k == "token":
            stack = st["tokens"][a[1]]
            add(i, [f"item:tok{a[1]}-{a[2]}"], stack_position(a[2], len(stack), name(a[1]), stack[a[2]]))
        elif k == "play" and a[1] in wiz_hand:
            add(i, [f"card:wiz-{wiz_hand.index(a[1])}"], f"play {a[1]}" + gist(a[1]))
        elif k == "discard" and a[1] in wiz_hand:
            add(i, [f"card:wiz-{wiz_hand.index(a[1])}"], f"discard {a[1]}")
        elif k == "keep" and a[1] in offer:
            add(i, [f"card:open-{offer.index(a[1])}"], f"keep {a[1]}" + gist(a[1]))
        elif k == "take":
            add(i, [f"card:offer-{a[1]}", f"item:hero{a[2]}"],
                f"{_offer_name(offer, a[1])} to Hero {a[2]}" if a[1] < len(offer) else f"card to Hero {a[2]}")
        elif k in ("use", "boost") and a[1] in hand:
            add(i, [f"card:h{prompt['seat']}-{hand.index(a[1])}"], f"{k} {a[1]}" + (gist(a[1]) if k == "use" else ""))
        elif k == "give" and a[2] in hand:
            add(i, [f"item:hero{a[1]}", f"card:h{prompt['seat']}-{hand.index(a[2])}"], f"give {a[2]} to Hero {a[1]}")
    return out
