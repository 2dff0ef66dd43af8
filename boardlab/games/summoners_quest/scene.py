"""The scene of Summoner's Quest: the board, pieces, panels and click targets.

The scene is built from a view only, so it cannot leak hidden cards.
"""

from __future__ import annotations

from typing import Any, Sequence

from boardlab.engine import Game
from boardlab.engine.scene import status_line

from .content import STATUSES, card_text
from .view import fight_words

PROMPTS = {
    "temple": "Choose your starting mana temple",
    "pre": "Play cards, summon, equip, set traps - or roll two six-sided dice to move",
    "move": "Choose a piece, then where it moves",
    "post": "Play cards, summon, equip, set traps - or end your turn",
    "trap_victim": "A trap! Choose who takes it",
    "attack": "Combat: choose your attacker and its target",
    "defend": "You are attacked: defend with a summon?",
    "precombat": "Use a combat ability before the dice?",
    "portal": "Jump to the next portal?",
    "hand_full": "Your hand is full: discard a card to draw, or keep it",
}
COLORS = ["#c0392b", "#2471a3", "#229954", "#b7950b"]
FILLS = {"temple": "#f5d76e", "focus": "#d6eaf8", "portal": "#d2b4de", "gate": "#a3a3a3", "gate_open": "#82e0aa", "hall": "#fad7a0", "chamber": "#f1948a"}


def node_xy(board, i: int) -> tuple[float, float]:
    """The printed board's layout: the ring on the edge of a 9x9 square (clockwise from the
    top-left temple), each gate path running from its portal at a side's middle to the centre."""
    if i < 32:
        side, j = divmod(i, 8)
        col, row = [(j, 0), (8, j), (8 - j, 8), (0, 8 - j)][side]
    elif i == board.chamber:
        col, row = 4, 4
    else:
        k, j = divmod(i - 32, 3)
        p = board.portal_of_gate[k]
        side = p // 8
        col, row = [(4, j + 1), (7 - j, 4), (4, 7 - j), (j + 1, 4)][side]
    return 0.05 + 0.9 * col / 8, 0.05 + 0.9 * row / 8


CORNERS = ("the top-left corner", "the top-right corner", "the bottom-right corner", "the bottom-left corner")
EDGES = ("the top edge", "the right edge", "the bottom edge", "the left edge")


def where(i: int) -> str:
    """Where ring space ``i`` is drawn (see :func:`node_xy`), in words: each compass section starts at a
    corner with its temple and runs clockwise along an edge, so "North temple" is the top-left corner
    (issue 44: the compass names did not seem to match the drawing)."""
    side, j = divmod(i, 8)
    return CORNERS[side] if j == 0 else f"the middle of {EDGES[side]}" if j == 4 else f"on {EDGES[side]}"


def compass_codes(board) -> list[list[str]]:
    """The key under the board: how the compass names sit on the drawing."""
    temples = ", ".join(f"{board.names[t].split(' (')[0]} {CORNERS[t // 8].replace('the ', '')}" for t in board.temples)
    portals = ", ".join(f"{board.codes[p]} {EDGES[p // 8].replace('the ', '')}" for p in board.portals)
    return [[" ".join(board.codes[t] for t in board.temples), f"the temples, at the corners ({temples}): each side is named"
             " for the temple it starts from and runs clockwise from it"],
            [" ".join(board.codes[p] for p in board.portals), f"the portals, in the middle of each edge ({portals}); the"
             " gate path to the centre starts there"],
            ["G1-G4", "the mana gates, one on each path to the centre"],
            ["H1a-H4b", "the halls of myth, beyond each gate"],
            [board.codes[board.chamber], "the Chamber of Victory, in the centre"]]


