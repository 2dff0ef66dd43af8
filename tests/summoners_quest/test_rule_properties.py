"""The rule properties of Summoner's Quest (boardlab/games/summoners_quest/properties.py).

Each property must fail on a position or transition that breaks its rule (a property that cannot
fail checks nothing), and all of them must hold along real games in every variant and player count.
"""

from __future__ import annotations

import pytest

from boardlab.agents import Decision, make_agent
from boardlab.engine import game_class, make
from boardlab.engine.properties import PropertyViolation, check_state, check_transition
from boardlab.games.summoners_quest.properties import PROPERTIES

from .helpers import fresh, give, put, rolled, script

CH = 44


def violated(fn, *args) -> str:
    """The name of the property that fails (the test fails if none does)."""
    with pytest.raises(PropertyViolation) as info:
        fn(*args)
    return info.value.prop.name


def step(st, action):
    before = st.clone()
    st.apply(action)
    return before, tuple(action), st


def test_the_game_declares_its_properties_and_they_name_concordance_rows():
    assert game_class("summoners-quest").properties is PROPERTIES
    assert len(PROPERTIES) >= 40 and PROPERTIES.has_step
    assert all(p.rows for p in PROPERTIES)


def test_a_fresh_game_and_a_scripted_position_satisfy_every_property():
    st = make("summoners-quest", players=4).new_state(3)
    check_state(st)
    st = fresh(3)
    check_state(st)


# -- state properties fail on corrupted positions -----------------------------------------------
def test_a_card_in_two_places_breaks_conservation():
    st = fresh()
    st.hands[0].append(st.deck.draw_pile[-1])  # copied, not drawn
    assert violated(check_state, st) == "every card is in exactly one place"


def test_a_lost_card_breaks_conservation():
    st = fresh()
    st.deck.draw_pile.pop()
    assert violated(check_state, st) == "every card is in exactly one place"


def test_a_piece_behind_a_closed_gate_is_caught():
    st = fresh()
    put(st, 0, "oni", 33)  # hall a of gate 1, which is closed
    assert violated(check_state, st) == "centre pieces came through an open gate"
    st.gates = 1
    check_state(st)


def test_a_hold_away_from_the_chamber_is_caught():
    st = fresh()
    st.gates = 1
    st.pos[0] = CH
    st.hold[0] = 2
    check_state(st)
    st.pos[0] = 34  # out in the last hall of gate 1, still counting
    assert violated(check_state, st) == "only a summoner in the chamber holds it"


def test_a_sixth_card_and_a_fourth_status_and_eleven_life_are_caught():
    st = fresh()
    give(st, 0, *st.deck.draw_pile[-6:])
    assert violated(check_state, st) == "hands hold at most 5 cards"
    st = fresh()
    st.status[0] = [["slowed", 1], ["hasted", 1], ["blessed", 1], ["weakened", 1]]
    assert violated(check_state, st) == "status effects: 3 on a player, 1 on a monster"
    st = fresh()
    st.life[1] = 11
    assert violated(check_state, st) == "life stays within 0..10"


def test_a_defeated_summoner_with_a_summon_left_is_caught():
    st = fresh(3)
    put(st, 1, "oni", 5)
    st.alive[1], st.life[1], st.pos[1] = False, 0, -1
    assert violated(check_state, st) == "pieces stand on the board"


def test_an_out_of_range_target_offered_is_caught():
    # a rules bug that offered Fireball (range 2) at a summoner 3 spaces away
    st = fresh()
    give(st, 0, "fireball")
    st.pos[1] = 3
    st._legal = None
    check_state(st)
    st._legal = tuple(st.legal_actions()) + (("cast", "fireball", "P1"),)
    st.pos[1] = 5
    assert violated(check_state, st) == "spells and abilities reach only within their range"


def test_a_range_zero_ability_offered_at_the_next_space_is_caught():
    st = fresh(3)
    st.mana[0] = 10
    u = int(put(st, 0, "frost_giant", 9)[1:])
    st.pos[1], st.pos[2] = 9, 10
    st._legal = None
    assert ("ability", u, 10) not in st.legal_actions()
    check_state(st)
    st._legal = tuple(st.legal_actions()) + (("ability", u, 10),)
    assert violated(check_state, st) == "spells and abilities reach only within their range"


def test_equipping_a_monster_two_spaces_away_is_caught():
    st = fresh()
    give(st, 0, "aegis")
    far = put(st, 0, "talos", 2)
    st._legal = tuple(st.legal_actions()) + (("equip", "aegis", far),)
    assert violated(check_state, st) == "a monster is equipped within one space"


def test_a_stay_offered_while_a_piece_can_move_is_caught():
    st = fresh()
    rolled(st, 2, 3)
    check_state(st)
    st._legal = (("stay",),)
    assert violated(check_state, st) == "movement is mandatory"


def test_another_seats_hand_in_a_view_is_caught(monkeypatch):
    st = fresh()
    give(st, 1, "fireball")
    check_state(st)
    real = type(st).view

    def leaky(self, seat):
        v = real(self, seat)
        v["state"]["hand"] = [c for h in self.hands for c in h]
        v["state"]["peek"] = list(self.hands[1])
        return v

    monkeypatch.setattr(type(st), "view", leaky)
    assert violated(check_state, st) == "a seat sees no other seat's secrets"


