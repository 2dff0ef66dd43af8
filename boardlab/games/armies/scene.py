"""The scene of an Armies position for renderers, built from a seat's view only."""

from __future__ import annotations

from typing import Any, Sequence

from boardlab.engine.scene import chess_axes, status_line

from . import board as B
from .content import DOMAINS, cost_text
from .view import SEATS

GLYPHS = {
    (0, "K"): "\u2654", (0, "Q"): "\u2655", (0, "R"): "\u2656", (0, "B"): "\u2657", (0, "N"): "\u2658", (0, "P"): "\u2659",
    (1, "K"): "\u265a", (1, "Q"): "\u265b", (1, "R"): "\u265c", (1, "B"): "\u265d", (1, "N"): "\u265e", (1, "P"): "\u265f",
}
PROMPTS = {
    "setup": "Distribute your General's three skill points",
    "pay": "Pay the skill cost (or autopay)",
    "card_window": "Your opponent is playing a card: respond (Disruption) or pass",
    "attack_window": "You are attacked: respond with a technique or pass",
    "after_dice": "Dice are rolled: play Hold the Line or pass",
    "chain": "Cavalry: ride on, attack again, or stop",
    "general_loss": "Your General lost: choose the domain that loses a skill point",
    "discard": "Discard a card",
}


def _xy(sq: int) -> tuple[int, int]:
    return sq & 7, 7 - (sq >> 3)


def _cell(sq: int) -> str:
    x, y = _xy(sq)
    return f"main:{x},{y}"


def _skill_text(skill, maxs) -> str:
    parts = [f"{d} {skill[i]}/{maxs[i]}" for i, d in enumerate(DOMAINS) if maxs[i] or skill[i]]
    return ", ".join(parts) if parts else "green"


