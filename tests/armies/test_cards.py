"""Scenario tests for every sample card (the card's text is quoted in each docstring)."""

from __future__ import annotations

import pytest

from .helpers import FixedRng, at, finish_payment, give, mv, play, position, sq, touch


def _play(st, name, primary, target):
    st.apply(play(st, name, primary, target))
    finish_payment(st)


# -- Leaders -------------------------------------------------------------------
@pytest.mark.seed("armies:42.3", "armies:66.4", "armies:114.1")
def test_heavy_cavalry_cost_paid_with_support_and_enters_spent():
    """Heavy Cavalry, 5GG 6/5, *Cavalry*; 'Leader cards are spent when they come into play.'
    Supporters that threaten the square pay part; the primary pays at least one point."""
    st = position({"e1": "K", "e8": "k", "d1": "Q", "a4": "R"}, hands=(["Heavy Cavalry"], []))
    give(at(st, "d1"), "GG")
    give(at(st, "e1"), "GGGGG")  # the General threatens d1 and pays the rest
    give(at(st, "a4"), "GGGGG")  # a4 does not threaten d1: cannot support
    touch(st)
    assert play(st, "Heavy Cavalry", "d1", "d1") in st.legal_actions()
    # the rook on a4 could not even pay through d1 with its own pool: only 7 points with the General
    st.apply(play(st, "Heavy Cavalry", "d1", "d1"))
    assert st.stack[-1].kind == "pay"
    finish_payment(st)
    q = at(st, "d1")
    assert q.leader == "Heavy Cavalry" and q.spent
    assert st.offense(q) == 6 and st.defense(q) == 5 and st.has_trait(q, "cavalry")
    assert sum(q.skill) + sum(at(st, "e1").skill) == 0 and sum(at(st, "a4").skill) == 5
    assert st.major_used


@pytest.mark.seed("armies:46.5")
def test_primary_must_pay_at_least_one_point():
    """'supporting pieces may not pay the entire cost of a card'."""
    st = position({"e1": "K", "e8": "k", "d1": "Q"}, hands=(["Shield Bearers"], []))
    give(at(st, "e1"), "LLL")
    touch(st)
    assert play(st, "Shield Bearers", "d1", "d1") not in st.legal_actions()
    assert play(st, "Shield Bearers", "e1", "d1") in st.legal_actions()


@pytest.mark.seed("armies:46.1", "armies:46.4", "armies:46.5")
def test_pay_prompt_step_by_step():
    st = position({"e1": "K", "e8": "k", "d1": "Q"}, hands=(["Shield Bearers"], []))
    give(at(st, "e1"), "LL")
    give(at(st, "d1"), "L")
    touch(st)
    st.apply(play(st, "Shield Bearers", "d1", "d1"))
    # only the primary may pay while it has not paid (cost L: supporters would pay it all)
    assert set(st.legal_actions()) == {("autopay",), ("pay", at(st, "d1").id, "L")}
    st.apply(("pay", at(st, "d1").id, "L"))
    assert at(st, "d1").leader == "Shield Bearers"


@pytest.mark.seed("armies:122.1", "armies:128.1")
def test_blood_cultist_sacrifice_gives_offense_until_end_of_turn():
    """Blood Cultist: 'E + Sacrifice a leader from anywhere: Blood Cultists army get's +2 offense until end of turn.'"""
    st = position({"e1": "K", "e8": "k", "a1": "R", "h1": "R"})
    cult, other = at(st, "a1"), at(st, "h1")
    cult.leader, other.leader = "Blood Cultist", "Shield Bearers"
    give(cult, "E")
    touch(st)
    st.apply(("ability", cult.id, "blood_sacrifice", other.id))
    assert other.leader is None and "Shield Bearers" in st.discards[0]
    assert st.offense(cult) == 3 and cult.skill[1] == 0
    st.apply(("pass",))
    st.apply(("end",))
    assert st.offense(cult) == 1


@pytest.mark.seed("armies:9.1", "armies:130.1")
def test_shield_bearers_defense():
    """Shield Bearers, L 0/3."""
    st = position({"e1": "K", "e8": "k", "a1": "R"})
    at(st, "a1").leader = "Shield Bearers"
    assert st.defense(at(st, "a1")) == 3 and st.offense(at(st, "a1")) == 0


