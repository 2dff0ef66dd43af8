"""Armies rule properties (boardlab/games/armies/properties.py): they hold along real games, they fail
on corrupted positions and planted transitions (they are not vacuous), and the deviations they found."""

from __future__ import annotations

import pytest

from boardlab.agents import Decision, make_agent
from boardlab.engine import make
from boardlab.engine.properties import PropertyViolation, check_state, check_transition
from boardlab.games.armies.game import ArmiesGame
from boardlab.games.armies.properties import PROPERTIES

from .helpers import FixedRng, at, finish_payment, give, mv, own_cards, play, position, sq, touch


def _violates(name: str, fn, *args) -> None:
    with pytest.raises(PropertyViolation) as info:
        fn(*args, PROPERTIES)
    assert info.value.prop.name == name, info.value.describe()


def _game_state(seed: int = 3, decisions: int = 60, variant: str = "standard"):
    """A real position: ``decisions`` random actions from the start."""
    game = make("armies", variant=variant)
    st = game.new_state(seed)
    agent = make_agent("random", game, 0, seed)
    for _ in range(decisions):
        if st.is_over():
            break
        st.apply(agent.act(Decision(st, st.current_seat())))
    return st


# -- the properties along real games ------------------------------------------------------------------
@pytest.mark.parametrize("variant", [v.name for v in ArmiesGame.variants])
def test_properties_hold_along_random_and_heuristic_games(variant):
    """Every property after every action, in every variant (2 players), random and heuristic agents."""
    for seed, spec in ((11, "random"), (12, "heuristic")):
        game = make("armies", variant=variant)
        st = game.new_state(seed)
        check_state(st, PROPERTIES)
        agents = [make_agent(spec, game, s, seed * 7 + s) for s in (0, 1)]
        for _ in range(150 if spec == "random" else 60):
            if st.is_over():
                break
            action = agents[st.current_seat()].act(Decision(st, st.current_seat()))
            before = st.clone()
            st.apply(action)
            check_transition(before, action, st, PROPERTIES)


def test_every_property_names_concordance_rows():
    assert len(PROPERTIES) >= 30
    for p in PROPERTIES:
        assert p.rows and p.doc, p.name


# -- not vacuous: corrupted positions ----------------------------------------------------------------------
def test_skill_above_its_maximum_is_caught():
    st = _game_state()
    check_state(st, PROPERTIES)
    g = st.general(0)
    d = max(range(5), key=lambda k: g.maxs[k])
    g.skill[d] = g.maxs[d] + 1
    _violates("skill never exceeds its maximum", check_state, st)


def test_a_card_in_two_places_is_caught():
    st = _game_state()
    st.hands[0].append(st.decks[0][0])  # the top card of the deck also in the hand
    _violates("every card is in exactly one place", check_state, st)
    st = _game_state()
    st.decks[1].pop()  # a card vanishes
    _violates("every card is in exactly one place", check_state, st)


def test_a_leader_on_the_general_is_caught():
    st = _game_state()
    st.general(1).leader = "Shield Bearers"
    st.decks[1].remove("Shield Bearers") if "Shield Bearers" in st.decks[1] else None
    with pytest.raises(PropertyViolation):
        check_state(st, PROPERTIES)


@pytest.mark.seed("armies:9.2b")
def test_every_leader_is_a_hero_or_an_elite():
    """ "Certain abilities distinguish between leaders that are "heroes" (individuals) and those that are
    "elites" (advanced troops)": every leader card is one or the other, and an army led by a card that is
    neither breaks the property."""
    game = ArmiesGame()
    leaders = [c for c in game.cards.values() if c.type == "leader"]
    assert leaders and all(c.line.split()[0] in ("Hero", "Elite") for c in leaders)
    st = position({"e1": "K", "e8": "k", "a1": "R"})
    at(st, "a1").leader = "Shield Bearers"
    PROPERTIES.items[[p.name for p in PROPERTIES].index("leaders, boons and curses sit where the seed allows")].check(st)
    at(st, "a1").leader = "Mind Fog"  # a maneuver: neither hero nor elite, and no leader at all
    with pytest.raises(AssertionError, match="led by the maneuver"):
        PROPERTIES.items[[p.name for p in PROPERTIES].index("leaders, boons and curses sit where the seed allows")].check(st)


# -- not vacuous: planted transitions -------------------------------------------------------------------------
def _transition(st, action):
    if not st.stack and not st.pending:
        own_cards(st)
    before = st.clone()
    st.apply(action)
    return before, action, st


