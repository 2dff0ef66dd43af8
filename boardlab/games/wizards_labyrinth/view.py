"""What each seat may know (views, determinization) and the labels and tags of actions.

Hidden information:

* room tiles lie face down: nobody knows a room's values before it is flipped
  (the grid is built from a shuffled pile); the wizard knows where the key
  tiles are, the heroes do not;
* the wizard knows every token; the heroes see face-down tokens as unknown;
* the wizard's hand and both draw piles are hidden (hand sizes are public);
* the heroes' loot hands are open among the heroes (ledger) and hidden from
  the wizard;
* each hero's movement choice is known only to that hero until the reveal.
"""

from __future__ import annotations

from typing import Any

from boardlab.engine import Rng

from .board import DIRECTION_NAMES, cell_name, stack_position, token_name

WIZARD = 0


def card_gist(game: Any, name: str) -> str:
    """What a card does, for its action label (issue 44, the fresh person's trial: the label named the card
    only): ``" (one mana: place a level one monster and one blank)"``."""
    c = game.content.wizard_cards.get(name) or game.content.loot_cards.get(name)
    if c is None or not c.text:
        return ""
    import re

    # numbers in words: a bare number in a label is read as a choice's number (or a mana wheel space)
    # by the terminal's typed choices
    words = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
    spell = lambda m: words[int(m.group(0))] if int(m.group(0)) <= 10 else m.group(0)  # noqa: E731
    text = re.sub(r"\+(\d+)\b", lambda m: "plus " + m.group(1), c.text.strip().rstrip("."))
    text = re.sub(r"\b\d+\b", spell, text)
    text = re.sub(r"\. (\w)", lambda m: "; " + m.group(1).lower(), text)
    cost = re.sub(r"\b\d+\b", spell, f"{c.cost} mana: ") if hasattr(c, "cost") else ""
    return f" ({cost}{text[:1].lower()}{text[1:]})"


