"""The rule properties of The Dungeon's Jewel (boardlab/games/dungeons_jewel/properties.py).

They hold along real games of every variant and player count, and they are not vacuous: a real
position or transition corrupted the way a rules bug would corrupt it makes the property fail.
"""

from __future__ import annotations

import pytest

from boardlab.engine import Rng, make
from boardlab.engine.properties import PropertySet, PropertyViolation, check_state, check_transition
from boardlab.games.dungeons_jewel.properties import PROPERTIES

from .helpers import CENTRE, cell

VARIANTS = ("rulebook", "concept", "revised")


def _game(variant="rulebook", players=4, **options):
    game = make("dungeons-jewel", players=players, variant=variant, options=options)
    game.record_events = False
    return game


def _play_until(state, want, rng: Rng, limit: int = 20000):
    """Random legal actions until ``want(before, action, after)``; returns that transition."""
    for _ in range(limit):
        assert not state.is_over(), "the game ended before the situation came up"
        legal = state.legal_actions()
        action = legal[rng.below(len(legal))]
        before = state.clone()
        state.apply(action)
        check_transition(before, action, state)
        if want(before, action, state):
            return before, action, state
    raise AssertionError("the situation never came up")


def _fails(name: str, *args) -> None:
    """The property ``name`` (alone) fails on the state, or on the transition ``before, action, after``."""
    only = PropertySet([p for p in PROPERTIES if p.name == name])
    assert len(only) == 1, name
    with pytest.raises(PropertyViolation) as info:
        if len(args) == 1:
            check_state(args[0], only)
        else:
            check_transition(*args, only)
    assert info.value.prop.name == name, info.value.describe()


def test_every_variant_and_player_count_keeps_every_property():
    """A short random game in each configuration, every property checked after every action."""
    for variant in VARIANTS:
        for players in (2, 3, 4):
            game = _game(variant, players, max_turns=150)
            s = game.new_state(players * 11 + len(variant))
            check_state(s)
            rng = Rng(players)
            while not s.is_over():
                legal = s.legal_actions()
                a = legal[rng.below(len(legal))]
                before = s.clone()
                s.apply(a)
                check_transition(before, a, s)


def test_properties_name_existing_rows_and_cover_the_kinds():
    kinds = {p.kind for p in PROPERTIES}
    assert kinds == {"state", "step"}
    assert len(PROPERTIES) >= 15


# -- state properties fail on a corrupted position ------------------------------------------------------
def _midgame(seed=5, decisions=120):
    s = _game().new_state(seed)
    rng = Rng(seed)
    for _ in range(decisions):
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    check_state(s)
    return s


def test_conservation_fails_when_a_card_vanishes_or_a_token_is_duplicated():
    s = _midgame()
    s.deck.pop()
    _fails("every token and treasure card is in exactly one place", s)
    s = _midgame()
    s.pile.append(s.pile[-1])
    _fails("every token and treasure card is in exactly one place", s)


def test_attack_power_recount_fails_when_power_and_items_disagree():
    s = _midgame()
    s.power[2] += 1
    _fails("attack power counts the attack items held", s)


def test_health_bounds_fail_at_zero_health():
    s = _midgame()
    s.health[1] = 0
    _fails("health stays between 1 and its maximum, pieces on the board", s)


def test_walls_recount_fails_on_a_one_sided_wall():
    s = _midgame()
    s.walls[cell(2, 2)] |= 1 << 1  # blocked from one side only, no wall token turned there
    _fails("walls lie face up and block exactly the sides they were turned to", s)


def test_no_token_on_the_centre():
    s = _midgame()
    s.tokens[CENTRE] = s.pile.pop()
    _fails("no token on a start corner or on the centre", s)


def test_turn_choices_fail_when_a_diagonal_move_is_offered():
    s = _midgame()
    while s.stack:
        s.apply(s.legal_actions()[0])
    c = s.pos[s.seat]
    x, y = c % 7, c // 7
    diag = ("move", (y + (1 if y < 6 else -1)) * 7 + x + (1 if x < 6 else -1))
    s._legal = (*s.legal_actions(), diag)
    _fails("turn legal actions: orthogonal moves, adjacent attacks, the dragon", s)


def test_seat_views_fail_when_a_face_down_token_shows():
    s = _midgame(decisions=200)
    hidden = [c for c, k in enumerate(s.tokens) if k is not None and not s.known[c] & (1 << 8)]
    assert hidden
    c = hidden[0]
    real = type(s)._view

    def leaky(self, seat):
        v = real(self, seat)
        v["tokens"] = [[cc, self.tokens[cc] if cc == c else f, up] for cc, f, up in v["tokens"]]
        return v

    type(s)._view = leaky
    try:
        _fails("each seat sees what the rules let it know", s)
    finally:
        type(s)._view = real


def test_a_winner_without_the_jewel_at_home_fails():
    s = _midgame()
    s.winner = 1
    _fails("the jewel, the slayer's step and the winner agree", s)