@pytest.mark.seed("armies:62.3", "armies:136.1", "armies:142.1", "armies:142.2")
def test_torani_cadet_ready_and_not_major():
    """Torani Cadet: 'does not come into play spent. Playing Torani Cadet does not count as a major action.'"""
    st = position({"e1": "K", "e8": "k", "d1": "Q", "d2": "P"}, hands=(["Torani Cadet", "Shield Bearers"], []))
    give(at(st, "e1"), "TL")
    give(at(st, "d1"), "T")
    touch(st)
    _play(st, "Torani Cadet", "d1", "d1")
    assert at(st, "d1").leader == "Torani Cadet" and not at(st, "d1").spent and not st.major_used
    assert play(st, "Shield Bearers", "e1", "d2") in st.legal_actions()


@pytest.mark.seed("armies:144.1", "armies:150.1", "armies:150.1b")
def test_cloaksworn_commander_cannot_be_targeted():
    """Cloaksworn Commander: 'All cards or abilities that target Cloaksworn Commander fail' - such plays
    are not offered (ledger); ordinary attacks still work."""
    st = position({"e1": "K", "e8": "k", "d4": "Q", "d7": "r", "e4": "P"}, hands=(["Rain of Arrows", "Non-aggression Order"], []))
    give(at(st, "d4"), "TTTLL")
    at(st, "d7").leader = "Cloaksworn Commander"
    touch(st)
    legal = st.legal_actions()
    assert not any(a[0] == "play" and a[3] == sq("d7") for a in legal)
    assert mv("d4", "d7") in legal


# -- Maneuvers ------------------------------------------------------------------
@pytest.mark.seed("armies:11.1", "armies:162.1")
def test_battlefield_dominance_draws_per_extra_leader():
    """Battlefield Dominance: 'For each extra Leader you have compared to your opponent, draw a card.'"""
    st = position({"e1": "K", "e8": "k", "a1": "R", "h1": "R", "b1": "N", "a8": "r"}, hands=(["Battlefield Dominance"], []))
    for s in ("a1", "h1", "b1"):
        at(st, s).leader = "Shield Bearers"
    at(st, "a8").leader = "Shield Bearers"
    give(at(st, "e1"), "GGG")
    touch(st)
    _play(st, "Battlefield Dominance", "e1", "e1")
    assert len(st.hands[0]) == 2 and "Battlefield Dominance" in st.discards[0]


@pytest.mark.seed("armies:150.1b", "armies:170.1")
def test_mind_fog_spends_threatened_enemy_leaders():
    """Mind Fog: 'All enemy leaders threatened by this piece become spent.'"""
    st = position({"e1": "K", "e8": "k", "d4": "Q", "d7": "r", "h4": "n", "a1": "r"}, hands=(["Mind Fog"], []))
    for s in ("d7", "h4", "a1"):
        at(st, s).leader = "Torani Cadet"
    give(at(st, "d4"), "EE")
    touch(st)
    _play(st, "Mind Fog", "d4", "d4")
    assert at(st, "d7").spent and at(st, "h4").spent and at(st, "a1").spent is True
    st2 = position({"e1": "K", "e8": "k", "d4": "Q", "h8": "r"}, hands=(["Mind Fog"], []))
    at(st2, "h8").leader = "Torani Cadet"
    give(at(st2, "d4"), "EE")
    touch(st2)
    _play(st2, "Mind Fog", "d4", "d4")
    assert at(st2, "h8").spent  # d4-h8 diagonal is open


@pytest.mark.seed("armies:66.1", "armies:178.1")
def test_against_all_odds_hope_tokens():
    """Against All Odds: 'Put x +1/+1 "Hope" tokens on this Leader, where x is the number of enemy pieces
    currently threatening this Leader's army minus the number of friendly pieces ...'."""
    st = position({"e1": "K", "e8": "k", "d4": "R", "d7": "r", "g4": "r", "c5": "p", "d1": "Q"}, hands=(["Against All Odds"], []))
    r = at(st, "d4")
    r.leader = "Torani Cadet"
    give(r, "LLL")
    touch(st)
    _play(st, "Against All Odds", "d4", "d4")
    # enemies: d7 rook, g4 rook, c5 pawn (threatens d4) = 3; friends: d1 queen = 1 (the General on e1
    # does not reach d4)
    assert r.hope == 2 and r.spent
    assert st.offense(r) == 3 and st.defense(r) == 3


