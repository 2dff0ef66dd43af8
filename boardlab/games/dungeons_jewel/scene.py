"""The Dungeon's Jewel as a scene (see :mod:`boardlab.engine.scene`), built from a view only.

The 7x7 board shows the start corners, the dragon (or the empty lair) at the
centre, face-down and face-up dungeon tokens, placed walls, and the players
with health and attack power as a badge (hearts and swords).  One side panel
per player lists health, attack power, items and the jewel.  Choose a room to
move there, the centre to fight the dragon, a player's piece to attack it,
and a neighbouring room to turn a freshly drawn wall towards it.
"""

from __future__ import annotations

from typing import Any, Sequence

from boardlab.engine import Game
from boardlab.engine.scene import cell_id, chess_axes, status_line

from .board import SIDE_NAMES, SIDES

COLORS = ("#d33", "#36c", "#2a2", "#c90")
START_FILL = ("#f6d0d0", "#d0dcf6", "#d3f0d3", "#f3e4c2")
#: A turned wall's token points at the side of its room that it blocks.
WALL_ARROWS = {"N": "\u2191", "E": "\u2192", "S": "\u2193", "W": "\u2190"}
TOKEN_COLORS = {"hazard": "#8a5a2b", "monster": "#7a1f7a", "trapdoor": "#333", "wall": "#555"}

PROMPTS = {
    "place": ("Place the token you drew: keep it secret (face down: only you and later visitors of the room"
              " know what it is) or show it (face up: everyone sees it)"),
    "wall": "Turn the wall: choose the neighbouring room it should shut off",
    "survive": "Survive the room: use an item or roll",
    "take": "Take one item from the player you defeated",
}


