"""Issue 42: Blackfire's rule properties (``boardlab/games/blackfire/properties.py``).

Three kinds of test: the properties hold over short games of every variant (the long runs are
``scripts/properties.py --game blackfire``); they are not vacuous (a corrupted position or a planted
bad transition makes the named property fail); and the deviations the properties found are pinned
by example tests that fail on the code before the fix. Positions use the open test field
(``field.txt``; see ``test_rules.py``).
"""

from __future__ import annotations

import pytest

from boardlab.agents import Decision, make_agent
from boardlab.engine import make
from boardlab.engine.properties import PropertySet, PropertyViolation, check_state, check_transition
from boardlab.games.blackfire.game import BlackfireGame
from boardlab.games.blackfire.properties import PROPERTIES

from .helpers import UNITS, cell_of, field_state, move, place, sq, token

FAR_RED = dict(RS=(10, 1), RA=(10, 2), RW=(10, 3))


def fresh(**units):
    st = field_state()
    place(st, **{**FAR_RED, **units})
    return st


def _only(*names: str) -> PropertySet:
    """The named properties alone (the test field's positions have no tokens, so conservation cannot hold)."""
    items = [p for p in PROPERTIES if p.name in names]
    assert len(items) == len(names), names
    return PropertySet(items)


def _violates(name: str, before, action, after=None) -> str:
    """Check the transition (or, with ``after`` None, the state ``before``); return the failing property."""
    try:
        if after is None:
            check_state(before)
        else:
            check_transition(before, action, after)
    except PropertyViolation as v:
        assert v.prop.name == name, f"expected {name!r} to fail, got {v.prop.name!r}: {v.detail}"
        return v.detail
    raise AssertionError(f"property {name!r} did not fail")


def _step(st, action):
    before = st.clone()
    st.apply(action)
    return before, action, st


# -- the properties hold in every variant --------------------------------------------------------------
@pytest.mark.seed("blackfire:22.1", "blackfire:9.1", "blackfire:62.1")
@pytest.mark.parametrize("variant", [v.name for v in BlackfireGame.variants])
@pytest.mark.parametrize("agent", ["random", "heuristic"])
def test_rule_properties_hold_in_short_games_of_every_variant(variant, agent):
    """Every property after every action of a few games per variant (2 players is the only count)."""
    checked = 0
    for seed in range(3):
        game = make("blackfire", variant=variant)
        state = game.new_state(seed)
        agents = [make_agent(agent, game, s, 100 + seed + s) for s in range(2)]
        check_state(state)
        while not state.is_over():
            before = state.clone()
            action = agents[state.current_seat()].act(Decision(state, state.current_seat()))
            state.apply(action)
            check_transition(before, action, state)
            checked += 1
    assert checked > 50


# -- deviations the properties found ----------------------------------------------------------------
@pytest.mark.seed("blackfire:37.2")
def test_the_respawn_push_counts_from_where_the_sorcerer_respawns():
    """"Any opposing units within three spaces, are moved until they are four spaces from the Sorcerer."
    With a friend on the start square the sorcerer respawns next to it, and the push must count from the
    sorcerer's square: an enemy four steps from the start but three from the sorcerer is pushed too (the
    old code pushed from the start square and left it three steps from the sorcerer)."""
    st = fresh(GS=(0, 4), GA=(0, 0), GW=(5, 4), RW=(4, 1))
    st._kill(UNITS["GS"])
    st.units[UNITS["GS"]].respawn = 1
    st.orb_holder, st.orb_cell = None, sq(st, 0, 8)
    st.apply(("end",))  # red's turn
    before = st.clone()
    st.apply(("end",))  # green's turn starts: the sorcerer respawns
    here = st.units[UNITS["GS"]].cell
    assert here is not None and cell_of(st, "GW") == (5, 4)
    assert st.game.castle.dist[here][sq(st, 5, 4)] == 1  # beside the warrior on the start square
    for name in ("RS", "RA", "RW"):
        assert st.game.castle.dist[here][st.units[UNITS[name]].cell] >= 4, name
    check_transition(before, ("end",), st, _only("a dead sorcerer counts its own turns down from three and respawns, pushing enemies to four"))


