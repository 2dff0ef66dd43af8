"""Armies cards: where each card may be played, paying its skill cost, response windows, effects.

Actions that play cards (see the ledger in ``docs/rules/armies.md``):

* ``("play", name, primary_id, square)``: a Leader, Maneuver, Technique, Boon
  or Curse played *through* the primary piece onto ``square`` (a square it
  threatens, or its own);
* ``("train", name, army_id)``: a Training card on one of your pieces;
* ``("strategy", name)``: a Strategy;
* ``("ability", army_id, ability, other_id)``: a leader or boon ability
  (Blood Cultist's sacrifice, Unyielding Offense);
* ``("volley", army_id, square)``: Torani Longbow Training's ranged attack;
* ``("calm", army_id)`` / ``("break", army_id)``: the "Enemy Major Action"
  escapes of Unholy Bloodthirst and Broken Supply Chain;
* ``("exempt", uid)`` / ``("politician", uid, army_id)``: Unfavorable War's
  "Global" costs.

A card with a skill cost opens a ``pay`` prompt: ``("pay", army_id, domain)``
one point at a time, or ``("autopay",)``.  Response windows are prompts of the
responding seat: ``card_window`` (Disruption), ``attack_window`` (Ambush,
Without a Trace, Second Wind) and ``after_dice`` (Hold the Line); ``("pass",)``
declines.
"""

from __future__ import annotations

from boardlab.engine import Prompt

from . import board as B
from .content import DOMAIN_NAMES, DOMAINS, skill_words

# ``st: "ArmiesState"`` and ``"Army"`` name, without importing them, the position (game.py) and the
# army record (rules.py): the rules import this module, so it imports neither.

SEATS = ("white", "black")
#: Effects whose card targets the army on the target square (for Guerrilla Training and Cloaksworn Commander).
_TARGETS_ARMY = {"against_all_odds", "ranged", "second_wind", "without_a_trace", "hold_the_line", "ambush"}
_WINDOW_KIND = {"card_window": "card", "attack_window": "attack", "after_dice": "after_dice"}


# -- paying skill -------------------------------------------------------------
def _feasible(need: list[int], avail: list[int]) -> bool:
    for d in range(5):
        if avail[d] < need[d + 1]:
            return False
    return sum(avail) >= sum(need)


def _step(need: list[int], d: int) -> list[int] | None:
    """``need`` after paying one point of domain ``d`` (``None`` if the point is of no use)."""
    if need[d + 1] > 0:
        n = list(need)
        n[d + 1] -= 1
        return n
    if need[0] > 0:
        n = list(need)
        n[0] -= 1
        return n
    return None


def _pool_skill(pool: list["Army"]) -> list[int]:
    """The skill points ``pool`` holds, per domain."""
    avail = [0, 0, 0, 0, 0]
    for a in pool:
        s = a.skill
        for d in range(5):
            avail[d] += s[d]
    return avail


def payable(need, pool: list["Army"], primary: "Army | None") -> bool:
    """Can ``pool`` pay ``need`` (generic, G, E, L, T, S) with ``primary`` paying at least one point?"""
    return _affordable(need, _pool_skill(pool), primary)


def _affordable(need, avail: list[int], primary: "Army | None") -> bool:
    """:func:`payable` for a pool holding the skill ``avail`` (see :func:`_pool_skill`; left unchanged)."""
    if sum(need) == 0:
        return primary is None
    if primary is None:
        return _feasible(need, avail)
    for d in range(5):
        if primary.skill[d] > 0:
            n = _step(need, d)
            if n is not None:
                avail[d] -= 1
                ok = _feasible(n, avail)
                avail[d] += 1
                if ok:
                    return True
    return False


def _pay_steps(st: "ArmiesState", data: dict) -> list[tuple]:
    need = data["need"]
    pool = [st.armies[i] for i in data["pool"] if i in st.armies]
    primary = st.armies.get(data["primary"]) if data["primary"] is not None else None
    out = []
    for a in pool:
        for d in range(5):
            if a.skill[d] <= 0:
                continue
            n = _step(need, d)
            if n is None:
                continue
            a.skill[d] -= 1
            if primary is not None and not data["ppaid"] and a is not primary:
                ok = payable(n, pool, primary)
            else:
                ok = payable(n, pool, None)
            a.skill[d] += 1
            if ok:
                out.append(("pay", a.id, DOMAINS[d]))
    return out


