"""Seed scenarios for sentences of seed 004 that no other test exercised (the concordance, issue 29).

Each test quotes its sentence and carries the concordance row it pins
(``docs/rules/summoners-quest.concordance.csv``).
"""

import pytest

from boardlab.engine import make
from boardlab.engine.errors import InvalidOptionError

from .helpers import fresh, give, put, rolled, script

CH = 44  # the chamber of victory


@pytest.mark.seed("summoners-quest:13.1")
def test_four_summoner_tokens_seat_two_to_four_players():
    # "4 Summoner tokens"
    assert make("summoners-quest", players=4).new_state(0).game.players == 4
    with pytest.raises(InvalidOptionError, match="2-4 players"):
        make("summoners-quest", players=5)


@pytest.mark.seed("summoners-quest:30.4")
def test_going_backwards_past_the_temple_then_clockwise_over_it_gains_again():
    # "If at any point, a power or ability causes the player to go backwards past a starting point and
    # they go through it again, they only gain additional Mana Stones while going in a clock-wise direction."
    st = fresh()
    st.pos[0] = 1
    st.apply_effects((("push", 3),), 1, "P0")  # backwards past the own temple: nothing
    assert st.pos[0] == 30 and st.mana[0] == 6
    rolled(st, 1, 2)
    st.apply(("move", "P", 1, -1))  # clockwise over it again: +2
    assert st.mana[0] == 8
    st.status[0] = [["reversed", 1]]  # counter-clockwise over it by dice: nothing
    st.phase = "move"
    st._legal = None
    assert st.legal_actions() == (("move", "P", 30, -2),)
    st.apply(("move", "P", 30, -2))
    assert st.mana[0] == 8


@pytest.mark.seed("summoners-quest:38.9")
def test_a_summoner_in_the_chamber_still_rolls_and_moves_its_summon_outside():
    # "Players must still roll for movement for their summon if they have any outside of the chamber of victory."
    st = fresh()
    st.gates = 1
    st.pos[0] = CH
    s = put(st, 0, "einherjar", 10)
    st._legal = None
    assert st.legal_actions()[-1] == ("roll",)
    rolled(st, 2, 3)
    assert set(st.legal_actions()) == {("move", s, 15, -1), ("move", s, 5, -2)}


@pytest.mark.seed("summoners-quest:48.5")
def test_an_ability_without_range_affects_only_its_own_space():
    # "If for some reason, an ability has an effect that would affect another player or a summon and it
    # does not have a denoted range then it is assumed that the ability must be used on a summon within
    # the same space or must be used during combat."
    st = fresh()
    st.mana[0] = 10
    giant = put(st, 0, "frost_giant", 5)  # Frost Stomp: every enemy piece on one space, range 0
    st.pos[1] = 5
    put(st, 1, "oni", 6)
    st._legal = None
    assert [a for a in st.legal_actions() if a[0] == "ability"] == [("ability", int(giant[1:]), 5)]


@pytest.mark.seed("summoners-quest:54.5", "summoners-quest:54.6")
def test_equipment_is_equipped_and_used_before_or_after_the_move():
    # "A player may choose to equip an equipment card before or after their move."
    # "The abilities that a card bestows (such as Mjolnir's lightning bolt) may also be used before or after a move."
    st = fresh()
    st.mana[0] = 20
    st.pos[1] = 2
    give(st, 0, "mjolnir", "aegis")
    acts = st.legal_actions()
    assert ("equip", "mjolnir", "P0") in acts and ("equip", "aegis", "P0") in acts
    st.apply(("equip", "mjolnir", "P0"))
    assert ("use", "mjolnir", "P1") in st.legal_actions()  # before the move
    rolled(st, 1, 2)
    assert not any(a[0] in ("equip", "use") for a in st.legal_actions())  # not while moving
    st.apply(("move", "P", 3, -1))
    acts = st.legal_actions()
    assert ("equip", "aegis", "P0") in acts and ("use", "mjolnir", "P1") in acts  # after the move
    st.apply(("use", "mjolnir", "P1"))
    assert st.life[1] == 7


@pytest.mark.seed("summoners-quest:54.8")
def test_a_removed_item_goes_to_the_discard_pile():
    # "After an equipment card is expended, destroyed, or the player simply wishes to remove their
    # currently equipped item it is sent to the discard pile."
    st = fresh()
    s = put(st, 0, "oni", 0)
    st.summons[int(s[1:])].equip.append("aegis")
    st.deck.draw_pile.remove("aegis")
    st._legal = None
    st.apply(("unequip", "aegis"))
    assert st.summons[int(s[1:])].equip == [] and st.deck.discard_pile == ["aegis"]


