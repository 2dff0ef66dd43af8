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