# -- step properties fail on planted transitions ------------------------------------------------
def test_a_move_short_of_the_full_roll_is_caught():
    st = fresh()
    rolled(st, 3, 4)
    before, action, after = step(st, ("move", "P", 7, -1))
    check_transition(before, action, after)
    assert violated(check_transition, before, ("move", "P", 6, -1), after) == "a move goes the full roll"


def test_mana_from_nowhere_is_caught_and_the_temple_crossing_is_required():
    st = fresh()
    st.pos[0] = 28
    rolled(st, 3, 3)  # 28 -> 2, over the own temple at 0: +2
    before, action, after = step(st, ("move", "P", 2, -1))
    assert after.mana[0] + after.used[0] == 8
    check_transition(before, action, after)
    after.mana[1] += 1
    assert violated(check_transition, before, action, after) == "maximum mana grows only by crossing the own temple clockwise"
    st = fresh()
    st.pos[0] = 28
    rolled(st, 3, 3)
    before, action, after = step(st, ("move", "P", 2, -1))
    after.mana[0] -= 2  # the crossing not paid
    assert violated(check_transition, before, action, after) == "maximum mana grows only by crossing the own temple clockwise"


def _combat(att_roll: int, def_roll: int):
    """Player 1 moves onto player 2's summoner (no summons, no abilities): one combat in the move."""
    st = fresh()
    st.pos[1] = 7
    rolled(st, 3, 4)
    script(st, att_roll, def_roll)
    return step(st, ("move", "P", 7, -1))


def test_combat_damage_and_the_push_back_are_checked():
    before, action, after = _combat(5, 2)
    assert after.life[1] == 8 and after.pos[1] == 6 and after.pos[0] == 7
    check_transition(before, action, after)
    after.life[1] = 7  # one more than "a base of 2"
    assert violated(check_transition, before, action, after) == "combat damage is what the seed says"
    before, action, after = _combat(5, 2)
    after.pos[1] = 7  # the losing defender not moved back
    assert violated(check_transition, before, action, after) == "the loser of a combat moves back one space"
    before, action, after = _combat(1, 6)
    assert after.life[0] == 8 and after.pos[0] == 6  # the losing attacker moves back from where it landed
    check_transition(before, action, after)
    after.pos[0] = 8
    assert violated(check_transition, before, action, after) == "the loser of a combat moves back one space"


def test_a_combat_on_an_empty_space_or_none_on_an_enemy_is_caught():
    before, action, after = _combat(5, 2)
    empty = before.clone()
    empty.pos[1] = 20
    assert violated(check_transition, empty, action, after) == "combat happens on landing on an enemy"
    st = fresh()
    st.pos[1] = 9
    rolled(st, 3, 4)
    before, action, after = step(st, ("move", "P", 7, -1))
    check_transition(before, action, after)
    before.pos[1] = 7  # an enemy was there, yet no combat
    assert violated(check_transition, before, action, after) == "combat happens on landing on an enemy"


def test_a_chamber_win_without_the_hold_is_caught():
    st = fresh()
    st.gates = 1
    st.pos[0] = CH
    st.hold[0] = 3
    st.phase = "post"
    st._legal = None
    before, action, after = step(st, ("end",))
    assert after.winner == 0
    check_transition(before, action, after)
    before.hold[0] = 2
    assert violated(check_transition, before, action, after) == "the chamber is won by holding it three turns"


def test_a_trap_that_does_not_spring_is_caught():
    st = fresh()
    st.traps[5] = ["pitfall", 1]
    st.deck.draw_pile.remove("pitfall")
    rolled(st, 2, 3)
    script(st, 6)  # negated
    before, action, after = step(st, ("move", "P", 5, -1))
    assert 5 not in after.traps and "pitfall" in after.deck.discard_pile
    check_transition(before, action, after)
    after.traps[5] = ["pitfall", 1]
    after.deck.discard_pile.remove("pitfall")
    assert violated(check_transition, before, action, after) == "a trap springs on whoever lands on it, once"


def test_a_gate_opened_for_free_is_caught():
    st = fresh()
    st.mana[0] = 12
    st.pos[0] = 2
    rolled(st, 2, 2)  # 2 -> portal 4 -> gate, hall a
    before, action, after = step(st, ("move", "P", 33, 0))
    assert after.gates == 1 and after.mana[0] == 2
    check_transition(before, action, after)
    after.mana[0], after.used[0] = 12, 0
    assert violated(check_transition, before, action, after) == "cards and gates cost what the seed says"


# -- all of them, along real games ------------------------------------------------------------------
@pytest.mark.parametrize("variant", [v.name for v in game_class("summoners-quest").variants])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_property_holds_along_short_games(variant, players):
    game = make("summoners-quest", players=players, variant=variant)
    for seed, spec in ((players, "random"), (players + 7, "heuristic")):
        agents = [make_agent(spec, game, s, seed * 31 + s) for s in range(players)]
        st = game.new_state(seed)
        check_state(st)
        for _ in range(250):
            if st.is_over():
                break
            seat = st.current_seat()
            action = agents[seat].act(Decision(st, seat))
            before = st.clone()
            st.apply(action)
            check_transition(before, action, st)
