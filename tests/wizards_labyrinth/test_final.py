"""Scenario tests for "The Rules (Final)" (8 November), one or more per rule, quoting the seed.

Board used (3 players, 5x5; see helpers.scenario): A1 = cell 0 is the start, the tower is
C3 = cell 12 with its entrance facing N (C2 = cell 7), the ring is cells 6-8, 11, 13, 16-18.
"""

from __future__ import annotations

import pytest

from boardlab.engine import IllegalActionError, make

from .helpers import Dice, move_all, put, scenario, to_moves


def room(s, draw, mana):
    return f"r{s.game.content.rooms.index((draw, mana))}"


# -- Preparation ----------------------------------------------------------
@pytest.mark.seed("wizards-labyrinth:10.1")
@pytest.mark.parametrize("players,size", [(3, 5), (4, 6), (5, 7)])
def test_grid_size_by_player_count(players, size):
    """ "3 players - 5x5 grid. 4 players - 6x6 grid. 5 players - 7x7 grid." """
    s = make("wizards-labyrinth", players=players).new_state(1)
    assert s.game.size == size and len(s.tiles) == size * size
    assert s.tiles.count("tower") == 1 and s.tiles.count("start") == 1


@pytest.mark.seed("wizards-labyrinth:15.1")
def test_tower_at_centre_and_wizard_chooses_on_6x6():
    """ "replaces the center tile with the wizard tower ... if there is not exact center (6x6 grid)
    the wizard chooses one of the center tiles." """
    s3 = make("wizards-labyrinth", players=3).new_state(1)
    assert s3.tiles[12] == "tower" and s3.stack[-1].kind == "entrance"
    s4 = make("wizards-labyrinth", players=4).new_state(1)
    assert s4.stack[-1].kind == "tower" and s4.current_seat() == 0
    assert [a[1] for a in s4.legal_actions()] == [14, 15, 20, 21]
    s4.apply(("tower", 15))
    assert s4.tiles[15] == "tower" and s4.tiles[21][0] == "r" and s4.tower == 15


@pytest.mark.seed("wizards-labyrinth:15.2", "wizards-labyrinth:18.1")
def test_wizard_chooses_entrance_and_hides_three_keys():
    """ "The wizard also chooses which direction the tower entrance will face" and "the heroes close
    their eyes and the wizard take the 3 key tiles and replace 3 of the tiles" """
    s = make("wizards-labyrinth", players=3).new_state(2)
    assert {a[1] for a in s.legal_actions()} == {"N", "E", "S", "W"}
    s.apply(("entrance", "W"))
    assert s.entrance_cell() == 11
    for c in (4, 20, 24):
        assert s.stack[-1].kind == "key"
        s.apply(("key", c))
    assert sorted(c for c, t in enumerate(s.tiles) if t[0] == "k") == [4, 20, 24]
    hero_tiles = s.view(1)["state"]["tiles"]
    assert all(hero_tiles[c] == {"state": "down"} for c in (4, 20, 24))
    assert s.view(0)["state"]["tiles"][4]["kind"] == "key"


@pytest.mark.seed("wizards-labyrinth:15.3", "wizards-labyrinth:20.1", "wizards-labyrinth:24.1", "wizards-labyrinth:30.1")
def test_opening_draw_five_keep_three_and_start_values():
    """ "draws 5 cards from the wizard deck and choose 3 of them to keep ... the rest are shuffled
    into the deck again", "spins the mana wheel so that it is a 2 mana", "10 hit points",
    "The wizard then takes the first turn" """
    s = make("wizards-labyrinth", players=3).new_state(3)
    while s.stack[-1].kind != "keep":
        s.apply(s.legal_actions()[0])
    deck_before = len(s.wdeck.draw_pile)
    offered = list(s.stack[-1].data["cards"])
    assert len(offered) == 5
    for _ in range(3):
        s.apply(s.legal_actions()[0])
    assert s.stack[-1].kind == "main" and s.current_seat() == 0
    assert len(s.whand) == 4  # 3 kept + the first turn's draw
    assert len(s.wdeck.draw_pile) == deck_before + 2 - 1
    assert s.mana == 2 and all(h.hp == 10 for h in s.heroes)


