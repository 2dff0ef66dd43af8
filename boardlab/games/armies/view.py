"""What each seat sees (views), determinization, action labels and tags (the scene: scene.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import board as B
from .content import DOMAIN_NAMES, cost_text, skill_words

if TYPE_CHECKING:  # pragma: no cover
    from .rules import ArmiesRules

SEATS = ("white", "black")



def exposure_words(pieces: list[tuple[int, str, int, bool]], seat: int, frm: int, to: int) -> str:
    """What a move does to its side's General, for its label, from the public board only (the fresh
    person's trial, issue 44: no warning came *before* an open line reached the General).

    ``pieces`` holds every piece as (seat, kind, square, calmed). The words name the enemy pieces that
    could attack the General once the piece on ``frm`` stands on ``to`` (a capture taken as won) and
    could not before: ``" (opens a line to your General: the black bishop on b4 could attack it)"``;
    for the General itself, every piece that could attack it on ``to``. Empty when there is none."""
    board: list = [None] * 64
    for p in pieces:
        board[p[2]] = p
    mover = board[frm]
    general = next((p for p in pieces if p[0] == seat and p[1] == "K"), None)
    if mover is None or general is None:
        return ""

    def attackers(bd: list, target: int) -> list:
        return [p for p in bd if p is not None and p[0] != seat and not p[3]
                and (target in B.KING[p[2]] if p[1] == "K" else B.threatens(bd, p[1], p[2], p[0], target))]

    after = list(board)
    after[frm] = None
    after[to] = (mover[0], mover[1], to, mover[3])
    if mover[1] == "K":
        new = attackers(after, to)
    else:
        before = attackers(board, general[2])
        new = [p for p in attackers(after, general[2]) if p not in before]
    if not new:
        return ""
    who = " and ".join(f"the {SEATS[p[0]]} {B.PIECE_NAMES[p[1]]} on {B.square_name(p[2])}" for p in new)
    if mover[1] == "K":
        return f" (there your General could be attacked by {who})"
    return f" (opens a line to your General: {who} could attack it)"


def army_view(st: "ArmiesRules", a) -> dict[str, Any]:
    return {
        "id": a.id, "seat": a.seat, "kind": a.kind, "sq": a.sq, "moved": a.moved,
        "skill": list(a.skill), "max": list(a.maxs), "leader": a.leader, "spent": a.spent, "hope": a.hope,
        "attached": [[n, o] for n, o in a.attached], "traits": list(a.traits),
        "offense": st.offense(a), "defense": st.defense(a), "temp": a.temp, "calmed": a.calmed,
        "cavalry": st.has_trait(a, "cavalry"),
    }


def state_view(st: "ArmiesRules", seat: int | None) -> dict[str, Any]:
    prompt = None
    if st.stack:
        p = st.stack[-1]
        prompt = {"kind": p.kind, "seat": p.seat}
        if p.kind in ("pay", "card_window"):
            play = p.data["play"]
            prompt["card"] = play.get("card", "")
            prompt["target"] = play.get("target")
            # the army the card is played through: the log says it to everyone ("through the bishop on c8"), so the
            # board says it too (issue 46: found by tests/test_indistinguishability.py, received_leaks)
            prompt["primary"] = play.get("primary")
            if p.kind == "pay":
                prompt["need"] = cost_text(tuple(p.data["need"]))
        elif p.kind in ("attack_window", "after_dice"):
            c = st.combats[p.data["cid"]]
            prompt.update({k: c[k] for k in ("from", "to", "a", "d", "power")})
            prompt["attack"] = c["kind"]
        elif p.kind == "chain":
            prompt["power"] = p.data["power"]
    return {
        "armies": [army_view(st, a) for a in sorted(st.armies.values(), key=lambda a: a.id)],
        "hand": sorted(st.hands[seat]) if seat is not None else None,
        "hand_sizes": [len(h) for h in st.hands],
        "revealed": [sorted(r) for r in st.revealed],
        "deck_sizes": [len(d) for d in st.decks],
        "discards": [list(d) for d in st.discards],
        "removed": [list(d) for d in st.removed],
        "strategies": [{"uid": u, "card": n, "owner": o, "tokens": t} for u, n, o, t in st.strategies],
        "active": st.active, "phase": st.phase, "major_used": st.major_used, "trained": st.trained,
        "en_passant": st.ep[0] if st.ep else None, "first": st.first, "exempt": list(st.exempt),
        "winner": st.winner, "reason": st.reason, "prompt": prompt, "last_move": list(st.last_move) if st.last_move else None,
        "deck_names": list(st.game.deck_names),
    }


def _army_label(st, army_id) -> str:
    a = st.armies.get(army_id)
    if a is None:
        return "?"
    return f"{B.PIECE_NAMES[a.kind]} {B.square_name(a.sq)}"


def describe(st: "ArmiesRules", action: tuple) -> str:
    k = action[0]
    if k == "move":
        f, t, promo = action[1], action[2], action[3]
        occ = st.at(t)
        verb = "attacks" if occ is not None or (st.at(f) and st.at(f).kind == "P" and (f & 7) != (t & 7)) else "to"
        extra = f" (promote to {B.PIECE_NAMES[promo.upper()]})" if promo else ""
        pieces = [(a.seat, a.kind, a.sq, bool(a.calmed)) for a in st.armies.values()]
        mover = st.at(f)
        warn = exposure_words(pieces, mover.seat, f, t) if mover is not None else ""
        return f"{_army_label(st, st.board[f])} {verb} {B.square_name(t)}{extra}{warn}"
    if k == "play":
        # "through General e1 onto e2" read as a move (issue 44): say whose card it is and what it aims at
        a, t = st.armies.get(action[2]), action[3]
        if a is not None and a.sq == t:
            return f"play {action[1]} on your {_army_label(st, action[2])}"
        occ = st.at(t)
        whose = "your" if occ is not None and a is not None and occ.seat == a.seat else f"the {SEATS[occ.seat]}" if occ else ""
        aim = (f"{whose} {B.PIECE_NAMES[occ.kind]} on {B.square_name(t)}" if occ is not None
               else f"the empty square {B.square_name(t)}")
        return f"play {action[1]} with your {_army_label(st, action[2])}, aimed at {aim}"
    if k == "train":
        return f"play {action[1]} on {_army_label(st, action[2])}"
    if k == "strategy":
        return f"play strategy {action[1]}"
    if k == "ability":
        if action[2] == "blood_sacrifice":
            return f"Blood Cultist ({_army_label(st, action[1])}): pay 1 Ethyr, sacrifice the leader of {_army_label(st, action[3])}"
        return f"Unyielding Offense ({_army_label(st, action[1])}): pay 1 Tor, +1 offense"
    if k == "volley":
        return f"Longbow volley from {_army_label(st, action[1])} at {B.square_name(action[2])}"
    if k == "calm":
        return f"major action: {_army_label(st, action[1])} does not move or attack this turn (Unholy Bloodthirst)"
    if k == "break":
        return f"major action + discard 2: destroy Broken Supply Chain on {_army_label(st, action[1])}"
    if k == "exempt":
        return "major action + 1 skill: Unfavorable War does not apply this turn"
    if k == "politician":
        return f"spend the politician on {_army_label(st, action[2])}: Unfavorable War does not apply this turn"
    if k == "pay":
        return f"pay {DOMAIN_NAMES[action[2]]} from {_army_label(st, action[1])}"
    if k == "autopay":
        return "pay automatically"
    if k == "pass":
        if st.stack:
            return "pass (no response)"
        return "do not move"
    if k == "rest":
        return f"rest {_army_label(st, action[1])}"
    if k == "end":
        return "end the turn without resting"
    if k == "chain":
        return f"cavalry continues to {B.square_name(action[1])}"
    if k == "stop":
        return "cavalry stops"
    if k == "lose":
        return f"the General loses one {DOMAIN_NAMES[action[1]]} skill point"
    if k == "discard":
        return f"discard {action[1]}"
    if k == "skills":  # grouped: all three in one domain, two and one, or three different
        return "General skill: " + skill_words(action[1])
    return " ".join(str(x) for x in action)


def action_tags(st: "ArmiesRules", action: tuple) -> tuple[str, ...]:
    k = action[0]
    if k in ("play", "train", "strategy"):
        return (f"card:{action[1]}",)
    if k == "move":
        f, t = action[1], action[2]
        tags = []
        a = st.at(f)
        if st.board[t] is not None or (a is not None and a.kind == "P" and (f & 7) != (t & 7)):
            tags.append("rule:attack")
        if a is not None and a.kind == "K" and abs(t - f) == 2:
            tags.append("rule:castle")
        if action[3]:
            tags.append("rule:promotion")
        return tuple(tags)
    if k == "ability":
        return ("rule:" + action[2], "card:" + ("Blood Cultist" if action[2] == "blood_sacrifice" else "Unyielding Offense"))
    if k == "volley":
        return ("rule:longbow", "card:Torani Longbow Training")
    if k in ("calm", "break", "exempt", "politician", "rest", "chain"):
        return (f"rule:{k}",)
    return ()


class ArmiesView:
    """The seat views of an Armies position (bound into ``ArmiesState`` in game.py)."""

    __slots__ = ()

    def _view(self, seat: int | None) -> dict[str, Any]:
        return state_view(self, seat)  # type: ignore[arg-type]

    def _determinize(self, seat: int, rng) -> None:
        """Reshuffle the unseen cards: the opponent's hand (except revealed cards) with its deck, and our deck."""
        other = 1 - seat
        hand = list(self.hands[other])
        for n in self.revealed[other]:
            hand.remove(n)
        pool = hand + self.decks[other]
        rng.shuffle(pool)
        self.hands[other] = list(self.revealed[other]) + pool[:len(hand)]
        self.decks[other] = pool[len(hand):]
        rng.shuffle(self.decks[seat])

    def describe(self, action: tuple) -> str:
        return describe(self, action)  # type: ignore[arg-type]

    def action_tags(self, action: tuple) -> tuple[str, ...]:
        return action_tags(self, action)  # type: ignore[arg-type]
