"""Seed rules that every version states (issue 29's concordance): one scenario, run under each variant
whose text has the rule, so the beta and alpha rows of docs/rules/wizards-labyrinth.concordance.csv
have tests of their own.

Board (3 players, 5x5; helpers.scenario): A1 = 0 is the start, the tower is C3 = 12, its entrance
faces N (C2 = 7) except in alpha, the keys are on B1, C1, D1 (1, 2, 3).
"""

from __future__ import annotations

import pytest

from boardlab.engine import make

from .helpers import Dice, move_all, put, scenario, to_moves

ALL = ["final", "beta", "beta-playtest", "alpha"]


@pytest.mark.seed("wizards-labyrinth:7.1", "wizards-labyrinth:10.1", "wizards-labyrinth:15.1", "wizards-labyrinth:15.2",
                  "wizards-labyrinth:18.1", "wizards-labyrinth:20.1", "wizards-labyrinth:24.1", "wizards-labyrinth:30.1",
                  "wizards-labyrinth:184.1", "wizards-labyrinth:184.2", "wizards-labyrinth:186.1", "wizards-labyrinth:197.1",
                  "wizards-labyrinth:312.1")
@pytest.mark.parametrize("variant", ALL)
def test_setup_in_every_version(variant):
    """ "First shuffle the wizard deck and the loot deck", the grid by player count with the tower in the
    centre, the entrance (not in alpha), the 3 hidden key tiles, "draws 5 cards ... choose 3 of them to
    keep", "Each hero starts with 10 hit points", "The wizard then takes the first turn of the game." """
    game = make("wizards-labyrinth", players=3, variant=variant)
    a, b = game.new_state(1), game.new_state(2)
    assert sorted(a.wdeck.draw_pile) == sorted(b.wdeck.draw_pile) and a.wdeck.draw_pile != b.wdeck.draw_pile
    assert sorted(a.ldeck.draw_pile) == sorted(game.content.loot_deck) and a.ldeck.draw_pile != b.ldeck.draw_pile
    s = a
    assert s.game.size == 5 and s.tiles[12] == "tower" and s.current_seat() == 0
    kinds = []
    while s.stack[-1].kind != "keep":
        kinds.append(s.stack[-1].kind)
        s.apply(s.legal_actions()[-1])
    assert kinds == (["key"] * 3 if variant == "alpha" else ["entrance"] + ["key"] * 3)
    assert sum(1 for t in s.tiles if t[0] == "k") == 3
    assert len(s.stack[-1].data["cards"]) == 5 and s.stack[-1].data["left"] == 3
    for _ in range(3):
        s.apply(s.legal_actions()[0])
    assert s.stack[-1].kind == "main" and s.current_seat() == 0
    assert all(h.hp == 10 and h.pos == 0 for h in s.heroes)


@pytest.mark.seed("wizards-labyrinth:10.1", "wizards-labyrinth:180.1")
@pytest.mark.parametrize("variant", ["final", "beta", "beta-playtest"])
@pytest.mark.parametrize("players,size", [(3, 5), (4, 6), (5, 7)])
def test_grid_sizes(variant, players, size):
    """ "3 players (1 wizard + 2 heroes) - 5x5 grid. 4 players ... 6x6 grid. 5 players ... 7x7 grid." """
    s = make("wizards-labyrinth", players=players, variant=variant).new_state(1)
    assert s.game.size == size and len(s.tiles) == size * size and s.tiles.count("tower") == 1


@pytest.mark.seed("wizards-labyrinth:55.1", "wizards-labyrinth:56.2", "wizards-labyrinth:57.1", "wizards-labyrinth:57.2",
                  "wizards-labyrinth:210.1", "wizards-labyrinth:227.1", "wizards-labyrinth:227.3", "wizards-labyrinth:229.2",
                  "wizards-labyrinth:335.1", "wizards-labyrinth:335.8",
                  "wizards-labyrinth:227.2", "wizards-labyrinth:228.1", "wizards-labyrinth:228.2", "wizards-labyrinth:229.1",
                  "wizards-labyrinth:320.1", "wizards-labyrinth:335.2", "wizards-labyrinth:335.5", "wizards-labyrinth:335.7")