# -- ledger readings -------------------------------------------------------------------------------------
@pytest.mark.seed("summoners-quest:24.1b")
def test_a_summon_card_may_be_summoned_on_any_later_turn():
    # Ledger "When to summon": "When a player acquires a Summon card, they may expend ..." is not limited
    # to the moment of drawing: the card waits in the hand and is summoned at will, before or after a move.
    st = fresh()
    st.mana[0] = 0
    give(st, 0, "einherjar")
    assert ("summon", "einherjar") not in st.legal_actions()  # no mana yet
    st.phase = "post"
    st._legal = None
    st.apply(("end",))
    st.phase = "post"
    st._legal = None
    st.apply(("end",))  # seat 0's next turn (nothing was used, so nothing is recovered)
    st.mana[0] = 2
    st._legal = None
    assert st.active == 0 and ("summon", "einherjar") in st.legal_actions()
    rolled(st, 1, 1)
    st.apply(("move", "P", 2, -1))
    assert ("summon", "einherjar") in st.legal_actions()  # after the move too


@pytest.mark.seed("summoners-quest:28.1")
def test_hand_cards_are_discarded_only_when_a_rule_or_card_says_so():
    # Ledger "Discarding from the hand": "Cards may be discarded for any number of reasons" names no
    # at-will discard; a card that cannot be played simply stays in the hand.
    st = fresh()
    st.mana[0] = 0
    give(st, 0, "jormungandr")  # cost 7
    assert st.legal_actions() == (("roll",),)


@pytest.mark.seed("summoners-quest:28.1b")
def test_the_only_discard_from_a_hand_is_playing_or_discarding_to_draw_at_a_full_focus_point():
    # Ledger "Discarding from the hand": no at-will discard, before or after moving; at a focus point
    # with 5 cards the player may discard one to draw (or keep the hand), and that card goes to the
    # discard pile.
    st = fresh()
    st.mana[0] = 0
    hand = ["jormungandr", "fenrir", "nidhogg", "hydra", "cerberus"]
    give(st, 0, *hand)
    assert st.legal_actions() == (("roll",),)
    rolled(st, 1, 2)
    st.apply(("move", "P", 3, -1))  # a focus point, nobody there
    acts = st.legal_actions()
    assert set(acts) == {("discard_draw", c) for c in hand} | {("keep",)}
    st.apply(("discard_draw", "hydra"))
    assert len(st.hands[0]) == 5 and "hydra" not in st.hands[0] and st.deck.discard_pile == ["hydra"]
    assert {a[0] for a in st.legal_actions()} == {"end"}  # after moving: still no discard


@pytest.mark.seed("summoners-quest:46.1c")
def test_a_losing_attacker_that_moved_backwards_is_pushed_on_counter_clockwise():
    # Ledger "A losing attacker that moved backwards": "move back one space" is the board's backward
    # direction (counter-clockwise), as for the losing defender and push effects, whichever way it came.
    st = fresh()
    s = put(st, 0, "tanuki", 10)  # neither has a combat ability: no prompt before the dice
    put(st, 1, "huldra", 7)
    rolled(st, 1, 2)
    script(st, 1, 6)  # the attacker loses
    st.apply(("move", s, 7, -2))
    assert st.pos_of(s) == 6 and st.summons[int(s[1:])].damage == 1


@pytest.mark.seed("summoners-quest:54.7")
def test_an_items_at_will_ability_does_not_stop_a_ward_from_evading_a_trap():
    # "Only one equipment's "at-will" ability may be used per turn, but does not prevent circumstantial
    # effects (such as evading one trap) from activating."
    st = fresh()
    st.equip[0] = ["mjolnir", "yata_mirror"]
    st.pos[1] = 2
    st.traps[3] = ["fire_glyph", 1]
    st._legal = None
    st.apply(("use", "mjolnir", "P1"))
    assert not any(a[0] == "use" for a in st.legal_actions())
    rolled(st, 1, 2)
    script(st)  # no negation roll: the mirror evades the trap
    st.apply(("move", "P", 3, -1))
    assert st.life[0] == 10 and st.equip[0] == ["mjolnir"] and 3 not in st.traps


@pytest.mark.seed("summoners-quest:64.2")
def test_a_fourth_effect_waits_until_one_of_three_has_ended():
    # "A player may only be affected by up to 3 effects at once. Once an effect has ended, a new effect
    # may be applied up to the maximum of 3 at any one time."
    st = fresh()
    st.active = 1
    for name, turns in (("poisoned", 1), ("weakened", 2), ("slowed", 2)):
        st.add_status("P0", name, turns)
    st.add_status("P0", "stunned", 1)
    assert not st.has_status("P0", "stunned")
    st.active = 0
    st.tick_statuses("P0")  # the end of seat 0's turn: the poison has ended
    assert [s[0] for s in st.status[0]] == ["weakened", "slowed"]
    st.active = 1
    st.add_status("P0", "stunned", 1)
    assert [s[0] for s in st.status[0]] == ["weakened", "slowed", "stunned"]