def build_scene(game: Game, view: dict[str, Any], actions: Sequence[tuple] = ()) -> dict[str, Any]:
    st = view.get("state") or {}
    board = game.board
    cards = game.cards
    seat = view.get("seat")
    gates = st.get("gates", [False] * 4)
    nodes = []
    for i in range(board.size):
        x, y = node_xy(board, i)
        kind = board.kinds[i]
        title = board.names[i] + (f", {where(i)}" if i < 32 else "")
        label = board.codes[i]
        fill = FILLS[kind]
        if kind == "gate":
            k = (i - 32) // 3
            title += ", open" if gates[k] else ", closed: 10 mana to open"
            fill = FILLS["gate_open"] if gates[k] else fill
        nodes.append({"id": board.ids[i], "x": round(x, 4), "y": round(y, 4), "label": label,
                      "fill": fill, "title": title, "highlight": st.get("landing") == i})
    edges = [[board.ids[i], board.ids[(i + 1) % 32]] for i in range(32)]
    for k in range(4):
        g = board.gate_space(k)
        edges += [[board.ids[board.portal_of_gate[k]], board.ids[g]], [board.ids[g], board.ids[g + 1]],
                  [board.ids[g + 1], board.ids[g + 2]], [board.ids[g + 2], board.ids[board.chamber]]]
    items = []
    for p in st.get("players", []):
        if p["alive"] and p["space"] >= 0:
            items.append({"id": f"P{p['seat']}", "node": board.ids[p["space"]], "text": f"P{p['seat'] + 1}",
                          "color": COLORS[p["seat"] % 4], "shape": "token", "badge": str(p["life"]),
                          "title": f"Player {p['seat'] + 1}: {p['life']} life"})
    for m in st.get("summons", []):
        items.append({"id": f"S{m['uid']}", "node": board.ids[m["space"]], "text": m["name"][:3] + str(m["owner"] + 1), "color": COLORS[m["owner"] % 4],
                      "shape": "square", "badge": str(m["life"]),
                      "title": f"{m['name']} (P{m['owner'] + 1}): attack {m['attack']}, life {m['life']}" + (f", {m['status']}" if m["status"] else "")
                      + (", " + ", ".join(cards[c].name for c in m["equipment"]) if m["equipment"] else "")})
    for t in st.get("traps", []):
        name = cards[t["card"]].name if t["card"] else "face-down trap"
        items.append({"id": f"trap{t['space']}", "node": board.ids[t["space"]], "text": f"T{t['owner'] + 1}", "color": COLORS[t["owner"] % 4],
                      "shape": "card", "face_down": t["card"] is None, "title": f"{name} (P{t['owner'] + 1})"})
    panels = []
    for p in st.get("players", []):
        s = p["seat"]
        rows = [["Life", f"{p['life']}/10" if p["alive"] else "defeated"],
                ["Mana", f"{p['mana']} active / {p['used']} used"],
                ["Space", board.names[p["space"]] if p["space"] >= 0 else "-"],
                ["Status", ", ".join(f"{a} ({b})" for a, b in p["statuses"]) or "-"],
                ["Equipment", ", ".join(cards[c].name for c in p["equipment"]) or "-"],
                ["Hand", str(p["hand_size"])],
                ["Chamber hold", f"{p['hold']}/{st.get('hold_turns', 3)}"]]
        panel = {"title": f"Player {s + 1}", "seat": s, "active": view.get("acting") == s, "color": COLORS[s % 4], "rows": rows}
        if seat == s and st.get("hand") is not None:
            panel["cards"] = [{"id": c, "name": cards[c].name, "text": f"{cards[c].type}, cost {cards[c].cost}: {card_text(cards[c])}"}
                              for c in st["hand"]]
        panels.append(panel)
    info = [["Deck", str(st.get("deck", 0))], ["Discard", str(len(st.get("discard", [])))],
            ["Gates", ", ".join(f"G{k + 1} {'open' if o else 'closed'}" for k, o in enumerate(gates))]]
    if st.get("dice"):
        info.append(["Roll", "+".join(map(str, st["dice"]))])
    if st.get("combat"):
        info.append(["Combat", f"{_piece(st, st['combat']['attacker'])} vs {_piece(st, st['combat']['defender'])}"])
    panels.append({"title": "Table", "rows": info})
    holders = {c: f"P{p['seat']}" for p in st.get("players", []) for c in p["equipment"]}
    holders.update({c: f"S{m['uid']}" for m in st.get("summons", []) for c in m["equipment"]})
    targets = []
    for i, a in enumerate(actions):
        kind = a[0]
        node = None
        clicks: list[str] = []
        if kind == "temple":
            clicks = [f"board:{board.ids[a[1]]}"]
        elif kind == "open":
            clicks = [f"board:{board.ids[board.gate_space(a[1])]}"]
        elif kind == "move":
            piece = "P" + str(seat) if a[1] == "P" else "S" + a[1][1:]
            clicks = [f"item:{piece}", f"board:{board.ids[a[2]]}"]
        elif kind in ("trap", "cast", "equip"):
            tgt = a[2]
            node = f"board:{board.ids[tgt]}" if isinstance(tgt, int) else f"item:{tgt}"
            clicks = [f"card:{a[1]}", node]
        elif kind == "use":
            holder = holders.get(a[1])
            tgt = f"board:{board.ids[a[2]]}" if isinstance(a[2], int) else f"item:{a[2]}"
            clicks = [f"item:{holder}", tgt] if holder else []
        elif kind == "ability":
            tgt = f"board:{board.ids[a[2]]}" if isinstance(a[2], int) else f"item:{a[2]}"
            clicks = [f"item:S{a[1]}", tgt]
        elif kind == "summon" or kind == "discard_draw":
            clicks = [f"card:{a[1]}"]
        elif kind == "attack":
            clicks = [f"item:{a[1]}", f"item:{a[2]}"]
        elif kind == "victim":
            clicks = [f"item:{a[1]}"]
        elif kind in ("defend", "boost"):
            clicks = [f"item:S{a[1]}"]
        if clicks:
            targets.append({"action": i, "clicks": clicks, "label": _label(game, st, a)})
    why_not, hint = why_not_map(game, view, {c for t in targets for c in t["clicks"]})
    for panel in panels:
        for c in panel.get("cards") or ():
            if f"card:{c['id']}" in why_not:
                c["why_not"] = why_not[f"card:{c['id']}"]
    prompt = st.get("prompt_data")
    ask = PROMPTS.get(prompt["kind"] if prompt else st.get("phase", ""), "")
    if prompt and prompt["kind"] == "portal" and prompt.get("space") in board.portals:
        # name the portals (the second fresh trial, issue 44): the jump goes clockwise to the next one
        here = board.portals.index(prompt["space"])
        there = board.portals[(here + 1) % len(board.portals)]
        ask = f"Jump from {board.names[prompt['space']]} to the next portal, {board.names[there]}?"
    if st.get("dice") and not prompt and st.get("phase") == "move":
        ask += f" (rolled {sum(st['dice'])})"
    return {
        "title": game.name,
        "status": status_line(view),
        "prompt": ask,
        "boards": [{"id": "board", "kind": "nodes", "nodes": nodes, "edges": edges, "items": items}],
        "panels": panels,
        "targets": targets,
        "why_not": why_not,
        **({"hint": hint} if hint else {}),
        **({"action_labels": labels} if (labels := action_labels(game, view, actions)) else {}),
        **({"key_notes": notes} if (notes := key_notes(st)) else {}),
        "codes": compass_codes(board),
        **({"out": "Your summoner is defeated: you are out of this game."} if _is_out(view) else {}),
    }