@pytest.mark.seed("armies:186.1")
def test_rain_of_arrows_is_a_four_power_ranged_attack():
    """Rain of Arrows: '4 power ranged attack'."""
    st = position({"e1": "K", "e8": "k", "d4": "Q", "d7": "r"}, hands=(["Rain of Arrows"], []))
    give(at(st, "d4"), "TTT")
    at(st, "d7").leader = "Shield Bearers"  # defense 3: 4 beats at most 3
    touch(st)
    _play(st, "Rain of Arrows", "d4", "d7")
    assert at(st, "d7") is None and at(st, "d4").kind == "Q"


@pytest.mark.seed("armies:194.1")
def test_know_thy_enemy_draws_per_trained_domain():
    """Know Thy Enemy: 'Draw a card for each domain this piece has a max-skill greater than zero in.'"""
    st = position({"e1": "K", "e8": "k"}, hands=(["Know Thy Enemy"], []))
    give(at(st, "e1"), "SSSGE")
    touch(st)
    _play(st, "Know Thy Enemy", "e1", "e1")
    assert len(st.hands[0]) == 3


# -- Techniques ------------------------------------------------------------------
@pytest.mark.seed("armies:66.3", "armies:212.1")
def test_second_wind_readies_the_leader_on_own_turn():
    """Second Wind: Leader Technique, G: 'Ready this Leader'."""
    st = position({"e1": "K", "e8": "k", "a1": "R"}, hands=(["Second Wind"], []))
    r = at(st, "a1")
    r.leader, r.spent = "Shield Bearers", True
    give(r, "G")
    touch(st)
    _play(st, "Second Wind", "a1", "a1")
    assert not r.spent and not st.major_used


@pytest.mark.seed("armies:5.5", "armies:220.1")
def test_without_a_trace_removes_an_army_from_the_game():
    """Without a Trace: 'Target Army is removed from the game.'"""
    st = position({"e1": "K", "e8": "k", "d4": "Q", "d7": "r"}, hands=(["Without a Trace"], []))
    at(st, "d7").leader = "Shield Bearers"
    give(at(st, "d4"), "EEEE")
    touch(st)
    assert play(st, "Without a Trace", "d4", "e8") not in st.legal_actions()  # not the General
    _play(st, "Without a Trace", "d4", "d7")
    assert at(st, "d7") is None and st.removed[1] == ["Shield Bearers"] and not st.major_used


@pytest.mark.seed("armies:13.1", "armies:228.1", "armies:234.2")
def test_hold_the_line_after_dice():
    """Hold the Line: 'Target defending army gains two automatic successes. This technique may be used
    after dice are rolled.'  The window opens only for a defender who is losing and could play it."""
    st = position({"e1": "K", "e8": "k", "a1": "R", "a7": "p", "b7": "r"}, hands=([], ["Hold the Line"]))
    give(at(st, "b7"), "LL")
    touch(st)
    st.apply(mv("a1", "a7"))
    assert st.stack[-1].kind == "after_dice" and st.stack[-1].seat == 1
    c = st.combats[st.stack[-1].data["cid"]]
    assert (c["a"], c["d"]) == (1, 0)
    assert ("play", "Hold the Line", at(st, "b7").id, sq("a7")) in st.legal_actions()
    st.apply(("play", "Hold the Line", at(st, "b7").id, sq("a7")))
    finish_payment(st)
    assert at(st, "a7").seat == 1 and at(st, "a6").kind == "R"


@pytest.mark.seed("armies:234.2")
def test_hold_the_line_window_can_be_passed():
    st = position({"e1": "K", "e8": "k", "a1": "R", "a7": "p", "b7": "r"}, hands=([], ["Hold the Line"]))
    give(at(st, "b7"), "LL")
    touch(st)
    st.apply(mv("a1", "a7"))
    st.apply(("pass",))
    assert at(st, "a7").kind == "R"


@pytest.mark.seed("armies:234.2")
def test_no_window_when_the_defender_cannot_respond():
    st = position({"e1": "K", "e8": "k", "a1": "R", "a7": "p", "b7": "r"}, hands=([], ["Hold the Line"]))
    touch(st)  # no skill to pay with
    st.apply(mv("a1", "a7"))
    assert not st.stack and at(st, "a7").kind == "R"


