"""Summoner's Quest rule properties: what the seed's rules make always true (see
:mod:`boardlab.engine.properties`).

Each property is written from the seed's words (``docs/rules/summoners-quest.md`` for the ledger's
readings) and recomputes what it checks from the state's fields: board distances, movement steps,
costs, combat damage and temple crossings are counted here again, never by calling the rules' own
helpers.  Pieces are named as the rules name them: ``"P2"`` seat 2's summoner, ``"S7"`` summon 7.
The space numbering is the board module's: ring ``0..31`` clockwise, gate ``k`` path
``32 + 3k, 33 + 3k, 34 + 3k``, then the chamber (the last space).
"""

from __future__ import annotations

from collections import Counter, deque
from typing import Any

from boardlab.engine.properties import PropertySet

PROPERTIES = PropertySet()

RING = 32
START_LIFE = 10
AT_WILL = ("summon", "cast", "equip", "use", "ability", "unequip", "trap", "open")
#: actions whose transition runs no card effect, no trap and no combat (only the turn's bookkeeping)
QUIET = ("roll", "summon", "equip", "unequip", "trap", "temple", "keep", "discard_draw", "stay_portal", "open",
         "stay", "end")
#: actions that may resolve a combat in their transition (a landing, a prompt answer inside one)
COMBAT_ACTIONS = ("move", "jump", "attack", "defend", "no_defend", "boost", "fight", "victim")


# -- reading the state (independently of the rules' helpers) ------------------------------------
def _opt(st: Any, key: str) -> Any:
    return st.game.option_values[key]


def _chamber(st: Any) -> int:
    return st.game.board.size - 1


def _pos(st: Any, pid: str) -> int | None:
    """The piece's space, or None when it is not on the board (a defeated summoner, a gone summon)."""
    if pid[0] == "P":
        s = int(pid[1:])
        return st.pos[s] if st.alive[s] else None
    m = st.summons.get(int(pid[1:]))
    return m.pos if m is not None else None


def _owner(st: Any, pid: str) -> int:
    return int(pid[1:]) if pid[0] == "P" else st.summons[int(pid[1:])].owner


def _pieces(st: Any) -> list[tuple[str, int, int]]:
    """Every piece on the board: ``(pid, owner, space)``."""
    out = [(f"P{s}", s, st.pos[s]) for s in range(st.game.players) if st.alive[s] and st.pos[s] >= 0]
    out.extend((f"S{u}", m.owner, m.pos) for u, m in st.summons.items())
    return out


def _at(st: Any, space: int) -> list[tuple[str, int]]:
    return [(pid, o) for pid, o, p in _pieces(st) if p == space]


def _enemies_at(st: Any, space: int, seat: int) -> list[str]:
    return [pid for pid, o in _at(st, space) if o != seat]


def _statuses(st: Any, pid: str) -> list[str]:
    if pid[0] == "P":
        return [x[0] for x in st.status[int(pid[1:])]]
    m = st.summons[int(pid[1:])]
    return [m.status] if m.status else []


def _equipment(st: Any, pid: str) -> list[str]:
    return st.equip[int(pid[1:])] if pid[0] == "P" else st.summons[int(pid[1:])].equip


def _passive(st: Any, pid: str, key: str) -> int:
    total = 0
    for cid in _equipment(st, pid):
        for k, v in st.game.cards[cid].passive:
            if k == key:
                total += v
    return total


def _card(st: Any, pid: str) -> Any:
    return None if pid[0] == "P" else st.game.cards[st.summons[int(pid[1:])].card]


def _gate_of(space: int) -> int | None:
    """The gate whose path (gate, hall a, hall b) holds ``space``; None on the ring or in the chamber."""
    if RING <= space < RING + 12:
        return (space - RING) // 3
    return None


def _back(st: Any, space: int, n: int) -> int:
    """``n`` spaces backwards: counter-clockwise on the ring, out of the halls toward the portal."""
    board = st.game.board
    ch = _chamber(st)
    for _ in range(n):
        if space == ch:
            break
        if space < RING:
            space = (space - 1) % RING
        else:
            k, j = divmod(space - RING, 3)
            space = board.portal_of_gate[k] if j == 0 else space - 1
    return space


def _forward(st: Any, space: int, n: int) -> set[tuple[int, int]]:
    """``(dest, gate)`` for every clockwise path of ``n`` spaces (the chamber ends a path early); gate is
    the gate turned into at a portal on the way (the start included) or -1."""
    board = st.game.board
    ch = _chamber(st)
    out: set[tuple[int, int]] = set()
    if space >= RING:
        left = ch - space if space == ch else 3 - (space - RING) % 3
        out.add((ch if n >= left else space + n, -1))
        return out
    out.add(((space + n) % RING, -1))
    for j in range(n):
        q = (space + j) % RING
        k = board.gate_of_portal.get(q)
        if k is not None:
            r = n - j  # steps left when turning into the gate: gate, hall a, hall b, chamber
            out.add(((RING + 3 * k, RING + 3 * k + 1, RING + 3 * k + 2, ch)[min(r, 4) - 1], k))
    return out


_DIST: dict[tuple[int, int], list[list[int]]] = {}


def _dist(st: Any, a: int, b: int) -> int:
    """Spaces between ``a`` and ``b`` along the board, either way; closed gates block."""
    board = st.game.board
    key = (id(board), st.gates)
    table = _DIST.get(key)
    if table is None:
        size = board.size
        adj: list[list[int]] = [[] for _ in range(size)]

        def link(x: int, y: int) -> None:
            adj[x].append(y)
            adj[y].append(x)

        for i in range(RING):
            link(i, (i + 1) % RING)
        for k in range(4):
            g = RING + 3 * k
            if st.gates >> k & 1:
                link(board.portal_of_gate[k], g)
            link(g, g + 1)
            link(g + 1, g + 2)
            link(g + 2, size - 1)
        table = []
        for src in range(size):
            d = [10**6] * size
            d[src] = 0
            q = deque([src])
            while q:
                u = q.popleft()
                for v in adj[u]:
                    if d[v] > d[u] + 1:
                        d[v] = d[u] + 1
                        q.append(v)
            table.append(d)
        _DIST[key] = table
    return table[a][b]


def _steps(st: Any, pid: str, roll: int) -> int:
    """The seed's "full roll", with the designed movement notes, items and statuses (ledger "Movement notes")."""
    n = roll + _passive(st, pid, "move")
    card = _card(st, pid)
    if card is not None:
        n += {"swift": 1, "slow": -1}.get(card.move, 0)
    sts = _statuses(st, pid)
    n += 2 * ("hasted" in sts) - 2 * ("slowed" in sts)
    return max(1, n)


