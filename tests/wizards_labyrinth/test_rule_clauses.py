"""One test per seed clause (issue 42 section 3): rows that rested only on the many-marks tests of
test_seed_rules.py, the rule rows added beside ledger-only sentences (``<id>b``), and the discard and
token-limit rows whose earlier tests did not check what their sentence says.

Board (3 players, 5x5; helpers.scenario): A1 = 0 is the start, the tower is C3 = 12, its entrance faces
N (C2 = 7) except in alpha, the keys are on B1, C1, D1 (1, 2, 3).
"""

from __future__ import annotations

import pytest

from boardlab.engine import make

from .helpers import Dice, move_all, put, scenario, to_moves

BETAS = ["beta", "beta-playtest"]


class Sides(Dice):
    """Scripted dice that also record the sides of every die rolled."""

    def __init__(self, rolls, seed: int = 1) -> None:
        super().__init__(rolls, seed)
        self.sides: list[int] = []

    def roll(self, sides: int = 6) -> int:
        self.sides.append(sides)
        return super().roll(sides)


def fight(variant: str, tokens: tuple[str, ...], rolls: list[int], heroes=(1,), cell: int = 5, **options):
    """Heroes step from the start onto a face-up room holding ``tokens``; the dice say ``rolls``."""
    s = scenario(variant=variant, **options)
    s.flipped[cell] = True
    put(s, cell, *tokens)
    to_moves(s)
    s.rng = Sides(rolls)
    move_all(s, {h: ("move", cell) for h in heroes})
    return s


# ------------------------------------------------------------------ setup
@pytest.mark.seed("wizards-labyrinth:7.1")
@pytest.mark.parametrize("variant", ["final", "beta", "alpha"])
def test_both_decks_are_shuffled(variant):
    """ "First shuffle the wizard deck and the loot deck." """
    game = make("wizards-labyrinth", players=3, variant=variant)
    a, b = game.new_state(1), game.new_state(2)
    for deck, cards in ((lambda s: s.wdeck.draw_pile, game.deck_cards), (lambda s: s.ldeck.draw_pile, game.content.loot_deck)):
        assert sorted(deck(a)) == sorted(deck(b)) == sorted(cards)
        assert deck(a) != deck(b) and deck(a) != list(cards)


@pytest.mark.seed("wizards-labyrinth:184.1")
@pytest.mark.parametrize("variant", BETAS)
def test_beta_tower_replaces_the_centre_tile(variant):
    """Beta: "The wizard then replaces the center tile with the wizard tower ... if there is not exact center
    (6x6 grid) the wizard chooses one of the center tiles." """
    assert make("wizards-labyrinth", players=3, variant=variant).new_state(1).tiles[12] == "tower"
    s = make("wizards-labyrinth", players=4, variant=variant).new_state(1)
    assert s.stack[-1].kind == "tower" and sorted(a[1] for a in s.legal_actions()) == [14, 15, 20, 21]
    room = s.tiles[14]
    s.apply(("tower", 14))
    assert s.tiles[14] == "tower" and s.tiles.count("tower") == 1 and s.tiles[21] == room


@pytest.mark.seed("wizards-labyrinth:184.2")
@pytest.mark.parametrize("variant", BETAS)
def test_beta_wizard_chooses_the_entrance(variant):
    """Beta: "The wizard also chooses which direction the tower entrance will face at the start." """
    s = make("wizards-labyrinth", players=3, variant=variant).new_state(1)
    assert s.stack[-1].kind == "entrance" and s.current_seat() == 0
    assert sorted(a[1] for a in s.legal_actions()) == ["E", "N", "S", "W"]
    s.apply(("entrance", "W"))
    assert s.entrance == "W" and s.entrance_cell() == 11


