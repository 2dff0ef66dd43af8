"""The scene of an Armies position for renderers, built from a seat's view only."""

from __future__ import annotations

from typing import Any, Sequence

from boardlab.engine.scene import chess_axes, status_line

from . import board as B
from .content import DOMAINS, cost_text, plain_card_text
from .view import SEATS, exposure_words

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


#: What an army's skill is, said once where the panels show it (issue 32: "green" alone told a newcomer nothing).
NO_SKILL = "none yet (a \"green\" army: no skill in any domain)"
#: A General whose chosen skill is all gone: it had three points at setup, so "none yet" would be wrong.
LOST_SKILL = "none left: it lost every skill point in lost battles (it can no longer pay card costs)"


def _skill_text(skill, maxs, lost: bool = False) -> str:
    """An army's skill by domain, now/max: ``"Gnar 1/2, Tor 1/1"`` (never the domain letters);
    ``lost``: the army had skill once (a General after setup), so none means it was lost, not never gained."""
    from .content import DOMAIN_NAMES

    parts = [f"{DOMAIN_NAMES[d]} {skill[i]}/{maxs[i]}" for i, d in enumerate(DOMAINS) if maxs[i] or skill[i]]
    return ", ".join(parts) if parts else LOST_SKILL if lost else NO_SKILL


WINDOW_WORDS = {"attack": "when one of your pieces is attacked", "after_dice": "after the dice of an attack on you",
                "card": "when your opponent plays a card", "own": "on your own turn"}


def _names(text: str) -> str:
    """``"2GG"`` -> ``"2 of any domain + 2 Gnar"``."""
    from .content import DOMAIN_NAMES, parse_cost

    cost = parse_cost(text)
    parts = ([f"{cost[0]} of any domain"] if cost[0] else []) + [f"{n} {DOMAIN_NAMES[d]}" for d, n in zip(DOMAINS, cost[1:]) if n]
    return " + ".join(parts) or "nothing"


def _lower_first(text: str) -> str:
    """``"Dice are rolled: play Hold the Line"`` -> ``"dice are rolled: play Hold the Line"`` (card names keep their capitals)."""
    return text[:1].lower() + text[1:]


def _held(pool: list[int]) -> str:
    from .content import DOMAIN_NAMES

    return ", ".join(f"{n} {DOMAIN_NAMES[d]}" for d, n in zip(DOMAINS, pool) if n) or "no skill"


#: A spent leader, in words (issue 32: "spent" alone was never explained).
SPENT = "spent: it has acted, so its army cannot attack until it rests"


def line_words(c) -> str:
    """A card's type line with what its playing restriction and a major action mean:
    ``"Leader Maneuver (through a piece whose leader is ready; a major action, one a turn)"``."""
    notes = []
    if c.restriction == "leader":
        notes.append("played through a piece whose leader is ready" if c.type in ("maneuver", "technique")
                     else "onto an army that has a leader")
    elif c.restriction == "army":
        notes.append("onto an army other than the General")
    elif c.restriction == "general":
        notes.append("onto your General")
    if c.major or c.type == "strategy":
        notes.append("a major action: one a turn")
    return f"{c.line} ({'; '.join(notes)})" if notes else c.line


def card_reason(game, s: dict[str, Any], seat: int, name: str) -> str:
    """Why the card ``name`` in ``seat``'s hand cannot be played now, from the seat's view ``s`` only
    (called for a card no legal action plays: the first rule it breaks, in the order a player checks)."""
    c = game.cards[name]
    p = s["prompt"]
    if p is not None:
        if p["kind"] in ("card_window", "attack_window", "after_dice"):
            window = {"card_window": "card", "attack_window": "attack", "after_dice": "after_dice"}[p["kind"]]
            if c.type != "technique" or window not in c.windows:
                return f"only a technique played {WINDOW_WORDS[window]} can be played now"
            return "no legal target for it in this response (see the card's text)"
        return "finish the current decision first: " + _lower_first(PROMPTS.get(p["kind"], "the choice in the list"))
    if c.type == "technique" and "own" not in c.windows:
        return "a technique played only in response, " + " or ".join(WINDOW_WORDS[w] for w in c.windows)
    if (c.major or c.type == "strategy") and s["major_used"]:
        return ("playing it is a major action (one a turn: a Leader, Maneuver, Boon, Curse or Strategy),"
                " and you used this turn's major action")
    limit = game.option_values.get("trainings_per_turn", 0)
    if c.type == "training" and limit and s["trained"] >= limit:
        return f"you already played {limit} Training card{'s' if limit > 1 else ''} this turn"
    cost = c.cost
    pool = [0] * 5
    for a in s["armies"]:
        if a["seat"] == seat:
            pool = [x + y for x, y in zip(pool, a["skill"])]
    if sum(cost) and (any(pool[d] < cost[d + 1] for d in range(5)) or sum(pool) < sum(cost)):
        return f"it costs {_names(cost_text(cost))} and your pieces hold {_held(pool)}"
    if c.type == "leader":
        return ("no target: a Leader joins one of your armies (not the General) without a leader, played through a"
                " piece that stands on or threatens it and can pay" + (f" {_names(cost_text(cost))}" if sum(cost) else ""))
    if c.restriction == "leader" and c.type in ("maneuver", "technique"):
        return "no target: it is played through one of your pieces that has a ready leader"
    if sum(cost):
        return (f"no target: it is played through one of your pieces with skill onto a square it threatens (or its own),"
                f" and the armies on or threatening that square must pay {_names(cost_text(cost))}")
    return "no target for it now"