def _cost(st: Any, seat: int, card: Any) -> int:
    """A card from the hand: its cost, 1 less on a mana temple but never below 1 (seed 30.2)."""
    cost = card.cost
    if st.pos[seat] >= 0 and st.game.board.kinds[st.pos[seat]] == "temple":
        cost = max(1, cost - 1) if cost >= 1 else cost
    return cost


def _wins(st: Any) -> list[int]:
    return list(st.usage.get("combat:won", [0] * st.game.players))


def _all_cards(st: Any) -> list[str]:
    cards = list(st.deck.draw_pile) + list(st.deck.discard_pile)
    for s in range(st.game.players):
        cards += st.hands[s] + st.equip[s]
    cards += [t[0] for t in st.traps.values()]
    for m in st.summons.values():
        cards.append(m.card)
        cards += m.equip
    return cards


def _new_turn(before: Any, after: Any) -> bool:
    """Exactly one turn started in the transition, and its player is alive and acting."""
    return after.turn == before.turn + 1 and after.winner is None and after.alive[after.active]


def _crosser(before: Any, action: tuple) -> int:
    """The seat whose summoner walks clockwise over or onto its own starting temple in ``action``, or -1."""
    if action[0] == "move" and (action[1] == "P" or action[1][0] == "B") and action[3] != -2:
        seat = before.active
        start, dest, gate = before.pos[seat], action[2], action[3]
        if start < RING:
            end = before.game.board.portal_of_gate[gate] if gate >= 0 else dest
            passed = {(start + i) % RING for i in range(1, (end - start) % RING + 1)}
            if before.start[seat] in passed:
                return seat
    return -1


# -- state properties ----------------------------------------------------------------------------
@PROPERTIES.state("pieces stand on the board", rows=("12.1", "12.1b", "13.1"))
def pieces_on_board(st):
    """One summoner token per player (2-4); every piece on the board stands on one of its 45 spaces."""
    n = st.game.players
    assert 2 <= n <= 4 and len(st.pos) == n == len(st.alive), (n, st.pos)
    size = st.game.board.size
    for s in range(n):
        if st.alive[s]:
            assert 0 <= st.pos[s] < size or (st.pos[s] == -1 and st.phase == "temple"), (s, st.pos[s], st.phase)
        else:
            assert st.pos[s] == -1, f"defeated summoner {s} still stands on {st.pos[s]}"
    for u, m in st.summons.items():
        assert 0 <= m.pos < size, (u, m.pos)
        assert st.alive[m.owner], f"summon {u} of defeated seat {m.owner} is on the board"


@PROPERTIES.state("centre pieces came through an open gate", rows=("36.3", "36.4", "38.1"))
def centre_through_open_gates(st):
    """A gate is the only way into the halls: a piece on gate k's path has gate k open; one in the
    chamber has some gate open."""
    ch = _chamber(st)
    for pid, _, p in _pieces(st):
        k = _gate_of(p)
        if k is not None:
            assert st.gates >> k & 1, f"{pid} stands on {p}, behind closed gate {k}"
        elif p == ch:
            assert st.gates, f"{pid} is in the chamber with every gate closed"


@PROPERTIES.state("each summoner starts on its own temple", rows=("22.4", "22.4b", "30.1"))
def own_temples(st):
    """In turn order each player picks a free mana temple; it is that player's starting space."""
    board = st.game.board
    chosen = [t for t in st.start if t != -1]
    assert len(set(chosen)) == len(chosen), f"two players share a temple: {st.start}"
    for s, t in enumerate(st.start):
        if t != -1:
            assert board.kinds[t] == "temple", f"seat {s} started on {board.kinds[t]} {t}"
    if st.phase == "temple":
        i = st.order.index(st.active)
        for j, s in enumerate(st.order):
            assert (st.start[s] != -1) == (j < i), f"temple choice out of turn order: {st.start}, {st.order}"
            if st.start[s] != -1:
                assert st.pos[s] == st.start[s], (s, st.pos[s], st.start[s])
    else:
        assert -1 not in st.start or st.phase == "over", st.start


@PROPERTIES.state("setup gives 10 life, 6 mana and the starting hand",
                  rows=("16.1", "17.1", "22.5", "22.5b", "56.1", "58.1"))
def setup_stones(st):
    """Until the first turn every player has 10 life stones, the starting mana and the starting hand."""
    if st.phase != "temple":
        return
    for s in range(st.game.players):
        assert st.life[s] == START_LIFE, (s, st.life[s])
        assert st.mana[s] == _opt(st, "start_mana") and st.used[s] == 0, (s, st.mana[s], st.used[s])
        assert len(st.hands[s]) == _opt(st, "starting_hand"), (s, st.hands[s])


@PROPERTIES.state("life stays within 0..10", rows=("58.3",))
def life_bounds(st):
    """Life stones can not be gained past 10; a summoner with none left is out."""
    for s in range(st.game.players):
        assert 0 <= st.life[s] <= START_LIFE, (s, st.life[s])
        assert (st.life[s] > 0) == st.alive[s], f"seat {s}: life {st.life[s]}, alive {st.alive[s]}"


@PROPERTIES.state("mana piles are never negative", rows=("56.2",))
def mana_piles(st):
    """Mana is taken from the active pile and moved to the used pile: neither pile goes below 0."""
    for s in range(st.game.players):
        assert st.mana[s] >= 0 and st.used[s] >= 0, (s, st.mana[s], st.used[s])


@PROPERTIES.state("hands hold at most 5 cards", rows=("26.1", "26.1b"))
def hand_limit(st):
    for s in range(st.game.players):
        assert len(st.hands[s]) <= _opt(st, "hand_limit"), (s, len(st.hands[s]))


@PROPERTIES.state("a defeated summoner leaves nothing behind", rows=("20.2", "20.2b"))
def defeated_leave(st):
    """Destroying a player destroys its minions: no summons, cards, items, statuses or hold remain."""
    for s in range(st.game.players):
        if st.alive[s]:
            continue
        assert st.life[s] == 0 and st.pos[s] == -1 and st.hold[s] == 0, (s, st.life[s], st.pos[s], st.hold[s])
        assert not st.hands[s] and not st.equip[s] and not st.status[s], (s, st.hands[s], st.equip[s], st.status[s])
        assert not [u for u, m in st.summons.items() if m.owner == s], f"seat {s} is out but has summons"


@PROPERTIES.state("the last summoner standing wins", rows=("20.3",))
def last_standing(st):
    alive = [s for s in range(st.game.players) if st.alive[s]]
    assert alive, "every summoner is out"
    if len(alive) == 1:
        assert st.winner == alive[0] and st.is_over(), f"only {alive[0]} stands but the winner is {st.winner}"
    if st.winner is not None:
        assert st.alive[st.winner], f"the winner {st.winner} is out"


