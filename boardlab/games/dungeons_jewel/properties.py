"""Rule properties of The Dungeon's Jewel: what the seed's rules make always true.

Each property is written from the seed's words (quoted in its docstring), not from the rules
module: geometry (corners, the centre, orthogonal neighbours, the spaces around the centre) is
recomputed here from the board size, item and token kinds are read from the content file, the dice
a transition rolled are re-rolled from a copy of the state's generator before the action, and the
outcome the sentence prescribes is compared with the position after it.  The only representation
shared with the rules is the state's fields (``pos``, ``health``, ``tokens``, ``known`` with its
``FACE_UP`` bit, ``walls`` as blocked-side bitmasks N, E, S, W, ``facing``, ``pile``/``deck`` with
the top at the end, ``jewel``, ``exit``, ``winner`` and the prompt stack).

Run them at length with ``nice python scripts/properties.py --game dungeons-jewel --transitions
100000 --mix all``; the conformance suite and ``scripts/fuzz.py`` run them too.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from boardlab.engine.properties import PropertySet

from .rules import FACE_UP

PROPERTIES = PropertySet()

N_SIDES = 4
_DELTA = ((0, -1), (1, 0), (0, 1), (-1, 0))  # N, E, S, W: bit d of walls[c]


# -- geometry and content, recomputed from the board size and the content file ---------------------
def _size(g) -> int:
    return g.option_values["board_size"]


def _starts(g) -> tuple[int, ...]:
    """"each player starts on a corner": clockwise from the top left (ledger 22); two players take
    opposite corners, three the first three (ledger 27)."""
    size = _size(g)
    corners = (0, size - 1, size * size - 1, size * (size - 1))
    if g.players == 2:
        return corners[0], corners[2]
    return corners[:g.players]


def _centre(g) -> int:
    size = _size(g)
    return (size // 2) * size + size // 2


_ORTH: dict[int, tuple[tuple[tuple[int, int], ...], ...]] = {}


def _orth(g, c: int) -> tuple[tuple[int, int], ...]:
    """(side, room) of the rooms up, right, down and left of ``c`` that exist."""
    size = _size(g)
    table = _ORTH.get(size)
    if table is None:
        rows = []
        for cc in range(size * size):
            x, y = cc % size, cc // size
            rows.append(tuple((d, (y + dy) * size + x + dx) for d, (dx, dy) in enumerate(_DELTA)
                              if 0 <= x + dx < size and 0 <= y + dy < size))
        table = _ORTH[size] = tuple(rows)
    return table[c]


def _around_centre(g) -> set[int]:
    size = _size(g)
    c = _centre(g)
    cx, cy = c % size, c // size
    return {(cy + dy) * size + cx + dx for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy}


_CONNECTED: dict[tuple[int, ...], bool] = {}


def _connected(g, walls: list[int]) -> bool:
    """Can every room reach every other through the unblocked sides?"""
    if not any(walls):
        return True
    key = (_size(g), *walls)
    hit = _CONNECTED.get(key)
    if hit is not None:
        return hit
    seen = {0}
    todo = [0]
    while todo:
        c = todo.pop()
        for d, j in _orth(g, c):
            if j not in seen and not walls[c] >> d & 1:
                seen.add(j)
                todo.append(j)
    if len(_CONNECTED) > 4096:
        _CONNECTED.clear()
    _CONNECTED[key] = out = len(seen) == len(walls)
    return out


_TABLES: dict[int, tuple[Any, dict[str, Any]]] = {}


def _tables(g) -> dict[str, Any]:
    """Token types, item effects and survival items, from the game's content file."""
    content = g.content
    hit = _TABLES.get(id(content))
    if hit is not None and hit[0] is content:
        return hit[1]
    t = {
        "type": {k.id: k.type for k in content.tokens},
        "attack": frozenset(i.id for i in content.items if i.effect == "attack"),
        "walls": frozenset(i.id for i in content.items if i.effect == "walls"),
        "cures": {i.id: i.hazard for i in content.items if i.effect == "survive"},
        "tokens": Counter(k.id for k in content.tokens for _ in range(k.count)),
        "cards": Counter(i.id for i in content.items for _ in range(i.count)),
    }
    _TABLES[id(content)] = (content, t)
    return t


def _opt(g, name: str) -> Any:
    return g.option_values[name]