def _begin_payment(st: "ArmiesState", play: dict, cost, pool: list[int], primary: int | None) -> None:
    if sum(cost) == 0:
        _paid(st, play)
        return
    st.stack.append(Prompt(play["seat"], "pay", {"play": play, "need": list(cost), "pool": pool,
                                                 "primary": primary, "ppaid": primary is None}))


def _pay_one(st: "ArmiesState", data: dict, army_id: int, dom: str) -> None:
    d = DOMAINS.index(dom)
    a = st.armies[army_id]
    a.skill[d] -= 1
    st.emit(f"{SEATS[a.seat].capitalize()} pays 1 {DOMAIN_NAMES[dom]} from the {B.PIECE_NAMES[a.kind]} on {B.square_name(a.sq)}.",
            {"seat": a.seat, "sq": a.sq, "domain": dom})
    data["need"] = _step(data["need"], d)
    if army_id == data["primary"]:
        data["ppaid"] = True


# -- where cards may go ---------------------------------------------------------
def _targets_army(card) -> bool:
    return card.type in ("leader", "boon", "curse") or card.effect in _TARGETS_ARMY


def _protected(st: "ArmiesState", card, a: "Army") -> bool:
    """Would targeting ``a`` with ``card`` fail or be forbidden (Cloaksworn, Guerrilla)?"""
    if not _targets_army(card):
        return False
    if st.untargetable(a):
        return True
    return "guerrilla" in a.traits and (card.major or card.type in ("maneuver", "boon", "curse"))


def _target_ok(st: "ArmiesState", card, p: "Army", t: int, ctx) -> bool:
    kind = card.target or ("friend" if card.type == "leader" else "")
    if card.restriction == "leader" and card.type in ("maneuver", "technique"):
        if p.leader is None or (card.spend_leader and p.spent):
            return False
        if card.effect == "second_wind" and not p.spent:
            return False
    occ = st.at(t)
    if kind == "self":
        if t != p.sq:
            return False
        return not (card.effect in _TARGETS_ARMY and _protected(st, card, p))
    if kind == "card":
        return ctx is not None and ctx[0] == "card" and t == ctx[1]["target"]
    if occ is None:
        return False
    if kind == "attacker":
        if ctx is None or ctx[0] != "attack":
            return False
        c = ctx[1]
        if occ.id != c["att"] or (p.attached and st.has_flag(p, "no_attack")) or p.id == c["def"]:
            return False
    elif kind == "defender":
        if ctx is None or ctx[0] != "after_dice" or occ.id != ctx[1]["def"]:
            return False
    elif kind == "enemy":
        if occ.seat == p.seat:
            return False
        if card.effect == "ranged" and not st.can_attack(p):
            return False
    elif kind == "friend":
        if occ.seat != p.seat:
            return False
        if card.type == "leader" and occ.leader is not None:
            return False
        if card.restriction == "leader" and card.type == "boon" and occ.leader is None:
            return False
    if (card.restriction == "army" or card.type == "leader" or card.target == "army") and occ.kind == "K":
        return False
    return not _protected(st, card, occ)


def _through_plays(st: "ArmiesState", seat: int, names, ctx, out: list) -> None:
    """Append ``("play", name, primary, square)`` for every legal way to play ``names``."""
    mine = [a for a in st.armies.values() if a.seat == seat]
    threat = {a.id: st.threats(a) for a in mine}
    # The pool paying for a card played onto square t: our armies on t or threatening it.
    # ``p`` is always in the pool of its own targets (its square and the squares it
    # threatens), so a target's pool, and the skill it holds, are the same for every card.
    skill: dict[int, list[int]] = {}  # target square -> the skill of its pool (built when needed)
    paid: dict[tuple, bool] = {}  # (cost, primary id, target) -> payable
    everyone = _pool_skill(mine)
    for name in names:
        card = st.card(name)
        cost = card.cost
        costly = sum(cost) > 0
        if costly and not _affordable(cost, everyone, None):
            continue  # not even the whole army can pay it, so no smaller pool can
        for p in mine:
            if costly and sum(p.skill) == 0:
                continue
            for t in (p.sq, *threat[p.id]):
                if not _target_ok(st, card, p, t, ctx):
                    continue
                if not costly:
                    out.append(("play", name, p.id, t))  # payable(cost, pool, None) with nothing to pay
                    continue
                key = (cost, p.id, t)
                ok = paid.get(key)
                if ok is None:
                    avail = skill.get(t)
                    if avail is None:
                        avail = skill[t] = _pool_skill([a for a in mine if a.sq == t or t in threat[a.id]])
                    ok = paid[key] = _affordable(cost, avail, p)
                if ok:
                    out.append(("play", name, p.id, t))


