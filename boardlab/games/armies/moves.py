"""Armies moves: the chess moves of each army (the Move phase), the move itself, promotion.

A mixin of :class:`~boardlab.games.armies.rules.ArmiesRules`.  A move is
``("move", from, to, promo)``; moving onto an enemy (or en passant) starts a
melee attack (:mod:`boardlab.games.armies.combat`) instead of capturing.
Unseasonable Weather, Double March, stealth, Non-aggression Order and Unholy
Bloodthirst shape which moves are legal (see the ledger in ``docs/rules/armies.md``).
"""

from __future__ import annotations

from . import board as B

# ``"Army"`` names, without importing it, the army record (rules.py): the rules import this module,
# so it does not import them.

SEATS = ("white", "black")


class MovesMixin:
    __slots__ = ()

    # -- moves -----------------------------------------------------------------
    def piece_moves(self, a: "Army", out: list) -> None:
        """Append the chess moves of ``a`` as ``("move", from, to, promo)`` (see the ledger)."""
        if a.calmed:
            return
        board, seat, sq, kind = self.board, a.seat, a.sq, a.kind
        limit = self.move_limit(kind)
        attack = self.can_attack(a)
        stealth = self.has_trait(a, "stealth")

        def enemy(t: int) -> bool:
            i = board[t]
            return i is not None and self.armies[i].seat != seat

        if kind == "P":
            step = B.pawn_step(seat)
            last = 7 if seat == 0 else 0
            start = 1 if seat == 0 else 6
            rank = sq >> 3
            promos = lambda t: B.PROMOTIONS if (t >> 3) == last else ("",)  # noqa: E731
            one = sq + step
            can_double = limit > 1 and (rank == start or self.strategy_in_play("double_march", seat))
            two = one + step
            if board[one] is None:
                for p in promos(one):
                    out.append(("move", sq, one, p))
            if can_double and 0 <= two < 64 and board[two] is None and (board[one] is None or stealth):
                for p in promos(two):
                    out.append(("move", sq, two, p))
            if attack:
                ep = self.ep
                for t in B.pawn_attacks(sq, seat):
                    if enemy(t):
                        for p in promos(t):
                            out.append(("move", sq, t, p))
                    elif ep is not None and t == ep[0] and ep[1] != seat and board[t] is None \
                            and not self.strategy_in_play("double_march", 1 - seat):
                        out.append(("move", sq, t, ""))
            return
        if kind == "N":
            for t in B.KNIGHT[sq]:
                if board[t] is None or (attack and enemy(t)):
                    out.append(("move", sq, t, ""))
            return
        if kind == "K":
            for t in B.KING[sq]:
                if board[t] is None or (attack and enemy(t)):
                    out.append(("move", sq, t, ""))
            if not a.moved and limit > 1:
                for rook_sq, between, to in self._castles(seat):
                    r = self.at(rook_sq)
                    if r is not None and r.kind == "R" and r.seat == seat and not r.moved \
                            and sq == (4 if seat == 0 else 60) and all(board[b] is None for b in between):
                        out.append(("move", sq, to, ""))
            return
        rays = B.RAYS[sq]
        for d in B.LINE_DIRS[kind]:
            jumped = False
            for i, t in enumerate(rays[d]):
                if i >= limit:
                    break
                if board[t] is None:
                    out.append(("move", sq, t, ""))
                    continue
                if not jumped and attack and enemy(t):
                    out.append(("move", sq, t, ""))
                if not stealth:
                    break
                jumped = True

    @staticmethod
    def _castles(seat: int) -> tuple:
        base = 0 if seat == 0 else 56
        return ((base + 7, (base + 5, base + 6), base + 6), (base, (base + 1, base + 2, base + 3), base + 2))

    def move_actions(self, seat: int) -> list:
        out: list = []
        for a in self.armies.values():
            if a.seat == seat:
                self.piece_moves(a, out)
        must = [a.sq for a in self.armies.values()
                if a.seat == seat and not a.calmed and a.attached and self.has_flag(a, "bloodthirst")]
        if must:
            forced = [m for m in out if m[1] in must]
            if forced:
                return forced
        out.append(("pass",))
        return out

    def do_move(self, action: tuple) -> None:
        _, f, t, promo = action
        a = self.at(f)
        a.moved = True
        self.phase = "moving"
        self.move_caps = 0
        self.last_move = (f, t)
        self.pending.append({"op": "end_move", "army": a.id})
        target = self.at(t)
        if target is not None:
            self.start_combat(a, target, "melee", land=t, promo=promo, in_move=True)
            return
        if a.kind == "P" and (f & 7) != (t & 7):  # en passant
            victim = self.armies[self.ep[2]]
            self.count("rule:en_passant", a.seat)
            self.start_combat(a, victim, "melee", land=t, promo=promo, in_move=True, ep=True)
            return
        if a.kind == "K" and abs(t - f) == 2:
            rook_from, rook_to = (f + 3, f + 1) if t > f else (f - 4, f - 1)
            rook = self.at(rook_from)
            rook.moved = True
            self.place(rook, rook_to)
            self.count("rule:castle", a.seat)
        self.place(a, t)
        self.emit(f"{SEATS[a.seat].capitalize()} {B.PIECE_NAMES[a.kind]} {B.square_name(f)}-{B.square_name(t)}.",
                  {"from": f, "to": t})
        if a.kind == "P" and abs(t - f) == 16:
            self.ep = ((f + t) // 2, a.seat, a.id)
        if promo:
            self.promote(a, promo)

    def promote(self, a: "Army", promo: str) -> None:
        a.kind = promo.upper()
        self.count("rule:promotion", a.seat)
        self.emit(f"The pawn on {B.square_name(a.sq)} is promoted to a {B.PIECE_NAMES[a.kind]}.", {"sq": a.sq})