def key_notes(st: dict[str, Any]) -> list[str]:
    """The Key's lines for the statuses on the board now ("hasted": the second fresh trial, issue 44,
    found the word unexplained), the scene's ``key_notes``."""
    on = {name for p in st.get("players", []) if p.get("alive", True) for name, _ in p.get("statuses", [])}
    on |= {m["status"] for m in st.get("summons", []) if m.get("status")}
    return [f"{name}: {STATUSES[name]}." for name in STATUSES if name in on]


OWN_TRAP = " (your own trap is here: it catches you too)"


def action_labels(game: Game, view: dict[str, Any], actions: Sequence[tuple]) -> dict[str, str]:
    """Labels for the action list that only this seat's view can give (the scene's ``action_labels``,
    by action index): a move onto the seat's own face-down trap says so (the second fresh trial, issue
    44: the move gave no warning). Only the owner knows the trap's card, and ``describe`` is the same
    for every seat (the history shows it to all), so the note lives here. The rest of the label is
    ``describe``'s, from the view."""
    st = view.get("state") or {}
    seat = view.get("seat")
    if seat is None or seat != st.get("active"):
        return {}
    mine = {t["space"] for t in st.get("traps", []) if t["owner"] == seat}
    if not mine:
        return {}
    board, gates = game.board, st.get("gates") or []
    out = {}
    for i, a in enumerate(actions):
        if a[0] != "move" or a[2] not in mine:
            continue
        who = "summoner" if a[1] == "P" else _piece(st, a[1])
        gate = a[3] >= 0 and " through gate %d" % (a[3] + 1) + ("" if a[3] < len(gates) and gates[a[3]] else " (open it)")
        how = " backwards" if a[3] == -2 else gate or ""
        out[str(i)] = f"move {who}{how} to {board.names[a[2]]}{_fight(st, a[2])}{OWN_TRAP}"
    return out


