"""A heuristic Blackfire player (the position features and evaluation are in :mod:`.features`).

The agent decides from its seat's view and the legal actions only (the castle
map is public).  It scores every legal action with a one-ply rule of thumb:
carry the Orb toward the open exit, take a lying Orb, hunt the enemy carrier,
kill what can be killed, never stop where an enemy archer shoots, and keep
clear of squares the enemy can strike next turn (more than of the square the
unit stands on).  Escorts never park on the open exit, a sorcerer moves before
it revives, and a game that has stalled past :data:`PATIENCE` turns widens the
random tie-break; ``benchmarks/bench_truncation.py`` measures how often games
still reach the turn cap.  ``persona`` weights shift the emphasis (see
:attr:`BlackfireGame.personas`).
"""

from __future__ import annotations

import math
from typing import Any

from boardlab.engine.agent import BaseAgent, Decision

KILL_VALUE = {"sorcerer": 160.0, "archer": 110.0, "warrior": 80.0}
CARRIER_VALUE = 450.0
#: Past this turn a game has stalled (heuristic games last 11 turns at the median, 64 at the 99th
#: percentile), and the agent's random tie-break grows by 1 point every :data:`IMPATIENCE` turns, so
#: a standoff (two archers guarding a lying Orb, a revive-and-kill loop) is broken by chance rather
#: than running into the turn cap. Deterministic for a seed: it reads the turn off the view.
PATIENCE = 100
IMPATIENCE = 5.0
#: What an escort loses by stopping on the open exit while its side carries the Orb (and gains by leaving
#: it when the carrier is near): the carrier cannot end its move on a friend, so a parked escort blocks the win.
EXIT_PARKING = 30.0


class _Board:
    """What the agent reads off a view: positions as cell indexes."""

    def __init__(self, game: Any, view: dict[str, Any]) -> None:
        st = view["state"]
        castle = game.castle
        w = castle.width
        self.castle = castle
        self.opt = game.opt
        self.dist = castle.dist
        self.me = st["colours"][view["seat"]] if st["colours"] else None
        self.units = st["units"]
        self.cell = [u["cell"][1] * w + u["cell"][0] if u["cell"] is not None else None for u in st["units"]]
        self.tokens = {y * w + x for x, y in st["tokens"]}
        self.exit = castle.exits[st["exit"] - 1] if st["exit"] else None
        orb = st["orb"] or {}
        self.holder = orb.get("holder")
        self.orb_cell = orb["cell"][1] * w + orb["cell"][0] if orb.get("cell") else None
        if self.holder is not None:
            self.orb_cell = self.cell[self.holder]
        self.prompt = st["prompt"]
        self.red_start = st.get("red_start")
        self._sides: dict[str, tuple[int, ...]] = {}

    def side_units(self, side: str) -> tuple[int, ...]:
        """The side's units on the board (computed once per board: scoring asks for it per legal action)."""
        got = self._sides.get(side)
        if got is None:
            got = self._sides[side] = tuple(
                i for i, u in enumerate(self.units) if u["side"] == side and self.cell[i] is not None)
        return got

    def archer_of(self, side: str) -> int | None:
        i = 1 if side == "green" else 4
        return i if self.cell[i] is not None else None


#: How each persona of :attr:`BlackfireGame.personas` scales the agent's rules of thumb.
PERSONA_STYLE = {
    "": {},
    "runner": {"progress": 1.6, "danger": 0.8},
    "hunter": {"kill": 1.5, "hunt": 1.6, "danger": 0.7},
    "cautious": {"danger": 2.0, "kill": 0.9},
    "collector": {"token": 4.0},
    # Camps the enemy sorcerer's respawn square while it is dead, to kill it as it reappears: the
    # behaviour the designers' respawn push was made 'to prevent'. The bots never do it unprompted.
    "camper": {"camp": 1.0},
}


