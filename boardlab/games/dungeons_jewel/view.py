"""What a seat may know: views, determinization, labels and tags.

A dungeon token's face is known to the seats that drew or looked at it, and to
everyone once it is face up (walls always are; a drawer may reveal a token).
The order of the dungeon-token pile and of the treasure deck is hidden; loot
is public ("The player must reveal what they got").
"""

from __future__ import annotations

from typing import Any

from boardlab.engine import Rng

from .board import SIDE_NAMES, SIDES
from .rules import FACE_UP, die_name


class DungeonView:
    """Mixin of :class:`~.game.DungeonState`: what each seat sees of the rules' state."""

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
            up = bool(m & FACE_UP)
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

    def _determinize(self, seat: int, rng: Rng) -> None:
        """Re-deal every token face ``seat`` has not seen, and shuffle both piles.

        Face-down tokens are never walls (walls are placed face up), so unseen
        board tokens get non-wall faces from the pool of unseen tokens.
        """
        g = self.game
        bit = 1 << seat
        mask = bit | FACE_UP
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
    def dragon_need(self) -> str:
        """What beating the dragon needs, in words."""
        g = self.game
        return (f"two {die_name(g.opt_die, True)} + your attack power {self.power[self.seat]}"
                f" must reach {g.opt_dragon}")

    def survive_need(self, cell: int) -> str:
        """What a roll in ``cell`` must reach, in words (``a six-sided die: 4 or more``)."""
        return survive_need(self.game, self.game.token_type[self.tokens[cell]], self.power[self.seat])

    def describe(self, action: tuple) -> str:
        g = self.game
        kind = action[0]
        if kind == "move":
            c = action[1]
            label = g.board.labels[c]
            if c == g.board.centre and self.jewel is None:
                return f"move to {label} (the dragon: {self.dragon_need()})"
            if c in g.board.starts and g.board.starts.index(c) == self.seat and self.jewel == self.seat:
                return f"move to {label} (home with the jewel)"
            return f"move to {label}"
        if kind == "attack":
            return f"attack {g.seat_name(action[1])}"
        if kind == "dragon":
            return f"fight the dragon ({self.dragon_need()})"
        if kind == "place":
            if action[1] == "secret":
                return "place the token face down (secret: the others do not learn what is in the room)"
            return "place the token face up (everyone sees what is in the room)"
        if kind == "wall":
            return "wall on no side" if action[1] == "none" else f"turn the wall to the {SIDE_NAMES[action[1]]} side"
        if kind == "use":
            return f"use {g.item_name.get(action[1], action[1])}"
        if kind == "roll":
            return f"roll to survive ({self.survive_need(self.stack[-1].data[0])})" if self.stack else "roll to survive"
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


def survive_need(game, ttype: str, power: int) -> str:
    """What surviving a token of type ``ttype`` needs with ``power`` attack power, in words."""
    die = die_name(game.opt_die)
    if ttype == "monster":
        return f"{die} + your attack power {power} must reach {game.opt_monster}"
    return f"{die}: {game.opt_hazard} or more"