@pytest.mark.parametrize("variant", ALL)
def test_fights_in_every_version(variant):
    """The wizard rolls and adds the monsters' levels; the heroes roll (highest, alpha: "combind the rolls")
    and add equipment; a tie goes to the heroes; losers "move back to their previous tile" and take 1 damage
    per monster (alpha: "take 1 damage")."""
    alpha = variant == "alpha"
    # a tie: wizard 10 + level 2 against a hero's 11 + a Short Sword's 1
    s = scenario(variant=variant)
    s.flipped[5] = True
    s.hero(1).equipment = ["Short Sword"]
    put(s, 5, "m2")
    to_moves(s)
    s.rng = Dice([10, 11])
    move_all(s, {1: ("move", 5)})
    assert s.monsters(5) == [] and s.hero(1).pos == 5
    if variant == "final":  # "draw 2 cards from the loot deck and choose one of them to keep"
        assert s.stack[-1].kind == "loot" and len(s.stack[-1].data["cards"]) == 2 and s.stack[-1].data["keep"] == 1
    else:  # beta: 2 cards the first time; alpha: "draw 2 Loot card"; both kept
        assert len(s.hero(1).hand) + len(s.hero(1).equipment) == 1 + 2
    # two heroes: wizard 12 + 1 against 6 and 7: the highest (7) loses, the sum (13) ties and wins
    s = scenario(variant=variant)
    s.flipped[5] = True
    put(s, 5, "m1")
    to_moves(s)
    s.rng = Dice([12, 6, 7])
    move_all(s, {1: ("move", 5), 2: ("move", 5)})
    assert (s.monsters(5) == []) == alpha
    if not alpha:
        assert (s.hero(1).pos, s.hero(2).pos) == (0, 0) and s.hero(1).hp == s.hero(2).hp == 9
    # a loss against three monsters
    s = scenario(variant=variant)
    s.flipped[5] = True
    put(s, 5, "m1", "m1", "m1")
    to_moves(s)
    s.rng = Dice([20, 1])
    move_all(s, {1: ("move", 5)})
    assert s.hero(1).pos == 0 and s.hero(1).hp == (9 if alpha else 7) and len(s.monsters(5)) == 3


@pytest.mark.seed("wizards-labyrinth:71.1", "wizards-labyrinth:71.2", "wizards-labyrinth:232.1", "wizards-labyrinth:232.2")
@pytest.mark.parametrize("variant", ALL)
def test_death_drops_everything_in_every_version(variant):
    """ "If a hero is reduced to 0 hp he/she dies and is out of the game. Any loot and/or keys that hero
    has collected are placed on the tile where he/she died, any other hero can pick up these items by
    moving into the tile" (alpha has no death rules: it uses beta's, ledger 34)."""
    s = scenario(variant=variant)
    s.flipped[5] = True
    h1, h2 = s.hero(1), s.hero(2)
    h1.hp, h1.keys, h1.hand = 2, 1, ["Sprint"]
    put(s, 5, "T")
    to_moves(s)
    s.rng = Dice([1])
    move_all(s, {1: ("move", 5)})
    assert not h1.alive and s.dropped_keys == {5: 1} and s.dropped_cards == {5: ["Sprint"]}
    assert [p.seat for p in [s.stack[-1]]] == [0]  # no prompt for the dead hero ever again
    s.apply(("end",))
    assert s.legal_actions()[0][0] in ("move", "use", "stay") and s.current_seat() == 2
    move_all(s, {2: ("move", 5)})
    assert h2.keys == 1 and "Sprint" in h2.hand and not s.dropped_keys


@pytest.mark.seed("wizards-labyrinth:90.1", "wizards-labyrinth:98.1", "wizards-labyrinth:98.2", "wizards-labyrinth:98.3",
                  "wizards-labyrinth:102.1", "wizards-labyrinth:237.1", "wizards-labyrinth:241.1", "wizards-labyrinth:241.2",
                  "wizards-labyrinth:241.3", "wizards-labyrinth:254.1")
@pytest.mark.parametrize("variant,need", [("final", 2), ("beta", 3), ("beta-playtest", 3)])
def test_rage_and_tower_tokens_wait_for_the_keys(variant, need):
    """Final: "2 of the 3 hidden keys"; beta: "the 3 hidden keys". The rage starts when they are picked
    up and removes as many tiles as there are players, never the ring around the tower; monsters and
    blanks (never traps) may go into the tower only then."""
    s = scenario(variant=variant)
    s.keys_taken = need - 1
    assert not s.tower_open() and not s.rage_active() and 12 not in s.placeable("m1")
    s.keys_taken = need
    assert s.rage_active() and 12 in s.placeable("m1") and 12 in s.placeable("X") and 12 not in s.placeable("T")
    to_moves(s)
    move_all(s, {})
    removed = 0
    while s.stack[-1].kind == "rage":
        assert not {a[1] for a in s.legal_actions()} & s.ring()
        s.apply(s.legal_actions()[0])
        removed += 1
    assert removed == s.game.players == 3 and s.stack[-1].kind == "main"


@pytest.mark.seed("wizards-labyrinth:90.3", "wizards-labyrinth:90.4", "wizards-labyrinth:90.5", "wizards-labyrinth:92.1",
                  "wizards-labyrinth:237.3", "wizards-labyrinth:237.4", "wizards-labyrinth:237.5", "wizards-labyrinth:238.1")
