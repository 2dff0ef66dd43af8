"""Armies rule properties: what the seed's rules make always true (see :mod:`boardlab.engine.properties`).

Each property is written from the seed's words (``/work/shared/seeds/002_309a0e874664b9b0.text.md``,
numbered as in ``docs/rules/armies.concordance.csv``), not from the rules' helpers: threats, dice
counts, costs and the cards' places are recounted here from the position's fields.  Where a property
needs to know what happened *inside* a transition (which battles were fought and who lost them), it
replays the transition on a copy of the position before it with the event log on and reads the
battle events (:func:`_battles`); the positions it is given are never changed.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from boardlab.engine.properties import PropertySet

PROPERTIES = PropertySet()

DOMAINS = "GELTS"
SEATS = ("white", "black")
KNIGHT_STEPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
ROOK_LINES = ((0, 1), (0, -1), (1, 0), (-1, 0))
BISHOP_LINES = ((1, 1), (1, -1), (-1, 1), (-1, -1))
LINES = {"R": ROOK_LINES, "B": BISHOP_LINES, "Q": ROOK_LINES + BISHOP_LINES, "K": ROOK_LINES + BISHOP_LINES}


# -- reading the position (independently of the rules' helpers) --------------------------------------
def _card(st, name: str):
    return st.game.cards[name]


def _strategies(st, name: str, owner: int | None = None) -> list[list]:
    return [s for s in st.strategies if s[1] == name and (owner is None or s[2] == owner)]


def _on(f: int, r: int) -> bool:
    return 0 <= f < 8 and 0 <= r < 8


def _threatens(st, a, target: int) -> bool:
    """Seed 42.1-44.1: a pawn threatens the squares diagonally in front of it, the General like a
    queen, line pieces up to and including the first occupied square; Unseasonable Weather (376.5)
    cuts an enemy's threat range (knights excepted) to one space."""
    f, r = a.sq & 7, a.sq >> 3
    tf, tr = target & 7, target >> 3
    if a.kind == "P":
        return tr - r == (1 if a.seat == 0 else -1) and abs(tf - f) == 1
    if a.kind == "N":
        return (tf - f, tr - r) in KNIGHT_STEPS
    reach = 1 if _strategies(st, "Unseasonable Weather", 1 - a.seat) else 7
    for df, dr in LINES[a.kind]:
        nf, nr = f + df, r + dr
        steps = 0
        while _on(nf, nr) and steps < reach:
            steps += 1
            sq = nr * 8 + nf
            if sq == target:
                return True
            if st.board[sq] is not None:
                break
            nf, nr = nf + df, nr + dr
    return False


#: The seed's printed bonuses ("[Offense Bonus]/[Defense Bonus]" lines and Spirit of Fire's "+2 offense and
#: defense"): 114.1, 122.1, 130.1, 136.1, 144.1, 262.1.  Cards outside the seed's list use their table entry.
SEED_STATS = {"Heavy Cavalry": (6, 5), "Blood Cultist": (1, 1), "Shield Bearers": (0, 3), "Torani Cadet": (1, 1),
              "Cloaksworn Commander": (1, 1), "Spirit of Fire": (2, 2)}


def _stat(st, name: str, i: int) -> int:
    card = _card(st, name)
    return SEED_STATS[name][i] if name in SEED_STATS else (card.offense, card.defense)[i]


def _offense(st, a) -> int:
    """Seed 78.1-78.2: offense starts at zero and grows by the leader's and boons' bonuses, Hope
    tokens (+1/+1) and the turn's bonuses (Blood Cultist, Unyielding Offense)."""
    cards = [a.leader] if a.leader else []
    cards += [n for n, _ in a.attached]
    return sum(_stat(st, n, 0) for n in cards) + a.hope + a.temp


def _defense(st, a) -> int:
    cards = [a.leader] if a.leader else []
    cards += [n for n, _ in a.attached]
    d = sum(_stat(st, n, 1) for n in cards) + a.hope
    if _strategies(st, "Bows and Knives", a.seat):  # 394.2: "a maximum defense of 1"
        d = min(d, 1)
    return d


def _hits(st, faces: list[int]) -> int:
    """Seed 76.1-76.3: binary dice; on a d6, 1-3 count 0 and 4-6 count 1."""
    if st.game.option_values["dice"] == "coin":
        assert all(f in (0, 1) for f in faces), faces
        return sum(faces)
    assert all(1 <= f <= 6 for f in faces), faces
    return sum(1 for f in faces if f >= 4)


def _general(st, seat: int):
    found = [a for a in st.armies.values() if a.kind == "K" and a.seat == seat]
    return found[0] if len(found) == 1 else None


def _is_major(st, action: tuple) -> bool:
    """Seed 62.3: "Major actions consist of using a major leader ability or playing a card other than a
    Technique or Training"; Torani Cadet "does not count as a major action" (142.2); the Longbow volley
    and the "Enemy/Global Major Action" costs say so themselves."""
    kind = action[0]
    if kind in ("volley", "calm", "break", "exempt", "strategy"):
        return True
    if kind == "play":
        card = _card(st, action[1])
        return card.type not in ("technique", "training") and "not count as a major action" not in card.text
    return False


def _owed(st, seat: int) -> int:
    """Skill points the seat's General still has to pay: open choices and queued losses."""
    return (sum(1 for p in st.stack if p.kind == "general_loss" and p.seat == seat)
            + sum(1 for f in st.pending if f.get("op") == "glose" and f.get("seat") == seat))


# -- what happened inside a transition ------------------------------------------------------------
_CACHE: list[Any] = [None, None, None]


def _replay(before, action: tuple) -> list[tuple[str, dict]]:
    """The public events of ``action`` from ``before``, replayed on a copy with the log on."""
    if _CACHE[0] is before and _CACHE[1] == action:
        return _CACHE[2]
    game = before.game
    sim = before.clone()
    head = sim._log
    recording = game.record_events
    game.record_events = True
    try:
        sim._legal = None
        sim._apply(action)
    finally:
        game.record_events = recording
    out = []
    node = sim._log
    while node is not None and node is not head:
        entry = node[1]
        out.append((entry[3], entry[4] or {}))
        node = node[0]
    out.reverse()
    _CACHE[:] = [before, action, out]
    return out