def _is_out(view: dict[str, Any]) -> bool:
    """The viewing seat's summoner is defeated while the others play on (issue 44: say so)."""
    seat, st = view.get("seat"), view.get("state") or {}
    players = st.get("players") or []
    return seat is not None and not view.get("over") and 0 <= seat < len(players) and not players[seat].get("alive", True)


def _card_reason(game: Game, st: dict[str, Any], seat: int, cid: str) -> str:
    """Why the card ``cid`` in ``seat``'s hand cannot be played in the pre- or post-roll phase (its view only)."""
    c = game.cards[cid]
    me = st["players"][seat]
    if c.type == "trap":
        return "every space already holds a trap"
    cost = c.cost - 1 if c.cost > 1 and game.board.kinds[me["space"]] == "temple" else c.cost
    if cost > me["mana"]:
        return f"it costs {cost} mana and you have {me['mana']} active mana"
    if c.type == "summon":
        return "a summon is called onto your summoner's space, and another piece already stands there"
    if c.type == "spell":
        if any(name == "silenced" for name, _ in me["statuses"]):
            return "you are silenced: you cannot cast spells"
        return "no target in its range"
    if c.type == "equip":
        return f"equipment full: you and your summons already carry {game.option_values['equip_max']} items (the most)"
    return "it cannot be played now"