@pytest.mark.parametrize("variant,need", [("final", 2), ("beta", 3), ("alpha", 3)])
def test_keys_open_the_tower_in_every_version(variant, need):
    """ "When the heroes have all 2 of the keys they can enter the central wizard tower. 2 keys must be used
    to enter" (beta: all 3); keys may be given on the same tile (not in alpha); an empty tower wins."""
    s = scenario(variant=variant)
    door = 11 if variant == "alpha" else 7  # alpha has no entrance: any side
    for h in s.heroes:
        h.pos = door
    s.hero(1).keys = need - 1
    to_moves(s)
    assert ("move", 12) not in s.legal_actions()
    assert (("give_key", 2) in s.legal_actions()) == (variant != "alpha")
    s.hero(2).keys = 1
    s._legal = None
    assert ("move", 12) in s.legal_actions()
    move_all(s, {1: ("move", 12), 2: ("move", 12)})
    assert s.door_open and s.hero(1).keys + s.hero(2).keys == 0
    assert s.is_over() and s.results().winners == (1, 2)


@pytest.mark.seed("wizards-labyrinth:110.1", "wizards-labyrinth:111.1", "wizards-labyrinth:112.1", "wizards-labyrinth:112.2",
                  "wizards-labyrinth:119.1", "wizards-labyrinth:340.1", "wizards-labyrinth:341.1", "wizards-labyrinth:345.1",
                  "wizards-labyrinth:247.1", "wizards-labyrinth:248.1", "wizards-labyrinth:248.2")
@pytest.mark.parametrize("variant", ALL)
def test_wizard_cards_in_every_version(variant):
    """Monster and trap cards place their tokens and "X amount of blank tokens" face down, never on a tile
    with a hero; a spell resolves "and then discard it"."""
    s = scenario(variant=variant)
    s.whand = ["Skeleton", "Pit Field", "Frost Bolt"]
    s.mana_left = 9
    s._legal = None
    assert 0 not in s.placeable("m2") and 0 not in s.placeable("T")  # the heroes' tile
    s.apply(("play", "Skeleton"))
    assert {a[2] for a in s.legal_actions()} == {"m2", "X"}
    s.apply(("place", 10, "m2"))
    s.apply(("place", 11, "X"))
    s.apply(("play", "Pit Field"))
    assert {a[2] for a in s.legal_actions()} == {"T", "X"}
    for c, k in ((20, "T"), (21, "T"), (22, "X")):
        s.apply(("place", c, k))
    assert [t.kind for c in (10, 11, 20, 21, 22) for t in s.tokens[c]] == ["m2", "X", "T", "T", "X"]
    assert s.view(1)["state"]["tokens"][20] == [None]
    s.apply(("play", "Frost Bolt"))
    s.apply(("target", 0))
    assert all(h.frozen for h in s.heroes)
    assert {"Skeleton", "Pit Field", "Frost Bolt"} <= set(s.wdeck.discard_pile)


@pytest.mark.seed("wizards-labyrinth:130.1", "wizards-labyrinth:136.1", "wizards-labyrinth:136.2", "wizards-labyrinth:353.1",
                  "wizards-labyrinth:353.2")
@pytest.mark.parametrize("variant", ALL)
def test_loot_cards_in_every_version(variant):
    """ "Equipment cards are placed in front of the player ... Consumables are kept in the players hand and
    discarded when used." """
    s = scenario(variant=variant)
    h = s.hero(1)
    s.receive(h, "Short Sword")
    s.receive(h, "Health Potion")
    assert h.equipment == ["Short Sword"] and h.hand == ["Health Potion"]
    h.hp = 5
    to_moves(s)
    s.apply(("use", "Health Potion"))
    assert h.hp == 8 and h.hand == [] and "Health Potion" in s.ldeck.discard_pile


@pytest.mark.seed("wizards-labyrinth:209.1", "wizards-labyrinth:218.2", "wizards-labyrinth:218.4", "wizards-labyrinth:223.2",
                  "wizards-labyrinth:328.2", "wizards-labyrinth:328.4")
@pytest.mark.parametrize("variant", ["beta", "beta-playtest", "alpha"])
def test_early_versions_flip_and_loot_on_entering(variant):
    """Beta and alpha have two phases: "When a player enters a new tile, that player flips that tile and
    all tokens ... if there are no monsters on that tile the player get to loot that room, by drawing 1
    Loot Card"; the tile's values apply; "If more than 1 player enters the same room they have to chose
    who gets the loot." """
    s = scenario(variant=variant)
    s.tiles[5] = f"r{s.game.content.rooms.index((1, 1))}"
    put(s, 5, "X")
    to_moves(s)
    hand, mana = len(s.whand), s.mana
    move_all(s, {1: ("move", 5), 2: ("move", 5)})
    assert s.flipped[5] and s.tokens[5] == []
    p = s.stack[-1]
    assert p.kind == "loot" and p.data["to"] == [1, 2] and len(p.data["cards"]) == 1
    s.apply(("take", 0, 2))
    assert len(s.hero(2).hand) + len(s.hero(2).equipment) == 1 and s.hero(1).hand == []
    assert len(s.whand) == hand + 1 + 1  # the room's card and the next turn's draw
    assert s.mana == mana + 1 + (1 if variant == "alpha" else 0)  # the room, and alpha's step