def _battles(before, action: tuple, after) -> list[dict]:
    """Every battle decided or rolled in the transition: attacker, defender, kind, the dice and result.

    Battles started in an earlier transition come from ``before.combats`` (in the order their frames
    would run); the others from the replayed events.  Nothing is replayed when no battle can be
    involved (no combat pending before or after, and no new record or card numbered)."""
    if not (before.combats or after.combats or before.next_id != after.next_id):
        return []
    waiting = []
    for f in reversed(before.pending):
        if f.get("op") == "roll" and f["cid"] in before.combats:
            c = before.combats[f["cid"]]
            waiting.append({"att": before.armies.get(c["att"]), "def": before.armies.get(c["def"]),
                            "kind": c["kind"], "power": c["power"], "rolled": False, "result": None})
    rolled_before = [c for c in before.combats.values() if c["a"] is not None]
    open_ = [{"att": before.armies.get(c["att"]), "def": before.armies.get(c["def"]), "kind": c["kind"],
              "power": c["power"], "rolled": True, "a": c["a"], "d": c["d"], "result": None} for c in rolled_before]
    out: list[dict] = []
    started: list[dict] = []
    for text, data in _replay(before, action):
        if set(data) == {"att", "def", "kind"}:
            b = {"att": before.at(data["att"]), "def": before.at(data["def"]), "kind": data["kind"], "power": None,
                 "rolled": False, "result": None, "new": True}
            started.append(b)
            out.append(b)
        elif "att_dice" in data:
            pend = [b for b in started if not b["rolled"]]
            b = pend[-1] if pend else (waiting.pop(0) if waiting else None)
            if b is None:
                continue
            if b not in out:
                out.append(b)
            b.update(rolled=True, a=data["attack"], d=data["defense"], att_dice=data["att_dice"], def_dice=data["def_dice"])
        elif text.startswith("The attack fails"):
            b = _settle(out, open_, data.get("att"), "failed")
            if b is not None and b not in out:
                out.append(b)
        elif text.endswith("General loses the battle."):
            b = _settle(out, open_, None, "general", seat=data.get("seat"))
            if b is not None and b not in out:
                out.append(b)
        elif set(data) == {"defense"}:  # Hold the Line: "two automatic successes" after the dice
            for b in reversed(out + open_):
                if b["result"] is None and b.get("rolled"):
                    b["htl"] = (b["d"], data["defense"])
                    b["d"] = data["defense"]
                    break
        elif text.endswith(" is destroyed.") and "sq" in data:
            b = _settle(out, open_, None, "won", def_sq=data["sq"])
            if b is not None and b not in out:
                out.append(b)
    return out


def _settle(out: list[dict], open_: list[dict], att_sq, result: str, seat=None, def_sq=None) -> dict | None:
    for b in reversed(out + open_):
        if b["result"] is None and b.get("rolled"):
            if att_sq is not None and (b["att"] is None or b["att"].sq != att_sq):
                continue
            if def_sq is not None and (b["def"] is None or b["def"].sq != def_sq):
                continue
            if seat is not None and (b["def"] is None or b["def"].seat != seat or b["def"].kind != "K"):
                continue
            b["result"] = result
            return b
    return None


# -- the board and the armies ---------------------------------------------------------------------
@PROPERTIES.state("one army per square, every army on its square", rows=("5.2", "5.4"))
def board_matches_armies(st):
    """An army is a piece with its cards (5.4) on a chessboard (5.2): the board and the armies agree."""
    seen = set()
    for sq, i in enumerate(st.board):
        if i is None:
            continue
        assert i in st.armies, f"square {sq} names army {i}, which is not in play"
        assert st.armies[i].sq == sq, f"army {i} is on square {st.armies[i].sq}, the board has it on {sq}"
        seen.add(i)
    assert seen == set(st.armies), f"armies off the board: {sorted(set(st.armies) - seen)}"
    for a in st.armies.values():
        assert a.kind in "PNBRQK" and a.seat in (0, 1), a


@PROPERTIES.state("each side keeps exactly one General", rows=("5.5", "86.1", "88.1", "9.4"))
def one_general(st):
    """The king is the General (5.5); it is never captured (88.1: "not automatically captured"), so each
    side has exactly one, always; it never carries a leader (9.4)."""
    for seat in (0, 1):
        gs = [a for a in st.armies.values() if a.kind == "K" and a.seat == seat]
        assert len(gs) == 1, f"{SEATS[seat]} has {len(gs)} Generals"
        assert gs[0].leader is None, f"the {SEATS[seat]} General carries the leader {gs[0].leader}"


@PROPERTIES.state("chess material: pawns and promotions", rows=("5.2",))
def chess_material(st):
    """The chess setup and chess moves (5.2): at most 16 pieces a side, at most 8 pawns, every piece
    beyond the setup's count is a promoted pawn, and no pawn stands on its own first rank or on the
    last rank (it promotes there)."""
    setup = {"Q": 1, "R": 2, "B": 2, "N": 2, "K": 1}
    for seat in (0, 1):
        mine = Counter(a.kind for a in st.armies.values() if a.seat == seat)
        assert sum(mine.values()) <= 16, mine
        pawns = mine["P"]
        assert pawns <= 8, mine
        extra = sum(max(0, mine[k] - n) for k, n in setup.items())
        assert extra <= 8 - pawns, f"{SEATS[seat]}: {extra} promoted pieces with {pawns} pawns left ({dict(mine)})"
        for a in st.armies.values():
            if a.seat == seat and a.kind == "P":
                assert 1 <= a.sq >> 3 <= 6, f"a {SEATS[seat]} pawn stands on rank {(a.sq >> 3) + 1}"


# -- skill --------------------------------------------------------------------------------------------
@PROPERTIES.state("skill never exceeds its maximum", rows=("40.1", "46.2", "46.3", "23.1"))
def skill_within_maximum(st):
    """Five domains (23.1); skill in each domain (40.1) is "temporarily used up" (46.2) and "restored to maximum" (46.3):
    0 <= current <= maximum in every domain."""
    for a in st.armies.values():
        assert len(a.skill) == 5 and len(a.maxs) == 5, a
        for d in range(5):
            assert 0 <= a.skill[d] <= a.maxs[d], f"{a}: {DOMAINS[d]} skill {a.skill[d]} of maximum {a.maxs[d]}"


@PROPERTIES.step("skill comes back only by resting or training", rows=("46.2", "46.3", "68.1", "268.2", "298.1",
                                                                                  "250.2", "304.1", "268.3", "268.2b"))
def skill_restored_only_by_rest(before, action, after):
    """Spent skill is restored "for a single piece during the rest phase" (46.3, 68.1), or by Spirit of
    Fire's capture-rest (268.2); Training raises current skill with the maximum (ledger 15).  An army
    carrying Broken Supply Chain "cannot rest" (298.1)."""
    rested = action[1] if action[0] == "rest" else None
    if action[0] == "skills":
        return
    for i, b in before.armies.items():
        a = after.armies.get(i)
        if a is None:
            continue
        for d in range(5):
            gain = a.skill[d] - b.skill[d]
            grew = a.maxs[d] - b.maxs[d]
            if gain <= max(0, grew):
                continue
            spirit = (any(n == "Spirit of Fire" for n, _ in b.attached) and (action[0] == "move" or before.phase == "moving")
                      and not (after.stack and after.stack[-1].kind == "chain"))  # 268.3: after the whole chain
            assert i == rested or spirit, f"{a} regained {DOMAINS[d]} skill on {action}"
            assert not any(_card(before, n).text.startswith("This army cannot rest") for n, _ in b.attached), \
                f"{a} rested although it carries Broken Supply Chain"
    if rested is not None:
        a = after.armies.get(rested)
        if a is not None:
            assert a.skill == a.maxs, f"rested {a} has skill {a.skill} of {a.maxs}"
            assert a.leader is None or not a.spent, f"rested {a} keeps a spent leader"


@PROPERTIES.step("maximum skill grows only by Training, one point a card", rows=("17.1", "40.3", "320.1", "328.1",
                                                                                 "336.1", "344.1", "17.1b", "324.1"))
