"""Tests that kill surviving mutants of the Dungeon's Jewel's rules modules (scripts/mutation.py, issue 42;
dispositions in benchmarks/mutation_dispositions.json)."""

from __future__ import annotations

from boardlab.games.dungeons_jewel.board import Board

from .helpers import SIZE, cell


def test_step_distances_on_an_open_board_are_manhattan_and_zero_at_the_start():
    # kills board.py:97 `dist[j] < 0` -> `<= 0`, which walked back into the start and gave it distance 2
    board = Board(SIZE, 4)
    for start in (cell(0, 0), cell(3, 3), cell(6, 2)):
        dist = board.distances(start)
        sx, sy = board.xy(start)
        assert dist[start] == 0
        assert dist == [abs(x - sx) + abs(y - sy) for y in range(SIZE) for x in range(SIZE)]


def test_a_walled_room_is_reached_the_long_way_round():
    board = Board(SIZE, 4)
    walls = [0] * board.cells
    a, b = cell(0, 0), cell(1, 0)
    walls[a] |= 1 << 1  # east side of a1 blocked
    walls[b] |= 1 << 3  # and the west side of b1
    dist = board.distances(a, walls)
    assert dist[a] == 0 and dist[b] == 3  # down, across, up
    assert board.distances(a, walls, through_walls=True)[b] == 1


def test_the_spaces_around_the_centre_are_its_eight_neighbours_once_each():
    # kills board.py:59 (a 0 in the offsets -> -1: the rooms north and south of the centre missing, the
    # diagonals twice); the exit-any rule reads these, and the compiled core's tables are built from them
    board = Board(SIZE, 4)
    c = board.centre
    assert c == cell(3, 3)
    expected = [cell(x, y) for y in (2, 3, 4) for x in (2, 3, 4) if (x, y) != (3, 3)]
    assert sorted(board.around) == expected
    assert len(board.around) == len(set(board.around)) == 8


def test_the_attack_log_splits_each_total_into_its_die_and_its_attack_power():
    # kills rules.py:405 `{a - self.power[s]}` -> `{a + self.power[s]}` (the attacker's die shown as die + 2 power)
    from .helpers import blank

    s = blank()
    s.power[0], s.power[1] = 2, 1
    text = s._contest_text(1, 5 + 2, 4 + 1)
    assert ": 5 + 2 = 7 against 4 + 1 = 5" in text, text


def test_the_attack_log_splits_totals_whose_die_and_power_share_no_bit():
    # kills rules.py:405 `{a - self.power[s]}` -> `{a ^ self.power[s]}` (seed 2): 7 - 2 == 7 ^ 2, so the test
    # above cannot tell them apart; 5 + 3 = 8 and 1 + 3 = 4 can (8 ^ 3 = 11, 4 ^ 3 = 7)
    from .helpers import blank

    s = blank()
    s.power[0], s.power[1] = 3, 3
    text = s._contest_text(1, 5 + 3, 1 + 3)
    assert ": 5 + 3 = 8 against 1 + 3 = 4" in text, text


def test_every_die_size_the_words_know_is_named_in_words_and_others_by_number():
    # kills rules.py:34 `12: "twelve"` -> `11: "twelve"` (seed 2): a twelve-sided die shown as "a 12-sided die"
    # and an eleven-sided one as "a twelve-sided die" (the die option runs from 4 to 20)
    from boardlab.games.dungeons_jewel.rules import die_name

    words = {4: "four", 6: "six", 8: "eight", 10: "ten", 12: "twelve", 20: "twenty"}
    for sides in range(4, 21):
        name = words.get(sides, str(sides))
        assert die_name(sides) == f"a {name}-sided die"
        assert die_name(sides, plural=True) == f"{name}-sided dice"


def test_the_spaces_around_the_centre_are_listed_in_reading_order():
    # kills board.py:59 `(cy + dy)` -> `(cy - dy)` (seed 3): the same eight rooms, rows south to north.
    # The order is the order of the slayer's exit moves among the legal actions, which seeded agents,
    # recorded games and the compiled core's tables all follow.
    board = Board(SIZE, 4)
    assert list(board.around) == [cell(x, y) for y in (2, 3, 4) for x in (2, 3, 4) if (x, y) != (3, 3)]