def _piece_reason(game, s: dict[str, Any], seat: int, a: dict[str, Any], side: str) -> str:
    if a["seat"] != seat:
        return f"that is {side}'s {B.PIECE_NAMES[a['kind']]}, and none of your moves or cards can reach it now"
    what = f"your {B.PIECE_NAMES[a['kind']]}"
    if s["phase"] == "opp2":
        if a["skill"] == a["max"] and not (a["leader"] and a["spent"]):
            return (f"you already moved this turn; {what} has all its skill and no spent (used) leader, so resting it"
                    " would restore nothing (rest another army or end the turn)")
        return f"you already moved this turn, and {what} cannot rest (a card forbids it)"
    if a["calmed"]:
        return f"{what} cannot move or attack this turn (Unholy Bloodthirst)"
    return f"{what} has no legal move from here now"


def why_not_map(game, view: dict[str, Any], actions: Sequence[tuple], hand_ids: dict[str, str],
                used: set[str]) -> tuple[dict[str, str], dict[str, str], str]:
    """Reasons for the acting seat's unusable cards, pieces and squares (click id -> reason), the
    reasons by card name, and a one-line hint for the decision; all from the seat's view."""
    s = view["state"]
    seat = view.get("seat")
    out: dict[str, str] = {}
    by_card: dict[str, str] = {}
    if seat is None or view.get("acting") != seat or view.get("over"):
        return out, by_card, ""
    p = s["prompt"]
    if p is not None and p["kind"] == "setup":
        for sq in range(64):
            out[_cell(sq)] = "first distribute your General's three skill points (in the list of choices)"
        return out, by_card, _setup_hint(game, seat)
    for name, click in hand_ids.items():
        if click not in used:
            by_card[name] = out[click] = card_reason(game, s, seat, name)
    side = SEATS[1 - seat].capitalize()
    for a in s["armies"]:
        click = _cell(a["sq"])
        if click not in used:
            out[click] = (("finish the current decision first: " + _lower_first(PROMPTS.get(p["kind"], "the choice in the list")))
                          if p is not None and a["seat"] == seat else _piece_reason(game, s, seat, a, side))
    occupied = {a["sq"] for a in s["armies"]}
    for sq in range(64):
        click = _cell(sq)
        if sq not in occupied and click not in used:
            out[click] = ("finish the current decision first: " + _lower_first(PROMPTS.get(p["kind"], "the choice in the list")) if p is not None
                          else "none of your pieces can move there now" if s["phase"] == "opp1"
                          else "you already moved this turn (rest an army: its skill back to maximum and its"
                          " leader ready; play a card or end the turn)")
    hint = ""
    kinds = {act[0] for act in actions}
    if p is None and kinds <= {"end", "pass"} and actions:
        rest = ("no army of yours has used skill or a spent (used) leader for a rest to restore" if s["phase"] == "opp2"
                else "no piece of yours can move")
        why: dict[str, int] = {}
        for r in by_card.values():
            key = ("too costly for your skill" if r.startswith("it costs") else "played only in response" if r.startswith("a technique")
                   else "major action used" if "major action" in r else "Training limit reached" if "Training" in r
                   else "no target")
            why[key] = why.get(key, 0) + 1
        cards = (f"; none of the {len(by_card)} cards in hand can be played ("
                 + ", ".join(f"{n} {k}" for k, n in why.items()) + ")") if by_card else ""
        only = "end the turn" if s["phase"] == "opp2" else "pass"
        hint = f"You can only {only}: {rest}{cards}."
    return out, by_card, hint


