"""Combat: binary dice, failed attacks, archery, cavalry chains, the General's losses."""

from __future__ import annotations

import math

import pytest

from boardlab.engine.rng import Rng
from boardlab.games.armies.features import win_chance

from .helpers import FixedRng, at, give, mv, play, position, finish_payment, sq, touch


def _exact(att_dice: int, bonus: int, def_dice: int) -> float:
    p = 0.0
    for a in range(att_dice + 1):
        for d in range(def_dice + 1):
            if a + bonus > d:
                p += math.comb(att_dice, a) * math.comb(def_dice, d) / 2 ** (att_dice + def_dice)
    return p


@pytest.mark.parametrize("dice", ["d6", "coin"])
@pytest.mark.parametrize("leaders", [("Blood Cultist", "Shield Bearers"), ("Heavy Cavalry", "Heavy Cavalry")])
@pytest.mark.seed("armies:76.1", "armies:76.3", "armies:78.1", "armies:80.2", "armies:80.3")
def test_binary_dice_combat_matches_binomial_odds(dice, leaders):
    """'The attacker rolls a number of dice equal to the offense stat ... and adds one ... The defender
    rolls dice equal to the defense stat ... higher result' wins; each die is 1 with probability 1/2."""
    st = position({"e1": "K", "e8": "k", "d4": "R", "d6": "n"}, active=0, options={"dice": dice})
    att, dfn = at(st, "d4"), at(st, "d6")
    att.leader, dfn.leader = leaders
    touch(st)
    n = 3000
    wins = 0
    base = st.clone()
    for i in range(n):
        s = base.clone()
        s.rng = Rng(1000 + i)
        s.apply(mv("d4", "d6"))
        wins += at(s, "d6") is not None and at(s, "d6").seat == 0
    cards = st.game.cards
    p = _exact(cards[leaders[0]].offense, 1, cards[leaders[1]].defense)
    assert p == pytest.approx(win_chance(cards[leaders[0]].offense, 1, cards[leaders[1]].defense))
    sd = math.sqrt(n * p * (1 - p))
    assert abs(wins - n * p) < 4.5 * sd, (wins, n * p)


@pytest.mark.seed("armies:78.2", "armies:80.4", "armies:82.1")
def test_unenhanced_attacker_always_wins():
    """'Because of the automatic +1 of the attacker, unenhanced armies behave exactly like chess pieces.'"""
    for seed in range(20):
        st = position({"e1": "K", "e8": "k", "d4": "B", "f6": "p"}, active=0, seed=seed)
        st.apply(mv("d4", "f6"))
        assert at(st, "f6").kind == "B" and at(st, "d4") is None


@pytest.mark.seed("armies:80.1", "armies:80.4", "armies:80.5")
def test_failed_attacker_moves_next_to_defender():
    """'If the defender wins ... or there is a tie, the attacker moves to the square adjacent to the
    defender in the direction of the attack.'"""
    st = position({"e1": "K", "e8": "k", "a1": "R", "a7": "p"}, active=0)
    at(st, "a7").leader = "Shield Bearers"  # 0/3
    st.rng = FixedRng([1, 1, 1])  # defender rolls 0 successes: 1 vs 0 -> attacker wins
    st.apply(mv("a1", "a7"))
    assert at(st, "a7").kind == "R"
    st = position({"e1": "K", "e8": "k", "a1": "R", "a7": "p"}, active=0)
    at(st, "a7").leader = "Shield Bearers"
    st.rng = FixedRng([6, 1, 1])  # defense 1 = attack 1: a tie, the defender wins
    st.apply(mv("a1", "a7"))
    assert at(st, "a6").kind == "R" and at(st, "a7").kind == "P"
    assert st.counts["rule:attack_failed"] == [1, 0]


@pytest.mark.seed("armies:80.6")
def test_failed_knight_stays_put():
    """'A knight that fails to successfully capture its target does not move.'"""
    st = position({"e1": "K", "e8": "k", "b1": "N", "c3": "p"}, active=0)
    at(st, "c3").leader = "Shield Bearers"
    st.rng = FixedRng([6, 6, 6])
    st.apply(mv("b1", "c3"))
    assert at(st, "b1").kind == "N" and at(st, "c3").kind == "P"


@pytest.mark.seed("armies:92.1", "armies:92.2")
def test_archery_no_move_no_bonus():
    """Archery: 'the attacking army does not move, and does not gain the automatic +1.'"""
    st = position({"e1": "K", "e8": "k", "d4": "Q", "d7": "p"}, active=0, hands=(["Rain of Arrows"], []))
    give(at(st, "d4"), "TTT")
    touch(st)
    st.apply(play(st, "Rain of Arrows", "d4", "d7"))
    finish_payment(st)
    # power 4 against 0 defense: destroyed, archer stays
    assert at(st, "d7") is None and at(st, "d4").kind == "Q"
    assert st.counts["rule:ranged_attack"] == [1, 0]