@pytest.mark.seed("armies:66.1", "armies:236.1", "armies:242.2", "armies:242.3")
def test_ambush_captures_the_attacker_and_cancels_the_attack():
    """Ambush: 'Target attacking army must defend against a new attack by this army ... this army does not
    move into the target's space if it wins. If the attacker is captured ... the original attack does not
    take place.'"""
    st = position({"e1": "K", "e8": "k", "a1": "R", "a7": "p", "c3": "b"}, hands=([], ["Ambush"]))
    amb = at(st, "c3")
    amb.leader = "Torani Cadet"
    give(amb, "TT")
    touch(st)
    st.apply(mv("a1", "a5"))  # a plain move opens no window
    assert not st.stack
    st.apply(("end",))
    st.apply(("pass",))
    st.apply(("end",))
    st.apply(mv("a5", "a7"))
    assert st.stack[-1].kind == "attack_window" and st.stack[-1].seat == 1
    st.apply(("play", "Ambush", amb.id, sq("a5")))
    st.rng = FixedRng([1, 1])  # the ambusher (1/1 Cadet) rolls 1 die: 0 + 1 = 1 vs 0
    finish_payment(st)
    assert at(st, "a5") is None and at(st, "c3") is amb and amb.spent
    assert at(st, "a7").kind == "P"


@pytest.mark.seed("armies:236.1")
def test_ambush_failure_moves_the_ambusher_and_the_attack_goes_on():
    st = position({"e1": "K", "e8": "k", "a5": "R", "a7": "p", "c3": "b"}, hands=([], ["Ambush"]))
    amb = at(st, "c3")
    amb.leader = "Torani Cadet"
    give(amb, "TT")
    rook = at(st, "a5")
    rook.leader, rook.spent = "Shield Bearers", False
    touch(st)
    st.apply(mv("a5", "a7"))
    st.apply(("play", "Ambush", amb.id, sq("a5")))
    st.rng = FixedRng([1, 6, 6, 6])  # ambush: 0+1 vs shield bearers 3 dice -> 3: fails
    finish_payment(st)
    assert at(st, "b4") is amb  # moved next to the attacker along the diagonal
    assert at(st, "a7") is rook  # the original attack (no dice: offense 0 + 1 vs 0) succeeded


@pytest.mark.seed("armies:13.1", "armies:212.1")
def test_second_wind_in_attack_window_enables_ambush():
    st = position({"e1": "K", "e8": "k", "a5": "R", "a7": "p", "c3": "b"}, hands=([], ["Ambush", "Second Wind"]))
    amb = at(st, "c3")
    amb.leader, amb.spent = "Torani Cadet", True
    give(amb, "TTG")
    touch(st)
    st.apply(mv("a5", "a7"))
    legal = st.legal_actions()
    assert ("play", "Second Wind", amb.id, sq("c3")) in legal
    assert not any(a[1] == "Ambush" for a in legal if a[0] == "play")
    st.apply(("play", "Second Wind", amb.id, sq("c3")))
    finish_payment(st)
    assert st.stack[-1].kind == "attack_window"  # the window reopens
    assert ("play", "Ambush", amb.id, sq("a5")) in st.legal_actions()


@pytest.mark.seed("armies:13.1", "armies:244.1", "armies:250.2", "armies:250.3")
def test_disruption_counters_a_card_and_the_skill_is_lost():
    """Disruption: 'Target maneuver, technique, boon or curse being played fails. All skill spent on
    playing it is lost. This card may not be targeted by any other techniques or abilities.'"""
    st = position({"e1": "K", "e8": "k", "d4": "Q", "d7": "r", "d8": "q"}, hands=(["Rain of Arrows", "Disruption"], ["Disruption"]))
    give(at(st, "d4"), "TTTSS")
    give(at(st, "d8"), "SS")
    touch(st)
    st.apply(play(st, "Rain of Arrows", "d4", "d7"))
    finish_payment(st)
    assert st.stack[-1].kind == "card_window" and st.stack[-1].seat == 1
    st.apply(("play", "Disruption", at(st, "d8").id, sq("d7")))
    finish_payment(st)
    assert not st.stack  # no window for white's own Disruption: it cannot be targeted
    assert at(st, "d7") is not None and at(st, "d4").skill[3] == 0
    assert "Rain of Arrows" in st.discards[0] and "Disruption" in st.discards[1]
    assert st.counts["rule:disrupted"] == [1, 0]