def _dice(before, n: int) -> tuple[list[int], int]:
    """The next ``n`` rolls of ``before``'s generator (a copy; ``before`` is not changed), and its state after."""
    r = before.rng.copy()
    sides = _opt(before.game, "die")
    faces = [r.roll(sides) for _ in range(n)]
    return faces, r.state


def _prompt(s) -> Any:
    return s.stack[-1] if s.stack else None


def _turn_action(before, action) -> bool:
    """The transition is a turn's own action (a move, an attack, a dragon fight), not a prompt's answer."""
    return not before.stack


def _damaged(g, before, seat: int) -> tuple[int, int | None]:
    """(health, room) after ``seat`` "lose[s] one health": at 0 they start over at their corner with
    the respawn health (``None``: the seat stays where it stands)."""
    h = before.health[seat] - 1
    if h <= 0:
        return _opt(g, "respawn_health"), _starts(g)[seat]
    return h, None


def _expect_damage(g, before, after, seat: int, where: int, what: str) -> None:
    """``seat`` took one point of damage standing on ``where``."""
    h, home = _damaged(g, before, seat)
    assert after.health[seat] == h, f"{what}: seat {seat} has {after.health[seat]} health, want {h}"
    want = where if home is None else home
    assert after.pos[seat] == want, f"{what}: seat {seat} is on {after.pos[seat]}, want {want}"
    if home is not None and before.jewel == seat:
        assert after.jewel != seat, f"{what}: seat {seat} starts over but still carries the jewel"


def _others_unmoved(before, after, seats: set[int], what: str) -> None:
    for t in range(before.game.players):
        if t not in seats:
            assert after.pos[t] == before.pos[t], f"{what}: seat {t} moved ({before.pos[t]} -> {after.pos[t]})"
            assert after.health[t] == before.health[t], f"{what}: seat {t} health changed"


def _expect_loot(g, before, after, seat: int, loot: bool, what: str) -> None:
    """"they get to pull a treasure card" for a room whose token they drew, else the cards stay put."""
    if loot and before.deck:
        card = before.deck[-1]
        assert after.deck == before.deck[:-1], f"{what}: the top treasure card was not pulled"
        assert after.items[seat] == before.items[seat] + [card], f"{what}: seat {seat} did not get {card!r}"
    else:
        assert after.deck == before.deck, f"{what}: a treasure card left the deck without loot"
        assert after.items[seat] == before.items[seat], f"{what}: seat {seat}'s items changed without loot"


# -- State properties --------------------------------------------------------------------------------
@PROPERTIES.state("setup: corners, health, attack power, full piles",
                  rows=("13.2", "13.2b", "19.5", "21.2", "57.1", "57.1b", "57.2", "61.11"))
def setup_position(s) -> None:
    """"each player starts on a corner"; "Players start with two health"; "Attack power starts at
    zero"; "shuffle both the dungeon token pile, and the treasure card pile" (all still in the piles)."""
    if s.decisions:
        return
    g = s.game
    t = _tables(g)
    assert s.pos == list(_starts(g)), f"start positions {s.pos}, want the corners {list(_starts(g))}"
    assert s.health == [_opt(g, "start_health")] * g.players, f"start health {s.health}"
    assert s.power == [0] * g.players and all(not i for i in s.items), "attack power or items at the start"
    assert all(k is None for k in s.tokens), "a dungeon token on the board at the start"
    assert Counter(s.pile) == t["tokens"] and Counter(s.deck) == t["cards"], "the piles are not complete"
    assert s.jewel is None and s.winner is None and s.seat == s.first and not s.stack, "not a fresh start"


@PROPERTIES.state("health stays between 1 and its maximum, pieces on the board", rows=("21.1", "21.2b", "61.13", "61.12"))
def health_bounds(s) -> None:
    """"Players start with two health, and if their health goes to zero, they start over with three
    health": nobody ever stands at 0 health or above the start or respawn health; every piece is on
    one of the board's rooms."""
    g = s.game
    top = max(_opt(g, "start_health"), _opt(g, "respawn_health"))
    for seat, h in enumerate(s.health):
        assert 1 <= h <= top, f"seat {seat} has {h} health (1..{top})"
    rooms = _size(g) ** 2
    for seat, c in enumerate(s.pos):
        assert type(c) is int and 0 <= c < rooms, f"seat {seat} stands on {c!r}, off the board"


