"""What a seat may know: views, determinization, labels and playtest hooks.

A dungeon token's face is known to the seats that drew or looked at it, and to
everyone once it is face up (walls always are; a drawer may reveal a token).
The order of the dungeon-token pile and of the treasure deck is hidden; loot
is public ("The player must reveal what they got").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .board import SIDES

if TYPE_CHECKING:  # pragma: no cover
    from boardlab.engine import Rng

_FACE_UP = 1 << 8  # same as rules.FACE_UP (kept here to avoid a circular import)


class Observation:
    """Mixin of :class:`~.rules.DungeonState` with everything that is not a rule."""

    __slots__ = ()

    # -- views ---------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        g = self.game
        tokens = []
        known = self.known
        for c, kind in enumerate(self.tokens):
            if kind is None:
                continue
            m = known[c]
            up = bool(m & _FACE_UP)
            face = kind if up or (seat is not None and m >> seat & 1) else None
            tokens.append([c, face, up])
        prompt = None
        if self.stack:
            p = self.stack[-1]
            prompt = {"kind": p.kind, "seat": p.seat}
            if p.kind == "survive":
                prompt["cell"], prompt["loot"] = p.data[0], bool(p.data[1])
            elif p.kind == "take":
                prompt["from"] = p.data
            else:
                prompt["cell"] = p.data
        return {
            "size": g.board.size,
            "centre": g.board.centre,
            "starts": list(g.board.starts),
            "first": self.first,
            "turn_seat": self.seat,
            "positions": list(self.pos),
            "health": list(self.health),
            "power": list(self.power),
            "items": [list(i) for i in self.items],
            "jewel": self.jewel,
            "jewel_exit": self.exit,  # the new carrier who may still step diagonally off the centre
            "winner": self.winner,
            "tokens": tokens,
            "walls": [[c, SIDES[d]] for c, d in sorted(self.facing.items())],
            "blocked": list(self.walls),
            "token_pile": len(self.pile),
            "treasure_deck": len(self.deck),
            "pending": prompt,
        }

    def _determinize(self, seat: int, rng: "Rng") -> None:
        """Re-deal every token face ``seat`` has not seen, and shuffle both piles.

        Face-down tokens are never walls (walls are placed face up), so unseen
        board tokens get non-wall faces from the pool of unseen tokens.
        """
        g = self.game
        bit = 1 << seat
        mask = bit | _FACE_UP
        unseen = [c for c, k in enumerate(self.tokens) if k is not None and not self.known[c] & mask]
        pool = self.pile + [self.tokens[c] for c in unseen]
        walls = [k for k in pool if g.token_type[k] == "wall"]
        others = [k for k in pool if g.token_type[k] != "wall"]
        rng.shuffle(others)
        for c, k in zip(unseen, others):
            self.tokens[c] = k
        rest = others[len(unseen):] + walls
        rng.shuffle(rest)
        self.pile = rest
        rng.shuffle(self.deck)

    # -- labels --------------------------------------------------------------
    def describe(self, action: tuple) -> str:
        g = self.game
        kind = action[0]
        if kind == "move":
            c = action[1]
            label = g.board.labels[c]
            if c == g.board.centre and self.jewel is None:
                return f"move to {label} (the dragon)"
            if c in g.board.starts and g.board.starts.index(c) == self.seat and self.jewel == self.seat:
                return f"move to {label} (home with the jewel)"
            return f"move to {label}"
        if kind == "attack":
            return f"attack {g.seat_name(action[1])}"
        if kind == "dragon":
            return "fight the dragon"
        if kind == "place":
            return "place the token face down (secret)" if action[1] == "secret" else "place the token face up"
        if kind == "wall":
            return "wall on no side" if action[1] == "none" else f"turn the wall to the {action[1]} side"
        if kind == "use":
            return f"use {g.item_name.get(action[1], action[1])}"
        if kind == "roll":
            return "roll to survive"
        if kind == "take":
            return f"take {g.item_name.get(action[1], action[1])}"
        return " ".join(str(a) for a in action)

    def action_tags(self, action: tuple) -> tuple[str, ...]:
        kind = action[0]
        if kind == "move":
            return ("rule:move",)
        if kind == "attack":
            return ("rule:attack",)
        if kind == "dragon":
            return ("rule:dragon",)
        if kind == "place":
            return ("rule:secret_token",) if action[1] == "secret" else ("rule:reveal_token",)
        if kind == "wall":
            return ("token:wall",)
        if kind == "use":
            return ("rule:use_item", f"item:{action[1]}")
        if kind == "roll":
            return ("rule:roll",)
        if kind == "take":
            return ("rule:steal", f"item:{action[1]}")
        return ()

    # -- playtest hooks ------------------------------------------------------
    def metrics(self) -> dict[str, list[int]]:
        g = self.game
        n = g.players
        st = self.stats
        return {k: st[i * n:(i + 1) * n] for i, k in enumerate(g.stat_keys)}

    def _goal_distance(self, seat: int) -> int:
        """Steps (ignoring walls) to the seat's next goal: home with the jewel, else the centre."""
        b = self.game.board
        c = self.pos[seat]
        target = b.starts[seat] if self.jewel == seat else b.centre
        if self.jewel is not None and self.jewel != seat:
            target = self.pos[self.jewel]
        (x, y), (tx, ty) = b.xy(c), b.xy(target)
        return abs(x - tx) + abs(y - ty)

    def features(self, seat: int) -> dict[str, float]:
        g = self.game
        size = g.board.size
        mine = self.jewel == seat
        bit = 1 << seat
        chance = g.dragon_chance[min(int(self.power[seat]), len(g.dragon_chance) - 1)]
        closeness = 1.0 - self._goal_distance(seat) / (2 * size)
        seen = sum(1 for c, k in enumerate(self.tokens) if k is not None and self.known[c] & (bit | _FACE_UP))
        return {
            "health": float(self.health[seat]),
            "power": float(self.power[seat]),
            "items": float(len(self.items[seat])),
            "has_jewel": 1.0 if mine else 0.0,
            "opponent_has_jewel": 1.0 if self.jewel is not None and not mine else 0.0,
            "goal_closeness": closeness,
            "explored": seen / g.board.cells,
            # the chance to beat the dragon now (two dice + power): what more attack power is worth
            "dragon_chance": chance,
            # ... and how near that fight is, while the dragon still holds the jewel
            "dragon_reach": chance * closeness if self.jewel is None else 0.0,
        }

    def evaluate(self, seat: int) -> float:
        if self.winner is not None:
            return 1.0 if self.winner == seat else 0.0
        f = self.features(seat)
        value = 0.2 + 0.04 * min(f["power"], 6) + 0.03 * f["health"] + 0.1 * f["goal_closeness"]
        if f["has_jewel"]:
            value = 0.55 + 0.4 * f["goal_closeness"]
        elif f["opponent_has_jewel"]:
            value *= 0.6
        return max(0.0, min(1.0, value))
