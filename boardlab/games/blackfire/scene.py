"""Blackfire's scene: the castle, its walls and exits, tokens, pieces and the Orb.

Built from a seat's *view* and the static castle only, so it cannot leak a
face-down token.  Moves are two clicks (the piece, then the square); a
placement or a jump is one click on the square; an archer's choice of target
is one click on the enemy piece; a revival is the dead unit's card, then the
square.  Stance changes, ending the turn and declining a prompt are offered in
the list of legal actions.
"""

from __future__ import annotations

from typing import Any, Sequence

from boardlab.engine.scene import cell_id, chess_axes, status_line

from .pieces import UNIT_NAMES
from .view import landing_words

COLOURS = {"green": "#2e8b3a", "red": "#c0392b"}
LETTER = {"sorcerer": "S", "archer": "A", "warrior": "W"}


def unit_letter(side: str, kind: str) -> str:
    """A unit's letter: upper case for green, lower case for red (as in chess notation), so the
    sides differ without colour (piped or monochrome terminals, red-green colour blindness)."""
    return LETTER[kind] if side == "green" else LETTER[kind].lower()
FILL = {
    ".": "#e9e1d0", "T": "#f1d48a", "G": "#b9e0ae", "#": "#3b3631",
    "1": "#f0c0b8", "2": "#f0c0b8", "3": "#f0c0b8", "4": "#f0c0b8",
    "A": "#bcd3e6", "B": "#bcd3e6", "C": "#bcd3e6", "D": "#bcd3e6",
}
PROMPTS = {
    "place": "Choose a square for a face-down token (you do not know which token it is)",
    "shoot": "Your archer may kill one of these: pick the enemy to shoot",
    "speed": "Speed: move the unit up to {points} more spaces, or stop",
    "teleport": "Teleport: choose a square up to {reach} spaces away (walls do not matter), or stay",
    "displace": "Displace: pick an enemy unit, then a square up to 2 spaces from it",
    "revive-token": "Revive: pick a dead unit of yours, then any square",
}


def _placing(game, st: dict[str, Any], names: list[str]) -> str:
    """How far the secret token placement is, for every seat: the tokens go down face down where only
    their owner sees them, so without the counts a watcher saw a board that did not change (issue 32)."""
    per = game.opt["tokens_per_player"]
    done = st.get("placements") or []
    return " - face-down tokens placed: " + ", ".join(f"{names[s]} {n}/{per}" for s, n in enumerate(done))


