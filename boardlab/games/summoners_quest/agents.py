"""A rule-based heuristic agent for Summoner's Quest.

It decides from the seat's view and the legal actions only.  Plan: build
maximum mana by lapping the own temple, save 10 mana to open a gate, then
run for the chamber of victory; on the way, summon and equip when mana is
not being saved, shoot enemies in range, heal when hurt, and set traps in
the halls of myth.
"""

from __future__ import annotations

from typing import Any

from boardlab.engine.agent import BaseAgent, Decision

HARMFUL = {"poisoned", "stunned", "weakened", "slowed", "reversed", "silenced"}


class HeuristicAgent(BaseAgent):
    defaults = {"aggression": 1.0}

    def act(self, decision: Decision) -> tuple:
        legal = decision.legal
        if len(legal) == 1:
            return legal[0]
        v = decision.view["state"]
        ctx = _Ctx(self.game, v, self.seat)
        best, best_score = legal[0], -1e9
        for a in legal:
            s = ctx.score(a) * (1.0 if a[0] in ("roll", "end") else 1.0) + self.rng.random() * 0.01
            if s > best_score:
                best, best_score = a, s
        return best


class _Ctx:
    def __init__(self, game, v: dict[str, Any], seat: int) -> None:
        self.game, self.v, self.seat = game, v, seat
        self.cards, self.board = game.cards, game.board
        self.players = v["players"]
        self.me = self.players[seat]
        self.gate_cost = game.option_values["gate_cost"]
        self.any_open = any(v["gates"])
        max_mana = self.me["mana"] + self.me["used"]
        in_centre = self.me["space"] >= 32
        # save mana for a gate once a gate could be afforded and none is open
        self.saving = not self.any_open and not in_centre and max_mana >= self.gate_cost
        self.summons = {m["uid"]: m for m in v["summons"]}
        self.traps = {t["space"]: t for t in v["traps"]}

    # -- pieces ------------------------------------------------------------
    def piece(self, pid: str) -> dict[str, Any] | None:
        if pid[0] == "P":
            return self.players[int(pid[1:])]
        return self.summons.get(int(pid[1:]))

    def owner(self, pid: str) -> int:
        p = self.piece(pid)
        return int(pid[1:]) if pid[0] == "P" else p["owner"]

    def space(self, pid: str) -> int:
        return self.piece(pid)["space"]

    def life(self, pid: str) -> int:
        return self.piece(pid)["life"]

    def value(self, pid: str) -> float:
        """How much hurting this piece matters (summoners far more, chamber holders most)."""
        p = self.piece(pid)
        if pid[0] == "P":
            val = 3.0 + (8.0 if p["space"] == self.board.chamber else 0) + (2.0 if p["space"] >= 32 else 0)
            return val + (10 - p["life"]) * 0.3
        return 1.0 + p["attack"] * 0.3

    # -- scoring ---------------------------------------------------------------
    def score(self, a: tuple) -> float:
        kind = a[0]
        fn = getattr(self, "s_" + kind, None)
        return fn(a) if fn else 0.0

    def s_roll(self, a) -> float:
        return 2.0

    s_end = s_roll

    def afford(self, cost: int) -> float:
        """Penalty for spending ``cost`` mana while saving for a gate."""
        if self.saving and self.me["mana"] - cost < self.gate_cost:
            return -6.0
        return 0.0

    def effects_value(self, effects, target) -> float:
        total = 0.0
        targets = [target] if isinstance(target, str) else [
            f"P{p['seat']}" for p in self.players if p["alive"] and p["space"] == target and p["seat"] != self.seat
        ] + [f"S{m['uid']}" for m in self.v["summons"] if m["space"] == target and m["owner"] != self.seat]
        for e in effects:
            k = e[0]
            if k == "draw":
                total += 2.0 if self.me["hand_size"] < 4 else 0.2
            elif k == "mana":
                total += 1.0 * min(e[1], self.me["used"])
            elif k == "break_trap":
                total += 1.5
            for t in targets:
                if isinstance(target, int) and k in ("draw", "mana", "break_trap"):
                    continue
                if k in ("draw", "mana", "break_trap"):
                    continue
                enemy = self.owner(t) != self.seat
                if k == "damage" and enemy:
                    kill = e[1] >= self.life(t)
                    total += self.value(t) * (e[1] + (4 if kill else 0)) * 0.8
                elif k == "heal" and not enemy:
                    missing = (10 - self.life(t)) if t[0] == "P" else self.piece(t)["damage"]
                    total += min(missing, e[1]) * (1.5 if t[0] == "P" else 0.6)
                elif k == "status":
                    harmful = e[1] in HARMFUL
                    if harmful and enemy:
                        total += self.value(t) * 0.6
                    elif not harmful and not enemy:
                        total += 1.2
                elif k == "push" and enemy:
                    total += self.value(t) * (1.2 if self.space(t) >= 32 else 0.2)
                elif k in ("discard", "drain") and enemy:
                    total += 1.0
                elif k == "cleanse" and not enemy:
                    total += 1.5 * sum(1 for s in (self.piece(t).get("statuses") or []) if s[0] in HARMFUL)
                elif k == "advance" and not enemy:
                    total += 1.0
                elif k == "portal" and not enemy:
                    total += 0.8
        return total

    def s_cast(self, a) -> float:
        c = self.cards[a[1]]
        return self.effects_value(c.effects, a[2]) - 0.4 * c.cost + self.afford(c.cost)

    def s_use(self, a) -> float:
        c = self.cards[a[1]]
        return self.effects_value(c.ability.effects, a[2]) - 0.3 * c.ability.cost + self.afford(c.ability.cost)

    def s_ability(self, a) -> float:
        m = self.summons[a[1]]
        ab = self.cards[m["card"]].ability
        return self.effects_value(ab.effects, a[2]) - 0.3 * ab.cost + self.afford(ab.cost)

    def s_summon(self, a) -> float:
        c = self.cards[a[1]]
        return 3.0 + 0.5 * (c.attack + c.life) + self.afford(c.cost)

    def s_equip(self, a) -> float:
        c = self.cards[a[1]]
        return (3.0 if a[2][0] == "P" else 2.0) + self.afford(c.cost)

    def s_open(self, a) -> float:
        p = self.me["space"]
        if p >= 32:
            return -1.0
        ahead = (self.board.portal_of_gate[a[1]] - p) % 32
        return 8.0 if ahead == min((q - p) % 32 for q in self.board.portals) else -1.0

    def s_unequip(self, a) -> float:
        return -10.0

    def s_trap(self, a) -> float:
        sp = a[2]
        board = self.board
        mine_here = any(p["space"] == sp for p in self.players if p["seat"] == self.seat) or any(
            m["space"] == sp for m in self.v["summons"] if m["owner"] == self.seat)
        if mine_here:
            return -5.0
        if board.kinds[sp] == "hall" or sp == board.chamber:
            return 3.0 if any(self.v["gates"]) or self.me["space"] < 32 else 1.0
        # a few spaces ahead of an enemy summoner
        for p in self.players:
            if p["alive"] and p["seat"] != self.seat and p["space"] < 32 and 0 < (sp - p["space"]) % 32 in (6, 7, 8):
                return 2.1
        return -1.0

    def s_move(self, a) -> float:
        _, who, dest, gate = a
        board = self.board
        seat = self.seat
        summoner = who == "P" or who[0] == "B"
        pid = f"P{seat}" if who[0] in "PB" else who
        start = self.space(pid)
        s = 0.0
        if summoner:
            if dest == board.chamber:
                s += 100.0
            elif dest >= 32:
                s += 40.0 + 5 * ((dest - 32) % 3)
            elif start < 32 and dest < 32 and dest != start:
                temple = self.me["temple"]
                if 0 < (temple - start) % 32 <= (dest - start) % 32 and gate != -2:
                    s += 6.0
        else:
            if dest == board.chamber:
                s += 15.0
            elif dest >= 32:
                s += 4.0
        if gate >= 0 and not self.v["gates"][gate]:
            s += 5.0 if summoner else -20.0
        # combat on arrival
        enemies = [f"P{p['seat']}" for p in self.players if p["alive"] and p["seat"] != seat and p["space"] == dest]
        enemies += [f"S{m['uid']}" for m in self.v["summons"] if m["owner"] != seat and m["space"] == dest]
        if enemies:
            best = max(self.fight_value(pid if who[0] != "B" else f"S{who[1:]}", t) for t in enemies)
            s += best
        if dest in self.traps:
            s -= 3.0 if summoner else 1.0
        kind = board.kinds[dest]
        if summoner and kind == "focus" and self.me["hand_size"] < 5:
            s += 2.5
        if kind == "portal":
            s += 1.0
            k = board.gate_of_portal.get(dest)
            if summoner and k is not None and (self.v["gates"][k] or self.me["mana"] >= self.gate_cost):
                s += 8.0
        if who[0] == "B":
            s -= 1.0
        if not summoner and not enemies:
            # summons drift toward the nearest enemy summoner
            d_old = self.nearest_enemy(start)
            d_new = self.nearest_enemy(dest)
            s += 0.3 * (d_old - d_new)
        return s

    def nearest_enemy(self, sp: int) -> int:
        dist = self.board.distances(sum(1 << k for k, o in enumerate(self.v["gates"]) if o))[sp]
        return min((dist[p["space"]] for p in self.players if p["alive"] and p["seat"] != self.seat), default=0)

    def fight_value(self, att: str, target: str) -> float:
        me = self.piece(att)
        tgt = self.piece(target)
        if att[0] == "S":
            dmg = me["attack"]
        elif target[0] == "S":
            dmg = me["life"]
        else:
            dmg = 2
        if target[0] == "S":
            back = tgt["attack"]
        elif att[0] == "S":
            back = tgt["life"]
        else:
            back = 2
        gain = self.value(target) * min(dmg, tgt["life"]) * 0.5
        loss = (self.value(att) if att[0] == "S" else 4.0) * min(back, me["life"]) * 0.5
        if att[0] == "P" and back >= me["life"]:
            loss += 50
        return (gain - loss) * 0.5 + (6.0 if tgt["space"] == self.board.chamber and target[0] == "P" else 0.0)

    # -- prompts -------------------------------------------------------------------
    def s_victim(self, a) -> float:
        return 1.0 if a[1][0] == "S" else 0.0

    def s_attack(self, a) -> float:
        return self.fight_value(a[1], a[2])

    def s_defend(self, a) -> float:
        m = self.summons[a[1]]
        return 1.0 if m["life"] >= 2 else -1.0

    def s_no_defend(self, a) -> float:
        return 0.0

    def s_boost(self, a) -> float:
        return 1.0

    def s_fight(self, a) -> float:
        return 0.0

    def s_jump(self, a) -> float:
        board = self.board
        p = self.me["space"]
        if p not in board.portals:
            return 1.0
        nxt = board.portals[(board.portals.index(p) + 1) % len(board.portals)]
        skips_temple = 0 < (self.me["temple"] - p) % 32 < (nxt - p) % 32
        max_mana = self.me["mana"] + self.me["used"]
        if skips_temple and max_mana < self.gate_cost + 2:
            return -1.0
        return 1.0

    def s_stay_portal(self, a) -> float:
        return 0.0

    def s_discard_draw(self, a) -> float:
        c = self.cards[a[1]]
        return 1.0 + (1.0 if c.type == "trap" else 0.0) + 0.1 * c.cost

    def s_keep(self, a) -> float:
        return 0.0

    def s_temple(self, a) -> float:
        return 0.0

    def s_stay(self, a) -> float:
        return 0.0
