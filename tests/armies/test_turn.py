"""Setup and the turn: opportunities, one major action, the move, rest and the draw."""

from __future__ import annotations

import pytest

from boardlab.engine import make

from .helpers import at, finish_payment, give, mv, play, position, touch


@pytest.mark.seed("armies:23.1", "armies:72.2", "armies:72.3", "armies:72.3c")
def test_setup_general_skill_then_seven_cards_white_first():
    """'Each player's General (the king) is given three skill points distributed however the player
    chooses ... The players then draw seven cards ... (or white goes first)'."""
    st = make("armies").new_state(1)
    assert st.stack[-1].kind == "setup" and st.current_seat() == 0
    assert len(st.legal_actions()) == 35  # multisets of 3 points over 5 domains
    st.apply(("skills", "GGL"))
    assert st.current_seat() == 1
    st.apply(("skills", "EEE"))
    assert st.general(0).maxs == [2, 0, 1, 0, 0] and st.general(0).skill == [2, 0, 1, 0, 0]
    assert st.general(1).maxs == [0, 3, 0, 0, 0]
    assert [len(h) for h in st.hands] == [7, 7] and [len(d) for d in st.decks] == [53, 53]
    assert st.current_seat() == 0 and st.phase == "opp1" and st.turn == 1


@pytest.mark.seed("armies:72.3b")
def test_roll_for_first_player():
    firsts = set()
    for seed in range(12):
        st = make("armies", variant="roll-first").new_state(seed)
        st.apply(("skills", "GEL"))
        st.apply(("skills", "GEL"))
        firsts.add(st.current_seat())
        assert st.first == st.current_seat()
    assert firsts == {0, 1}


@pytest.mark.seed("armies:52.1", "armies:62.1")
def test_one_major_action_per_turn_in_either_opportunity():
    """'During either the First Opportunity or the Second Opportunity (but only once per turn!) the
    player may take a major action.'"""
    st = position({"e1": "K", "e8": "k", "d1": "Q", "a2": "P", "e2": "P"}, hands=(["Shield Bearers", "Shield Bearers", "Teachings of Lorin"], []))
    give(at(st, "e1"), "LLL")
    touch(st)
    st.apply(mv("a2", "a3"))
    assert st.phase == "opp2"
    st.apply(play(st, "Shield Bearers", "e1", "d1"))
    finish_payment(st)
    assert st.major_used
    assert not any(a[0] == "play" for a in st.legal_actions())
    assert any(a[0] == "train" for a in st.legal_actions())  # training is not a major action
    st.apply(("end",))
    st.apply(("pass",))
    st.apply(("end",))
    assert not st.major_used and any(a[0] == "play" for a in st.legal_actions())


@pytest.mark.seed("armies:5.5", "armies:46.3", "armies:68.1", "armies:68.2")
def test_rest_restores_one_army_and_readies_its_leader_then_draw():
    """'During the Rest phase, the player may rest one of their armies, restoring its skill points to
    maximum and returning its leader to the ready state. Finally, the player draws a card'."""
    st = position({"e1": "K", "e8": "k", "d1": "Q"})
    q = at(st, "d1")
    give(q, "GG")
    q.skill = [0] * 5
    q.leader, q.spent = "Shield Bearers", True
    g = at(st, "e1")
    give(g, "L")
    g.skill = [0] * 5
    touch(st)
    st.apply(("pass",))
    legal = st.legal_actions()
    assert ("rest", q.id) in legal and ("rest", g.id) in legal and ("end",) in legal
    st.apply(("rest", q.id))
    assert q.skill == [2, 0, 0, 0, 0] and not q.spent and g.skill == [0] * 5
    assert len(st.hands[0]) == 1 and st.current_seat() == 1


@pytest.mark.seed("armies:46.2")
def test_skill_is_not_restored_without_rest():
    st = position({"e1": "K", "e8": "k"}, hands=(["Mind Fog"], []))
    give(at(st, "e1"), "EE")
    touch(st)
    st.apply(play(st, "Mind Fog", "e1", "e1"))
    finish_payment(st)
    st.apply(("pass",))
    st.apply(("end",))
    assert sum(at(st, "e1").skill) == 0


@pytest.mark.parametrize("rule,over", [("skip", False), ("lose", True), ("reshuffle", False)])
def test_deck_out_options(rule, over):
    st = position({"e1": "K", "e8": "k"}, options={"deck_out": rule}, deck=())
    st.discards[0] = ["Mind Fog"]
    st.apply(("pass",))
    st.apply(("end",))
    assert st.is_over() == over
    if rule == "reshuffle":
        assert st.hands[0] == ["Mind Fog"]
    if rule == "skip":
        assert st.hands[0] == [] and st.counts["rule:deck_out"] == [1, 0]


def test_training_limit_option():
    st = position({"e1": "K", "e8": "k"}, hands=(["Teachings of Gnar", "Teachings of Tor"], []), variant="one-training")
    st.apply(("train", "Teachings of Gnar", at(st, "e1").id))
    assert not any(a[0] == "train" for a in st.legal_actions())


def test_always_windows_open_even_without_a_response():
    st = position({"e1": "K", "e8": "k", "a1": "R", "a7": "p"}, variant="hidden-windows")
    st.apply(mv("a1", "a7"))
    assert st.stack[-1].kind == "attack_window" and st.legal_actions() == (("pass",),)
    st.apply(("pass",))
    assert st.stack[-1].kind == "after_dice"
    st.apply(("pass",))
    assert at(st, "a7").kind == "R"


@pytest.mark.seed("armies:72.3c")
def test_no_deck_mode_has_no_cards_and_the_general_has_three_points():
    st = make("armies", variant="chess").new_state(0)
    assert st.hands == [[], []] and not st.stack and st.current_seat() == 0
    assert sum(st.general(0).maxs) == 3
    assert all(a[0] in ("move", "pass") for a in st.legal_actions())


def test_metrics_count_cards_and_rules():
    st = position({"e1": "K", "e8": "k", "a2": "P"}, hands=(["Teachings of Gnar"], []))
    st.apply(("train", "Teachings of Gnar", at(st, "a2").id))
    st.apply(mv("a2", "a4"))
    m = st.metrics()
    assert m["card:Teachings of Gnar"] == [1, 0]
    assert st.action_tags(("train", "Teachings of Gnar", 1)) == ("card:Teachings of Gnar",)


def test_no_draw_rule_the_turn_cap_ends_dead_positions():
    """The seed has no draw rule: two bare Generals can walk forever; the turn cap truncates the game."""
    st = position({"a1": "K", "h8": "k"}, variant="chess", options={"max_turns": 12})
    give(at(st, "a1"), "GEL")
    give(at(st, "h8"), "GEL")
    touch(st)
    while not st.is_over():
        st.apply(("pass",) if ("pass",) in st.legal_actions() else ("end",))
    assert st.results().truncated and st.results().winners == ()