# -- Wizard turn -----------------------------------------------------------
@pytest.mark.seed("wizards-labyrinth:35.1", "wizards-labyrinth:35.2")
def test_wizard_draws_one_card_and_plays_within_mana():
    """ "The wizard starts his turn by drawing a card ... plays any cards he can ... with the mana" """
    s = scenario()
    s.whand = ["Troll", "Goblin"]  # Troll costs 4, Goblin 1; the wheel is at 2
    s._legal = None
    assert ("play", "Troll") not in s.legal_actions() and ("play", "Goblin") in s.legal_actions()
    s.apply(("play", "Goblin"))
    s.apply(("place", 10, "m1"))
    s.apply(("place", 11, "X"))
    assert s.mana_left == 1
    n = len(s.whand)
    to_moves(s)
    move_all(s, {})
    assert s.stack[-1].kind == "main" and len(s.whand) == n + 1 and s.mana_left == s.mana


@pytest.mark.seed("wizards-labyrinth:36.1")
def test_mana_wheel_at_max_draws_extra_card():
    """ "If the Mana Wheel is on max it can not be increased more and instead the wizard draws an extra card" """
    s = scenario()
    s.mana = s.game.option_values["mana_max"]
    to_moves(s)
    move_all(s, {})
    assert len(s.whand) == 2 and s.mana == s.game.option_values["mana_max"]


# -- Movement ----------------------------------------------------------------
@pytest.mark.seed("wizards-labyrinth:39.1", "wizards-labyrinth:45.2", "wizards-labyrinth:45.3", "wizards-labyrinth:52.1")
def test_simultaneous_movement_is_secret_until_all_chose():
    """ "All the movement happens simultaneous" (secret choices, revealed together) """
    s = to_moves(scenario())
    assert s.current_seat() == 1
    s.apply(("move", 1))
    assert s.hero(1).pos == 0  # nothing moves yet
    assert s.view(2)["state"]["heroes"][0]["move"] is None and s.view(2)["state"]["heroes"][0]["chosen"]
    assert s.view(0)["state"]["heroes"][0]["move"] is None
    assert s.view(1)["state"]["heroes"][0]["move"] == ["move", 1]
    s.apply(("move", 5))
    assert (s.hero(1).pos, s.hero(2).pos) == (1, 5)


@pytest.mark.seed("wizards-labyrinth:47.1", "wizards-labyrinth:47.2", "wizards-labyrinth:47.3")
def test_hero_on_tokens_cannot_move_and_wizard_chooses_retreat():
    """ "If a hero starts the turn on a tile with tokens on it ... that hero can not move ... If the hero
    would lose the combat the wizard chooses which tile the hero retreats to, the wizard can make the
    player retreat into a tile with tokens." (ledger: the retreat tile's tokens wait for next turn) """
    s = scenario()
    put(s, 0, "m1")
    put(s, 5, "X")
    to_moves(s)
    assert s.legal_actions() == (("stay",),)
    s.rng = Dice([20, 1, 1])
    move_all(s, {})
    assert s.stack[-1].kind == "retreat" and s.current_seat() == 0
    assert {a[1] for a in s.legal_actions()} == {1, 5}
    s.apply(("retreat", 5))
    s.apply(("retreat", 1))
    assert {s.hero(1).pos, s.hero(2).pos} == {1, 5} and all(h.hp == 9 for h in s.heroes)
    assert len(s.tokens[5]) == 1  # not resolved this turn
    h5 = next(h for h in s.heroes if h.pos == 5)
    s.apply(("end",))
    assert h5.stuck