# -- Boons and curses -------------------------------------------------------------------
@pytest.mark.seed("armies:15.1", "armies:262.1", "armies:268.2")
def test_spirit_of_fire_stats_and_rest_after_capture():
    """Spirit of Fire: '+2 offense and defense. Whenever this army successfully captures an enemy piece as
    part of a move, treat it as having rested.'"""
    st = position({"e1": "K", "e8": "k", "d1": "Q", "d5": "p"}, hands=(["Spirit of Fire"], []))
    q = at(st, "d1")
    give(q, "GGGGG")
    touch(st)
    _play(st, "Spirit of Fire", "d1", "d1")
    assert st.offense(q) == 2 and st.defense(q) == 2 and sum(q.skill) == 0
    st.rng = FixedRng([6, 6])
    st.apply(mv("d1", "d5"))
    assert at(st, "d5") is q and q.skill == q.maxs and st.counts["rule:spirit_rest"] == [1, 0]


@pytest.mark.seed("armies:268.2", "armies:298.1")
def test_broken_supply_chain_stops_the_spirit_of_fire_rest():
    """Broken Supply Chain: 'This army cannot rest.' beats Spirit of Fire's 'treat it as having rested
    (restore all of this army's skill to maximum and ready the Leader, if any)' (ledger 47): the capture
    restores nothing."""
    st = position({"e1": "K", "e8": "k", "d1": "Q", "d5": "p"}, hands=(["Spirit of Fire"], []))
    q = at(st, "d1")
    give(q, "GGGGG")
    touch(st)
    _play(st, "Spirit of Fire", "d1", "d1")
    q.attached.append(("Broken Supply Chain", 1))
    touch(st)
    assert sum(q.skill) == 0
    st.rng = FixedRng([6, 6])
    st.apply(mv("d1", "d5"))
    assert at(st, "d5") is q and sum(q.skill) == 0 and st.counts.get("rule:spirit_rest", [0, 0]) == [0, 0]
    assert st.phase == "opp2" and ("rest", q.id) not in st.legal_actions()


@pytest.mark.seed("armies:270.1", "armies:278.1")
def test_unholy_bloodthirst_forces_a_move_unless_a_major_action_is_spent():
    """Unholy Bloodthirst: 'This army must attack or move on its turn, if able. Enemy Major Action: This
    army cannot move or attack this turn.'"""
    st = position({"e1": "K", "e8": "k", "d4": "Q", "g7": "p", "a7": "p"}, hands=(["Unholy Bloodthirst"], []))
    give(at(st, "d4"), "EE")
    touch(st)
    _play(st, "Unholy Bloodthirst", "d4", "g7")
    st.apply(("pass",))
    st.apply(("end",))
    moves = [a for a in st.legal_actions() if a[0] in ("move", "pass")]
    assert moves and all(a[0] == "move" and a[1] == sq("g7") for a in moves)
    st.apply(("calm", at(st, "g7").id))
    legal = st.legal_actions()
    assert ("pass",) in legal and not any(a[0] == "move" and a[1] == sq("g7") for a in legal)
    assert mv("a7", "a6") in legal and st.major_used


@pytest.mark.seed("armies:15.1", "armies:280.1")
def test_non_aggression_order_forbids_attacks():
    """Non-aggression Order: 'This army cannot attack.'"""
    st = position({"e1": "K", "e8": "k", "d4": "Q", "d7": "r", "a7": "p"}, hands=(["Non-aggression Order"], []))
    give(at(st, "d4"), "LL")
    touch(st)
    _play(st, "Non-aggression Order", "d4", "d7")
    st.apply(("pass",))
    st.apply(("end",))
    legal = st.legal_actions()
    assert mv("d7", "d4") not in legal and mv("d7", "d5") in legal