def test_a_defending_general_that_does_not_pay_is_caught():
    st = position({"e1": "K", "e8": "k", "e3": "R"}, active=0)
    give(at(st, "e8"), "G")
    touch(st)
    before, action, after = _transition(st, mv("e3", "e8"))
    check_transition(before, action, after, PROPERTIES)
    assert after.general(1).maxs == [0, 0, 0, 0, 0]
    after.general(1).maxs = [1, 0, 0, 0, 0]  # plant: the General keeps its point
    _violates("a General pays one skill point per defeat", check_transition, before, action, after)


def test_skill_regained_without_rest_is_caught():
    st = position({"e1": "K", "e8": "k", "d1": "Q"}, hands=(["Shield Bearers"], []))
    give(at(st, "d1"), "L")
    touch(st)
    before, action, after = _transition(st, play(st, "Shield Bearers", "d1", "d1"))
    before, action, after = _transition(after, ("autopay",))
    check_transition(before, action, after, PROPERTIES)
    assert at(after, "d1").skill == [0, 0, 0, 0, 0]
    before, action, after = _transition(after, ("pass",))
    at(after, "d1").skill[2] = 1  # plant: the point comes back in the Move step
    _violates("skill comes back only by resting or training", check_transition, before, action, after)


def test_an_attack_with_the_wrong_number_of_dice_is_caught():
    st = position({"e1": "K", "e8": "k", "a1": "R", "a7": "p"}, active=0)
    at(st, "a7").leader = "Shield Bearers"  # defense 3: three dice
    touch(st)
    st.rng = FixedRng([1, 1, 1])
    before, action, after = _transition(st, mv("a1", "a7"))
    check_transition(before, action, after, PROPERTIES)
    at(before, "a7").leader = "Heavy Cavalry"  # plant: the defender "should" have rolled five dice
    _violates("battle dice are the stats the seed names", check_transition, before, action, after)


def test_a_second_major_action_is_caught():
    st = position({"e1": "K", "e8": "k", "d1": "Q", "a1": "R"}, hands=(["Shield Bearers", "Shield Bearers"], []))
    give(at(st, "d1"), "L")
    give(at(st, "a1"), "L")
    touch(st)
    own_cards(st)
    st.apply(play(st, "Shield Bearers", "d1", "d1"))
    finish_payment(st)
    assert play(st, "Shield Bearers", "a1", "a1") not in st.legal_actions()
    st.major_used = False  # plant: the rules forget the first one
    touch(st)
    before = st.clone()
    before.major_used = True
    action = play(st, "Shield Bearers", "a1", "a1")
    st.apply(action)
    _violates("one major action per turn", check_transition, before, action, st)


# -- the deviation found: a General that attacks and loses -----------------------------------------------------
@pytest.mark.seed("armies:88.2", "armies:88.1b")
def test_an_attacking_general_that_fails_loses_a_point():
    """ "After each defeat, the General permanently loses a single skill point" (ledger 9): a General whose
    own attack fails (here a tie: 0 dice + 1 against one defense success) has lost the battle."""
    st = position({"e4": "K", "e8": "k", "e5": "p"}, active=0)
    give(at(st, "e4"), "GE")
    at(st, "e5").leader = "Shield Bearers"
    touch(st)
    st.rng = FixedRng([6, 1, 1])  # the defender rolls one success: 1 against 1, a tie
    before, action, after = _transition(st, mv("e4", "e5"))
    assert at(after, "e5").kind == "P" and at(after, "e4").kind == "K"  # the attack failed
    assert after.stack[-1].kind == "general_loss" and after.stack[-1].seat == 0
    check_transition(before, action, after, PROPERTIES)
    after.apply(("lose", "G"))
    assert after.general(0).maxs == [0, 1, 0, 0, 0]


@pytest.mark.seed("armies:88.2", "armies:92.2")
def test_a_general_whose_ranged_attack_fails_loses_a_point():
    """Archery "functions identically to normal" (92.2): a General's failed Rain of Arrows is a lost battle."""
    st = position({"e1": "K", "e8": "k", "e6": "p"}, active=0, hands=(["Rain of Arrows"], []))
    give(at(st, "e1"), "TTT")
    at(st, "e6").leader = "Heavy Cavalry"  # defense 5
    touch(st)
    st.rng = FixedRng([6, 6, 6, 6, 6])  # five successes against power 4
    st.apply(play(st, "Rain of Arrows", "e1", "e6"))
    finish_payment(st)
    assert at(st, "e6").kind == "P"
    assert st.general(0).maxs == [0, 0, 0, 2, 0]  # one Tor point of three lost (the only domain: no choice)


@pytest.mark.seed("armies:88.3")
def test_an_attacking_general_that_cannot_pay_loses_the_game():
    """ "Only if the General cannot pay this price, is the game over": a bare General that attacks and
    fails loses the game."""
    st = position({"e4": "K", "e8": "k", "e5": "p"}, active=0)
    at(st, "e5").leader = "Shield Bearers"
    touch(st)
    st.rng = FixedRng([6, 6, 1])
    st.apply(mv("e4", "e5"))
    assert st.is_over() and st.winners() == (1,)


