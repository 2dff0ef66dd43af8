"""What a seat sees of a Blackfire state, its determinization, and the labels and tags of actions.

A mixin of :class:`~boardlab.games.blackfire.game.BlackfireState` (over the
rules of :mod:`.rules`): views hold only public facts (face-down tokens appear
as squares, never kinds) plus the viewing seat's own secret token squares
during set-up.
"""

from __future__ import annotations

from typing import Any

from boardlab.engine.rng import Rng
from boardlab.engine.state import Action

from .pieces import DEFENSIVE, KINDS, OFFENSIVE, SIDES, UNIT_NAMES, WARRIOR


def landing_words(foes: list[tuple[str, bool, bool]], carrier: bool) -> str:
    """What a move onto enemy units does, for its label (the fresh person's trial, issue 44: a move
    onto a unit kills it, and nothing said so): ``" (attacks: kills the green archer)"``.

    ``foes`` holds each enemy unit on the square as (name, defensive warrior, invulnerable); ``carrier``
    is whether the mover holds the Orb (only the Orb carrier gets through a defensive warrior)."""
    if not foes:
        return ""
    words = []
    for name, guarded, invulnerable in foes:
        if guarded and not carrier:
            words.append(f"the defensive {name} blocks it and your unit stays")
        elif invulnerable:
            words.append(f"the {name} is invulnerable: the attack is absorbed and your unit stays")
        else:
            words.append(f"kills the {name}")
    return f" (attacks: {'; '.join(words)})"


class BlackfireView:
    """Views, determinization, action labels and tags of a Blackfire state."""

    __slots__ = ()

    def _view(self, seat: int | None) -> dict[str, Any]:
        castle = self.game.castle
        xy = castle.xy
        units = []
        for i, v in enumerate(self.units):
            units.append({
                "id": i, "name": UNIT_NAMES[i], "side": SIDES[v.side], "kind": KINDS[v.kind],
                "cell": list(xy(v.cell)) if v.cell is not None else None,
                "stance": v.stance if v.kind == WARRIOR else None,
                "slow": v.slow_at is not None and v.slow_at >= self.turn,
                "slowed_now": v.slow_at == self.turn,
                "invulnerable": (v.inv_until - self.turn + 1) // 2 if v.inv_until is not None else 0,
                "respawn": v.respawn,
                "moved": i in self.moved,
                "orb": self.orb_holder == i,
            })
        orb = None
        if self.phase == "play":
            orb = {"cell": list(xy(self.orb_cell)) if self.orb_cell is not None else None, "holder": self.orb_holder}
        remaining = dict(self.game.token_counts)
        for k, n in self.revealed.items():
            remaining[k] -= n
        top = self.stack[-1] if self.stack else None
        return {
            "phase": self.phase,
            "colours": list(self.roles()) if self.side_of_seat else None,
            "side": SIDES[self.side] if self.phase == "play" else None,
            "red_start": self.red_start + 1 if self.red_start is not None else None,
            "exit": self.exit + 1 if self.exit is not None else None,
            "units": units,
            "orb": orb,
            "tokens": [list(xy(c)) for c in sorted(self.tokens)],
            "unplaced_tokens": len(self.bag),
            "placements": [len(p) for p in self.placing],
            "my_placements": [list(xy(c)) for c in self.placing[seat]] if seat is not None else [],
            "hidden_kinds": remaining,
            "revealed": dict(self.revealed),
            "moved": list(self.moved),
            "stance_open": self.phase == "play" and not self.moved and not self.stance_done,
            "prompt": {"kind": top.kind, **top.data} if top is not None else None,
            "winner": SIDES[self.winner] if self.winner is not None else None,
        }

    def describe(self, action: Action) -> str:
        kind = action[0]
        label = self.game.castle.label
        if kind == "place":
            return f"place a face-down token on {label(action[1])}"
        if kind == "move":
            mover = self.units[action[1]]
            foes = [(UNIT_NAMES[i], v.kind == WARRIOR and v.stance == DEFENSIVE, v.inv_until is not None)
                    for i, v in enumerate(self.units) if v.cell == action[2] and v.side != mover.side]
            return f"{UNIT_NAMES[action[1]]} to {label(action[2])}" + landing_words(foes, self.orb_holder == action[1])
        if kind == "stance":
            v = self.units[action[1]]
            return f"{UNIT_NAMES[action[1]]}: switch to {DEFENSIVE if v.stance == OFFENSIVE else OFFENSIVE} stance"
        if kind == "take":
            return f"{UNIT_NAMES[action[1]]} takes the Orb"
        if kind == "revive":
            return f"revive the {UNIT_NAMES[action[1]]} on {label(action[2])}"
        if kind == "shoot":
            return f"shoot the {UNIT_NAMES[action[1]]}"
        if kind == "displace":
            return f"displace the {UNIT_NAMES[action[1]]} to {label(action[2])}"
        if kind == "jump":
            return f"teleport to {label(action[1])}"
        return {"end": "end the turn", "stop": "stop (no more Speed moves)", "stay": "do not teleport",
                "pass": "nothing to do"}.get(kind, " ".join(map(str, action)))

    def action_tags(self, action: Action) -> tuple[str, ...]:
        kind = action[0]
        if kind == "move":
            tags = []
            dest = action[2]
            if dest in self.tokens:
                tags.append("rule:token-pickup")
            side = self.units[action[1]].side
            if any(v.cell == dest and v.side != side for v in self.units):
                tags.append("attack:landing")
            if self.stack:
                tags.append("token:speed")
            return tuple(tags)
        top = self.stack[-1].kind if self.stack else None
        if kind == "revive":
            return ("token:revive",) if top == "revive-token" else ("rule:revive",)
        return {
            "stance": ("rule:stance",), "take": ("rule:orb-pickup",), "shoot": ("attack:archer",),
            "displace": ("token:displace",), "jump": ("token:teleport",), "stay": ("token:teleport",),
            "place": ("rule:token-placement",),
        }.get(kind, ())

    # -- hidden information ------------------------------------------------------
    def _determinize(self, seat: int, rng: Rng) -> None:
        # Nobody knows a face-down token's kind, so every unrevealed token is resampled.
        hidden = sorted(self.tokens)
        kinds = [self.tokens[c] for c in hidden] + self.bag
        rng.shuffle(kinds)
        for c, k in zip(hidden, kinds):
            self.tokens[c] = k
        self.bag = kinds[len(hidden):]
        if self.phase == "place":  # the other player's secret placements
            other = 1 - seat
            if self.placing[other]:
                pool = list(self.game.castle.placeable)
                picks = []
                for _ in range(len(self.placing[other])):
                    picks.append(pool.pop(rng.below(len(pool))))
                self.placing[other] = picks
