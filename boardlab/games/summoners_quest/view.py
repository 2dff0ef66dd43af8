"""Views, determinization, action labels and tags of Summoner's Quest.

A mixin of the composed state (``game.py``).  Everything here reads the state;
nothing changes the game (determinization changes only a search's copy).
"""

from __future__ import annotations

from typing import Any


def state_view(st: Any, seat: int | None) -> dict[str, Any]:
    cards = st.game.cards
    n = st.game.players
    players = []
    for s in range(n):
        players.append({
            "seat": s, "alive": st.alive[s], "space": st.pos[s], "life": st.life[s],
            "mana": st.mana[s], "used": st.used[s], "statuses": [list(x) for x in st.status[s]],
            "equipment": list(st.equip[s]), "hand_size": len(st.hands[s]), "hold": st.hold[s],
            "temple": st.start[s],
        })
    summons = [{
        "uid": u, "card": m.card, "name": cards[m.card].name, "owner": m.owner, "space": m.pos,
        "attack": cards[m.card].attack, "life": cards[m.card].life - m.damage, "damage": m.damage,
        "status": m.status, "status_turns": m.status_turns, "equipment": list(m.equip),
    } for u, m in sorted(st.summons.items())]
    traps = [{"space": sp, "owner": o, "card": c if seat == o else None} for sp, (c, o) in sorted(st.traps.items())]
    prompt = st.stack[-1] if st.stack else None
    return {
        "phase": st.phase, "active": st.active, "order": list(st.order), "dice": list(st.dice),
        "gates": [bool(st.gates >> k & 1) for k in range(4)], "players": players, "summons": summons,
        "traps": traps, "deck": len(st.deck.draw_pile), "discard": list(st.deck.discard_pile),
        "hand": list(st.hands[seat]) if seat is not None else None,
        "combat": {"attacker": st.combat["att"], "defender": st.combat["def"], "space": st.combat["space"]} if st.combat else None,
        "landing": st.flow["space"] if st.flow else None,
        "prompt_data": _public_prompt(prompt) if prompt is not None else None,
        "used_equipment": st.used_equip, "used_abilities": list(st.used_abilities),
        "winner": st.winner, "hold_turns": st.game.option_values["hold_turns"],
    }


def _public_prompt(pr) -> dict[str, Any]:
    d = pr.data if isinstance(pr.data, dict) else {}
    return {"seat": pr.seat, "kind": pr.kind, **{k: v for k, v in d.items() if k in ("space", "movers", "attacker", "defender")}}


def fight_words(enemies: list[str]) -> str:
    """What a move onto a space holding enemy pieces starts, for its label (the fresh person's trial,
    issue 44: "move summoner to W1" silently started a fight): ``" (attacks Player 4)"``."""
    if not enemies:
        return ""
    if len(enemies) == 1:
        return f" (attacks {enemies[0]})"
    return f" (attacks {', '.join(enemies[:-1])} or {enemies[-1]}: you choose which)"


def describe_action(st: Any, a: tuple) -> str:
    cards = st.game.cards
    board = st.game.board
    kind = a[0]

    def tgt(t: Any) -> str:
        return board.names[t] if isinstance(t, int) else st.label(t)

    if kind == "temple":
        return f"start at {board.names[a[1]]}"
    if kind == "move":
        who = "summoner" if a[1] == "P" else st.label(a[1]) if a[1][0] == "S" else f"summoner with {st.label('S' + a[1][1:])} (half roll)"
        how = " backwards" if a[3] == -2 else f" through gate {a[3] + 1}" + ("" if st.gates >> a[3] & 1 else " (open it)") if a[3] >= 0 else ""
        fight = fight_words([st.label(p) for p in st.pieces_at(a[2]) if st.owner(p) != st.active])
        return f"move {who}{how} to {board.names[a[2]]}{fight}"
    if kind in ("summon", "cast", "equip", "use", "trap", "unequip"):
        verb = {"summon": "summon", "cast": "cast", "equip": "equip", "use": "use", "trap": "set trap", "unequip": "discard"}[kind]
        rest = f" on {tgt(a[2])}" if len(a) > 2 else ""
        return f"{verb} {cards[a[1]].name}{rest}"
    if kind == "open":
        return f"open gate {a[1] + 1} (G{a[1] + 1}, {st.game.option_values['gate_cost']} mana)"
    if kind == "ability":
        m = st.summons.get(a[1])
        name = cards[m.card].ability.name if m else "ability"
        return f"{name} on {tgt(a[2])}"
    if kind == "victim":
        return f"{st.label(a[1])} takes the trap"
    if kind == "attack":
        return f"{st.label(a[1])} attacks {st.label(a[2])}"
    if kind == "defend":
        return f"defend with {st.label('S' + str(a[1]))}"
    if kind == "boost":
        m = st.summons.get(a[1])
        return f"use {cards[m.card].ability.name}" if m else "use ability"
    if kind == "discard_draw":
        return f"discard {cards[a[1]].name} and draw"
    return {"roll": "roll 2d6", "end": "end turn", "stay": "no move possible", "no_defend": "do not defend",
            "fight": "roll the combat dice", "jump": "jump to the next portal", "stay_portal": "stay on the portal",
            "keep": "keep your hand (no draw)"}.get(kind, " ".join(map(str, a)))


class SummonersQuestView:
    """The seat views, determinization, action labels and tags (a mixin of the composed state)."""

    __slots__ = ()

    def _view(self, seat: int | None) -> dict[str, Any]:
        return state_view(self, seat)

    def _determinize(self, seat: int, rng) -> None:
        cards = self.game.cards
        others = [s for s in range(self.game.players) if s != seat]
        hidden_traps = [sp for sp in sorted(self.traps) if self.traps[sp][1] != seat]
        pool = list(self.deck.draw_pile)
        for s in others:
            pool.extend(self.hands[s])
        pool.extend(self.traps[sp][0] for sp in hidden_traps)
        rng.shuffle(pool)
        traps = [c for c in pool if cards[c].type == "trap"][: len(hidden_traps)]
        for sp, c in zip(hidden_traps, traps):
            self.traps[sp] = [c, self.traps[sp][1]]
        rest = [c for c in pool if c not in traps]
        for s in others:
            n = len(self.hands[s])
            self.hands[s] = rest[:n]
            rest = rest[n:]
        self.deck.draw_pile = rest

    def describe(self, action: tuple) -> str:
        return describe_action(self, action)

    def action_tags(self, action: tuple) -> tuple[str, ...]:
        kind = action[0]
        if kind in ("summon", "cast", "equip", "use", "trap", "unequip"):
            return (f"card:{action[1]}", f"rule:{kind}")
        if kind == "open":
            return ("rule:gate",)
        if kind == "ability":
            m = self.summons.get(action[1])
            return (f"card:{m.card}", "rule:ability") if m else ("rule:ability",)
        if kind == "move":
            tags = ["rule:move", "rule:move_both" if action[1][0] == "B" else "rule:move_summon" if action[1][0] == "S" else "rule:move_summoner"]
            if action[3] == -2:
                tags.append("rule:move_backwards")
            if action[3] >= 0:
                tags.append("rule:gate")
            return tuple(tags)
        return (f"rule:{kind}",)
