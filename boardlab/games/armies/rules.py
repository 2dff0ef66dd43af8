"""Armies rules: the board, the turn, moves, combat and winning.

Reads in the order of the seed: armies on a chessboard; the turn (First
Opportunity, Move, Second Opportunity, Rest); combat with binary dice;
winning by beating the General when it cannot pay.  Topic modules hold the
longer parts: the Move phase's moves in :mod:`boardlab.games.armies.moves`,
combat and the General's losses in :mod:`boardlab.games.armies.combat`, cards
in :mod:`boardlab.games.armies.cards`.

**Flow.**  Decisions are :class:`Prompt`\\ s on ``self.stack`` (setup, paying
skill, response windows, cavalry chains, the General's losses).  Work that
continues after a decision is a *frame* (a small dict with an ``"op"``) on
``self.pending``; :meth:`ArmiesRules._run` processes frames until a decision
is needed.  Without prompts or frames, the active seat acts in its phase:

* ``opp1`` (First Opportunity): play cards and abilities, or make the move
  (``("move", from, to, promo)``) or skip it (``("pass",)``) which enters the
  Move phase and then the Second Opportunity;
* ``opp2`` (Second Opportunity): play cards and abilities, or rest an army
  (``("rest", id)``) or not (``("end",)``), which ends the turn (draw, end of
  turn effects).
"""

from __future__ import annotations

from boardlab.engine import Prompt, Results, State, copy_value, record, win_results

from . import board as B
from . import cards as C
from .combat import CombatMixin
from .moves import MovesMixin

SEATS = ("white", "black")


@record
class Army:
    """A piece and everything attached to it (the General is ``kind == "K"``)."""

    __slots__ = ("id", "seat", "kind", "sq", "moved", "skill", "maxs", "leader", "spent", "hope",
                 "attached", "traits", "temp", "calmed")

    def __init__(self, id: int, seat: int, kind: str, sq: int) -> None:
        self.id = id
        self.seat = seat
        self.kind = kind
        self.sq = sq
        self.moved = False
        self.skill = [0, 0, 0, 0, 0]
        self.maxs = [0, 0, 0, 0, 0]
        self.leader: str | None = None
        self.spent = False
        self.hope = 0
        self.attached: list[tuple[str, int]] = []  # (card name, owner seat): boons and curses
        self.traits: list[str] = []  # from Training: "longbow", "guerrilla"
        self.temp = 0  # offense until end of turn
        self.calmed = False  # cannot move or attack this turn (Unholy Bloodthirst)

    def copy(self) -> "Army":
        new = Army.__new__(Army)
        new.id, new.seat, new.kind, new.sq, new.moved = self.id, self.seat, self.kind, self.sq, self.moved
        new.skill, new.maxs = list(self.skill), list(self.maxs)
        new.leader, new.spent, new.hope = self.leader, self.spent, self.hope
        new.attached, new.traits = list(self.attached), list(self.traits)
        new.temp, new.calmed = self.temp, self.calmed
        return new

    def __repr__(self) -> str:
        return f"Army({self.id}, {SEATS[self.seat]} {B.PIECE_NAMES[self.kind]} {B.square_name(self.sq)})"