# -- Combat ------------------------------------------------------------------
@pytest.mark.seed("wizards-labyrinth:40.1", "wizards-labyrinth:52.2", "wizards-labyrinth:52.3", "wizards-labyrinth:56.2", "wizards-labyrinth:57.2")
def test_blanks_removed_and_tie_goes_to_heroes_win_draws_two_keeps_one():
    """ "Remove any blanks", "in case of a tie the hero/heroes win", "draw 2 cards from the loot deck
    and choose one of them to keep, the other is discarded." """
    s = scenario()
    put(s, 5, "m2", "X")
    to_moves(s)
    s.rng = Dice([10, 12])  # wizard 10 + 2 = 12, hero 12
    move_all(s, {1: ("move", 5)})
    assert s.tokens[5] == []
    p = s.stack[-1]
    assert p.kind == "loot" and len(p.data["cards"]) == 2 and p.data["keep"] == 1 and p.data["to"] == [1]
    discard = len(s.ldeck.discard_pile)
    s.apply(("take", 0, 1))
    h = s.hero(1)
    assert len(h.hand) + len(h.equipment) == 1  # it fought, so no loot for flipping the room
    assert len(s.ldeck.discard_pile) == discard + 1


@pytest.mark.seed("wizards-labyrinth:55.1", "wizards-labyrinth:57.1")
def test_lost_fight_retreats_and_one_damage_per_monster():
    """ "the hero/heroes have to move back to their previous tile and take 1 damage for each monster" """
    s = scenario()
    put(s, 5, "m2", "m1")
    to_moves(s)
    s.rng = Dice([15, 3])
    move_all(s, {1: ("move", 5)})
    h = s.hero(1)
    assert (h.pos, h.hp) == (0, 8)
    assert [t.kind for t in s.tokens[5]] == ["m2", "m1"] and all(t.face_up for t in s.tokens[5])
    assert not s.flipped[5]  # it retreated before the loot phase


@pytest.mark.seed("wizards-labyrinth:55.2", "wizards-labyrinth:56.1")
def test_two_heroes_take_highest_roll_and_add_all_bonuses():
    """ "all heroes roll a dice and choose the highest roll and add all of the heroes equipment" """
    s = scenario()
    s.hero(1).equipment = ["Short Sword"]
    s.hero(2).equipment = ["Long Sword"]
    put(s, 5, "m5")
    to_moves(s)
    s.rng = Dice([18, 4, 15])  # wizard 23; heroes max(4, 15) + 1 + 2 = 18 -> lose
    move_all(s, {1: ("move", 5), 2: ("move", 5)})
    assert s.hero(1).pos == 0 and s.hero(1).hp == 9
    s2 = scenario()
    s2.hero(1).equipment = ["Short Sword"]
    s2.hero(2).equipment = ["Long Sword"]
    put(s2, 5, "m5")
    to_moves(s2)
    s2.rng = Dice([15, 4, 17])  # wizard 20; heroes 17 + 3 = 20 -> tie, heroes win
    move_all(s2, {1: ("move", 5), 2: ("move", 5)})
    assert s2.tokens[5] == [] and s2.stack[-1].kind == "loot" and s2.stack[-1].data["to"] == [1, 2]


@pytest.mark.seed("wizards-labyrinth:60.1", "wizards-labyrinth:61.1", "wizards-labyrinth:66.1", "wizards-labyrinth:68.1")
@pytest.mark.parametrize("traps,fail,ok", [(1, 6, 7), (2, 9, 10), (3, 12, 13)])
def test_trap_saves_by_number_of_traps(traps, fail, ok):
    """ "1 trap - 7+ save roll. 2 traps - 10+ save roll. 3 traps - 13+ save roll." "If the hero fails
    the roll he/she takes 2 damage." "EACH hero has to roll" (ledger: traps spring first, then go) """
    s = scenario()
    put(s, 5, *["T"] * traps)
    to_moves(s)
    s.rng = Dice([fail, ok])
    move_all(s, {1: ("move", 5), 2: ("move", 5)})
    assert (s.hero(1).hp, s.hero(2).hp) == (8, 10)
    assert s.tokens[5] == []


def test_boots_add_to_trap_saves():
    """Equipment "+2 when Avoiding Traps" (designed Leather Boots)."""
    s = scenario()
    s.hero(1).equipment = ["Leather Boots"]
    put(s, 5, "T")
    to_moves(s)
    s.rng = Dice([5])
    move_all(s, {1: ("move", 5)})
    assert s.hero(1).hp == 10