def own_plays(st: "ArmiesState", seat: int) -> list:
    """Cards and abilities the active seat may use in its First or Second Opportunity."""
    if not st.game.use_cards:
        return []
    out: list = []
    hand = sorted(set(st.hands[seat]))
    major_ok = not st.major_used
    mine = [a for a in st.armies.values() if a.seat == seat]
    through = []
    limit = st.game.option_values["trainings_per_turn"]
    for name in hand:
        card = st.card(name)
        if card.type == "training":
            if limit and st.trained >= limit:
                continue
            if not payable(card.cost, mine, None):
                continue
            for a in mine:
                if card.restriction == "general" and a.kind != "K":
                    continue
                if card.restriction == "army" and a.kind == "K":
                    continue
                out.append(("train", name, a.id))
        elif card.type == "strategy":
            if major_ok and payable(card.cost, mine, None):
                out.append(("strategy", name))
        elif card.type == "technique":
            if "own" in card.windows:
                through.append(name)
        elif major_ok or not card.major:
            through.append(name)
    _through_plays(st, seat, through, None, out)
    for a in mine:
        if a.leader is not None and st.card(a.leader).ability == "blood_sacrifice" and a.skill[1] > 0:
            for v in mine:
                if v is not a and v.leader is not None and not st.untargetable(v):
                    out.append(("ability", a.id, "blood_sacrifice", v.id))
        if a.skill[3] > 0 and any(st.card(n).ability == "unyielding" for n, _ in a.attached):
            out.append(("ability", a.id, "unyielding", 0))
        if a.leader is not None and not a.spent and "Politician" in st.card(a.leader).subtypes:
            for uid, sname, _o, _t in st.strategies:
                if st.card(sname).effect == "unfavorable_war" and uid not in st.exempt:
                    out.append(("politician", uid, a.id))
        if not major_ok:
            continue
        if "longbow" in a.traits and st.can_attack(a):
            for t in st.threats(a):
                o = st.at(t)
                if o is not None and o.seat != seat and not st.untargetable(o) and "guerrilla" not in o.traits:
                    out.append(("volley", a.id, t))
        if a.attached:
            if st.phase == "opp1" and not a.calmed and st.has_flag(a, "bloodthirst"):
                out.append(("calm", a.id))
            if len(st.hands[seat]) >= 2 and any(st.card(n).escape == "break" for n, _ in a.attached):
                out.append(("break", a.id))
    if major_ok:
        for uid, sname, _o, _t in st.strategies:
            if st.card(sname).effect == "unfavorable_war" and uid not in st.exempt and payable((1, 0, 0, 0, 0, 0), mine, None):
                out.append(("exempt", uid))
    return out


def window_plays(st: "ArmiesState", seat: int, kind: str, ref) -> list:
    """Techniques ``seat`` may play in a response window of ``kind``."""
    names = [n for n in sorted(set(st.hands[seat])) if kind in st.card(n).windows]
    if not names:
        return []
    if kind == "card":
        ctx = ("card", ref)
    else:
        ctx = (kind, st.combats[ref])
    out: list = []
    _through_plays(st, seat, names, ctx, out)
    return out


def open_window(st: "ArmiesState", kind: str, ref) -> None:
    """Offer the responding seat a window (only when it could respond, unless ``windows=always``)."""
    if not st.game.use_cards:
        return
    if kind == "card":
        seat = 1 - ref["seat"]
    elif kind == "attack":
        seat = 1 - st.combats[ref]["aseat"]
    else:
        seat = st.armies[st.combats[ref]["def"]].seat
    if st.game.option_values["windows"] == "always" or window_plays(st, seat, kind, ref):
        pkind = {"card": "card_window", "attack": "attack_window", "after_dice": "after_dice"}[kind]
        st.count(f"rule:window_{kind}", seat)
        st.stack.append(Prompt(seat, pkind, {"play": ref} if kind == "card" else {"cid": ref}))


# -- prompts ----------------------------------------------------------------------
_COMBOS = tuple(
    DOMAINS[a] + DOMAINS[b] + DOMAINS[c] for a in range(5) for b in range(a, 5) for c in range(b, 5)
)