def _setup_hint(game, seat: int) -> str:
    from .content import DOMAIN_NAMES

    need = [0] * 5
    for n in game.deck_lists[seat]:
        c = game.cards.get(n)
        if c is not None:
            need = [x + y for x, y in zip(need, c.cost[1:])]
    order = [d for d in sorted(range(5), key=lambda d: (-need[d], d)) if need[d]]
    names = [DOMAIN_NAMES[DOMAINS[d]] for d in order]
    mostly = names[0] if len(names) == 1 else f"{names[0]} and {names[1]}" if names else ""
    top = ", ".join(f"{DOMAIN_NAMES[DOMAINS[d]]} {need[d]}" for d in order)
    # the deck list is the seat's own (its name is in every view): its make-up is known, its order is not
    return ("Your General starts with 3 skill points, chosen now before you draw your hand; each pays one point"
            " of its domain toward card costs, and your other armies have none until Training cards add some."
            + (f" Your deck's cards cost mostly {mostly} (points of each domain over the whole deck: {top})." if top else ""))


def _suggest_skills(game, seat: int, actions: Sequence[tuple]) -> dict[str, Any] | None:
    """The setup's suggested skill split (issue 44): two points in the domain the seat's own deck
    costs most, one in the next (as the heuristic bot chooses), as ``{"action": i, "label": ...}``."""
    from .content import DOMAIN_NAMES
    from .content import skill_words

    dem = [0.0] * 5
    for n in game.deck_lists[seat]:
        c = game.cards.get(n)
        if c is None:
            continue
        dem = [x + y for x, y in zip(dem, c.cost[1:])]
        if c.domain:
            dem[DOMAINS.index(c.domain)] += 0.5
    order = sorted(range(5), key=lambda d: (-dem[d], d))
    want = "".join(sorted(DOMAINS[order[0]] * 2 + DOMAINS[order[1]], key=DOMAINS.index))
    for i, a in enumerate(actions):
        if a == ("skills", want):
            return {"action": i, "label": "General skill: " + skill_words(want),
                    "why": f"your deck costs mostly {DOMAIN_NAMES[DOMAINS[order[0]]]}, then {DOMAIN_NAMES[DOMAINS[order[1]]]}"}
    return None


def _general_alert(view: dict[str, Any]) -> str:
    """A warning when an enemy piece can attack the seat's General on its next move (issue 44), from the
    public board: "Your General on e1 can be attacked by the black queen on e8"."""
    s = view["state"]
    seat = view.get("seat")
    if seat is None or view.get("over") or s["phase"] == "setup":
        return ""
    board: list = [None] * 64
    for a in s["armies"]:
        board[a["sq"]] = a
    g = next((a for a in s["armies"] if a["kind"] == "K" and a["seat"] == seat), None)
    if g is None:
        return ""
    by = []
    for a in s["armies"]:
        if a["seat"] == seat or a["calmed"]:
            continue
        hit = g["sq"] in B.KING[a["sq"]] if a["kind"] == "K" else B.threatens(board, a["kind"], a["sq"], a["seat"], g["sq"])
        if hit:
            by.append(f"the {SEATS[a['seat']]} {B.PIECE_NAMES[a['kind']]} on {B.square_name(a['sq'])}")
    if not by:
        return ""
    return (f"Your General on {B.square_name(g['sq'])} is under attack: {' and '.join(by)} can attack it."
            " A General that loses a battle loses a skill point, and with none left to lose you lose the game.")


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
            title.append("skill (now/max) " + _skill_text(a["skill"], a["max"]))
        if a["leader"]:
            title.append(f"leader: {a['leader']} ({SPENT if a['spent'] else 'ready'})"
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
        rows = [["General skill (now/max; pays card costs)",
                 _skill_text(g["skill"], g["max"], lost=s["phase"] != "setup") if g else "-"],
                ["Hand", str(s["hand_sizes"][p])], ["Deck", str(s["deck_sizes"][p])],
                ["Discard", str(len(s["discards"][p]))]]
        if s["deck_names"][p]:
            rows.insert(0, ["Deck list", s["deck_names"][p]])
        for a in s["armies"]:
            if a["seat"] == p and a["kind"] != "K" and (any(a["max"]) or a["leader"] or a["attached"]):
                desc = [_skill_text(a["skill"], a["max"])]
                if a["leader"]:
                    desc.append(f"{a['leader']} ({SPENT if a['spent'] else 'ready'})")
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
                cards.append({"id": f"h{i}", "name": n, "text": f"{line_words(c)}, costs {_names(cost_text(c.cost)) if sum(c.cost) else 'nothing'}: {plain_card_text(c.text)}"})
        else:
            known = list(s["revealed"][p])
            for i in range(s["hand_sizes"][p]):
                if i < len(known):
                    cards.append({"id": f"o{p}_{i}", "name": known[i], "text": "revealed"})
                else:
                    cards.append({"id": f"o{p}_{i}", "name": "card", "face_down": True})
        panels.append({"title": SEATS[p].capitalize(), "seat": p, "active": view.get("acting") == p,
                       "color": "#eee" if p == 0 else "#333", "rows": rows, "cards": cards})
    panels.append({"title": "Key", "rows": [
        ["Badges", "'L' a ready leader, 'l' a spent one (it has acted; its army cannot attack until it rests),"
                   " '+N' the leader's Hope; a number counts the cards attached to the army (boons, curses, training)"],
        ["Skill", "each army's points by domain pay card costs; a cost of '2 of any domain' takes points of any"
                  " domain; spent points come back when the army rests"],
    ], "cards": []})
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
            label = (f"{B.square_name(act[1])} to {B.square_name(act[2])}" + _exposes(view, act[1], act[2])) if k == "move" else ""
            targets.append({"action": i, "clicks": clicks, "label": label})
    used = {c for t in targets for c in t["clicks"]}
    why_not, card_why, hint = why_not_map(game, view, actions, hand_ids, used)
    for panel in panels:
        if panel.get("seat") == seat:
            for c in panel.get("cards") or ():
                if c["name"] in card_why:
                    c["why_not"] = card_why[c["name"]]
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
                  else "Play cards, then rest an army (its skill back to maximum, its leader ready) or end the turn")
        if s["phase"] == "opp2" and not any(a[0] == "rest" for a in actions):
            prompt = "Play cards, then end the turn: " + _nothing_to_rest(s, seat)
    suggest = _suggest_skills(game, seat, actions) if s["phase"] == "setup" and seat is not None else None
    alert = _general_alert(view) or _exposing_alert(view, actions)
    return {
        "title": "Armies",
        # over: the result alone (it read "Game over: White won (...) - turn 10, Game over (this turn's
        # major action is used)", issue 44)
        "status": status_line(view, [n.capitalize() for n in SEATS]) + ("" if view.get("over") else
                                                                        f" - turn {view['turn']}, {phase}"
                                                                        + (" (this turn's major action is used)" if s["major_used"] else "")),
        **({"suggest": suggest} if suggest else {}),
        **({"alert": alert} if alert else {}),
        "prompt": prompt,
        "boards": [{"id": "main", "kind": "grid", "cols": 8, "rows": 8, **chess_axes(8, 8, rank_up=True),
                    "cells": cells, "items": items}],
        "panels": panels,
        "targets": targets,
        "why_not": why_not,
        **({"hint": hint} if hint else {}),
        # a battle's log line shows its first sentence ("Attack 1 against defense 0."), the dice on demand
        "log_fold": [r"Attack \d+ against defense \d+\."],
    }