def maximum_grows_only_by_training(before, action, after):
    """Training "boosts a piece's maximum skill in a specific domain" (17.1, 40.3): +1 in the card's
    domain ("+1 Skill in the [Domain] domain to target piece", 320.1-344.1).  No other card raises a
    maximum, and the General's setup points are the only others (72.2)."""
    if action[0] == "skills":
        return
    trained = Counter()
    for seat in (0, 1):
        b, a = Counter(before.discards[seat]), Counter(after.discards[seat])
        if sum(a.values()) < sum(b.values()):
            return  # the discards were shuffled into the deck (deck_out=reshuffle)
        gained = a - b
        for name, n in gained.items():
            card = _card(after, name)
            if card.type == "training":
                trained[card.domain] += n
    for i, b in before.armies.items():
        a = after.armies.get(i)
        if a is None:
            continue
        for d in range(5):
            up = a.maxs[d] - b.maxs[d]
            if up > 0:
                assert a.skill[d] - b.skill[d] == 1 or action[0] in ("pay", "autopay"), \
                    f"{a}: Training raised the maximum but not the current skill"  # ledger 15: "current skill too"
                assert up == 1 and trained[DOMAINS[d]] >= 1, \
                    f"{a}: maximum {DOMAINS[d]} skill rose by {up} on {action} with no Training of that domain"
                trained[DOMAINS[d]] -= 1
            elif up < 0:  # how many a General loses at once: "a General pays one skill point per defeat"
                assert a.kind == "K", f"{a}: maximum {DOMAINS[d]} skill fell by {-up} on {action}"


@PROPERTIES.step("setup: the General's three points, bare armies, seven cards", rows=("40.2", "72.1", "72.2", "72.3"))
def setup_skill(before, action, after):
    """ "all armies are considered green ... zero skill" (40.2), "without any cards attached" (72.1), the
    General "is given three skill points distributed however the player chooses" (72.2), then "draw
    seven cards" (72.3, option hand_size)."""
    if action[0] != "skills":
        return
    g = _general(after, before.stack[-1].seat)
    assert sum(g.maxs) == 3 and g.skill == g.maxs, f"the General got {g.maxs}"
    assert [g.maxs[d] for d in range(5)] == [action[1].count(c) for c in DOMAINS], (g.maxs, action)
    for a in after.armies.values():
        assert a.leader is None and not a.attached, f"{a} has cards at setup"
        if a.kind != "K":
            assert sum(a.maxs) == 0, f"{a} has skill at setup"
    if after.phase != "setup" and not after.is_over():
        n = after.game.option_values["hand_size"]
        for seat in (0, 1):
            drawn = len(after.hands[seat])
            assert drawn == n, f"{SEATS[seat]} holds {drawn} cards after setup, not {n}"


# -- leaders, boons and curses ---------------------------------------------------------------------
@PROPERTIES.state("leaders, boons and curses sit where the seed allows", rows=("9.1", "9.3", "15.1", "66.3",
                                                                                "178.1", "288.1", "9.2b"))
def attachments(st):
    """An army has "up to one leader card" (9.1, 9.3); a leader is a hero or an elite (9.2); "spent" and
    "ready" are states of a leader (66.3); Hope tokens go "on this Leader" (178.1); boons and curses
    alter an army (15.1): boons on their owner's armies, curses on the enemy's (ledger 16), a "Leader
    Boon" only on an army with a leader (288.1), an "Army" card never on the General."""
    for a in st.armies.values():
        if a.leader is not None:
            card = _card(st, a.leader)
            assert card.type == "leader", f"{a} is led by the {card.type} {a.leader}"
            assert card.line.startswith(("Hero", "Elite")), f"{a.leader} is neither hero nor elite"
        else:
            assert not a.spent, f"{a} has a spent leader but no leader"
            assert a.hope == 0, f"{a} has {a.hope} Hope tokens but no leader"
        assert a.hope >= 0, a
        for name, owner in a.attached:
            card = _card(st, name)
            assert card.type in ("boon", "curse"), f"{a} carries the {card.type} {name}"
            if card.type == "boon":
                assert owner == a.seat, f"{name} of {SEATS[owner]} is a boon on an enemy army {a}"
            else:
                assert owner != a.seat, f"{name} of {SEATS[owner]} is a curse on its own army {a}"
            if card.line.startswith("Leader"):
                assert a.leader is not None, f"the Leader Boon {name} is on {a}, which has no leader"
            if card.line.startswith("Army"):
                assert a.kind != "K", f"the Army card {name} is on the General"


@PROPERTIES.step("leaders come into play spent, Torani Cadet ready", rows=("66.4", "142.1"))
def leaders_enter_spent(before, action, after):
    """ "Leader cards are spent when they come into play" (66.4); "Torani Cadet does not come into play
    spent" (142.1)."""
    for i, a in after.armies.items():
        b = before.armies.get(i)
        if b is None or a.leader is None or b.leader == a.leader:
            continue
        ready = "does not come into play spent" in _card(after, a.leader).text
        assert a.spent != ready, f"{a.leader} came into play {'spent' if a.spent else 'ready'} on {a}"


@PROPERTIES.step("no card targets the Commander or a Guerrilla army against its text", rows=("150.1", "350.2", "350.2b"))
def protected_targets(before, action, after):
    """Cloaksworn Commander: "All cards or abilities that target Cloaksworn Commander fail" (150.1; such
    plays are not offered, ledger 17); Guerrilla Training: "may not be the target of maneuvers, boons,
    curses, or other major actions" (350.2; leader cards and the volley are major, ledger 18)."""
    if action[0] == "play":
        card = _card(before, action[1])
        targets = card.type in ("leader", "boon", "curse") or action[1] in (
            "Rain of Arrows", "Without a Trace", "Hold the Line", "Ambush", "Second Wind", "Against All Odds")
        if not targets:
            return
        army = before.at(action[3])
        if army is None:
            return
        assert not (army.leader and "target Cloaksworn Commander fail" in _card(before, army.leader).text), \
            f"{action[1]} targets the Cloaksworn Commander's army {army}"
        if "guerrilla" in army.traits:
            assert not (card.type in ("maneuver", "boon", "curse") or _is_major(before, action)), \
                f"{action[1]} targets the Guerrilla army {army}"
    elif action[0] == "volley":
        army = before.at(action[2])
        assert "guerrilla" not in army.traits, f"a volley targets the Guerrilla army {army}"
        assert not (army.leader and _card(before, army.leader).untargetable), f"a volley targets the Commander {army}"
    elif action[0] == "ability" and action[2] == "blood_sacrifice":
        v = before.armies[action[3]]
        assert not _card(before, v.leader).untargetable, "Blood Cultist sacrifices the Cloaksworn Commander"


# -- cards: where they are --------------------------------------------------------------------------
@PROPERTIES.state("every card is in exactly one place", rows=("5.3", "11.1", "226.1", "296.1", "296.1b"))
def cards_conserved(st):
    """Each player's 60-card deck (5.3) is, card for card, in the deck, the hand, the discard pile (a
    maneuver is "discarded after use", 11.1), out of the game (Without a Trace, 226.1), attached, in
    play as a strategy, or being played; Unyielding Offense goes back to the hand (296.1)."""
    if not st.game.use_cards:
        return
    where = [Counter(st.hands[s]) + Counter(st.decks[s]) + Counter(st.discards[s]) + Counter(st.removed[s])
             for s in (0, 1)]
    for a in st.armies.values():
        if a.leader is not None:
            where[a.seat][a.leader] += 1
        for name, owner in a.attached:
            where[owner][name] += 1
    for _uid, name, owner, _t in st.strategies:
        where[owner][name] += 1
    for p in st.stack:
        if p.kind == "pay" and p.data["play"].get("card"):
            where[p.data["play"]["seat"]][p.data["play"]["card"]] += 1
    for f in st.pending:
        if f.get("op") == "resolve":
            where[f["play"]["seat"]][f["play"]["card"]] += 1
    for s in (0, 1):
        want = Counter(st.game.deck_lists[s])
        if where[s] != want:
            raise AssertionError(f"{SEATS[s]}'s cards: extra {dict(where[s] - want)}, missing {dict(want - where[s])}")
        assert not Counter(st.revealed[s]) - Counter(st.hands[s]), f"{SEATS[s]} reveals cards not in hand"