def build_scene(game, view: dict[str, Any], actions: Sequence[tuple] = ()) -> dict[str, Any]:
    s = view["state"]
    cells = []
    for sq in range(64):
        x, y = _xy(sq)
        light = (x + y) % 2 == 0
        hl = s["last_move"] is not None and sq in s["last_move"]
        cells.append({"x": x, "y": y, "fill": "#f0d9b5" if light else "#b58863", "highlight": hl,
                      "title": B.square_name(sq)})
    items = []
    for a in s["armies"]:
        x, y = _xy(a["sq"])
        badges = []
        if a["leader"]:
            badges.append(("L" if not a["spent"] else "l") + (f"+{a['hope']}" if a["hope"] else ""))
        if a["attached"]:
            badges.append(str(len(a["attached"])))
        # no square in the title: the axes name it, and a text legend then lists each kind of piece once
        title = [f"{SEATS[a['seat']]} {B.PIECE_NAMES[a['kind']]}"]
        if a["offense"] or a["defense"]:
            title.append(f"offense {a['offense']} / defense {a['defense']}")
        if any(a["max"]):
            title.append("skill " + _skill_text(a["skill"], a["max"]))
        if a["leader"]:
            title.append(f"leader: {a['leader']} ({'spent' if a['spent'] else 'ready'})"
                         + (f", {a['hope']} Hope" if a["hope"] else ""))
        for n, o in a["attached"]:
            title.append(f"{n} (from {SEATS[o]})")
        if a["traits"]:
            title.append("trained: " + ", ".join(a["traits"]))
        if a["calmed"]:
            title.append("cannot move or attack this turn")
        items.append({"id": f"a{a['id']}", "x": x, "y": y, "text": GLYPHS[(a["seat"], a["kind"])],
                      "color": "#fff" if a["seat"] == 0 else "#222", "shape": "circle",
                      "badge": " ".join(badges), "title": "; ".join(title)})
    seat = view.get("seat")
    panels = []
    for p in (0, 1):
        g = next((a for a in s["armies"] if a["kind"] == "K" and a["seat"] == p), None)
        rows = [["General skill", _skill_text(g["skill"], g["max"]) if g else "-"],
                ["Hand", str(s["hand_sizes"][p])], ["Deck", str(s["deck_sizes"][p])],
                ["Discard", str(len(s["discards"][p]))]]
        if s["deck_names"][p]:
            rows.insert(0, ["Deck list", s["deck_names"][p]])
        for a in s["armies"]:
            if a["seat"] == p and a["kind"] != "K" and (any(a["max"]) or a["leader"] or a["attached"]):
                desc = [_skill_text(a["skill"], a["max"])]
                if a["leader"]:
                    desc.append(f"{a['leader']} ({'spent' if a['spent'] else 'ready'})")
                desc += [n for n, _ in a["attached"]]
                rows.append([f"{B.PIECE_NAMES[a['kind']]} {B.square_name(a['sq'])}", "; ".join(desc)])
        for st_ in s["strategies"]:
            if st_["owner"] == p:
                tok = f" ({st_['tokens']} tokens)" if st_["tokens"] else ""
                rows.append(["Strategy", st_["card"] + tok])
        cards = []
        if seat == p and s["hand"] is not None:
            for i, n in enumerate(s["hand"]):
                c = game.cards[n]
                cards.append({"id": f"h{i}", "name": n, "text": f"{c.line}, {cost_text(c.cost) or 'free'}: {c.text}"})
        else:
            known = list(s["revealed"][p])
            for i in range(s["hand_sizes"][p]):
                if i < len(known):
                    cards.append({"id": f"o{p}_{i}", "name": known[i], "text": "revealed"})
                else:
                    cards.append({"id": f"o{p}_{i}", "name": "card", "face_down": True})
        panels.append({"title": SEATS[p].capitalize(), "seat": p, "active": view.get("acting") == p,
                       "color": "#eee" if p == 0 else "#333", "rows": rows, "cards": cards})
    targets = []
    hand_ids = {}
    if s["hand"] is not None:
        for i, n in enumerate(s["hand"]):
            hand_ids.setdefault(n, f"card:h{i}")
    by_id = {a["id"]: a for a in s["armies"]}
    for i, act in enumerate(actions):
        k = act[0]
        clicks = None
        if k == "move":
            clicks = [_cell(act[1]), _cell(act[2])]
            if act[3] and act[3] != "q":
                clicks = None  # under-promotions are chosen from the action list
        elif k == "play" and act[1] in hand_ids and act[2] in by_id:
            clicks = [hand_ids[act[1]], _cell(by_id[act[2]]["sq"]), _cell(act[3])]
        elif k == "train" and act[1] in hand_ids and act[2] in by_id:
            clicks = [hand_ids[act[1]], _cell(by_id[act[2]]["sq"])]
        elif k == "strategy" and act[1] in hand_ids:
            clicks = [hand_ids[act[1]]]
        elif k in ("rest",) and act[1] in by_id:
            clicks = [_cell(by_id[act[1]]["sq"])]
        elif k == "chain":
            clicks = [_cell(act[1])]
        if clicks:
            label = f"{B.square_name(act[1])} to {B.square_name(act[2])}" if k == "move" else ""
            targets.append({"action": i, "clicks": clicks, "label": label})
    phase = {"opp1": "First Opportunity / Move", "opp2": "Second Opportunity / Rest", "setup": "Setup",
             "moving": "Move", "over": "Game over"}.get(s["phase"], s["phase"])
    prompt = ""
    if s["prompt"] is not None and seat is not None and s["prompt"]["seat"] == seat:
        prompt = PROMPTS.get(s["prompt"]["kind"], "")
        if s["prompt"].get("card"):
            prompt += f" ({s['prompt']['card']})"
        if s["prompt"].get("a") is not None:
            prompt += f" (attack {s['prompt']['a']} vs defense {s['prompt']['d']})"
    elif seat is not None and view.get("acting") == seat:
        prompt = ("Play cards, then move a piece (or pass)" if s["phase"] == "opp1"
                  else "Play cards, then rest an army or end the turn")
    return {
        "title": "Armies",
        "status": status_line(view, [n.capitalize() for n in SEATS]) + f" - turn {view['turn']}, {phase}"
        + (" (major action used)" if s["major_used"] else ""),
        "prompt": prompt,
        "boards": [{"id": "main", "kind": "grid", "cols": 8, "rows": 8, **chess_axes(8, 8, rank_up=True),
                    "cells": cells, "items": items}],
        "panels": panels,
        "targets": targets,
    }