@pytest.mark.seed("armies:88.2")
def test_general_defeats_defending_option_keeps_the_attacker_free():
    """Option ``general_defeats=defending`` (the alternative of ledger 9): only a defending General pays."""
    st = position({"e4": "K", "e8": "k", "e5": "p"}, active=0, options={"general_defeats": "defending"})
    give(at(st, "e4"), "GE")
    at(st, "e5").leader = "Shield Bearers"
    touch(st)
    st.rng = FixedRng([6, 1, 1])
    before, action, after = _transition(st, mv("e4", "e5"))
    assert after.general(0).maxs == [1, 1, 0, 0, 0] and not after.stack and after.phase == "opp2"
    check_transition(before, action, after, PROPERTIES)
    st = position({"e1": "K", "e8": "k", "e3": "R"}, active=0, options={"general_defeats": "defending"})
    give(at(st, "e8"), "G")
    touch(st)
    st.apply(mv("e3", "e8"))
    assert st.general(1).maxs == [0, 0, 0, 0, 0]


# -- weak rows made strong -------------------------------------------------------------------------------------
@pytest.mark.seed("armies:92.2", "armies:186.1", "armies:342.2")
def test_a_ranged_attack_gets_no_plus_one_so_a_tie_fails():
    """Archery "does not gain the automatic +1": Rain of Arrows (power 4) against four defense successes
    is a tie and fails, where a +1 would win; the Longbow volley (power 1) against one success fails too."""
    st = position({"e1": "K", "e8": "k", "d4": "Q", "d7": "p"}, active=0, hands=(["Rain of Arrows"], []))
    give(at(st, "d4"), "TTT")
    at(st, "d7").leader = "Heavy Cavalry"  # defense 5
    touch(st)
    st.rng = FixedRng([6, 6, 6, 6, 1])  # four successes
    own_cards(st)
    st.apply(play(st, "Rain of Arrows", "d4", "d7"))
    before, action, after = _transition(st, ("autopay",))
    assert at(after, "d7").kind == "P" and at(after, "d7").leader == "Heavy Cavalry" and at(after, "d4").kind == "Q"
    assert after.counts["rule:attack_failed"] == [1, 0]
    check_transition(before, action, after, PROPERTIES)
    st = position({"e1": "K", "e8": "k", "d4": "R", "d6": "p"}, active=0)
    at(st, "d4").traits.append("longbow")
    at(st, "d6").leader = "Shield Bearers"  # defense 3
    touch(st)
    st.rng = FixedRng([6, 1, 1])  # one success against power 1: a tie
    st.apply(("volley", at(st, "d4").id, sq("d6")))
    assert at(st, "d6").kind == "P" and at(st, "d4").kind == "R"
    assert st.counts["rule:attack_failed"] == [1, 0]


@pytest.mark.seed("armies:46.4", "armies:46.4b")
def test_the_player_decides_which_points_pay():
    """ "If a piece has multiple ways of spending skill points, the player decides how they are spent":
    Mind Fog (1E) through a queen holding E and G, supported by the General holding E and L, can be paid
    in several ways; each choice spends exactly the points chosen."""
    def start():
        st = position({"d1": "Q", "e1": "K", "e8": "k"}, hands=(["Mind Fog"], []))
        give(at(st, "d1"), "EG")
        give(at(st, "e1"), "EL")
        touch(st)
        st.apply(play(st, "Mind Fog", "d1", "d1"))
        return st

    st = start()
    q, g = at(st, "d1").id, at(st, "e1").id
    # every point that helps is offered (the primary keeps a point to pay: supporters may not pay it all)
    assert set(st.legal_actions()) == {("autopay",), ("pay", q, "E"), ("pay", q, "G"), ("pay", g, "E"), ("pay", g, "L")}
    st.apply(("pay", q, "G"))  # the queen's G pays the generic 1
    assert set(st.legal_actions()) == {("autopay",), ("pay", q, "E"), ("pay", g, "E")}
    st.apply(("pay", g, "E"))  # the General's E pays the E
    assert at(st, "d1").skill == [0, 1, 0, 0, 0] and at(st, "e1").skill == [0, 0, 1, 0, 0]
    st = start()
    st.apply(("pay", q, "E"))  # the queen's E pays the E
    assert set(st.legal_actions()) == {("autopay",), ("pay", q, "G"), ("pay", g, "E"), ("pay", g, "L")}
    st.apply(("pay", g, "L"))  # the General's L pays the generic 1
    assert at(st, "d1").skill == [1, 0, 0, 0, 0] and at(st, "e1").skill == [0, 1, 0, 0, 0]