def build_scene(game: Game, view: dict[str, Any], actions: Sequence[tuple] = ()) -> dict[str, Any]:
    v = view["state"]
    size = v["size"]
    names = game.seat_names()
    short = [f"P{s + 1}" for s in range(game.players)]
    centre = v["centre"]
    starts = v["starts"]

    def xy(c: int) -> dict[str, int]:
        return {"x": c % size, "y": c // size}

    cells = []
    for c in range(size * size):
        cell: dict[str, Any] = {**xy(c), "fill": "#eee", "title": game.board.labels[c]}
        if c in starts:
            s = starts.index(c)
            cell.update(fill=START_FILL[s], label=f"S{s + 1}", title=f"{names[s]}'s start")
        elif c == centre:
            guarded = v["jewel"] is None
            cell.update(fill="#f5e6a8" if guarded else "#eee", label="Dragon" if guarded else "",
                        title="The dragon guards the jewel" if guarded else "The dragon's empty lair")
        cells.append(cell)

    items = []
    wall_side = {c: side for c, side in v["walls"]}
    for c, face, up in v["tokens"]:
        if face is None:
            items.append({"id": f"t{c}", **xy(c), "text": "?", "color": "#998", "shape": "token",
                          "face_down": True, "title": "A face-down dungeon token"})
        else:
            kind = game.content.token(face)
            title = f"{kind.name}{'' if up else ' (face down; you have seen it)'}: {kind.text}"
            extra = {}
            if kind.type == "wall" and c in wall_side:  # which side it blocks (issue 44: the board did not say)
                side = wall_side[c]
                beyond = dict(game.board.sides[c]).get(SIDES.index(side))
                extra["badge"] = WALL_ARROWS[side]
                title += (f" It blocks the {SIDE_NAMES[side]} side of this room"
                          + (f" (the way to {game.board.labels[beyond]})." if beyond is not None else "."))
            items.append({"id": f"t{c}", **xy(c), "text": kind.name[:2], "color": TOKEN_COLORS[kind.type],
                          "shape": "token", "face_down": not up, "title": title, **extra})
    walls = []
    for c, side in v["walls"]:
        walls.append({**xy(c), "side": side, "color": "#222"})
    for s, c in enumerate(v["positions"]):
        jewel = v["jewel"] == s
        items.append({"id": f"p{s}", **xy(c), "text": short[s] + ("*" if jewel else ""), "color": COLORS[s],
                      "shape": "circle", "badge": f"\u2665{v['health'][s]} \u2694{v['power'][s]}",
                      "title": f"{names[s]}: health {v['health'][s]}, attack {v['power'][s]}"
                               + (", carrying the jewel" if jewel else "")})

    panels = []
    for s in range(game.players):
        its = [game.item_name.get(i, i) for i in v["items"][s]]
        panels.append({
            "title": names[s], "seat": s, "active": view.get("acting") == s, "color": COLORS[s],
            "rows": [["Health", str(v["health"][s])], ["Attack", str(v["power"][s])],
                     ["Items", ", ".join(its) or "none"], ["Jewel", "carrying it" if v["jewel"] == s else "-"]],
        })
    panels.append({"title": "Dungeon", "rows": [["Dungeon tokens left", str(v["token_pile"])],
                                                ["Treasure cards left", str(v["treasure_deck"])]]})

    targets = []
    pending = v["pending"]
    for i, a in enumerate(actions):
        kind = a[0]
        if kind == "move":
            targets.append({"action": i, "clicks": [cell_id("main", a[1] % size, a[1] // size)], "label": game.board.labels[a[1]]})
        elif kind == "dragon":
            targets.append({"action": i, "clicks": [cell_id("main", centre % size, centre // size)], "label": "Fight the dragon"})
        elif kind == "attack":
            targets.append({"action": i, "clicks": [f"item:p{a[1]}"], "label": f"Attack {names[a[1]]}"})
        elif kind == "wall" and a[1] != "none" and pending is not None:
            d = SIDES.index(a[1])
            nxt = dict(game.board.sides[pending["cell"]])[d]
            targets.append({"action": i, "clicks": [cell_id("main", nxt % size, nxt // size)], "label": f"Wall on the {SIDE_NAMES[a[1]]} side"})

    why_not = why_not_map(game, view, {c for t in targets for c in t["clicks"]})
    prompt = None
    if view.get("over"):
        prompt = None
    elif pending is not None:
        prompt = PROMPTS.get(pending["kind"])
        if pending["kind"] == "survive":
            prompt = _survive_prompt(game, v, seat=view.get("seat"), pending=pending) or prompt
    elif actions:
        prompt = "Choose a room to move, or a neighbouring player to attack"
    hint = ""
    if not view.get("over") and actions and pending is None:
        hint = ("Loot comes only from a new room: a treasure card when you survive a room whose token you draw;"
                " a room that already has a token gives none.")
    elif pending is not None and pending["kind"] == "place":
        hint = ("Either way you face its hazard now; a secret token keeps the others guessing,"
                " a face-up one warns everyone away.")
    return {
        "title": game.name,
        "status": status_line(view, names),
        "prompt": prompt,
        "boards": [{"id": "main", "kind": "grid", "cols": size, "rows": size, **chess_axes(size, size), "cells": cells,
                    "walls": walls, "items": items}],
        "panels": panels,
        "targets": targets,
        "why_not": why_not,
        "codes": board_codes(game),
        **({"hint": hint} if hint else {}),
    }


def board_codes(game: Game) -> list[list[str]]:
    """The key to the board's short codes (issue 44: "Mo", "Fl", "Qu" were shown with no key): every
    dungeon token of the game's content, then the other marks, as ``[code, meaning]``."""
    out = [[t.name[:2], t.name + (" (its badge \u2191, \u2192, \u2193 or \u2190 points at the side of its room it blocks,"
                                  " drawn as a thick line)" if t.type == "wall" else "")]
           for t in game.content.tokens]
    out.append(["?", "a face-down token nobody has shown you"])
    out.append([f"S1-S{game.players}", "the players' start rooms"])
    out.append([f"P1-P{game.players}", "the players (\u2665 health, \u2694 attack; * carries the jewel)"])
    return out


def _survive_prompt(game: Game, v: dict[str, Any], seat, pending: dict[str, Any]) -> str | None:
    """The survive prompt with what a roll needs, when the seat can see the room's token."""
    from .view import survive_need
    if seat is None or seat != pending["seat"]:
        return None
    faces = {c: face for c, face, _up in v["tokens"]}
    face = faces.get(pending["cell"])
    if face is None:
        return None
    kind = game.content.token(face)
    loot = " (survive it and you draw a treasure card)" if pending.get("loot") else " (no loot: an old room)"
    return f"Survive {kind.name}{loot}: use an item, or roll ({survive_need(game, kind.type, v['power'][seat])})"


def why_not_map(game: Game, view: dict[str, Any], used: set[str]) -> dict[str, str]:
    """Why the acting seat cannot choose each room or player no legal action's target clicks
    (click id -> reason), from its view only; empty when the seat is not acting."""
    v = view["state"]
    seat = view.get("seat")
    out: dict[str, str] = {}
    if seat is None or view.get("acting") != seat or view.get("over"):
        return out
    size = v["size"]
    board = game.board
    names = game.seat_names()
    here = v["positions"][seat]
    pending = v["pending"]
    first = "first " + (PROMPTS.get(pending["kind"], pending["kind"]).split(":")[0].lower()) if pending else ""
    sides = dict((j, d) for d, j in board.sides[here])
    walled = game.wall_item not in v["items"][seat]
    for t, c in enumerate(v["positions"]):
        click = f"item:p{t}"
        if click in used:
            continue
        out[click] = (first if pending else "you are here: choose a neighbouring room" if t == seat
                      else f"{names[t]} is not next to you: you attack a player in a neighbouring room")
    for c in range(size * size):
        click = cell_id("main", c % size, c // size)
        if click in used:
            continue
        if pending:
            out[click] = first
        elif c == here:
            out[click] = "you are here: choose a neighbouring room"
        elif c in sides and walled and v["blocked"][here] >> sides[c] & 1:
            out[click] = "a wall blocks the way from your room to it"
        elif c not in sides:
            out[click] = "not adjacent (one room up, down, left or right)"
        else:
            out[click] = "you cannot move there now"
    return out