def _pieces(view: dict[str, Any]) -> list[tuple[int, str, int, bool]]:
    return [(a["seat"], a["kind"], a["sq"], bool(a["calmed"])) for a in view["state"]["armies"]]


def _exposes(view: dict[str, Any], frm: int, to: int) -> str:
    seat = view.get("seat")
    if seat is None or view.get("acting") != seat:
        return ""
    return exposure_words(_pieces(view), seat, frm, to)


def _exposing_alert(view: dict[str, Any], actions: Sequence[tuple]) -> str:
    """A warning *before* a move opens a line to the seat's General (issue 44, the fresh person's trial):
    which of its moves would let an enemy piece attack it, from the public board."""
    seat = view.get("seat")
    if seat is None or view.get("acting") != seat or view.get("over") or view["state"]["phase"] == "setup":
        return ""
    pieces = _pieces(view)
    risky = []
    for a in actions:
        if a[0] == "move" and (not a[3] or a[3] == "q"):
            words = exposure_words(pieces, seat, a[1], a[2])
            if words:
                risky.append(f"{B.square_name(a[1])} to {B.square_name(a[2])}")
    if not risky:
        return ""
    shown = ", ".join(risky[:4]) + (f" and {len(risky) - 4} more" if len(risky) > 4 else "")
    return (f"Careful: {len(risky)} of your moves would let an enemy piece attack your General ({shown}); the"
            " action list says which piece for each. A General that loses a battle loses a skill point.")


def _nothing_to_rest(s: dict[str, Any], seat: int) -> str:
    """Why no army of ``seat`` can rest now: the Rest step is offered only for an army with something to
    restore (ledger 41), and never for one carrying Broken Supply Chain (issue 44: nothing said why)."""
    cursed = [a for a in s["armies"] if a["seat"] == seat and any(n == "Broken Supply Chain" for n, _ in a["attached"])]
    why = ("nothing to rest: every army of yours" + (" that may rest" if cursed else "")
           + " has its skill at its maximum and no spent leader (resting only restores spent skill and readies"
           " a spent leader)")
    if cursed:
        names = ", ".join(f"{B.PIECE_NAMES[a['kind']]} {B.square_name(a['sq'])}" for a in cursed)
        why += f"; {names} {'carries' if len(cursed) == 1 else 'carry'} Broken Supply Chain and cannot rest"
    return why