@PROPERTIES.state("a seat sees its own hand and no hidden card", rows=("72.3", "68.2"))
def views_hide_hands(st):
    """The hands drawn (72.3, 68.2) are each player's own: a seat's view shows its hand, the other's
    hand only by size and the cards known to be there (returned from play), and no deck's order."""
    from .view import state_view

    for seat in (0, 1):
        v = state_view(st, seat)
        assert v["hand"] == sorted(st.hands[seat]), f"{SEATS[seat]}'s view shows the hand {v['hand']}"
        assert v["hand_sizes"] == [len(h) for h in st.hands]
        assert v["revealed"][1 - seat] == sorted(st.revealed[1 - seat])
        assert "decks" not in v and "hands" not in v, "a view shows the decks or both hands"


@PROPERTIES.state("strategy tokens stay within the card's count", rows=("370.1", "376.3", "396.1", "402.3", "19.1"))
def strategy_tokens(st):
    """Strategies are "not tied to any specific army" (19.1): they are in play on their own.  Unseasonable
    Weather starts with five Snow tokens (370.1), Caught Off Guard with two Surprise tokens (396.1); each
    is destroyed when its last token is removed (376.3, 402.3), so 1 <= tokens <= start while in play."""
    uids = set()
    for uid, name, owner, tokens in st.strategies:
        assert uid not in uids, f"strategy {uid} twice in play"
        uids.add(uid)
        card = _card(st, name)
        assert card.type == "strategy" and owner in (0, 1), (name, owner)
        start = {"Unseasonable Weather": 5, "Caught Off Guard": 2}.get(name, 0)
        if start:
            assert 1 <= tokens <= start, f"{name} in play with {tokens} tokens"
        else:
            assert tokens == 0, f"{name} carries {tokens} tokens"


@PROPERTIES.step("tokens come in play full and Snow melts once per turn end", rows=("376.1b", "376.2", "396.1"))
def snow_per_turn(before, action, after):
    """ "When this strategy comes into play, put five Snow tokens on it. At the end of each turn (for
    any player), remove a Snow token" (370.1-376.2); Caught Off Guard comes in with two."""
    if after.is_over():
        return
    new_turn = after.turn != before.turn
    old = {s[0]: s for s in before.strategies}
    for s in after.strategies:
        if s[0] not in old:
            start = {"Unseasonable Weather": 5, "Caught Off Guard": 2}.get(s[1], 0)
            assert s[3] == start, f"{s[1]} came into play with {s[3]} tokens"
            continue
        if s[1] == "Unseasonable Weather":
            want = old[s[0]][3] - (1 if new_turn else 0)
            assert s[3] == want, f"Unseasonable Weather has {s[3]} Snow tokens, {want} expected on {action}"
    for uid, s in old.items():
        if not new_turn:
            assert s[1] != "Unseasonable Weather" or any(t[0] == uid for t in after.strategies), \
                "Unseasonable Weather left play in the middle of a turn"
        else:
            if s[1] == "Unseasonable Weather" and s[3] > 1:
                    assert any(t[0] == uid for t in after.strategies), "Unseasonable Weather left play with Snow on it"


@PROPERTIES.step("an enemy draw spends a Surprise token instead", rows=("402.2", "68.2", "402.2b"))
def turn_end_draw(before, action, after):
    """ "Finally, the player draws a card, to signal the end of their turn" (68.2); Caught Off Guard:
    "Whenever an enemy player would draw a card, remove a Surprise token instead" (402.2)."""
    if action[0] not in ("rest", "end") or before.stack or not before.game.use_cards:
        return
    seat = before.active
    if after.is_over():
        return
    cog = [s for s in before.strategies if s[1] == "Caught Off Guard" and s[2] != seat]
    drew = len(after.hands[seat]) - len(before.hands[seat])
    if cog:
        s = cog[0]
        left = [t for t in after.strategies if t[0] == s[0]]
        assert drew == 0, f"{SEATS[seat]} drew although Caught Off Guard is in play"
        assert (left and left[0][3] == s[3] - 1) or (not left and s[3] == 1), "no Surprise token was removed"
    elif before.decks[seat]:
        assert drew == 1 and len(after.decks[seat]) == len(before.decks[seat]) - 1, \
            f"{SEATS[seat]} drew {drew} cards at the end of the turn"


# -- the turn --------------------------------------------------------------------------------------
@PROPERTIES.state("white moves first unless the players roll", rows=("72.3c", "72.3b", "52.1"))
def first_player(st):
    """ "roll to see who goes first (or white goes first; you pick)" (72.3b-c); each turn is one
    player's (52.1): the turns alternate, so the first player acts on odd turns."""
    if st.phase in ("setup",) or st.turn == 0 or st.is_over():
        return
    if st.game.option_values["first"] == "white":
        assert st.first == 0, "black moved first"
    assert st.active == (st.first if st.turn % 2 == 1 else 1 - st.first), \
        f"turn {st.turn} is {SEATS[st.active]}'s, first player {SEATS[st.first]}"


@PROPERTIES.step("one move per turn, in the Move step", rows=("52.1", "64.1", "62.1"))
def one_move_per_turn(before, action, after):
    """ "Each turn is broken into four steps: First Opportunity, Move, Second Opportunity, Rest" (52.1);
    in the Move phase the player "may move or attack with one of their armies" (64.1)."""
    if before.stack:
        return
    if action[0] in ("move", "pass"):
        assert before.phase == "opp1", f"{action} in phase {before.phase}"
        mover = before.at(action[1]) if action[0] == "move" else None
        assert mover is None or mover.seat == before.active, "an enemy army moved"
        assert after.phase != "opp1" or after.turn != before.turn, "still before the move after moving"
    if action[0] in ("rest", "end"):
        assert before.phase == "opp2", f"{action} before the Move step"


@PROPERTIES.step("one major action per turn", rows=("62.1", "62.3", "142.2"))
def one_major_action(before, action, after):
    """ "During either the First Opportunity or the Second Opportunity (but only once per turn!) the
    player may take a major action" (62.1): "using a major leader ability or playing a card other than
    a Technique or Training" (62.3); Torani Cadet "does not count as a major action" (142.2)."""
    if after.turn != before.turn or after.is_over():
        return
    if _is_major(before, action) and not before.stack:
        assert not before.major_used, f"a second major action this turn: {action}"
        assert after.major_used, f"the major action {action} was not counted"
    elif not (before.stack and before.stack[-1].kind in ("card_window", "attack_window", "after_dice")):
        assert after.major_used == before.major_used, f"{action} changed the major action count"