@PROPERTIES.state("every card is in exactly one place", rows=("28.2", "28.4", "54.8"))
def card_conservation(st):
    """Draw pile, discard pile, hands, items, traps and summons hold each of the 100 cards exactly once."""
    cards = _all_cards(st)
    every = Counter(list(st.game.cards))
    if len(cards) != len(every) or Counter(cards) != every:
        extra = Counter(cards) - every
        missing = every - Counter(cards)
        raise AssertionError(f"cards twice: {sorted(extra)}; cards nowhere: {sorted(missing)}")


@PROPERTIES.state("a summon's damage stays below its life", rows=("60.1",))
def summon_damage(st):
    """When the counters reach the summon's life it is destroyed, so no summon on the board has that many."""
    for u, m in st.summons.items():
        life = st.game.cards[m.card].life
        assert 0 <= m.damage < life, f"summon {u} ({m.card}) has {m.damage} counters, life {life}"


@PROPERTIES.state("at most 3 items equipped", rows=("62.1", "62.1b"))
def equip_limit(st):
    """Up to 3 items at any one time, counted over the summoner and all its summons (ledger)."""
    for s in range(st.game.players):
        n = len(st.equip[s]) + sum(len(m.equip) for m in st.summons.values() if m.owner == s)
        assert n <= _opt(st, "equip_max"), (s, n)
    for u, m in st.summons.items():
        for cid in m.equip:
            assert st.game.cards[cid].type == "equip", (u, cid)
    for s in range(st.game.players):
        for cid in st.equip[s]:
            assert st.game.cards[cid].type == "equip", (s, cid)


@PROPERTIES.state("status effects: 3 on a player, 1 on a monster", rows=("64.2", "64.2b", "64.4"))
def status_limits(st):
    for s in range(st.game.players):
        names = [x[0] for x in st.status[s]]
        assert len(names) <= _opt(st, "player_status_max"), (s, names)
        assert len(set(names)) == len(names), f"seat {s} holds a status twice: {names}"
        assert all(x[1] > 0 for x in st.status[s]), (s, st.status[s])
    for u, m in st.summons.items():
        assert (m.status is None) == (m.status_turns == 0), (u, m.status, m.status_turns)


@PROPERTIES.state("only a summoner in the chamber holds it", rows=("38.4", "38.10", "20.3b"))
def hold_in_chamber(st):
    """The count of turns held is kept only while the summoner is on the chamber, and never passes 3."""
    ch = _chamber(st)
    for s in range(st.game.players):
        assert 0 <= st.hold[s] <= _opt(st, "hold_turns"), (s, st.hold[s])
        if st.hold[s]:
            assert st.alive[s] and st.pos[s] == ch, f"seat {s} holds {st.hold[s]} away from the chamber ({st.pos[s]})"


@PROPERTIES.state("at-will actions only before or after the move", rows=("52.1", "54.5", "54.6", "24.1b", "50.1b"))
def at_will_timing(st):
    """Spells, summons, items and traps are played before or after movement, never inside a landing."""
    acts = st.legal_actions()
    kinds = {a[0] for a in acts}
    if st.stack or st.phase not in ("pre", "post"):
        assert not kinds & set(AT_WILL), f"at-will actions {kinds & set(AT_WILL)} offered in phase {st.phase}"
    if not st.stack:
        if "roll" in kinds:
            assert st.phase == "pre", st.phase
        if "end" in kinds:
            assert st.phase == "post", st.phase
        if "move" in kinds:
            assert st.phase == "move", st.phase


@PROPERTIES.state("spells and abilities reach only within their range", rows=("52.2", "52.3b", "52.5", "48.5"))
def targets_in_range(st):
    """A range counts spaces from the user's space; no range or range 0 reaches only the user's space."""
    if st.stack or st.phase not in ("pre", "post"):
        return
    seat = st.active
    cards = st.game.cards
    for a in st.legal_actions():
        kind = a[0]
        if kind == "cast":
            src, card = f"P{seat}", cards[a[1]]
            rng, target = card.range, card.target
        elif kind == "use":
            holders = [p for p in [f"P{seat}"] + [f"S{u}" for u, m in st.summons.items() if m.owner == seat]
                       if a[1] in _equipment(st, p)]
            assert len(holders) == 1, (a, holders)
            src, ab = holders[0], cards[a[1]].ability
            rng, target = ab.range, ab.target
        elif kind == "ability":
            m = st.summons[a[1]]
            assert m.owner == seat, a
            src, ab = f"S{a[1]}", cards[m.card].ability
            rng, target = ab.range, ab.target
        else:
            continue
        here = _pos(st, src)
        t = a[2]
        there = t if isinstance(t, int) else _pos(st, t)
        assert there is not None, f"{a} aims at a piece not on the board"
        d = _dist(st, here, there)
        assert d <= (rng or 0), f"{a}: the target is {d} spaces from {src}, range {rng}"
        if target == "self":
            assert t == src, a
        elif target in ("enemy", "ally") and not isinstance(t, int):
            assert (_owner(st, t) == seat) == (target == "ally"), f"{a}: {target} card aimed at {t}"


@PROPERTIES.state("a monster is equipped within one space", rows=("54.9", "54.9b"))
def equip_within_one(st):
    """Equipping a monster requires the summoner token to be at least within one space of the monster."""
    if st.stack or st.phase not in ("pre", "post"):
        return
    seat = st.active
    for a in st.legal_actions():
        if a[0] != "equip":
            continue
        assert st.game.cards[a[1]].type == "equip", a
        if a[2] == f"P{seat}":
            continue
        assert a[2][0] == "S" and int(a[2][1:]) in st.summons and _owner(st, a[2]) == seat, a
        d = _dist(st, st.pos[seat], _pos(st, a[2]))
        assert d <= 1, f"{a}: the monster is {d} spaces from its summoner"


@PROPERTIES.state("one item ability per turn", rows=("54.7", "54.7b"))
def one_item_ability(st):
    if st.used_equip:
        assert not [a for a in st.legal_actions() if a[0] == "use"], "a second item ability is offered this turn"


@PROPERTIES.state("movement is mandatory", rows=("22.6b", "38.5", "38.9"))
def must_move(st):
    """After the roll a player moves if any piece of theirs can; pieces in the chamber never move by dice
    (so a summon outside still must roll and move)."""
    if st.stack or st.phase != "move":
        return
    seat = st.active
    ch = _chamber(st)
    mine = [pid for pid, o, _ in _pieces(st) if o == seat]
    movable = [p for p in mine if _pos(st, p) != ch and "stunned" not in _statuses(st, p)]
    acts = st.legal_actions()
    if movable:
        assert ("stay",) not in acts, f"stay offered while {movable} can move"
        assert acts, "no move for a movable piece"
    else:
        assert list(acts) == [("stay",)], acts