@PROPERTIES.state("attack power counts the attack items held", rows=("19.5", "71.1", "71.2", "71.3", "99.1"))
def attack_power_recount(s) -> None:
    """"Attack power starts at zero and goes up by one for every attack power item a player has.\""""
    attack = _tables(s.game)["attack"]
    for seat, hand in enumerate(s.items):
        want = sum(1 for i in hand if i in attack)
        assert s.power[seat] == want, f"seat {seat} has attack power {s.power[seat]}, holds {want} attack items"


@PROPERTIES.state("every token and treasure card is in exactly one place", rows=("57.2", "17.5", "61.4", "19.1"))
def conservation(s) -> None:
    """"draw a dungeon token from the dungeon token pile"; "pull a loot card": each token is in the
    pile or on one room, each treasure card in the deck or one player's hand."""
    t = _tables(s.game)
    on_board = Counter(k for k in s.tokens if k is not None)
    assert on_board + Counter(s.pile) == t["tokens"], "dungeon tokens created or lost"
    held = Counter(i for hand in s.items for i in hand)
    assert held + Counter(s.deck) == t["cards"], "treasure cards created or lost"


@PROPERTIES.state("no token on a start corner or on the centre", rows=("61.16", "13.3"))
def no_token_on_starts_or_centre(s) -> None:
    """"If a player makes it to the center space, they do not draw a hazard card"; start corners are
    no dungeon rooms (ledger 22)."""
    g = s.game
    for c in (*_starts(g), _centre(g)):
        assert s.tokens[c] is None, f"room {c} holds token {s.tokens[c]!r}"
    for c, k in enumerate(s.tokens):
        if k is None:
            assert s.known[c] == 0, f"room {c} has no token but is marked seen"


@PROPERTIES.state("walls lie face up and block exactly the sides they were turned to",
                  rows=("122.1", "122.1b"))
def walls_recount(s) -> None:
    """"they get to decide which way it is facing, and must leave it facing up": each wall token is
    face up; the blocked sides are exactly those the turned walls name, both ways (ledger 20), and
    every room can still reach every other (ledger 20: never seals a room off)."""
    g = s.game
    types = _tables(g)["type"]
    want = [0] * len(s.walls)
    for c, d in s.facing.items():
        assert s.tokens[c] is not None and types[s.tokens[c]] == "wall", f"room {c} faces a wall without a wall token"
        nb = dict(_orth(g, c))
        assert d in nb, f"the wall of room {c} faces side {d}, off the board"
        want[c] |= 1 << d
        want[nb[d]] |= 1 << (d + 2) % N_SIDES
    assert s.walls == want, f"blocked sides {s.walls} do not match the turned walls {s.facing}"
    for c, k in enumerate(s.tokens):
        if k is not None and types[k] == "wall":
            assert s.known[c] & FACE_UP, f"wall token on room {c} is face down"
    assert _connected(g, s.walls), "walls cut a room off"


@PROPERTIES.state("the jewel, the slayer's step and the winner agree",
                  rows=("13.5", "25.7", "25.9", "53.1", "61.24", "61.24b", "25.6", "61.20"))
def jewel_and_winner(s) -> None:
    """"bring this jewel back to your starting space ... then the game is over and that player wins";
    the slayer "moves to any space surrounding the center space" from the centre."""
    g = s.game
    assert s.jewel is None or s.jewel in range(g.players), f"jewel {s.jewel!r}"
    if s.exit is not None:
        assert s.jewel == s.exit and s.pos[s.exit] == _centre(g), (
            f"seat {s.exit} may step off the centre but holds jewel={s.jewel} on room {s.pos[s.exit]}")
    if s.winner is not None:
        assert s.jewel == s.winner and s.pos[s.winner] == _starts(g)[s.winner], "a winner without the jewel at home"
        assert s.is_over() and not s.legal_actions(), "the game goes on after a win"
    elif not s.truncated:
        assert not s.is_over(), "the game is over without a winner"
        if s.jewel is not None and not s.stack:
            assert s.pos[s.jewel] != _starts(g)[s.jewel], "the jewel is home but nobody won"


@PROPERTIES.state("turn legal actions: orthogonal moves, adjacent attacks, the dragon",
                  rows=("17.3", "17.4", "61.1", "61.2", "91.1", "29.1", "67.1", "67.1b", "61.15", "29.9",
                        "61.17", "61.21b", "61.22", "25.6", "61.20", "61.20b", "25.6b", "25.8", "25.8b"))