@PROPERTIES.step("armies that cannot attack do not attack", rows=("66.2", "280.1", "278.1", "92.1"))
def who_may_attack(before, action, after):
    """ "Armies with spent leaders cannot attack (but may move)" (66.2); Non-aggression Order: "This army
    cannot attack" (280.1); a calmed Unholy Bloodthirst army "cannot move or attack this turn" (278.1);
    a ranged attack is an attack (92.1; ledger 10)."""
    att = None
    if action[0] == "move" and not before.stack:
        a = before.at(action[1])
        assert not a.calmed, f"{a} moved although held back this turn"
        target = before.at(action[2])
        diagonal_pawn = a.kind == "P" and (action[1] & 7) != (action[2] & 7)
        if target is not None or diagonal_pawn:
            att = a
    elif action[0] == "volley":
        att = before.armies[action[1]]
    elif action[0] == "play" and action[1] == "Rain of Arrows":
        att = before.armies[action[2]]
    if att is None:
        return
    assert not (att.leader and att.spent), f"{att} attacks with a spent leader"
    assert not any(_card(before, n).text == "This army cannot attack." for n, _ in att.attached), \
        f"{att} attacks under Non-aggression Order"
    assert not att.calmed, f"{att} attacks although held back"


@PROPERTIES.step("moves are chess moves, shaped by the cards", rows=("5.2", "44.1", "86.2", "362.1", "368.2",
                                                                      "376.4", "96.2", "96.1", "368.1b"))
def chess_moves(before, action, after):
    """Movement "the same as that of chess" (5.2): the General "moves like a king" (44.1), castling needs
    an unmoved General and rook (no check, 86.2); Double March: "En Passant is no longer a legal move for
    opponents", allied pawns double-step anywhere (362.1, 368.2); Unseasonable Weather: no piece but a
    knight moves more than one space (376.4)."""
    if action[0] != "move" or before.stack:
        return
    _, f, t, promo = action
    a = before.at(f)
    df, dr = (t & 7) - (f & 7), (t >> 3) - (f >> 3)
    dist = max(abs(df), abs(dr))
    weather = bool(_strategies(before, "Unseasonable Weather"))
    target = before.at(t)
    assert target is None or target.seat != a.seat, f"{a} moves onto its own army"
    if a.kind != "N" and weather:
        assert dist <= 1, f"{a} moves {dist} squares under Unseasonable Weather"
    if a.kind == "N":
        assert (df, dr) in KNIGHT_STEPS, action
    elif a.kind == "K":
        assert dist == 1 or (dr == 0 and abs(df) == 2 and not a.moved), f"the General moves {action}"
        if dist == 2:
            rook = before.at(f + 3 if df > 0 else f - 4)
            assert rook is not None and rook.kind == "R" and rook.seat == a.seat and not rook.moved, "castling"
    elif a.kind == "P":
        fwd = 1 if a.seat == 0 else -1
        if df == 0:
            assert dr == fwd or dr == 2 * fwd, action
            assert target is None, "a pawn captures straight ahead"
            if dr == 2 * fwd:
                start = (f >> 3) == (1 if a.seat == 0 else 6)
                assert start or _strategies(before, "Double March", a.seat), "a pawn double-steps off its start rank"
        else:
            assert abs(df) == 1 and dr == fwd, action
            if target is None:  # en passant (ledger 3)
                assert not _strategies(before, "Double March", 1 - a.seat), "en passant against Double March"
                victim = before.at(t - 8 * fwd)
                assert victim is not None and victim.kind == "P" and victim.seat != a.seat, "en passant on nothing"
        last = 7 if a.seat == 0 else 0
        assert bool(promo) == ((t >> 3) == last), f"promotion {promo!r} on {action}"
    else:
        assert a.kind in LINES and (df == 0 or dr == 0 or abs(df) == abs(dr)), action
        assert (df == 0 or dr == 0) if a.kind == "R" else True, action
        assert (abs(df) == abs(dr)) if a.kind == "B" else True, action
        sf, sr = (df > 0) - (df < 0), (dr > 0) - (dr < 0)
        between = [(f >> 3) * 8 + (f & 7) + k * (sr * 8 + sf) for k in range(1, dist)]
        jumped = [s for s in between if before.board[s] is not None]
        if jumped:
            stealth = "stealth" in a.traits or (a.leader and "stealth" in _card(before, a.leader).traits)
            assert stealth, f"{a} jumps over pieces"
            assert target is None, f"{a} attacks after jumping (96.2)"


@PROPERTIES.step("a cursed army must move if it can", rows=("270.1", "276.1"))
def bloodthirst_moves(before, action, after):
    """Unholy Bloodthirst: "This army must attack or move on its turn, if able" (270.1, ledger 29)."""
    if action[0] not in ("move", "pass") or before.stack:
        return
    seat = before.active
    mover = before.at(action[1]) if action[0] == "move" else None
    cursed = [a for a in before.armies.values() if a.seat == seat and not a.calmed
              and any(n == "Unholy Bloodthirst" for n, _ in a.attached)]
    if not cursed or (mover is not None and mover in cursed):
        return
    for a in cursed:  # able to move: a one-square step (or a knight's jump) onto an empty square
        f, r = a.sq & 7, a.sq >> 3
        if a.kind == "N":
            steps = KNIGHT_STEPS
        elif a.kind == "P":
            steps = ((0, 1 if a.seat == 0 else -1),)
        else:
            steps = LINES[a.kind]
        for df, dr in steps:
            if _on(f + df, r + dr) and before.board[(r + dr) * 8 + f + df] is None:
                raise AssertionError(f"{a} carries Unholy Bloodthirst and could move, but {action} was taken")


# -- playing cards and paying ------------------------------------------------------------------------
@PROPERTIES.step("cards are played onto a square the primary threatens", rows=("42.1", "42.2", "44.1", "376.5"))
def played_on_threatened_square(before, action, after):
    """ "All cards besides training and strategies are played through a piece, and must be played on a
    square that the piece threatens, or on the space the piece itself occupies" (42.1); a pawn's are
    diagonally in front of it (42.2), the General's like a queen (44.1), an enemy's under Unseasonable
    Weather one space (376.5).  The volley is an attack on a threatened square too."""
    if action[0] == "play":
        p = before.armies[action[2]]
        t = action[3]
        assert t == p.sq or _threatens(before, p, t), f"{action[1]} played through {p} onto an unthreatened square {t}"
    elif action[0] == "volley":
        p = before.armies[action[1]]
        assert _threatens(before, p, action[2]), f"a volley from {p} onto an unthreatened square"


@PROPERTIES.step("skill is paid by the primary and its supporters", rows=("42.3", "46.1", "46.2", "46.5", "48.1",
                                                                         "100.1", "42.3b", "100.2"))