@pytest.mark.seed("armies:288.1", "armies:296.1")
def test_unyielding_offense_ability_and_return_to_hand():
    """Unyielding Offense: 'T: This army gains +1 offense until end of turn. When Unyielding Offense is put
    into a discard pile from play, return it to its owner's hand.'"""
    st = position({"e1": "K", "e8": "k", "d4": "R", "d7": "r"}, hands=(["Unyielding Offense"], []))
    r = at(st, "d4")
    r.leader = "Torani Cadet"
    give(r, "TTT")
    touch(st)
    _play(st, "Unyielding Offense", "d4", "d4")
    st.apply(("ability", r.id, "unyielding", 0))
    assert st.offense(r) == 2
    st.destroy(r)
    assert st.hands[0] == ["Unyielding Offense"] and st.revealed[0] == ["Unyielding Offense"]
    assert "Torani Cadet" in st.discards[0]


@pytest.mark.seed("armies:288.1")
def test_unyielding_offense_needs_a_leader():
    st = position({"e1": "K", "e8": "k", "d4": "R"}, hands=(["Unyielding Offense"], []))
    give(at(st, "d4"), "TT")
    touch(st)
    assert not any(a[0] == "play" for a in st.legal_actions())


@pytest.mark.seed("armies:298.1", "armies:306.1")
def test_broken_supply_chain_stops_rest_and_can_be_destroyed():
    """Broken Supply Chain: 'This army cannot rest. Enemy Major Action + Discard 2 cards: Destroy ...'"""
    st = position({"e1": "K", "e8": "k", "d4": "Q", "d7": "r"}, hands=(["Broken Supply Chain"], ["Mind Fog", "Ambush", "Disruption"]))
    give(at(st, "d4"), "SS")
    give(at(st, "d7"), "G")
    at(st, "d7").skill = [0] * 5
    touch(st)
    _play(st, "Broken Supply Chain", "d4", "d7")
    st.apply(("pass",))
    st.apply(("end",))
    st.apply(("pass",))
    assert ("rest", at(st, "d7").id) not in st.legal_actions()
    st.phase = "opp1"
    touch(st)
    st.apply(("break", at(st, "d7").id))
    st.apply(("discard", "Ambush"))
    st.apply(("discard", "Mind Fog"))
    assert at(st, "d7").attached == [] and "Broken Supply Chain" in st.discards[0]
    assert st.hands[1] == ["Disruption"] and st.major_used


# -- Training ------------------------------------------------------------------------------
@pytest.mark.seed("armies:17.1", "armies:40.3", "armies:320.1")
def test_teachings_raise_skill_for_free_and_are_not_major():
    """Teachings of [Domain]: '+1 Skill in the [Domain] domain to target piece.'"""
    names = ["Teachings of Gnar", "Teachings of Ethyr", "Teachings of Lorin", "Teachings of Tor", "Teachings of Shives"]
    st = position({"e1": "K", "e8": "k", "a2": "P"}, hands=(names, []))
    for n in names:
        st.apply(("train", n, at(st, "a2").id))
    assert at(st, "a2").maxs == [1, 1, 1, 1, 1] and at(st, "a2").skill == [1, 1, 1, 1, 1]
    assert not st.major_used


@pytest.mark.seed("armies:40.3", "armies:48.1", "armies:328.1", "armies:334.2")
def test_original_grimoire_general_only_and_draws():
    """Original Grimoire: '+1 Skill in the Ethyr domain to target General. Draw a card.'  Its cost may be
    paid by any piece."""
    st = position({"e1": "K", "e8": "k", "a2": "P"}, hands=(["Original Grimoire"], []))
    give(at(st, "a2"), "E")
    touch(st)
    legal = st.legal_actions()
    assert ("train", "Original Grimoire", at(st, "a2").id) not in legal
    st.apply(("train", "Original Grimoire", at(st, "e1").id))
    finish_payment(st)
    assert at(st, "e1").maxs[1] == 1 and at(st, "a2").skill[1] == 0 and st.hands[0] == ["Teachings of Gnar"]


@pytest.mark.seed("armies:92.1", "armies:336.1", "armies:342.2")
def test_torani_longbow_gives_a_one_power_volley():
    """Torani Longbow Training: '+1 Skill in the Tor domain to target Army. Target gains: Major action:
    1 power ranged attack'."""
    st = position({"e1": "K", "e8": "k", "d4": "P", "e5": "p"}, hands=(["Torani Longbow Training", "Teachings of Tor"], []))
    st.apply(("train", "Teachings of Tor", at(st, "d4").id))
    st.apply(("train", "Torani Longbow Training", at(st, "d4").id))
    finish_payment(st)
    assert "longbow" in at(st, "d4").traits
    assert ("train", "Torani Longbow Training", at(st, "e1").id) not in st.legal_actions()
    st.apply(("volley", at(st, "d4").id, sq("e5")))
    assert at(st, "e5") is None and at(st, "d4").kind == "P" and st.major_used