@pytest.mark.seed("wizards-labyrinth:55.2", "wizards-labyrinth:130.1")
def test_combat_bonus_consumable_played_before_the_dice():
    """Consumables "one use combat bonuses" played "when indicated on the card" (ledger)."""
    s = scenario()
    s.hero(1).hand = ["Battle Elixir"]
    put(s, 5, "m1")
    to_moves(s)
    s.rng = Dice([10, 9])  # 11 against 9 + 2 = 11: a tie the elixir wins
    move_all(s, {1: ("move", 5)})
    assert s.stack[-1].kind == "boost" and s.current_seat() == 1
    s.apply(("boost", "Battle Elixir"))
    assert s.tokens[5] == [] and "Battle Elixir" in s.ldeck.discard_pile


# -- Loot phase ----------------------------------------------------------------
@pytest.mark.seed("wizards-labyrinth:41.1", "wizards-labyrinth:76.1", "wizards-labyrinth:76.2", "wizards-labyrinth:76.3", "wizards-labyrinth:79.2", "wizards-labyrinth:82.1")
def test_loot_phase_flips_room_applies_values_and_loots_if_no_fight():
    """ "the wizard draws or discards cards equal to the value next to the Card Draw symbol and spins
    the Mana Wheel", "If a hero flips a tile AND fought no monsters ... draw one loot card." """
    s = scenario()
    s.tiles[5] = room(s, 1, 1)
    s.tiles[1] = room(s, 1, -1)
    to_moves(s)
    hand, mana = len(s.whand), s.mana
    move_all(s, {1: ("move", 5), 2: ("move", 1)})
    assert s.flipped[5] and s.flipped[1]
    assert s.mana == mana + 1 - 1
    assert len(s.whand) == hand + 1 + 1 + 1  # the two rooms' cards and the next turn's draw
    assert all(len(h.hand) + len(h.equipment) == 1 for h in s.heroes)


@pytest.mark.seed("wizards-labyrinth:79.2")
def test_negative_card_value_makes_the_wizard_discard_his_choice():
    """ "the wizard draws or discards cards" (ledger: the wizard chooses which cards to discard) """
    s = scenario()
    s.tiles[5] = room(s, -1, 1)
    s.whand = ["Goblin", "Troll"]
    to_moves(s)
    move_all(s, {1: ("move", 5)})
    assert s.stack[-1].kind == "discard" and s.current_seat() == 0
    s.apply(("discard", "Troll"))
    assert "Troll" in s.wdeck.discard_pile and "Goblin" in s.whand


def test_wheel_stays_within_zero_and_max():
    """Ledger: the wheel runs 0..mana_max; turning past an end is lost."""
    s = scenario()
    s.mana = 0
    s.tiles[5] = room(s, 1, -1)
    to_moves(s)
    move_all(s, {1: ("move", 5)})
    assert s.mana == 0


# -- Keys, trading, death, victory ---------------------------------------------
@pytest.mark.seed("wizards-labyrinth:90.2")
def test_key_tile_gives_a_key_in_loot_phase():
    """ "When a hero flips a tiles with a key symbol he/she receives a key" """
    s = scenario()
    s.tiles[5] = "k0"
    to_moves(s)
    move_all(s, {1: ("move", 5)})
    assert s.hero(1).keys == 1 and s.keys_taken == 1


@pytest.mark.seed("wizards-labyrinth:90.5", "wizards-labyrinth:137.2", "wizards-labyrinth:140.1")
def test_heroes_in_same_tile_trade_keys_and_loot():
    """ "A hero can give his/her keys to another hero if they are in the same tiles." "Heroes in the
    same tile can give loot cards to each other." """
    s = scenario()
    s.hero(1).keys, s.hero(1).hand = 1, ["Health Potion"]
    to_moves(s)
    legal = s.legal_actions()
    assert ("give_key", 2) in legal and ("give", 2, "Health Potion") in legal
    s.apply(("give_key", 2))
    s.apply(("give", 2, "Health Potion"))
    assert s.hero(2).keys == 1 and s.hero(2).hand == ["Health Potion"]
    s.hero(2).pos = 1
    s._legal = None
    assert not any(a[0].startswith("give") for a in s.legal_actions())