def payment(before, action, after):
    """Supporting pieces contribute "if (and only if) they threaten the location the card is about to
    be played (including the space they're on)" (42.3); "the primary piece must always spend at least
    one skill point" (46.5); a Strategy's or Training's cost "may be payed by any piece that the player
    owns" (48.1); "3GG" is three of any domain and two Gnar (100.1); paying uses points up (46.2)."""
    if not before.stack or before.stack[-1].kind != "pay" or action[0] not in ("pay", "autopay"):
        return
    data = before.stack[-1].data
    play = data["play"]
    seat = play["seat"]
    primary = data["primary"]
    target = play.get("target")

    def may_pay(a) -> bool:
        if a.seat != seat:
            return False
        if primary is None or a.id == primary:
            return True
        return a.sq == target or _threatens(before, a, target)

    need = list(data["need"])
    if action[0] == "pay":
        assert action[2] in DOMAINS, f"a payment in the unknown domain {action[2]!r} (100.2: G, E, L, T, S)"
        a = before.armies[action[1]]
        d = DOMAINS.index(action[2])
        assert may_pay(a), f"{a} pays for {play.get('card')} but neither is the primary nor supports it"
        assert a.skill[d] >= 1 and (need[d + 1] > 0 or need[0] > 0), f"{a} pays a {action[2]} point not needed"
        primary_paid = data["ppaid"] or a.id == primary
        spent = {a.id: [1 if k == d else 0 for k in range(5)]}
        total = 1
    else:
        card = _card(before, play["card"]) if play.get("card") else None
        spent = {}
        whole = True  # every army of the seat still there with its maximum: the totals can be checked
        for i, b in before.armies.items():
            if b.seat != seat:
                continue
            x = after.armies.get(i)
            if x is None or x.maxs != b.maxs and not (card is not None and card.type == "training"):
                whole = False
                continue
            down = [max(0, b.skill[k] - x.skill[k]) for k in range(5)]
            if card is not None and card.type == "training" and play.get("army") == i:
                k = DOMAINS.index(card.domain)
                down[k] = max(0, b.skill[k] - (x.skill[k] - 1))
            if sum(down):
                spent[i] = down
        total = sum(need)
        got = [sum(v[k] for v in spent.values()) for k in range(5)]
        if whole:
            for k in range(5):
                assert got[k] >= need[k + 1], f"{play.get('card')}: paid {got} for the need {need}"
            assert sum(got) == total, f"{play.get('card')}: paid {sum(got)} points for a need of {total}"
        for i in spent:
            assert may_pay(before.armies[i]), f"{before.armies[i]} pays for {play.get('card')} without supporting it"
        primary_paid = data["ppaid"] or primary in spent or not whole
    done = not any(p.kind == "pay" and p.data["play"].get("uid") == play.get("uid") for p in after.stack)
    if done and primary is not None and sum(need) <= total:
        assert primary_paid, f"{play.get('card')} was paid without a point from the primary piece"


# -- combat ----------------------------------------------------------------------------------------
@PROPERTIES.step("battle dice are the stats the seed names", rows=("76.1", "76.3", "78.1", "78.2", "80.2", "80.3",
                                                                    "82.1", "92.2", "186.1", "342.2", "388.1",
                                                                    "394.2", "92.2b", "122.1", "130.1", "136.1",
                                                                    "144.1", "262.1", "78.2b", "394.2b"))
def battle_dice(before, action, after):
    """ "The attacker rolls a number of dice equal to the offense stat of their army and adds one to the
    result. The defender rolls dice equal to the defense stat" (80.2-80.3), binary dice (76.1-76.3);
    archery "does not gain the automatic +1" (92.2) and has a fixed power instead of dice (ledger 10:
    Rain of Arrows 4, the Longbow volley 1, 186.1, 342.2), doubled under its owner's Bows and Knives
    (388.1), whose pieces defend with at most 1 die (394.2)."""
    for b in _battles(before, action, after):
        if "att_dice" not in b:
            continue
        att, dfn = b["att"], b["def"]
        if att is None or dfn is None:
            continue
        kind = b["kind"]
        doubled = 2 if _strategies(before, "Bows and Knives", att.seat) else 1
        if kind == "ranged":
            assert b["att_dice"] == [], "a ranged attack rolled dice"
            if b.get("new"):
                base = 1 if action[0] == "volley" else 4
                assert b["a"] == base * doubled, f"ranged attack power {b['a']}, expected {base * doubled}"
            else:
                assert b["a"] == b["power"] and b["power"] in (1 * doubled, 4 * doubled), b
        elif kind == "chain":
            assert b["att_dice"] == [], "a cavalry chain attack rolled dice"
        else:
            assert len(b["att_dice"]) == _offense(before, att), \
                f"{att} attacked with {len(b['att_dice'])} dice, offense {_offense(before, att)}"
            assert b["a"] == _hits(before, b["att_dice"]) + 1, f"attack {b['a']} from dice {b['att_dice']} + 1"
        assert len(b["def_dice"]) == _defense(before, dfn), \
            f"{dfn} defended with {len(b['def_dice'])} dice, defense {_defense(before, dfn)}"
        assert b["d"] == _hits(before, b["def_dice"]), f"defense {b['d']} from dice {b['def_dice']}"


@PROPERTIES.step("a cavalry chain rides on only after winning by three or more", rows=("94.1", "94.2", "94.3",
                                                                                        "94.4", "114.1", "94.2b"))
def cavalry_chain(before, action, after):
    """ "Armies that can attack in a line (Queens, Rooks, and Bishops) with the cavalry trait" (94.1) may
    ride on "in the case that a mounted army beats a defending army by more than two points" (94.2),
    with "a power equal to the amount that it beat the last defender minus one" (94.3-94.4); Heavy
    Cavalry has *Cavalry* (114.1)."""
    if not after.stack or after.stack[-1].kind != "chain" or (before.stack and before.stack[-1] == after.stack[-1]):
        return
    p = after.stack[-1]
    a = after.armies[p.data["army"]]
    assert a.kind in ("Q", "R", "B"), f"a {a.kind} rides on"
    cav = "cavalry" in a.traits or (a.leader is not None and "*Cavalry*" in _card(after, a.leader).text)
    assert cav, f"{a} rides on without the cavalry trait"
    won = [b for b in _battles(before, action, after) if b.get("rolled") and b["att"] is not None and b["att"].id == a.id]
    assert won, "a chain without a battle"
    b = won[-1]
    margin = b["a"] - b["d"]
    assert margin > 2, f"{a} rides on after winning by {margin}"
    assert p.data["power"] == margin - 1, f"chain power {p.data['power']} after a margin of {margin}"


@PROPERTIES.step("a General pays one skill point per defeat", rows=("88.1", "88.2", "88.3", "86.1", "88.1b"))
def general_pays_per_defeat(before, action, after):
    """ "a player's General is not automatically captured when it loses a battle. After each defeat, the
    General permanently loses a single skill point in a domain of the owner's choice. Only if the General
    cannot pay this price, is the game over" (88.1-88.3).  A defeat is any battle the General loses:
    defending, or attacking and failing (ledger 9; option ``general_defeats=defending`` counts only the
    former)."""
    if before.is_over():
        return
    defending_only = before.game.option_values.get("general_defeats", "any") == "defending"
    lost = [0, 0]
    for b in _battles(before, action, after):
        if b["result"] == "general":
            lost[b["def"].seat] += 1
        elif b["result"] == "failed" and b["att"] is not None and b["att"].kind == "K" and not defending_only:
            lost[b["att"].seat] += 1
    war = action[0] in ("rest", "end", "lose") or any(f.get("op") == "war" for f in before.pending)
    for s in (0, 1):
        if after.is_over() and after.winner == s:
            continue
        g0, g1 = _general(before, s), _general(after, s)
        paid = sum(max(0, g0.maxs[d] - g1.maxs[d]) for d in range(5))
        fell = 1 if after.is_over() and after.winner == 1 - s and sum(g1.maxs) == 0 and not _decked(before, after, s) else 0
        owed = 0 if after.is_over() else _owed(after, s) - _owed(before, s)
        settled = paid + owed + fell
        if war:
            assert settled >= lost[s], f"the {SEATS[s]} General lost {lost[s]} battles and paid {settled}"
        else:
            assert settled == lost[s], (f"the {SEATS[s]} General lost {lost[s]} battles on {action} "
                                        f"and paid {paid}, owes {owed} more, fell {fell}")
        if after.is_over() and after.winner == 1 - s and not _decked(before, after, s):
            assert sum(g1.maxs) == 0, f"{SEATS[s]} lost the game with a General that could still pay {g1.maxs}"


