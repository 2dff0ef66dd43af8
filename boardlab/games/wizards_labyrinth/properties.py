"""Rule properties of The Wizard's Labyrinth: what the seed's sentences make always true.

Each property is written from the seed's words (001, "The Rules (Final)", "Rules - Beta" and
"Rules - Alpha build") and the interpretation ledger in docs/rules/wizards-labyrinth.md, and
recomputes what it checks from the state's fields and the game's options and content: it never
calls the rules' own helpers (``placeable``, ``rage_removable``, ``reaches``, ``tower_open``,
``move_options`` ...) to check themselves.  Each names the concordance rows it checks
(``docs/rules/wizards-labyrinth.concordance.csv``); :mod:`boardlab.engine.properties` runs them
after every transition of the conformance suite, the fuzzer and ``scripts/properties.py``.
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations
from typing import Any

from boardlab.engine.properties import PropertySet

from .content import Content

PROPERTIES = PropertySet()

WIZARD = 0
#: "3 players (1 wizard + 2 heroes) - 5x5 grid. 4 players ... 6x6 grid. 5 players ... 7x7 grid."
SIZES = {3: 5, 4: 6, 5: 7}
HERO_PHASES = ("move", "combat", "loot")
#: Prompts the wizard answers while a card he played resolves (a spell may move or hurt heroes).
SPELL_PROMPTS = ("main", "spell_target", "place", "switch_hero", "switch_token", "whirl_target", "whirl_push", "gate")
_STEPS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


# ------------------------------------------------------------------ helpers (the seed's words, recomputed)
def _opt(s: Any) -> dict[str, Any]:
    return s.game.option_values


def _content(s: Any) -> Content:
    return s.game.content


def _n(s: Any) -> int:
    return SIZES[s.game.players]


def _nbrs(n: int, c: int) -> list[int]:
    x, y = c % n, c // n
    return [(y + dy) * n + x + dx for dx, dy in _STEPS.values() if 0 <= x + dx < n and 0 <= y + dy < n]


def _dist(n: int, a: int, b: int) -> int:
    return abs(a % n - b % n) + abs(a // n - b // n)


def _token_limit(s: Any) -> int:
    """ "a maximum number of tokens on a single tile equal to the total number of players in the game
    (wizard + heroes)" (every seat, ledger 48); alpha: "a maximum of 3" (option ``tile_token_limit``)."""
    return _opt(s)["tile_token_limit"] or s.game.players


def _living(s: Any) -> list[Any]:
    return [h for h in s.heroes if h.hp > 0]


def _keys_in(s: Any) -> bool:
    """ "When 2 of the 3 keys have been picked up by the heroes" (beta: all 3; option keys_needed)."""
    return s.keys_taken >= _opt(s)["keys_needed"]


def _entrance(s: Any) -> int | None:
    """The tile in front of the tower entrance (``None`` without one: alpha)."""
    if not s.entrance:
        return None
    n = _n(s)
    dx, dy = _STEPS[s.entrance]
    return s.tower + dy * n + dx


