"""Seed scenarios for the Armies rules that no card or combat test already pinned (issue 29 concordance)."""

from __future__ import annotations

import pytest

from boardlab.engine import make
from boardlab.games.armies.content import DOMAINS, load_cards

from .helpers import FixedRng, at, finish_payment, give, mv, play, position, sq, touch


@pytest.mark.seed("armies:40.1", "armies:40.2", "armies:72.1")
def test_armies_start_green_and_bare():
    """'At the start of the game, all armies are considered "green", in that they have zero skill in each
    domain (for the General, see Setup).' 'All pieces start the game without any cards attached.'"""
    st = make("armies").new_state(3)
    for a in st.armies.values():
        assert a.skill == [0] * 5 and a.maxs == [0] * 5
        assert a.leader is None and a.attached == [] and a.traits == [] and a.hope == 0
    st.apply(("skills", "GGT"))
    st.apply(("skills", "ELS"))
    for a in st.armies.values():
        assert sum(a.maxs) == (3 if a.kind == "K" else 0)


@pytest.mark.seed("armies:9.1", "armies:9.3", "armies:9.4")
def test_one_leader_per_army_and_none_on_the_general():
    """'Each army may have up to one leader card attached' / 'Each army may only have a single Leader.' /
    'The General may not have a Leader card attached.'"""
    st = position({"e1": "K", "e8": "k", "d1": "Q", "f1": "R"}, hands=(["Shield Bearers", "Torani Cadet"], []))
    give(at(st, "e1"), "LLT")
    give(at(st, "d1"), "LT")
    at(st, "d1").leader = "Blood Cultist"
    touch(st)
    targets = {a[3] for a in st.legal_actions() if a[0] == "play"}
    assert sq("d1") not in targets and sq("e1") not in targets
    assert sq("f1") in targets  # an army without a leader takes one
    st.apply(play(st, "Shield Bearers", "e1", "f1"))
    finish_payment(st)
    assert at(st, "f1").leader == "Shield Bearers"
    assert st.offense(at(st, "f1")) == 0 and st.defense(at(st, "f1")) == 3  # its bonus


@pytest.mark.seed("armies:42.1", "armies:42.2")
def test_cards_go_only_onto_a_threatened_square_or_the_own_square():
    """'must be played on a square that the piece threatens, or on the space the piece itself occupies'; 'a
    pawn that tries to use an archery maneuver could only shoot an army on a square diagonally in front of it.'"""
    st = position({"e1": "K", "e8": "k", "d4": "P", "c5": "p", "d5": "p", "e6": "p"},
                  hands=(["Rain of Arrows", "Mind Fog"], []))
    give(at(st, "d4"), "TTTE")
    touch(st)
    plays = {(a[1], a[3]) for a in st.legal_actions() if a[0] == "play" and a[2] == at(st, "d4").id}
    assert plays == {("Rain of Arrows", sq("c5")), ("Mind Fog", sq("d4"))}


@pytest.mark.seed("armies:5.4")
def test_an_army_is_the_piece_with_its_cards():
    """'Each piece except the king, and any/all cards attached to it, is called an "Army".' The cards go
    where the piece goes, and stay through a promotion."""
    st = position({"e1": "K", "e8": "k", "a1": "R", "b7": "P"})
    rook, pawn = at(st, "a1"), at(st, "b7")
    rook.leader, rook.spent = "Shield Bearers", False
    rook.attached.append(("Spirit of Fire", 0))
    pawn.leader, pawn.spent = "Torani Cadet", False
    touch(st)
    st.apply(mv("a1", "a4"))
    assert at(st, "a4") is rook and rook.leader == "Shield Bearers" and rook.attached == [("Spirit of Fire", 0)]
    assert st.defense(rook) == 5
    st.apply(("end",))
    st.apply(("pass",))
    st.apply(("end",))
    st.apply(mv("b7", "b8", "q"))
    assert at(st, "b8") is pawn and pawn.kind == "Q" and pawn.leader == "Torani Cadet"


@pytest.mark.seed("armies:62.3")
def test_a_strategy_is_a_major_action_a_technique_and_training_are_not():
    """'Major actions consist of using a major leader ability or playing a card other than a Technique or
    Training.'"""
    st = position({"e1": "K", "e8": "k", "a1": "R"},
                  hands=(["Double March", "Mind Fog", "Teachings of Gnar", "Second Wind"], []))
    give(at(st, "e1"), "GGEE")
    rook = at(st, "a1")
    rook.leader, rook.spent = "Shield Bearers", True
    give(rook, "G")
    touch(st)
    st.apply(("strategy", "Double March"))
    finish_payment(st)
    legal = st.legal_actions()
    assert st.major_used and not any(a[0] == "play" and a[1] == "Mind Fog" for a in legal)
    assert ("play", "Second Wind", rook.id, sq("a1")) in legal
    assert any(a[0] == "train" for a in legal)