def build_scene(game: Any, view: dict[str, Any], actions: Sequence[tuple] = ()) -> dict[str, Any]:
    castle = game.castle
    st = view["state"]
    w = castle.width
    open_exit = st.get("exit")
    red_start = st.get("red_start")
    cells = []
    for i, ch in enumerate(castle.chars):
        x, y = i % w, i // w
        cell: dict[str, Any] = {"x": x, "y": y, "fill": FILL.get(ch, "#e9e1d0"), "title": castle.label(i)}
        if ch == "#":
            cell["blocked"] = True
            cell["title"] = "inaccessible"
        elif ch == "T":
            cell["label"] = "T"
            cell["title"] = f"{castle.label(i)}: treasure room"
        elif ch == "G":
            cell["label"] = "G"
            cell["title"] = f"{castle.label(i)}: green start (centre)"
        elif ch in "1234":
            n = int(ch)
            cell["label"] = f"R{n}"
            cell["title"] = f"{castle.label(i)}: red start square R{n}" + (" (red's start)" if red_start == n else "")
            if red_start == n:
                cell["fill"] = "#e58f84"
        elif ch in "ABCD":
            n = "ABCD".index(ch) + 1
            cell["label"] = f"E{n}"
            is_open = open_exit == n
            cell["title"] = f"{castle.label(i)}: exit E{n}" + (" (open: carry the Orb out here)" if is_open else " (closed)")
            if is_open:
                cell["fill"] = "#3fa9f5"
                cell["highlight"] = True
        cells.append(cell)
    walls = []
    for pair in sorted(tuple(sorted(p)) for p in castle.grid.walls):
        a, b = pair
        walls.append({"x": a % w, "y": a // w, "side": "E" if b == a + 1 else "S", "color": "#1d1a17"})
    items: list[dict[str, Any]] = []
    for x, y in st["tokens"]:
        items.append({"id": f"token-{x}-{y}", "x": x, "y": y, "shape": "token", "face_down": True,
                      "text": "?", "color": "#7a5c2e", "title": "a face-down token"})
    for x, y in st.get("my_placements", []):
        items.append({"id": f"mine-{x}-{y}", "x": x, "y": y, "shape": "token", "face_down": True,
                      "text": "?", "color": "#a07b45", "badge": "yours", "title": "your secretly placed token"})
    orb = st.get("orb")
    if orb and orb["cell"] is not None:
        x, y = orb["cell"]
        items.append({"id": "orb", "x": x, "y": y, "shape": "circle", "text": "Orb", "color": "#6a2c91",
                      "title": "the Orb of Blackfire (a sorcerer takes it by stopping here)"})
    for u in st["units"]:
        if u["cell"] is not None:
            x, y = u["cell"]
            badges = []
            if u["orb"]:
                badges.append("Orb")
            if u["stance"] == "defensive":
                badges.append("DEF")
            if u["invulnerable"]:
                badges.append(f"INV{u['invulnerable']}")
            if u["slow"]:
                badges.append("SLOW")
            title = u["name"] + (f", {u['stance']} stance" if u["stance"] else "")
            if u["orb"]:
                title += ", carrying the Orb"
            if u["invulnerable"]:
                title += f", invulnerable ({u['invulnerable']} more enemy turns, 1 attack)"
            if u["slow"]:
                title += ", slowed (1 less space)"
            if u["moved"]:
                title += ", has moved this turn"
            items.append({"id": f"u{u['id']}", "x": x, "y": y, "text": unit_letter(u["side"], u["kind"]), "color": COLOURS[u["side"]],
                          "shape": "square" if u["kind"] == "warrior" else "circle",
                          "badge": " ".join(badges), "title": title})
        elif u["respawn"] is not None and st.get("red_start"):
            start = castle.green_start if u["side"] == "green" else castle.red_starts[st["red_start"] - 1]
            items.append({"id": f"ghost{u['id']}", "x": start % w, "y": start // w, "text": unit_letter(u["side"], "sorcerer"), "color": "#9a9a9a",
                          "shape": "circle", "face_down": False, "badge": f"in {u['respawn']}",
                          "title": f"the {u['name']} respawns here in {u['respawn']} of its turns"})
    names = game.seat_names()
    colours = st.get("colours")
    if colours:
        names = [f"{n} ({c})" for n, c in zip(names, colours)]
    panels = []
    for side in ("green", "red"):
        seat = colours.index(side) if colours else None
        rows = []
        cards = []
        for u in st["units"]:
            if u["side"] != side:
                continue
            if u["cell"] is None:
                state = f"dead, respawns in {u['respawn']}" if u["respawn"] is not None else "dead"
                cards.append({"id": f"dead-{u['id']}", "name": u["name"], "text": state, "face_down": False})
            else:
                state = castle.label(u["cell"][1] * w + u["cell"][0])
                for flag, word in ((u["orb"], "the Orb"), (u["stance"] == "defensive", "defensive"),
                                   (u["invulnerable"], "invulnerable"), (u["slow"], "slow"), (u["moved"], "moved")):
                    if flag:
                        state += f", {word}"
            rows.append([u["kind"].capitalize(), state])
        panels.append({"title": f"{side.capitalize()} ({'Marius' if side == 'green' else 'Soren'})"
                       + (f" - Player {seat + 1}" if seat is not None else ""),
                       "seat": seat, "active": st.get("side") == side and not view.get("over"),
                       "color": COLOURS[side], "rows": rows, "cards": cards})
    hidden = st.get("hidden_kinds", {})
    panels.append({
        "title": "Tokens (the reference printed on the board)",
        "rows": [["Face down on the board", str(len(st["tokens"]))],
                 ["Still hidden, by kind", ", ".join(f"{k} {n}" for k, n in hidden.items() if n) or "none"],
                 ["Open exit", f"E{open_exit} ({castle.label(castle.exits[open_exit - 1])})" if open_exit else "not rolled yet"],
                 ["Red start", f"R{red_start} ({castle.label(castle.red_starts[red_start - 1])})" if red_start
                  else "not rolled yet"]],
        # generated from the rules' options (tokens.token_reference), so it cannot drift from them
        "cards": [{"id": f"ref-{k}", "name": k.capitalize(), "text": text, "face_down": False}
                  for k, text in game.token_reference.items()],
    })
    panels.append(board_key(castle, open_exit, red_start))
    targets = []
    for i, a in enumerate(actions):
        clicks = _clicks(castle, a)
        if clicks:
            targets.append({"action": i, "clicks": clicks, "label": _label(castle, a) + _landing(castle, st, a)})
    why_not = why_not_map(game, view, {c for t in targets for c in t["clicks"]})
    for panel in panels:
        for c in panel.get("cards") or ():
            if f"card:{c['id']}" in why_not:
                c["why_not"] = why_not[f"card:{c['id']}"]
    prompt = st.get("prompt")
    if st["phase"] == "place":
        ask = PROMPTS["place"]
        seat = view.get("seat")
        done = st.get("placements") or []
        if seat is not None and seat < len(done) and done[seat] < game.opt["tokens_per_player"]:
            ask += f" - your token {done[seat] + 1} of {game.opt['tokens_per_player']}"
    elif prompt:
        ask = PROMPTS.get(prompt["kind"], "").format(points=prompt.get("points", 3), reach=game.opt["teleport_range"])
    else:
        ask = "Pick a piece, then a square (stance change and End turn are in the action list)"
    alert = _danger_alert(game, view, names) if actions and st["phase"] == "play" else ""
    return {
        "title": "Blackfire",
        **({"alert": alert} if alert else {}),
        # the rules end a turn when no unit can act any more: the page says so after it happens
        **({"turn_ends_by_itself": True} if st["phase"] == "play" else {}),
        "status": status_line(view, names) + (f" - turn {view.get('turn')}" if st["phase"] == "play" and not view.get("over") else "")
        + (_placing(game, st, names) if st["phase"] == "place" and not view.get("over") else ""),
        "prompt": ask if actions else "",
        "boards": [{"id": "main", "kind": "grid", "cols": w, "rows": castle.height, **chess_axes(w, castle.height), "cells": cells, "walls": walls, "items": items}],
        "panels": panels,
        "targets": targets,
        "why_not": why_not,
        **({"hint": PLACE_HINT.format(n=game.opt["tokens_per_player"])}
           if st["phase"] == "place" and actions else {"hint": _stance_hint(view)} if _stance_hint(view) and actions else {}),
        **({"over_note": _over_note(view)} if _over_note(view) else {}),
    }


def _stance_hint(view: dict[str, Any]) -> str:
    """Say when the warrior's stance switch comes and goes (issue 44: it vanished from the action list
    without a word once a unit had moved). From the view only."""
    st = view["state"]
    seat = view.get("seat")
    if st["phase"] != "play" or seat is None or view.get("acting") != seat or view.get("over") or st.get("prompt"):
        return ""
    warrior = next((u for u in st["units"] if u["side"] == st.get("side") and u["kind"] == "warrior"), None)
    if warrior is None or warrior["cell"] is None:
        return ""
    if st["stance_open"]:
        return ("You may switch your warrior's stance now (in the action list), before any unit moves; once a unit"
                " has moved, the switch is gone until your next turn.")
    if st["moved"]:
        return (f"Your warrior stays {warrior['stance']} this turn: its stance can change only before any unit moves."
                " The switch comes back at the start of your next turn.")
    return ""


def _over_note(view: dict[str, Any]) -> str:
    """Why the game ended, in plain words, when the rules' reason alone misleads (issue 44: "red wins: green
    has no unit left" while green's sorcerer was waiting to respawn)."""
    if not view.get("over"):
        return ""
    reason = (view.get("results") or {}).get("reason") or ""
    if "has no unit left" not in reason:
        return ""
    side = reason.split(" ")[0]
    waiting = [u for u in view["state"]["units"] if u["side"] == side and u["cell"] is None and u.get("respawn") is not None]
    note = f"{side.capitalize()} had no unit left on the board, and a side with no unit standing loses at once."
    if waiting:
        note += (f" Its {waiting[0]['kind']} was waiting to respawn, but a dead sorcerer comes back only while"
                 " another unit of its side still stands, so it could never return.")
    return note


def _danger_alert(game: Any, view: dict[str, Any], names: list[str]) -> str:
    """What kills without a choice, said before the acting seat moves (issue 44): the enemy archer shoots
    a unit that stops within its range, and a face-down token may be Death. From the view only."""
    st = view["state"]
    seat = view.get("seat")
    colours = st.get("colours")
    if seat is None or not colours or view.get("acting") != seat or view.get("over"):
        return ""
    mine = colours[seat]
    castle = game.castle
    w = castle.width
    out = []
    archer = next((u for u in st["units"] if u["side"] != mine and u["kind"] == "archer" and u["cell"] is not None), None)
    if archer is not None:
        x, y = archer["cell"]
        out.append(f"the {archer['name']} on {castle.label(y * w + x)} shoots any unit of yours that stops within"
                   f" {game.opt['archer_range']} spaces of it (except a defensive warrior or an invulnerable unit"
                   + ("; your own archer holds a die-roll contest instead" if game.opt.get("archer_contest") else "")
                   + ")")
    warrior = next((u for u in st["units"] if u["side"] != mine and u["kind"] == "warrior" and u["cell"] is not None
                    and u.get("stance") != "defensive"), None)
    if warrior is not None:  # a landing attack: any unit that moves onto an enemy kills it (combat._move)
        x, y = warrior["cell"]
        out.append(f"the {warrior['name']} on {castle.label(y * w + x)} kills a unit of yours by moving onto its square,"
                   f" up to {game.opt['warrior_move']} spaces away (any enemy unit that moves onto yours kills it too)")
    hidden = st.get("hidden_kinds") or {}
    death, total = hidden.get("death", 0), sum(hidden.values())
    if death and st["tokens"]:
        out.append(f"{death} of the {total} tokens still hidden {'is' if death == 1 else 'are'} Death:"
                   " a unit that stops on a face-down token and turns up Death dies")
    if not out:
        return ""
    return "Careful: " + "; ".join(out) + ". Your turn ends by itself when none of your units can do anything more."


def board_key(castle: Any, open_exit: int | None, red_start: int | None) -> dict[str, Any]:
    """The marks printed on the castle, explained before any unit stands on them (issue 32)."""
    exit_now = (f"; a four-sided die opened E{open_exit} ({castle.label(castle.exits[open_exit - 1])})"
                if open_exit else "; a four-sided die opens one after the tokens are placed")
    red_now = (f"; a four-sided die chose R{red_start} ({castle.label(castle.red_starts[red_start - 1])})"
               if red_start else "; a four-sided die picks one after the tokens are placed")
    return {"title": "Board key", "rows": [
        ["G", f"green's start, in the centre ({castle.label(castle.green_start)})"],
        ["R1-R4", "the four possible red start squares" + red_now],
        ["E1-E4", "the four exits: the sorcerer carrying the Orb wins by reaching the open one" + exit_now],
        ["T", "a treasure room"],
        ["?", "a face-down token: a unit that stops on it turns it over"],
        ["Letters", "the units by their initials (sorcerer, archer, warrior): capitals for green, small letters for red"],
        ["[3]", "in a narrow terminal: three pieces share that square (they are listed under the board)"],
    ], "cards": []}


#: The opening decision explained in one line (a choice among most of the castle's squares).
PLACE_HINT = ("Each player secretly puts {n} tokens from the bag face down on free squares: neither of you knows"
              " which tokens they are until a unit stops on one, so place them where they may slow the other"
              " side or help yours.")


def why_not_map(game: Any, view: dict[str, Any], used: set[str]) -> dict[str, str]:
    """Why the acting seat cannot use each piece, card or square no legal action's target clicks
    (click id -> reason), from its view only; empty for a seat that is not acting."""
    castle = game.castle
    st = view["state"]
    seat = view.get("seat")
    out: dict[str, str] = {}
    if seat is None or view.get("acting") != seat or view.get("over"):
        return out
    w = castle.width
    sq = lambda x, y: cell_id("main", x, y)  # noqa: E731
    if st["phase"] == "place":
        mine = {tuple(c) for c in st.get("my_placements", [])}
        placeable = castle.placeable_set
        for i, ch in enumerate(castle.chars):
            click = sq(i % w, i // w)
            if click in used:
                continue
            if (i % w, i // w) in mine:
                out[click] = "you already placed a token there"
            elif ch == "#":
                out[click] = "nothing can enter it (solid rock)"
            elif i not in placeable:
                out[click] = ("tokens go on free squares: not a treasure room, a start or an exit, and not cut off"
                              " from the green start")
        return out
    prompt = st.get("prompt")
    side = st.get("side")
    ask = (PROMPTS.get(prompt["kind"], prompt["kind"]).split(":")[0].lower() if prompt else "")
    pending = f"first answer the {ask} prompt" if prompt else ""
    units = st["units"]
    sorc = next(u for u in units if u["side"] == side and u["kind"] == "sorcerer")
    for u in units:
        what = f"{u['side']}'s {u['kind']}"
        if u["cell"] is None:
            click = f"card:dead-{u['id']}"
            if click in used:
                continue
            if u["side"] != side:
                out[click] = f"that is {what}, not yours"
            elif prompt:
                out[click] = pending
            elif u["kind"] == "sorcerer":
                out[click] = f"your sorcerer respawns by itself in {u['respawn']} of your turns" if u["respawn"] is not None \
                    else "your sorcerer is dead"
            elif sorc["cell"] is None:
                out[click] = "only your sorcerer revives, and it is dead"
            elif sorc["orb"]:
                out[click] = "your sorcerer carries the Orb, and the Orb carrier cannot revive"
            elif sorc["moved"]:
                out[click] = "your sorcerer already acted this turn (reviving is its action)"
            else:
                out[click] = "no free square next to your sorcerer to revive it on"
            continue
        click = f"item:u{u['id']}"
        if click in used:
            continue
        if prompt:
            out[click] = pending if u["side"] == side else (
                f"that is {what}, and it cannot be chosen in this prompt" if prompt["kind"] in ("shoot", "displace")
                else pending)
        elif u["side"] != side:
            out[click] = f"that is {what}, not yours" + (" (a defensive warrior: only the Orb carrier may attack it)"
                                                          if u["stance"] == "defensive" else "")
        elif u["moved"]:
            out[click] = f"your {u['kind']} already moved this turn"
        elif u["stance"] == "defensive":
            out[click] = ("a warrior in defensive stance cannot move; "
                          + ("switch its stance first (in the action list: only before any unit acts)" if st["stance_open"]
                             else "its stance can change only before any unit acts in a turn"))
        else:
            out[click] = f"your {u['kind']} has no square it can reach this turn"
    orb = st.get("orb")
    if orb and orb["cell"] is not None and "item:orb" not in used:
        out["item:orb"] = pending or "only a sorcerer that stands on the Orb takes it (move your sorcerer onto it)"
    for i, ch in enumerate(castle.chars):
        click = sq(i % w, i // w)
        if click in used:
            continue
        if ch == "#":
            out[click] = "nothing can enter it (solid rock)"
        else:
            out[click] = pending or "none of your units can end a move there this turn"
    return out


def _clicks(castle: Any, a: tuple) -> list[str]:
    w = castle.width
    sq = lambda c: cell_id("main", c % w, c // w)  # noqa: E731
    kind = a[0]
    if kind in ("place", "jump"):
        return [sq(a[1])]
    if kind == "move":
        return [f"item:u{a[1]}", sq(a[2])]
    if kind == "displace":
        return [f"item:u{a[1]}", sq(a[2])]
    if kind == "revive":
        return [f"card:dead-{a[1]}", sq(a[2])]
    if kind == "shoot":
        return [f"item:u{a[1]}"]
    if kind == "take":
        return ["item:orb"]
    return []


def _landing(castle: Any, st: dict[str, Any], a: tuple) -> str:
    """" (attacks: kills the green archer)" on a move onto enemy units, from the view's units."""
    if a[0] != "move":
        return ""
    mover = st["units"][a[1]]
    x, y = a[2] % castle.width, a[2] // castle.width
    foes = [(u["name"], u["stance"] == "defensive", bool(u["invulnerable"])) for u in st["units"]
            if u["cell"] == [x, y] and u["side"] != mover["side"]]
    return landing_words(foes, bool(mover["orb"]))


def _label(castle: Any, a: tuple) -> str:
    kind = a[0]
    if kind == "place":
        return f"Token on {castle.label(a[1])}"
    if kind == "jump":
        return f"Teleport to {castle.label(a[1])}"
    if kind in ("move", "displace", "revive"):
        return f"{UNIT_NAMES[a[1]].capitalize()} to {castle.label(a[2])}"
    if kind == "shoot":
        return f"Shoot the {UNIT_NAMES[a[1]]}"
    return "Take the Orb"