def turn_choices(s) -> None:
    """"Spaces that are adjacent excluding diagonals are legal moves"; "Allows players to walk through
    a wall"; "Players can attack other players if they are adjacent to them" (or share the room, walls
    do not stop fights: ledger 12); "if they choose to attack, then they cannot move": one or the
    other; on the centre, the dragon while it guards the jewel; its slayer "on their next turn, moves
    to any space surrounding the center space"; "all other players will attempt to defeat the player
    who has the jewel": anyone adjacent may attack the carrier."""
    if s.stack or s.is_over():
        return
    g = s.game
    seat = s.seat
    c = s.pos[seat]
    t = _tables(g)
    spell = any(i in t["walls"] for i in s.items[seat])
    want = set()
    for d, j in _orth(g, c):
        if spell or not s.walls[c] >> d & 1:
            want.add(("move", j))
    centre = _centre(g)
    if c == centre and s.jewel is None:
        want.add(("dragon",))
    if c == centre and s.exit == seat and _opt(g, "jewel_exit") == "surrounding":
        want |= {("move", j) for j in _around_centre(g) if j not in dict(_orth(g, c)).values()}
    near = {c, *(j for _, j in _orth(g, c))}
    want |= {("attack", o) for o in range(g.players) if o != seat and s.pos[o] in near}
    legal = s.legal_actions()
    assert len(set(legal)) == len(legal), f"duplicate legal actions {legal}"
    assert set(legal) == want, f"seat {seat} on {c}: legal {sorted(map(str, legal))}, want {sorted(map(str, want))}"


@PROPERTIES.state("prompt choices: place, survive, wall, take", rows=("17.9", "61.5b", "17.10", "19.3", "61.7",
                                                                      "61.8", "81.1", "93.1", "120.1", "175.1"))
def prompt_choices(s) -> None:
    """"The player can choose to keep the hazard on the space as a secret"; "If the player has an item
    that helps them with surviving the hazard ... they do not have to roll ... If the player does not
    have an item ... they must roll" ("Spike boots: Allows players to survive the spike hazard", ...;
    no item survives a monster); "players can take one item from a player they defeat"."""
    p = _prompt(s)
    if p is None or s.is_over():
        return
    g = s.game
    legal = set(s.legal_actions())
    if p.kind != "take":
        assert p.seat == s.seat, f"a {p.kind} prompt for seat {p.seat} in seat {s.seat}'s turn"
    if p.kind == "place":
        assert legal == {("place", "secret"), ("place", "reveal")}, legal
    elif p.kind == "survive":
        assert p.seat == s.seat, "a survive prompt for another seat"
        kind = s.tokens[p.data[0]]
        t = _tables(g)
        assert t["type"][kind] != "wall", "a wall to survive"
        cures = {("use", i) for i in s.items[p.seat] if t["cures"].get(i) == kind}
        assert ("roll",) in legal, "no roll offered"
        uses = legal - {("roll",)}
        assert uses <= cures, f"items offered {uses} do not survive {kind!r}"
        assert bool(uses) == bool(cures), f"holds {cures} for {kind!r} but offered {uses}"
        if t["type"][kind] == "monster" and g.content.designed:
            assert not uses, "an item offered against a monster (\"the player must defeat the monster\")"
    elif p.kind == "take":
        assert _opt(g, "fight_steal"), "an item is taken without the revision log's rule"
        assert legal == {("take", i) for i in s.items[p.data]}, legal
    elif p.kind == "wall":
        c = p.data
        want = set()
        for d, j in _orth(g, c):
            if s.walls[c] >> d & 1:
                continue  # already blocked: turning the wall there blocks nothing (ledger 33)
            walls = list(s.walls)
            walls[c] |= 1 << d
            walls[j] |= 1 << (d + 2) % N_SIDES
            if _connected(g, walls):
                want.add(("wall", "NESW"[d]))
        assert legal == (want or {("wall", "none")}), f"wall sides {legal}, want {want}"
    else:  # pragma: no cover - an unknown prompt
        raise AssertionError(f"unknown prompt {p.kind!r}")