class ArmiesRules(MovesMixin, CombatMixin, State):
    """The rules of an Armies position.  The full state is ``ArmiesState`` (game.py), which binds in
    the seat views (view.py) and the evaluation features (features.py)."""

    __slots__ = ("board", "armies", "next_id", "hands", "decks", "discards", "removed", "revealed",
                 "strategies", "active", "phase", "major_used", "trained", "ep", "winner", "reason",
                 "first", "pending", "combats", "exempt", "counts", "move_caps", "last_move")

    # -- setup -------------------------------------------------------------
    def _setup(self) -> None:
        g = self.game
        self.board = [None] * 64
        self.armies = {}
        self.next_id = 1
        for seat, kind, sq in B.initial_layout():
            a = Army(self.next_id, seat, kind, sq)
            self.armies[a.id] = a
            self.board[sq] = a.id
            self.next_id += 1
        self.hands = [[], []]
        self.decks = [list(g.deck_lists[0]), list(g.deck_lists[1])]
        for d in self.decks:
            self.rng.shuffle(d)
        self.discards = [[], []]
        self.removed = [[], []]
        self.revealed = [[], []]
        self.strategies = []  # [uid, name, owner, tokens]
        self.active = 0
        self.phase = "setup"
        self.major_used = False
        self.trained = 0
        self.ep = None  # (square passed over, owner seat, pawn id)
        self.winner = None
        self.reason = ""
        self.first = 0
        self.pending = [{"op": "start"}]
        self.combats = {}
        self.exempt = []
        self.counts = {}
        self.move_caps = 0
        self.last_move = None
        if g.use_cards:
            self.stack.append(Prompt(1, "setup", None))
            self.stack.append(Prompt(0, "setup", None))
        else:
            for a in self.armies.values():
                if a.kind == "K":
                    a.maxs = [1, 1, 1, 0, 0]
                    a.skill = [1, 1, 1, 0, 0]
        self._run()

    def _start(self) -> None:
        g = self.game
        for seat in (0, 1) if g.use_cards else ():
            for _ in range(g.option_values["hand_size"]):
                self.draw(seat, initial=True)
        if g.option_values["first"] == "roll":
            while True:
                r = [self.rng.roll(6), self.rng.roll(6)]
                self.emit(f"White rolls {r[0]}, Black rolls {r[1]} for the first turn.", {"roll": r})
                if r[0] != r[1]:
                    break
            self.first = 0 if r[0] > r[1] else 1
        self.emit(f"{SEATS[self.first].capitalize()} moves first.", {"first": self.first})
        self.active = 1 - self.first
        self._next_turn()

    def _copy_fields(self, new: "ArmiesRules") -> None:  # fast clone (the generic one is ~10x slower)
        new.board = list(self.board)
        new.armies = {i: a.copy() for i, a in self.armies.items()}
        for name in ("hands", "decks", "discards", "removed", "revealed"):
            v = getattr(self, name)
            setattr(new, name, [list(v[0]), list(v[1])])
        new.strategies = [list(x) for x in self.strategies]
        new.pending = copy_value(self.pending) if self.pending else []
        new.combats = copy_value(self.combats) if self.combats else {}
        new.exempt = list(self.exempt)
        new.counts = {k: list(v) for k, v in self.counts.items()}
        for name in ("next_id", "active", "phase", "major_used", "trained", "ep", "winner", "reason", "first",
                     "move_caps", "last_move"):
            setattr(new, name, getattr(self, name))

    # -- small helpers -------------------------------------------------------
    def card(self, name: str):
        return self.game.cards[name]

    def count(self, key: str, seat: int, n: int = 1) -> None:
        c = self.counts.get(key)
        if c is None:
            c = self.counts[key] = [0, 0]
        c[seat] += n

    def at(self, sq: int) -> Army | None:
        i = self.board[sq]
        return None if i is None else self.armies[i]

    def general(self, seat: int) -> Army:
        for a in self.armies.values():
            if a.kind == "K" and a.seat == seat:
                return a
        raise AssertionError("no General")  # pragma: no cover

    def has_trait(self, a: Army, trait: str) -> bool:
        return trait in a.traits or (a.leader is not None and trait in self.card(a.leader).traits)

    def has_flag(self, a: Army, flag: str) -> bool:
        return any(getattr(self.card(n), flag) for n, _ in a.attached)

    def strategy_in_play(self, effect: str, owner: int | None = None) -> bool:
        strategies = self.strategies
        if not strategies:
            return False
        cards = self.game.cards  # (hot: move limits, defense and pawn moves ask on every search step)
        for _uid, name, own, _t in strategies:
            if cards[name].effect == effect and (owner is None or own == owner):
                return True
        return False

    def offense(self, a: Army) -> int:
        off = a.hope + a.temp
        if a.leader is not None or a.attached:
            cards = self.game.cards
            if a.leader is not None:
                off += cards[a.leader].offense
            for n, _ in a.attached:
                off += cards[n].offense
        return off

    def defense(self, a: Army) -> int:
        d = a.hope
        if a.leader is not None or a.attached:
            cards = self.game.cards
            if a.leader is not None:
                d += cards[a.leader].defense
            for n, _ in a.attached:
                d += cards[n].defense
        if self.strategies and self.strategy_in_play("bows_and_knives", a.seat):
            d = min(d, 1)
        return d

    def untargetable(self, a: Army) -> bool:
        return a.leader is not None and self.card(a.leader).untargetable

    def move_limit(self, kind: str) -> int:
        if kind != "N" and self.strategies and self.strategy_in_play("weather"):
            return 1
        return 7

    def threat_limit(self, a: Army) -> int:
        if a.kind != "N" and self.strategies:
            cards = self.game.cards
            for _uid, name, own, _t in self.strategies:
                if own != a.seat and cards[name].effect == "weather":
                    return 1
        return 7

    def threats(self, a: Army) -> list[int]:
        """Squares ``a`` threatens for playing cards (the General threatens like a queen)."""
        return B.threats(self.board, a.kind, a.sq, a.seat, self.threat_limit(a))

    def threat_map(self, seat: int) -> dict[int, list[int]]:
        return {a.id: self.threats(a) for a in self.armies.values() if a.seat == seat}

    def can_attack(self, a: Army) -> bool:
        if a.calmed or (a.leader is not None and a.spent):
            return False
        return not (a.attached and self.has_flag(a, "no_attack"))

    # -- drawing ---------------------------------------------------------------
    def draw(self, seat: int, initial: bool = False) -> bool:
        """Draw a card (Caught Off Guard may replace it); returns whether a card was drawn."""
        if not initial and self.strategies:
            for s in self.strategies:
                if s[2] != seat and self.card(s[1]).effect == "caught_off_guard" and s[3] > 0:
                    s[3] -= 1
                    self.count("rule:surprise_token", s[2])
                    self.emit(f"{SEATS[seat].capitalize()}'s draw is replaced: a Surprise token is removed.", {"seat": seat})
                    if s[3] == 0:
                        self.destroy_strategy(s[0])
                    return False
        deck = self.decks[seat]
        if not deck:
            rule = self.game.option_values["deck_out"]
            self.count("rule:deck_out", seat)
            if rule == "lose" and not initial:
                self.end_game(1 - seat, f"{SEATS[seat]} had to draw from an empty deck")
                return False
            if rule == "reshuffle" and self.discards[seat]:
                deck.extend(self.discards[seat])
                self.discards[seat] = []
                self.rng.shuffle(deck)
                self.emit(f"{SEATS[seat].capitalize()} shuffles the discard pile into a new deck.")
            else:
                self.emit(f"{SEATS[seat].capitalize()} cannot draw: the deck is empty.")
                return False
        card = deck.pop()
        self.hands[seat].append(card)
        self.emit(f"{SEATS[seat].capitalize()} draws a card.", {"seat": seat}, to=[seat],
                  private_text=f"You draw {card}.", private_data={"seat": seat, "card": card})
        return True

    def to_hand(self, seat: int, name: str) -> None:
        self.hands[seat].append(name)
        self.revealed[seat].append(name)

    def from_hand(self, seat: int, name: str) -> None:
        self.hands[seat].remove(name)
        if name in self.revealed[seat]:
            self.revealed[seat].remove(name)

    def discard_from_play(self, name: str, owner: int) -> None:
        if self.card(name).returns:
            self.to_hand(owner, name)
            self.count("rule:return_to_hand", owner)
            self.emit(f"{name} returns to its owner's hand.", {"card": name, "seat": owner})
        else:
            self.discards[owner].append(name)

    def destroy_strategy(self, uid: int) -> None:
        for i, s in enumerate(self.strategies):
            if s[0] == uid:
                del self.strategies[i]
                self.discard_from_play(s[1], s[2])
                self.emit(f"{s[1]} is destroyed.", {"card": s[1]})
                return

    def drop_leader(self, a: Army) -> None:
        """The leader leaves play (to its owner's discard), with Hope tokens and Leader Boons."""
        if a.leader is None:
            return
        self.discard_from_play(a.leader, a.seat)
        a.leader = None
        a.spent = False
        a.hope = 0
        keep = []
        for n, owner in a.attached:
            if self.card(n).restriction == "leader":
                self.discard_from_play(n, owner)
            else:
                keep.append((n, owner))
        a.attached = keep

    def destroy(self, a: Army, removed: bool = False) -> None:
        """Take an army off the board; its cards go to discard piles (or out of the game)."""
        self.board[a.sq] = None
        del self.armies[a.id]
        cards = ([(a.leader, a.seat)] if a.leader else []) + list(a.attached)
        for n, owner in cards:
            if removed:
                self.removed[owner].append(n)
            else:
                self.discard_from_play(n, owner)
        if self.ep is not None and self.ep[2] == a.id:
            self.ep = None

    def place(self, a: Army, sq: int) -> None:
        self.board[a.sq] = None
        self.board[sq] = a.id
        a.sq = sq

    def rest(self, a: Army) -> None:
        a.skill = list(a.maxs)
        a.spent = False

    def end_game(self, winner: int, reason: str) -> None:
        if self.winner is None:
            self.winner = winner
            self.reason = reason
            self.phase = "over"
            self.stack.clear()
            self.pending.clear()
            self.emit(f"{SEATS[winner].capitalize()} wins: {reason}.", {"winner": winner})

    # -- the turn --------------------------------------------------------------
    def _next_turn(self) -> None:
        self.active = 1 - self.active
        self.phase = "opp1"
        self.major_used = False
        self.trained = 0
        self.exempt = []
        self.begin_turn()

    def _end_turn(self) -> None:
        seat = self.active
        self.pending.append({"op": "next_turn"})
        self.pending.append({"op": "snow"})
        if not self.game.use_cards:
            return
        for uid, name, _own, _t in reversed(self.strategies):
            if self.card(name).effect == "unfavorable_war" and uid not in self.exempt:
                self.pending.append({"op": "war", "seat": seat, "uid": uid})
        self.draw(seat)

    def _run(self) -> None:
        """Process frames until a decision is needed or the game ends."""
        pending = self.pending
        while pending and not self.stack and self.winner is None:
            f = pending.pop()
            op = f["op"]
            if op == "roll":
                c = self.combats[f["cid"]]
                if self.combat_valid(c):
                    self.roll_combat(c)
            elif op == "after_dice":
                c = self.combats[f["cid"]]
                if self.combat_valid(c) and c["a"] > c["d"]:
                    C.open_window(self, "after_dice", f["cid"])
            elif op == "outcome":
                c = self.combats.pop(f["cid"])
                c["cid"] = f["cid"]
                if self.combat_valid(c):
                    self.resolve_combat(c)
            elif op == "attack_window":
                if self.combat_valid(self.combats[f["cid"]]):
                    C.open_window(self, "attack", f["cid"])
            elif op == "resolve":
                C.resolve(self, f)
            elif op == "end_move":
                a = self.armies.get(f["army"])
                if a is not None and self.move_caps and any(self.card(n).capture_rest for n, _ in a.attached):
                    if self.has_flag(a, "no_rest"):
                        # "This army cannot rest" beats "treat it as having rested" (ledger 47).
                        self.count("rule:spirit_rest_blocked", a.seat)
                        self.emit("Spirit of Fire: the army cannot rest (Broken Supply Chain).", {"sq": a.sq})
                    else:
                        self.rest(a)
                        self.count("rule:spirit_rest", a.seat)
                        self.emit("Spirit of Fire: the army rests after its capture.", {"sq": a.sq})
                self.phase = "opp2"
            elif op == "glose":
                self._general_loss(f["seat"], f["why"])
            elif op == "war":
                if any(s[0] == f["uid"] for s in self.strategies):
                    self.count("rule:unfavorable_war", f["seat"])
                    self._general_loss(f["seat"], "war")
            elif op == "snow":
                for s in list(self.strategies):
                    if self.card(s[1]).effect == "weather":
                        s[3] -= 1
                        self.emit(f"A Snow token is removed from {s[1]}: {s[3]} left.", {"card": s[1], "tokens": s[3]})
                        if s[3] <= 0:
                            self.destroy_strategy(s[0])
            elif op == "next_turn":
                for a in self.armies.values():
                    a.temp = 0
                    a.calmed = False
                if self.ep is not None and self.ep[1] != self.active:
                    self.ep = None
                self._next_turn()
            elif op == "start":
                self._start()
            else:  # pragma: no cover
                raise AssertionError(op)

    # -- hooks -----------------------------------------------------------------
    def _current_seat(self) -> int:
        return self.active

    def _legal_actions(self) -> list:
        if self.stack:
            p = self.stack[-1]
            return C.prompt_actions(self, p)
        seat = self.active
        out = C.own_plays(self, seat)
        if self.phase == "opp1":
            out.extend(self.move_actions(seat))
        else:
            for a in self.armies.values():
                if a.seat == seat and (a.skill != a.maxs or (a.leader and a.spent)) \
                        and not (a.attached and self.has_flag(a, "no_rest")):
                    out.append(("rest", a.id))
            out.append(("end",))
        return out

    def _apply(self, action: tuple) -> None:
        if self.stack:
            C.answer_prompt(self, action)
        else:
            kind = action[0]
            if kind == "move":
                self.do_move(action)
            elif kind == "pass":
                self.phase = "opp2"
                self.emit(f"{SEATS[self.active].capitalize()} does not move.", {"seat": self.active})
            elif kind == "rest":
                a = self.armies[action[1]]
                self.rest(a)
                self.count("rule:rest", a.seat)
                self.emit(f"{SEATS[a.seat].capitalize()} rests the army on {B.square_name(a.sq)}.", {"sq": a.sq})
                self._end_turn()
            elif kind == "end":
                self._end_turn()
            else:
                C.start_action(self, action)
        self._run()

    def _is_over(self) -> bool:
        return self.winner is not None

    def _results(self) -> Results:
        return win_results(2, [self.winner], self.reason)

    def roles(self) -> tuple[str, ...]:
        return SEATS

    def metrics(self) -> dict[str, list[int]]:
        return {k: list(v) for k, v in sorted(self.counts.items())}