@pytest.mark.seed("armies:68.2", "armies:68.2b", "armies:376.2", "armies:378.1")
def test_end_of_the_turn_draw_then_unfavorable_war_then_snow():
    """The end of the turn (ledger 49): 'Finally, the player draws a card, to signal the end of their turn.'
    Then 'At the end of each player's turn ... reduce the skill on their General by 1' and 'At the end of each
    turn (for any player), remove a Snow token.'"""
    st = position({"e1": "K", "e8": "k", "a2": "P"})
    give(at(st, "e1"), "LL")
    st.strategies = [[900, "Unfavorable War", 1, 0], [901, "Unseasonable Weather", 1, 2]]
    touch(st)
    st.apply(("pass",))
    n = len(st.events(1))
    st.apply(("end",))
    assert [e["text"] for e in st.events(1)[n:]] == [
        "White draws a card.",
        "The white General permanently loses one Lorin skill point.",
        "A Snow token is removed from Unseasonable Weather: 1 left.",
    ]
    assert at(st, "e1").maxs == [0, 0, 1, 0, 0] and st.strategies[1][3] == 1 and st.current_seat() == 1


@pytest.mark.seed("armies:228.1", "armies:394.2", "armies:394.2b")
def test_bows_and_knives_caps_the_defense_dice_not_hold_the_line():
    """'All pieces you control have a maximum defense of 1.' against 'Target defending army gains two
    automatic successes.' (ledger 50): the cap limits the dice the defender rolls; Hold the Line's two
    successes come on top."""
    st = position({"e1": "K", "e8": "k", "a1": "R", "a7": "p", "b7": "r"}, hands=([], ["Hold the Line"]))
    pawn = at(st, "a7")
    pawn.leader = "Shield Bearers"  # defense 3, capped to 1
    st.strategies = [[900, "Bows and Knives", 1, 0]]
    give(at(st, "b7"), "LL")
    touch(st)
    assert st.defense(pawn) == 1
    st.rng = FixedRng([1])  # one defense die: 0 successes; the attack is 0 + 1
    st.apply(mv("a1", "a7"))
    assert st.stack[-1].kind == "after_dice"
    st.apply(("play", "Hold the Line", at(st, "b7").id, sq("a7")))
    finish_payment(st)
    assert at(st, "a7") is pawn and at(st, "a6").kind == "R"  # 1 against 0 + 2
    assert any(e["text"] == "Hold the Line: defense is now 2." for e in st.events(None))


@pytest.mark.seed("armies:9.2")
def test_hero_elite_and_types_are_kept_on_the_card_and_change_no_rule():
    """'Certain abilities distinguish between leaders that are "heroes" (individuals) and those that are
    "elites" (advanced troops).' No sample ability does (ledger 51): the type line is kept, and Blood
    Cultist's sacrifice takes a hero and an elite alike."""
    cards = load_cards()
    assert cards["Heavy Cavalry"].line.startswith("Elite") and cards["Heavy Cavalry"].subtypes == ("Soldiers",)
    assert cards["Torani Cadet"].line.startswith("Hero") and cards["Torani Cadet"].subtypes == ("Torani", "Soldier")
    st = position({"e1": "K", "e8": "k", "a1": "R", "h1": "R", "b1": "N"})
    cult, elite, hero = at(st, "b1"), at(st, "a1"), at(st, "h1")
    cult.leader, elite.leader, hero.leader = "Blood Cultist", "Heavy Cavalry", "Torani Cadet"
    give(cult, "E")
    touch(st)
    legal = st.legal_actions()
    assert ("ability", cult.id, "blood_sacrifice", elite.id) in legal
    assert ("ability", cult.id, "blood_sacrifice", hero.id) in legal


@pytest.mark.seed("armies:23.1", "armies:100.1", "armies:100.2")
def test_five_domains_and_their_letters():
    """'In Armies there are 5 "domains" of war.' / '"E" means "Ethyr domain skill", "L" is for "Lorin", "T"
    for "Tor", and "S" for "Shives".'"""
    from boardlab.games.armies.content import DOMAIN_NAMES, parse_cost

    assert DOMAINS == "GELTS" and [DOMAIN_NAMES[d] for d in DOMAINS] == ["Gnar", "Ethyr", "Lorin", "Tor", "Shives"]
    assert parse_cost("3GG") == (3, 2, 0, 0, 0, 0) and parse_cost("2SS") == (2, 0, 0, 0, 0, 2)


@pytest.mark.seed("armies:268.3")
def test_spirit_of_fire_on_cavalry_rests_once_after_the_whole_chain():
    """Spirit of Fire: 'If this army has the *cavalry* trait, it rests after the entire move/attack chain, not
    after each capture.'"""
    st = position({"e1": "K", "e8": "k", "a1": "R", "a3": "p", "a6": "p"})
    rook = at(st, "a1")
    rook.leader, rook.spent = "Heavy Cavalry", False
    rook.attached.append(("Spirit of Fire", 0))
    give(rook, "GG")
    rook.skill = [0] * 5
    touch(st)
    st.rng = FixedRng([6, 6, 1, 1, 1, 1, 1, 1])  # 8 dice, 2 successes + 1 = 3 against 0: a chain of power 2
    st.apply(mv("a1", "a3"))
    assert st.stack[-1].kind == "chain" and rook.skill == [0] * 5  # not rested after the first capture
    n = len(st.events(None))
    st.apply(("chain", sq("a6")))
    texts = [e["text"] for e in st.events(None)[n:]]
    assert at(st, "a6") is rook and rook.skill == [2, 0, 0, 0, 0] and st.counts["rule:spirit_rest"] == [1, 0]
    assert texts.index("Spirit of Fire: the army rests after its capture.") > texts.index("The pawn on a6 is destroyed.")