@PROPERTIES.state("each seat sees what the rules let it know", rows=("17.7", "61.5", "17.9", "19.2", "61.3"))
def seat_views(s) -> None:
    """"reads the dungeon token without anyone else seeing"; "can choose to keep the hazard ... as a
    secret"; "must reveal what they got to the other players"; "announce it to the rest of the
    players": a token's face shows exactly to the seats that saw it, or to all once face up; items,
    positions, health and attack power are public; the piles' order is hidden."""
    g = s.game
    tokens, known = s.tokens, s.known
    placed = [c for c, k in enumerate(tokens) if k is not None]
    for seat in (*range(g.players), None):
        v = s._view(seat)
        bit = 0 if seat is None else 1 << seat
        want = [[c, tokens[c] if known[c] & (FACE_UP | bit) else None, bool(known[c] & FACE_UP)] for c in placed]
        if v["tokens"] != want:
            bad = next((w, x) for w, x in zip(want, v["tokens"]) if w != list(x)) if len(want) == len(v["tokens"]) else None
            raise AssertionError(f"seat {seat} sees the tokens {bad or v['tokens']} (want [room, face, face up] {want})")
        assert v["items"] == s.items and v["positions"] == s.pos and v["health"] == s.health
        assert v["power"] == s.power and v["jewel"] == s.jewel
        assert v["token_pile"] == len(s.pile) and v["treasure_deck"] == len(s.deck), "the piles show more than a count"


# -- Step properties -------------------------------------------------------------------------------
@PROPERTIES.step("turns pass clockwise after each whole turn", rows=("13.4", "17.2b", "25.1", "29.9", "61.15", "67.5"))
def turn_order(before, action, after) -> None:
    """"Person with the highest roll goes first and the turns then follow clockwise"; "Players
    continue taking turns": each turn is one move, attack or dragon fight with its prompts, then the
    next seat (seat order is clockwise, ledger 24) plays, until someone wins."""
    g = after.game
    kind = action[0]
    if _turn_action(before, action):
        assert kind in ("move", "attack", "dragon"), f"a turn begins with {action}"
    else:
        asked = before.stack[-1].kind
        assert kind == asked or (kind in ("roll", "use") and asked == "survive"), f"{action} answers a {asked} prompt"
    if after.winner is not None:
        return
    if after.stack:
        assert after.seat == before.seat and after.turn == before.turn, "the turn passed with a decision pending"
        assert len(after.stack) == 1, f"{len(after.stack)} decisions pending"
    else:
        assert after.seat == (before.seat + 1) % g.players, f"seat {before.seat} is followed by {after.seat}"
        assert after.turn == before.turn + 1, "the turn count did not advance"


@PROPERTIES.step("entering a room: draw, look, or nothing", rows=("17.5", "17.6", "17.6b", "17.8", "61.4", "23.1", "61.14",
                                                                   "61.14b", "61.16", "75.3", "75.3b", "75.4",
                                                                   "122.2", "17.3", "61.3", "19.1b"))
def entering_a_room(before, action, after) -> None:
    """"announce the space they are going to move to and draw a dungeon token ... place the token face
    down on the space they want to move to"; "If the space ... already has a dungeon token currently on
    it, then the player can look at the token ... instead of redrawing a new token"; "it remains on that
    space for all other players to survive" (the drawer too, ledger 36), with no loot; at the centre
    "they do not draw a hazard card"; a wall: "does not need to roll, and also does not get any loot"."""
    if action[0] != "move":
        return
    g = after.game
    seat = before.seat
    j = action[1]
    centre = _centre(g)
    starts = _starts(g)
    fight = j == centre and before.jewel is None
    if not fight:
        assert after.pos[seat] == j, f"seat {seat} announced {j} but stands on {after.pos[seat]}"
        assert after.rng.state == before.rng.state, "a die was rolled on entering a room"
        assert after.health == before.health, "health changed on entering a room"
    _others_unmoved(before, after, {seat}, "a move")
    types = _tables(g)["type"]
    changed = [c for c in range(len(before.tokens)) if before.tokens[c] != after.tokens[c]]
    p = _prompt(after)
    if j in starts or j == centre:
        assert not changed and after.pile == before.pile, "a token drawn for a corner or the centre"
        assert p is None, f"a {p and p.kind} prompt on a corner or the centre"
        return
    k = before.tokens[j]
    if k is None:
        if not before.pile:
            assert not changed and p is None, "a room filled from an empty pile"
            return
        drawn = before.pile[-1]
        assert changed == [j] and after.tokens[j] == drawn, f"drew {drawn!r} but tokens changed on {changed}"
        assert after.pile == before.pile[:-1], "the token was not drawn from the top of the pile"
        if types[drawn] == "wall":
            assert after.known[j] == FACE_UP | 1 << seat, "a wall token is not face up"
            assert p is not None and p.kind == "wall" and p.seat == seat and p.data == j, "no wall to turn"
        else:
            assert after.known[j] == 1 << seat, f"the drawn token is known to {after.known[j]:b}, not only the drawer"
            assert p is not None and p.kind == "place" and p.seat == seat and p.data == j, "no choice to place it"
        return
    assert not changed and after.pile == before.pile, "a token redrawn for a room that has one"
    assert after.known[j] == before.known[j] | 1 << seat, "the mover did not look at the room's token"
    if types[k] == "wall":
        assert p is None, "a roll or loot in a wall room"
    else:
        assert p is not None and p.kind == "survive" and p.seat == seat, "no hazard to survive in an old room"
        assert tuple(p.data) == (j, 0), f"an old room's hazard {p.data} (no loot: 75.4)"
    assert after.deck == before.deck, "loot on entering a room"