@pytest.mark.seed("wizards-labyrinth:71.1", "wizards-labyrinth:71.2")
def test_death_drops_keys_and_loot_for_another_hero():
    """ "If a hero is reduced to 0 hp he/she dies ... Any loot and/or keys ... are placed on the tile
    where he/she died, any other hero can pick up these items by moving into the tile" """
    s = scenario()
    h1 = s.hero(1)
    h1.hp, h1.keys, h1.equipment, h1.hand = 2, 1, ["Shield"], ["Sprint"]
    put(s, 5, "T")
    to_moves(s)
    s.rng = Dice([1])
    move_all(s, {1: ("move", 5)})
    assert not h1.alive and s.dropped_keys == {5: 1} and s.dropped_cards == {5: ["Shield", "Sprint"]}
    s.apply(("end",))
    move_all(s, {2: ("move", 5)})
    h2 = s.hero(2)
    assert h2.keys == 1 and "Shield" in h2.equipment and "Sprint" in h2.hand and not s.dropped_keys


@pytest.mark.seed("wizards-labyrinth:105.1")
def test_wizard_wins_when_all_heroes_are_dead():
    """ "when all heroes are dead, the wizard wins the game." """
    s = scenario()
    for h in s.heroes:
        h.hp = 1
    put(s, 5, "T")
    to_moves(s)
    s.rng = Dice([1, 1])
    move_all(s, {1: ("move", 5), 2: ("move", 5)})
    assert s.is_over() and s.results().winners == (0,)


@pytest.mark.seed("wizards-labyrinth:90.1", "wizards-labyrinth:90.3", "wizards-labyrinth:92.1")
def test_tower_needs_two_keys_and_empty_tower_wins():
    """ "When the heroes have all 2 of the keys they can enter ... 2 keys must be used to enter" """
    s = scenario()
    for h in s.heroes:
        h.pos = 7
    s.hero(1).keys = 1
    s.keys_taken = 1
    to_moves(s)
    assert ("move", 12) not in s.legal_actions()
    s2 = scenario()
    for h in s2.heroes:
        h.pos, h.keys = 7, 1
    s2.keys_taken = 2
    to_moves(s2)
    assert ("move", 12) in s2.legal_actions()
    move_all(s2, {1: ("move", 12), 2: ("move", 12)})
    assert s2.is_over() and s2.results().winners == (1, 2)


@pytest.mark.seed("wizards-labyrinth:90.4")
def test_keys_must_enter_together(  ):
    """Ledger: the heroes stepping in together must hold the keys; a lone hero without them stays."""
    s = scenario()
    for h in s.heroes:
        h.pos, h.keys = 7, 1
    s.keys_taken = 2
    to_moves(s)
    move_all(s, {1: ("move", 12)})
    assert s.hero(1).pos == 7 and not s.door_open and not s.is_over()


def test_only_through_the_entrance():
    """The tower is entered through its entrance (here N, cell 7), not from another side."""
    s = scenario()
    for h in s.heroes:
        h.pos, h.keys = 11, 1
    s.keys_taken = 2
    to_moves(s)
    assert ("move", 12) not in s.legal_actions()


@pytest.mark.seed("wizards-labyrinth:92.1")
def test_tower_monsters_must_be_defeated():
    """ "When the heroes enter the tower they must defeat any monster that have been placed there" """
    s = scenario()
    for h in s.heroes:
        h.pos, h.keys = 7, 1
    s.keys_taken = 2
    put(s, 12, "m3", "X")
    to_moves(s)
    s.rng = Dice([20, 1, 1])
    move_all(s, {1: ("move", 12), 2: ("move", 12)})
    assert not s.is_over() and s.door_open and all(h.pos == 7 and h.hp == 9 for h in s.heroes)
    assert all(h.keys == 0 for h in s.heroes)
    while s.stack[-1].kind == "rage":
        s.apply(s.legal_actions()[0])
    s.apply(("end",))
    assert ("move", 12) in s.legal_actions()  # the door stays open
    s.rng = Dice([1, 20, 20])
    move_all(s, {1: ("move", 12), 2: ("move", 12)})
    assert s.is_over() and s.results().winners == (1, 2)