def _decked(before, after, s) -> bool:
    return after.game.option_values["deck_out"] == "lose" and not before.decks[s]


@PROPERTIES.step("the higher result wins: the winner takes the square, the loser falls back", rows=(
    "80.1", "80.4", "80.5", "80.6", "80.5b", "92.1", "242.2", "242.3", "228.1", "234.2", "236.1"))
def battle_outcome(before, action, after):
    """ "If the offensive army gets a higher result than the defender, the defending army is destroyed and
    the attacker takes its place on the board ... If the defender wins the contest, or there is a tie, the
    attacker moves to the square adjacent to the defender in the direction of the attack. A knight that
    fails ... does not move" (80.1-80.6, ledger 8); archery: "the attacking army does not move" (92.1);
    Ambush: "this army does not move into the target's space if it wins" and "If the attacker is captured
    as part of this technique, the original attack does not take place" (242.2-242.3)."""
    battles = [b for b in _battles(before, action, after) if b["result"] is not None]
    for i, b in enumerate(battles):
        if b["att"] is None or b["def"] is None:
            continue
        if "htl" in b:  # Hold the Line: "Target defending army gains two automatic successes" (228.1, 234.2)
            assert b["htl"][1] == b["htl"][0] + 2, f"Hold the Line took the defense from {b['htl'][0]} to {b['htl'][1]}"
        margin = b["a"] - b["d"]
        assert (margin > 0) == (b["result"] in ("won", "general")), f"result {b['result']} with {b['a']} against {b['d']}"
        if b["kind"] == "ambush" and b["result"] == "won":
            later = [x for x in battles[i + 1:] + [x for x in _battles(before, action, after) if x["result"] is None]
                     if x["att"] is not None and x["att"].id == b["def"].id]
            assert not later, "the ambushed attacker's attack took place although it was captured"
    if len(battles) != 1 or after.stack and after.stack[-1].kind == "chain":
        return
    b = battles[0]
    att, dfn = b["att"], b["def"]
    if att is None or dfn is None:
        return
    a_now = after.armies.get(att.id)
    if a_now is None:
        return
    if b["result"] == "won":
        assert dfn.id not in after.armies, f"the beaten {dfn} is still in play"
        if b["kind"] in ("melee", "chain"):
            lands = {dfn.sq}
            if att.kind == "P" and dfn.sq >> 3 == att.sq >> 3:  # en passant: the square passed over
                lands = {dfn.sq + (8 if att.seat == 0 else -8)}
            assert a_now.sq in lands, f"the winner {att} stands on {a_now.sq}, not on the defender's square"
        else:
            assert a_now.sq == att.sq, f"the {b['kind']} attacker {att} moved"
        return
    d_now = after.armies.get(dfn.id)
    assert d_now is not None and d_now.sq == dfn.sq, f"the defender {dfn} left its square after winning"
    if b["kind"] == "ranged" or att.kind == "N" or (b["result"] == "general" and b["kind"] == "ambush"):
        # (an ambusher that beats a General "does not move into the target's space": it stays, ledger 25)
        assert a_now.sq == att.sq, f"{att} moved after a {b['result']} {b['kind']} attack"
    elif b["kind"] in ("melee", "chain", "ambush"):
        df, dr = (dfn.sq & 7) - (att.sq & 7), (dfn.sq >> 3) - (att.sq >> 3)
        step = ((df > 0) - (df < 0)) + 8 * ((dr > 0) - (dr < 0))
        assert a_now.sq in (att.sq, dfn.sq - step), f"{att} fell back to {a_now.sq}, not next to {dfn}"
        if a_now.sq == att.sq and dfn.sq - step != att.sq and (df == 0 or dr == 0 or abs(df) == abs(dr)):
            assert before.board[dfn.sq - step] is not None or (att.kind == "P" and dfn.sq >> 3 == att.sq >> 3), \
                f"{att} stayed on {att.sq} although {dfn.sq - step} next to the defender was free"


@PROPERTIES.step("Blood Cultist sacrifices another leader for +2 offense", rows=("128.1", "128.1b"))
def blood_sacrifice(before, action, after):
    """ "E + Sacrifice a leader from anywhere: Blood Cultists army get's +2 offense until end of turn"
    (128.1; ledger 19-21: another of your own leaders, paid by this army)."""
    if action[0] != "ability" or action[2] != "blood_sacrifice":
        return
    a0, v0 = before.armies[action[1]], before.armies[action[3]]
    a1, v1 = after.armies[action[1]], after.armies[action[3]]
    assert a0.leader == "Blood Cultist" and v0.id != a0.id and v0.seat == a0.seat and v0.leader is not None, action
    assert v1.leader is None and v1.hope == 0, f"{v1} keeps its leader after the sacrifice"
    assert a1.temp == a0.temp + 2 and a1.skill[1] == a0.skill[1] - 1, (a0.temp, a1.temp, a0.skill, a1.skill)
    assert (Counter(after.discards[v0.seat]) - Counter(before.discards[v0.seat]))[v0.leader] == 1, \
        f"{v0.leader} did not go to the discard pile"


@PROPERTIES.step("until end of turn lasts until the end of the turn", rows=("128.1b", "288.1"))
def until_end_of_turn(before, action, after):
    """ "+2 offense until end of turn" (Blood Cultist), "+1 offense until end of turn" (Unyielding
    Offense, 288.1): the bonuses are gone when the next turn starts (ledger 21)."""
    if after.turn != before.turn and not after.is_over():
        for a in after.armies.values():
            assert a.temp == 0 and not a.calmed, f"{a} keeps this turn's effects into the next turn"


def _resolved(before, action, after) -> list[dict]:
    """Card plays that took effect in the transition (not disrupted): ``{card, seat, primary, target, army}``."""
    plays = []
    if before.stack and before.stack[-1].kind == "pay":
        plays.append(before.stack[-1].data["play"])
    plays += [f["play"] for f in before.pending if f.get("op") == "resolve" and not f.get("countered")]
    # (a free card resolves in the transition that plays it; the effects checked below all cost skill)
    live = {p.data["play"].get("uid") for p in after.stack if p.kind == "pay"}
    live |= {f["play"].get("uid") for f in after.pending if f.get("op") == "resolve"}
    out = []
    for p in plays:
        if not p.get("card") or p.get("uid") in live:
            continue
        opp = 1 - p["seat"]
        if (Counter(after.discards[opp]) - Counter(before.discards[opp]))["Disruption"]:
            continue
        out.append(p)
    return out


@PROPERTIES.step("maneuvers and techniques do what their text says", rows=(
    "162.1", "170.1", "194.1", "212.1", "220.1", "334.2", "184.1", "218.1"))