@PROPERTIES.step("placing the drawn token face down or up", rows=("17.8", "17.9", "61.5", "61.5b", "19.1", "19.1b"))
def placing(before, action, after) -> None:
    """"The player can now place the token face down on the space ... The player can choose to keep
    the hazard on the space as a secret"; then they face it, and loot if they survive (a new room)."""
    if action[0] != "place":
        return
    p = before.stack[-1]
    c = p.data
    want = before.known[c] | (FACE_UP if action[1] == "reveal" else 0)
    assert after.known == before.known[:c] + [want] + before.known[c + 1:], "knowledge changed beyond the placing"
    q = _prompt(after)
    assert q is not None and q.kind == "survive" and tuple(q.data) == (c, 1) and q.seat == p.seat, "no hazard after placing"
    assert after.rng.state == before.rng.state and after.pos == before.pos and after.tokens == before.tokens


@PROPERTIES.step("surviving a hazard: the roll, the item, the damage and the loot",
                 rows=("17.10", "17.11", "61.6", "61.7", "61.8", "61.9", "61.10", "61.12", "61.13", "21.1",
                       "21.2b", "19.1", "19.4", "33.2", "33.3", "75.2", "118.1", "118.2", "118.3", "118.3b",
                       "120.1", "120.2", "120.3", "120.4", "81.1", "93.1", "175.1b"))
def surviving(before, action, after) -> None:
    """"A roll of 4 or higher means the player survived the hazard and does not have to take damage,
    and they get to pull a treasure card" ("three or higher", concept); monster: "roll the die and then
    add it to their attack power. The sum must be higher than 5"; trap door: "If the player fails, then
    the player does not lose a health point, but does move back to their starting position"; "If a
    player loses a health point, but still has a health point remaining, then they stay"; with the
    item "they do not have to roll the die, and simply survive the hazard"."""
    if action[0] not in ("roll", "use"):
        return
    g = after.game
    p = before.stack[-1]
    seat = p.seat
    c, loot = p.data[0], bool(p.data[1])
    kind = before.tokens[c]
    ttype = _tables(g)["type"][kind]
    assert before.pos[seat] == c, "surviving a room the player is not in"
    _others_unmoved(before, after, {seat}, "a hazard")
    assert after.tokens == before.tokens and after.pile == before.pile and after.known == before.known
    assert not after.stack, "a decision left after surviving"
    if action[0] == "use":
        assert action[1] in before.items[seat] and _tables(g)["cures"].get(action[1]) == kind, (
            f"{action[1]!r} does not survive {kind!r}")
        assert after.rng.state == before.rng.state, "a die was rolled although an item survived the hazard"
        ok = True
    else:
        (r,), state = _dice(before, 1)
        assert after.rng.state == state, "not exactly one die rolled against a hazard"
        if ttype == "monster":
            ok = r + before.power[seat] >= _opt(g, "monster_target")
        else:
            ok = r >= _opt(g, "hazard_target")
    if ok:
        assert after.pos[seat] == c and after.health[seat] == before.health[seat], "damage after surviving"
        assert after.jewel == before.jewel
        _expect_loot(g, before, after, seat, loot, "surviving")
        return
    assert after.deck == before.deck and after.items == before.items, "loot after failing"
    if ttype == "trapdoor":
        assert after.health[seat] == before.health[seat], "a failed trap door cost health"
        assert after.pos[seat] == _starts(g)[seat], "a failed trap door did not send the player home"
        if before.jewel == seat:
            assert after.jewel is None, "a carrier fell through a trap door with the jewel (ledger 9)"
    else:
        _expect_damage(g, before, after, seat, c, f"failing {kind}")