@pytest.mark.seed("wizards-labyrinth:186.1")
@pytest.mark.parametrize("variant", BETAS)
def test_beta_three_key_tiles_replace_rooms(variant):
    """Beta: "the wizard take the 3 artifact/key tiles and replace 3 of the tiles on the board" """
    s = make("wizards-labyrinth", players=3, variant=variant).new_state(1)
    s.apply(("entrance", "N"))
    replaced = []
    for cell in (6, 18, 24):
        assert s.stack[-1].kind == "key" and ("key", cell) in s.legal_actions()
        replaced.append(s.tiles[cell])
        s.apply(("key", cell))
    assert [s.tiles[c] for c in (6, 18, 24)] == ["k0", "k1", "k2"] and s.tile_pool[-3:] == replaced
    assert s.stack[-1].kind == "keep" and not any(t[0] == "k" for c, t in enumerate(s.tiles) if c not in (6, 18, 24))


@pytest.mark.seed("wizards-labyrinth:197.1")
@pytest.mark.parametrize("variant", BETAS)
@pytest.mark.parametrize("players", [3, 5])
def test_beta_heroes_start_with_ten_hit_points(variant, players):
    """Beta: "Each hero starts with 10 hit points." """
    s = make("wizards-labyrinth", players=players, variant=variant).new_state(3)
    assert [h.hp for h in s.heroes] == [10] * (players - 1)


@pytest.mark.seed("wizards-labyrinth:306.3b")
@pytest.mark.parametrize("players", [3, 4, 5])
def test_alpha_heroes_start_on_the_start_tile(players):
    """Alpha: "The heroes open their eyes and places their avatars at the start tile." (the top-left corner, ledger 2)"""
    s = make("wizards-labyrinth", players=players, variant="alpha").new_state(1)
    assert s.tiles[0] == "start" and s.flipped[0] and all(h.pos == 0 for h in s.heroes)


@pytest.mark.seed("wizards-labyrinth:306.1b")
def test_alpha_rooms_lie_face_down_and_shuffled():
    """Alpha: "all other tiles are flipped upside down and gets shuffled": nobody knows a face-down room's
    values (ledger 3); the wizard knows where he hid the keys."""
    game = make("wizards-labyrinth", players=3, variant="alpha")
    a, b = game.new_state(1), game.new_state(2)
    assert a.tiles != b.tiles
    assert [c for c in range(25) if a.flipped[c]] == [0, 12]
    s = scenario(variant="alpha")
    for seat in (0, 1):
        tiles = s.view(seat)["state"]["tiles"]
        assert all("draw" not in tiles[c] and "mana" not in tiles[c] for c in range(25) if c not in (0, 12))
        assert [tiles[c].get("kind") for c in (1, 2, 3)] == (["key"] * 3 if seat == 0 else [None] * 3)


# ------------------------------------------------------------------ the wizard's turn and cards
@pytest.mark.seed("wizards-labyrinth:312.2b")
def test_alpha_first_turn_plays_with_one_mana():
    """Alpha: "He then plays any card he can play with the 1 mana he has" """
    game = make("wizards-labyrinth", players=3, variant="alpha")
    s = game.new_state(4)
    while s.stack[-1].kind != "main":
        s.apply(s.legal_actions()[0])
    assert s.mana == s.mana_left == 1
    assert all(game.content.wizard_cards[a[1]].cost <= 1 for a in s.legal_actions() if a[0] == "play")


@pytest.mark.seed("wizards-labyrinth:312.3b", "wizards-labyrinth:156.2b")
@pytest.mark.parametrize("variant,gain", [("final", 0), ("beta", 0), ("alpha", 1)])
def test_the_wheel_is_the_mana_to_use_each_turn(variant, gain):
    """Alpha: "The mana-wheel specifice the amount of mana he has to use each turn" (every version, ledger 4);
    the 26 October update: "We changed the rule that gave the wizard one more mana each turn" (only alpha
    gains 1 a turn, ledger 7)."""
    s = scenario(variant=variant)
    s.mana = s.mana_left = 3
    s.whand = ["Orc", "Troll"]  # cost 3 and 4
    s._legal = None
    assert ("play", "Troll") not in s.legal_actions()
    s.apply(("play", "Orc"))
    for cell, kind in ((10, "m3"), (11, "X"), (13, "X")):
        s.apply(("place", cell, kind))
    assert s.mana_left == 0 and s.legal_actions() == (("end",),)
    s.apply(("end",))
    move_all(s, {})
    assert s.mana == 3 + gain and s.mana_left == 3 + gain