@pytest.mark.seed("armies:344.1", "armies:350.2")
def test_guerrilla_training_blocks_maneuvers_boons_curses_but_not_techniques():
    """Guerrilla Training: 'This army may not be the target of maneuvers, boons, curses, or other major
    actions (even from friendly sources).'"""
    st = position({"e1": "K", "e8": "k", "d4": "Q", "d7": "r"},
                  hands=(["Rain of Arrows", "Non-aggression Order", "Without a Trace"], []))
    at(st, "d7").traits.append("guerrilla")
    give(at(st, "d4"), "TTTLLEEE")
    touch(st)
    targets = {(a[1], a[3]) for a in st.legal_actions() if a[0] == "play"}
    assert ("Rain of Arrows", sq("d7")) not in targets and ("Non-aggression Order", sq("d7")) not in targets
    assert ("Without a Trace", sq("d7")) in targets


# -- Strategies ------------------------------------------------------------------------------
@pytest.mark.seed("armies:362.1", "armies:368.2")
def test_double_march_pawns_double_step_anywhere_and_no_en_passant_for_opponents():
    """Double March: 'En Passant is no longer a legal move for opponents. All allied pawns may move two
    spaces forward ... regardless of whether they've moved already'."""
    st = position({"e1": "K", "e8": "k", "c3": "P", "e2": "P", "d4": "p"}, hands=(["Double March"], []))
    give(at(st, "e1"), "GG")
    touch(st)
    assert mv("c3", "c5") not in st.legal_actions()
    st.apply(("strategy", "Double March"))
    finish_payment(st)
    assert mv("c3", "c5") in st.legal_actions()
    st.apply(mv("e2", "e4"))
    st.apply(("end",))
    assert mv("d4", "e3") not in st.legal_actions()


@pytest.mark.seed("armies:370.1", "armies:376.2", "armies:376.3", "armies:376.4", "armies:376.5")
def test_unseasonable_weather_limits_moves_and_enemy_threats_then_melts():
    """Unseasonable Weather: five Snow tokens, one removed at the end of each turn; pieces except knights
    move at most one space; enemy threat ranges are reduced to one space."""
    st = position({"e1": "K", "e8": "k", "a1": "R", "a8": "r", "b1": "N", "e2": "P"}, hands=(["Unseasonable Weather"], []))
    give(at(st, "e1"), "EEE")
    touch(st)
    st.apply(("strategy", "Unseasonable Weather"))
    finish_payment(st)
    legal = st.legal_actions()
    assert mv("a1", "a3") not in legal and mv("a1", "a2") in legal
    assert mv("e2", "e4") not in legal and mv("b1", "c3") in legal
    assert set(st.threats(at(st, "a8"))) == {sq("a7"), sq("b8")}  # enemy threat: one space
    assert len(st.threats(at(st, "a1"))) == 8  # own threat unchanged: a2-a8 and b1
    for _ in range(5):
        assert st.strategies
        st.apply(("pass",)) if st.phase == "opp1" else None
        st.apply(("end",))
    assert not st.strategies and "Unseasonable Weather" in st.discards[0]


@pytest.mark.seed("armies:19.1", "armies:378.1", "armies:386.1")
def test_unfavorable_war_costs_each_player_a_point_unless_exempted():
    """Unfavorable War: 'At the end of each player's turn they lose the game unless they reduce the skill
    on their General by 1 ... (Global Major Action + 1) ...: The effect above does not apply this turn.'"""
    st = position({"e1": "K", "e8": "k", "a2": "P"}, hands=(["Unfavorable War"], []))
    give(at(st, "e1"), "LLL")
    give(at(st, "e8"), "G")
    touch(st)
    st.apply(("strategy", "Unfavorable War"))
    finish_payment(st)
    st.apply(("pass",))
    st.apply(("end",))
    assert at(st, "e1").maxs == [0, 0, 2, 0, 0]  # it applies to its owner too, from this very turn
    # black's turn: black pays its only point at the end of it
    st.apply(("pass",))
    st.apply(("end",))
    assert sum(at(st, "e8").maxs) == 0 and not st.is_over()
    # white exempts itself with a major action + 1
    uid = st.strategies[0][0]
    st.apply(("exempt", uid))
    finish_payment(st)
    st.apply(("pass",))
    st.apply(("end",))
    assert sum(at(st, "e1").maxs) == 2
    st.apply(("pass",))
    st.apply(("end",))
    assert st.is_over() and st.winners() == (0,)