@PROPERTIES.step("fighting the dragon: two dice plus attack power", rows=("13.3", "25.2", "25.3", "25.4", "25.5",
                                                                            "61.17", "61.18", "61.19", "61.21",
                                                                            "61.21b", "174.1", "19.4"))
def dragon_fight(before, action, after) -> None:
    """"Once players make it to the space at the center of the game, they must roll two dice to defeat
    the dragon ... their attack power, plus what they roll on the dice"; "This sum must be higher than
    ten" (rulebook; "ten or higher", concept; "rolling a 9", revised); "If the player does not get a
    high enough roll, then they take damage in the same way"."""
    g = after.game
    centre = _centre(g)
    fight = action == ("dragon",) or (action[0] == "move" and action[1] == centre and before.jewel is None)
    seat = before.seat
    if not fight:
        if after.jewel is not None and after.jewel != before.jewel:
            assert before.jewel is not None, "the jewel left the dragon without a fight"
        return
    assert before.jewel is None and not before.stack, "a dragon fight with the jewel gone"
    if action == ("dragon",):
        assert before.pos[seat] == centre, "fighting the dragon away from the centre"
    (r1, r2), state = _dice(before, 2)
    assert after.rng.state == state, "not exactly two dice rolled against the dragon"
    total = r1 + r2 + before.power[seat]
    _others_unmoved(before, after, {seat}, "a dragon fight")
    assert after.tokens == before.tokens and after.pile == before.pile, "a token drawn at the centre"
    assert not after.stack
    if total >= _opt(g, "dragon_target"):
        assert after.jewel == seat and after.exit == seat, f"{r1}+{r2}+{before.power[seat]} beats the dragon"
        assert after.pos[seat] == centre and after.health[seat] == before.health[seat]
    else:
        assert after.jewel is None, f"{r1}+{r2}+{before.power[seat]} does not beat the dragon"
        _expect_damage(g, before, after, seat, centre, "failing the dragon")


