"""Armies: a heuristic agent that plays its cards (evaluation and features: features.py).

The agent scores each legal action with simple rules on a determinized sample
of the position (so it never sees the opponent's hand): card plays by what
they achieve (a leader's stats, a ranged attack's expected damage, ...),
moves by expected material won from exact binary-dice odds, the safety of
the destination and the pressure on the enemy General.  It plays its best
card first when that is worth more than a small threshold, then moves.

It plays on to a result (issue 32): in endgames a threat on the enemy General
counts only as a siege (the General attacked with no safe square next to it,
:meth:`HeuristicAgent._siege`), not as a check it steps out of; past
``PATIENCE`` turns every position is scored so, a General with no fewer skill
points than the enemy's seeks it, and the random tie-break widens with the turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from boardlab.engine.agent import BaseAgent, Decision

from . import board as B
from .content import DOMAINS
from .features import VALUE, _life, attack_chance, attack_squares, win_chance

if TYPE_CHECKING:  # pragma: no cover
    from .rules import ArmiesRules, Army

_LINE = ("B", "R", "Q")  # the pieces whose attacks the board can block
GENERAL_HIT = 12.0
#: A move after which the enemy General is attacked and has nowhere safe to go (a siege, see _siege).
FORCED_HIT = 5.0
#: From this turn on every position is scored as a siege, and the random tie-break widens by 1 point every
#: ``PATIENCE_STEP`` turns: a standoff the scores cannot break is broken by chance.
PATIENCE = 200
PATIENCE_STEP = 25


class HeuristicAgent(BaseAgent):
    """Plays useful cards, then the move with the best expected gain (see the module docs).

    Scoring reads one sampled state, :attr:`st`, many times over (every legal
    move asks for the same attack squares, Generals and values), so facts about
    it are cached on first use and dropped whenever :attr:`st` is assigned
    (set :attr:`me`, the seat scored for, first).  The caches describe the
    position as it is: the scoring rules that move a piece temporarily (to see
    what it would attack from its new square) do so only around code that does
    not read them, or that recomputes what the move changes.
    """

    defaults = {"card_threshold": 0.3}
    #: The last move chosen (from, to): moving straight back is discouraged.
    prev: tuple[int, int] | None = None

    @property
    def st(self) -> "ArmiesRules":
        """The sampled state being scored (assigning it clears the per-state caches)."""
        return self._st

    @st.setter
    def st(self, st: "ArmiesRules") -> None:
        self._st = st
        self._reach_cache: dict[int, Sequence[int]] = {}  # army id -> attack_squares on the unchanged board
        self._stats_cache: dict[int, tuple[int, int]] = {}  # army id -> (offense, defense)
        self._worth_cache: dict[int, float] = {}
        self._general_cache: list["Army | None"] = [None, None]
        self._life_cache: list[int | None] = [None, None]
        self._danger_cache: dict[int, float] | None = None  # with _cover, _foes and _mine (see _danger)
        self._cover: dict[int, int] = {}
        self._foes: list[tuple["Army", Sequence[int]]] = []
        self._mine: list[tuple["Army", Sequence[int]]] = []
        self._endgame_cache: bool | None = None
        self._ring_cache: tuple[dict[int, int], int] | None = None  # (see _box)
        self._siege_cache: tuple | None = None  # (see _siege)
        self._facts_cache: tuple | None = None  # (see _move_facts)
        self._limit_cache: dict[str, int] = {}

    def act(self, decision: Decision):
        return self._choose(decision)[0]

    def ranked(self, decision: Decision) -> list:
        """The legal actions best first: this agent's move, then the rest by score.

        Search agents use the ranking to look at the most promising moves first
        (progressive unpruning, docs/agents.md).  Prompts the agent answers by
        rule (payment, setup, losses) keep the legal order after its answer.
        """
        best, scored = self._choose(decision)
        rest = [a for _s, a in sorted(scored, key=lambda x: -x[0]) if a != best]
        if not scored:
            rest = [a for a in decision.legal if a != best]
        return [best, *rest]

    def _choose(self, decision: Decision) -> tuple:
        """This agent's move and the ``(score, action)`` pairs it weighed (empty for prompts)."""
        legal = decision.legal
        if len(legal) == 1:
            return legal[0], []
        st = decision.sample(self.rng.next64())
        self.me = decision.seat
        self.st = st
        kind = st.stack[-1].kind if st.stack else None
        if kind == "pay":
            return ("autopay",), []
        if kind == "setup":
            return self._setup(legal), []
        if kind == "general_loss":
            return self._lose(legal), []
        best, best_score = None, -1e9
        scored = []
        noise = 0.01 + max(0, st.turn - PATIENCE) / PATIENCE_STEP  # (read off the state: a fresh agent agrees)
        for a in legal:
            s = self.score(a) + self.rng.random() * noise
            scored.append((s, a))
            if s > best_score:
                best, best_score = a, s
        if kind is None:
            cards = [(s, a) for s, a in scored if a[0] not in ("move", "pass", "rest", "end")]
            if cards:
                s, a = max(cards, key=lambda x: x[0])
                if s > self.params["card_threshold"]:
                    return a, scored
            others = [(s, a) for s, a in scored if a[0] in ("move", "pass", "rest", "end")]
            best = max(others, key=lambda x: x[0])[1]
            if best[0] == "move":
                self.prev = (best[1], best[2])
        return best, scored

    # -- setup and losses ------------------------------------------------------
    def _demand(self) -> list[float]:
        dem = [0.0] * 5
        for name in self.game.deck_lists[self.me]:
            c = self.game.cards[name]
            for d in range(5):
                dem[d] += c.cost[d + 1]
            if c.domain:
                dem[DOMAINS.index(c.domain)] += 0.5
        return dem

    def _setup(self, legal):
        dem = self._demand()
        order = sorted(range(5), key=lambda d: -dem[d])
        want = "".join(sorted(DOMAINS[order[0]] * 2 + DOMAINS[order[1]], key=DOMAINS.index))
        return ("skills", want) if ("skills", want) in legal else legal[0]

    def _lose(self, legal):
        dem = self._demand()
        g = self.st.general(self.me)
        return min(legal, key=lambda a: (dem[DOMAINS.index(a[1])] - g.maxs[DOMAINS.index(a[1])], a))

    # -- per-state facts (cached; see the class docs) ----------------------------
    def _reach(self, a: "Army") -> Sequence[int]:
        """:func:`attack_squares` of ``a`` on the unchanged board.  Do not mutate."""
        r = self._reach_cache.get(a.id)
        if r is None:
            r = self._reach_cache[a.id] = attack_squares(self.st, a)
        return r

    def _stats(self, a: "Army") -> tuple[int, int]:
        """``(offense, defense)`` of ``a``."""
        r = self._stats_cache.get(a.id)
        if r is None:
            r = self._stats_cache[a.id] = (self.st.offense(a), self.st.defense(a))
        return r

    def _worth(self, a: "Army") -> float:
        """What losing ``a`` costs: its piece value plus its bonuses."""
        w = self._worth_cache.get(a.id)
        if w is None:
            off, dfn = self._stats(a)
            w = self._worth_cache[a.id] = VALUE[a.kind] + 0.3 * (off + dfn)
        return w

    def _general(self, seat: int) -> "Army":
        g = self._general_cache[seat]
        if g is None:
            g = self._general_cache[seat] = self.st.general(seat)
        return g

    def _life_of(self, seat: int) -> int:
        life = self._life_cache[seat]
        if life is None:
            life = self._life_cache[seat] = _life(self.st, seat)
        return life

    def _chance(self, att: "Army", dfn: "Army") -> float:
        """:func:`attack_chance` of a melee attack."""
        return win_chance(self._stats(att)[0], 1, self._stats(dfn)[1])

    # -- scoring ---------------------------------------------------------------
    def score(self, a) -> float:
        k = a[0]
        fn = getattr(self, "_s_" + k, None)
        return fn(a) if fn is not None else 0.0

    def _danger(self) -> dict[int, float]:
        """Squares the enemy could attack -> value of the cheapest such attacker.

        Also fills ``_cover`` (square -> how many of our armies could attack
        it), ``_foes`` (the enemy armies able to attack) and ``_mine`` (our
        armies), the last two as ``(army, attack squares)`` pairs.
        """
        out = self._danger_cache
        if out is not None:
            return out
        st = self.st
        out = {}
        cover: dict[int, int] = {}
        foes = []
        mine = []
        for e in st.armies.values():
            if e.seat != self.me:
                if st.can_attack(e):
                    reach = self._reach(e)
                    foes.append((e, reach))
                    v = VALUE[e.kind] if e.kind != "K" else 4.0
                    for t in reach:
                        if out.get(t, 99.0) > v:
                            out[t] = v
            else:
                reach = self._reach(e)
                mine.append((e, reach))
                for t in reach:
                    cover[t] = cover.get(t, 0) + 1
        self._danger_cache = out
        self._cover = cover
        self._foes = foes
        self._mine = mine
        return out

    def _move_facts(self) -> tuple[dict[int, float], dict[int, int], int, int, bool, float, float]:
        """What scoring any move reads about the state: ``(danger, cover, enemy General's square,
        our General's square, endgame?, risk, pawn push)``."""
        facts = self._facts_cache
        if facts is None:
            st = self.st
            danger = self._danger()
            facts = self._facts_cache = (
                danger, self._cover, self._general(1 - self.me).sq, self._general(self.me).sq, self._endgame(),
                max(0.25, 0.8 - st.turn / 300.0), 0.05 + min(st.turn, 300) / 750.0,
            )
        return facts

    def _limit(self, kind: str) -> int:
        """``st.move_limit(kind)``."""
        n = self._limit_cache.get(kind)
        if n is None:
            n = self._limit_cache[kind] = self.st.move_limit(kind)
        return n

    def _s_move(self, a) -> float:
        st = self.st
        facts = self._facts_cache
        danger, cover, eg, own_sq, endgame, risk, push = facts if facts is not None else self._move_facts()
        f, t, promo = a[1], a[2], a[3]
        board, armies = st.board, st.armies
        me = armies[board[f]]
        target = None if board[t] is None else armies[board[t]]
        v = self._worth(me)
        score = 0.0
        p = 0.0
        if target is not None:
            p = self._chance(me, target)
            if target.kind == "K":
                score += p * (GENERAL_HIT + (100 if sum(target.maxs) == 0 else 0))
            else:
                score += p * (self._worth(target) + 0.5 * sum(target.maxs))
        elif me.kind == "P" and (f & 7) != (t & 7):
            score += 1.0
        if me.kind == "K":
            hit = self._attacked_after(me, f, t, target)
            # Bold: the General seeks the enemy General when it would win the race of blows (each side's
            # General hits the other's once a turn; the first to strike wins with no fewer skill points).
            # Past PATIENCE it is bold with equal skill too: two lone Generals of equal skill otherwise
            # kept apart to the turn cap (the one that steps next to the other loses the race).
            mine, theirs = self._life_of(self.me), self._life_of(1 - self.me)
            bold = 0.35 if mine > theirs + (1 if st.turn < 150 else 0) or (st.turn >= PATIENCE and mine >= theirs) else 1.0
            if hit:
                score -= GENERAL_HIT * 0.9 * bold
            elif f in danger:
                score += GENERAL_HIT * 0.8
            if abs(t - f) == 2:
                score += 0.5
            if bold < 1.0 and t in B.KING[eg]:
                score += 4.0
            score -= 0.2
        elif target is not None and target.kind == "K" and me.kind != "N":
            # beating a General is not a capture: the attacker stops next to it
            d = B.direction(f, t)
            df, dr = B.DIRS[d]
            fall = t - (dr * 8 + df)
            if fall in danger:
                own = 1 if fall in self._reach(me) else 0
                covered = cover.get(fall, 0) > own
                score -= (v if not covered else max(0.0, v - danger[fall])) * risk
        else:
            covered = cover.get(t, 0) > (1 if f in B.KNIGHT[t] or t in self._reach(me) else 0)
            if t in danger:
                loss = v if not covered else max(0.0, v - danger[t])
                score -= loss * risk
            if f in danger:
                covered_f = cover.get(f, 0) > 0
                was = v if not covered_f else max(0.0, v - danger[f])
                if t not in danger:
                    score += was * 0.6
            if endgame or st.turn >= PATIENCE:
                # a siege: the General attacked (by the mover or by a line the move opens) with nowhere
                # safe to go is hit next turn; a threat it can step away from is worth little, and chasing
                # it with one piece after another was the old endless shuttle (see _siege)
                if target is None:
                    threat, free = self._siege(me, f, t)
                    if threat:
                        score += FORCED_HIT if free == 0 else 0.5
            else:
                # attacking the General next turn (``me`` is no General here: what it attacks from t
                # depends on the board only through the squares it passes, where f is now empty)
                board[f] = None
                board[t] = me.id
                if B.threatens(board, me.kind, t, me.seat, eg, self._limit(me.kind)):
                    score += 1.5
                board[t] = target.id if target is not None else None
                board[f] = me.id
        if self.prev == (t, f):
            score -= 0.4
        # pressure on the enemy General
        d0 = B.DISTANCE[f][eg]
        d1 = B.DISTANCE[t][eg]
        score += 0.08 * (d0 - d1)
        if endgame:
            boxed = self._box(me, f, t, target)
            score += 0.8 * boxed
            if me.kind == "K":
                score += 0.4 * (d0 - d1)
        if target is not None and own_sq in danger and me.kind != "K" and own_sq in self._reach(target):
            score += GENERAL_HIT * 0.7 * p
        if promo:
            score += {"q": 8, "r": 4, "b": 2, "n": 2}[promo]
        if me.kind == "P":
            score += push * ((t >> 3) if me.seat == 0 else 7 - (t >> 3))
        return score

    def _endgame(self) -> bool:
        e = self._endgame_cache
        if e is None:
            e = self._endgame_cache = sum(1 for a in self.st.armies.values() if a.seat != self.me) <= 4
        return e

    def _ring_cover(self, mine: list[tuple["Army", Sequence[int]]]) -> dict[int, int]:
        """Each square next to the enemy General -> how many of ``mine`` could attack it."""
        return {q: sum(1 for _, r in mine if q in r) for q in B.KING[self._general(1 - self.me).sq]}

    def _free(self, cover: dict[int, int], move: tuple[Any, int, int] | None = None) -> int:
        """Squares next to the enemy General that none of our armies covers and no enemy holds
        (after ``move`` = (army, from, to), if given: the army stands on ``to``, ``from`` is empty)."""
        st = self.st
        n = 0
        for q, c in cover.items():
            o = st.board[q]
            if move is not None:
                o = move[0].id if q == move[2] else None if q == move[1] else o
            if not c and (o is None or st.armies[o].seat == self.me):
                n += 1
        return n

    def _cover_after(self, cover: dict[int, int], armies, me, f: int, t: int, back) -> dict[int, int]:
        """``cover`` (square -> how many of ``armies`` attack it) after ``me`` moves from ``f`` to
        ``t`` (where ``back``, an army id or None, stood): only the mover and the line pieces whose
        lines ran through ``f`` or ``t`` are recounted (pawns, knights and the General attack fixed
        squares).  The board is moved for the count and put back."""
        st = self.st
        changed = [(a, r) for a, r in armies if a is me or (a.kind in _LINE and (f in r or t in r))]
        board = st.board
        board[f] = None
        board[t] = me.id
        me.sq = t
        try:
            cover = dict(cover)
            for a, r in changed:
                now = attack_squares(st, a)
                for q in cover:
                    cover[q] += (q in now) - (q in r)
        finally:
            me.sq = f
            board[t] = back
            board[f] = me.id
        return cover

    def _box(self, me, f: int, t: int, target) -> float:
        """How many escape squares of the enemy General this move takes away (endgames)."""
        st = self.st
        self._danger()
        if target is not None and target.seat == self.me:  # (never for a legal move)
            mine = [(a, r) for a, r in self._mine if a is not target]
            cover = self._ring_cover(mine)
            before = self._free(cover)
        else:
            mine = self._mine
            if self._ring_cache is None:
                cover = self._ring_cover(mine)
                self._ring_cache = (cover, self._free(cover))
            cover, before = self._ring_cache
        cover = self._cover_after(cover, mine, me, f, t, target.id if target is not None else None)
        return float(before - self._free(cover, (me, f, t)))

    def _siege(self, me, f: int, t: int) -> tuple[bool, int]:
        """After ``me`` moves from ``f`` to the empty square ``t``: is the enemy General attacked, and how
        many squares next to it are free (none of our armies able to attack could attack it there, and
        no enemy stands there)?  Only armies able to attack count (an army under Non-aggression Order
        neither hits the General nor keeps it from a square).  A General attacked with no free square
        is hit next turn whatever it does, unless a card or another enemy intervenes."""
        st = self.st
        eg = self._general(1 - self.me).sq
        facts = self._siege_cache
        if facts is None:
            self._danger()
            attackers = [(a, r) for a, r in self._mine if st.can_attack(a)]
            squares = (eg, *B.KING[eg])
            cover = {q: sum(1 for _, r in attackers if q in r) for q in squares}
            facts = self._siege_cache = (attackers, cover)
        attackers, cover = facts
        cover = self._cover_after(cover, attackers, me, f, t, None)
        return cover[eg] > 0, self._free({q: cover[q] for q in B.KING[eg]}, (me, f, t))

    def _attacked_after(self, me, f: int, t: int, target) -> bool:
        """Could an enemy attack square ``t`` after ``me`` moves there from ``f`` (capturing ``target``)?"""
        st = self.st
        self._danger()
        board = st.board
        board[f] = None
        board[t] = me.id
        try:
            # an enemy's squares change only if its lines ran through f or t; if they did not, t is not among them
            for e, r in self._foes:
                if e is not target and (f in r or t in r) and t in attack_squares(st, e):
                    return True
            return False
        finally:
            board[t] = target.id if target is not None else None
            board[f] = me.id

    def _s_pass(self, a) -> float:
        return -0.3 if not self.st.stack else 0.0

    def _s_rest(self, a) -> float:
        army = self.st.armies[a[1]]
        return sum(army.maxs) - sum(army.skill) + (2 if army.leader and army.spent else 0) + 0.1

    def _s_end(self, a) -> float:
        return 0.0

    def _s_stop(self, a) -> float:
        return 0.0

    def _s_chain(self, a) -> float:
        st = self.st
        o = st.at(a[1])
        if o is None:
            return -0.1 if a[1] in self._danger() else 0.05
        p = win_chance(0, st.stack[-1].data["power"], st.defense(o))
        return p * (VALUE[o.kind] or GENERAL_HIT) - 0.2

    def _value(self, o: "Army") -> float:
        if o.kind == "K":
            return GENERAL_HIT
        return self._worth(o) + 0.5 * sum(o.maxs)

    def _s_train(self, a) -> float:
        st = self.st
        army = st.armies[a[2]]
        card = st.card(a[1])
        if army.kind == "K":
            life = sum(army.maxs)
            return 3.0 + (1.0 if life < 6 else 0.0) if life < 8 else 1.5
        base = 2.0 + 0.2 * VALUE[army.kind] + (0.5 if army.leader else 0.0) + 0.3 * sum(army.maxs)
        if card.grants == "longbow":
            base += 0.3 * sum(1 for t in st.threats(army) if st.at(t) is not None and st.at(t).seat != self.me)
        return base

    def _s_strategy(self, a) -> float:
        st = self.st
        e = st.card(a[1]).effect
        if e == "unfavorable_war":
            return 3.0 * (_life(st, self.me) - _life(st, 1 - self.me) - 1)
        if e == "bows_and_knives":
            ranged = sum(1 for x in st.armies.values() if x.seat == self.me and "longbow" in x.traits)
            ranged += sum(1 for n in st.hands[self.me] if st.card(n).effect == "ranged")
            return 2.0 if ranged else -1.0
        if e == "caught_off_guard":
            return 2.5
        if e == "weather":
            return 1.0 if any(st.strategy_in_play("weather", 1 - self.me) for _ in (0,)) is False else -1.0
        return 1.0

    def _s_play(self, a) -> float:
        st = self.st
        card = st.card(a[1])
        p = st.armies[a[2]]
        o = st.at(a[3])
        t = card.type
        if t == "leader":
            return 1.0 + 0.5 * (card.offense + card.defense) + 0.15 * VALUE[o.kind] - (0.5 if o.kind == "P" else 0)
        if t == "boon":
            return (2.0 + 0.2 * VALUE[o.kind]) if card.offense else 1.2
        if t == "curse":
            if card.no_attack:
                return 0.3 + 0.4 * VALUE[o.kind] + 0.3 * st.offense(o)
            if card.no_rest:
                return 0.5 + 0.5 * sum(o.maxs)
            return 0.6
        e = card.effect
        if e == "ranged":
            power = card.power * (2 if st.strategy_in_play("bows_and_knives", self.me) else 1)
            return attack_chance(st, p, o, "ranged", power) * self._value(o)
        if e == "without_a_trace":
            if o.seat == self.me:
                return -5.0
            if st.stack:
                c = st.combats[st.stack[-1].data["cid"]]
                if o.id == c["att"]:
                    return self._value(st.armies[c["def"]]) * 0.8 + 1
            return self._value(o) - 2.0
        if e == "mind_fog":
            n = sum(1 for sq in st.threats(p) if st.at(sq) is not None and st.at(sq).seat != self.me
                    and st.at(sq).leader and not st.at(sq).spent)
            return 1.5 * n - 0.5
        if e == "battlefield_dominance":
            mine = sum(1 for x in st.armies.values() if x.leader and x.seat == self.me)
            theirs = sum(1 for x in st.armies.values() if x.leader and x.seat != self.me)
            return 1.2 * (mine - theirs) - 0.5
        if e == "know_thy_enemy":
            return 1.2 * sum(1 for m in p.maxs if m > 0) - 0.5
        if e == "against_all_odds":
            x = sum((1 if e2.seat != self.me else -1) for e2 in st.armies.values() if e2 is not p and p.sq in st.threats(e2))
            return 1.5 * x - 0.5
        if e == "second_wind":
            if st.stack:
                return 1.0 if "Ambush" in st.hands[self.me] else -0.5
            return 1.0
        if e == "hold_the_line":
            c = st.combats[st.stack[-1].data["cid"]]
            if c["a"] > c["d"] + 2:
                return -0.5
            return self._value(o) - 1.5
        if e == "ambush":
            c = st.combats[st.stack[-1].data["cid"]]
            return attack_chance(st, p, o) * self._value(o) - 0.5 + 0.3 * self._value(st.armies[c["def"]])
        if e == "disruption":
            play = st.stack[-1].data["play"]
            victim = st.at(play["target"]) if play.get("target") is not None else None
            bad = st.card(play["card"]).cost_total
            if victim is not None and victim.seat == self.me:
                bad += self._value(victim)
            return bad - 3.0
        return 0.5

    def _s_ability(self, a) -> float:
        if a[2] == "unyielding":
            army = self.st.armies[a[1]]
            if self.st.phase != "opp1":
                return -1.0
            targets = [t for t in attack_squares(self.st, army) if self.st.at(t) is not None
                       and self.st.at(t).seat != self.me]
            return 0.4 if targets and self.st.defense(self.st.at(targets[0])) > 0 else -0.5
        return -1.0

    def _s_volley(self, a) -> float:
        st = self.st
        o = st.at(a[2])
        power = 2 if st.strategy_in_play("bows_and_knives", self.me) else 1
        return attack_chance(st, st.armies[a[1]], o, "ranged", power) * self._value(o) - 0.2

    def _s_calm(self, a) -> float:
        return -0.2

    def _s_break(self, a) -> float:
        army = self.st.armies[a[1]]
        return 0.4 * sum(army.maxs) - 1.0

    def _s_exempt(self, a) -> float:
        return 5.0

    def _s_politician(self, a) -> float:
        return 6.0

    def _s_discard(self, a) -> float:
        return -self.st.card(a[1]).cost_total
