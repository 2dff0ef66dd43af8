"""Scenario tests for "Rules - Beta" (23 October) and "Rules - Alpha build" (17 October), and for the
26 October update's account of beta traps (variant ``beta-playtest``)."""

from __future__ import annotations

import pytest

from boardlab.engine import make

from .helpers import Dice, move_all, put, scenario, to_moves


def room(s, draw, mana):
    return f"r{s.game.content.rooms.index((draw, mana))}"


# -- Beta ------------------------------------------------------------------------
@pytest.mark.seed("wizards-labyrinth:209.1", "wizards-labyrinth:218.2", "wizards-labyrinth:223.2")
def test_beta_flips_and_loots_on_entering():
    """Beta: "When a player enters a new tile, that player flips that tile and all tokens ... if there are
    no monsters on that tile the player get to loot that room, by drawing 1 Loot Card." """
    s = scenario(variant="beta")
    s.tiles[5] = room(s, 1, 1)
    to_moves(s)
    hand = len(s.whand)
    move_all(s, {1: ("move", 5)})
    assert s.flipped[5] and len(s.whand) == hand + 2  # the room's card, then the next turn's draw
    h = s.hero(1)
    assert len(h.hand) + len(h.equipment) == 1


@pytest.mark.seed("wizards-labyrinth:218.4")
def test_beta_two_heroes_choose_who_gets_the_room_loot():
    """Beta: "If more than 1 player enters the same room they have to chose who gets the loot." """
    s = scenario(variant="beta")
    to_moves(s)
    move_all(s, {1: ("move", 5), 2: ("move", 5)})
    p = s.stack[-1]
    assert p.kind == "loot" and p.data["to"] == [1, 2] and len(p.data["cards"]) == 1
    s.apply(("take", 0, 2))
    assert len(s.hero(2).hand) + len(s.hero(2).equipment) == 1


@pytest.mark.seed("wizards-labyrinth:229.2", "wizards-labyrinth:237.2")
def test_beta_key_only_after_defeating_the_guard_and_loot_two_then_one():
    """Beta: "When a player defeats the enemies in a tiles with a key symbol he/she receives a key", "draw
    1 Loot Card, if this is the first time a monster or monsters are defeated in this room instead draw 2" """
    s = scenario(variant="beta")
    s.tiles[5] = "k0"
    put(s, 5, "m1")
    to_moves(s)
    s.rng = Dice([15, 1])  # lose first
    move_all(s, {1: ("move", 5)})
    assert s.flipped[5] and s.hero(1).keys == 0 and 5 in s.unclaimed and s.hero(1).pos == 0
    s.apply(("end",))
    s.rng = Dice([1, 15])
    move_all(s, {1: ("move", 5)})
    h = s.hero(1)
    assert h.keys == 1 and s.keys_taken == 1 and len(h.hand) + len(h.equipment) == 2
    put(s, 5, "m1")
    s.hero(1).pos = 0
    s.apply(("end",))
    s.rng = Dice([1, 15])
    move_all(s, {1: ("move", 5)})
    assert len(h.hand) + len(h.equipment) == 3  # a second win in the room: 1 card


@pytest.mark.seed("wizards-labyrinth:247.2", "wizards-labyrinth:247.3")
def test_beta_traps_are_ten_plus_whatever_their_number():
    """Beta: "All players that walks on a tile with a trap on it needs to do a 10+ saving throw. If a player
    fails a saving throw that player takes 2 damage." """
    s = scenario(variant="beta")
    s.flipped[5] = True  # an explored room: no loot on entering to muddle the saves
    put(s, 5, "T", "T", "T")
    to_moves(s)
    s.rng = Dice([10, 9])
    move_all(s, {1: ("move", 5), 2: ("move", 5)})
    assert (s.hero(1).hp, s.hero(2).hp) == (10, 8)


@pytest.mark.seed("wizards-labyrinth:247.2")
def test_beta_playtest_traps_hurt_per_trap():
    """26 October update: "the traps do 2 damage for each trap in a room that a player failes a 10+ dice
    roll on" (variant beta-playtest)."""
    s = scenario(variant="beta-playtest")
    s.flipped[5] = True
    put(s, 5, "T", "T")
    to_moves(s)
    s.rng = Dice([9])
    move_all(s, {1: ("move", 5)})
    assert s.hero(1).hp == 6


@pytest.mark.seed("wizards-labyrinth:237.1", "wizards-labyrinth:241.1")
def test_beta_three_keys_no_mana_gain_and_early_deck():
    """Beta: "collect the 3 hidden keys", the wizard turn has no wheel step; the deck lacks the cards the
    26 October update added (Switcheroo, Whirlwind, the 1-mana creatures)."""
    s = scenario(variant="beta")
    s.keys_taken = 2
    assert not s.tower_open() and not s.rage_active() and 12 not in s.placeable("m1")
    mana = s.mana
    to_moves(s)
    move_all(s, {})
    assert s.mana == mana == 2
    deck = set(s.game.deck_cards)
    assert not deck & {"Switcheroo", "Whirlwind", "Goblin", "Rat Swarm", "Kobold Scout"}
    assert "Switcheroo" in make("wizards-labyrinth", players=3).deck_cards