# -- Tokens and cards ------------------------------------------------------------
@pytest.mark.seed("wizards-labyrinth:119.1", "wizards-labyrinth:119.2")
def test_token_limit_and_no_tokens_on_heroes():
    """ "can be placed on any tile that does not have a player on it ... maximum number of tokens on a
    single tile equal to the total number of players" """
    s = scenario()
    put(s, 5, "X", "X", "X")
    cells = s.placeable("m1")
    assert 5 not in cells and 0 not in cells and 6 in cells


@pytest.mark.seed("wizards-labyrinth:102.1")
def test_tower_tokens_only_after_keys_and_never_traps():
    """ "The wizard can place monsters and blank tokens in the wizard tower tile, but ... only ... after
    the heroes have collected 2 keys." """
    s = scenario()
    assert 12 not in s.placeable("m1")
    s.keys_taken = 2
    assert 12 in s.placeable("m1") and 12 in s.placeable("X") and 12 not in s.placeable("T")


@pytest.mark.seed("wizards-labyrinth:110.1")
def test_monster_card_places_its_blanks_in_any_order():
    """ "whenever the wizard places tokens on the board he also places X amount of blank tokens" """
    s = scenario()
    s.whand = ["Goblin"]
    s._legal = None
    s.apply(("play", "Goblin"))
    kinds = {a[2] for a in s.legal_actions()}
    assert kinds == {"m1", "X"}
    s.apply(("place", 10, "X"))
    s.apply(("place", 11, "m1"))
    assert [t.kind for t in s.tokens[10]] == ["X"] and [t.kind for t in s.tokens[11]] == ["m1"]
    assert s.stack[-1].kind == "main" and "Goblin" in s.wdeck.discard_pile
    assert s.view(1)["state"]["tokens"][11] == [None] and s.view(0)["state"]["tokens"][11] == ["m1"]


@pytest.mark.seed("wizards-labyrinth:112.1")
def test_frost_bolt_heroes_skip_their_turn():
    """Frost Bolt: "All heroes in 1 tile skips their turn." """
    s = scenario()
    s.whand = ["Frost Bolt"]
    s._legal = None
    s.apply(("play", "Frost Bolt"))
    s.apply(("target", 0))
    s.apply(("end",))
    assert s.stack[-1].kind == "main"  # no hero had a move to make
    assert all(h.pos == 0 and not h.frozen for h in s.heroes)


@pytest.mark.seed("wizards-labyrinth:155.2")
def test_switcheroo_switches_a_hero_with_a_token():
    """Switcheroo "switches a player with another token on the board" (Hero 2 stands apart: the token may
    not land beside another hero, ledger 44)"""
    s = scenario()
    s.hero(2).pos = 1
    put(s, 10, "m2")
    s.whand = ["Switcheroo"]
    s._legal = None
    s.apply(("play", "Switcheroo"))
    s.apply(("hero", 1))
    s.apply(("token", 10, 0))
    assert s.hero(1).pos == 10 and [t.kind for t in s.tokens[0]] == ["m2"] and s.tokens[10] == []


@pytest.mark.seed("wizards-labyrinth:155.2b")
def test_whirlwind_scatters_heroes_and_leaves_two_level_five_creatures():
    """Whirlwind "moves all players in a room one room away from each other and then places 2 level 5
    creatures in the room"; it is removed from the game when played (ledger)."""
    s = scenario()
    s.whand = ["Whirlwind"]
    s.mana = s.mana_left = 5
    s._legal = None
    s.apply(("play", "Whirlwind"))
    s.apply(("target", 0))
    assert {a[1] for a in s.legal_actions()} == {1, 5}
    s.apply(("push", 1))
    # the event names the room the hero is blown to (a mutant that wrote the action's kind there survived, seed 3)
    assert [e["data"]["to"] for e in s.events(None) if " is blown to " in e["text"]] == [1]
    assert s.legal_actions() == (("push", 5),)
    s.apply(("push", 5))
    assert [t.kind for t in s.tokens[0]] == ["m5", "m5"] and all(t.face_up for t in s.tokens[0])
    assert "Whirlwind" in s.wdeck.removed and "Whirlwind" not in s.wdeck.discard_pile