@PROPERTIES.state("the attacker chooses among every pair", rows=("42.2", "42.2b"))
def attack_pairs(st):
    """On a contested space the mover picks one attacker (of the pieces that landed) and one enemy target."""
    if not st.stack or st.stack[-1].kind != "attack":
        return
    pairs = [tuple(p) for p in st.stack[-1].data["pairs"]]
    space = st.flow["space"] if st.flow else None
    assert space is not None, "an attack prompt outside a landing"
    movers = {a for a, _ in pairs}
    enemies = set(_enemies_at(st, space, st.active))
    assert all(_pos(st, a) == space and _owner(st, a) == st.active for a in movers), (pairs, space)
    assert {t for _, t in pairs} == enemies, f"targets {sorted({t for _, t in pairs})}, enemies there {sorted(enemies)}"
    assert set(pairs) == {(a, t) for a in movers for t in enemies} and len(pairs) > 1, pairs


@PROPERTIES.state("the defender may defend with its summon", rows=("44.2", "44.2b"))
def defend_prompt(st):
    if not st.stack or st.stack[-1].kind != "defend":
        return
    pr = st.stack[-1]
    c = st.combat
    assert c is not None and c["def"] == f"P{pr.seat}", (c, pr.seat)
    mine = sorted(u for u, m in st.summons.items() if m.owner == pr.seat and m.pos == c["space"])
    assert sorted(pr.data["summons"]) == mine and mine, (pr.data, mine)


@PROPERTIES.state("combat abilities come before the dice", rows=("48.6", "48.6b"))
def combat_abilities_before_dice(st):
    """A summon's combat ability is offered only while a combat waits for its dice, to a summon fighting it."""
    acts = st.legal_actions()
    boosts = [a for a in acts if a[0] == "boost"]
    if not boosts:
        return
    c = st.combat
    assert c is not None and c["stage"] == "abilities", f"ability offered outside a combat's ability stage: {c}"
    for a in boosts:
        assert f"S{a[1]}" in (c["att"], c["def"]), f"{a}: not fighting {c['att']} vs {c['def']}"


@PROPERTIES.state("summoning needs a space to itself", rows=("24.2", "24.2b"))
def summon_free_space(st):
    """A player may not cast a summon if there is another player or summon on its token's square."""
    if st.stack or st.phase not in ("pre", "post"):
        return
    seat = st.active
    if any(a[0] == "summon" for a in st.legal_actions()):
        others = [pid for pid, _ in _at(st, st.pos[seat]) if pid != f"P{seat}"]
        assert not others, f"summoning offered beside {others}"


@PROPERTIES.state("a seat sees no other seat's secrets", rows=("50.1b", "26.1"))
def no_secret_in_view(st):
    """A seat sees its own hand and its own traps' cards; other hands, the deck order and others' trap
    cards never appear in its view."""
    n = st.game.players
    secret_of_all = set(st.deck.draw_pile)
    for seat in range(n):
        secret = set(secret_of_all)
        for s in range(n):
            if s != seat:
                secret.update(st.hands[s])
        secret.update(c for c, o in st.traps.values() if o != seat)
        if not secret:
            continue
        seen = _strings(st.view(seat)["state"])
        leak = secret & seen
        assert not leak, f"seat {seat} sees hidden cards {sorted(leak)}"


def _strings(x: Any, out: set[str] | None = None) -> set[str]:
    out = set() if out is None else out
    if isinstance(x, str):
        out.add(x)
    elif isinstance(x, dict):
        for k, v in x.items():
            if k != "hand":  # the seat's own hand is its own
                _strings(v, out)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _strings(v, out)
    return out


# -- step properties -------------------------------------------------------------------------------
@PROPERTIES.step("turns follow the rolled order", rows=("22.1",))
def turn_order(before, action, after):
    """The highest roll goes first, the second highest second and so forth, round after round."""
    assert after.order == before.order, (before.order, after.order)
    n = before.game.players
    assert sorted(after.order) == list(range(n)), after.order
    if action[0] == "temple" and after.phase == "temple":
        assert after.active == before.order[before.order.index(before.active) + 1], (before.active, after.active)
    if after.turn > before.turn and after.winner is None and action[0] in ("end", "temple"):
        if action[0] == "temple":
            assert after.active == after.order[0], (after.active, after.order)
            return
        order = before.order
        i = order.index(before.active)
        nxt = next(order[(i + j) % n] for j in range(1, n + 1) if after.alive[order[(i + j) % n]])
        assert after.active == nxt, f"turn passed from {before.active} to {after.active}, not {nxt}"


@PROPERTIES.step("dice are rolled only to move", rows=("22.6", "40.1"))
def roll_for_move(before, action, after):
    """Movement is determined by the roll of 2d6: a roll gives two six-sided dice, and a move uses them."""
    if action[0] == "roll":
        assert before.phase == "pre" and not before.stack, before.phase
        assert len(after.dice) == 2 and all(1 <= d <= 6 for d in after.dice), after.dice
        assert after.phase == "move", after.phase
    elif action[0] == "move":
        assert before.phase == "move" and len(before.dice) == 2, (before.phase, before.dice)
    elif action[0] not in ("end",) and after.winner is None and after.turn == before.turn:
        assert after.dice == before.dice, (action, before.dice, after.dice)


@PROPERTIES.step("a move goes the full roll",
                 rows=("40.2", "40.3b", "36.5", "38.1", "38.3", "38.3b", "40.4", "40.4b", "40.6", "38.5"))