@pytest.mark.seed("wizards-labyrinth:122.1", "wizards-labyrinth:143.1", "wizards-labyrinth:122.2")
@pytest.mark.parametrize("card", ["Skeleton", "Frost Bolt"])
def test_a_played_card_goes_to_the_discard_pile_and_comes_back(card):
    """ "Whenever a card is played or discarded it is placed in a separate discard pile. If the deck run out of
    cards reshuffle the discard pile and use it as the new deck." """
    s = scenario()
    s.whand = [card]
    s.wdeck.draw_pile = []
    s._legal = None
    s.apply(("play", card))
    assert s.whand == [] and s.wdeck.discard_pile == [card] and s.wdeck.removed == []
    while s.stack[-1].kind != "main" and s.stack[-1].kind != "move":
        s.apply(s.legal_actions()[0])
    if s.stack[-1].kind == "main":
        s.apply(("end",))
    move_all(s, {})
    assert s.whand == [card] and s.wdeck.discard_pile == []  # the next draw reshuffled it back


@pytest.mark.seed("wizards-labyrinth:143.1", "wizards-labyrinth:130.1")
def test_a_used_loot_card_goes_to_the_loot_discard_pile():
    """Loot: "Whenever a card is played or discarded it is placed in a separate discard pile" and consumables
    are "discarded when used"."""
    s = scenario()
    s.hero(1).hand, s.hero(1).hp = ["Health Potion"], 4
    s.ldeck.discard_pile = []
    to_moves(s)
    s.apply(("use", "Health Potion"))
    assert s.hero(1).hand == [] and s.ldeck.discard_pile == ["Health Potion"] and s.hero(1).hp == 7


@pytest.mark.seed("wizards-labyrinth:111.1", "wizards-labyrinth:247.1", "wizards-labyrinth:341.1")
@pytest.mark.parametrize("variant", ["final", "beta", "alpha"])
def test_trap_cards_place_trap_tokens_face_down(variant):
    """ "Traps: These cards allows the wizard to place trap tokens on the board and ... the wizard also places
    X amount of blank tokens" """
    s = scenario(variant=variant)
    s.whand, s.mana_left = ["Pit Field"], 9
    s._legal = None
    s.apply(("play", "Pit Field"))
    assert {a[2] for a in s.legal_actions()} == {"T", "X"}
    for c, k in ((20, "T"), (21, "T"), (22, "X")):
        s.apply(("place", c, k))
    assert [(t.kind, t.face_up) for c in (20, 21, 22) for t in s.tokens[c]] == [("T", False), ("T", False), ("X", False)]
    assert s.stack[-1].kind == "main" and [s.view(1)["state"]["tokens"][c] for c in (20, 21, 22)] == [[None]] * 3


@pytest.mark.seed("wizards-labyrinth:340.1")
@pytest.mark.parametrize("card,level,blanks", [("Troll", 4, 2), ("Orc", 3, 2), ("Skeleton", 2, 1)])
def test_alpha_monster_cards_place_monsters_of_their_level(card, level, blanks):
    """Alpha: "These cards allows the wizard to place monsters of diferent levels on the board" """
    s = scenario(variant="alpha")
    s.whand, s.mana_left = [card], 9
    s._legal = None
    s.apply(("play", card))
    assert {a[2] for a in s.legal_actions()} == {f"m{level}", "X"}
    cells = iter(range(15, 25))
    while s.stack[-1].kind == "place":
        kind = s.legal_actions()[-1][2]
        s.apply(("place", next(cells), kind))
    kinds = sorted(t.kind for toks in s.tokens for t in toks)
    assert kinds == sorted([f"m{level}"] + ["X"] * blanks)


@pytest.mark.seed("wizards-labyrinth:112.2", "wizards-labyrinth:248.2")
@pytest.mark.parametrize("variant", ["final", "beta", "alpha"])
def test_a_spell_resolves_then_is_discarded(variant):
    """ "Resolve the effect on the card and then discard it." """
    s = scenario(variant=variant)
    s.whand, s.mana_left = ["Fireball"], 9
    s._legal = None
    s.apply(("play", "Fireball"))
    assert s.whand == [] and "Fireball" in s.wdeck.discard_pile
    s.apply(("target", 0))
    assert [h.hp for h in s.heroes] == [10 - s.game.content.wizard_cards["Fireball"].damage] * 2
    assert s.stack[-1].kind == "main" and "Fireball" not in s.whand