@PROPERTIES.step("the slayer's step off the centre: when it is offered", rows=("25.6", "25.6b", "61.20", "61.20b"))
def slayer_step(before, action, after) -> None:
    """Rulebook: "the player gets the jewel, and on their next turn, moves to any space surrounding the
    center space" (that turn only, ledger 32); concept: "then they can move to any space surrounding the
    center space" (on any turn until they leave the centre, ledger 34); lost with the jewel."""
    g = after.game
    seat = before.seat
    if after.jewel == seat and before.jewel is None and not before.stack:
        want = seat  # the dragon was beaten this turn
    elif before.exit is None:
        want = None
    else:
        e = before.exit
        if after.jewel != e:
            want = None
        elif not before.stack and seat == e and (action[0] == "move" or _opt(g, "jewel_exit_turn") == "next"):
            want = None
        else:
            want = e
    assert after.exit == want, f"the slayer's step is {after.exit}, want {want} after {action}"
    if action[0] == "move" and before.exit == seat and not before.stack:
        c = before.pos[seat]
        j = action[1]
        size = _size(g)
        dx, dy = abs(j % size - c % size), abs(j // size - c // size)
        assert max(dx, dy) == 1, f"the slayer stepped from {c} to {j}"


@PROPERTIES.step("attacking: dice plus attack power, the loser takes damage, nobody moves",
                 rows=("29.1", "29.2", "29.3", "29.4", "29.5", "29.6", "29.7", "29.8", "29.8b", "29.9",
                       "67.2", "67.3", "67.3b", "67.4", "67.5", "61.15", "61.23", "61.23b", "25.8", "25.8b",
                       "175.1"))
def attacking(before, action, after) -> None:
    """"both players roll a die, and add the roll to their attack power. The player with the highest
    sum wins and the losing player takes damage. Hazards are ignored during attacking. The attacking
    player cannot move during this turn"; "If it is a tie, neither player loses any health"; "both
    players should still be on the same space"; "If the player is attacked by another player and
    defeated, them that player gains the jewel"; revised: "players can take one item from a player
    they defeat"."""
    if action[0] != "attack":
        return
    g = after.game
    s, t = before.seat, action[1]
    assert t != s
    (ra, rd), state = _dice(before, 2)
    assert after.rng.state == state, "not exactly two dice rolled in a fight"
    a, d = ra + before.power[s], rd + before.power[t]
    assert after.tokens == before.tokens and after.known == before.known and after.pile == before.pile, (
        "a hazard was faced during an attack")
    assert after.items == before.items and after.deck == before.deck and after.power == before.power
    _others_unmoved(before, after, {s, t}, "a fight")
    if a == d:
        assert after.health == before.health and after.pos == before.pos and after.jewel == before.jewel, "a tie hurt"
        assert not after.stack
        return
    win, lose = (s, t) if a > d else (t, s)
    assert after.health[win] == before.health[win] and after.pos[win] == before.pos[win], "the fight's winner was hurt"
    _expect_damage(g, before, after, lose, before.pos[lose], f"losing a fight {a}-{d}")
    if before.jewel == lose:
        assert after.jewel == win, f"seat {win} beat the carrier {lose} {max(a, d)}-{min(a, d)} but has no jewel"
    else:
        assert after.jewel == before.jewel, "the jewel moved in a fight its carrier was not in"
    home = after.jewel == win and before.pos[win] == _starts(g)[win]
    assert (after.winner == win) if home else after.winner is None, "a win in a fight"
    take = not home and _opt(g, "fight_steal") and bool(before.items[lose])
    p = _prompt(after)
    if take:
        assert p is not None and p.kind == "take" and p.seat == win and p.data == lose, "no item to take"
    else:
        assert p is None, f"a {p and p.kind} prompt after a fight"


@PROPERTIES.step("taking an item from the defeated player", rows=("175.1", "71.3"))
def taking(before, action, after) -> None:
    """Revision log: "players can take one item from a player they defeat": one item moves from the
    loser to the winner, and attack power with it."""
    if action[0] != "take":
        return
    p = before.stack[-1]
    win, lose, item = p.seat, p.data, action[1]
    assert item in before.items[lose]
    want_lose = before.items[lose][:]
    want_lose.remove(item)
    assert sorted(after.items[lose]) == sorted(want_lose), "the loser lost more or less than one item"
    assert sorted(after.items[win]) == sorted(before.items[win] + [item]), "the winner did not get the item"
    assert after.pos == before.pos and after.health == before.health and after.rng.state == before.rng.state


@PROPERTIES.step("turning a wall", rows=("122.1", "122.1b", "122.2"))
def turning_a_wall(before, action, after) -> None:
    """"If a player draws a wall dungeon token, then they get to decide which way it is facing ... The
    player does not need to roll, and also does not get any loot\": the chosen side of the room is
    blocked both ways, nothing else happens."""
    if action[0] != "wall":
        return
    g = after.game
    c = before.stack[-1].data
    if action[1] == "none":
        assert after.walls == before.walls and c not in after.facing
    else:
        d = "NESW".index(action[1])
        assert after.facing.get(c) == d, "the wall does not face the chosen side"
    assert after.rng.state == before.rng.state, "a die rolled for a wall"
    assert after.deck == before.deck and after.items == before.items, "loot from a wall room"
    assert after.pos == before.pos and after.health == before.health and not after.stack
    assert _tables(g)["type"][after.tokens[c]] == "wall"


@PROPERTIES.step("knowledge of token faces only grows as the rules say", rows=("17.7", "61.5", "17.9", "61.5b",
                                                                               "23.1", "61.14"))
def knowledge(before, action, after) -> None:
    """"The person who drew the token can read the token"; "without anyone else seeing"; "the player
    can look at the token to see what hazard awaits them"; "it remains on that space": nobody forgets,
    no token is replaced, and a seat learns a face only by drawing it, entering its room, or seeing it
    placed face up."""
    allowed: dict[int, int] = {}
    if action[0] == "move" and not before.stack:
        allowed[action[1]] = 1 << before.seat | FACE_UP
    elif action[0] == "place" and action[1] == "reveal":
        allowed[before.stack[-1].data] = FACE_UP
    for c, (kb, ka) in enumerate(zip(before.known, after.known)):
        assert ka & kb == kb, f"knowledge of room {c} was lost"
        gained = ka & ~kb
        assert not gained & ~allowed.get(c, 0), f"room {c}: {gained:b} learned its face by {action}"
        if before.tokens[c] is not None:
            assert after.tokens[c] == before.tokens[c], f"the token of room {c} changed"
    for c, d in before.facing.items():
        assert after.facing.get(c) == d, f"the wall of room {c} turned"