def _ring(s: Any) -> set[int]:
    """ "the last layer of tiles around the wizard tower": the 8 tiles around it."""
    n, t = _n(s), s.tower
    return {(t // n + dy) * n + t % n + dx for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy}


def _reach(s: Any, blocked: int | None = None) -> set[int]:
    """Tiles that can walk to the tower's door over remaining tiles (never through the tower)."""
    n = _n(s)
    goal = _entrance(s)
    if goal is None:
        goal = min(_ring(s))
    seen, todo = {goal}, [goal]
    while todo:
        c = todo.pop()
        for j in _nbrs(n, c):
            if j not in seen and not s.removed[j] and j != s.tower and j != blocked:
                seen.add(j)
                todo.append(j)
    return seen


def _must_reach(s: Any) -> set[int]:
    """ "can not remove tiles in such a way that a hero could not get to the wizard tower or a tile with
    keys (if a hero has died and dropped it/them)" (keys dropped in the tower need no road, ledger 28)."""
    return {h.pos for h in _living(s) if h.pos != s.tower} | {c for c, k in s.dropped_keys.items() if k and c != s.tower}


def _removable(s: Any) -> list[int]:
    """Tiles the raging wizard may remove, from the seed's sentence: not the ring, not the tower, no hero
    or dropped keys on it (ledger 28), and every hero and dropped key still reaches the tower."""
    ring, need = _ring(s), _must_reach(s)
    out = []
    for c in range(len(s.tiles)):
        if s.removed[c] or c == s.tower or c in ring or c in need:
            continue
        if need <= _reach(s, blocked=c):
            out.append(c)
    return out


def _placeable(s: Any, kind: str) -> list[int]:
    """ "Monsters, traps and blanks can be placed on any tile that does not have a player on it", at most
    the token limit, never a removed tile; the tower takes monsters and blanks once the keys are taken."""
    heroes = {h.pos for h in _living(s)}
    limit = _token_limit(s)
    return [c for c in range(len(s.tiles)) if not s.removed[c] and c not in heroes and len(s.tokens[c]) < limit
            and (c != s.tower or (kind != "T" and _keys_in(s)))]


def _tile_values(s: Any, c: int) -> tuple[int, int]:
    t = s.tiles[c]
    return _content(s).keys[int(t[1:])] if t[0] == "k" else _content(s).rooms[int(t[1:])]


def _loot_prompts(s: Any) -> list[str]:
    out: list[str] = []
    for p in s.stack:
        if p.kind == "loot":
            out += p.data["cards"]
    return out


def _top(s: Any) -> str | None:
    return s.stack[-1].kind if s.stack else None


def _turn_ended(before: Any, after: Any) -> bool:
    """The heroes' turn ended in this transition (the wizard's turn has begun, or the game is over)."""
    return before.phase in HERO_PHASES and after.phase in ("wizard", "over")


def _hero_turn_transition(before: Any, action: tuple) -> bool:
    """A transition of the heroes' turn (or the wizard's "end", which runs straight into it)."""
    return before.phase in HERO_PHASES or (before.phase == "wizard" and action == ("end",))


# ------------------------------------------------------------------ the board
@PROPERTIES.state("the grid's size follows the number of players", rows=("10.1", "180.1"))
def grid_size(s):
    n = _n(s)
    assert len(s.tiles) == n * n == len(s.tokens) == len(s.flipped) == len(s.removed), (s.game.players, len(s.tiles))


@PROPERTIES.state("one tower on a centre tile, never removed", rows=("15.1", "184.1", "98.3", "241.3"))
def one_tower(s):
    n = _n(s)
    lo, hi = (n - 1) // 2, n // 2
    centre = {y * n + x for x in (lo, hi) for y in (lo, hi)}
    assert s.tiles.count("tower") == 1 and s.tiles[s.tower] == "tower", s.tiles
    assert s.tower in centre, f"the tower stands on {s.tower}, not a centre tile {sorted(centre)}"
    assert not s.removed[s.tower] and s.flipped[s.tower]


@PROPERTIES.state("the tower entrance faces a side once chosen (none in alpha)", rows=("15.2", "184.2"))
def entrance_chosen(s):
    if not _opt(s)["tower_entrance"]:
        assert s.entrance == "", s.entrance
    elif s.phase != "setup":
        assert s.entrance in _STEPS, f"the entrance faces {s.entrance!r} after setup"


@PROPERTIES.state("three key tiles are hidden at setup, never on the start or the tower",
                  rows=("18.1", "186.1", "306.1"))
def three_key_tiles(s):
    keys = [c for c, t in enumerate(s.tiles) if t[0] == "k"]
    assert len(keys) <= 3, keys
    if s.phase != "setup":
        assert len(keys) == 3, f"{len(keys)} key tiles after setup"
    assert sorted(s.tiles[c] for c in keys) == [f"k{i}" for i in range(len(keys))], [s.tiles[c] for c in keys]
    assert s.tiles[s.start] == "start" and s.flipped[s.start]


@PROPERTIES.state("before play: the wheel at its start, heroes at full health on the start tile, rooms face down",
                  rows=("15.3", "30.1", "197.1", "306.1b", "306.3b", "312.2b"))
def setup_values(s):
    if s.phase != "setup":
        return
    o = _opt(s)
    assert s.mana == o["start_mana"], f"the wheel stands at {s.mana} during setup, not {o['start_mana']}"
    for h in s.heroes:
        assert h.hp == o["hero_hp"] and h.pos == s.start == 0, (h.seat, h.hp, h.pos)
    assert not any(s.tokens), "tokens on the board during setup"
    up = [c for c in range(len(s.tiles)) if s.flipped[c] and s.tiles[c] not in ("start", "tower")]
    assert not up, f"rooms face up during setup: {up}"


# ------------------------------------------------------------------ heroes
@PROPERTIES.state("hit points stay between 0 and the start value; a hero at 0 is dead", rows=("30.1", "71.1", "232.1"))
def hit_points(s):
    top = _opt(s)["hero_hp"]
    for h in s.heroes:
        assert 0 <= h.hp <= top, f"Hero {h.seat} has {h.hp} HP (most {top})"
        assert h.alive == (h.hp > 0), f"Hero {h.seat}: alive={h.alive} with {h.hp} HP"


@PROPERTIES.state("a dead hero holds nothing: his loot and keys lie where he died", rows=("71.1", "71.2", "232.2"))
def dead_hold_nothing(s):
    for h in s.heroes:
        if not h.alive:
            assert not (h.keys or h.hand or h.equipment), f"dead Hero {h.seat} holds {h.keys} keys, {h.hand}, {h.equipment}"
    for c in set(s.dropped_keys) | set(s.dropped_cards):
        assert not s.removed[c], f"dropped items on removed tile {c}"
        assert s.dropped_keys.get(c, 1) > 0 and s.dropped_cards.get(c, [1]), (c, s.dropped_keys, s.dropped_cards)


@PROPERTIES.state("the wizard wins exactly when every hero is dead", rows=("105.1",))
def wizard_victory(s):
    dead = not _living(s)
    assert (s.winner == "wizard") == dead, f"winner={s.winner!r} with {len(_living(s))} living heroes"
    if s.winner:
        assert s.phase == "over" and not s.stack, (s.phase, [p.kind for p in s.stack])


@PROPERTIES.state("the heroes win only in the tower, with no monster left there", rows=("92.1", "238.1"))
def heroes_victory(s):
    if s.winner == "heroes":
        assert any(h.pos == s.tower for h in _living(s)), "the heroes won outside the tower"
        assert not any(t.kind[0] == "m" for t in s.tokens[s.tower]), "the heroes won beside a tower monster"


@PROPERTIES.state("a hero stands on a remaining tile, in the tower only through an open door",
                  rows=("90.3", "237.3", "98.3", "241.3"))
def hero_positions(s):
    for h in _living(s):
        assert 0 <= h.pos < len(s.tiles) and not s.removed[h.pos], f"Hero {h.seat} on removed tile {h.pos}"
        if h.pos == s.tower:
            assert s.door_open, f"Hero {h.seat} in the tower with the door shut"


@PROPERTIES.state("every hero and every dropped key can still get to the tower", rows=("98.3", "241.3"))
def heroes_reach_tower(s):
    if not any(s.removed):
        return
    reach = _reach(s)
    for c in _must_reach(s):
        assert c in reach, f"tile {c} (a hero or dropped keys) cannot get to the tower"


@PROPERTIES.state("equipment in front: at most 2 swords and 1 pair of boots; the rest in hand",
                  rows=("136.1", "136.2", "137.1", "137.2", "353.1"))
def equipment(s):
    cards = _content(s).loot_cards
    limits = _opt(s)["equipment_limits"]
    for h in s.heroes:
        slots = Counter(cards[e].slot for e in h.equipment)
        assert all(cards[e].type == "equipment" for e in h.equipment), f"Hero {h.seat} has a consumable in front: {h.equipment}"
        if limits:
            assert slots["sword"] <= 2 and slots["boots"] <= 1, f"Hero {h.seat} wears {h.equipment}"
        for name in h.hand:
            card = cards[name]
            if card.type == "equipment":
                full = limits and card.slot in ("sword", "boots") and slots[card.slot] >= {"sword": 2, "boots": 1}[card.slot]
                assert full, f"Hero {h.seat} keeps {name} in hand with its slot free"


# ------------------------------------------------------------------ keys and the tower
@PROPERTIES.state("every key taken is held, lies where a hero died, or was used on the door",
                  rows=("90.2", "90.4", "90.5", "237.2", "237.4", "237.5", "71.2"))
def keys_conserved(s):
    held = sum(h.keys for h in s.heroes)
    dropped = sum(s.dropped_keys.values())
    used = _opt(s)["keys_needed"] if s.door_open else 0
    assert held + dropped + used == s.keys_taken <= 3, (held, dropped, used, s.keys_taken)
    assert all(h.keys >= 0 for h in s.heroes)


@PROPERTIES.state("keys taken are keys of flipped key tiles; final: one per flipped key tile",
                  rows=("90.1", "90.2", "237.1", "237.2", "98.1", "241.1"))
def keys_from_key_tiles(s):
    flipped = [c for c, t in enumerate(s.tiles) if t[0] == "k" and s.flipped[c]]
    assert s.keys_taken <= len(flipped), f"{s.keys_taken} keys taken from {len(flipped)} flipped key tiles"
    if _opt(s)["loot_phase"]:
        assert s.keys_taken == len(flipped), f"{s.keys_taken} keys taken, {len(flipped)} key tiles flipped"
    else:  # beta: "When a player defeats the enemies in a tiles with a key symbol he/she receives a key"
        free = [c for c in flipped if not any(t.kind[0] == "m" for t in s.tokens[c])]
        assert s.keys_taken >= len(free), f"key tiles {free} are flipped and unguarded, but only {s.keys_taken} keys were taken"


# ------------------------------------------------------------------ tokens
@PROPERTIES.state("no tile holds more tokens than the limit", rows=("119.2", "345.2"))
def token_limit(s):
    limit = _token_limit(s)
    for c, toks in enumerate(s.tokens):
        assert len(toks) <= limit, f"tile {c} holds {len(toks)} tokens (limit {limit})"


@PROPERTIES.state("the tower takes monsters and blanks only once the keys are taken, never traps",
                  rows=("102.1", "254.1"))
def tower_tokens(s):
    toks = s.tokens[s.tower]
    if toks:
        assert _keys_in(s), f"tokens in the tower with {s.keys_taken} keys taken"
        assert not any(t.kind == "T" for t in toks), "a trap in the tower"


@PROPERTIES.state("removed tiles hold nothing; the ring around the tower stays", rows=("98.3", "241.3"))
def removed_tiles(s):
    ring = _ring(s)
    for c in range(len(s.tiles)):
        if s.removed[c]:
            assert not s.tokens[c], f"tokens on removed tile {c}"
            assert c not in ring, f"ring tile {c} removed"
    if any(s.removed):
        assert _opt(s)["rage"] and _keys_in(s), "tiles removed without the rage"


@PROPERTIES.state("flipped blanks are gone; sprung traps are discarded once the combat phase has sprung them",
                  rows=("52.2", "52.3", "60.1"))
def no_face_up_blanks(s):
    for c, toks in enumerate(s.tokens):
        for t in toks:
            assert t.kind in ("X", "T") or (t.kind[0] == "m" and 1 <= int(t.kind[1:]) <= 5), t.kind
            assert not (t.face_up and t.kind == "X"), f"a face-up blank on tile {c}"
            # beta and alpha flip the tokens on entering: the traps spring in the combat phase that follows
            # (or the game ended in that combat phase before their tile's turn: a win in the tower, the last hero's death)
            assert not (t.face_up and t.kind == "T" and s.phase not in ("combat", "over")), \
                f"a face-up trap on tile {c} in phase {s.phase}"


# ------------------------------------------------------------------ cards
@PROPERTIES.state("every loot card is in exactly one place", rows=("122.1", "143.1", "130.1", "353.2", "122.2", "143.2"))
def loot_conserved(s):
    where = Counter(s.ldeck.draw_pile) + Counter(s.ldeck.discard_pile) + Counter(_loot_prompts(s))
    for h in s.heroes:
        where += Counter(h.hand) + Counter(h.equipment)
    for cards in s.dropped_cards.values():
        where += Counter(cards)
    assert not s.ldeck.removed, f"loot cards removed from the game: {s.ldeck.removed}"
    assert where == Counter(_content(s).loot_deck), f"loot cards: {dict(where - Counter(_content(s).loot_deck))} extra, " \
        f"{dict(Counter(_content(s).loot_deck) - where)} missing"


@PROPERTIES.state("every wizard card is in exactly one place; only cards that say so leave the game",
                  rows=("7.1", "122.1", "143.1", "122.2", "143.2", "125.1", "125.2", "20.1", "312.1"))
def wizard_cards_conserved(s):
    keep = [c for p in s.stack if p.kind == "keep" for c in p.data["cards"]]
    where = Counter(s.wdeck.draw_pile) + Counter(s.wdeck.discard_pile) + Counter(s.wdeck.removed) + Counter(s.whand) + Counter(keep)
    deck = Counter(s.game.deck_cards)
    assert where == deck, f"wizard cards: {dict(where - deck)} extra, {dict(deck - where)} missing"
    cards = _content(s).wizard_cards
    assert all(cards[c].removed for c in s.wdeck.removed), f"removed pile holds {s.wdeck.removed}"
    if s.phase == "setup" and keep:
        assert len(keep) + len(s.whand) == _opt(s)["opening_draw"], (keep, s.whand)
        assert len(s.whand) < _opt(s)["opening_keep"]


@PROPERTIES.state("the mana wheel stays between 0 and its maximum; mana left is the wheel's at most",
                  rows=("36.1", "79.2", "223.2", "312.3b"))
def mana_wheel(s):
    top = _opt(s)["mana_max"]
    assert 0 <= s.mana <= top, f"the wheel stands at {s.mana} (0..{top})"
    if s.phase == "wizard" and s.stack and s.stack[-1].kind != "rage":  # the rage comes before the draw
        assert 0 <= s.mana_left <= s.mana, f"mana left {s.mana_left} with the wheel at {s.mana}"


# ------------------------------------------------------------------ what each seat sees
@PROPERTIES.state("a seat sees only what the rules let it know",
                  rows=("110.1", "306.1b", "45.1b", "218.1b", "328.1b"))
def views_hide(s):
    for seat in range(s.game.players):
        v = s.view(seat)["state"]
        for c, toks in enumerate(s.tokens):
            for t, shown in zip(toks, v["tokens"][c]):
                if seat != WIZARD and not t.face_up:
                    assert shown is None, f"seat {seat} sees a face-down {t.kind} on tile {c}"
        for c, tile in enumerate(v["tiles"]):
            if not s.flipped[c] and not s.removed[c]:
                assert "draw" not in tile and "mana" not in tile, f"seat {seat} sees the values of face-down tile {c}"
                if seat != WIZARD:
                    assert tile.get("kind") != "key", f"hero seat {seat} sees a key under face-down tile {c}"
        if seat != WIZARD:
            assert v["wizard"]["hand"] is None, f"hero seat {seat} sees the wizard's hand"
        else:
            assert all(h["hand"] is None for h in v["heroes"]), "the wizard sees the heroes' hands"
        for h in v["heroes"]:
            if h["seat"] != seat:
                assert h["move"] is None, f"seat {seat} sees Hero {h['seat']}'s secret move"


# ------------------------------------------------------------------ steps: the wizard's turn
@PROPERTIES.step("a placed token goes face down where placement allows",
                 rows=("119.1", "345.1", "119.2", "345.2", "102.1", "254.1", "110.1", "111.1", "247.1", "341.1", "340.1"))
def placement(before, action, after):
    if action[0] != "place":
        return
    _, c, kind = action
    card = _content(before).wizard_cards[before.stack[-1].data["card"]]
    assert kind in card.tokens(), f"{kind} is not a token of {card.name}"
    assert c in _placeable(before, kind), f"{kind} placed on tile {c}, where placement does not allow it"
    new = after.tokens[c]
    assert len(new) == len(before.tokens[c]) + 1 and new[-1].kind == kind and not new[-1].face_up, (c, kind)


@PROPERTIES.step("a card's tokens are all placed unless no tile can take them", rows=("110.1", "111.1", "340.1", "341.1", "247.1"))
def placement_complete(before, action, after):
    if action[0] != "place" or (after.stack and after.stack[-1].kind == "place" and len(after.stack) == len(before.stack)):
        return
    left = list(before.stack[-1].data["tokens"])
    left.remove(action[2])
    for kind in set(left):
        assert not _placeable(after, kind), f"placement ended with {left} unplaced though {kind} still fits"


@PROPERTIES.step("a played card costs its mana and goes to the discard pile (or out of the game)",
                 rows=("35.2", "323.2", "112.2", "248.2", "122.1", "143.1", "125.1", "312.3b"))
def card_played(before, action, after):
    if action[0] != "play":
        return
    card = _content(before).wizard_cards[action[1]]
    assert card.cost <= before.mana_left, f"{card.name} costs {card.cost} with {before.mana_left} mana left"
    assert after.mana_left == before.mana_left - card.cost, (before.mana_left, after.mana_left, card.cost)
    assert Counter(before.whand) - Counter(after.whand) == Counter([card.name]), (before.whand, after.whand)
    pile, other = ("removed", "discard_pile") if card.removed else ("discard_pile", "removed")
    assert Counter(getattr(after.wdeck, pile)) - Counter(getattr(before.wdeck, pile)) == Counter([card.name]), \
        f"{card.name} did not go to the {pile}"
    assert Counter(getattr(after.wdeck, other)) == Counter(getattr(before.wdeck, other)), f"{card.name} went to the {other}"


@PROPERTIES.step("each wizard turn opens with the draw and the wheel's turn",
                 rows=("24.1", "35.1", "36.1", "323.1", "156.2b", "312.2b", "312.3b", "20.1", "312.1"))
def wizard_draw(before, action, after):
    if _top(after) != "main" or after.phase != "wizard":
        return
    if before.phase == "wizard" and _top(before) != "rage":
        return
    if before.flipped != after.flipped:
        return  # tiles flipped in this transition too: the tile-values property checks the wheel
    o = _opt(before)
    first = before.phase == "setup"
    draw = 0 if first and not o["first_turn_draw"] else 1
    if before.mana >= o["mana_max"]:  # "it can not be increased more and instead the wizard draws an extra card"
        mana, draw = before.mana, draw + 1
    else:
        mana = min(o["mana_max"], before.mana + o["mana_per_turn"])
    assert after.mana == mana and after.mana_left == mana, f"wheel {before.mana} -> {after.mana} (left {after.mana_left}), want {mana}"
    got = len(after.whand) - len(before.whand) - {"keep": 1, "discard": -1}.get(action[0], 0)
    if first:
        assert len(before.whand) + 1 == o["opening_keep"] or not before.stack[-1].data["cards"][1:], before.whand
    assert got <= draw and (got == draw or not (after.wdeck.draw_pile or after.wdeck.discard_pile)), \
        f"the wizard drew {got} card(s), want {draw}"


@PROPERTIES.step("the rage removes tiles only while it rages, as many as there are players",
                 rows=("98.1", "98.2", "98.3", "241.1", "241.2", "241.3"))
def rage(before, action, after):
    gone = [c for c in range(len(after.removed)) if after.removed[c] and not before.removed[c]]
    assert all(before.removed[c] <= after.removed[c] for c in range(len(after.removed))), "a removed tile came back"
    if gone:
        assert action[0] == "remove" and gone == [action[1]], (action, gone)
        assert _opt(before)["rage"] and _keys_in(before), "a tile removed without the rage"
        assert action[1] in _removable(before), f"tile {action[1]} may not be removed"
    if _top(after) == "rage" and _top(before) != "rage":
        assert after.stack[-1].data["left"] == before.game.players, after.stack[-1].data
    if _top(before) == "rage" and _top(after) != "rage":
        left = before.stack[-1].data["left"] - 1
        assert left == 0 or not _removable(after), f"the rage stopped with {left} tile(s) to go and tiles removable"
    if before.phase != "wizard" and after.phase == "wizard" and _opt(after)["rage"] and _keys_in(after) and _top(after) != "rage":
        # a wizard turn began under the rage without a removal: nothing was removable
        assert not _removable(after) or before.phase == "setup", "the rage skipped a turn with tiles removable"


# ------------------------------------------------------------------ steps: the heroes' turn
@PROPERTIES.step("a hero steps to an adjacent remaining room (two, the first free of tokens, with Sprint)",
                 rows=("45.2", "39.1", "209.1", "218.5b", "328.5b", "90.3", "237.3", "15.2", "184.2"))
def hero_step(before, action, after):
    if action[0] not in ("move", "move2"):
        return
    h = before.hero(before.current_seat())
    n = _n(before)
    route = list(action[1:])
    assert all(not before.removed[c] for c in route), f"Hero {h.seat} steps onto a removed tile: {action}"
    if action[0] == "move":
        j = route[0]
        assert j in _nbrs(n, h.pos), f"Hero {h.seat} steps from {h.pos} to {j}"
        if j == before.tower and before.entrance:
            assert h.pos == _entrance(before), f"Hero {h.seat} enters the tower from {h.pos}, not the entrance"
    else:
        m, j = route
        assert h.sprint, f"Hero {h.seat} moves two rooms without Sprint"
        assert m in _nbrs(n, h.pos) and j in _nbrs(n, m) and j != h.pos, action
        assert not before.tokens[m] and m != before.tower, f"Hero {h.seat} moves past tile {m}, which holds tokens"
        assert j != before.tower


@PROPERTIES.step("a hero who starts on tokens cannot move", rows=("47.1", "220.1"))
def stuck(before, action, after):
    if action[0] in ("move", "move2"):
        h = before.hero(before.current_seat())
        assert not before.tokens[h.pos], f"Hero {h.seat} moves away from tokens on {h.pos}"


@PROPERTIES.step("moves are secret until every hero has chosen, then made together",
                 rows=("45.1b", "218.1b", "328.1b", "45.3", "52.1", "227.1", "335.1"))
def simultaneous(before, action, after):
    if _top(before) != "move" or action[0] not in ("move", "move2", "stay"):
        return
    if after.phase == "move":
        assert [h.pos for h in before.heroes] == [h.pos for h in after.heroes], "a hero moved before every hero chose"
    else:
        seat = before.current_seat()
        chosen = set(before.pending) | {seat}
        waiting = {h.seat for h in _living(before) if not h.frozen} - chosen
        assert not waiting, f"the moves were made before Heroes {sorted(waiting)} chose"


@PROPERTIES.step("a hero moves at most one room a transition (two with Sprint) unless a spell moves him",
                 rows=("45.2", "39.1", "209.1", "47.3"))
def hero_travel(before, action, after):
    if before.phase == "wizard" and _top(before) in SPELL_PROMPTS and action != ("end",):
        return
    n = _n(before)
    for h0, h1 in zip(before.heroes, after.heroes):
        if h1.alive:
            far = 2 if (h0.sprint or h1.sprint or any(a[0] == "move2" for a in before.pending.values()) or action[0] == "move2") else 1
            assert _dist(n, h0.pos, h1.pos) <= far, f"Hero {h1.seat} went from {h0.pos} to {h1.pos}"


@PROPERTIES.step("frozen heroes skip their turn", rows=("112.1",))
def frozen(before, action, after):
    if not _hero_turn_transition(before, action):
        return
    for h0, h1 in zip(before.heroes, after.heroes):
        if h0.frozen:
            assert (h0.pos, h0.hp) == (h1.pos, h1.hp), f"frozen Hero {h0.seat}: {h0.pos},{h0.hp} -> {h1.pos},{h1.hp}"
            assert not (h1.fought and not h0.fought), f"frozen Hero {h0.seat} fought"


@PROPERTIES.step("damage in the heroes' turn comes from the traps and monsters of one tile",
                 rows=("57.1", "229.1", "335.7", "66.1", "68.1", "247.3", "341.4", "162.1b"))
def damage(before, action, after):
    if not _hero_turn_transition(before, action):
        return
    o = _opt(before)
    n = _n(before)
    for h0, h1 in zip(before.heroes, after.heroes):
        loss = h0.hp - h1.hp
        if loss <= 0:
            continue
        possible = set()
        for c in range(len(before.tokens)):
            toks = before.tokens[c]
            if not toks or _dist(n, h0.pos, c) > 2:
                continue
            traps = sum(1 for t in toks if t.kind == "T")
            mons = sum(1 for t in toks if t.kind[0] == "m")
            trap = {0} | ({o["trap_damage"] * (traps if o["trap_damage_per_trap"] else 1)} if traps else set())
            mon = {0} | ({mons if o["loss_damage_per_monster"] else 1} if mons else set())
            possible |= {a + b for a in trap for b in mon}
        ok = loss in possible or (h1.hp == 0 and any(p >= h0.hp for p in possible))
        assert ok, f"Hero {h0.seat} lost {loss} HP; the tokens near him allow {sorted(possible)}"


@PROPERTIES.state("a hero who moved and lost his fight is back on his previous tile", rows=("57.1", "229.1", "335.7"))
def retreat(s):
    if s.phase not in ("combat", "loot"):
        return
    for h in _living(s):
        if h.moved and h.fought:
            assert not any(t.kind[0] == "m" for t in s.tokens[h.pos]), f"Hero {h.seat} fought and stays beside monsters on {h.pos}"


@PROPERTIES.step("keys opening the door are spent: exactly as many as needed", rows=("90.4", "237.4"))
def door(before, action, after):
    if after.door_open and not before.door_open:
        spent = sum(h.keys for h in before.heroes) - sum(h.keys for h in after.heroes)
        assert spent == _opt(before)["keys_needed"], f"{spent} keys spent on the door"
        moves = list(before.pending.values()) + [action]
        assert ("move", before.tower) in moves, "the door opened with nobody stepping into the tower"
    assert before.door_open <= after.door_open, "the tower door closed"


@PROPERTIES.step("the wheel turns by the values of the tiles flipped", rows=("79.2", "223.2", "156.2b"))
def tile_values(before, action, after):
    new = [c for c in range(len(after.flipped)) if after.flipped[c] and not before.flipped[c]]
    if not new or before.phase == "setup":  # setup: the tower's tile is face up from the start
        return
    o = _opt(before)
    top = o["mana_max"]
    results = set()
    for order in permutations(new) if len(new) <= 5 else [tuple(new)]:
        m = before.mana
        for c in order:
            m = max(0, min(top, m + _tile_values(before, c)[1]))
        if before.phase != "wizard" and after.phase == "wizard":  # the wizard's turn began too
            m = m if m >= top else min(top, m + o["mana_per_turn"])
        results.add(m)
    assert after.mana in results, f"tiles {new} flipped: wheel {before.mana} -> {after.mana}, want one of {sorted(results)}"


@PROPERTIES.step("final: a tile flips once its tokens are resolved; every hero's tile is face up when the turn ends",
                 rows=("76.1", "76.2", "161.2b", "47.2", "41.1"))
def loot_phase_flips(before, action, after):
    if not _opt(before)["loot_phase"]:
        return
    for c in range(len(after.flipped)):
        if after.flipped[c] and not before.flipped[c]:
            assert not after.tokens[c], f"tile {c} flipped with tokens on it"
    if _turn_ended(before, after) and not after.winner:
        for h0, h1 in zip(before.heroes, after.heroes):
            if h1.alive and not h0.frozen and not after.tokens[h1.pos]:
                assert after.flipped[h1.pos], f"Hero {h1.seat} ends the turn on face-down tile {h1.pos}"


@PROPERTIES.step("beta and alpha: a hero flips every room he enters", rows=("218.2", "328.2", "218.3b", "328.3b", "220.2"))
def entering_flips(before, action, after):
    if _opt(before)["loot_phase"] or _top(before) != "move" or after.phase == "move" or action[0] not in ("move", "move2", "stay"):
        return
    if after.stack and after.phase != "over":
        return  # a prompt (loot, a discard) interrupts the arrivals: later rooms flip after it
    moves = dict(before.pending)
    moves[before.current_seat()] = action
    door_shut = not after.door_open
    for seat, m in moves.items():
        for c in m[1:]:
            if c == before.tower or (door_shut and c == after.tower):
                continue
            assert after.flipped[c], f"Hero {seat} entered tile {c}, still face down"


@PROPERTIES.step("items a dead hero dropped are picked up by a hero on the tile with no monsters left",
                 rows=("71.2", "232.2"))
def pickup(before, action, after):
    if not _turn_ended(before, after) or after.winner:
        return
    for c in set(after.dropped_keys) | set(after.dropped_cards):
        if any(h.pos == c for h in _living(after)):
            assert any(t.kind[0] == "m" for t in after.tokens[c]), f"items on tile {c} lie under a hero with no monster there"


@PROPERTIES.step("a used consumable leaves the hand for the loot discard pile",
                 rows=("130.1", "130.2b", "263.2b", "350.2b", "353.2", "143.1"))
def consumable_used(before, action, after):
    if action[0] not in ("use", "boost"):
        return
    seat = before.current_seat()
    name = action[1]
    card = _content(before).loot_cards[name]
    assert card.type == "consumable", f"{name} is not a consumable"
    h0, h1 = before.hero(seat), after.hero(seat)
    p0, p1 = before.stack[-1], after.stack[-1] if after.stack else None
    if p1 is None or len(after.stack) != len(before.stack) or (p0.kind, p0.seat, p0.data) != (p1.kind, p1.seat, p1.data):
        return  # the fight (or the reveal) ran on in this transition: the conservation property covers the card
    assert Counter(h0.hand) - Counter(h1.hand) == Counter([name]), (h0.hand, h1.hand)
    assert Counter(after.ldeck.discard_pile) - Counter(before.ldeck.discard_pile) == Counter([name]), "not discarded"
    if card.effect == "heal":
        assert h1.hp == min(_opt(before)["hero_hp"], h0.hp + card.amount), (h0.hp, h1.hp)


@PROPERTIES.step("a hero who entered a room fought what was there: no token is left under him when the turn ends",
                 rows=("40.1", "210.1", "320.1", "52.3", "92.1"))
def entered_rooms_resolved(before, action, after):
    if not _turn_ended(before, after) or after.winner:
        return
    for h0, h1 in zip(before.heroes, after.heroes):
        if h1.alive and h1.moved and not h0.frozen:
            assert not after.tokens[h1.pos], f"Hero {h1.seat} moved this turn and ends it on tokens at {h1.pos}"


@PROPERTIES.step("final: a hero on a room flipped in the loot phase who fought no monster draws a loot card",
                 rows=("82.1", "76.3", "41.1"))
def room_loot(before, action, after):
    if not _opt(before)["loot_phase"] or before.phase not in HERO_PHASES:
        return
    new = [c for c in range(len(after.flipped)) if after.flipped[c] and not before.flipped[c]]
    if not new or not (before.ldeck.draw_pile or before.ldeck.discard_pile):
        return
    for h0, h1 in zip(before.heroes, after.heroes):
        if h1.alive and h1.pos in new and not h1.fought and not h0.frozen:
            got = len(h1.hand) + len(h1.equipment) - len(h0.hand) - len(h0.equipment)
            assert got >= 1 or not (after.ldeck.draw_pile or after.ldeck.discard_pile), \
                f"Hero {h1.seat} flipped room {h1.pos}, fought nothing and drew no loot"


@PROPERTIES.state("a loot draw keeps what the version says: final keeps 1, beta and alpha keep every card",
                  rows=("57.2", "229.2", "335.8", "218.4", "328.4"))
def loot_keep(s):
    keep_all = _opt(s)["win_loot_keep_all"]
    for p in s.stack:
        if p.kind == "loot":
            assert p.data["keep"] >= 1 and p.data["cards"], p.data
            if keep_all:
                assert p.data["keep"] == len(p.data["cards"]), f"beta/alpha keep every card: {p.data}"
            else:
                assert p.data["keep"] == 1, f"final keeps one card: {p.data}"
            assert all(s.hero(x).alive for x in p.data["to"]), p.data


@PROPERTIES.step("a loot card taken goes to the chosen hero; the rest of a final draw is discarded",
                 rows=("57.2", "218.4", "328.4", "229.2", "335.8"))
def loot_taken(before, action, after):
    if action[0] != "take":
        return
    p = before.stack[-1]
    _, i, seat = action
    name = p.data["cards"][i]
    assert seat in p.data["to"], f"Hero {seat} takes loot of a fight or room he was not in"
    h0, h1 = before.hero(seat), after.hero(seat)
    if not h1.alive:  # the turn went on and a trap killed him: what he held, the loot too, was dropped
        return        # (and may already be picked up); the conservation properties follow those cards
    gained = Counter(h1.hand + h1.equipment) - Counter(h0.hand + h0.equipment)
    assert gained[name] >= 1, f"Hero {seat} took {name} but does not hold it"
    ended = p.data["keep"] == 1 or len(p.data["cards"]) == 1
    back = len(p.data["cards"]) - 1 if ended else 0  # the cards not kept go back to the loot deck
    size0 = len(before.ldeck.draw_pile) + len(before.ldeck.discard_pile)
    size1 = len(after.ldeck.draw_pile) + len(after.ldeck.discard_pile)
    if _held(after) - _held(before) != -back or size1 - size0 != back or before.dropped_cards != after.dropped_cards:
        return  # the turn went on and more loot changed hands in this transition (a room's loot, a pick-up)
    assert gained == Counter([name]), (name, h0.hand, h1.hand)
    if p.data["keep"] == 1:  # "choose one of them to keep, the other is discarded": back to the loot deck
        rest = Counter(p.data["cards"]) - Counter([name])
        deck0 = Counter(before.ldeck.draw_pile + before.ldeck.discard_pile)
        deck1 = Counter(after.ldeck.draw_pile + after.ldeck.discard_pile)
        assert not rest - (deck1 - deck0), f"the loot not kept ({dict(rest)}) was not discarded"


def _held(s: Any) -> int:
    """Loot cards held by heroes, lying where a hero died, or drawn and waiting in a loot choice."""
    return (sum(len(h.hand) + len(h.equipment) for h in s.heroes) + sum(len(v) for v in s.dropped_cards.values())
            + len(_loot_prompts(s)))


@PROPERTIES.step("heroes on one tile give each other loot and keys", rows=("140.1", "90.5", "237.5"))
def trading(before, action, after):
    if action[0] not in ("give", "give_key"):
        return
    assert _opt(before)["trading"], "a gift in a version without trading"
    giver, mate = before.hero(before.current_seat()), before.hero(action[1])
    assert giver.pos == mate.pos and mate.alive and mate is not giver, (giver.pos, mate.pos)
    g1, m1 = after.hero(giver.seat), after.hero(mate.seat)
    if action[0] == "give":
        assert Counter(giver.hand) - Counter(g1.hand) == Counter([action[2]]), (giver.hand, g1.hand)
        assert Counter(m1.hand + m1.equipment) - Counter(mate.hand + mate.equipment) == Counter([action[2]])
    else:
        assert (g1.keys, m1.keys) == (giver.keys - 1, mate.keys + 1), (giver.keys, mate.keys, g1.keys, m1.keys)


@PROPERTIES.step("Switcheroo swaps a hero alone on his tile with a token on a tile that reaches the tower",
                 rows=("155.2", "119.1", "119.2"))
def switcheroo(before, action, after):
    if action[0] != "token" or _top(before) != "switch_token":
        return
    _, c, i = action
    seat = before.stack[-1].data["seat"]
    h0, h1 = before.hero(seat), after.hero(seat)
    tok = before.tokens[c][i]
    assert h1.pos == c and c != before.tower, (h0.pos, h1.pos, c)
    moved = after.tokens[h0.pos][-1]
    assert (moved.kind, moved.face_up) == (tok.kind, tok.face_up) and len(after.tokens[c]) == len(before.tokens[c]) - 1
    if not _opt(before)["switcheroo_onto_heroes"]:
        assert not any(o.pos == h0.pos for o in _living(before) if o is not h0), "Switcheroo put a token beside a hero"
    if any(before.removed):
        assert c in _reach(before), f"Switcheroo sent Hero {seat} to tile {c}, cut off from the tower"


@PROPERTIES.step("Whirlwind blows each hero to an adjacent room and leaves level 5 monsters face up",
                 rows=("155.2b",))
def whirlwind(before, action, after):
    if action[0] != "push":
        return
    p = before.stack[-1]
    c, seat = p.data["cell"], p.data["seats"][0]
    h1 = after.hero(seat)
    assert h1.pos == action[1] and h1.pos in _nbrs(_n(before), c), (c, h1.pos)
    assert not before.removed[h1.pos] and h1.pos != before.tower
    if len(p.data["seats"]) == 1:  # the last hero blown away: the monsters arrive
        card = _content(before).wizard_cards[p.data["card"]]
        want = min(card.count, max(0, _token_limit(before) - len(before.tokens[c])))
        new = after.tokens[c][len(before.tokens[c]):]
        assert len(new) == want and all(t.kind == f"m{card.level}" and t.face_up for t in new), (want, new)


@PROPERTIES.step("a targeted spell strikes a tile with heroes on it, and every hero there",
                 rows=("112.1", "248.1"))
def spell_target(before, action, after):
    if action[0] != "target" or _top(before) != "spell_target":
        return
    c = action[1]
    here = [h.seat for h in _living(before) if h.pos == c]
    assert here, f"the spell targets tile {c} with no hero"
    card = _content(before).wizard_cards[before.stack[-1].data["card"]]
    for seat in here:
        h0, h1 = before.hero(seat), after.hero(seat)
        if card.effect == "frost_bolt":
            assert h1.frozen, f"Frost Bolt left Hero {seat} unfrozen"
        else:
            assert h1.hp == max(0, h0.hp - card.damage), (h0.hp, h1.hp, card.damage)