@pytest.mark.seed("wizards-labyrinth:248.1")
@pytest.mark.parametrize("variant", ["beta", "alpha"])
def test_spells_target_the_tiles_of_the_players(variant):
    """Beta and alpha: "Spells: These cards are effects that target players or rooms directly" """
    s = scenario(variant=variant)
    s.hero(2).pos = 6
    s.whand, s.mana_left = ["Frost Bolt"], 9
    s._legal = None
    s.apply(("play", "Frost Bolt"))
    assert sorted(a[1] for a in s.legal_actions()) == [0, 6]
    s.apply(("target", 6))
    assert (s.hero(1).frozen, s.hero(2).frozen) == (False, True)


@pytest.mark.seed("wizards-labyrinth:345.1", "wizards-labyrinth:119.1")
@pytest.mark.parametrize("variant", ["final", "alpha"])
def test_no_token_goes_on_a_tile_with_a_player(variant):
    """ "Monsters, traps and blanks can be placed on any tile that does not have a player on it." """
    s = scenario(variant=variant)
    s.hero(2).pos = 6
    s.whand, s.mana_left = ["Spike Trap"], 9
    s._legal = None
    s.apply(("play", "Spike Trap"))
    cells = {a[1] for a in s.legal_actions()}
    assert not cells & {0, 6} and {1, 5, 24} <= cells


@pytest.mark.seed("wizards-labyrinth:345.2", "wizards-labyrinth:119.2")
@pytest.mark.parametrize("variant,limit", [("alpha", 3), ("final", 5)])
def test_placement_stops_at_the_token_limit(variant, limit):
    """Alpha: "There can be a maximum of 3 total monsters, traps and blanks on a tile"; final: "a maximum number
    of tokens on a single tile equal to the total number of players in the game" (5 here)."""
    s = scenario(players=5, variant=variant)
    put(s, 20, *["X"] * (limit - 1))
    s.whand, s.mana_left = ["Pit Field"], 9
    s._legal = None
    s.apply(("play", "Pit Field"))
    assert ("place", 20, "T") in s.legal_actions()
    s.apply(("place", 20, "T"))
    assert len(s.tokens[20]) == limit
    assert not any(a[1] == 20 for a in s.legal_actions()), "a tile at the limit takes no more tokens"


# ------------------------------------------------------------------ the heroes' turn
@pytest.mark.seed("wizards-labyrinth:45.1b", "wizards-labyrinth:218.1b", "wizards-labyrinth:328.1b")
@pytest.mark.parametrize("variant", ["final", "beta", "alpha"])
def test_moves_are_secret_and_made_together(variant):
    """ "All the movement happens simultaneous and the heroes can not go on to the next phase before all the
    heroes that want to move have moved." (secret choices revealed together, ledger 10)"""
    s = scenario(variant=variant)
    put(s, 5, "m1")
    s.flipped[5] = True
    to_moves(s)
    s.rng = Dice([20, 1])
    s.apply(("move", 5))
    assert s.hero(1).pos == 0 and s.phase == "move" and s.tokens[5][0].face_up is False and s.hero(1).hp == 10
    assert s.view(2)["state"]["heroes"][0]["move"] is None and s.view(1)["state"]["heroes"][0]["move"] == ["move", 5]
    s.apply(("move", 1))
    assert s.hero(2).pos == 1 and s.hero(1).hp == 9  # both moves made; then the fight (lost: back to 0)


@pytest.mark.seed("wizards-labyrinth:227.1", "wizards-labyrinth:335.1")
@pytest.mark.parametrize("variant", ["beta", "alpha"])
def test_combat_phase_comes_when_every_hero_has_moved(variant):
    """Beta and alpha: "When all heroes have moved, they switch to the combat phase." """
    s = scenario(variant=variant)
    put(s, 5, "m1")
    s.flipped[5] = True
    to_moves(s)
    s.rng = Dice([1, 20])
    s.apply(("move", 5))
    assert s.phase == "move" and s.monsters(5)
    s.apply(("stay",))
    assert not s.monsters(5) and s.stack[-1].kind in ("main", "loot") and s.hero(1).pos == 5


