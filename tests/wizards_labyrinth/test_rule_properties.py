"""The rule properties (boardlab/games/wizards_labyrinth/properties.py): they hold along real games in every
version and player count, and they are not vacuous: a corrupted position or a planted bad transition fails
the property that states the broken rule."""

from __future__ import annotations

import pytest

from boardlab.agents import Decision, make_agent
from boardlab.engine import Token, make
from boardlab.engine.properties import PropertyViolation, check_state, check_transition
from boardlab.games.wizards_labyrinth.properties import PROPERTIES

from .helpers import Dice, put, scenario, to_moves

VARIANTS = ("final", "beta", "beta-playtest", "alpha")


def hand(s, *cards):
    """Give the wizard ``cards`` from his draw pile (so every card stays in one place) and mana to play them."""
    for c in cards:
        s.wdeck.draw_pile.remove(c)
    s.whand, s.mana, s.mana_left = list(cards), 8, 8
    s._legal = None


def violated(fn, *args) -> str:
    with pytest.raises(PropertyViolation) as info:
        fn(*args)
    return info.value.prop.name


@pytest.mark.parametrize("agent", ["random", "heuristic"])
@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("variant", VARIANTS)
def test_properties_hold_along_short_games(variant, players, agent):
    game = make("wizards-labyrinth", players=players, variant=variant, options={"max_turns": 16})
    agents = [make_agent(agent, game, seat, 7 + seat) for seat in range(players)]
    state = game.new_state(11 + players)
    check_state(state)
    steps = 0
    while not state.is_over():
        seat = state.current_seat()
        action = agents[seat].act(Decision(state, seat))
        before = state.clone()
        state.apply(action)
        check_transition(before, action, state)
        steps += 1
    assert steps > 20


def test_every_property_names_rows_and_the_game_declares_them():
    assert type(make("wizards-labyrinth", players=3)).properties is PROPERTIES
    assert len(PROPERTIES) >= 40 and all(p.rows for p in PROPERTIES)


# ------------------------------------------------------------------ corrupted positions
def test_a_tile_over_the_token_limit_fails():
    s = scenario()
    check_state(s)
    put(s, 20, "X", "X", "X", "X")  # 3 players: at most 3 tokens on a tile
    assert violated(check_state, s) == "no tile holds more tokens than the limit"


def test_a_lost_loot_card_fails():
    s = scenario()
    s.ldeck.draw_pile.pop()
    assert violated(check_state, s) == "every loot card is in exactly one place"


def test_a_vanished_wizard_card_fails():
    s = scenario()
    s.wdeck.draw_pile.pop()
    assert violated(check_state, s) == "every wizard card is in exactly one place; only cards that say so leave the game"


def test_a_key_from_nowhere_fails():
    s = scenario()
    s.hero(1).keys = 1
    assert violated(check_state, s) == "every key taken is held, lies where a hero died, or was used on the door"


def test_a_hero_cut_off_from_the_tower_fails():
    s = scenario()
    s.keys_taken, s.hero(1).keys = 2, 2
    s.flipped[1] = s.flipped[2] = True
    s.hero(1).pos = 24
    for c in (19, 23):  # the two tiles beside the bottom-right corner
        s.removed[c] = True
    assert violated(check_state, s) == "every hero and every dropped key can still get to the tower"


def test_a_trap_in_the_tower_fails():
    s = scenario()
    s.keys_taken, s.hero(1).keys = 2, 2
    s.flipped[1] = s.flipped[2] = True
    s.tokens[12].append(Token("T", False, 1))
    assert violated(check_state, s) == "the tower takes monsters and blanks only once the keys are taken, never traps"


def test_hit_points_above_the_start_fail():
    s = scenario()
    s.hero(2).hp = 11
    assert violated(check_state, s) == "hit points stay between 0 and the start value; a hero at 0 is dead"


def test_a_face_up_blank_fails():
    s = scenario()
    put(s, 20, "X", face_up=True)
    assert violated(check_state, s) == "flipped blanks are gone; sprung traps are discarded once the combat phase has sprung them"


def test_a_view_showing_a_face_down_token_fails():
    s = scenario()
    put(s, 20, "m3")
    s.tokens[20][0].reveal_to(1)  # the hero's view would now name it
    assert violated(check_state, s) == "a seat sees only what the rules let it know"


# ------------------------------------------------------------------ planted bad transitions
def test_a_played_card_that_is_never_discarded_fails():
    s = scenario()
    hand(s, "Frost Bolt")
    before = s.clone()
    s.apply(("play", "Frost Bolt"))
    check_transition(before, ("play", "Frost Bolt"), s)
    s.wdeck.discard_pile.remove("Frost Bolt")  # as if the rules forgot to discard it
    s.wdeck.draw_pile.append("Frost Bolt")
    assert violated(check_transition, before, ("play", "Frost Bolt"), s) == \
        "a played card costs its mana and goes to the discard pile (or out of the game)"


