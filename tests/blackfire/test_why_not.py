"""Blackfire's "why not": the common reasons a piece, a card or a square cannot be used, on scripted positions."""

from __future__ import annotations

from boardlab.engine import make

from .helpers import field_state, place, sq


def test_a_piece_that_moved_says_so_and_the_others_still_can():
    st = field_state()
    place(st, GS=(1, 1), GA=(3, 3), GW=(5, 5), RS=(9, 7), RA=(9, 6), RW=(8, 7))
    assert st.why_not(0, "d4") is None  # the archer can move
    st.apply(("move", 1, sq(st, 3, 2)))
    assert st.why_not(0, "d3") == "your archer already moved this turn"
    assert st.why_not(0, "b2") is None  # the sorcerer has not


def test_stance_changes_only_before_any_unit_acts_and_a_defensive_warrior_cannot_move():
    st = field_state()
    place(st, GS=(1, 1), GA=(3, 3), GW=(5, 5), RS=(9, 7), RA=(9, 6), RW=(8, 7))
    st.apply(("stance", 2))  # the warrior goes defensive: the stance is set for this turn
    assert st.why_not(0, "f6") == ("a warrior in defensive stance cannot move; its stance can change only"
                                   " before any unit acts in a turn")
    st2 = field_state()
    place(st2, GS=(1, 1), GA=(3, 3), GW=(5, 5), RS=(9, 7), RA=(9, 6), RW=(8, 7))
    st2.units[2].stance = "defensive"
    st2._legal = None
    assert st2.why_not(0, "f6") == ("a warrior in defensive stance cannot move; switch its stance first"
                                    " (in the action list: only before any unit acts)")


def test_not_your_piece_not_your_turn_and_rock():
    st = field_state()
    place(st, GS=(1, 1), GA=(3, 3), GW=(5, 5), RS=(9, 7), RA=(9, 6), RW=(8, 7))
    assert st.why_not(0, "j7") == "that is red's archer, not yours"
    assert st.why_not(1, "j7") == "it is not your turn"
    assert st.why_not(0, "k1") == "none of your units can end a move there this turn"
    game = make("blackfire", options={"tokens_per_player": 0, "colours": "seat1-green"})
    real = game.new_state(1)
    rock = next(i for i, ch in enumerate(game.castle.chars) if ch == "#")
    w = game.castle.width
    assert real.why_not(0, f"main:{rock % w},{rock // w}") == "nothing can enter it (solid rock)"


def test_a_dead_unit_says_why_it_cannot_be_revived():
    st = field_state()
    place(st, GS=(1, 1), GA=None, GW=(5, 5), RS=(9, 7), RA=(9, 6), RW=(8, 7))
    st.orb_holder, st.orb_cell = None, sq(st, 5, 4)  # the Orb lies on the board
    st._legal = None
    assert st.why_not(0, "card:dead-1") is None  # the sorcerer can revive it beside itself
    st.orb_holder, st.orb_cell = 0, None
    st._legal = None
    assert st.why_not(0, "card:dead-1") == "your sorcerer carries the Orb, and the Orb carrier cannot revive"
    scene = st.game.scene(st.view(0), st.legal_actions())
    card = next(c for p in scene["panels"] for c in p["cards"] if c["id"] == "dead-1")
    assert card["why_not"] == "your sorcerer carries the Orb, and the Orb carrier cannot revive"


def test_placement_squares_say_why():
    game = make("blackfire", options={"colours": "seat1-green"})
    st = game.new_state(2)
    w = game.castle.width
    first = st.legal_actions()[0][1]
    st.apply(st.legal_actions()[0])
    assert st.why_not(0, f"main:{first % w},{first // w}") == "you already placed a token there"
    treasure = game.castle.treasure[0]
    assert st.why_not(0, f"main:{treasure % w},{treasure // w}").startswith("tokens go on free squares")


def test_the_opening_placement_is_explained_in_one_line():
    game = make("blackfire", options={"colours": "seat1-green"})
    st = game.new_state(2)
    scene = game.scene(st.view(0), st.legal_actions())
    assert len(st.legal_actions()) > 30 and scene["hint"].startswith("Each player secretly puts 4 tokens")
    assert "hint" not in game.scene(st.view(1), ())  # the seat that waits is asked nothing