@pytest.mark.seed("wizards-labyrinth:220.1")
def test_beta_stuck_hero_chooses_own_retreat():
    """Beta is silent on who picks the retreat of a hero that could not move (final: the wizard)."""
    s = scenario(variant="beta")
    put(s, 0, "m1")
    to_moves(s)
    s.rng = Dice([20, 1, 1])
    move_all(s, {})
    assert s.stack[-1].kind == "retreat" and s.current_seat() in (1, 2)


# -- Alpha -----------------------------------------------------------------------
@pytest.mark.seed("wizards-labyrinth:323.1")
def test_alpha_wheel_gains_one_each_turn_from_zero():
    """Alpha: "plays any card he can play with the 1 mana he has" and "spins his mana-wheel up 1 step" """
    s = scenario(variant="alpha")
    assert s.mana == 1 and s.mana_left == 1
    to_moves(s)
    move_all(s, {})
    assert s.mana == 2


@pytest.mark.seed("wizards-labyrinth:312.1", "wizards-labyrinth:323.2")
def test_alpha_first_turn_draws_only_the_opening_five():
    """Alpha's "First turn": "The wizard goes first, he draws 5 cards and chooses 3 of them to save and
    shuffle the other 2 back into the deck. He then plays any card he can play with the 1 mana he has"
    (ledger 43): the five are the first turn's draw, so no sixth card; the later turns draw as usual."""
    s = make("wizards-labyrinth", players=3, variant="alpha").new_state(3)
    while s.stack[-1].kind != "keep":
        s.apply(s.legal_actions()[0])
    deck_before = len(s.wdeck.draw_pile)
    for _ in range(3):
        s.apply(s.legal_actions()[0])
    assert s.stack[-1].kind == "main" and s.current_seat() == 0
    assert len(s.whand) == 3 and len(s.wdeck.draw_pile) == deck_before + 2
    assert s.mana == 1 and s.mana_left == 1
    s2 = s.clone()
    s2.whand = []
    s2._legal = None
    to_moves(s2)
    move_all(s2, {})
    assert s2.phase == "wizard" and len(s2.whand) == 1 and s2.mana == 2


@pytest.mark.seed("wizards-labyrinth:335.5", "wizards-labyrinth:335.6")
def test_alpha_combines_rolls():
    """Alpha: "both players roll a dice and combind the rolls and add their equipment" """
    s = scenario(variant="alpha")
    put(s, 5, "m1")
    to_moves(s)
    s.rng = Dice([12, 6, 7])  # 13 against 6 + 7 = 13 (the highest alone, 7, would lose)
    move_all(s, {1: ("move", 5), 2: ("move", 5)})
    assert [t for t in s.tokens[5] if t.kind[0] == "m"] == []


@pytest.mark.seed("wizards-labyrinth:335.7", "wizards-labyrinth:341.2", "wizards-labyrinth:341.4")
def test_alpha_loss_costs_one_damage_and_traps_are_five_plus():
    """Alpha: "take 1 damage" for a lost fight; traps need "a 5+ saving throw" """
    s2 = scenario(variant="alpha")
    put(s2, 5, "m1", "m1", "m1")
    to_moves(s2)
    s2.rng = Dice([20, 1])
    move_all(s2, {2: ("move", 5)})
    assert s2.hero(2).hp == 9
    s3 = scenario(variant="alpha")
    s3.flipped[1] = True
    put(s3, 1, "T", "T")
    to_moves(s3)
    s3.rng = Dice([4, 5])
    move_all(s3, {1: ("move", 1), 2: ("move", 1)})
    assert (s3.hero(1).hp, s3.hero(2).hp) == (8, 10)


@pytest.mark.seed("wizards-labyrinth:345.2", "wizards-labyrinth:353.1")
def test_alpha_three_tokens_a_tile_no_rage_no_entrance_no_trading_no_limits():
    """Alpha: "a maximum of 3 total monsters, traps and blanks on a tile"; no rage, tower entrance,
    trading or equipment limits are in the alpha text."""
    g = make("wizards-labyrinth", players=5, variant="alpha")
    assert g.token_limit == 3 and make("wizards-labyrinth", players=5).token_limit == 5
    s = scenario(variant="alpha")
    s.keys_taken = 3
    assert not s.rage_active()
    for h in s.heroes:
        h.pos, h.keys = 11, 1
    s.hero(1).keys = 3
    s.hero(1).hand = ["Sprint"]
    to_moves(s)
    legal = s.legal_actions()
    assert ("move", 12) in legal and not any(a[0].startswith("give") for a in legal)
    h = s.hero(2)
    for name in ("Short Sword", "Long Sword", "Short Sword", "Leather Boots", "Boots of Haste"):
        s.receive(h, name)
    assert len(h.equipment) == 5 and h.hand == []