class HeuristicAgent(BaseAgent):
    """Greedy one-ply scoring of the legal actions (see the module docs).

    Parameters: ``noise`` (random tie-breaking amplitude, widened past :data:`PATIENCE` turns) and ``persona``
    (``runner``, ``hunter``, ``cautious``, ``collector`` or ``camper``), e.g.
    ``heuristic:persona=hunter``.  The rules of thumb's weights are parameters
    too, multiplying the persona's: ``progress``, ``danger``, ``kill``,
    ``hunt`` and ``token`` (1.0 each), and ``stay``, the score of ending a turn
    or a move without acting (0.0); ``benchmarks/bench_tuned_heuristic.py``
    searches them.
    """

    #: The rules-of-thumb weights a tuner may change (each multiplies the persona's).
    WEIGHTS = ("progress", "danger", "kill", "hunt", "token")
    defaults = {"noise": 1.0, "persona": "", "progress": 1.0, "danger": 1.0, "kill": 1.0, "hunt": 1.0,
                "token": 1.0, "stay": 0.0}

    def __init__(self, game: Any, seat: int, seed: int = 0, **params: Any) -> None:
        super().__init__(game, seat, seed, **params)
        self.check_params(game, params)
        style = PERSONA_STYLE[self.params["persona"]]
        self.style = {"progress": 1.0, "danger": 1.0, "kill": 1.0, "hunt": 1.0, "token": 1.0, "camp": 0.0, **style}
        for w in self.WEIGHTS:
            self.style[w] *= float(self.params[w])
        self.stay = float(self.params["stay"])

    @classmethod
    def check_params(cls, game: Any, params: dict[str, Any]) -> None:
        """Raise :class:`UnknownAgentError` for an unknown parameter or persona, or a weight that is not a number."""
        from boardlab.engine.errors import UnknownAgentError

        cls.refuse_unknown(params, "heuristic")
        merged = {**cls.defaults, **params}
        if merged["persona"] not in PERSONA_STYLE:
            raise UnknownAgentError(f"unknown persona {merged['persona']!r} (personas: {', '.join(k for k in PERSONA_STYLE if k)})")
        for key in (*cls.WEIGHTS, "stay", "noise"):
            v = merged[key]
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or (key != "stay" and v < 0):
                raise UnknownAgentError(f"heuristic parameter {key} must be a {'' if key == 'stay' else 'non-negative '}number, got {v!r}")

    def act(self, decision: Decision) -> tuple:
        legal = decision.legal
        if len(legal) == 1:
            return legal[0]
        if decision.view["state"]["phase"] == "place":
            return self._place(legal)
        best, best_score = legal[0], -math.inf
        noise = self.params["noise"]
        late = decision.view["turn"] - PATIENCE
        if late > 0:  # a stalled game: widen the tie-break (see PATIENCE)
            noise += late / IMPATIENCE
        for a, score in zip(legal, self.scores(decision)):
            s = score + noise * self.rng.random()
            if s > best_score:
                best, best_score = a, s
        return best

    def scores(self, decision: Decision) -> list[float]:
        """This heuristic's score of every legal action, without its noise (placements score 0)."""
        legal = decision.legal
        view = decision.view
        if view["state"]["phase"] == "place":
            return [0.0] * len(legal)
        b = _Board(self.game, view)
        scores = [self.score(b, a) for a in legal]
        sorc = 0 if b.me == "green" else 3
        if b.prompt is None and not b.units[sorc]["moved"]:
            # Reviving ends the sorcerer's movement, so a revival before the sorcerer has moved is scored
            # net of the best move it gives up (it may still revive after that move). Without it, two sides
            # that revived instead of going for a lying Orb could trade units for ever.
            gain = max((s for a, s in zip(legal, scores) if a[0] == "move" and a[1] == sorc), default=0.0)
            if gain > 0:
                scores = [s - gain if a[0] == "revive" else s for a, s in zip(legal, scores)]
        return scores

    def _place(self, legal: tuple) -> tuple:
        # Tokens are unknown to everyone and colours are not rolled yet: spread
        # them over squares a few steps from the centre, where both sides pass.
        castle = self.game.castle
        row = castle.dist[castle.green_start]
        near = [a for a in legal if 2 <= row[a[1]] <= 6]
        pool = near or list(legal)
        return pool[self.rng.below(len(pool))]

    # -- scoring -------------------------------------------------------------
    def score(self, b: _Board, a: tuple) -> float:
        kind = a[0]
        me = b.me
        foe = "red" if me == "green" else "green"
        if kind == "move":
            return self._move_score(b, a[1], a[2], me, foe)
        if kind == "jump":
            u = b.prompt["unit"]
            return self._move_score(b, u, a[1], me, foe)
        if kind == "take":
            return 600.0
        if kind == "shoot":
            return self._kill_value(b, a[1])
        if kind == "revive":
            return self._revive_score(b, a[1], a[2], foe)
        if kind == "displace":
            return self._displace_score(b, a[1], a[2], me, foe)
        if kind == "stance":
            return self._stance_score(b, a[1], foe)
        return self.stay  # end, stop, stay, pass

    def _camp_square(self, b: _Board, foe: str) -> int | None:
        """The enemy sorcerer's respawn square while it is dead (its start square), else None."""
        sorc = 0 if foe == "green" else 3
        if not b.units or b.cell[sorc] is not None:
            return None
        castle = b.castle
        if foe == "green":
            return castle.green_start
        idx = b.red_start
        return castle.red_starts[idx - 1] if idx else None

    def _kill_value(self, b: _Board, e: int) -> float:
        u = b.units[e]
        if u["invulnerable"]:
            return 15.0
        return (CARRIER_VALUE if u["orb"] else KILL_VALUE[u["kind"]]) * self.style["kill"]

    def _threat(self, b: _Board, cell: int, foe: str) -> float:
        """How strongly the enemy can hit ``cell`` next turn (0 = safe)."""
        d = b.dist[cell]
        opt = b.opt
        t = 0.0
        for e in b.side_units(foe):
            u = b.units[e]
            de = d[b.cell[e]]
            if u["kind"] == "archer":
                # a solely defensive archer (archer_offense off) hits only by landing
                if de <= opt["archer_move"] + (opt["archer_range"] if opt["archer_offense"] else 0):
                    t = max(t, 0.8)
            elif u["kind"] == "warrior":
                reach = opt["warrior_move"] if u["stance"] == "offensive" else 0
                if de <= reach:
                    t = max(t, 0.9)
            elif de <= opt["sorcerer_move"]:
                t = max(t, 0.7)
        return t

    def _move_score(self, b: _Board, u: int, c: int, me: str, foe: str) -> float:
        unit = b.units[u]
        kind = unit["kind"]
        d = b.dist
        opt = b.opt
        here = b.cell[u]
        score = 0.0
        # attacks by landing
        victims = [e for e in b.side_units(foe) if b.cell[e] == c]
        for e in victims:
            score += self._kill_value(b, e)
        absorbed = any(b.units[e]["invulnerable"] for e in victims)
        if absorbed:
            c = here
        # archer fire
        fa = b.archer_of(foe)
        in_zone = fa is not None and d[c][b.cell[fa]] <= opt["archer_range"] and fa not in victims
        my_value = CARRIER_VALUE if unit["orb"] else KILL_VALUE[kind]
        if kind == "archer" and in_zone and opt["archer_contest"]:
            p = (7 - opt["contest_target"]) / 6
            score += p * self._kill_value(b, fa) - (1 - p) * my_value * (0 if unit["invulnerable"] else 1)
        elif kind == "archer" and not in_zone:
            if opt["archer_offense"]:
                targets = [e for e in b.side_units(foe) if d[c][b.cell[e]] <= opt["archer_range"]
                           and not (b.units[e]["kind"] == "warrior" and b.units[e]["stance"] == "defensive")]
                if targets:
                    score += max(self._kill_value(b, e) for e in targets)
        elif in_zone and not unit["invulnerable"]:
            score -= my_value
        # purpose
        carrier = b.holder
        goal = b.exit
        camp = self._camp_square(b, foe) if self.style["camp"] and not unit["orb"] else None
        if camp is not None:  # camper: stand next to the dead enemy sorcerer's respawn square
            return score + 20.0 * self.style["camp"] * (min(d[here][camp], 12) - min(abs(d[c][camp] - 1), 12))
        if unit["orb"]:
            if c == goal and not (in_zone and not unit["invulnerable"]):
                return 5000.0
            score += 12.0 * self.style["progress"] * (d[here][goal] - d[c][goal])
        elif kind == "sorcerer" and carrier is None and b.orb_cell is not None:
            score += 10.0 * (d[here][b.orb_cell] - d[c][b.orb_cell])
            if c == b.orb_cell:
                score += 300.0
        elif carrier is not None and b.units[carrier]["side"] == foe:
            target = b.cell[carrier]
            ideal = 0 if kind != "archer" else opt["archer_range"] + 1
            score += 8.0 * self.style["hunt"] * (abs(d[here][target] - ideal) - abs(d[c][target] - ideal))
            # stand between the carrier and the exit
            if d[c][goal] < d[target][goal]:
                score += 4.0
        elif carrier is not None:  # escort our carrier, a little ahead of it toward the exit
            target = b.cell[carrier]
            if c == goal:  # never park on the open exit (see EXIT_PARKING)
                score -= EXIT_PARKING
            elif here == goal and d[target][goal] <= opt["sorcerer_move"] + 1:
                score += EXIT_PARKING
            score += 3.0 * (min(d[here][target], 6) - min(d[c][target], 6))
            score += 4.0 * (d[here][goal] - d[c][goal])
            hunt = [e for e in b.side_units(foe) if d[b.cell[e]][target] <= 6]
            if hunt:
                e = min(hunt, key=lambda e: d[b.cell[e]][target])
                score += 5.0 * (d[here][b.cell[e]] - d[c][b.cell[e]])
        elif b.orb_cell is not None:  # the Orb lies on the board: clear the way for our sorcerer
            orb = b.orb_cell
            foes = b.side_units(foe)
            if foes:
                e = min(foes, key=lambda e: (d[b.cell[e]][orb], e))
                target = b.cell[e]
                ideal = 0 if kind != "archer" else opt["archer_range"] + 1
                score += 6.0 * (abs(d[here][target] - ideal) - abs(d[c][target] - ideal))
            if c == orb:
                score -= 60.0  # never sit on the Orb: our sorcerer could not take it
            elif here == orb:
                score += 60.0
        # tokens: most help, some hurt; the carrier avoids the gamble
        if c in b.tokens and c != here:
            score += -40.0 if unit["orb"] else 10.0 * self.style["token"]
        # next turn's danger, compared with staying put (ending the turn scores no danger, so an absolute
        # penalty kept units frozen on threatened squares: standoffs over a lying Orb)
        t = self._threat(b, c, foe)
        if c != here:
            t -= self._threat(b, here, foe)
        if t and not unit["invulnerable"]:
            score -= t * my_value * self.style["danger"] * (0.6 if unit["orb"] else 0.25 if kind == "sorcerer" else 0.15)
        return score

    def _revive_score(self, b: _Board, u: int, c: int, foe: str) -> float:
        score = 80.0 + (60.0 if b.units[u]["kind"] == "sorcerer" else 0.0)
        for e in b.side_units(foe):
            if b.cell[e] == c:
                score += self._kill_value(b, e)
        if b.orb_cell is not None:
            score += 2.0 * (30 - min(30, b.dist[c][b.orb_cell]))
        fa = b.archer_of(foe)
        if (b.units[u]["kind"] == "archer" and b.opt["archer_contest"] and fa is not None and b.cell[fa] != c
                and b.dist[c][b.cell[fa]] <= b.opt["archer_range"]):
            # the revived archer meets the enemy archer and attacks in the contest (rules ledger 14)
            p = (7 - b.opt["contest_target"]) / 6
            score += p * self._kill_value(b, fa) - (1 - p) * KILL_VALUE["archer"]
        return score

    def _displace_score(self, b: _Board, e: int, c: int, me: str, foe: str) -> float:
        d = b.dist
        here = b.cell[e]
        unit = b.units[e]
        score = 0.0
        if unit["orb"]:
            if c == b.exit:
                return -5000.0
            score += 10.0 * (min(d[c][b.exit], 30) - d[here][b.exit])
        ma = b.archer_of(me)
        if ma is not None and d[c][b.cell[ma]] <= b.opt["archer_range"]:
            if unit["kind"] == "archer" and b.opt["archer_contest"]:
                # the displaced archer holds the contest as the attacker (rules ledger 14)
                p = (7 - b.opt["contest_target"]) / 6
                mine = 0.0 if b.units[ma]["invulnerable"] else KILL_VALUE["archer"]
                score += (1 - p) * self._kill_value(b, e) - p * mine
            elif not (unit["kind"] == "warrior" and unit["stance"] == "defensive") and not unit["invulnerable"]:
                score += self._kill_value(b, e)
        if b.holder is not None and b.units[b.holder]["side"] == me:
            mine = b.cell[b.holder]
            score += 3.0 * (min(d[c][mine], 8) - min(d[here][mine], 8))
        return score

    def _stance_score(self, b: _Board, w: int, foe: str) -> float:
        unit = b.units[w]
        carrier = b.holder
        guarding = (carrier is not None and b.units[carrier]["side"] == foe and b.exit is not None
                    and b.dist[b.cell[w]][b.exit] <= 1 and b.dist[b.cell[carrier]][b.exit] <= 5)
        if unit["stance"] == "offensive":
            return 60.0 if guarding else -1.0
        return -1.0 if guarding else 60.0