def prompt_actions(st: "ArmiesState", p: Prompt) -> list:
    k = p.kind
    if k == "pay":
        return [("autopay",), *_pay_steps(st, p.data)]
    if k in _WINDOW_KIND:
        ref = p.data["play"] if k == "card_window" else p.data["cid"]
        return [*window_plays(st, p.seat, _WINDOW_KIND[k], ref), ("pass",)]
    if k == "chain":
        a = st.armies[p.data["army"]]
        out = []
        for t in B.RAYS[a.sq][p.data["dir"]]:
            o = st.at(t)
            if o is None:
                out.append(("chain", t))
                continue
            if o.seat != a.seat:
                out.append(("chain", t))
            break
        return [*out, ("stop",)]
    if k == "general_loss":
        g = st.general(p.seat)
        return [("lose", DOMAINS[d]) for d in range(5) if g.maxs[d] > 0]
    if k == "discard":
        return [("discard", n) for n in sorted(set(st.hands[p.seat]))]
    if k == "setup":
        return [("skills", c) for c in _COMBOS]
    raise AssertionError(k)  # pragma: no cover


def answer_prompt(st: "ArmiesState", action: tuple) -> None:
    p = st.stack[-1]
    k, seat = p.kind, p.seat
    if k == "pay":
        data = p.data
        if action[0] == "autopay":
            while sum(data["need"]) > 0:
                step = _pay_steps(st, data)[0]
                _pay_one(st, data, step[1], step[2])
        else:
            _pay_one(st, data, action[1], action[2])
        if sum(data["need"]) == 0:
            st.stack.pop()
            _paid(st, data["play"])
        return
    if k in _WINDOW_KIND:
        st.stack.pop()
        if action[0] == "pass":
            st.emit(f"{SEATS[seat].capitalize()} does not respond.", {"seat": seat, "window": _WINDOW_KIND[k]})
            return
        if k == "card_window":
            start_action(st, action, counter=p.data["play"]["uid"])
        else:
            st.pending.append({"op": "attack_window" if k == "attack_window" else "after_dice", "cid": p.data["cid"]})
            start_action(st, action, cid=p.data["cid"])
        return
    if k == "chain":
        st.stack.pop()
        a = st.armies[p.data["army"]]
        if action[0] == "stop":
            st.emit(f"The cavalry stops on {B.square_name(a.sq)}.", {"sq": a.sq})
            return
        t = action[1]
        o = st.at(t)
        st.count("rule:cavalry_chain", a.seat)
        if o is None:
            st.place(a, t)
            st.emit(f"The cavalry rides on to {B.square_name(t)}.", {"to": t})
        else:
            st.start_combat(a, o, "chain", power=p.data["power"], in_move=True)
        return
    if k == "general_loss":
        st.stack.pop()
        st._reduce_general(st.general(seat), DOMAINS.index(action[1]))
        return
    if k == "discard":
        st.from_hand(seat, action[1])
        st.discards[seat].append(action[1])
        st.emit(f"{SEATS[seat].capitalize()} discards {action[1]}.", {"card": action[1], "seat": seat})
        p.data["left"] -= 1
        if p.data["left"] == 0:
            st.stack.pop()
            a = st.armies.get(p.data["army"])
            if a is not None:
                for i, (n, owner) in enumerate(a.attached):
                    if st.card(n).escape == "break":
                        del a.attached[i]
                        st.discard_from_play(n, owner)
                        st.count("rule:break_supply_chain", seat)
                        st.emit(f"{n} is destroyed.", {"card": n})
                        break
        return
    if k == "setup":
        st.stack.pop()
        g = st.general(seat)
        for ch in action[1]:
            g.maxs[DOMAINS.index(ch)] += 1
        g.skill = list(g.maxs)
        st.emit(f"{SEATS[seat].capitalize()} gives the General its skill points: {skill_words(action[1])}.", {"seat": seat, "skills": action[1]})
        return
    raise AssertionError(k)  # pragma: no cover


