"""Blackfire's rule properties: what the seed's rules make true in every position and every transition.

Each property is written from the seed's words (``seeds/000_de3e87ca33c17c6f.txt``) and the readings of
``docs/rules/blackfire.md`` ("Interpretation ledger", cited as "ledger N"), not from the rules' helpers:
movement is re-walked square by square over the castle's walls, distances are the castle's walking
(or, for Displace and Teleport, straight) distances, and what happened in a transition is read from the
fields of the position before and after it (never from the event log, which simulations switch off).
The rows named are ids of ``docs/rules/blackfire.concordance.csv``; ``boardlab.engine.properties``
explains how the properties are run.
"""

from __future__ import annotations

from typing import Any

from boardlab.engine.properties import PropertySet

from .content import TOKEN_KINDS
from .pieces import ARCHER, DEFENSIVE, GREEN, OFFENSIVE, RED, SORCERER, WARRIOR

PROPERTIES = PropertySet()

_STOPS = ("move", "jump", "displace")  # actions that make a unit stop on a square


# -- small readers of a position (no rules helpers) -------------------------------------------------
def _castle(s: Any) -> Any:
    return s.game.castle


def _opt(s: Any) -> dict[str, Any]:
    return s.game.opt


def _side_units(side: int) -> range:
    return range(side * 3, side * 3 + 3)


def _walk(s: Any, a: int, b: int) -> int:
    """Walking distance (orthogonal steps crossing no wall and no inaccessible square; ledger 7)."""
    return _castle(s).dist[a][b]