def _orb_on_a_token(kind: str):
    """Green's carrier stops on a face-down ``kind`` token within 2 of the red archer and is shot before
    picking it up: the Orb falls on the token's square. Red to move, its sorcerer 2 steps away."""
    st = fresh(GS=(5, 5), GA=(0, 0), GW=(0, 8), RS=(5, 7), RA=(6, 2), RW=(10, 0))
    st.orb_holder, st.orb_cell = UNITS["GS"], None
    token(st, 5, 3, kind)
    move(st, "GS", 5, 3)
    assert cell_of(st, "GS") is None and st.orb_cell == sq(st, 5, 3) and sq(st, 5, 3) in st.tokens
    st.apply(("end",))
    move(st, "RS", 5, 5)
    st.apply(("end",))
    st.apply(("end",))
    assert st.side == 1
    return st


@pytest.mark.seed("blackfire:24.1", "blackfire:60.2")
def test_a_sorcerer_taking_the_orb_from_a_token_square_picks_the_token_up_too():
    """"A token may be passed over, but if it is picked up ..." (ledger 10: a unit picks a token up exactly
    when it ends its own move on it) and "all others are lost. Even those gained by a speed token": a
    sorcerer stopping where the Orb lies on a token takes the Orb and picks the token up; Speed then
    gives it nothing. The old code took the Orb and left the sorcerer standing on the face-down token."""
    st = _orb_on_a_token("speed")
    before = st.clone()
    move(st, "RS", 5, 3)
    assert st.orb_holder == UNITS["RS"] and sq(st, 5, 3) not in st.tokens
    assert st.revealed.get("speed") == 1 and not st.stack
    assert not [a for a in st.legal_actions() if a[0] == "move" and a[1] == UNITS["RS"]]
    check_transition(before, ("move", UNITS["RS"], sq(st, 5, 3)), st,
                     _only("a unit picks a token up exactly when it stops on it by its own move, and then moves no more",
                           "no living unit stands on a face-down token (it would have picked it up)"))


@pytest.mark.seed("blackfire:24.1", "blackfire:75.1")
def test_a_death_token_under_the_orb_kills_the_sorcerer_that_takes_it():
    """Ledger 40: the Orb is taken first, then the token is used: Death kills the new carrier, which drops
    the Orb again where it stands."""
    st = _orb_on_a_token("death")
    move(st, "RS", 5, 3)
    assert cell_of(st, "RS") is None and st.orb_holder is None and st.orb_cell == sq(st, 5, 3)
    assert sq(st, 5, 3) not in st.tokens


# -- rows of their own --------------------------------------------------------------------------------
@pytest.mark.seed("blackfire:7.2b")
def test_red_wins_by_leaving_with_the_orb_through_the_open_exit():
    """Story: "before Soren steals the orb back and leaves with it": red wins by carrying the Orb out, by the
    one open exit (ledger 31), and only the carrier does; red's other units on the exit win nothing."""
    st = fresh(GS=(0, 4), GA=(0, 0), GW=(0, 8), RS=(8, 8), RW=(10, 6), RA=(2, 2))
    st.orb_holder, st.orb_cell = UNITS["RS"], None
    st.apply(("end",))
    move(st, "RW", 10, 8)  # exit #4 (10, 8) is open; the warrior is not the carrier
    assert not st.is_over() and cell_of(st, "RW") == (10, 8)
    st = fresh(GS=(0, 4), GA=(0, 0), GW=(0, 8), RS=(8, 8), RW=(5, 5), RA=(2, 2))
    st.orb_holder, st.orb_cell = UNITS["RS"], None
    st.apply(("end",))
    move(st, "RS", 10, 8)
    assert st.is_over() and st.results().winners == (st.seat_of(1),)