# -- starting an action -----------------------------------------------------------
def start_action(st: "ArmiesState", action: tuple, cid: int | None = None, counter: int | None = None) -> None:
    kind = action[0]
    seat = st.stack[-1].seat if st.stack else st.active
    if kind in ("play", "train", "strategy"):
        name = action[1]
        card = st.card(name)
        seat = st.armies[action[2]].seat if kind != "strategy" else st.active
        st.from_hand(seat, name)
        st.count(f"card:{name}", seat)
        uid = st.next_id
        st.next_id += 1
        play = {"uid": uid, "card": name, "seat": seat, "primary": None, "target": None, "army": None,
                "cid": cid, "counter": counter}
        if card.major:
            st.major_used = True
        if kind == "play":
            p = st.armies[action[2]]
            t = action[3]
            occ = st.at(t)
            play.update(primary=p.id, target=t, army=occ.id if occ is not None else None)
            if card.spend_leader:
                p.spent = True
            pool = [p.id] + [a.id for a in st.armies.values()
                             if a.seat == seat and a is not p and (a.sq == t or t in st.threats(a))]
            st.emit(f"{SEATS[seat].capitalize()} plays {name} through the {B.PIECE_NAMES[p.kind]} on "
                    f"{B.square_name(p.sq)} onto {B.square_name(t)}.", {"card": name, "seat": seat, "sq": t})
            _begin_payment(st, play, card.cost, pool, p.id)
            return
        if kind == "train":
            st.trained += 1
            play["army"] = action[2]
            play["target"] = st.armies[action[2]].sq
            a = st.armies[action[2]]
            st.emit(f"{SEATS[seat].capitalize()} plays {name} on the {B.PIECE_NAMES[a.kind]} on {B.square_name(a.sq)}.",
                    {"card": name, "seat": seat, "sq": a.sq})
        else:
            st.emit(f"{SEATS[seat].capitalize()} plays {name}.", {"card": name, "seat": seat})
        pool = [a.id for a in st.armies.values() if a.seat == seat]
        _begin_payment(st, play, card.cost, pool, None)
        return
    if kind == "ability":
        a = st.armies[action[1]]
        if action[2] == "blood_sacrifice":
            a.skill[1] -= 1
            victim = st.armies[action[3]]
            st.emit(f"Blood Cultist sacrifices {victim.leader} (the {B.PIECE_NAMES[victim.kind]}'s leader on "
                    f"{B.square_name(victim.sq)}): +2 offense until end of turn.", {"sq": a.sq, "victim": victim.sq})
            st.count("rule:blood_sacrifice", a.seat)
            st.drop_leader(victim)
            a.temp += 2
        else:
            a.skill[3] -= 1
            a.temp += 1
            st.count("rule:unyielding_offense", a.seat)
            st.emit("Unyielding Offense: +1 offense until end of turn.", {"sq": a.sq})
        return
    if kind == "volley":
        a = st.armies[action[1]]
        st.major_used = True
        st.count("rule:longbow", a.seat)
        power = 2 if st.strategy_in_play("bows_and_knives", a.seat) else 1
        st.start_combat(a, st.at(action[2]), "ranged", power=power)
        return
    if kind == "calm":
        a = st.armies[action[1]]
        st.major_used = True
        a.calmed = True
        st.count("rule:calm_bloodthirst", a.seat)
        st.emit("Unholy Bloodthirst is held back: the army cannot move or attack this turn.", {"sq": a.sq})
        return
    if kind == "break":
        st.major_used = True
        a = st.armies[action[1]]
        st.emit(f"{SEATS[seat].capitalize()} spends the major action to destroy Broken Supply Chain on the "
                f"{B.PIECE_NAMES[a.kind]} on {B.square_name(a.sq)} (2 cards to discard).", {"seat": seat, "sq": a.sq})
        st.stack.append(Prompt(seat, "discard", {"army": action[1], "left": 2}))
        return
    if kind == "exempt":
        st.major_used = True
        st.emit(f"{SEATS[seat].capitalize()} spends the major action to be spared Unfavorable War this turn "
                "(1 skill to pay).", {"seat": seat})
        play = {"uid": action[1], "card": "", "seat": seat, "exempt": action[1]}
        pool = [a.id for a in st.armies.values() if a.seat == seat]
        _begin_payment(st, play, (1, 0, 0, 0, 0, 0), pool, None)
        return
    if kind == "politician":
        a = st.armies[action[2]]
        a.spent = True
        st.exempt.append(action[1])
        st.count("rule:war_exempt", seat)
        st.emit(f"{SEATS[seat].capitalize()} spends the politician {a.leader} on {B.square_name(a.sq)}: "
                "spared Unfavorable War this turn.", {"seat": seat, "sq": a.sq})
        return
    raise AssertionError(action)  # pragma: no cover


