"""Tests that kill surviving mutants of Blackfire's rules modules (scripts/mutation.py, issue 42;
dispositions in benchmarks/mutation_dispositions.json)."""

from __future__ import annotations

from .helpers import UNITS, field_state, place


def test_a_kill_is_credited_to_the_killed_units_opponent_and_the_loss_to_its_owner():
    # kills combat.py:136 `1 - unit.side` -> `1 | unit.side` (a red loss credited as a red kill)
    for victim, side in (("RA", 1), ("GW", 0)):
        st = field_state()
        st._kill(UNITS[victim])
        kills, lost = st.stats["rule:kill"], st.stats["rule:units-lost"]
        assert kills[st.seat_of(1 - side)] == 1 and kills[st.seat_of(side)] == 0, (victim, kills)
        assert lost[st.seat_of(side)] == 1 and lost[st.seat_of(1 - side)] == 0, (victim, lost)
        assert st.units[UNITS[victim]].cell is None


def test_a_speed_bonus_of_one_is_written_as_one_more_space():
    # kills tokens.py:51 `opt['speed_bonus'] != 1` -> `>= 1` (seed 2): the Speed token's text said "1 more
    # spaces" under speed_bonus 1 (the option runs from 1 to 5; the default 3 and the tests' 2 read the same)
    from boardlab.engine import make
    from boardlab.games.blackfire.tokens import token_reference

    for bonus, text in ((1, "1 more space immediately."), (2, "2 more spaces immediately."),
                        (5, "5 more spaces immediately.")):
        game = make("blackfire", options={"speed_bonus": bonus})
        ref = token_reference(game.opt, {"speed": 1})
        assert ref["speed"] == f"The unit can move up to {text}", ref["speed"]


def test_each_token_placement_names_the_placing_player():
    # kills rules.py:297 `Player {seat + 1}` -> `Player {seat ^ 1}` (seed 2): the second player's placements
    # were logged as "Player 0 places a token"
    from boardlab.engine import make

    st = make("blackfire").new_state(0)
    seen = set()
    while st.phase == "place":
        seat = st._current_seat()
        before = len(st._entries())
        st.apply(st.legal_actions()[0])
        placed = [e[3] for e in st._entries()[before:] if "places a token" in e[3]]
        assert placed and placed[0].startswith(f"Player {seat + 1} places a token ("), (seat, placed)
        seen.add(seat)
    assert seen == {0, 1}


def test_a_red_unit_on_a_displace_token_may_move_each_green_unit_and_no_red_one():
    # kills rules.py:198 `range(3 * (1 - side), ...)` -> `range(3 * (1 + side), ...)` (seed 2): for a red unit
    # (side 1) the range became range(6, 3), so Displace offered only a pass; every test took it with green
    from .helpers import move, place, token

    st = field_state()
    place(st, GS=(0, 0), GA=(0, 8), GW=(5, 1), RS=(10, 6), RW=(5, 4), RA=(10, 2))
    st.apply(("end",))  # red's turn
    token(st, 5, 5, "displace")
    move(st, "RW", 5, 5)
    assert st.stack[-1].kind == "displace"
    targets = {a[1] for a in st.legal_actions() if a[0] == "displace"}
    assert targets == {UNITS["GS"], UNITS["GA"], UNITS["GW"]}, st.legal_actions()


def test_after_an_end_the_next_side_decides_even_when_ending_is_all_it_can_do():
    # kills rules.py:308 `_after_action(auto_end=False)` -> `True` (seed 1, left open then): red, with every unit
    # dead and its sorcerer's respawn still counting down, has only ("end",); the code gives red that decision
    # (its respawn count ticks on its own turn) instead of skipping its turn after green's end
    from .helpers import place

    st = field_state()
    place(st, GS=(0, 0), GA=(0, 8), GW=(5, 1), RS=None, RA=None, RW=None)
    st.units[UNITS["RS"]].respawn = 3
    st._legal = None
    st.apply(("end",))
    assert st.side == 1 and list(st.legal_actions()) == [("end",)]
    assert st.units[UNITS["RS"]].respawn == 2
    st.apply(("end",))
    assert st.side == 0


def test_a_castle_with_fewer_than_sixteen_free_squares_is_refused():
    # kills board.py:82 `2 * 8` -> `2 + 8` (seed 3): a map with 12 free squares was accepted; a castle
    # map needs at least 2 x 8 squares where tokens may go
    import pytest

    from boardlab.engine import ContentError
    from boardlab.games.blackfire.content import parse_castle

    tight = "name: tight\nmap:\nA 1 2 T T T B\n\n. . . G . . .\n\n. . . T . . .\n\nC 3 4 T T T D\n"
    with pytest.raises(ContentError, match="only 12 free squares"):
        parse_castle(tight, "tight.txt")
    roomy = tight.replace(". . . T . . .\n\nC", ". . . T . . .\n\n. . . . . . .\n\nC")
    assert len(parse_castle(roomy, "roomy.txt").placeable) == 19


def test_square_names_count_rows_from_one():
    # kills board.py:117 `y + 1` -> `y % 1` (seed 3): every square was named on row 0
    from boardlab.games.blackfire.content import load_castle

    castle = load_castle()
    assert castle.label(0) == "a1"
    assert castle.label(castle.width * 3 + 2) == "c4"
    assert castle.label(castle.width * castle.height - 1) == f"{chr(96 + castle.width)}{castle.height}"


def test_the_win_line_names_the_exit_the_orb_left_by():
    # kills rules.py:376 `self.exit + 1` -> `self.exit % 1` (seed 3): every exit was called "#0"
    from .helpers import move

    st = field_state()
    place(st, GS=(0, 4), GA=(0, 0), GW=(0, 8), RS=(8, 8), RW=(5, 5), RA=(2, 2))
    st.orb_holder, st.orb_cell = UNITS["RS"], None
    st.apply(("end",))
    move(st, "RS", 10, 8)
    assert st.is_over() and st.exit == 3
    assert st.reason == "the red sorcerer carried the Orb out of exit #4"