def card_effects(before, action, after):
    """Battlefield Dominance: "For each extra Leader you have compared to your opponent, draw a card"
    (162.1); Mind Fog: "All enemy leaders threatened by this piece become spent" (170.1); Know Thy Enemy:
    "Draw a card for each domain this piece has a max-skill greater than zero in" (194.1); Second Wind:
    "Ready this Leader" (212.1); Without a Trace: "Target Army is removed from the game" (220.1);
    Original Grimoire: "Draw a card" (334.2)."""
    for play in _resolved(before, action, after):
        name, seat = play["card"], play["seat"]
        p = after.armies.get(play.get("primary")) if play.get("primary") is not None else None
        drawn = len(after.hands[seat]) - len(before.hands[seat])
        can_draw = not [s for s in before.strategies if s[1] == "Caught Off Guard" and s[2] != seat]
        if name == "Mind Fog" and p is not None:
            for a in after.armies.values():
                if a.seat != seat and a.leader is not None and _threatens(after, p, a.sq):
                    assert a.spent, f"Mind Fog from {p} left the threatened leader of {a} ready"
        elif name == "Second Wind" and p is not None:
            assert p.leader is None or not p.spent, f"Second Wind left {p}'s leader spent"
        elif name == "Without a Trace":
            gone = before.armies.get(play.get("army"))
            if gone is not None and gone.sq == play.get("target"):
                assert gone.id not in after.armies, f"Without a Trace left {gone} in play"
                cards = ([gone.leader] if gone.leader else []) + [n for n, _ in gone.attached]
                for n in cards:
                    assert n not in (Counter(after.discards[0]) + Counter(after.discards[1])
                                     - Counter(before.discards[0]) - Counter(before.discards[1])), \
                        f"{n} went to a discard pile, not out of the game"
        elif name in ("Battlefield Dominance", "Know Thy Enemy", "Original Grimoire") and can_draw:
            if name == "Battlefield Dominance":
                mine = sum(1 for a in after.armies.values() if a.seat == seat and a.leader)
                theirs = sum(1 for a in after.armies.values() if a.seat != seat and a.leader)
                want = max(0, mine - theirs)
            elif name == "Know Thy Enemy":
                want = sum(1 for m in p.maxs if m > 0) if p is not None else 0
            else:
                want = 1
            if len(before.decks[seat]) >= want:
                assert drawn == want, f"{name} drew {drawn} cards, {want} expected"
        elif name == "Against All Odds" and p is not None:
            b = before.armies[p.id]
            x = sum((1 if a.seat != seat else -1) for a in after.armies.values()
                    if a.id != p.id and _threatens(after, a, p.sq))
            if p.leader is not None:
                assert p.hope - b.hope == max(0, x), f"Against All Odds gave {p.hope - b.hope} Hope, x = {x}"


@PROPERTIES.state("response windows belong to the player answering", rows=("13.1", "13.1b", "234.2b", "250.3"))
def windows_answer_the_enemy(st):
    """Techniques "can even be used to interrupt enemy actions" (13.1): a card window is the opponent's
    of the player who plays the card, an attack window the defender's side's, and Hold the Line's
    after-dice window ("may be used after dice are rolled", 234.2) the defending army's owner's, once the
    dice are rolled.  Disruption "may not be targeted by any other techniques" (250.3): no window opens
    against it."""
    for p in st.stack:
        if p.kind == "card_window":
            play = p.data["play"]
            assert p.seat != play["seat"], "a player answers their own card"
            assert play["card"] != "Disruption", "a window opened against Disruption"
        elif p.kind in ("attack_window", "after_dice"):
            c = st.combats.get(p.data["cid"])
            assert c is not None, "a window on a finished battle"
            assert p.seat != c["aseat"], "the attacker answers its own attack"
            if p.kind == "after_dice":
                assert c["a"] is not None and c["d"] is not None, "the after-dice window opened before the dice"


@PROPERTIES.step("a disrupted card fails and goes to the discard pile", rows=("244.1", "250.1b"))
def disruption_fails_the_card(before, action, after):
    """Disruption: "Target maneuver, technique, boon or curse being played fails" (244.1, ledger 24)."""
    for seat in (0, 1):
        if not (Counter(after.discards[seat]) - Counter(before.discards[seat]))["Disruption"]:
            continue
        victim = 1 - seat
        gained = Counter(after.discards[victim]) - Counter(before.discards[victim])
        kinds = [_card(after, n).type for n in gained.elements()]
        assert any(k in ("maneuver", "technique", "boon", "curse") for k in kinds), \
            f"Disruption resolved but no {SEATS[victim]} card failed ({dict(gained)})"
        for i, a in after.armies.items():
            b = before.armies.get(i)
            if b is not None and a.seat == victim:
                new = Counter(a.attached) - Counter(b.attached)
                assert not any(o == victim for (_n, o) in new.elements()), f"a disrupted card attached to {a}"


@PROPERTIES.step("Broken Supply Chain leaves after two discards", rows=("306.1", "306.1b"))
def break_supply_chain(before, action, after):
    """ "Enemy Major Action + Discard 2 cards: Destroy Broken Supply Chain" (306.1; ledger 30: the
    cursed army's owner discards two chosen cards)."""
    if action[0] != "discard":
        return
    p = before.stack[-1]
    seat = p.seat
    assert len(after.hands[seat]) == len(before.hands[seat]) - 1, "a discard did not come from the hand"
    assert (Counter(after.discards[seat]) - Counter(before.discards[seat]))[action[1]] == 1, "the card was not discarded"
    if p.data["left"] == 1:
        a = after.armies.get(p.data["army"])
        b = before.armies.get(p.data["army"])
        if a is not None and b is not None:
            had = sum(1 for n, _ in b.attached if n == "Broken Supply Chain")
            now = sum(1 for n, _ in a.attached if n == "Broken Supply Chain")
            assert now == had - 1, f"Broken Supply Chain stays on {a} after two discards"


@PROPERTIES.step("Unfavorable War takes a point at each turn's end unless spared", rows=("378.1", "386.1", "386.1b"))
def unfavorable_war(before, action, after):
    """ "At the end of each player's turn they lose the game unless they reduce the skill on their General
    by 1" (378.1), unless "(Global Major Action + 1) or (Global Spend a Politician): The effect above does
    not apply this turn" (386.1; ledger 31: each copy, the player whose turn ends)."""
    if action[0] not in ("rest", "end") or before.stack or after.turn == before.turn or after.is_over():
        return
    seat = before.active
    due = sum(1 for s in before.strategies if s[1] == "Unfavorable War" and s[0] not in before.exempt)
    g0, g1 = _general(before, seat), _general(after, seat)
    paid = sum(g0.maxs) - sum(g1.maxs)
    assert paid == due, f"{SEATS[seat]}'s General paid {paid} points for {due} Unfavorable Wars at the turn's end"


@PROPERTIES.step("leader costs spend a ready leader", rows=("66.1", "180.1"))
def leader_costs(before, action, after):
    """ "Many cards and actions involving Leaders require a leader to spend in order to use" (66.1):
    Against All Odds "(Spend Leader)", Ambush "(Spend the Leader)"; a Leader Maneuver or Technique is
    played through an army with a leader (ledger 16)."""
    if action[0] != "play":
        return
    card = _card(before, action[1])
    if not card.line.startswith("Leader ") or card.type not in ("maneuver", "technique"):
        return  # (a "Leader Boon" needs a leader on its target: "leaders, boons and curses sit where ...")
    p0 = before.armies[action[2]]
    assert p0.leader is not None, f"the Leader card {action[1]} played through {p0}, which has no leader"
    if action[1] in ("Against All Odds", "Ambush"):  # the seed's "(Spend Leader)" costs
        assert not p0.spent, f"{action[1]} spends the already spent leader of {p0}"
        p1 = after.armies.get(p0.id)
        assert p1 is None or p1.spent or action[1] == "Second Wind", f"{action[1]} left the leader of {p1} ready"