# -- step properties fail on a planted transition ----------------------------------------------------
def test_surviving_fails_when_a_failed_roll_costs_no_health():
    s = _game().new_state(3)
    before, action, after = _play_until(
        s, lambda b, a, x: a == ("roll",) and x.health[b.seat] < b.health[b.seat] and x.pos[b.seat] == b.pos[b.seat],
        Rng(1))
    after.health[before.seat] += 1
    _fails("surviving a hazard: the roll, the item, the damage and the loot", before, action, after)


def _with_dice(build, action, want):
    """The transition ``action`` from the position ``build()`` with the first generator seed whose dice
    give ``want(before, after)``; every property holds on it."""
    for k in range(500):
        s = build()
        s.rng = Rng(k)
        before = s.clone()
        s.apply(action)
        if want(before, s):
            check_transition(before, action, s)
            return before, action, s
    raise AssertionError("no dice gave the situation")


def _fresh(variant="rulebook"):
    s = _game(variant).new_state(21)
    s.seat, s.first, s._legal = 0, 0, None
    return s


def _old_room():
    """Seat 0 has stepped into a room whose token seat 1 drew earlier: a survive prompt, no loot."""
    s = _fresh()
    s.tokens[cell(1, 0)] = s.pile.pop()
    while s.game.content.token(s.tokens[cell(1, 0)]).type == "wall":
        s.pile.insert(0, s.tokens[cell(1, 0)])
        s.tokens[cell(1, 0)] = s.pile.pop()
    s.known[cell(1, 0)] = 0b10
    s.apply(("move", cell(1, 0)))
    return s


def test_surviving_fails_when_a_survivor_of_an_old_room_loots():
    before, action, after = _with_dice(_old_room, ("roll",), lambda b, x: x.health == b.health and x.pos == b.pos)
    after.items[0].append(after.deck.pop())
    _fails("surviving a hazard: the roll, the item, the damage and the loot", before, action, after)


def _duel():
    s = _fresh()
    s.pos[0], s.pos[1] = cell(2, 2), cell(3, 2)
    return s


def test_attacking_fails_when_a_tie_hurts():
    before, action, after = _with_dice(_duel, ("attack", 1), lambda b, x: x.health == b.health)
    after.health[1] -= 1
    _fails("attacking: dice plus attack power, the loser takes damage, nobody moves", before, action, after)


def test_attacking_fails_when_the_winner_does_not_take_the_jewel():
    def carrier():
        s = _duel()
        s.jewel = 1
        return s

    before, action, after = _with_dice(carrier, ("attack", 1), lambda b, x: x.health[1] < b.health[1])
    assert after.jewel == 0
    after.jewel = 1
    _fails("attacking: dice plus attack power, the loser takes damage, nobody moves", before, action, after)


def test_dragon_fight_fails_when_a_losing_total_takes_the_jewel():
    def next_to_dragon():
        s = _fresh()
        s.pos[0] = cell(3, 2)
        return s

    before, action, after = _with_dice(next_to_dragon, ("move", CENTRE), lambda b, x: x.jewel is None)
    after.jewel = after.exit = 0
    after.health[0] = 2
    _fails("fighting the dragon: two dice plus attack power", before, action, after)


def test_entering_a_room_fails_when_the_token_goes_to_the_room_left():
    """Ledger 15: the drawn token lies on the room entered, not on the room the drawer stood on."""
    s = _fresh()
    s.pos[0] = cell(2, 0)
    s.tokens[cell(2, 0)] = s.pile.pop(0)  # the room seat 0 stands on has a token, the next one none
    s.known[cell(2, 0)] = 0b1
    before = s.clone()
    s.apply(("move", cell(3, 0)))
    check_transition(before, ("move", cell(3, 0)), s)
    s.tokens[cell(1, 0)], s.tokens[cell(3, 0)] = s.tokens[cell(3, 0)], None
    _fails("entering a room: draw, look, or nothing", before, ("move", cell(3, 0)), s)


def test_turn_order_fails_when_a_seat_plays_twice():
    s = _game().new_state(9)
    before, action, after = _play_until(s, lambda b, a, x: not x.stack and x.winner is None, Rng(6))
    after.seat = before.seat
    _fails("turns pass clockwise after each whole turn", before, action, after)


def test_knowledge_fails_when_another_seat_learns_a_drawn_token():
    s = _game().new_state(10)
    before, action, after = _play_until(
        s, lambda b, a, x: a[0] == "move" and x.stack and x.stack[-1].kind == "place", Rng(7))
    other = (before.seat + 1) % 4
    after.known[action[1]] |= 1 << other
    _fails("knowledge of token faces only grows as the rules say", before, action, after)


def test_slayer_step_fails_when_kept_past_the_next_turn():
    """Rulebook: the step to any surrounding space is the slayer's next turn only (ledger 32): an
    attack on that turn spends it."""
    for k in range(50):
        s = _game().new_state(12)
        s.pos[0], s.pos[1] = CENTRE, cell(3, 2)
        s.jewel = s.exit = 0
        s.seat, s.stack, s._legal = 0, [], None
        s.rng = Rng(k)
        before = s.clone()
        s.apply(("attack", 1))
        if s.jewel == 0:  # the slayer kept the jewel (won or tied)
            break
    check_transition(before, ("attack", 1), s)
    assert s.exit is None
    s.exit = 0
    _fails("the slayer's step off the centre: when it is offered", before, ("attack", 1), s)