# -- the properties are not vacuous: a corrupted position or a planted transition fails them -----------
def _real_play_state(seed: int = 5):
    """A real position of the designed game, a few decisions into play."""
    game = make("blackfire")
    st = game.new_state(seed)
    while st.phase == "place":
        st.apply(st.legal_actions()[0])
    for _ in range(3):
        st.apply(st.legal_actions()[0])
    check_state(st)
    return st


@pytest.mark.seed("blackfire:62.1", "blackfire:13.2")
def test_conservation_fails_when_a_token_vanishes_or_doubles():
    st = _real_play_state()
    bad = st.clone()
    bad.tokens.pop(next(iter(bad.tokens)))
    assert "!= the set" in _violates("every token is in exactly one place, and the set is the game's fifteen", bad, None)
    bad = st.clone()
    cell = next(c for c in st.game.castle.placeable if c not in st.tokens and all(v.cell != c for v in st.units))
    bad.tokens[cell] = "death"
    _violates("every token is in exactly one place, and the set is the game's fifteen", bad, None)


@pytest.mark.seed("blackfire:13.1b")
def test_what_seats_see_fails_when_a_view_shows_a_face_down_kind(monkeypatch):
    from boardlab.games.blackfire.view import BlackfireView

    st = _real_play_state()
    plain = BlackfireView._view

    def leaky(self, seat):
        out = plain(self, seat)
        out["peek"] = sorted(self.tokens.values())
        return out

    monkeypatch.setattr(BlackfireView, "_view", leaky)
    _violates("nobody sees a face-down token's kind or the other player's secret squares", st, None)


@pytest.mark.seed("blackfire:15.1b")
def test_units_fail_when_both_sides_share_a_square():
    st = _real_play_state()
    bad = st.clone()
    green = next(v for v in bad.units if v.side == 0 and v.cell is not None)
    red = next(v for v in bad.units if v.side == 1 and v.cell is not None)
    red.cell = green.cell
    _violates("six units, dead or on an accessible square, the three of a side sharing only its start", bad, None)


@pytest.mark.seed("blackfire:9.1")
def test_who_wins_fails_when_the_carrier_on_the_open_exit_has_not_won():
    st = fresh(GS=(9, 8), GA=(0, 0), GW=(0, 4))
    bad = st.clone()
    bad.units[UNITS["GS"]].cell = sq(st, 10, 8)  # exit #4, open
    props = _only("a side wins exactly by carrying the Orb out of the open exit or by leaving the other no unit")
    with pytest.raises(PropertyViolation, match="open exit and nobody has won"):
        check_state(bad, props)
    check_state(st, props)


@pytest.mark.seed("blackfire:22.1", "blackfire:56.1")
def test_moves_fail_beyond_the_allowance_or_through_a_defensive_warrior():
    props = _only("a unit moves once a turn, within its natural movement, by walking")
    st = fresh(GS=(5, 4), GA=(0, 8), GW=(0, 0))
    before, action, after = _step(st, ("move", UNITS["GS"], sq(st, 5, 2)))
    check_transition(before, action, after, props)
    with pytest.raises(PropertyViolation, match="not within 2 steps"):
        check_transition(before, ("move", UNITS["GS"], sq(st, 5, 1)), after, props)
    # an opposing defensive warrior on (5, 3) cannot be passed over
    before = fresh(GS=(5, 4), GA=(0, 8), GW=(0, 0), RW=(5, 3))
    before.units[UNITS["RW"]].stance = "defensive"
    with pytest.raises(PropertyViolation, match="not within 2 steps"):
        check_transition(before, ("move", UNITS["GS"], sq(before, 5, 2)), before, props)


@pytest.mark.seed("blackfire:41.1")
def test_archer_fire_fails_when_a_unit_stops_in_range_and_lives():
    props = _only("an opposing piece that stops within two squares of an archer is killed")
    st = fresh(GS=(0, 4), GA=(0, 0), GW=(5, 6), RA=(5, 2))
    before, action, after = _step(st, ("move", UNITS["GW"], sq(st, 5, 4)))
    assert cell_of(after, "GW") is None
    check_transition(before, action, after, props)
    bad = after.clone()
    bad.units[UNITS["GW"]].cell = sq(st, 5, 4)
    with pytest.raises(PropertyViolation, match="stopped 2 from enemy archer"):
        check_transition(before, action, bad, props)