def test_a_token_placed_beside_a_hero_fails():
    s = scenario()
    hand(s, "Spike Trap")
    s.apply(("play", "Spike Trap"))
    before = s.clone()
    s.apply(("place", 20, "T"))
    check_transition(before, ("place", 20, "T"), s)
    s.hero(1).pos = before.hero(1).pos = 20  # the same placement, with a hero standing there
    assert violated(check_transition, before, ("place", 20, "T"), s) == "a placed token goes face down where placement allows"


def test_a_stuck_hero_moving_fails():
    s = to_moves(scenario())
    before = s.clone()
    s.apply(("move", 5))
    check_transition(before, ("move", 5), s)
    put(before, 0, "X")  # he started the turn on a token
    assert violated(check_transition, before, ("move", 5), s) == "a hero who starts on tokens cannot move"


def test_a_fight_costing_the_wrong_damage_fails():
    s = scenario()
    s.flipped[5] = True
    put(s, 5, "m1", "m1")
    to_moves(s)
    s.apply(("move", 5))
    before = s.clone()
    s.rng = Dice([20, 1])
    s.apply(("stay",))
    check_transition(before, ("stay",), s)
    assert s.hero(1).hp == 8
    s.hero(1).hp = 9  # one damage for two monsters: the seed says "1 damage for each monster"
    assert violated(check_transition, before, ("stay",), s) == "damage in the heroes' turn comes from the traps and monsters of one tile"


def test_a_wizard_turn_without_its_draw_fails():
    s = to_moves(scenario())
    s.apply(("stay",))
    before = s.clone()
    s.apply(("stay",))
    assert s.stack[-1].kind == "main"
    check_transition(before, ("stay",), s)
    s.wdeck.draw_pile.append(s.whand.pop())  # as if the turn began without "drawing a card from his deck"
    assert violated(check_transition, before, ("stay",), s) == "each wizard turn opens with the draw and the wheel's turn"


def test_moving_before_everyone_chose_fails():
    s = to_moves(scenario())
    before = s.clone()
    s.apply(("move", 5))
    check_transition(before, ("move", 5), s)
    s.hero(1).pos = 5  # the first hero's move made before the second chose
    assert violated(check_transition, before, ("move", 5), s) == "moves are secret until every hero has chosen, then made together"


def test_a_rage_without_the_keys_fails():
    s = scenario()
    before = s.clone()
    s.removed[24] = True
    assert violated(check_transition, before, ("remove", 24), s) in (
        "the rage removes tiles only while it rages, as many as there are players",
        "removed tiles hold nothing; the ring around the tower stays")


def test_a_loot_phase_leaving_a_room_face_down_fails():
    s = to_moves(scenario())
    s.apply(("move", 5))
    before = s.clone()
    s.apply(("stay",))
    check_transition(before, ("stay",), s)
    assert s.flipped[5]
    s.flipped[5] = False  # Hero 2's room stays face down though no token holds it
    assert violated(check_transition, before, ("stay",), s) in (
        "each wizard turn opens with the draw and the wheel's turn",  # the room's mana then came from nowhere
        "final: a tile flips once its tokens are resolved; every hero's tile is face up when the turn ends",
        "final: a hero on a room flipped in the loot phase who fought no monster draws a loot card")


@pytest.mark.parametrize(("variant", "seed"), [("beta", 100289), ("beta-playtest", 101312)])
def test_loot_taken_by_a_hero_who_then_dies_in_the_same_move(variant, seed):
    """Found by ``scripts/properties.py --mix long`` (7 December 2026): a hero takes the last loot card, the
    turn goes on, and a trap kills him in the same transition, so he holds nothing afterwards (his cards are
    dropped, and another hero may pick them up at once). The rules are right; the property must not claim
    the card is in his hand. The failing records' games, replayed: heuristic agents seeded as the script
    seeds them, 5 players."""
    from boardlab.agents.runner import agent_seed

    game = make("wizards-labyrinth", players=5, variant=variant)
    agents = [make_agent("heuristic", game, seat, agent_seed(seed, seat)) for seat in range(5)]
    state = game.new_state(seed)
    died_after_loot = 0
    while not state.is_over() and state.decisions < 400:
        seat = state.current_seat()
        action = agents[seat].act(Decision(state, seat))
        before = state.clone()
        state.apply(action)
        check_transition(before, action, state)
        if action[0] == "take" and not state.hero(action[2]).alive:
            died_after_loot += 1
    assert died_after_loot >= 1  # the situation the property missed is reached
