"""Rage of the wizard, on hand-built 5x5 boards (tower C3 = 12, entrance N = 7).

     0  1  2  3  4
     5  6  7  8  9
    10 11 12 13 14
    15 16 17 18 19
    20 21 22 23 24
"""

from __future__ import annotations

import pytest

from .helpers import move_all, put, scenario, to_moves

RING = {6, 7, 8, 11, 13, 16, 17, 18}


def raging(**setup):
    s = scenario()
    s.keys_taken = 2
    for c in setup.get("removed", ()):
        s.removed[c] = True
    for seat, c in setup.get("heroes", {}).items():
        s.hero(seat).pos = c
    for c, k in setup.get("dropped", {}).items():
        s.dropped_keys[c] = k
    to_moves(s)
    move_all(s, {})
    return s


def offered(s):
    return {a[1] for a in s.legal_actions()}


@pytest.mark.seed("wizards-labyrinth:98.1", "wizards-labyrinth:98.2")
def test_rage_starts_once_two_keys_are_taken_and_removes_players_tiles():
    """ "When 2 of the 3 keys have been picked up ... At the start of every wizard turn the wizard chooses a
    number of tiles equal to the number of players in the game (wizard + heroes) and remove them" """
    s = scenario()
    to_moves(s)
    move_all(s, {})
    assert s.stack[-1].kind == "main"
    s = raging()
    assert s.stack[-1].kind == "rage" and s.stack[-1].data["left"] == 3
    put(s, 24, "m3")
    for c in (24, 23, 22):
        s.apply(("remove", c))
    assert s.stack[-1].kind == "main" and sum(s.removed) == 3 and s.tokens[24] == []


@pytest.mark.seed("wizards-labyrinth:98.3")
def test_rage_never_takes_the_last_ring_the_tower_or_a_hero_tile():
    """ "The wizard can not remove the last layer of tiles around the wizard tower" """
    s = raging()
    cells = offered(s)
    assert not cells & RING and 12 not in cells and 0 not in cells
    assert cells == set(range(25)) - RING - {12, 0}


@pytest.mark.seed("wizards-labyrinth:98.3")
def test_rage_cannot_cut_a_hero_off_from_the_tower():
    """ "can not remove tiles in such a way that a hero could not get to the wizard tower" """
    s = raging(removed=[5])  # A1's only way out is now B1
    cells = offered(s)
    assert 1 not in cells and 2 in cells
    s = raging(removed=[19], heroes={1: 24, 2: 24})  # E5 leans on D5 alone
    assert 23 not in offered(s) and 22 in offered(s)


@pytest.mark.seed("wizards-labyrinth:98.3")
def test_rage_cannot_cut_off_dropped_keys():
    """ "... or a tile with keys (if a hero has died and dropped it/them)" """
    s = raging(removed=[15], dropped={20: 1})
    cells = offered(s)
    assert 21 not in cells and 20 not in cells and 22 in cells


def test_rage_connectivity_is_a_real_search_not_adjacency():
    """A long corridor: removing any of its tiles cuts the hero at E1 off, though none is next to it."""
    # Leave only the path 4-9-14-19-24-23-22-21-20-15-10 (plus the ring) around the outside.
    s = raging(removed=[0, 1, 2, 3, 5], heroes={1: 4, 2: 4})
    cells = offered(s)
    # E1 (4) reaches the ring by 9 -> 8 directly, so the long way round is free to break ...
    assert {21, 22, 15} <= cells
    s = raging(removed=[0, 1, 2, 3, 5, 9], heroes={1: 4, 2: 4})
    # ... but with E2 (9) gone, E1 is already cut off: nothing may be removed at all.
    assert s.stack[-1].kind == "main" or not offered(s)


def test_rage_corridor_keeps_the_only_path():
    s = raging(removed=[5, 10, 21, 22, 23, 14, 9], heroes={1: 20, 2: 20}, dropped={4: 1})
    cells = offered(s)
    # hero at A5 (20) walks 15 -> 16 (ring); dropped key at E1 (4) reaches the ring by 3 -> 8
    assert 15 not in cells and 3 not in cells
    assert {1, 2, 19, 24} <= cells


def test_keys_dropped_inside_the_tower_do_not_stop_the_rage():
    """Keys lost in the tower (a hero died there) need no road: taking them means winning anyway."""
    s = raging(dropped={12: 1})
    assert s.stack[-1].kind == "rage" and offered(s) == set(range(25)) - RING - {12, 0}