@pytest.mark.seed("wizards-labyrinth:122.1", "wizards-labyrinth:122.2", "wizards-labyrinth:125.1", "wizards-labyrinth:125.2", "wizards-labyrinth:143.1", "wizards-labyrinth:143.2")
def test_deck_reshuffles_discards_but_not_removed_cards():
    """ "If the deck run out of cards reshuffle the discard pile" and "Removed cards are not shuffled
    into the deck again" """
    s = scenario()
    s.wdeck.draw_pile, s.wdeck.discard_pile, s.wdeck.removed = [], ["Goblin"], ["Dragon"]
    to_moves(s)
    move_all(s, {})
    assert s.whand == ["Goblin"] and s.wdeck.removed == ["Dragon"]


@pytest.mark.seed("wizards-labyrinth:136.1", "wizards-labyrinth:137.1", "wizards-labyrinth:137.2")
def test_two_swords_and_one_pair_of_boots():
    """ "A player can only have 2 swords equipped and 1 pair of boots. Any extra swords or boots looted
    can be kept in hand and traded" """
    s = scenario()
    h = s.hero(1)
    for name in ("Short Sword", "Long Sword", "Short Sword", "Leather Boots", "Boots of Haste", "Shield"):
        s.receive(h, name)
    assert h.equipment == ["Short Sword", "Long Sword", "Leather Boots", "Shield"]
    assert h.hand == ["Short Sword", "Boots of Haste"]


@pytest.mark.seed("wizards-labyrinth:39.1", "wizards-labyrinth:130.1", "wizards-labyrinth:136.2")
def test_health_potion_and_sprint():
    """Consumables "can be played at any time" (ledger: on the owner's movement decision)."""
    s = scenario()
    h = s.hero(1)
    h.hp, h.hand = 5, ["Health Potion", "Sprint"]
    to_moves(s)
    s.apply(("use", "Health Potion"))
    assert h.hp == 8
    s.apply(("use", "Sprint"))
    assert ("move2", 1, 2) in s.legal_actions()
    s.apply(("move2", 1, 2))
    move_all(s, {})
    assert h.pos == 2 and h.prev == 1


def test_illegal_action_raises():
    s = scenario()
    with pytest.raises(IllegalActionError):
        s.apply(("move", 1))


def test_discards_of_rooms_flipped_together_add_up():
    """Ledger 18: rooms flipped in one loot phase owe their discards together, never more than the hand.

    Regression: three "cards -1" rooms flipped at once with a hand of 2 used to leave a
    discard prompt with an empty hand (no legal action).
    """
    s = scenario(players=4)  # 6x6: heroes on A1 (cell 0); B1 = 1, A2 = 6, B2 = 7, C2 = 8
    cells = {1: 0, 6: 0, 7: 8}  # room -> where its hero stands before moving in
    for c in cells:
        s.tiles[c] = room(s, -1, 1)
        s.flipped[c] = False
    s.whand = ["Goblin", "Troll"]
    to_moves(s)
    moves = {}
    for h, (c, start) in zip(s.heroes, cells.items()):
        h.pos = start
        moves[h.seat] = ("move", c)
    s._legal = None
    move_all(s, moves)
    texts = [e["text"] for e in s.events(0)]
    assert sum(t.startswith("Room") and "cards -1" in t for t in texts) == 3
    # the first two rooms owe the whole hand: it goes at once, and the third room owes nothing
    assert "The wizard discards Goblin, Troll" in texts
    assert not any(p.kind == "discard" for p in s.stack)
    assert s.legal_actions()


def test_a_stalled_4_player_game_now_finishes():
    """The lab's 4-player run stopped at game 51 (seed 2026) on that discard prompt; it now finishes."""
    from boardlab.agents.runner import game_seed, play_game

    state, rec = play_game(make("wizards-labyrinth", players=4), ["heuristic"] * 4, game_seed(2026, 51))
    # The stall was a prompt with no legal action. Since the heuristic wizard's Switcheroo fix (issue 19) this
    # seed plays out differently (a lone hero dawdles to the turn cap), so the check is the property itself:
    # the game either has winners or was cut by the turn cap, never stuck on a discard prompt with nothing to discard.
    assert rec.winners or (rec.truncated and state.turn >= state.game.max_turns and not any(p.kind == "discard" for p in state.stack))