class LabyrinthView:
    __slots__ = ()

    # ------------------------------------------------------------------ view
    def tile_view(self, c: int, seat: int | None) -> dict[str, Any]:
        t = self.tiles[c]
        if self.removed[c]:
            return {"state": "removed"}
        if t in ("tower", "start"):
            return {"state": "up", "kind": t}
        if not self.flipped[c]:
            if seat == WIZARD and t[0] == "k":
                return {"state": "down", "kind": "key"}
            return {"state": "down"}
        draw, mana = self.game.content.keys[int(t[1:])] if t[0] == "k" else self.game.content.rooms[int(t[1:])]
        return {"state": "up", "kind": "key" if t[0] == "k" else "room", "draw": draw, "mana": mana,
                "unclaimed": c in self.unclaimed}

    def _view(self, seat: int | None) -> dict[str, Any]:
        g = self.game
        is_hero = seat is not None and seat != WIZARD
        prompt = None
        if self.stack:
            p = self.stack[-1]
            prompt = {"kind": p.kind, "seat": p.seat}
            if p.kind in ("loot",) and is_hero:
                prompt["cards"] = list(p.data["cards"])
                prompt["keep"] = p.data["keep"]
            if p.kind == "keep" and seat == WIZARD:
                prompt["cards"] = list(p.data["cards"])
            if p.kind in ("place", "spell_target", "whirl_target", "whirl_push"):
                prompt["card"] = p.data.get("card")
            if p.kind == "place":
                # how many remain, never which (the card's tokens are public, so the remainder would name each placed one)
                prompt["tokens_left"] = len(p.data["tokens"])
                if seat == WIZARD:
                    prompt["tokens"] = sorted(p.data["tokens"])
            if p.kind in ("move", "retreat", "switch_token", "whirl_push"):
                prompt["hero"] = p.data.get("seat") if p.kind != "whirl_push" else p.data["seats"][0]
        heroes = []
        for h in self.heroes:
            heroes.append({
                "seat": h.seat, "pos": h.pos, "hp": h.hp, "keys": h.keys, "alive": h.alive,
                # the tile it came through this turn, where it retreats after a lost fight: everyone saw it move, and the
                # log says it ("via"), so the board says it too (issue 46: found by received_leaks)
                "prev": h.prev,
                "equipment": list(h.equipment),
                "hand": list(h.hand) if is_hero else None, "hand_size": len(h.hand),
                "frozen": h.frozen, "stuck": h.stuck, "sprint": h.sprint, "moved": h.moved,
                "chosen": h.seat in self.pending,
                "move": list(self.pending[h.seat]) if seat == h.seat and h.seat in self.pending else None,
            })
        return {
            "phase": self.phase,
            "size": g.size,
            "tower": self.tower,
            "entrance": self.entrance,
            "entrance_cell": self.entrance_cell(),
            "start": self.start,
            "tiles": [self.tile_view(c, seat) for c in range(len(self.tiles))],
            "tokens": [[t.face_for(seat) for t in toks] for toks in self.tokens],
            "heroes": heroes,
            "wizard": {
                "mana": self.mana, "mana_left": self.mana_left, "mana_max": g.option_values["mana_max"],
                "hand": sorted(self.whand) if seat == WIZARD else None, "hand_size": len(self.whand),
                "deck": len(self.wdeck.draw_pile), "discard": list(self.wdeck.discard_pile), "removed": list(self.wdeck.removed),
            },
            "loot": {"deck": len(self.ldeck.draw_pile), "discard": list(self.ldeck.discard_pile)},
            "dropped": [[c, self.dropped_keys.get(c, 0), list(self.dropped_cards.get(c, []))]
                        for c in sorted(set(self.dropped_keys) | set(self.dropped_cards))],
            "keys_taken": self.keys_taken,
            "keys_needed": g.option_values["keys_needed"],
            "tower_open": self.tower_open(),
            "door_open": self.door_open,
            "rage": self.rage_active(),
            "prompt": prompt,
        }

    # --------------------------------------------------------- determinize
    def _determinize(self, seat: int, rng: Rng) -> None:
        cells = range(len(self.tiles))
        down = [c for c in cells if not self.flipped[c] and not self.removed[c] and self.tiles[c][0] in "rk"]
        if seat == WIZARD:
            spots = [c for c in down if self.tiles[c][0] == "r"]
            keys: dict[int, str] = {}
        else:
            spots = down
            key_tiles = [self.tiles[c] for c in down if self.tiles[c][0] == "k"]
            chosen = list(spots)
            rng.shuffle(chosen)
            keys = dict(zip(chosen, key_tiles))
        pool = [self.tiles[c] for c in spots if self.tiles[c][0] == "r"] + self.tile_pool
        rng.shuffle(pool)
        for c in spots:
            self.tiles[c] = keys[c] if c in keys else pool.pop()
        self.tile_pool = pool
        p = self.stack[-1] if self.stack else None
        if seat != WIZARD:
            inside = self.tokens[self.tower]  # the tower holds only monsters and blanks: resample apart
            fresh: list = []  # tokens placed from the card being placed: they and the rest come from that card
            if p is not None and p.kind == "place":
                counts: dict[int, int] = {}
                for c in p.data.get("placed", []):
                    counts[c] = counts.get(c, 0) + 1
                fresh = [t for c, n in counts.items() for t in self.tokens[c][-n:] if not t.face_up]
                kinds = [t.kind for t in fresh] + list(p.data["tokens"])
                rng.shuffle(kinds)
                for t in fresh:
                    t.kind = kinds.pop()
                p.data["tokens"] = kinds
            fresh_ids = {id(t) for t in fresh}
            for group in ([t for toks in self.tokens if toks is not inside for t in toks if id(t) not in fresh_ids],
                          [t for t in inside if id(t) not in fresh_ids]):
                unknown = [t for t in group if not t.face_up]
                kinds = [t.kind for t in unknown]
                rng.shuffle(kinds)
                for t, k in zip(unknown, kinds):
                    t.kind = k
            opening = p.data["cards"] if p is not None and p.kind == "keep" else []
            wpool = self.whand + self.wdeck.draw_pile + opening
            rng.shuffle(wpool)
            n1, n2 = len(self.whand), len(opening)
            self.whand = sorted(wpool[:n1])
            if opening:
                p.data["cards"] = wpool[n1:n1 + n2]
            self.wdeck.draw_pile = wpool[n1 + n2:]
            self.ldeck.hidden_shuffle(rng)
        else:
            self.wdeck.hidden_shuffle(rng)
            offer = p.data["cards"] if p is not None and p.kind == "loot" else []
            cards = [c for h in self.heroes for c in h.hand] + offer + self.ldeck.draw_pile
            sizes = [len(h.hand) for h in self.heroes]
            # a hand holds only what the rules let it hold: equipment goes in front while its slot is free
            # (``receive``), so the wizard knows a hand has none of that. Dealt greedily from a shuffle,
            # retried when a hand comes out short; after 16 tries, an unconstrained deal (sizes are public)
            for attempt in range(17):
                lpool = list(cards)
                rng.shuffle(lpool)
                hands: list = []
                for h, size in zip(self.heroes, sizes):
                    hand: list = []
                    rest: list = []
                    for c in lpool:
                        (hand if len(hand) < size and (attempt == 16 or self._fits_hand(h, c)) else rest).append(c)
                    hands.append(hand)
                    lpool = rest
                if all(len(hand) == size for hand, size in zip(hands, sizes)):
                    break
            for h, hand in zip(self.heroes, hands):
                h.hand = hand
            if offer:
                p.data["cards"], lpool = lpool[:len(offer)], lpool[len(offer):]
            self.ldeck.draw_pile = lpool
        for s in list(self.pending):
            if s != seat:
                self.pending[s] = rng.choice(self.move_options(self.hero(s)))

    def _fits_hand(self, h: Any, name: str) -> bool:
        """Can ``name`` be in hero ``h``'s hand: not equipment whose slot in front is free (see ``receive``)?"""
        cards = self.game.content.loot_cards
        card = cards[name]
        if card.type != "equipment":
            return True
        limit = {"sword": 2, "boots": 1}.get(card.slot)
        if not self.game.option_values["equipment_limits"] or limit is None:
            return False
        return sum(1 for e in h.equipment if cards[e].slot == card.slot) >= limit

    # ------------------------------------------------------------- labels
    def _stack_words(self, c: int, i: int) -> str:
        """Token ``i`` on cell ``c`` in words, with only what every seat knows (face up or face down)."""
        toks = self.tokens[c]
        if i >= len(toks):
            return f"token {i + 1} on {cell_name(self.game, c)}"
        return stack_position(i, len(toks), cell_name(self.game, c), toks[i].face_for(None))

    def describe(self, action: tuple) -> str:
        k = action[0]
        name = lambda c: cell_name(self.game, c)  # noqa: E731
        labels = {
            "tower": lambda: f"raise the tower at {name(action[1])}",
            "entrance": lambda: f"tower entrance faces {DIRECTION_NAMES[action[1]]}",
            "key": lambda: f"hide a key tile at {name(action[1])}",
            "keep": lambda: f"keep {action[1]}" + card_gist(self.game, action[1]),
            "remove": lambda: f"rage: remove {name(action[1])}",
            "play": lambda: f"play {action[1]}" + card_gist(self.game, action[1]),
            "end": lambda: "end the turn",
            "place": lambda: f"place {token_name(action[2])} on {name(action[1])}",
            "target": lambda: f"target {name(action[1])}",
            "face": lambda: f"turn the entrance to face {DIRECTION_NAMES[action[1]]}",
            "hero": lambda: f"switch Hero {action[1]}",
            "token": lambda: f"with {self._stack_words(action[1], action[2])}",
            "push": lambda: f"blow the hero to {name(action[1])}",
            "move": lambda: f"move to {name(action[1])}",
            "move2": lambda: f"sprint via {name(action[1])} to {name(action[2])}",
            "stay": lambda: "stay",
            "use": lambda: f"use {action[1]}" + card_gist(self.game, action[1]),
            "give": lambda: f"give {action[2]} to Hero {action[1]}",
            "give_key": lambda: f"give a key to Hero {action[1]}",
            "boost": lambda: f"play {action[1]} in this fight",
            "pass": lambda: "no more bonuses",
            "take": lambda: f"card {action[1] + 1} to Hero {action[2]}",
            "retreat": lambda: f"retreat to {name(action[1])}",
            "discard": lambda: f"discard {action[1]}",
        }
        f = labels.get(k)
        return f() if f else " ".join(map(str, action))

    def action_tags(self, action: tuple) -> tuple[str, ...]:
        k = action[0]
        if k == "play":
            return ("card:" + action[1],)
        if k in ("use", "boost"):
            return ("loot:" + action[1],)
        if k == "remove":
            return ("rule:rage",)
        if k in ("give", "give_key"):
            return ("rule:trading",)
        if k == "move2":
            return ("loot:Sprint",)
        return ()
