"""Tests for interpretation-ledger entries not already covered by the version scenario tests."""

from __future__ import annotations

from boardlab.engine import make

from .helpers import Dice, move_all, put, scenario, to_moves


def test_heroes_start_on_the_corner_start_tile():
    """Ledger: the alpha's "start tile" is kept in every version: a face-up tile in the top-left corner."""
    for players in (3, 4, 5):
        s = make("wizards-labyrinth", players=players).new_state(4)
        assert s.tiles[0] == "start" and s.flipped[0]
        assert all(h.pos == 0 and h.hp == 10 for h in s.heroes)


def test_four_or_more_traps_need_thirteen():
    """Ledger: the seed lists saves up to 3 traps; 4 or 5 traps on one tile (4-5 players) also need 13+."""
    s = scenario(players=5)
    put(s, 7, "T", "T", "T", "T")
    to_moves(s)
    s.rng = Dice([12, 13, 20, 20])
    move_all(s, {1: ("move", 7), 2: ("move", 7)})
    assert (s.hero(1).hp, s.hero(2).hp) == (8, 10)


def test_every_hero_on_a_newly_flipped_room_loots_and_lowest_seat_takes_the_key():
    """Ledger: each hero who stands on the room when it flips and fought no monster draws a loot card;
    a key tile's key goes to the lowest seat there (the heroes may then trade it)."""
    s = scenario()
    s.tiles[5] = "k1"
    to_moves(s)
    move_all(s, {1: ("move", 5), 2: ("move", 5)})
    assert (s.hero(1).keys, s.hero(2).keys) == (1, 0)
    assert all(len(h.hand) + len(h.equipment) == 1 for h in s.heroes)


def test_sprint_may_not_pass_a_room_with_tokens():
    """Ledger: "A player can not move past a room with monsters" (beta); a sprinting hero's first step must
    be a room without any tokens, since face-down tokens may hide monsters."""
    s = scenario()
    s.hero(1).hand = ["Sprint"]
    put(s, 1, "X")
    to_moves(s)
    s.apply(("use", "Sprint"))
    moves = [a for a in s.legal_actions() if a[0] == "move2"]
    assert moves and all(a[1] == 5 for a in moves)


def test_beta_sprint_loots_every_room_passed():
    """Beta: "that player then gets to loot every tile without monsters on it that the player enters" """
    s = scenario(variant="beta")
    s.hero(1).hand = ["Sprint"]
    to_moves(s)
    s.apply(("use", "Sprint"))
    s.apply(("move2", 1, 2))
    move_all(s, {})
    h = s.hero(1)
    assert s.flipped[1] and s.flipped[2] and len(h.hand) + len(h.equipment) == 2


def test_shifting_gate_turns_the_entrance():
    """Ledger: the entrance faces a direction "at the start"; the designed spell Shifting Gate turns it."""
    s = scenario()
    s.whand = ["Shifting Gate"]
    s._legal = None
    s.apply(("play", "Shifting Gate"))
    assert {a[1] for a in s.legal_actions()} == {"E", "S", "W"}
    s.apply(("face", "S"))
    assert s.entrance_cell() == 17


def test_frozen_heroes_skip_combat_too():
    """Ledger: Frost Bolt's "skips their turn" means no move, no fight and no loot that hero turn."""
    s = scenario()
    s.whand = ["Frost Bolt"]
    s._legal = None
    s.apply(("play", "Frost Bolt"))
    s.apply(("target", 0))
    put(s, 0, "m5")
    s.apply(("end",))
    assert all(h.hp == 10 for h in s.heroes) and len(s.tokens[0]) == 1
