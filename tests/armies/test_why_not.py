"""Armies' "why not": each common reason a card, a piece or a square cannot be used, on scripted positions."""

from __future__ import annotations

import pytest

from boardlab.engine import make
from boardlab.engine.errors import InvalidOptionError

from .helpers import at, give, position


def scene_of(st, seat=0):
    acting = st.current_seat()
    return st.game.scene(st.view(seat), st.legal_actions() if seat == acting else ())


def hand_reason(scene, name, seat=0):
    panel = next(p for p in scene["panels"] if p["seat"] == seat)
    return [c.get("why_not") for c in panel["cards"] if c["name"] == name][0]


def test_a_card_whose_cost_the_pieces_cannot_pay_says_what_it_costs_and_what_they_hold():
    st = position({"e1": "K", "e8": "k"}, hands=(["Heavy Cavalry", "Teachings of Gnar"], []))
    give(at(st, "e1"), "L")
    why = "it costs 5 of any domain + 2 Gnar and your pieces hold 1 Lorin"
    assert st.why_not(0, "Heavy Cavalry") == why
    assert st.why_not(0, "heavy cavalry") == why  # any case, and by its click id too
    click = next(f"card:{c['id']}" for p in scene_of(st)["panels"] if p["seat"] == 0 for c in p["cards"]
                 if c["name"] == "Heavy Cavalry")
    assert st.why_not(0, click) == why
    assert hand_reason(scene_of(st), "Heavy Cavalry") == why  # beside the card, for the browser
    assert st.why_not(0, "Teachings of Gnar") is None and hand_reason(scene_of(st), "Teachings of Gnar") is None


def test_a_response_technique_says_when_it_can_be_played():
    st = position({"e1": "K", "e8": "k"}, hands=(["Ambush"], []))
    give(at(st, "e1"), "TT")
    assert st.why_not(0, "Ambush") == "a technique played only in response, when one of your pieces is attacked"


def test_a_major_card_after_the_major_action_says_so():
    st = position({"e1": "K", "e8": "k"}, hands=(["Double March"], []))
    give(at(st, "e1"), "GG")
    assert st.why_not(0, "Double March") is None  # payable: a legal action plays it
    st.major_used = True
    st._legal = None
    assert st.why_not(0, "Double March") == "playing it is a major action (one a turn: a Leader, Maneuver, Boon, Curse or Strategy), and you used this turn's major action"


def test_a_payable_card_without_a_target_says_what_it_needs():
    # Rain of Arrows (TTT, an enemy target) with the Tor to pay but no enemy in reach
    st = position({"a1": "K", "a2": "P", "b1": "P", "b2": "P", "h8": "k"}, hands=(["Rain of Arrows"], []))
    give(at(st, "a1"), "TTT")
    assert st.why_not(0, "Rain of Arrows").startswith("no target: it is played through one of your pieces")


def test_pieces_and_squares_say_why_in_each_phase():
    st = position({"e1": "K", "e2": "P", "e8": "k", "a7": "p"})
    assert st.why_not(0, "e2") is None  # the pawn can move
    assert st.why_not(0, "a7") == "that is Black's pawn, and none of your moves or cards can reach it now"
    assert st.why_not(0, "a5") == "none of your pieces can move there now"
    assert st.why_not(1, "a7") == "it is not your turn"
    st.apply(("move", 12, 20, ""))  # e2-e3: the Second Opportunity
    assert st.view(0)["state"]["phase"] == "opp2"
    assert st.why_not(0, "e3") == ("you already moved this turn; your pawn has all its skill and no spent (used) leader,"
                                   " so resting it would restore nothing (rest another army or end the turn)")
    with pytest.raises(InvalidOptionError):
        st.why_not(0, "z9")


def test_only_ending_the_turn_is_explained():
    st = position({"e1": "K", "e8": "k"}, hands=(["Heavy Cavalry", "Ambush"], []))
    give(at(st, "e1"), "L")
    st.phase = "opp2"
    st._legal = None
    assert st.legal_actions() == (("end",),)
    hint = scene_of(st)["hint"]
    assert hint == ("You can only end the turn: no army of yours has used skill or a spent (used) leader for a rest to restore;"
                    " none of the 2 cards in hand can be played (1 played only in response, 1 too costly for your skill).")
    assert "hint" not in scene_of(st, 1)  # the other seat is not asked anything


def test_the_first_decision_is_grouped_and_explained():
    game = make("armies")
    st = game.new_state(1)
    labels = [st.describe(a) for a in st.legal_actions()]
    assert len(labels) == len(set(labels)) == 35
    assert sum(lab.startswith("General skill: all 3 in ") for lab in labels) == 5
    assert sum(" + 1 " in lab for lab in labels) == 20
    assert sum(lab.startswith("General skill: 1 each in ") for lab in labels) == 10
    assert st.describe(("skills", "GGT")) == "General skill: 2 Gnar + 1 Tor"
    assert st.describe(("skills", "GTT")) == "General skill: 2 Tor + 1 Gnar"
    hint = scene_of(st)["hint"]
    assert hint.startswith("Your General starts with 3 skill points, chosen now before you draw your hand")
    assert "Your deck's cards cost mostly " in hint