@pytest.mark.seed("wizards-labyrinth:210.1", "wizards-labyrinth:320.1")
@pytest.mark.parametrize("variant", ["beta", "alpha"])
def test_heroes_are_forced_to_fight_the_monsters_they_enter(variant):
    """Beta and alpha: "if there are any monsters in the room they entered they are now forced to fight these
    monsters" (no decision between the move and the dice)."""
    s = scenario(variant=variant)
    put(s, 5, "m1")
    s.flipped[5] = True
    to_moves(s)
    s.rng = Dice([20, 1])
    s.apply(("move", 5))
    s.apply(("stay",))
    assert s.hero(1).pos == 0 and s.hero(1).hp == 9 and s.monsters(5)  # fought and lost, no choice given
    assert s.stack[-1].kind == "main"


@pytest.mark.seed("wizards-labyrinth:227.2", "wizards-labyrinth:335.2")
@pytest.mark.parametrize("variant", ["beta", "alpha"])
def test_the_wizard_and_the_hero_each_roll_a_d20(variant):
    """Beta and alpha: "that player and the wizard both needs to roll dice" (twenty-sided, ledger 45)."""
    s = fight(variant, ("m1",), [5, 15])
    assert s.rng.sides == [20, 20] and not s.monsters(5)


@pytest.mark.seed("wizards-labyrinth:227.3")
@pytest.mark.parametrize("hero,won", [(14, False), (15, True)])
def test_beta_adds_the_level_of_every_monster(hero, won):
    """Beta: "The wizard rolls 1 dice for the monster(s) and add the level of all monster(s) in the room" """
    s = fight("beta", ("m2", "m3"), [10, hero])  # 10 + 2 + 3 = 15
    assert (not s.monsters(5)) == won and s.hero(1).hp == (10 if won else 8)


@pytest.mark.seed("wizards-labyrinth:228.1")
@pytest.mark.parametrize("rolls,won", [([6, 13], True), ([6, 12], False)])
def test_beta_two_heroes_take_the_highest_roll(rolls, won):
    """Beta: "all players roll a dice and choose the highest roll" (the sum, 18, would win both)."""
    s = fight("beta", ("m1",), [12] + rolls, heroes=(1, 2))  # 12 + 1 = 13
    assert (not s.monsters(5)) == won


@pytest.mark.seed("wizards-labyrinth:228.2", "wizards-labyrinth:335.6")
@pytest.mark.parametrize("variant", ["beta", "alpha"])
@pytest.mark.parametrize("hero,won", [(12, True), (11, False)])
def test_a_tie_goes_to_the_players(variant, hero, won):
    """ "in case of a tie the player(s) win" """
    s = fight(variant, ("m2",), [10, hero])
    assert (not s.monsters(5)) == won and s.hero(1).pos == (5 if won else 0)


@pytest.mark.seed("wizards-labyrinth:229.1")
@pytest.mark.parametrize("variant", BETAS)
@pytest.mark.parametrize("monsters", [1, 3])
def test_beta_loss_costs_one_damage_per_monster(variant, monsters):
    """Beta: "If the monster(s) win the player(s) have to move back to their previous tile and take 1 damage
    for each monster in the room" """
    s = fight(variant, ("m1",) * monsters, [20, 1])
    assert s.hero(1).hp == 10 - monsters and s.hero(1).pos == 0


@pytest.mark.seed("wizards-labyrinth:335.8")
def test_alpha_win_draws_two_loot_cards_and_keeps_them():
    """Alpha: "If the player(s) win remove the monster(s) in the tile and the player(s) draw 2 Loot card" """
    s = fight("alpha", ("m1",), [1, 20])
    h = s.hero(1)
    assert not s.monsters(5) and len(h.hand) + len(h.equipment) == 2 and s.stack[-1].kind == "main"