@pytest.mark.seed("armies:92.2", "armies:186.1")
def test_ranged_attack_of_power_can_fail():
    st = position({"e1": "K", "e8": "k", "d4": "Q", "d7": "p"}, active=0, hands=(["Rain of Arrows"], []))
    give(at(st, "d4"), "TTT")
    d7 = at(st, "d7")
    d7.leader = "Heavy Cavalry"  # defense 5
    touch(st)
    st.rng = FixedRng([6, 6, 6, 6, 6])
    st.apply(play(st, "Rain of Arrows", "d4", "d7"))
    finish_payment(st)
    assert at(st, "d7") is d7 and at(st, "d4").kind == "Q"


@pytest.mark.seed("armies:94.1", "armies:94.2", "armies:94.3", "armies:94.4", "armies:114.1")
def test_cavalry_chain_power_is_margin_minus_one():
    """'if a rook attacks a pawn and beats it by three, it can attack again, with a power of two.'"""
    st = position({"e1": "K", "e8": "k", "a1": "R", "a3": "p", "a6": "p"}, active=0)
    rook = at(st, "a1")
    rook.leader = "Heavy Cavalry"  # offense 6
    rook.spent = False
    touch(st)
    st.rng = FixedRng([6, 6, 1, 1, 1, 1])  # 2 successes + 1 = 3 vs 0: margin 3
    st.apply(mv("a1", "a3"))
    assert st.stack[-1].kind == "chain" and st.stack[-1].data["power"] == 2
    legal = st.legal_actions()
    assert ("chain", sq("a4")) in legal and ("chain", sq("a6")) in legal and ("chain", sq("a7")) not in legal
    st.apply(("chain", sq("a6")))
    assert at(st, "a6") is rook and st.counts["rule:cavalry_chain"] == [1, 0]


@pytest.mark.seed("armies:94.1", "armies:94.2")
def test_no_chain_when_margin_is_two_or_without_cavalry():
    st = position({"e1": "K", "e8": "k", "a1": "R", "a3": "p", "a6": "p"}, active=0)
    rook = at(st, "a1")
    rook.leader = "Heavy Cavalry"
    touch(st)
    st.rng = FixedRng([6, 1, 1, 1, 1, 1])  # 1 + 1 = 2 vs 0
    st.apply(mv("a1", "a3"))
    assert not st.stack and at(st, "a3") is rook
    st = position({"e1": "K", "e8": "k", "a1": "R", "a3": "p"}, active=0)
    at(st, "a1").leader = "Blood Cultist"  # no cavalry
    at(st, "a1").spent = False
    touch(st)
    st.rng = FixedRng([6])
    st.apply(mv("a1", "a3"))
    assert not st.stack


@pytest.mark.seed("armies:66.2")
def test_spent_leader_cannot_attack_but_may_move():
    """'Armies with spent leaders cannot attack (but may move).'"""
    st = position({"e1": "K", "e8": "k", "a1": "R", "a3": "p"}, active=0)
    at(st, "a1").leader = "Shield Bearers"
    at(st, "a1").spent = True
    touch(st)
    legal = st.legal_actions()
    assert mv("a1", "a2") in legal and mv("a1", "a3") not in legal


@pytest.mark.seed("armies:86.1", "armies:88.1", "armies:88.2", "armies:88.3")
def test_general_loses_a_skill_point_per_lost_battle_and_falls_when_it_cannot_pay():
    """'After each defeat, the General permanently loses a single skill point in a domain of the owner's
    choice. Only if the General cannot pay this price, is the game over.'"""
    st = position({"e1": "K", "e8": "k", "e3": "R"}, active=0)
    g = at(st, "e8")
    give(g, "GE")
    touch(st)
    st.apply(mv("e3", "e8"))
    assert st.stack[-1].kind == "general_loss" and st.stack[-1].seat == 1
    assert set(st.legal_actions()) == {("lose", "G"), ("lose", "E")}
    st.apply(("lose", "E"))
    assert g.maxs == [1, 0, 0, 0, 0] and at(st, "e8") is g
    assert at(st, "e7").kind == "R"  # the attacker stops next to the General (ledger)
    g.maxs = [0] * 5
    g.skill = [0] * 5
    st.active = 0
    st.phase = "opp1"
    touch(st)
    st.apply(mv("e7", "e8"))
    assert st.is_over() and st.winners() == (0,)