def _paid(st: "ArmiesState", play: dict) -> None:
    if "exempt" in play:
        st.exempt.append(play["exempt"])
        st.count("rule:war_exempt", play["seat"])
        st.emit(f"{SEATS[play['seat']].capitalize()} is spared Unfavorable War this turn.", {"seat": play["seat"]})
        return
    card = st.card(play["card"])
    st.pending.append({"op": "resolve", "play": play})
    if card.type in ("maneuver", "technique", "boon", "curse") and not card.untargetable:
        open_window(st, "card", play)


# -- effects -------------------------------------------------------------------------
def resolve(st: "ArmiesState", frame: dict) -> None:
    play = frame["play"]
    name, seat = play["card"], play["seat"]
    card = st.card(name)
    if frame.get("countered"):
        st.count("rule:disrupted", seat)
        st.emit(f"{name} is disrupted and fails.", {"card": name})
        st.discards[seat].append(name)
        return
    p = st.armies.get(play["primary"]) if play["primary"] is not None else None
    army = st.armies.get(play["army"]) if play["army"] is not None else None
    if army is not None and army.sq != play["target"]:
        army = None
    t = card.type
    if t == "strategy":
        st.strategies.append([play["uid"], name, seat, card.tokens])
        st.emit(f"{name} comes into play.", {"card": name, "seat": seat})
        return
    if t == "training":
        if army is not None:
            d = DOMAINS.index(card.domain)
            army.maxs[d] += 1
            army.skill[d] += 1
            if card.grants and card.grants not in army.traits:
                army.traits.append(card.grants)
        st.discards[seat].append(name)
        for _ in range(card.draw):
            st.draw(seat)
        return
    if t in ("leader", "boon", "curse"):
        if army is None or (t == "leader" and army.leader is not None):
            st.emit(f"{name} fails: its target is gone.", {"card": name})
            st.discards[seat].append(name)
            return
        if t == "leader":
            army.leader = name
            army.spent = not card.enters_ready
            army.hope = 0
        else:
            army.attached.append((name, seat))
        st.emit(f"{name} is attached to the {B.PIECE_NAMES[army.kind]} on {B.square_name(army.sq)}.", {"card": name})
        return
    st.discards[seat].append(name)
    if p is None:
        return
    e = card.effect
    if e == "battlefield_dominance":
        mine = sum(1 for a in st.armies.values() if a.leader is not None and a.seat == seat)
        theirs = sum(1 for a in st.armies.values() if a.leader is not None and a.seat != seat)
        for _ in range(max(0, mine - theirs)):
            st.draw(seat)
    elif e == "mind_fog":
        for sq in st.threats(p):
            o = st.at(sq)
            if o is not None and o.seat != seat and o.leader is not None:
                o.spent = True
    elif e == "against_all_odds":
        x = 0
        for a in st.armies.values():
            if a is not p and p.sq in st.threats(a):
                x += 1 if a.seat != seat else -1
        if x > 0 and p.leader is not None:
            p.hope += x
        st.emit(f"Against All Odds: {max(0, x)} Hope tokens.", {"hope": max(0, x)})
    elif e == "ranged":
        if army is not None:
            power = card.power * (2 if st.strategy_in_play("bows_and_knives", seat) else 1)
            st.start_combat(p, army, "ranged", power=power)
    elif e == "know_thy_enemy":
        for _ in range(sum(1 for m in p.maxs if m > 0)):
            st.draw(seat)
    elif e == "second_wind":
        p.spent = False
    elif e == "without_a_trace":
        if army is not None:
            st.emit(f"The {B.PIECE_NAMES[army.kind]} on {B.square_name(army.sq)} is removed from the game.", {"sq": army.sq})
            st.destroy(army, removed=True)
    elif e == "hold_the_line":
        c = st.combats.get(play["cid"])
        if c is not None:
            c["d"] += 2
            c["htl"] += 1
            st.emit(f"Hold the Line: defense is now {c['d']}.", {"defense": c["d"]})
    elif e == "ambush":
        c = st.combats.get(play["cid"])
        if c is not None and army is not None:
            st.start_combat(p, army, "ambush", window=False)
    elif e == "disruption":
        for f in reversed(st.pending):
            if f["op"] == "resolve" and f["play"].get("uid") == play["counter"]:
                f["countered"] = True
                break
