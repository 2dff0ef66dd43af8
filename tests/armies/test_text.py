"""Issue 32: Armies' jargon explained in place, and a General that lost its skill is not called "green"."""

from __future__ import annotations

from boardlab.engine import make

from .helpers import at, give, position, touch


def _scene(st, seat=0):
    return st.game.scene(st.view(seat), st.legal_actions() if st.current_seat() == seat else ())


def _general_row(scene, seat=0):
    panel = next(p for p in scene["panels"] if p.get("seat") == seat)
    return dict((r[0], r[1]) for r in panel["rows"])["General skill (now/max; pays card costs)"]


def test_a_general_that_lost_every_skill_point_is_not_called_green():
    st = position({"e1": "K", "e8": "k"})
    give(at(st, "e1"), "")  # all three points lost in battle
    row = _general_row(_scene(st))
    assert row.startswith("none left: it lost every skill point") and "green" not in row
    # at setup, before any choice, the General has no skill yet
    st = make("armies").new_state(0)
    assert _general_row(_scene(st)).startswith("none yet")


def test_card_lines_explain_leader_cards_major_actions_and_any_domain():
    st = position({"e1": "K", "e8": "k"}, hands=(["Against All Odds", "Heavy Cavalry"], []))
    cards = {c["name"]: c["text"] for c in next(p for p in _scene(st)["panels"] if p.get("seat") == 0)["cards"]}
    assert cards["Against All Odds"].startswith(
        "Leader Maneuver (played through a piece whose leader is ready; a major action: one a turn), costs 1 of any domain")
    key = next(p for p in _scene(st)["panels"] if p["title"] == "Key")
    assert "'L' a ready leader, 'l' a spent one (it has acted" in key["rows"][0][1]


def test_the_rest_prompt_says_what_resting_does():
    st = position({"e1": "K", "e8": "k"})
    give(at(st, "e1"), "G")
    at(st, "e1").skill = [0, 0, 0, 0, 0]
    st.phase = "opp2"
    st._legal = None
    assert _scene(st)["prompt"] == ("Play cards, then rest an army (its skill back to maximum, its leader ready)"
                                    " or end the turn")


def test_the_skill_choice_names_the_domains_the_deck_costs_most():
    game = make("armies")
    st = game.new_state(1)
    hint = _scene(st)["hint"]
    assert "before you draw your hand" in hint and "Your deck's cards cost mostly " in hint


def test_the_battle_line_shows_the_sum_behind_each_number():
    """A new player could not see why a queen with a +2 card read 'defense 1': the log names each term."""
    from .helpers import FixedRng, mv

    st = position({"e1": "K", "e8": "k", "a1": "R", "a7": "q"}, active=0)
    at(st, "a1").leader = "Heavy Cavalry"
    at(st, "a7").leader = "Shield Bearers"
    st.strategies = [(999, "Bows and Knives", 1, 0)]
    cards = st.game.cards
    off, dfn = cards["Heavy Cavalry"].offense, cards["Shield Bearers"].defense
    assert dfn >= 2
    touch(st)
    n = len(st.events(0))
    st.rng = FixedRng([6] * off + [1])
    st.apply(mv("a1", "a7"))
    line = next(e["text"] for e in st.events(0)[n:] if e["text"].startswith("Attack "))
    assert f"offense rook 0 + Heavy Cavalry {off} = {off}: {off} dice, rolled " in line, line
    assert f"{off} hits + 1 for attacking in person = {off + 1}." in line
    assert (f"defense queen 0 + Shield Bearers {dfn} = {dfn}, capped at 1 by Bows and Knives: 1 die, rolled 1"
            in line), line


def test_a_failed_attack_says_why():
    from .helpers import FixedRng, mv

    st = position({"e1": "K", "e8": "k", "a1": "R", "a7": "p"}, active=0)
    at(st, "a7").leader = "Shield Bearers"
    touch(st)
    n = len(st.events(0))
    st.rng = FixedRng([6, 1, 1])  # 0 hits + 1 against 1 hit: a tie
    st.apply(mv("a1", "a7"))
    assert "The attack fails: a tie goes to the defender." in [e["text"] for e in st.events(0)[n:]]