def full_roll(before, action, after):
    """The mover goes the full roll (a summoner alone or one summon; a summoner with its summon half the
    roll, rounded down); clockwise, into a gate only from a portal, one-way through the halls; summons may
    go backwards on the ring; a reversed piece only backwards.  Nobody moves out of the chamber by dice."""
    if action[0] != "move":
        return
    _, who, dest, gate = action
    seat = before.active
    roll = sum(before.dice)
    ch = _chamber(before)
    if who == "P":
        lead, movers, n = f"P{seat}", [f"P{seat}"], None
    else:
        sid = f"S{who[1:]}"
        assert int(who[1:]) in before.summons and _owner(before, sid) == seat, action
        lead, movers = (sid, [sid]) if who[0] == "S" else (f"P{seat}", [f"P{seat}", sid])
    for p in movers:
        assert _pos(before, p) != ch, f"{p} moved out of the chamber by dice"
        assert "stunned" not in _statuses(before, p), f"stunned {p} moved"
    start = _pos(before, lead)
    if who[0] == "B":
        assert _pos(before, movers[1]) == start, f"{action}: the pair is not on one space"
        assert not any("reversed" in _statuses(before, p) for p in movers), action
        n = max(1, roll // 2)
    else:
        n = _steps(before, lead, roll)
    reversed_ = "reversed" in _statuses(before, lead)
    if gate == -2:
        assert reversed_ or (who[0] == "S" and start < RING), f"{action}: backwards from {start} not allowed"
        assert dest == _back(before, start, n), f"{action}: {n} back from {start} is {_back(before, start, n)}"
        return
    assert not reversed_, f"{action}: a reversed piece moved clockwise"
    ok = _forward(before, start, n)
    assert (dest, gate) in ok, f"{action}: {n} spaces clockwise from {start} reach {sorted(ok)}"


@PROPERTIES.step("maximum mana grows only by crossing the own temple clockwise", rows=("30.3", "30.3b", "30.4", "56.4"))
def temple_crossing(before, action, after):
    """Mana stones are only moved between the active and the used pile, except that a summoner walking
    clockwise over (or onto) its own starting temple gains two more (never a jump, effect or backward move)."""
    crossed = _crosser(before, action)
    for s in range(before.game.players):
        delta = (after.mana[s] + after.used[s]) - (before.mana[s] + before.used[s])
        want = 2 if s == crossed else 0
        assert delta == want, f"seat {s}: mana total changed by {delta}, want {want} ({action})"


@PROPERTIES.step("two used mana return at the start of a turn", rows=("56.3",))
def mana_recovery(before, action, after):
    if action[0] not in ("end", "temple") or not _new_turn(before, after):
        return
    a = after.active
    k = min(_opt(before, "mana_recovery"), before.used[a])
    assert after.mana[a] == before.mana[a] + k and after.used[a] == before.used[a] - k, \
        f"seat {a}: mana {before.mana[a]}->{after.mana[a]}, used {before.used[a]}->{after.used[a]}, want {k} back"


@PROPERTIES.step("cards and gates cost what the seed says",
                 rows=("24.1", "30.2", "30.2b", "48.1", "50.1", "54.3", "54.3b", "56.2", "36.4"))
def costs(before, action, after):
    """A card from the hand costs its mana (1 less on a mana temple, never below 1); traps cost nothing;
    an ability or item ability its own cost; a gate 10; an open gate is crossed for free.  Mana paid
    moves from the active pile to the used pile."""
    seat = before.active
    cards = before.game.cards
    kind = action[0]
    effects: tuple = ()
    if kind in ("summon", "cast", "equip"):
        card = cards[action[1]]
        cost, effects = _cost(before, seat, card), card.effects
    elif kind == "trap":
        cost = 0
    elif kind == "ability":
        ab = cards[before.summons[action[1]].card].ability
        cost, effects = ab.cost, ab.effects
    elif kind == "use":
        ab = cards[action[1]].ability
        cost, effects = ab.cost, ab.effects
    elif kind == "open":
        cost = _opt(before, "gate_cost")
    elif kind == "move":
        dest, gate = action[2], action[3]
        if dest in before.traps or _enemies_at(before, dest, seat) or after.winner is not None:
            return  # a trap or a combat on landing may move mana too
        cost = _opt(before, "gate_cost") if gate >= 0 and not before.gates >> gate & 1 else 0
    else:
        return
    if any(e[0] in ("mana", "drain") for e in effects):
        return  # the card itself moves mana
    paid = after.used[seat] - before.used[seat]
    gain = 2 if _crosser(before, action) == seat else 0
    assert paid == cost and before.mana[seat] + gain - after.mana[seat] == cost, \
        f"{action}: paid {paid} (active {before.mana[seat]}->{after.mana[seat]}), want {cost}"


@PROPERTIES.step("a gate opens only when paid for", rows=("36.3", "36.3b"))
def gate_opening(before, action, after):
    """Gates never close; a new one is opened by a player with 10 mana: while moving through it, or (in
    the gates-at-will variant) by the at-will action."""
    assert after.gates & before.gates == before.gates, f"a gate closed: {before.gates:04b} -> {after.gates:04b}"
    new = after.gates & ~before.gates
    if not new:
        return
    assert bin(new).count("1") == 1, f"two gates opened at once: {new:04b}"
    k = new.bit_length() - 1
    assert before.mana[before.active] >= _opt(before, "gate_cost"), f"gate {k} opened with {before.mana[before.active]} mana"
    if _opt(before, "gate_opening") == "moving":
        assert action[0] == "move" and action[3] == k, f"gate {k} opened by {action}"
    else:
        assert action == ("open", k), f"gate {k} opened by {action}"


@PROPERTIES.step("a focus point draws for the summoner", rows=("32.2", "32.2b", "32.3", "66.6", "26.2"))
def focus_draw(before, action, after):
    """A summoner landing on a focus point draws a card unless it holds 5 (then it may discard one to
    draw); summons draw nothing; drawing is the space effect, after traps and combat."""
    if action[0] != "move":
        return
    seat = before.active
    dest = action[2]
    if dest in before.traps or _enemies_at(before, dest, seat):
        return
    h0, h1 = len(before.hands[seat]), len(after.hands[seat])
    summoner_lands = action[1] == "P" or action[1][0] == "B"
    can_draw = bool(before.deck.draw_pile or before.deck.discard_pile)
    limit = _opt(before, "hand_limit")
    if before.game.board.kinds[dest] == "focus" and summoner_lands:
        if h0 < limit:
            assert h1 == h0 + (1 if can_draw else 0), f"{action}: hand {h0} -> {h1}"
        else:
            assert h1 == h0, (h0, h1)
            if can_draw:
                assert after.stack and after.stack[-1].kind == "hand_full", "no discard-to-draw choice at a full hand"
    else:
        assert h1 == h0, f"{action}: the hand changed {h0} -> {h1} off a focus point"


@PROPERTIES.step("a full hand discards before drawing", rows=("26.2", "26.2b"))
def discard_to_draw(before, action, after):
    if action[0] != "discard_draw":
        return
    s = before.stack[-1].seat
    limit = _opt(before, "hand_limit")
    assert len(before.hands[s]) == limit, f"discard-to-draw with {len(before.hands[s])} cards"
    assert action[1] in before.hands[s], action
    assert len(after.hands[s]) == limit, f"the hand holds {len(after.hands[s])} after discarding to draw"


@PROPERTIES.step("a portal jumps clockwise to the next portal", rows=("34.2", "34.2b"))
def portal_jump(before, action, after):
    """Landing on a portal offers the jump; a jump goes clockwise to the next portal."""
    board = before.game.board
    if action[0] == "move":
        dest = action[2]
        if (board.kinds[dest] == "portal" and dest not in before.traps and not _enemies_at(before, dest, before.active)
                and after.winner is None):
            assert after.stack and after.stack[-1].kind == "portal", f"{action}: no portal choice on landing"
    if action[0] != "jump":
        return
    pr = before.stack[-1]
    p = pr.data["space"]
    assert board.kinds[p] == "portal", p
    nxt = min((q for q in board.portals if q > p), default=min(board.portals))
    for m in pr.data["movers"]:
        now = _pos(after, m)
        if now is None or now == nxt:
            continue
        assert nxt in before.traps or _enemies_at(before, nxt, before.active), f"{m} jumped from {p} to {now}, not {nxt}"


@PROPERTIES.step("a piece leaves the chamber only when evicted",
                 rows=("38.5", "38.5b", "38.6", "38.6b", "38.7", "38.7b", "38.10"))
def chamber_exits(before, action, after):
    """Nobody leaves the chamber but by losing a combat there: a defending occupant goes to a portal outside
    an open gate, an attacker one space out (the last hall of an open gate); an evicted summoner's hold is reset."""
    ch = _chamber(before)
    for pid, _, p in _pieces(before):
        if p != ch:
            continue
        now = _pos(after, pid)
        if now is None or now == ch:
            continue
        assert action[0] in COMBAT_ACTIONS, f"{pid} left the chamber by {action}"
        board = before.game.board
        portal_ok = board.kinds[now] == "portal" and after.gates >> board.gate_of_portal[now] & 1
        hall_ok = _gate_of(now) is not None and (now - RING) % 3 == 2 and after.gates >> _gate_of(now) & 1
        assert portal_ok or hall_ok, f"{pid} went from the chamber to {now}"
        if pid[0] == "P":
            assert after.hold[int(pid[1:])] == 0, f"{pid} was evicted but keeps hold {after.hold[int(pid[1:])]}"


@PROPERTIES.step("the chamber is won by holding it three turns", rows=("20.3b", "38.4", "38.4b"))
def chamber_win(before, action, after):
    """A summoner in the chamber whose hold reached 3 wins at the end of that turn, and only then."""
    a = before.active
    ch = _chamber(before)
    held = (action == ("end",) and before.alive[a] and before.pos[a] == ch and before.hold[a] >= _opt(before, "hold_turns")
            and before.winner is None)
    if held:
        assert after.winner == a, f"seat {a} held the chamber {before.hold[a]} turns but did not win"
    if after.winner is not None and before.winner is None and sum(after.alive) > 1:
        assert held, f"seat {after.winner} won by {action} without holding the chamber"


@PROPERTIES.step("the hold counts the holder's turns in the chamber", rows=("38.4b", "38.10", "20.3b"))
def hold_counts(before, action, after):
    """At the start of each of its turns a summoner on the chamber adds 1; leaving (eviction) resets it;
    nothing else changes it."""
    ch = _chamber(before)
    for s in range(before.game.players):
        b, a = before.hold[s], after.hold[s]
        stayed = after.alive[s] and before.pos[s] == ch == after.pos[s]
        # a turn of s began in this transition (the turns of seats defeated by poison at their own start
        # may come first, so the turn count may grow by more than one)
        started = after.turn > before.turn and after.active == s and after.alive[s]
        if a == b + 1:
            assert started and stayed, f"seat {s}'s hold grew {b} -> {a} outside its turn start in the chamber"
        elif a == b:
            assert not (started and stayed and after.winner is None), f"seat {s} began a turn in the chamber uncounted"
        else:
            assert a == 0 and not stayed, f"seat {s}: hold {b} -> {a} ({action})"


@PROPERTIES.step("combat happens on landing on an enemy", rows=("42.1", "44.1", "66.4", "66.4b"))
def combat_on_landing(before, action, after):
    """A player attacks when its token or summon moves onto a space with another player's piece; traps
    come first, and a trap that moves its victim away leaves no combat."""
    w0, w1 = sum(_wins(before)), sum(_wins(after))
    assert w1 - w0 in (0, 1), f"{w1 - w0} combats in one transition"
    if w1 > w0:
        assert action[0] in COMBAT_ACTIONS, f"a combat resolved on {action}"
    if action[0] != "move":
        return
    seat, dest = before.active, action[2]
    enemies = _enemies_at(before, dest, seat)
    fighting = w1 > w0 or (after.stack and after.stack[-1].kind in ("attack", "defend", "precombat")) \
        or after.combat is not None
    if dest in before.traps:
        lander = f"P{seat}" if action[1] == "P" else f"S{action[1][1:]}" if action[1][0] == "S" else None
        now = _pos(after, lander) if lander else dest
        if lander and now != dest and fighting:
            # then the trap left the lander in place, and it lost the combat and moved back from there
            lost = after.usage.get("combat:lost", [0] * before.game.players)[seat] - \
                before.usage.get("combat:lost", [0] * before.game.players)[seat]
            ok = now is None or now == _back(before, dest, 1) or dest == _chamber(before)
            assert w1 > w0 and lost == 1 and ok, f"{action}: the trap moved {lander} to {now}, yet a combat followed"
        return
    if enemies:
        assert fighting or after.winner is not None, f"{action}: landed on {enemies} without a combat"
    else:
        assert not fighting, f"{action}: a combat on an empty space"


def _fight(before: Any, action: tuple, after: Any) -> tuple[str, str, int, dict, str, str] | None:
    """The combat resolved in this transition, when the transition makes it plain: ``(attacker,
    defender, space, bonuses, winner, loser)``; None otherwise."""
    w0, w1 = _wins(before), _wins(after)
    if sum(w1) - sum(w0) != 1:
        return None
    if before.combat is not None:
        if action[0] == "boost":
            return None
        att, dfn, space, bonus = before.combat["att"], before.combat["def"], before.combat["space"], before.combat["bonus"]
        if action[0] == "defend":
            dfn = f"S{action[1]}"
    elif action[0] == "attack":
        att, dfn, bonus = action[1], action[2], {}
        space = _pos(before, dfn)
    elif action[0] == "move" and action[1][0] in "PS":
        dest = action[2]
        enemies = _enemies_at(before, dest, before.active)
        if dest in before.traps or len(enemies) != 1:
            return None
        att = f"P{before.active}" if action[1] == "P" else f"S{action[1][1:]}"
        dfn, space, bonus = enemies[0], dest, {}
    else:
        return None
    won = [s for s in range(before.game.players) if w1[s] > w0[s]][0]
    winner, loser = (att, dfn) if won == _owner(before, att) else (dfn, att)
    assert won == _owner(before, winner), (won, att, dfn)
    return att, dfn, space, bonus, winner, loser


@PROPERTIES.step("combat damage is what the seed says", rows=("42.4", "42.5", "42.6", "42.6b", "42.3c", "44.3", "60.1"))
def combat_damage(before, action, after):
    """The winner deals damage: a summon its Attack, a summoner 2 plus modifiers, or its current life
    against a summon (whoever attacked); shielded and guard items take 1 off each; a summon whose counters
    reach its life is destroyed, a summoner at 0 life is out."""
    f = _fight(before, action, after)
    if f is None:
        return
    att, dfn, space, bonus, winner, loser = f
    extra = bonus.get(winner, [0, 0])[1] + _passive(before, winner, "attack")
    card = _card(before, winner)
    if card is not None:
        hit = card.attack + extra
    elif loser[0] == "S":
        hit = before.life[int(winner[1:])]
    else:
        hit = 2 + extra
    n = max(0, hit - _passive(before, loser, "guard") - ("shielded" in _statuses(before, loser)))
    if loser[0] == "P":
        s = int(loser[1:])
        want = max(0, before.life[s] - n)
        assert after.life[s] == want, f"{winner} beat {loser}: life {before.life[s]} -> {after.life[s]}, want {want} (hit {n})"
    else:
        u = int(loser[1:])
        m = before.summons[u]
        life = before.game.cards[m.card].life
        if m.damage + n >= life:
            assert u not in after.summons, f"{loser} took {n} with {m.damage}/{life} counters and survived"
        else:
            assert u in after.summons and after.summons[u].damage == m.damage + n, \
                f"{winner} beat {loser}: counters {m.damage} -> {after.summons.get(u) and after.summons[u].damage}, want +{n}"
    if after.turn != before.turn:
        return  # the attacker fell and the next turn began: poison may bite the winner at its start
    if winner[0] == "P":
        s = int(winner[1:])
        assert after.life[s] == before.life[s], f"the winner {winner} lost life"
    elif int(winner[1:]) in after.summons:
        assert after.summons[int(winner[1:])].damage == before.summons[int(winner[1:])].damage, f"the winner {winner} took damage"


@PROPERTIES.step("the loser of a combat moves back one space",
                 rows=("46.1", "46.1b", "46.1c", "46.2", "46.2b", "38.6", "38.7"))
def post_combat(before, action, after):
    """A losing attacker moves back one space from where it landed (then only that space's effect); a
    losing defender is moved backwards one space.  In the chamber an occupant is evicted to a portal, and
    an attacker beaten by (or beating) a monster beside its summoner goes one space out."""
    f = _fight(before, action, after)
    if f is None or after.winner is not None:
        return
    att, dfn, space, _, winner, loser = f
    ch = _chamber(before)
    now = _pos(after, loser)
    steadfast = (_card(before, loser) is not None and _card(before, loser).move == "steadfast")

    def last_hall(p: int | None) -> bool:
        return p is not None and _gate_of(p) is not None and (p - RING) % 3 == 2 and bool(after.gates >> _gate_of(p) & 1)

    if winner == att:
        owner = _owner(before, dfn)
        if space == ch and dfn[0] == "S" and before.alive[owner] and before.pos[owner] == ch:
            assert last_hall(_pos(after, att)), f"{att} beat a monster beside its summoner but stands on {_pos(after, att)}"
            return
        if now is None:
            return
        assert _pos(after, att) == space, f"the winning attacker {att} left {space}"
        if space == ch:
            board = before.game.board
            assert board.kinds[now] == "portal" and after.gates >> board.gate_of_portal[now] & 1, f"{dfn} evicted to {now}"
        else:
            want = space if steadfast else _back(before, space, 1)
            assert now == want, f"the losing defender {dfn} stands on {now}, want {want}"
    else:
        if now is None:
            return
        if space == ch:
            assert last_hall(now), f"the losing attacker {att} stands on {now}, not a last hall"
        else:
            want = space if steadfast else _back(before, space, 1)
            assert now == want, f"the losing attacker {att} stands on {now}, want {want}"
        if _pos(after, dfn) is not None:
            assert _pos(after, dfn) == space, f"the winning defender {dfn} moved"


@PROPERTIES.step("a trap springs on whoever lands on it, once",
                 rows=("50.2", "50.3b", "50.7", "50.7b", "66.1", "66.3", "66.3b", "42.1b"))
def traps_on_landing(before, action, after):
    """Landing on a trap springs it (anyone's, the placer's own pieces too) and it is then gone; a pair
    landing together first chooses who takes it.  Spaces passed over spring nothing.  A ward item negates
    the trap before its roll."""
    if action[0] != "move":
        return
    dest = action[2]
    untouched = {sp: t for sp, t in before.traps.items() if sp != dest}
    for sp, t in untouched.items():
        assert after.traps.get(sp) == t, f"{action}: the trap on {sp}, passed or elsewhere, changed"
    if dest not in before.traps:
        return
    seat = before.active
    if action[1][0] == "B":
        assert after.stack and after.stack[-1].kind == "trap_victim", f"{action}: the pair was not asked who takes the trap"
        assert sorted(after.stack[-1].data["movers"]) == sorted([f"P{seat}", f"S{action[1][1:]}"]), after.stack[-1].data
        assert after.traps.get(dest) == before.traps[dest], "the trap sprang before the victim was chosen"
        return
    assert before.traps[dest] != after.traps.get(dest), f"{action}: the trap on {dest} did not spring"
    cid = before.traps[dest][0]
    assert cid in after.deck.discard_pile or cid in after.deck.draw_pile or any(cid in h for h in after.hands), \
        f"the sprung trap {cid} is not in the discard pile"
    lander = f"P{seat}" if action[1] == "P" else f"S{action[1][1:]}"
    wards = [c for c in _equipment(before, lander) if before.game.cards[c].passive_value("ward")]
    if wards and not _enemies_at(before, dest, seat):
        assert _pos(after, lander) == dest, f"{lander} carries a ward yet the trap moved it"
        assert set(_statuses(after, lander)) <= set(_statuses(before, lander)), f"{lander}'s ward did not stop the trap"


@PROPERTIES.step("statuses come from spells, traps and abilities", rows=("64.1",))
def status_sources(before, action, after):
    """Status effects are accumulated by spells, traps or abilities: a transition that plays none of
    them gives no piece a new status or a longer one."""
    if action[0] not in QUIET:
        return
    for s in range(before.game.players):
        old = {x[0]: x[1] for x in before.status[s]}
        for name, t in after.status[s]:
            assert name in old and t <= old[name], f"seat {s} gained {name} ({t}) by {action}"
    for u, m in after.summons.items():
        if u in before.summons and m.status is not None:
            b = before.summons[u]
            assert m.status == b.status and m.status_turns <= b.status_turns, f"summon {u} gained {m.status} by {action}"


@PROPERTIES.step("status counts tick at the end of the holder's turn", rows=("64.1b",))
def status_ticks(before, action, after):
    """A status's count drops by one at the end of each of its holder's turns and by nothing else."""
    if action[0] != "end" or not _new_turn(before, after):
        return
    a = before.active
    for s in range(before.game.players):
        if not after.alive[s]:
            continue
        want = [[n, t - 1] for n, t in before.status[s] if t > 1] if s == a else [list(x) for x in before.status[s]]
        assert [list(x) for x in after.status[s]] == want, f"seat {s}: statuses {before.status[s]} -> {after.status[s]}, want {want}"
    for u, m in after.summons.items():
        b = before.summons.get(u)
        if b is None:
            continue
        if b.owner == a:
            want = (b.status, b.status_turns - 1) if b.status_turns > 1 else (None, 0)
        else:
            want = (b.status, b.status_turns)
        assert (m.status, m.status_turns) == want, f"summon {u}: {(b.status, b.status_turns)} -> {(m.status, m.status_turns)}"


@PROPERTIES.step("life returns only through cards and abilities", rows=("58.3",))
def life_regain(before, action, after):
    """The player can recover life through card effects or summon abilities, in no other way."""
    if action[0] in ("cast", "use", "ability", "boost"):
        return
    for s in range(before.game.players):
        assert after.life[s] <= before.life[s], f"seat {s} regained life by {action}"
    for u, m in after.summons.items():
        if u in before.summons:
            assert m.damage >= before.summons[u].damage, f"summon {u} healed by {action}"


@PROPERTIES.step("area spells spare the caster's own pieces", rows=("52.4", "52.4b"))
def area_spells(before, action, after):
    if action[0] != "cast" or not isinstance(action[2], int):
        return
    seat = before.active
    assert after.life[seat] >= before.life[seat], "an area spell hurt its caster"
    for u, m in before.summons.items():
        if m.owner == seat:
            assert u in after.summons and after.summons[u].damage <= m.damage, f"an area spell hurt the caster's summon {u}"


@PROPERTIES.step("played cards go where the rules put them", rows=("28.2", "52.6", "54.4", "54.8", "24.1"))
def played_cards(before, action, after):
    """A spell is expended to the discard pile; a summon appears on its summoner's space; an item goes on
    the piece it equips; an expended item is discarded after use, a perpetual one stays; a discarded item
    goes to the discard pile."""
    kind = action[0]
    seat = before.active
    if kind not in ("summon", "cast", "equip", "trap", "use", "unequip"):
        return
    cid = action[1]
    if kind in ("summon", "cast", "equip", "trap"):
        assert cid in before.hands[seat] and cid not in after.hands[seat], f"{action}: not played from the hand"
    piles = set(after.deck.discard_pile) | set(after.deck.draw_pile)
    if kind == "cast":
        assert cid in piles, f"the spell {cid} was not discarded"
    elif kind == "summon":
        new = [m for u, m in after.summons.items() if u not in before.summons]
        assert len(new) == 1 and new[0].card == cid and new[0].owner == seat and new[0].pos == before.pos[seat], \
            f"{action}: new summons {new}"
    elif kind == "equip":
        assert cid in _equipment(after, action[2]), f"{action}: the item is not on {action[2]}"
    elif kind == "trap":
        assert after.traps.get(action[2]) == [cid, seat], f"{action}: trap {after.traps.get(action[2])}"
    elif kind == "unequip":
        assert cid in piles, f"the discarded item {cid} is not in the discard pile"
    elif kind == "use":
        holder = [p for p in [f"P{seat}"] + [f"S{u}" for u, m in before.summons.items() if m.owner == seat]
                  if cid in _equipment(before, p)][0]
        card = before.game.cards[cid]
        if card.lasting == "expended":
            assert cid in piles, f"the expended item {cid} was not discarded"
        elif _pos(after, holder) is not None and not any(e[0] == "shatter" for e in card.ability.effects):
            assert cid in _equipment(after, holder), f"the perpetual item {cid} left {holder} on use"


@PROPERTIES.step("one item ability per turn (the step)", rows=("54.7",))
def one_use(before, action, after):
    if action[0] == "use":
        assert not before.used_equip, "a second item ability this turn"
        assert after.used_equip or after.winner is not None, "an item ability was not counted"
    if action[0] != "end" and after.turn == before.turn and before.used_equip:
        assert after.used_equip, f"the item ability count was reset by {action}"


@PROPERTIES.step("a card leaves a hand only when a rule says so", rows=("28.1", "28.1b"))
def hand_leaves(before, action, after):
    """No at-will discard (ledger "Discarding from the hand"): a card leaves a hand when played, when
    discarded to draw at a full focus point, by a discard effect, or when its holder is defeated; cards
    that leave unplayed go to the discard pile."""
    seat = before.active
    piles = set(after.deck.discard_pile) | set(after.deck.draw_pile)
    for s in range(before.game.players):
        lost = set(before.hands[s]) - set(after.hands[s])
        if not lost:
            continue
        played = {action[1]} if (action[0] in ("summon", "cast", "equip", "trap") and s == seat) else set()
        if action[0] == "discard_draw" and before.stack and before.stack[-1].seat == s:
            played = {action[1]}
        rest = lost - played
        if not rest or not after.alive[s]:
            continue
        assert action[0] not in QUIET, f"seat {s} lost {sorted(rest)} on {action}"
        assert rest <= piles, f"seat {s}'s cards {sorted(rest - piles)} went somewhere other than the discard pile"


@PROPERTIES.step("the discard pile is reshuffled only when the deck is empty", rows=("28.4",))
def reshuffle(before, action, after):
    """The discard pile may not be interacted with until all cards have been drawn."""
    back = set(after.deck.draw_pile) & set(before.deck.discard_pile)
    if back:
        stale = set(after.deck.draw_pile) & set(before.deck.draw_pile)
        assert not stale, f"the discard pile was reshuffled while {len(stale)} cards were still to draw"
    gained = set()
    for s in range(before.game.players):
        gained |= set(after.hands[s]) - set(before.hands[s])
    if gained & set(before.deck.discard_pile):
        stale = set(after.deck.draw_pile) & set(before.deck.draw_pile)
        assert not stale, f"{sorted(gained & set(before.deck.discard_pile))} drawn from the discard pile while the deck had cards"