def why_not_map(game: Game, view: dict[str, Any], used: set[str]) -> tuple[dict[str, str], str]:
    """Why the acting seat cannot use each card, piece or space no legal action's target clicks
    (click id -> reason), and a one-line hint for the decision; from its view only."""
    st = view.get("state") or {}
    seat = view.get("seat")
    out: dict[str, str] = {}
    if seat is None or view.get("acting") != seat or view.get("over") or not st:
        return out, ""
    board = game.board
    phase = st.get("phase")
    prompt = st.get("prompt_data")
    me = st["players"][seat]
    hint = ""
    if prompt is not None:
        first = "first answer this: " + PROMPTS.get(prompt["kind"], prompt["kind"]).lower()
        tie = {"reroll": "a tie: both roll again", "attacker": "a tie: the attacker wins",
               "defender": "a tie: the defender wins"}.get(game.option_values["ties"], "")
        if prompt["kind"] in ("precombat", "attack", "defend"):
            hint = (f"In combat each side rolls a six-sided die and adds its bonuses; the higher total wins ({tie})."
                    " The winner deals its damage and the loser is pushed back, usually one space.")
        elif prompt["kind"] == "trap_victim":
            hint = ("The one who takes the trap rolls a six-sided die: reaching the number on the trap card destroys it,"
                    " otherwise its effect applies (some traps hit a summon differently from a summoner).")
        if prompt["kind"] == "hand_full":
            hint = (f"Your hand holds {me['hand_size']} cards, the most allowed ({game.option_values['hand_limit']}):"
                    " discard one to draw, or keep your hand and draw nothing.")
    elif phase == "temple":
        first = "first choose your starting mana temple"
    else:
        first = ""
    for cid in st.get("hand") or ():
        click = f"card:{cid}"
        if click in used or click in out:
            continue
        out[click] = (first or ("cards are played before you roll or after you move, not during the move"
                                if phase == "move" else _card_reason(game, st, seat, cid)))
    cost = game.option_values["gate_cost"]
    for i in range(board.size):
        click = f"board:{board.ids[i]}"
        if click in used:
            continue
        if first:
            out[click] = first
        elif phase == "pre":
            out[click] = "roll first: pieces move after the roll"
        elif phase == "post":
            out[click] = "you have moved this turn: play cards or end your turn"
        elif phase == "move" and board.kinds[i] in ("gate", "hall") and not st["gates"][(i - 32) // 3]:
            k = (i - 32) // 3
            out[click] = (f"gate {k + 1} is closed: passing it opens it for {cost} mana, and you have {me['mana']}"
                          if game.option_values["gate_opening"] != "at-will"
                          else f"gate {k + 1} is closed: open it first ({cost} mana)")
        elif phase == "move":
            out[click] = f"none of your pieces can end its move there with this roll ({sum(st.get('dice') or ())})"
    for p in st.get("players", []):
        click = f"item:P{p['seat']}"
        if click in used or not p["alive"]:
            continue
        out[click] = first or (f"that is Player {p['seat'] + 1}'s summoner" if p["seat"] != seat
                               else "roll first: pieces move after the roll" if phase == "pre"
                               else "you have moved this turn" if phase == "post"
                               else "your summoner cannot move now (in the chamber, or stunned)")
    for m in st.get("summons", []):
        click = f"item:S{m['uid']}"
        if click in used:
            continue
        out[click] = first or (f"that is Player {m['owner'] + 1}'s {m['name']}" if m["owner"] != seat
                               else "roll first: pieces move after the roll" if phase == "pre"
                               else "you have moved this turn" if phase == "post"
                               else f"your {m['name']} cannot move now (in the chamber, or stunned)")
    if not hint and phase in ("pre", "post") and prompt is None:
        hint = _turn_hint(game, st, seat, out)
    return out, hint


def _turn_hint(game: Game, st: dict[str, Any], seat: int, why: dict[str, str]) -> str:
    """The goal, how the centre opens, when a summon can be called, and why a card in hand is not offered."""
    o = game.option_values
    how = ("pay it from anywhere on your turn" if o["gate_opening"] == "at-will"
           else "pay it as you move through a closed gate")
    parts = [f"To win, hold the Chamber of Victory for {o['hold_turns']} turns or be the last summoner standing;"
             f" a mana gate to the centre opens for {o['gate_cost']} mana: {how}.",
             "A summon is called onto your summoner's space and only when no other piece stands there,"
             " so after summoning move on before calling the next."]
    blocked = [f"{game.cards[cid].name} ({why[f'card:{cid}']})" for cid in dict.fromkeys(st.get("hand") or ())
               if f"card:{cid}" in why]
    if blocked:
        parts.append("Not playable now: " + "; ".join(blocked) + ".")
    return " ".join(parts)


def _fight(st: dict[str, Any], space: int) -> str:
    """" (attacks Player 4)" when the acting seat's move to ``space`` starts a fight, from the view."""
    me = st.get("active")
    enemies = [f"Player {p['seat'] + 1}" for p in st.get("players", []) if p["alive"] and p["space"] == space and p["seat"] != me]
    enemies += [f"{m['name']} (P{m['owner'] + 1})" for m in st.get("summons", []) if m["space"] == space and m["owner"] != me]
    return fight_words(enemies)


def _piece(st: dict[str, Any], pid: Any) -> str:
    """A piece as the board names it (issue 32: never its id): ``"P0"`` -> ``"Player 1"``, ``"S7"`` ->
    ``"Oni (P2)"`` (a summon, with its owner as its token shows), ``"B7"`` -> the summoner moving with it."""
    pid = str(pid)
    if pid[:1] == "P" and pid[1:].isdigit():
        return f"Player {int(pid[1:]) + 1}"
    if pid[:1] in ("S", "B") and pid[1:].isdigit():
        m = next((m for m in st.get("summons", []) if m["uid"] == int(pid[1:])), None)
        name = f"{m['name']} (P{m['owner'] + 1})" if m else "a summon"
        return name if pid[0] == "S" else f"summoner with {name} (half roll)"
    return pid


def _label(game, st: dict[str, Any], a: tuple) -> str:
    """A target's label, from static data and the seat's view (pieces by the names the board shows)."""
    cards, names = game.cards, game.board.names

    def word(x) -> str:
        if isinstance(x, int):
            return names[x] if 0 <= x < len(names) else str(x)
        if x in cards:
            return cards[x].name
        return _piece(st, x)

    kind = a[0]
    if kind == "temple":
        return f"start at {word(a[1])}"
    if kind == "open":
        return f"open gate {a[1] + 1} (G{a[1] + 1})"
    if kind == "move":
        return f"move {word(a[1]) if a[1] != 'P' else 'summoner'} to {word(a[2])}" + _fight(st, a[2])
    if kind in ("ability", "boost", "defend"):
        verb = {"ability": "use the ability of", "boost": "use the combat ability of", "defend": "defend with"}[kind]
        return f"{verb} {_piece(st, f'S{a[1]}')}" + (f" on {word(a[2])}" if len(a) > 2 else "")
    if kind == "attack":
        return f"{word(a[1])} attacks {word(a[2])}"
    if kind == "victim":
        return f"{word(a[1])} takes the trap"
    if kind == "discard_draw":
        return f"discard {word(a[1])} to draw"
    if kind in ("trap", "cast", "equip", "use") and len(a) > 2:
        verb = {"trap": "set trap", "cast": "cast", "equip": "equip", "use": "use"}[kind]
        return f"{verb} {word(a[1])} on {word(a[2])}"
    return " ".join([kind.replace("_", " ")] + [word(x) for x in a[1:]])