@pytest.mark.seed("armies:388.1", "armies:394.2")
def test_bows_and_knives_doubles_ranged_power_and_caps_defense():
    """Bows and Knives: 'Double the power of all ranged attacks by pieces you control. All pieces you
    control have a maximum defense of 1.'"""
    st = position({"e1": "K", "e8": "k", "d4": "Q", "d7": "r"}, hands=(["Bows and Knives", "Rain of Arrows"], []))
    give(at(st, "e1"), "TTT")
    give(at(st, "d4"), "TTT")
    at(st, "d4").leader = "Heavy Cavalry"
    at(st, "d7").leader = "Heavy Cavalry"
    touch(st)
    st.apply(("strategy", "Bows and Knives"))
    finish_payment(st)
    assert st.defense(at(st, "d4")) == 1 and st.defense(at(st, "d7")) == 5
    st.major_used = False
    touch(st)
    st.rng = FixedRng([6, 6, 6, 6, 6])
    _play(st, "Rain of Arrows", "d4", "d7")
    assert at(st, "d7") is None  # power 8 beats 5


@pytest.mark.seed("armies:19.1", "armies:396.1", "armies:402.2", "armies:402.3")
def test_caught_off_guard_replaces_enemy_draws():
    """Caught Off Guard: two Surprise tokens; 'Whenever an enemy player would draw a card, remove a
    Surprise token instead.'"""
    st = position({"e1": "K", "e8": "k"}, hands=(["Caught Off Guard"], []))
    give(at(st, "e1"), "SSSS")
    touch(st)
    st.apply(("strategy", "Caught Off Guard"))
    finish_payment(st)
    st.apply(("pass",))
    st.apply(("end",))
    assert len(st.hands[0]) == 1  # white still draws
    for _ in range(2):
        st.apply(("pass",))
        st.apply(("end",))
        st.apply(("pass",))
        st.apply(("end",))
    assert len(st.hands[1]) == 0 and not st.strategies and "Caught Off Guard" in st.discards[0]
    st.apply(("pass",))
    st.apply(("end",))
    assert len(st.hands[1]) == 1  # the third draw happens


def test_every_card_has_a_scenario():
    import pathlib
    import re

    from boardlab.games.armies.content import load_cards

    text = pathlib.Path(__file__).read_text()
    for name in load_cards():
        if name.startswith("Teachings of"):
            assert name in text
            continue
        assert re.search(re.escape(name), text), name


@pytest.mark.seed("armies:142.2", "armies:350.2")
def test_guerrilla_army_may_take_torani_cadet_but_not_other_leaders():
    """Playing Torani Cadet is not a major action, so a Guerrilla-trained army may receive it (ledger)."""
    st = position({"e1": "K", "e8": "k", "d1": "Q"}, hands=(["Torani Cadet", "Shield Bearers"], []))
    at(st, "d1").traits.append("guerrilla")
    give(at(st, "e1"), "TL")
    touch(st)
    names = {a[1] for a in st.legal_actions() if a[0] == "play" and a[3] == sq("d1")}
    assert names == {"Torani Cadet"}


@pytest.mark.seed("armies:88.1", "armies:242.2")
def test_ambush_beating_a_general_does_not_move_the_ambusher():
    """An ambushed General is not captured: it loses a skill point and its attack goes on."""
    st = position({"e4": "K", "e8": "k", "e5": "p", "b7": "b"}, hands=([], ["Ambush"]))
    amb = at(st, "b7")
    amb.leader = "Torani Cadet"
    give(amb, "TT")
    give(at(st, "e4"), "GE")
    touch(st)
    st.apply(mv("e4", "e5"))
    st.apply(("play", "Ambush", amb.id, sq("e5") - 8))
    st.rng = FixedRng([6])
    finish_payment(st)
    assert st.stack[-1].kind == "general_loss"
    st.apply(("lose", "G"))
    assert at(st, "b7") is amb and at(st, "e5").kind == "K"