def _straight(s: Any, a: int, b: int) -> int:
    w = _castle(s).width
    return abs(a % w - b % w) + abs(a // w - b // w)


def _accessible(s: Any, c: int) -> bool:
    castle = _castle(s)
    return 0 <= c < castle.width * castle.height and castle.chars[c] != "#"


def _start_of(s: Any, side: int) -> int:
    castle = _castle(s)
    return castle.green_start if side == GREEN else castle.red_starts[s.red_start]


def _guarded(v: Any) -> bool:
    return v.kind == WARRIOR and v.stance == DEFENSIVE


def _picked(before: Any, after: Any) -> dict[int, str]:
    """Face-down tokens that left the board in this transition: cell -> kind."""
    return {c: k for c, k in before.tokens.items() if c not in after.tokens}


def _shield_used(before: Any, after: Any, u: int) -> bool:
    """Unit ``u``'s invulnerability took an attack in this transition.  Archers fire before a stop's
    pick-up, so a unit whose shield absorbs the shot and which then picks up an Invulnerable token on that
    square ends the transition shielded again, by the new token (found by a heuristic playout: seed
    41710974 of ``tests/blackfire/test_properties.py``)."""
    was, now = before.units[u].inv_until, after.units[u].inv_until
    if was is None:
        return False
    if now is None:
        return True
    cell = after.units[u].cell
    return now != was and cell is not None and _picked(before, after).get(cell) == "invulnerable"


def _contests(before: Any, after: Any) -> int:
    return sum(after.stats["rule:archer-contest"]) - sum(before.stats["rule:archer-contest"])


def _acting_side(before: Any) -> int | None:
    """The side whose decision the transition was (the top prompt's seat, or the side to move)."""
    if before.phase != "play":
        return None
    return before.side_of_seat[before.current_seat()]


def _respawned(before: Any, after: Any, side: int, action: tuple) -> bool:
    """Whether ``side``'s sorcerer came back by respawning (not by a revival) in this transition."""
    s = side * 3 + SORCERER
    return (before.units[s].cell is None and after.units[s].cell is not None
            and not (action[0] == "revive" and action[1] == s))


def _collector(before: Any, action: tuple) -> int | None:
    """The unit that stops in this transition by its own move (a move, or an archer's chosen shot, after which
    it picks up what lies on its square)."""
    if action[0] == "move":
        return action[1]
    if action[0] == "shoot" and before.stack:
        return before.stack[-1].data["unit"]
    return None


def _same_turn(before: Any, after: Any) -> bool:
    return after.phase == "play" and after.turn == before.turn and after.winner is None and not after.truncated


def _walk_reach(s: Any, u: int, points: int) -> set[int]:
    """Squares unit ``u`` may end a move of up to ``points`` steps on, re-walked from the seed: orthogonal
    steps through the castle's walls (ledger 7); every piece may be passed over except an opposing
    defensive warrior ("No opposing piece may pass over it", ledger 8), which only the Orb carrier may land
    on ("Blocks all attacks, except from the Orb", ledger 22); never a square of a friendly unit."""
    castle = _castle(s)
    unit = s.units[u]
    walls = castle.grid
    friends = {v.cell for v in s.units if v.cell is not None and v.side == unit.side}
    shields = {v.cell for v in s.units if v.cell is not None and v.side != unit.side and _guarded(v)}
    carrier = s.orb_holder == u
    frontier = {unit.cell}
    seen = {unit.cell}
    out: set[int] = set()
    for _ in range(points):
        nxt = set()
        for c in frontier:
            for n in walls.neighbours(c):
                if n in seen or not _accessible(s, n):
                    continue
                seen.add(n)
                if n in shields:
                    if carrier:
                        out.add(n)
                    continue
                nxt.add(n)
                if n not in friends:
                    out.add(n)
        frontier = nxt
    return out


def _natural(s: Any, u: int) -> int:
    """The seed's natural movement of unit ``u`` this turn (Mechanics 1a-c, Slow)."""
    v = s.units[u]
    opt = _opt(s)
    if v.kind == SORCERER:
        base = opt["sorcerer_move"]  # "Moves 2 spaces naturally." (prototype: "originally one square")
    elif v.kind == ARCHER:
        base = opt["archer_move"]  # "Moves 2 spaces naturally."
    else:
        base = 0 if v.stance == DEFENSIVE else opt["warrior_move"]  # "Moves 3" / "Cannot move."
    if base and v.slow_at == s.turn:  # "Unit moves 1 less space in the next turn."
        base -= 1
    return base


# -- the pieces and the board ---------------------------------------------------------------------
@PROPERTIES.state("six units, dead or on an accessible square, the three of a side sharing only its start",
                  rows=("15.1", "15.1b", "22.1b", "48.1"))
def units_on_the_board(s):
    """Each side has a sorcerer, an archer and a warrior; a living unit stands on an accessible square.
    "All units begin in the starting square of each player" (ledger 6): units of one side share a square
    only on that side's start square, and no square ever holds both sides (a landing kills or bounces)."""
    if s.phase == "place":
        assert s.units == [], "units on the board during set-up"
        return
    assert [(v.side, v.kind) for v in s.units] == [(sd, k) for sd in (GREEN, RED) for k in range(3)], s.units
    by_cell: dict[int, list[int]] = {}
    for i, v in enumerate(s.units):
        assert v.stance in (OFFENSIVE, DEFENSIVE), (i, v.stance)
        assert v.kind == WARRIOR or v.stance == OFFENSIVE, f"unit {i} of kind {v.kind} has a {v.stance} stance"
        if v.cell is None:
            continue
        assert s.phase == "play", f"unit {i} on the board during set-up"
        assert _accessible(s, v.cell), f"unit {i} on inaccessible square {v.cell}"
        by_cell.setdefault(v.cell, []).append(i)
    for cell, here in by_cell.items():
        if len(here) < 2:
            continue
        sides = {s.units[i].side for i in here}
        assert len(sides) == 1, f"units {here} of both sides share square {_castle(s).label(cell)}"
        side = sides.pop()
        assert cell == _start_of(s, side), (f"units {here} share square {_castle(s).label(cell)}, which is not the"
                                            " side's start square")


@PROPERTIES.state("dead units carry nothing: offensive, not slowed, not invulnerable; only a dead sorcerer counts down",
                  rows=("37.1", "37.1b", "49.1b", "91.3"))
def dead_units(s):
    """A dead unit leaves the board with its effects (warriors come back offensive, ledger 30). A dead
    sorcerer "respawns after 3 turns as long as friendly piece is still alive": its countdown runs
    ``respawn_turns`` .. 1 own turns (ledger 24) while a friend lives; no other unit counts down."""
    opt = _opt(s)
    for i, v in enumerate(s.units):
        if v.cell is not None:
            assert v.respawn is None, f"living unit {i} has a respawn countdown {v.respawn}"
            continue
        assert v.stance == OFFENSIVE and v.slow_at is None and v.inv_until is None, (i, v.stance, v.slow_at, v.inv_until)
        if v.kind != SORCERER or s.phase != "play" or s.winner is not None:
            assert v.respawn is None or s.winner is not None, f"unit {i} counts down {v.respawn}"
            continue
        if opt["respawn"] and not opt["sorcerer_kill_wins"]:
            assert v.respawn is not None and 1 <= v.respawn <= opt["respawn_turns"], f"dead sorcerer {i} countdown {v.respawn}"
        else:
            assert v.respawn is None, f"sorcerer {i} counts down {v.respawn} with respawn off"


@PROPERTIES.state("Slow and Invulnerable stay within their turns",
                  rows=("26.1", "26.1b", "27.1", "27.1b", "69.2", "69.2b", "77.1", "77.1b"))
def effect_bounds(s):
    """Slow: "Unit moves 1 less space in the next turn" (its side's next turn, ledger 12), so a Slow mark
    names the current turn or the side's next one. Invulnerable: "Lasts only for 2 turns" (the
    opponent's next 2 turns, ledger 13)."""
    n = _opt(s)["invulnerable_turns"]
    for i, v in enumerate(s.units):
        if v.slow_at is not None:
            assert s.turn <= v.slow_at <= s.turn + 2, f"unit {i} slowed for turn {v.slow_at} at turn {s.turn}"
            assert (v.slow_at - s.turn) % 2 == 0 or s.side != v.side, f"unit {i} slowed on an opposing turn"
        if v.inv_until is not None:
            assert s.turn < v.inv_until <= s.turn + 2 * n, f"unit {i} invulnerable until {v.inv_until} at turn {s.turn}"


@PROPERTIES.state("the Orb is held by a living sorcerer or lies on one square",
                  rows=("35.1", "58.1", "16.1"))
def the_orb(s):
    """"Only unit who can hold the Orb" / "Can only be held by Sorcerer": in play the Orb is either
    carried by a living sorcerer or lies on an accessible square, never both."""
    if s.phase != "play":
        assert s.orb_holder is None and s.orb_cell is None
        return
    assert (s.orb_holder is None) != (s.orb_cell is None), (s.orb_holder, s.orb_cell)
    if s.orb_holder is not None:
        v = s.units[s.orb_holder]
        assert v.kind == SORCERER and v.cell is not None, f"the Orb is held by unit {s.orb_holder} ({v})"
    else:
        assert _accessible(s, s.orb_cell), s.orb_cell


@PROPERTIES.state("turns alternate, green first; the side to move has moved each unit at most once",
                  rows=("20.1", "22.1", "22.1b"))
def turn_order(s):
    """"Green always starts first" and the sides alternate, so green moves on odd turns. "All pieces may be
    moved once per turn": the units that acted this turn are the side's own, each once."""
    if s.phase != "play":
        return
    assert s.side == (GREEN if s.turn % 2 == 1 else RED), f"turn {s.turn}, side {s.side}"
    assert len(set(s.moved)) == len(s.moved), s.moved
    assert all(u in _side_units(s.side) for u in s.moved), (s.side, s.moved)
    if s.stack and s.winner is None:
        assert s.side_of_seat[s.stack[-1].seat] == s.side, "a prompt for the side not to move"


# -- set-up ---------------------------------------------------------------------------------------
@PROPERTIES.state("every token is in exactly one place, and the set is the game's fifteen",
                  rows=("13.1", "13.2", "13.2b", "62.1", "62.1b", "63.1", "63.1b", "89.2", "89.2b"))
def token_conservation(s):
    """"15 Tokens per game"; "Turn tokens upside down and shuffle. Place one in each of the seven treasure
    rooms, and each player may place four tokens": every token is in the bag, face down on one square, or
    revealed by its pick-up, and together they are the game's set (the prototype's four kinds). During
    set-up exactly the treasure rooms hold tokens and the bag holds the rest."""
    counts = dict(s.game.token_counts)
    assert set(counts) <= set(TOKEN_KINDS)
    if s.game.opt["token_set"] == "prototype" and not s.game.content_edits:
        assert set(counts) == {"teleport", "speed", "slow", "death"}, counts
    seen: dict[str, int] = {}
    for k in [*s.tokens.values(), *s.bag]:
        seen[k] = seen.get(k, 0) + 1
    for k, n in s.revealed.items():
        seen[k] = seen.get(k, 0) + n
    assert seen == {k: n for k, n in counts.items() if n}, f"tokens {seen} != the set {counts}"
    castle = _castle(s)
    tpp = _opt(s)["tokens_per_player"]
    if s.phase == "place":
        assert set(s.tokens) == set(castle.treasure), "during set-up only the treasure rooms hold tokens"
        assert len(s.placing[0]) <= tpp and len(s.placing[1]) <= tpp and not s.revealed
        return
    assert not s.placing[0] and not s.placing[1]
    placed = len(castle.treasure) + 2 * tpp
    assert len(s.tokens) + sum(s.revealed.values()) == placed, (len(s.tokens), s.revealed, placed)
    treasure = set(castle.treasure)
    for c in s.tokens:
        assert c in treasure or c in castle.placeable_set, f"a token on {castle.label(c)}, not a floor square (ledger 4)"


@PROPERTIES.state("nobody sees a face-down token's kind or the other player's secret squares",
                  rows=("13.1b", "13.2c", "63.1b"))
def what_seats_see(s):
    """"Turn tokens upside down" (ledger 2): no view tells a face-down token's kind; the placements are
    secret until both have placed (ledger 3). Changing the face-down kinds, the bag, or the other seat's
    squares changes no view of a seat that may not know them."""
    if not s.tokens and not s.bag and not any(s.placing):
        return
    views = {seat: s.view(seat) for seat in (None, 0, 1)}
    other = s.clone()
    kinds = sorted(set(TOKEN_KINDS))
    for c in other.tokens:
        other.tokens[c] = kinds[(kinds.index(other.tokens[c]) + 1) % len(kinds)]
    other.bag = [kinds[(kinds.index(k) + 3) % len(kinds)] for k in other.bag]
    for seat in (None, 0, 1):
        assert other.view(seat) == views[seat], f"seat {seat}'s view shows a face-down token's kind"
    if s.phase == "place" and any(s.placing):
        free = [c for c in _castle(s).placeable if c not in s.placing[0] and c not in s.placing[1]]
        for seat in (0, 1):
            hidden = s.clone()
            hidden.placing[1 - seat] = free[:len(hidden.placing[1 - seat])]
            assert hidden.view(seat) == views[seat], f"seat {seat} sees the other seat's secret squares"


@PROPERTIES.state("play starts with the rolled starts and exit, green on the centre with the Orb, to move first",
                  rows=("14.1", "15.1", "16.1", "17.1", "18.1", "18.1b", "19.1", "20.1"))
def start_of_play(s):
    """Set-up 2-5: a d4 picks red's start (one of four), all units begin on their side's start square, green
    "starts in the marked tile at the center of the map with the orb", a d4 picks the open exit, each seat
    plays one colour ("Roll d4 or d6 ... Even is green, odd is red": Player 1's d6, ledger 5), and "Green
    always starts first". The rolls are read from the event log when the game records one."""
    if s.phase != "play":
        assert s.red_start is None and s.exit is None and s.side_of_seat is None
        return
    assert s.red_start in range(4) and s.exit in range(4), (s.red_start, s.exit)
    assert sorted(s.side_of_seat) == [GREEN, RED], s.side_of_seat
    fixed = _opt(s)["colours"]
    if fixed != "roll":
        assert s.side_of_seat[0] == (GREEN if fixed == "seat1-green" else RED), (fixed, s.side_of_seat)
    if s.decisions != 2 * _opt(s)["tokens_per_player"]:
        return
    castle = _castle(s)
    assert [v.cell for v in s.units] == [castle.green_start] * 3 + [castle.red_starts[s.red_start]] * 3
    assert s.orb_holder == GREEN * 3 + SORCERER and s.side == GREEN and s.turn == 1
    assert s.current_seat() == s.side_of_seat.index(GREEN)
    rolls = [e["data"]["roll"] for e in s.events(None) if isinstance(e.get("data"), dict) and "roll" in e["data"]]
    if rolls:  # events recorded: the d4s and the d6 say what the position says
        assert len(rolls) == (3 if fixed == "roll" else 2), rolls
        assert rolls[0] in range(1, 5) and s.red_start == rolls[0] - 1, (rolls, s.red_start)
        assert rolls[1] in range(1, 5) and s.exit == rolls[1] - 1, (rolls, s.exit)
        if fixed == "roll":
            assert rolls[2] in range(1, 7)
            assert s.side_of_seat[0] == (GREEN if rolls[2] % 2 == 0 else RED), f"Player 1 rolled {rolls[2]}: {s.side_of_seat}"


# -- the end --------------------------------------------------------------------------------------
@PROPERTIES.state("a side wins exactly by carrying the Orb out of the open exit or by leaving the other no unit",
                  rows=("9.1", "11.1", "7.2", "7.2b", "11.1b", "17.1b", "91.3b", "91.3c"))
def who_wins(s):
    """"Take the Blackfire Orb to the exit" / "Opponent takes orb to exit": one open exit for both sides
    (ledger 31). A side with no unit left loses (ledger 25); in the prototype killing the opposing
    sorcerer wins ("the victory condition of killing your opponent")."""
    if s.phase != "play":
        assert s.winner is None
        return
    exit_cell = _castle(s).exits[s.exit]
    h = s.orb_holder
    out = h is not None and s.units[h].cell == exit_cell
    wiped = [all(s.units[u].cell is None for u in _side_units(side)) for side in (GREEN, RED)]
    if s.winner is None:
        assert not out, "the Orb carrier stands on the open exit and nobody has won"
        assert not any(wiped), f"a side has no unit left and nobody has won ({wiped})"
        if _opt(s)["sorcerer_kill_wins"]:
            assert all(s.units[side * 3 + SORCERER].cell is not None for side in (GREEN, RED)), "a sorcerer died, no winner"
        return
    w = s.winner
    ok = ((out and s.units[h].side == w) or wiped[1 - w]
          or (_opt(s)["sorcerer_kill_wins"] and s.units[(1 - w) * 3 + SORCERER].cell is None))
    assert ok, f"{w} won, but its carrier is not on the open exit and the loser has units"
    assert not (out and s.units[h].side != w), "the loser's carrier is on the open exit"


@PROPERTIES.step("only the carrier's own side takes the Orb out", rows=("9.1", "11.1", "11.1b"))
def taken_out_by_its_side(before, action, after):
    """"Take the Blackfire Orb to the exit": a win at the exit comes from the carrier's own move, Speed
    move or Teleport jump, never from the enemy's magic (Displace, the respawn push; ledger 35)."""
    if before.phase != "play":
        return
    if after.winner is None or before.winner is not None or after.orb_holder is None:
        return
    h = after.orb_holder
    if after.units[h].cell != _castle(after).exits[after.exit]:
        return
    assert _acting_side(before) == after.units[h].side and action[0] in ("move", "jump"), (
        f"the {after.units[h].side} carrier reached the exit by {action}")


# -- movement -------------------------------------------------------------------------------------
@PROPERTIES.step("a unit moves once a turn, within its natural movement, by walking",
                 rows=("22.1", "33.1", "39.1", "51.1", "54.1", "56.1", "56.1b", "77.1", "90.1", "25.1", "79.1"))
def moves_are_legal(before, action, after):
    """"All pieces may be moved once per turn up to their natural movement spaces": sorcerer 2 (1 in the
    prototype), archer 2, offensive warrior 3, defensive warrior "Cannot move", Slow 1 less; a Speed token
    "an additional 3 spaces"; walls block, and "No opposing piece may pass over" a defensive warrior."""
    if before.phase != "play":
        return
    if action[0] != "move":
        return
    u, dest = action[1], action[2]
    if before.stack:
        top = before.stack[-1]
        assert top.kind == "speed" and top.data["unit"] == u, f"a move {action} under a {top.kind} prompt"
        points = _opt(before)["speed_bonus"]
    else:
        assert u in _side_units(before.side), f"{action} moves an enemy unit"
        assert u not in before.moved, f"unit {u} moved twice this turn"
        points = _natural(before, u)
    assert before.units[u].cell is not None, f"dead unit {u} moved"
    assert dest in _walk_reach(before, u, points), (
        f"unit {u} moved from {before.units[u].cell} to {dest}, not within {points} steps by the seed's movement")


@PROPERTIES.step("a unit's square changes only by its own move or by magic that names it",
                 rows=("54.1", "54.1b", "22.1", "67.1", "67.1b", "86.1", "86.2", "86.2b", "71.1", "87.1", "37.2"))
def nothing_moves_by_itself(before, action, after):
    """Every change of square is one the rules make: the unit's own move or jump, a Displace naming it, a
    Recall or Mass Recall (a Recall or Teleport token picked up this transition) moving an archer or
    warrior, a respawn push of an opposing unit, or a revival. A defensive warrior "Cannot move" by itself."""
    if before.phase != "play":
        return
    kind = action[0]
    picked = set(_picked(before, after).values())
    recall = {"recall", "teleport"} & picked
    pushed_sides = {1 - side for side in (GREEN, RED) if _respawned(before, after, side, action)}
    for i, (b, a) in enumerate(zip(before.units, after.units)):
        if b.cell is None or a.cell is None or b.cell == a.cell:
            continue
        if kind == "move" and action[1] == i and a.cell == action[2]:
            assert not _guarded(b) or before.stack, f"defensive warrior {i} walked"
            continue
        if kind == "jump" and before.stack and before.stack[-1].data["unit"] == i:
            continue
        if kind == "displace" and action[1] == i:
            continue
        if recall and b.kind != SORCERER:
            continue
        if b.side in pushed_sides:
            continue
        raise AssertionError(f"unit {i} went from {b.cell} to {a.cell} by {action}")


@PROPERTIES.step("a warrior's stance changes only at the start of its side's turn, or back to offensive at death",
                 rows=("48.1", "49.1", "49.1b"))
def stances(before, action, after):
    """"Two stances: Offensive and Defensive"; "Stances may be changed only at the beginning of a turn, and
    only before movement has been made" (once, ledger 30)."""
    if before.phase != "play":
        return
    for side in (GREEN, RED):
        w = side * 3 + WARRIOR
        b, a = before.units[w], after.units[w]
        if b.stance == a.stance or a.cell is None:
            continue
        assert action == ("stance", w), f"warrior {w} changed stance by {action}"
        assert before.side == side and not before.moved and not before.stance_done and not before.stack, (
            "stance changed after movement")


# -- stops: attacks, archers, pick-ups -------------------------------------------------------------
@PROPERTIES.step("landing on an attackable enemy kills it",
                 rows=("34.1", "34.1b", "44.1", "52.1", "55.1", "55.1b"))
def landing_kills(before, action, after):
    """The sorcerer is "Offensive only", an archer "May only be defeated by landing directly on top of it",
    an offensive warrior "Cannot block attacks": a unit ending its move on an enemy kills it (ledger 9),
    unless it is a defensive warrior ("Blocks all attacks, except from the Orb") or invulnerable."""
    if before.phase != "play":
        return
    if action[0] != "move":
        return
    u, dest = action[1], action[2]
    carrier = before.orb_holder == u
    for e in _side_units(1 - before.units[u].side):
        v = before.units[e]
        if v.cell != dest:
            continue
        if v.inv_until is not None:
            assert after.units[e].inv_until is None, f"unit {e} kept its invulnerability through an attack"
            continue
        if _guarded(v) and not carrier:
            assert after.units[e].cell == dest, f"defensive warrior {e} died to a non-carrier landing"
            continue
        assert after.units[e].cell is None, f"unit {e} survived a landing by unit {u}"


@PROPERTIES.step("a defensive warrior dies only to the Orb carrier landing on it",
                 rows=("55.1", "55.1b", "52.1"))
def shields_hold(before, action, after):
    """"Blocks all attacks, except from the Orb" (ledger 22): archer fire and other landings bounce off."""
    if before.phase != "play":
        return
    for side in (GREEN, RED):
        w = side * 3 + WARRIOR
        b = before.units[w]
        if b.cell is None or not _guarded(b) or after.units[w].cell is not None:
            continue
        assert (action[0] == "move" and action[2] == b.cell and action[1] == before.orb_holder
                and before.units[action[1]].side != side), f"defensive warrior {w} killed by {action}"


@PROPERTIES.step("an opposing piece that stops within two squares of an archer is killed",
                 rows=("41.1", "41.1b", "45.1b", "90.4", "73.1", "73.1b"))
def archer_fire(before, action, after):
    """"Opposing pieces cannot stop within two spaces without being killed" (walking distance; a stop by its
    own move, Speed move, Teleport jump or being displaced, ledger 26). An archer stopping there meets the
    enemy archer in a contest instead (when the contest is on); invulnerability absorbs the shot."""
    if before.phase != "play":
        return
    if action[0] not in _STOPS or before.phase != "play":
        return
    if action[0] == "jump":
        u, dest = before.stack[-1].data["unit"], action[1]
    else:
        u, dest = action[1], action[2]
    if after.units[u].cell != dest or before.units[u].cell == dest:
        return  # bounced off (ledger 9) or killed: no stop there
    side = before.units[u].side
    a = (1 - side) * 3 + ARCHER
    ab, aa = before.units[a], after.units[a]
    if ab.cell is None or aa.cell != ab.cell or _walk(before, dest, ab.cell) > _opt(before)["archer_range"]:
        return
    if _guarded(before.units[u]) and before.units[u].kind == WARRIOR:
        return  # a displaced defensive warrior "blocks all attacks"
    absorbed = _shield_used(before, after, u)
    if before.units[u].kind == ARCHER and _opt(before)["archer_contest"]:
        assert _contests(before, after) >= 1, f"archer {u} stopped within range of archer {a} with no contest"
        absorbed = absorbed or (ab.inv_until is not None and aa.inv_until is None)
    assert absorbed, f"unit {u} stopped {_walk(before, dest, ab.cell)} from enemy archer {a} and lives"


@PROPERTIES.step("an archer that stops by its own move kills one opposing piece in range, the attacker choosing",
                 rows=("45.1", "45.1b", "46.1", "90.4b", "73.1", "73.1b"))
def moving_archer(before, action, after):
    """"If it is moved within the two space limit of an opposing piece, the opposing piece will be killed.
    If more than one unit is available to kill, the attacking player may choose who to attack" (one kill
    per stop, ledger 27; not a defensive warrior; a displaced archer "cannot immediately attack"; in the
    prototype the archer is "solely defensive")."""
    if before.phase != "play":
        return
    if action[0] not in _STOPS or before.phase != "play":
        return
    if action[0] == "jump":
        u, dest = before.stack[-1].data["unit"], action[1]
    else:
        u, dest = action[1], action[2]
    v = before.units[u]
    if v.kind != ARCHER or after.units[u].cell != dest or before.units[u].cell == dest:
        return
    opt = _opt(before)
    side = v.side
    foes = list(_side_units(1 - side))
    shot = [e for e in foes if before.units[e].cell is not None and before.units[e].cell != dest
            and after.units[e].cell is None and e != (1 - side) * 3 + ARCHER]
    enemy_archer = before.units[(1 - side) * 3 + ARCHER]
    contest = (opt["archer_contest"] and enemy_archer.cell is not None and enemy_archer.cell != dest
               and _walk(before, dest, enemy_archer.cell) <= opt["archer_range"])
    if action[0] == "displace" or not opt["archer_offense"] or contest:
        # no shot of its own (a contest is the archers' meeting, not a shot; ledger 14, 34)
        assert not shot, f"archer {u} killed {shot} though it may not shoot (by {action})"
        return
    targets = [e for e in foes if before.units[e].cell is not None and before.units[e].cell != dest
               and not _guarded(before.units[e]) and _walk(before, dest, before.units[e].cell) <= opt["archer_range"]]
    assert len(shot) <= 1, f"archer {u} killed {shot} in one stop"
    if after.winner is not None and after.stack == []:
        return
    top = after.stack[-1] if after.stack else None
    if len(targets) > 1:
        assert top is not None and top.kind == "shoot" and sorted(top.data["targets"]) == targets, (
            f"archer {u} had targets {targets} and no choice ({top})")
    elif targets:
        t = targets[0]
        ok = after.units[t].cell is None or (before.units[t].inv_until is not None and after.units[t].inv_until is None)
        assert ok, f"archer {u} stopped in range of {t}, which lives"


@PROPERTIES.step("a shot goes to the chosen target, in range and not shielded", rows=("46.1", "45.1"))
def chosen_shot(before, action, after):
    """"the attacking player may choose who to attack": the target chosen dies (or its invulnerability is
    used), nobody else is shot."""
    if before.phase != "play":
        return
    if action[0] != "shoot":
        return
    t = action[1]
    top = before.stack[-1]
    assert top.kind == "shoot" and t in top.data["targets"]
    archer = before.units[top.data["unit"]]
    assert before.units[t].side != archer.side and not _guarded(before.units[t])
    assert _walk(before, archer.cell, before.units[t].cell) <= _opt(before)["archer_range"]
    ok = after.units[t].cell is None or (before.units[t].inv_until is not None and after.units[t].inv_until is None)
    assert ok, f"the chosen target {t} survived the shot"


@PROPERTIES.step("two archers that meet hold the contest, and one of them dies (unless invulnerable)",
                 rows=("42.1", "42.1b", "43.1", "43.2b", "90.4", "90.4c", "90.5"))
def archers_meet(before, action, after):
    """"If two archers meet, the attacker rolls a d6 to determine who win" and "a dice roll when two archers
    meet" also "when another archer was placed within range of him via magic or movement" (ledger 14):
    a transition that leaves the two living archers within range after either of them moved held a contest,
    and a contest ends with an archer dead (on 1-4 the defender kills the attacker, ledger 28) unless an
    invulnerable one absorbed it. With the contest off no contest is held."""
    if before.phase != "play":
        return
    opt = _opt(after)
    n = _contests(before, after) if after.phase == "play" and before.phase == "play" else 0
    if not opt["archer_contest"]:
        assert n == 0, "an archer contest with the contest off"
        return
    ga, ra = ARCHER, 3 + ARCHER
    if n:
        revived = action[1] if action[0] == "revive" else None
        died = [a for a in (ga, ra) if (before.units[a].cell is not None or a == revived) and after.units[a].cell is None]
        used = [a for a in (ga, ra) if _shield_used(before, after, a)]
        assert died or used, "an archer contest with no loser"
    ca, cb = after.units[ga].cell, after.units[ra].cell
    if ca is None or cb is None or after.winner is not None:
        return
    if _walk(after, ca, cb) > opt["archer_range"]:
        return
    if (before.units[ga].cell, before.units[ra].cell) == (ca, cb):
        return
    assert n >= 1, f"the archers met ({ca}, {cb}) by {action} with no contest"


@PROPERTIES.step("the attacker's d6 decides a contest: 5 or 6 kills the defender, 1-4 the attacker",
                 rows=("43.1", "43.2", "43.2b", "90.5"))
def contest_dice(before, action, after):
    """"Attacker rolls a die. They must roll a 5 or 6 to kill the defender." (on 1-4 the defender kills the
    attacker, ledger 28; "giving advantage to the defender"). Read from the event log when the game
    records one (the roll is nowhere else)."""
    if before.phase != "play":
        return
    events = after.events_since(before.log_mark(), None) or []
    rolls = [e["data"] for e in events if isinstance(e.get("data"), dict) and "won" in e["data"]]
    if not rolls:
        return
    assert len(rolls) == _contests(before, after), (rolls, _contests(before, after))
    target = _opt(before)["contest_target"]
    for d in rolls:
        assert d["roll"] in range(1, 7) and d["won"] == (d["roll"] >= target), d
        attacker = d["unit"]
        defender = (1 - before.units[attacker].side) * 3 + ARCHER
        loser = defender if d["won"] else attacker
        absorbed = _shield_used(before, after, loser)
        assert after.units[loser].cell is None or absorbed, f"the contest's loser {loser} lives ({d})"


@PROPERTIES.step("an archer dies only by a landing, a contest, fire without the contest, a revival or Death",
                 rows=("44.1", "44.1b"))
def archers_die_so(before, action, after):
    """"May only be defeated by landing directly on top of it, or through an archer contest" (ledger 36: also
    its own Death token and a revival on its square; with the contest off it is shot like any piece)."""
    if before.phase != "play":
        return
    for a in (ARCHER, 3 + ARCHER):
        b = before.units[a]
        if b.cell is None or after.units[a].cell is not None:
            continue
        if action[0] in ("move", "revive") and action[-1] == b.cell:
            continue
        if _contests(before, after):
            continue
        if _picked(before, after).get(b.cell) == "death":
            continue
        if not _opt(before)["archer_contest"] and action[0] in _STOPS:
            continue
        if action[0] == "move" and action[1] == a:
            dest = action[2]
            if before.tokens.get(dest) == "death":
                continue
        raise AssertionError(f"archer {a} died by {action}")


@PROPERTIES.step("a unit picks a token up exactly when it stops on it by its own move, and then moves no more",
                 rows=("24.1", "24.1b", "27.1", "25.1", "25.1b", "60.2", "60.2b"))
def token_pickups(before, action, after):
    """"A token may be passed over, but if it is picked up, then all further movement points for that turn
    are lost for the receiving unit" (ledger 10: picked up exactly when a unit ends its own move on it;
    forced placements never land on a token). "The exception is with a speed token, then an additional 3
    spaces may be moved" (a new decision for that unit alone)."""
    picked = _picked(before, after)
    assert len(picked) <= 1 or after.winner is not None, f"tokens {picked} picked up in one transition"
    assert not set(after.tokens) - set(before.tokens) or before.phase == "place", "a token appeared in play"
    for cell, kind in picked.items():
        u = _collector(before, action)
        assert u is not None, f"the token on {cell} left by {action}"
        if action[0] == "shoot":
            assert before.units[u].cell == cell, f"the token on {cell} left by {action}"
        else:
            assert action[2] == cell, f"the token on {cell} left by {action}"
        if _same_turn(before, after):
            again = [a for a in after.legal_actions() if a[0] == "move" and a[1] == u]
            speed = after.stack and after.stack[-1].kind == "speed" and after.stack[-1].data["unit"] == u
            assert not again or speed, f"unit {u} picked up a {kind} and may move again"
            took_orb = after.orb_holder == u and before.orb_holder != u  # "Even those gained by a speed token"
            if kind == "speed" and after.units[u].cell is not None and not took_orb:
                assert any(p.kind == "speed" and p.data["unit"] == u and p.data["points"] == _opt(before)["speed_bonus"]
                           for p in after.stack), "Speed gave no extra spaces"
    if action[0] == "move":
        u, dest = action[1], action[2]
        if dest in before.tokens and dest in after.tokens:
            top = after.stack[-1] if after.stack else None
            choosing = top is not None and top.kind == "shoot" and top.data["unit"] == u  # picks up after the shot
            assert after.units[u].cell != dest or choosing, f"unit {u} stands on a face-down token at {dest} it did not pick up"


@PROPERTIES.state("no living unit stands on a face-down token (it would have picked it up)",
                  rows=("24.1", "24.1b", "27.1"))
def no_unit_on_a_token(s):
    """Ledger 10: a unit that ends a move on a token picks it up, and placements never land on one. The
    one moment a unit rests on a token is an archer's pending choice of target, before the pick-up."""
    for i, v in enumerate(s.units):
        if v.cell is None or v.cell not in s.tokens or s.winner is not None:
            continue
        top = s.stack[-1] if s.stack else None
        assert top is not None and top.kind == "shoot" and top.data["unit"] == i, (
            f"unit {i} stands on a face-down {s.tokens[v.cell]} token")


@PROPERTIES.step("a picked-up token takes its effect at once (Slow and Invulnerable beyond)",
                 rows=("27.1", "27.1b", "75.1", "77.1", "26.1", "69.1", "65.1", "67.1", "71.1", "81.1", "89.3", "79.1"))
def token_effects(before, action, after):
    """Death: "Unit that collects the token is killed"; Slow: 1 less on its side's next turn; Invulnerable
    up at once for 2 opposing turns; Speed, Revive, Displace and Teleport 6 a decision of the collector;
    Recall moves the archer and warrior to the sorcerer; Teleport "Roll d6 to determine outcome" (the
    prototype's Teleport only teleports)."""
    if before.phase != "play":
        return
    picked = _picked(before, after)
    u = _collector(before, action)
    if not picked or u is None:
        return
    (cell, kind), = picked.items()
    b, a = before.units[u], after.units[u]
    opt = _opt(before)
    seat = before.side_of_seat.index(b.side)
    prompts = [(p.kind, p.seat) for p in after.stack]
    if kind == "death":
        assert a.cell is None, "the Death token's collector lives"
        return
    if after.winner is not None:
        return
    if kind == "slow":
        assert a.slow_at == before.turn + 2, f"Slow marks turn {a.slow_at}, not the side's next ({before.turn + 2})"
    elif kind == "invulnerable":
        assert a.inv_until == before.turn + 2 * opt["invulnerable_turns"], a.inv_until
    elif kind == "speed":
        took_orb = after.orb_holder == u and before.orb_holder != u
        assert (("speed", seat) in prompts) != took_orb, prompts
    elif kind == "revive":
        assert ("revive-token", seat) in prompts, prompts
    elif kind == "displace":
        assert ("displace", seat) in prompts, prompts
    elif kind == "teleport":
        jumped = ("teleport", seat) in prompts
        orb = after.orb_holder is None and after.orb_cell in _castle(after).red_starts
        if not opt["teleport_table"]:
            assert jumped and (after.orb_holder, after.orb_cell) == (before.orb_holder, before.orb_cell), (
                "the prototype's Teleport did more than teleport")
        elif not jumped and not orb:
            for side in (GREEN, RED):  # 5: "Mass Recall. All units are returned to their respective Sorcerer."
                _check_recall(before, after, side)
    if kind == "recall":
        _check_recall(before, after, b.side)


def _check_recall(before: Any, after: Any, side: int) -> None:
    """"Move archer and warrior to the Sorcerer" (ledger 16): they end on the free, token-free squares
    nearest the sorcerer: no free square is nearer than either of them."""
    sorc = after.units[side * 3 + SORCERER].cell
    if sorc is None or any(_respawned(before, after, sd, ("end",)) for sd in (GREEN, RED)):
        return  # (a respawn push that follows in the same transition moves them again)
    mine = [u for u in (side * 3 + ARCHER, side * 3 + WARRIOR) if before.units[u].cell is not None]
    if not mine:
        return
    if any(after.units[u].cell is None for u in mine):
        return  # an archer lost the contest the recall started
    taken = {v.cell for i, v in enumerate(after.units) if v.cell is not None and i not in mine}
    castle = _castle(after)
    free = sorted(_walk(after, sorc, c) for c in castle.cells
                  if c not in taken and c not in after.tokens and c != sorc and _walk(after, sorc, c) < castle.FAR)
    got = sorted(_walk(after, sorc, after.units[u].cell) for u in mine)
    assert got == free[:len(got)], f"recalled units at distances {got}; the nearest free squares are at {free[:len(got)]}"


@PROPERTIES.step("Displace moves one enemy 1-2 squares straight to a free, token-free accessible square",
                 rows=("71.1", "71.1b", "72.1", "72.1b"))
def displacements(before, action, after):
    """"Move a single enemy unit up to 2 spaces. Can be moved through walls, but not into inaccessible
    areas" (straight distance, ledger 7 and 14; never the carrier onto the open exit, ledger 35)."""
    if before.phase != "play":
        return
    if action[0] != "displace":
        return
    top = before.stack[-1]
    assert top.kind == "displace"
    collector = before.units[top.data["unit"]].side
    e, cell = action[1], action[2]
    v = before.units[e]
    assert v.side != collector and v.cell is not None, f"displaced unit {e} is not a living enemy"
    assert 1 <= _straight(before, v.cell, cell) <= 2 and _accessible(before, cell), (v.cell, cell)
    assert cell not in before.tokens and all(w.cell != cell for w in before.units), "displaced onto a taken square"
    assert not (e == before.orb_holder and cell == _castle(before).exits[before.exit]), "the carrier displaced out"


@PROPERTIES.step("Teleport 6 jumps up to 3 squares straight to a free, token-free accessible square",
                 rows=("87.1", "87.1b", "87.2"))
def jumps(before, action, after):
    """"Unit may teleport up to 3 spaces, regardless of walls. Cannot teleport into normally inaccessible
    spaces." (ledger 19)."""
    if before.phase != "play":
        return
    if action[0] != "jump":
        return
    top = before.stack[-1]
    assert top.kind == "teleport"
    v = before.units[top.data["unit"]]
    cell = action[1]
    assert 1 <= _straight(before, v.cell, cell) <= _opt(before)["teleport_range"] and _accessible(before, cell)
    assert cell not in before.tokens and all(w.cell != cell for w in before.units), "jumped onto a taken square"


@PROPERTIES.step("Teleport 1-4 moves the Orb to a red start, and only Teleport moves a lying Orb",
                 rows=("82.1", "82.1b", "81.1"))
def orb_moves(before, action, after):
    """"Move orb to Red start #n": the Orb, carried or lying, goes to that red start (ledger 17). A lying
    Orb otherwise stays where it fell."""
    if before.phase != "play":
        return
    if before.phase != "play" or after.orb_cell is None or after.orb_cell == before.orb_cell:
        return
    castle = _castle(after)
    if before.orb_holder is not None:
        fell = before.units[before.orb_holder]
        if after.orb_cell in (fell.cell, action[-1]) and (after.units[before.orb_holder].cell is None):
            return  # the carrier died and dropped it where it stood or stopped
    assert after.orb_cell in castle.red_starts and "teleport" in _picked(before, after).values(), (
        f"the Orb went from {before.orb_cell} to {after.orb_cell} by {action}")
    assert _opt(before)["teleport_table"]


@PROPERTIES.step("a sorcerer takes the Orb by stopping on it or standing on it, and moves no more",
                 rows=("23.1", "59.1", "59.1b", "60.1", "60.2", "35.1", "58.1"))
def taking_the_orb(before, action, after):
    """"If the Orb is picked up, then all movement points for the Sorcerer are lost for that turn"; "It
    takes a full turn to pick up the orb ... only use one to get to the orb, all others are lost. Even those
    gained by a speed token." (ledger 20, 21)."""
    if before.phase != "play":
        return
    h = after.orb_holder
    if h is None or h == before.orb_holder:
        return
    assert after.units[h].kind == SORCERER
    lying = before.orb_cell
    if before.orb_holder is not None:  # a carrier killed by this sorcerer's landing drops it there (ledger 21)
        lying = before.units[before.orb_holder].cell
        assert after.units[before.orb_holder].cell is None, "the Orb changed hands from a living carrier"
    took = action == ("take", h) or (action[0] == "move" and action[1] == h and action[2] == lying)
    assert took, f"sorcerer {h} got the Orb by {action}"
    if _same_turn(before, after):
        again = [a for a in after.legal_actions() if a[0] in ("move", "take", "revive") and a[1] == h]
        assert not again, f"sorcerer {h} took the Orb and may still act: {again}"
        assert not any(p.kind == "speed" and p.data["unit"] == h for p in after.stack), "Speed after the Orb"


# -- revival and respawn --------------------------------------------------------------------------
@PROPERTIES.step("a dead unit returns only by a revival or its sorcerer's respawn",
                 rows=("29.1", "29.1b", "36.1", "36.1b", "28.1", "28.1b", "65.1", "65.1b", "37.1", "91.3"))
def revivals(before, action, after):
    """"If not holding the orb, it can revive a friendly unit if 1 space away"; "Reviving an ally consumes
    any leftover movement points"; "If a unit is revived and that space is being occupied by an enemy unit,
    that unit is automatically killed"; Revive token: "Revive any dead unit, anywhere on the board" (your
    own, ledger 15); a sorcerer respawns."""
    if before.phase != "play":
        return
    for i, (b, a) in enumerate(zip(before.units, after.units)):
        if b.cell is not None or a.cell is None:
            continue
        if action[0] == "revive" and action[1] == i:
            continue
        assert b.kind == SORCERER and after.turn > before.turn, f"unit {i} came back by {action}"
    if action[0] != "revive":
        return
    d, cell = action[1], action[2]
    assert before.units[d].cell is None and _accessible(before, cell)
    pushed = _respawned(before, after, 1 - before.units[d].side, action)  # the turn ended and a respawn pushed it
    assert after.units[d].cell == cell or (after.units[d].cell is None and _contests(before, after)) or pushed, (
        f"revived unit {d} is not on {cell}")
    assert cell not in before.tokens
    for e in _side_units(1 - before.units[d].side):
        if before.units[e].cell == cell:
            assert after.units[e].cell is None, f"the revival on {cell} left enemy {e} alive"
    if before.stack:
        top = before.stack[-1]
        assert top.kind == "revive-token" and before.units[top.data["unit"]].side == before.units[d].side
        return
    side = before.side
    sorc = side * 3 + SORCERER
    s = before.units[sorc]
    assert d in (side * 3 + ARCHER, side * 3 + WARRIOR), "a sorcerer revives its archer or warrior"
    assert s.cell is not None and before.orb_holder != sorc, "a dead or carrying sorcerer revived"
    assert _walk(before, s.cell, cell) == 1, f"revived {_walk(before, s.cell, cell)} squares from the sorcerer"
    if _same_turn(before, after):
        again = [a for a in after.legal_actions() if a[0] in ("move", "take", "revive") and a[1] == sorc]
        assert not again, f"the reviving sorcerer may still act: {again}"


@PROPERTIES.step("a dead sorcerer counts its own turns down from three and respawns, pushing enemies to four",
                 rows=("37.1", "37.1b", "37.2", "37.2b", "91.3"))
def respawns(before, action, after):
    """"If killed, respawns after 3 turns as long as friendly piece is still alive. Any opposing units
    within three spaces, are moved until they are four spaces from the Sorcerer." (ledger 24: the countdown
    starts at 3 and drops at the start of each of its side's turns; it returns when it reaches 0, on its
    start square; pushed units go to the nearest square four steps away.)"""
    if before.phase != "play":
        return
    opt = _opt(before)
    if before.phase != "play":
        return
    new_turn = after.turn > before.turn
    for side in (GREEN, RED):
        sorc = side * 3 + SORCERER
        b, a = before.units[sorc], after.units[sorc]
        if b.cell is not None and a.cell is None and after.winner is None:
            # set to 3 at death; a turn of its side that starts in the same transition counts already
            start = opt["respawn_turns"] - (1 if new_turn and after.side == side else 0)
            assert a.respawn == (start if opt["respawn"] else None), f"a killed sorcerer's countdown is {a.respawn}"
        if b.cell is None and b.respawn is not None and a.cell is None and after.winner is None:
            expect = b.respawn - 1 if (new_turn and after.side == side) else b.respawn
            assert a.respawn == expect, f"countdown {b.respawn} -> {a.respawn}"
        if not _respawned(before, after, side, action):
            continue
        assert b.respawn == 1 and new_turn and after.side == side, f"respawned with countdown {b.respawn}"
        radius = opt["push_radius"]
        here = a.cell
        start = _start_of(after, side)
        friends_on_start = any(before.units[u].cell == start for u in _side_units(side) if u != sorc)
        if not friends_on_start:
            assert here == start, f"respawned on {here}, not on the start square {start}"
        if radius and after.winner is None:
            for e in _side_units(1 - side):
                if after.units[e].cell is None:
                    continue
                d = _walk(after, here, after.units[e].cell)
                assert d > radius, f"enemy {e} is {d} from the respawned sorcerer (push {radius})"
