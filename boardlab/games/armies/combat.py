"""Armies combat: attacks with binary dice, their outcomes, cavalry chains and the General's losses.

A mixin of :class:`~boardlab.games.armies.rules.ArmiesRules`.  An attack is a
record in ``self.combats`` (attacker, defender, squares, kind, dice results)
processed through frames on ``self.pending`` (``attack_window``, ``roll``,
``after_dice``, ``outcome``; see :meth:`ArmiesRules._run`), so a saved game
resumes in the middle of a fight.  "A General that loses a battle" is "not
automatically captured": it "permanently loses a single skill point" (the
``glose`` frame), and the game ends when it cannot pay.
"""

from __future__ import annotations

from boardlab.engine import Prompt

from . import board as B
from .content import DOMAIN_NAMES, DOMAINS

# ``"Army"`` names, without importing it, the army record (rules.py): the rules import this module,
# so it does not import them.

SEATS = ("white", "black")
#: How an attack is made, in the log's words (issue 32: not the kind's id).
ATTACK_WORDS = {"melee": "moving in", "ranged": "from range", "chain": "riding on (cavalry)", "ambush": "from ambush"}


class CombatMixin:
    __slots__ = ()

    # -- combat ----------------------------------------------------------------
    def start_combat(self, att: "Army", dfn: "Army", kind: str, *, land: int | None = None, promo: str = "",
                     power: int | None = None, in_move: bool = False, ep: bool = False, window: bool = True) -> int:
        """Queue an attack: response window, dice, after-dice window, outcome."""
        cid = self.next_id
        self.next_id += 1
        self.combats[cid] = {
            "att": att.id, "def": dfn.id, "aseat": att.seat, "kind": kind, "from": att.sq, "to": dfn.sq,
            "land": dfn.sq if land is None else land, "promo": promo, "power": power, "in_move": in_move,
            "ep": ep, "a": None, "d": None, "htl": 0,
        }
        self.count("rule:attack" if kind != "ranged" else "rule:ranged_attack", att.seat)
        self.emit(f"{SEATS[att.seat].capitalize()} {B.PIECE_NAMES[att.kind]} on {B.square_name(att.sq)} attacks "
                  f"{B.square_name(dfn.sq)} ({ATTACK_WORDS.get(kind, kind)}).", {"att": att.sq, "def": dfn.sq, "kind": kind})
        self.pending.append({"op": "outcome", "cid": cid})
        self.pending.append({"op": "after_dice", "cid": cid})
        self.pending.append({"op": "roll", "cid": cid})
        if window:
            self.pending.append({"op": "attack_window", "cid": cid})
        return cid

    def combat_valid(self, c: dict) -> bool:
        a = self.armies.get(c["att"])
        d = self.armies.get(c["def"])
        return a is not None and d is not None and a.sq == c["from"] and d.sq == c["to"]

    def binary_dice(self, n: int) -> list[int]:
        if self.game.option_values["dice"] == "coin":
            return [self.rng.below(2) for _ in range(n)]
        return [self.rng.roll(6) for _ in range(n)]

    def successes(self, faces: list[int]) -> int:
        if self.game.option_values["dice"] == "coin":
            return sum(faces)
        return sum(1 for f in faces if f >= 4)

    def roll_combat(self, c: dict) -> None:
        att, dfn = self.armies[c["att"]], self.armies[c["def"]]
        if c["power"] is not None:
            af, a = [], c["power"]
        else:
            af = self.binary_dice(self.offense(att))
            a = self.successes(af) + (0 if c["kind"] == "ranged" else 1)
        df = self.binary_dice(self.defense(dfn))
        d = self.successes(df)
        c["a"], c["d"] = a, d
        if c["power"] is not None:
            why = ("the cavalry's winning margin less 1" if c["kind"] == "chain" else "the card's fixed power")
            att_text = f"Attack {a}: {why}, no dice."
        else:
            bonus = ("no +1: a ranged attack does not get it" if c["kind"] == "ranged"
                     else "+ 1 for attacking in person")
            att_text = (f"Attack: {self._stat_sum(att, 'offense')} {self._dice_words(af)} {bonus} = {a}.")
        def_text = f"Defense: {self._stat_sum(dfn, 'defense')} {self._dice_words(df)} = {d}."
        self.emit(f"Attack {a} against defense {d}. {att_text} {def_text}",
                  {"attack": a, "defense": d, "att_dice": af, "def_dice": df})

    def _stat_sum(self, army: "Army", stat: str) -> str:
        """The sum behind an army's offense or defense (the number of dice it rolls), by name (issue 32)."""
        cards = self.game.cards
        terms = [f"{B.PIECE_NAMES[army.kind]} 0"]
        if army.hope:
            terms.append(f"Hope {army.hope}")
        if stat == "offense" and army.temp:
            terms.append(f"this turn's bonus {army.temp}")
        names = ([army.leader] if army.leader is not None else []) + [n for n, _ in army.attached]
        for n in names:
            v = getattr(cards[n], stat)
            terms.append(f"{n} {v}")
        total = self.offense(army) if stat == "offense" else self.defense(army)
        raw = army.hope + (army.temp if stat == "offense" else 0) + sum(getattr(cards[n], stat) for n in names)
        text = f"{stat} " + " + ".join(terms) + f" = {raw}"
        if total != raw:
            text += f", capped at {total} by Bows and Knives"
        return f"{text}: {total} {'die' if total == 1 else 'dice'},"

    def _dice_words(self, faces: list[int]) -> str:
        if not faces:
            return "none rolled, 0 hits"
        hits = self.successes(faces)
        rule = "a 1 hits" if self.game.option_values["dice"] == "coin" else "each 4, 5 or 6 hits"
        return f"rolled {', '.join(map(str, faces))} ({rule}): {hits} hit{'s' if hits != 1 else ''}"

    def resolve_combat(self, c: dict) -> None:
        att, dfn = self.armies[c["att"]], self.armies[c["def"]]
        kind, margin = c["kind"], c["a"] - c["d"]
        moves = kind in ("melee", "chain")
        if margin > 0:
            self.count("rule:battle_won", att.seat)
            if dfn.kind == "K":
                self.count("rule:general_battle_lost", dfn.seat)
                self.emit(f"The {SEATS[dfn.seat]} General loses the battle.", {"seat": dfn.seat})
                if moves:
                    self.fall_back(att, c)
                self.general_loses(dfn.seat, "battle")
                return
            self.emit(f"The {B.PIECE_NAMES[dfn.kind]} on {B.square_name(dfn.sq)} is destroyed.", {"sq": dfn.sq})
            self.destroy(dfn)
            if not moves:
                return
            self.place(att, c["land"])
            if c["in_move"]:
                self.move_caps += 1
            if c["promo"]:
                self.promote(att, c["promo"])
            if (margin > 2 and att.kind in ("Q", "R", "B") and self.has_trait(att, "cavalry")
                    and self.move_limit(att.kind) > 1 and self.chain_squares(att, c)):
                self.stack.append(Prompt(att.seat, "chain", {"cid": c["cid"] if "cid" in c else None,
                                                             "dir": B.direction(c["from"], c["to"]),
                                                             "power": margin - 1, "army": att.id}))
            return
        self.count("rule:attack_failed", att.seat)
        why = "a tie goes to the defender" if margin == 0 else f"attack {c['a']} is below defense {c['d']}"
        self.emit(f"The attack fails: {why}.", {"att": att.sq})
        if moves or kind == "ambush":
            self.fall_back(att, c)
        if att.kind == "K" and self.game.option_values["general_defeats"] == "any":
            # "After each defeat, the General permanently loses a single skill point": a General whose
            # own attack fails has lost that battle too (ledger 9; option general_defeats=defending: not).
            self.count("rule:general_battle_lost", att.seat)
            self.emit(f"The {SEATS[att.seat]} General loses the battle it started.", {"seat": att.seat})
            self.general_loses(att.seat, "battle")

    def fall_back(self, att: "Army", c: dict) -> None:
        """A failed (or General-blocked) attacker moves next to the defender along the attack line."""
        if att.kind == "N" or c["ep"]:
            return
        d = B.direction(c["from"], c["to"])
        if d is None:
            return
        df, dr = B.DIRS[d]
        adj = c["to"] - (dr * 8 + df)
        if adj != att.sq and self.board[adj] is None:
            self.place(att, adj)

    def chain_squares(self, att: "Army", c: dict) -> list[int]:
        d = B.direction(c["from"], c["to"])
        out = []
        for t in B.RAYS[att.sq][d]:
            o = self.at(t)
            if o is None:
                out.append(t)
                continue
            if o.seat != att.seat:
                out.append(t)
            break
        return out

    # -- the General's losses -------------------------------------------------
    def general_loses(self, seat: int, why: str) -> None:
        """Queue the General's loss of one skill point (a lost battle or Unfavorable War)."""
        self.pending.append({"op": "glose", "seat": seat, "why": why})

    def _general_loss(self, seat: int, why: str) -> None:
        g = self.general(seat)
        options = [d for d in range(5) if g.maxs[d] > 0]
        if not options:
            self.end_game(1 - seat, "the General lost a battle it could not pay for" if why == "battle"
                          else "Unfavorable War: the General could not pay")
            return
        if len(options) == 1 or not self.game.use_cards:
            self._reduce_general(g, options[0])
        else:
            self.stack.append(Prompt(seat, "general_loss", {"why": why}))

    def _reduce_general(self, g: "Army", d: int) -> None:
        g.maxs[d] -= 1
        g.skill[d] = min(g.skill[d], g.maxs[d])
        self.emit(f"The {SEATS[g.seat]} General permanently loses one {DOMAIN_NAMES[DOMAINS[d]]} skill point.",
                  {"seat": g.seat, "domain": DOMAINS[d]})