@pytest.mark.seed("wizards-labyrinth:162.1b")
@pytest.mark.parametrize("variant,damage", [("beta-playtest", 4), ("beta", 2)])
def test_beta_playtest_traps_hurt_two_per_trap(variant, damage):
    """The 26 October update: "the traps do 2 damage for each trap in a room that a player failes a 10+ dice
    roll on" (variant beta-playtest; beta's own text: 2 damage, ledger 32)."""
    s = fight(variant, ("T", "T"), [9])
    assert s.hero(1).hp == 10 - damage and not s.tokens[5]


@pytest.mark.seed("wizards-labyrinth:161.2b")
@pytest.mark.parametrize("hero,won", [(1, False), (20, True)])
def test_final_flips_the_tile_only_once_its_monsters_are_killed(hero, won):
    """The 26 October update: "they first flip the monsters and when they are killed they heroes get to flip
    the tiles" (final's loot phase; ledger 46)."""
    s = scenario()
    put(s, 1, "m1")  # key tile B1, face down
    to_moves(s)
    s.rng = Dice([10, hero])
    move_all(s, {1: ("move", 1)})
    assert not s.flipped[1]  # the fight comes first (won: the hero chooses his loot card now)
    if won:
        s.apply(("take", 0, 1))
    assert s.flipped[1] == won and s.keys_taken == (1 if won else 0)


@pytest.mark.seed("wizards-labyrinth:218.3b", "wizards-labyrinth:328.3b")
@pytest.mark.parametrize("variant", ["beta", "alpha"])
def test_a_sprinter_loots_every_room_he_enters(variant):
    """ "If a player can move more than 1 tile due to abilities, that player then gets to loot every tile
    without monsters on it that the player enters." """
    s = scenario(variant=variant)
    s.hero(1).hand = ["Sprint"]
    to_moves(s)
    s.apply(("use", "Sprint"))
    s.apply(("move2", 5, 10))
    move_all(s, {})
    h = s.hero(1)
    assert s.flipped[5] and s.flipped[10] and len(h.hand) + len(h.equipment) == 2


@pytest.mark.seed("wizards-labyrinth:218.5b", "wizards-labyrinth:328.5b")
@pytest.mark.parametrize("variant", ["beta", "alpha"])
def test_a_sprinter_can_not_move_past_a_room_with_tokens(variant):
    """ "A player can not move past a room with monsters in it without defeating them." (face-down tokens may
    be monsters, ledger 20)"""
    s = scenario(variant=variant)
    s.hero(1).hand = ["Sprint"]
    put(s, 5, "X")
    to_moves(s)
    s.apply(("use", "Sprint"))
    legal = s.legal_actions()
    assert not any(a[0] == "move2" and a[1] == 5 for a in legal) and ("move2", 1, 6) in legal and ("move", 5) in legal


@pytest.mark.seed("wizards-labyrinth:130.2b", "wizards-labyrinth:263.2b", "wizards-labyrinth:350.2b")
@pytest.mark.parametrize("variant", ["final", "beta", "alpha"])
def test_consumables_are_played_on_the_move_or_before_the_dice(variant):
    """ "Consumables can be played at any time, or when indicated on the card." (ledger 19: potions and Sprint
    on the owner's movement decision, combat bonuses in a fight before the dice)"""
    s = scenario(variant=variant)
    s.flipped[5] = True
    put(s, 5, "m1")
    h = s.hero(1)
    h.hp, h.hand = 5, ["Health Potion", "Battle Elixir"]
    to_moves(s)
    assert ("use", "Health Potion") in s.legal_actions() and ("use", "Battle Elixir") not in s.legal_actions()
    s.apply(("use", "Health Potion"))
    s.rng = Dice([12, 11])  # the hero's 11 + 2 (the elixir) ties the wizard's 12 + 1
    move_all(s, {1: ("move", 5)})
    assert s.stack[-1].kind == "boost" and s.legal_actions() == (("boost", "Battle Elixir"), ("pass",))
    s.apply(("boost", "Battle Elixir"))
    assert h.hand == [] and "Battle Elixir" in s.ldeck.discard_pile and not s.monsters(5)