@pytest.mark.seed("blackfire:43.2")
def test_contest_dice_fail_when_the_loser_lives():
    from .helpers import rig

    props = _only("the attacker's d6 decides a contest: 5 or 6 kills the defender, 1-4 the attacker")
    st = fresh(GS=(0, 4), GW=(0, 0), GA=(5, 6), RA=(5, 2))
    rig(st, (6, 5))
    before, action, after = _step(st, ("move", UNITS["GA"], sq(st, 5, 4)))
    assert cell_of(after, "RA") is None and cell_of(after, "GA") == (5, 4)
    check_transition(before, action, after, props)
    bad = after.clone()
    bad.units[UNITS["RA"]].cell = sq(st, 5, 2)
    with pytest.raises(PropertyViolation, match="loser 4 lives"):
        check_transition(before, action, bad, props)


@pytest.mark.seed("blackfire:24.1")
def test_token_pickup_fails_when_the_unit_keeps_moving_or_leaves_the_token():
    props = _only("a unit picks a token up exactly when it stops on it by its own move, and then moves no more")
    st = fresh(GS=(0, 4), GA=(0, 0), GW=(5, 6))
    token(st, 5, 5, "slow")
    before, action, after = _step(st, ("move", UNITS["GW"], sq(st, 5, 5)))
    check_transition(before, action, after, props)
    bad = after.clone()
    bad.tokens[sq(st, 5, 5)] = "slow"
    bad.revealed = {}
    with pytest.raises(PropertyViolation, match="did not pick up"):
        check_transition(before, action, bad, props)
    bad = after.clone()
    bad.moved = []  # the warrior could move on after its pick-up
    bad._legal = None
    with pytest.raises(PropertyViolation, match="may move again"):
        check_transition(before, action, bad, props)


@pytest.mark.seed("blackfire:37.2")
def test_respawn_fails_when_an_enemy_stays_within_three():
    props = _only("a dead sorcerer counts its own turns down from three and respawns, pushing enemies to four")
    st = fresh(GS=(0, 4), GA=(0, 0), GW=(0, 8), RW=(5, 2))
    st._kill(UNITS["GS"])
    st.units[UNITS["GS"]].respawn = 1
    st.orb_holder, st.orb_cell = None, sq(st, 0, 6)
    st.apply(("end",))
    before, action, after = _step(st, ("end",))
    assert cell_of(after, "GS") == (5, 4)
    check_transition(before, action, after, props)
    bad = after.clone()
    bad.units[UNITS["RW"]].cell = sq(st, 5, 2)
    with pytest.raises(PropertyViolation, match="enemy 5 is 2 from the respawned sorcerer"):
        check_transition(before, action, bad, props)


def test_a_shield_spent_on_a_shot_then_renewed_by_a_token_on_that_square_is_spent():
    """Archers fire before a stop's pick-up: a unit whose invulnerability absorbs the shot and which then
    picks up an Invulnerable token on that square is shielded again.  The archer-fire property once read
    the new shield as the old one unused (a heuristic playout, seed 41710974, found it; the rules were
    right), so the whole game must now pass every property."""
    from ..conformance import check_playout

    state = check_playout("blackfire", 41710974, variant="final", agent="heuristic", options={"max_turns": 60},
                          every=50, leak_every=50)
    assert state.is_over()
    # the transition in question: the red warrior's shield took the green archer's shot on f7, and the
    # Invulnerable token there gave it a new one
    texts = [e["text"] for e in state.events(None)]
    i = texts.index("The red warrior is invulnerable: the attack is absorbed.")
    assert texts[i + 1] == "The red warrior picks up an Invulnerable token."
