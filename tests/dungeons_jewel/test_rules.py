"""Rule scenarios for The Dungeon's Jewel, each built from an explicit state and quoting the seed."""

from __future__ import annotations

import pytest

from boardlab.engine import IllegalActionError, InvalidOptionError, make

from .helpers import CENTRE, STARTS, Dice, blank, cell, give, moves, place, put

FACE_UP = 1 << 8


# -- Setup ---------------------------------------------------------------------
@pytest.mark.seed("dungeons-jewel:13.2", "dungeons-jewel:19.5", "dungeons-jewel:21.2", "dungeons-jewel:57.1", "dungeons-jewel:61.11")
def test_players_start_on_the_corners_clockwise():
    """"each player starts on a corner" -- seats take the corners clockwise from the top left."""
    assert make("dungeons-jewel", players=4).board.starts == STARTS
    s = make("dungeons-jewel", players=4).new_state(3)
    assert s.pos == list(STARTS)
    assert s.health == [2, 2, 2, 2] and s.power == [0, 0, 0, 0]


@pytest.mark.seed("dungeons-jewel:57.1")
def test_two_and_three_player_starts():
    """Ledger: 2 players take opposite corners; 3 players the first three corners clockwise."""
    assert make("dungeons-jewel", players=2).board.starts == (STARTS[0], STARTS[2])
    assert make("dungeons-jewel", players=3).board.starts == STARTS[:3]
    with pytest.raises(InvalidOptionError):
        make("dungeons-jewel", players=5)
    with pytest.raises(InvalidOptionError):
        make("dungeons-jewel", players=1)


@pytest.mark.seed("dungeons-jewel:17.1", "dungeons-jewel:17.2", "dungeons-jewel:57.4", "dungeons-jewel:57.5")
def test_highest_roll_starts_and_ties_roll_again():
    """"The person who rolls the highest has to shuffle and start first." Ties roll again."""
    s = blank()
    s.rng = Dice(5, 6, 6, 2, 3, 4)  # seats 1 and 2 tie on 6, then seat 2 wins 4-3
    s.rng.shuffle = lambda pile: None  # the piles' shuffles are not under test here
    s._setup()
    assert s.first == 2 and s.current_seat() == 2
    assert s.rng.done()


@pytest.mark.seed("dungeons-jewel:13.4", "dungeons-jewel:17.2b")
def test_turns_go_clockwise():
    """"turns then follow clockwise" -- seat order is the corners' clockwise order."""
    s = blank()
    s.rng = Dice()
    s.seat = 3
    s.apply(("move", cell(1, 6)))  # empty pile: an empty room, no roll
    assert s.current_seat() == 0


# -- Basic rules: movement -----------------------------------------------------------
@pytest.mark.seed("dungeons-jewel:17.3", "dungeons-jewel:17.4", "dungeons-jewel:61.1", "dungeons-jewel:61.2")
def test_moves_are_orthogonal_only():
    """"Spaces that are adjacent excluding diagonals are legal moves.\""""
    s = blank()
    place(s, 0, cell(2, 2))
    assert moves(s) == {cell(2, 1), cell(3, 2), cell(2, 3), cell(1, 2)}
    place(s, 0, STARTS[0])
    assert moves(s) == {cell(1, 0), cell(0, 1)}  # "if there is a space to move to in that direction"
    with pytest.raises(IllegalActionError):
        s.apply(("move", cell(1, 1)))


def test_players_may_share_a_room():
    """Ledger: nothing forbids entering a room another player stands in."""
    s = blank()
    place(s, 0, cell(1, 1))
    place(s, 1, cell(2, 1))
    assert cell(2, 1) in moves(s)


# -- Basic rules: drawing and placing dungeon tokens -------------------------------------
@pytest.mark.seed("dungeons-jewel:17.5", "dungeons-jewel:17.7", "dungeons-jewel:17.8", "dungeons-jewel:61.4", "dungeons-jewel:61.5")
def test_drawn_token_is_secret_to_the_drawer():
    """"The player reads the dungeon token without anyone else seeing, and then places it face down
    on the space that they are going to move to, and then moves to that space.\""""
    s = blank()
    s.pile = ["fire", "spike"]  # the top is the end
    s.rng = Dice()
    s.apply(("move", cell(1, 0)))
    assert s.pos[0] == cell(1, 0) and s.tokens[cell(1, 0)] == "spike" and s.pile == ["fire"]
    assert s.current_seat() == 0 and s.view(0)["prompt"] == "place"
    faces = {c: f for c, f, _ in s.view(0)["state"]["tokens"]}
    assert faces[cell(1, 0)] == "spike"
    for other in (1, 2, 3, None):
        assert {c: f for c, f, _ in s.view(other)["state"]["tokens"]}[cell(1, 0)] is None
    assert set(s.legal_actions()) == {("place", "secret"), ("place", "reveal")}


@pytest.mark.seed("dungeons-jewel:17.9")
def test_drawer_may_reveal_or_keep_the_token_secret():
    """"The player can choose to keep the hazard on the space as a secret" (or show it)."""
    for choice, public in (("secret", False), ("reveal", True)):
        s = blank()
        s.pile = ["spike"]
        s.rng = Dice()
        s.apply(("move", cell(1, 0)))
        s.apply(("place", choice))
        assert bool(s.known[cell(1, 0)] & FACE_UP) is public
        face = {c: f for c, f, _ in s.view(2)["state"]["tokens"]}[cell(1, 0)]
        assert face == ("spike" if public else None)
        assert s.legal_actions() == (("roll",),)  # then the hazard


@pytest.mark.seed("dungeons-jewel:23.1", "dungeons-jewel:61.14")
def test_existing_token_is_looked_at_not_redrawn():
    """"If the space ... already has a dungeon token currently on it, then the player can look at the
    token to see what hazard awaits them, instead of redrawing a new token.\""""
    s = blank()
    put(s, cell(1, 0), "water", known=0b10)
    s.pile = ["fire"]
    s.rng = Dice()
    s.apply(("move", cell(1, 0)))
    assert s.tokens[cell(1, 0)] == "water" and s.pile == ["fire"]
    assert s.known[cell(1, 0)] == 0b11  # now seat 0 has seen it too
    assert s.view(0)["state"]["pending"] == {"kind": "survive", "seat": 0, "cell": cell(1, 0), "loot": False}


def test_start_corners_and_empty_pile_hold_no_token():
    """Ledger: start corners never get a token; with the pile empty a new room stays empty."""
    s = blank()
    place(s, 0, cell(5, 0))
    s.pile = ["fire"]
    s.rng = Dice()
    s.apply(("move", STARTS[1]))  # another player's corner
    assert s.tokens[STARTS[1]] is None and s.pile == ["fire"] and s.current_seat() == 1
    s = blank()
    s.rng = Dice()
    s.apply(("move", cell(1, 0)))
    assert s.tokens[cell(1, 0)] is None and s.current_seat() == 1


# -- Basic rules: hazards, items and loot ----------------------------------------------------
@pytest.mark.seed("dungeons-jewel:17.11", "dungeons-jewel:19.1", "dungeons-jewel:19.5", "dungeons-jewel:21.1", "dungeons-jewel:61.6", "dungeons-jewel:61.9", "dungeons-jewel:61.10", "dungeons-jewel:61.12", "dungeons-jewel:71.1", "dungeons-jewel:99.1")
@pytest.mark.parametrize("variant,face,survives", [
    ("rulebook", 3, False), ("rulebook", 4, True),   # "A roll of 4 or higher means the player survived"
    ("concept", 2, False), ("concept", 3, True),      # concept: "A roll of three or higher is a successful roll."
    ("revised", 3, False), ("revised", 4, True),
])
def test_hazard_survival_roll(variant, face, survives):
    s = blank(variant=variant)
    s.pile = ["fire"]
    s.deck = ["broadsword"]
    s.rng = Dice(face)
    s.apply(("move", cell(1, 0)))
    s.apply(("place", "secret"))
    s.apply(("roll",))
    assert s.health[0] == (2 if survives else 1)
    # "If a player loses a health point, but still has a health point remaining, then they stay"
    assert s.pos[0] == cell(1, 0)
    # "If the player survives the hazard, then they get to pull a loot card."
    assert s.items[0] == (["broadsword"] if survives else [])
    assert s.power[0] == (1 if survives else 0)


@pytest.mark.seed("dungeons-jewel:19.2")
def test_loot_is_revealed_to_everyone():
    """"The player must reveal what they got to the other players.\""""
    s = blank()
    s.pile = ["fire"]
    s.deck = ["spike_boots"]
    s.rng = Dice(6)
    s.apply(("move", cell(1, 0)))
    s.apply(("place", "secret"))
    s.apply(("roll",))
    for seat in (None, 1, 2, 3):
        assert s.view(seat)["state"]["items"][0] == ["spike_boots"]
        assert any(e["data"].get("item") == "spike_boots" for e in s.events(seat) if e["data"])


@pytest.mark.seed("dungeons-jewel:75.3", "dungeons-jewel:75.4")
def test_no_loot_from_a_room_that_already_had_a_token():
    """"If there is already a token face down on the spot a player is moving toward, then the player
    can only survive the hazard, but cannot gain any loot from the room.\""""
    s = blank()
    put(s, cell(1, 0), "fire", known=0b10)
    s.deck = ["broadsword"]
    s.rng = Dice(6)
    s.apply(("move", cell(1, 0)))
    s.apply(("roll",))
    assert s.items[0] == [] and s.deck == ["broadsword"] and s.health[0] == 2


@pytest.mark.seed("dungeons-jewel:17.10", "dungeons-jewel:61.7", "dungeons-jewel:71.2", "dungeons-jewel:75.2", "dungeons-jewel:99.1")
def test_item_survives_hazard_without_rolling_and_still_loots():
    """"If a player has an item that corresponds to a dungeon token, then they do not have to survive
    the hazard, and can take the loot from within a room without having to do a dice roll.\""""
    s = blank()
    give(s, 0, "spike_boots")
    s.pile = ["spike"]
    s.deck = ["helmet"]
    s.rng = Dice()  # no roll allowed
    s.apply(("move", cell(1, 0)))
    s.apply(("place", "secret"))
    assert set(s.legal_actions()) == {("use", "spike_boots"), ("roll",)}
    s.apply(("use", "spike_boots"))
    assert s.health[0] == 2 and s.items[0] == ["spike_boots", "helmet"] and s.power[0] == 1
    assert s.metrics()["rule:item_used"] == [1, 0, 0, 0]


@pytest.mark.seed("dungeons-jewel:61.7", "dungeons-jewel:61.8", "dungeons-jewel:81.1", "dungeons-jewel:93.1", "dungeons-jewel:120.1")
@pytest.mark.parametrize("hazard,item", [
    ("spike", "spike_boots"), ("gas", "awakening_spell"), ("fire", "fire_cloak"), ("trapdoor", "winged_shoes"),
    ("water", "water_spell"), ("dart", "poison_treatment"), ("quicksand", "lightweight_shoes"),
])
def test_each_survival_item_matches_its_hazard(hazard, item):
    """The seed's item list: e.g. "Spike boots: Allows players to survive the spike hazard.\""""
    s = blank()
    give(s, 0, item)
    put(s, cell(1, 0), hazard)
    s.rng = Dice()
    s.apply(("move", cell(1, 0)))
    assert ("use", item) in s.legal_actions()
    other = blank()
    give(other, 0, item)
    put(other, cell(1, 0), "monster" if hazard != "monster" else "fire")
    other.apply(("move", cell(1, 0)))
    assert other.legal_actions() == (("roll",),)


@pytest.mark.seed("dungeons-jewel:61.7")
def test_items_are_kept_after_use():
    """Ledger: the seed never says an item is spent; it keeps protecting its owner."""
    s = blank()
    give(s, 0, "fire_cloak")
    put(s, cell(1, 0), "fire")
    put(s, cell(2, 0), "fire")
    s.rng = Dice()
    s.apply(("move", cell(1, 0)))
    s.apply(("use", "fire_cloak"))
    assert s.items[0] == ["fire_cloak"]


def test_treasure_runs_out():
    """Revision log: "Items ran out quickly" -- an empty treasure pile gives nothing."""
    s = blank()
    s.pile = ["fire"]
    s.rng = Dice(6)
    s.apply(("move", cell(1, 0)))
    s.apply(("place", "secret"))
    s.apply(("roll",))
    assert s.items[0] == [] and s.metrics()["rule:no_loot_left"] == [1, 0, 0, 0]


# -- Basic rules: health ---------------------------------------------------------------
@pytest.mark.seed("dungeons-jewel:21.2b", "dungeons-jewel:61.13")
@pytest.mark.parametrize("variant,respawn", [("rulebook", 2), ("concept", 3), ("revised", 2)])
def test_out_of_health_returns_to_start(variant, respawn):
    """Rulebook: "does not have any health points left, then they must move back to their starting space";
    concept: "they start over with three health\""""
    s = blank(variant=variant)
    s.health[0] = 1
    put(s, cell(1, 0), "fire")
    s.rng = Dice(1)
    s.apply(("move", cell(1, 0)))
    s.apply(("roll",))
    assert s.pos[0] == STARTS[0] and s.health[0] == respawn


# -- Special spaces ------------------------------------------------------------------------
@pytest.mark.seed("dungeons-jewel:118.3")
def test_trap_door_failure_sends_home_without_damage():
    """"If the player fails, then the player does not lose a health point, but does move back to their starting position.\""""
    s = blank()
    place(s, 0, cell(2, 0))
    put(s, cell(3, 0), "trapdoor")
    s.rng = Dice(2)
    s.apply(("move", cell(3, 0)))
    s.apply(("roll",))
    assert s.pos[0] == STARTS[0] and s.health[0] == 2


@pytest.mark.seed("dungeons-jewel:118.1", "dungeons-jewel:118.2")
def test_trap_door_success_is_a_normal_survival():
    s = blank()
    s.pile = ["trapdoor"]
    s.deck = ["shield"]
    s.rng = Dice(5)
    s.apply(("move", cell(1, 0)))
    s.apply(("place", "secret"))
    s.apply(("roll",))
    assert s.pos[0] == cell(1, 0) and s.items[0] == ["shield"]


@pytest.mark.seed("dungeons-jewel:19.4", "dungeons-jewel:33.2", "dungeons-jewel:33.3", "dungeons-jewel:120.1", "dungeons-jewel:120.2", "dungeons-jewel:120.3", "dungeons-jewel:120.4")
@pytest.mark.parametrize("power,face,survives", [(0, 5, False), (0, 6, True), (2, 3, False), (2, 4, True)])
def test_monster_needs_die_plus_attack_higher_than_five(power, face, survives):
    """"The player must roll the die and then add it to their attack power. The sum must be higher than 5.\""""
    s = blank()
    give(s, 0, *["broadsword", "shield"][:power])
    put(s, cell(1, 0), "monster")
    s.rng = Dice(face)
    s.apply(("move", cell(1, 0)))
    s.apply(("roll",))
    assert s.health[0] == (2 if survives else 1)


@pytest.mark.seed("dungeons-jewel:122.1", "dungeons-jewel:122.2")
def test_wall_is_face_up_turned_by_the_drawer_and_blocks_movement():
    """"If a player draws a wall dungeon token, then they get to decide which way it is facing, and must
    leave it facing up ... The player does not need to roll, and also does not get any loot.\""""
    s = blank()
    s.pile = ["wall"]
    s.deck = ["helmet"]
    s.rng = Dice()
    place(s, 0, cell(2, 1))
    s.apply(("move", cell(2, 2)))
    assert s.known[cell(2, 2)] & FACE_UP  # public at once
    assert {c: f for c, f, _ in s.view(3)["state"]["tokens"]}[cell(2, 2)] == "wall"
    assert set(s.legal_actions()) == {("wall", d) for d in "NESW"}
    s.apply(("wall", "E"))
    assert s.items[0] == [] and s.deck == ["helmet"] and s.current_seat() == 1
    assert s.view(None)["state"]["walls"] == [[cell(2, 2), "E"]]
    # the wall blocks both ways across the east side of c3
    place(s, 1, cell(3, 2))
    assert cell(2, 2) not in moves(s)
    s.seat = 0
    s._legal = None
    assert cell(3, 2) not in moves(s)


@pytest.mark.seed("dungeons-jewel:122.1")
def test_wall_is_never_turned_to_a_side_already_blocked():
    """Ledger 33: "they get to decide which way it is facing": the drawer turns the wall to a side it
    blocks; a side already walled off (by the neighbour's wall) is not offered."""
    s = blank()
    s.walls[cell(2, 2)] |= 1 << 1  # east side of c3 already blocked by c4's wall
    s.walls[cell(3, 2)] |= 1 << 3
    s.facing[cell(3, 2)] = 3
    s.pile = ["wall"]
    s.rng = Dice()
    place(s, 0, cell(2, 1))
    s.apply(("move", cell(2, 2)))
    assert set(s.legal_actions()) == {("wall", d) for d in "NSW"}


@pytest.mark.seed("dungeons-jewel:122.2")
def test_entering_a_wall_room_needs_no_roll():
    s = blank()
    put(s, cell(1, 0), "wall", face_up=True)
    s.rng = Dice()
    s.apply(("move", cell(1, 0)))
    assert s.current_seat() == 1 and s.health[0] == 2


@pytest.mark.seed("dungeons-jewel:122.1")
def test_wall_may_not_seal_off_a_room():
    """Ledger: a wall facing that would cut the dungeon in two is not offered."""
    s = blank()
    # a wall already on the south side of a1 (the start): the east side of a1 is its only way out
    s.walls[STARTS[0]] |= 1 << 2
    s.walls[cell(0, 1)] |= 1 << 0
    s.pile = ["wall"]
    s.rng = Dice()
    place(s, 0, cell(2, 0))
    s.apply(("move", cell(1, 0)))
    assert ("wall", "W") not in s.legal_actions()
    assert ("wall", "E") in s.legal_actions()


@pytest.mark.seed("dungeons-jewel:122.1")
def test_wall_blocks_nothing_when_every_side_would_seal_a_room():
    """Ledger: if every facing would cut the dungeon in two, the wall is placed blocking nothing."""
    s = blank()
    for y in (0, 2, 3, 4, 5, 6):  # column a is cut off from column b except at a2
        s.walls[cell(0, y)] |= 1 << 1
        s.walls[cell(1, y)] |= 1 << 3
    s.pile = ["wall"]
    s.rng = Dice()
    place(s, 0, cell(1, 1))
    s.apply(("move", cell(0, 1)))
    assert s.legal_actions() == (("wall", "none"),)
    before = list(s.walls)
    s.apply(("wall", "none"))
    assert s.walls == before and s.current_seat() == 1


@pytest.mark.seed("dungeons-jewel:91.1")
def test_walk_through_walls_spell():
    """"Walk through walls spell: Allows players to walk through a wall.\""""
    s = blank()
    place(s, 0, cell(2, 2))
    s.walls[cell(2, 2)] |= 1 << 1
    s.walls[cell(3, 2)] |= 1 << 3
    assert cell(3, 2) not in moves(s)
    give(s, 0, "wall_spell")
    assert cell(3, 2) in moves(s)


# -- The centre: the dragon and the jewel ----------------------------------------------------------
@pytest.mark.seed("dungeons-jewel:13.3", "dungeons-jewel:19.4", "dungeons-jewel:25.2", "dungeons-jewel:25.3", "dungeons-jewel:25.4", "dungeons-jewel:25.5", "dungeons-jewel:61.16", "dungeons-jewel:61.17", "dungeons-jewel:61.18", "dungeons-jewel:61.19", "dungeons-jewel:61.21", "dungeons-jewel:174.1")
@pytest.mark.parametrize("variant,target", [("rulebook", 11), ("concept", 10), ("revised", 9)])
def test_dragon_needs_two_dice_plus_attack(variant, target):
    """Rulebook: "roll two dice, and add that roll to their attack power. This sum must be higher than ten";
    concept: "ten or higher"; revision log: "Lowered the requirements of beating the dragon to rolling a 9\""""
    for total, wins in ((target - 1, False), (target, True)):
        s = blank(variant=variant)
        give(s, 0, "broadsword")
        place(s, 0, cell(3, 2))
        a = min(6, total - 1 - 1)
        s.rng = Dice(a, total - 1 - a)
        s.apply(("move", CENTRE))
        assert s.pos[0] == CENTRE and s.rng.done()
        assert (s.jewel == 0) is wins
        assert s.health[0] == (2 if wins else 1)
        assert s.tokens[CENTRE] is None  # "they do not draw a hazard card"


@pytest.mark.seed("dungeons-jewel:25.5")
def test_failed_dragon_fight_can_be_repeated_next_turn():
    """Ledger: a player who fails and survives stays at the centre and may fight again instead of moving."""
    s = blank()
    place(s, 0, CENTRE)
    assert ("dragon",) in s.legal_actions()
    s.rng = Dice(6, 6)
    s.apply(("dragon",))
    assert s.jewel == 0


def _others_shuffle(s) -> None:
    """Seats 1-3 each step out of their corner (or back into it) on an empty dungeon."""
    for seat in (1, 2, 3):
        assert s.current_seat() == seat
        s.apply(("move", sorted(moves(s))[0]))


def _win_the_jewel(**options):
    s = blank(**options)
    place(s, 0, cell(3, 2))
    s.rng = Dice(6, 6)
    s.apply(("move", CENTRE))
    assert s.jewel == 0 and s.current_seat() == 1
    _others_shuffle(s)
    return s


@pytest.mark.seed("dungeons-jewel:61.20")
def test_jewel_carrier_steps_to_any_surrounding_space():
    """"the player gets the jewel, and on their next turn, moves to any space surrounding the center space\""""
    s = _win_the_jewel()
    assert moves(s) == {cell(x, y) for x in (2, 3, 4) for y in (2, 3, 4)} - {CENTRE}
    assert ("dragon",) not in s.legal_actions()
    s = _win_the_jewel(jewel_exit="adjacent")
    assert moves(s) == {cell(3, 2), cell(4, 3), cell(3, 4), cell(2, 3)}


@pytest.mark.seed("dungeons-jewel:61.20")
def test_jewel_exit_is_only_on_the_next_turn():
    """Ledger 32: "on their next turn, moves to any space surrounding the center space" is that one turn.
    A carrier who spends it attacking, or who comes back to the centre later, moves like anyone else."""
    orthogonal = {cell(3, 2), cell(4, 3), cell(3, 4), cell(2, 3)}
    s = _win_the_jewel()
    s.apply(("move", cell(3, 2)))  # the next turn, spent on an ordinary step
    _others_shuffle(s)
    s.apply(("move", CENTRE))  # back on the (now empty) centre
    _others_shuffle(s)
    assert s.pos[0] == CENTRE and s.jewel == 0 and moves(s) == orthogonal
    # the next turn spent on an attack: the diagonal step is gone afterwards
    s = _win_the_jewel()
    place(s, 1, cell(3, 2))
    s.rng = Dice(1, 1)  # a tie: nothing happens
    s.apply(("attack", 1))
    place(s, 1, STARTS[1])
    _others_shuffle(s)
    assert s.pos[0] == CENTRE and moves(s) == orthogonal


@pytest.mark.seed("dungeons-jewel:13.5", "dungeons-jewel:25.7", "dungeons-jewel:25.9", "dungeons-jewel:53.1", "dungeons-jewel:61.24")
def test_bringing_the_jewel_home_wins():
    """"If they make it to their starting space, then the game is over and that player wins.\""""
    s = blank()
    place(s, 0, cell(1, 0))
    s.jewel = 0
    s.rng = Dice()
    s.apply(("move", STARTS[0]))
    assert s.is_over() and s.results().winners == (0,)
    s = blank()
    place(s, 1, cell(1, 0))
    s.seat = 1
    s.jewel = 1
    s.apply(("move", STARTS[0]))  # someone else's corner is not home
    assert not s.is_over()


def test_carrier_sent_home_drops_the_jewel():
    """Ledger: being sent back (trap door, no health) is not "making it" home; the jewel returns to the dragon."""
    s = blank()
    place(s, 0, cell(2, 0))
    s.jewel = 0
    put(s, cell(1, 0), "trapdoor")
    s.rng = Dice(1)
    s.apply(("move", cell(1, 0)))
    s.apply(("roll",))
    assert s.pos[0] == STARTS[0] and s.jewel is None and not s.is_over()
    # and the table is told (a mutant that dropped this line survived, seed 3)
    assert "Player 1 drops the jewel; it returns to the dragon." in [e["text"] for e in s.events(0)]


@pytest.mark.seed("dungeons-jewel:61.22")
def test_carrier_may_move_attack_and_survive_hazards_like_anyone():
    """Ledger: the carrier moves, draws tokens, loots and may attack; only the dragon is off limits."""
    s = blank()
    place(s, 0, cell(2, 2))
    place(s, 1, cell(2, 1))
    s.jewel = 0
    kinds = {a[0] for a in s.legal_actions()}
    assert kinds == {"move", "attack"}


# -- Attacking -----------------------------------------------------------------------------------
@pytest.mark.seed("dungeons-jewel:29.1", "dungeons-jewel:61.15", "dungeons-jewel:67.1")
def test_attack_only_adjacent_or_same_room():
    """"Players can attack other players if they are adjacent to the player they want to attack." (no diagonals)"""
    s = blank()
    place(s, 0, cell(2, 2))
    place(s, 1, cell(3, 2))   # adjacent
    place(s, 2, cell(3, 3))   # diagonal
    place(s, 3, cell(2, 2))   # same room (ledger)
    attacks = {a[1] for a in s.legal_actions() if a[0] == "attack"}
    assert attacks == {1, 3}


@pytest.mark.seed("dungeons-jewel:67.1")
def test_walls_do_not_block_attacks():
    """Ledger: a wall stops walking, not fighting; an adjacent player behind a wall can be attacked."""
    s = blank()
    place(s, 0, cell(2, 2))
    place(s, 1, cell(3, 2))
    s.walls[cell(2, 2)] |= 1 << 1
    s.walls[cell(3, 2)] |= 1 << 3
    assert cell(3, 2) not in moves(s) and ("attack", 1) in s.legal_actions()


@pytest.mark.seed("dungeons-jewel:29.2", "dungeons-jewel:29.3", "dungeons-jewel:29.5", "dungeons-jewel:29.6", "dungeons-jewel:29.7", "dungeons-jewel:29.8", "dungeons-jewel:29.9", "dungeons-jewel:61.15", "dungeons-jewel:67.2", "dungeons-jewel:67.3", "dungeons-jewel:67.5")
@pytest.mark.parametrize("rolls,powers,loser", [
    ((5, 3), (0, 0), 1),    # "If the attacking player wins, then the other player loses a health point."
    ((2, 4), (0, 0), 0),    # "If the attacked player wins, then the attacking player loses a health point."
    ((4, 4), (0, 0), None),  # "If it is a tie, neither player loses any health."
    ((2, 4), (2, 0), None),  # 2+2 = 4+0: a tie
    ((1, 6), (6, 0), 1),     # 1+6 = 7 > 0+6
])
def test_attack_contest(rolls, powers, loser):
    s = blank()
    place(s, 0, cell(2, 2))
    place(s, 1, cell(3, 2))
    give(s, 0, *["broadsword", "shield", "boots", "helmet", "legs", "gloves"][:powers[0]])
    s.rng = Dice(*rolls)
    s.apply(("attack", 1))
    # "At the end of the attacking phase, both players should still be on the same space"
    assert s.pos[:2] == [cell(2, 2), cell(3, 2)]
    expected = [2, 2]
    if loser is not None:
        expected[loser] = 1
    assert s.health[:2] == expected
    assert s.current_seat() == 1  # "If a player decides to attack, then they cannot move for that turn."


@pytest.mark.seed("dungeons-jewel:29.4", "dungeons-jewel:67.4")
def test_hazards_are_ignored_while_attacking():
    """"Hazards are ignored during attacking phases.\""""
    s = blank()
    put(s, cell(2, 2), "fire")
    put(s, cell(3, 2), "monster")
    place(s, 0, cell(2, 2))
    place(s, 1, cell(3, 2))
    s.rng = Dice(3, 3)  # only the two attack dice
    s.apply(("attack", 1))
    assert s.rng.done() and s.health[:2] == [2, 2]


@pytest.mark.seed("dungeons-jewel:61.23")
def test_defeated_carrier_loses_the_jewel_to_the_attacker():
    """"If the player is attacked by another player and defeated, them that player gains the jewel\""""
    s = blank()
    place(s, 0, cell(2, 2))
    place(s, 1, cell(3, 2))
    s.jewel = 1
    s.rng = Dice(6, 1)
    s.apply(("attack", 1))
    assert s.jewel == 0 and s.health[1] == 1
    # and the table is told (a mutant that dropped this line survived, seed 3)
    assert "Player 1 takes the jewel." in [e["text"] for e in s.events(1)]


@pytest.mark.seed("dungeons-jewel:61.23")
def test_carrier_who_attacks_and_loses_gives_up_the_jewel():
    """Ledger: the jewel goes to whoever beats its carrier in a fight, attacker or defender."""
    s = blank()
    place(s, 0, cell(2, 2))
    place(s, 1, cell(3, 2))
    s.jewel = 0
    s.rng = Dice(1, 6)
    s.apply(("attack", 1))
    assert s.jewel == 1 and s.health[0] == 1


@pytest.mark.seed("dungeons-jewel:61.24")
def test_taking_the_jewel_on_your_own_start_wins():
    """Ledger: a fight winner who takes the jewel while standing on their own start is home with it."""
    s = blank()
    place(s, 1, cell(0, 1))
    s.jewel = 1
    s.rng = Dice(6, 1)
    s.apply(("attack", 1))
    assert s.is_over() and s.results().winners == (0,)


@pytest.mark.seed("dungeons-jewel:71.3", "dungeons-jewel:175.1")
def test_fight_winner_takes_an_item_in_revised():
    """Revision log: "players can take one item from a player they defeat.\""""
    s = blank(variant="revised")
    place(s, 0, cell(2, 2))
    place(s, 1, cell(3, 2))
    give(s, 1, "broadsword", "spike_boots")
    s.rng = Dice(6, 1)  # 6 vs 1+1
    s.apply(("attack", 1))
    assert s.current_seat() == 0 and s.view(None)["prompt"] == "take"
    assert set(s.legal_actions()) == {("take", "broadsword"), ("take", "spike_boots")}
    s.apply(("take", "broadsword"))
    assert s.items == [["broadsword"], ["spike_boots"], [], []]
    assert s.power[:2] == [1, 0]
    assert s.current_seat() == 1


@pytest.mark.seed("dungeons-jewel:71.3", "dungeons-jewel:175.1")
def test_defender_who_wins_takes_the_item_in_revised():
    s = blank(variant="revised")
    place(s, 0, cell(2, 2))
    place(s, 1, cell(3, 2))
    give(s, 0, "helmet")
    s.rng = Dice(1, 6)
    s.apply(("attack", 1))
    assert s.current_seat() == 1 and s.legal_actions() == (("take", "helmet"),)
    s.apply(("take", "helmet"))
    assert s.power[:2] == [0, 1] and s.current_seat() == 1  # then seat 1's own turn


@pytest.mark.seed("dungeons-jewel:175.1")
def test_no_item_taken_in_the_rulebook():
    s = blank()
    place(s, 0, cell(2, 2))
    place(s, 1, cell(3, 2))
    give(s, 1, "helmet")
    s.rng = Dice(6, 1)
    s.apply(("attack", 1))
    assert s.items[1] == ["helmet"] and s.current_seat() == 1


@pytest.mark.seed("dungeons-jewel:67.3")
def test_defeated_player_out_of_health_starts_over():
    s = blank()
    place(s, 0, cell(2, 2))
    place(s, 1, cell(3, 2))
    s.health[1] = 1
    s.rng = Dice(6, 1)
    s.apply(("attack", 1))
    assert s.pos[1] == STARTS[1] and s.health[1] == 2


# -- Options ---------------------------------------------------------------------------------------
def test_bad_options_are_refused():
    with pytest.raises(InvalidOptionError):
        make("dungeons-jewel", options={"board_size": 8})
    with pytest.raises(InvalidOptionError):
        make("dungeons-jewel", options={"hazard_target": 7})
    with pytest.raises(InvalidOptionError):
        make("dungeons-jewel", options={"jewel_exit": "anywhere"})


@pytest.mark.seed("dungeons-jewel:13.2")
def test_bigger_board_option():
    g = make("dungeons-jewel", options={"board_size": 9})
    assert g.board.centre == 40 and g.board.starts == (0, 8, 80, 72)
    assert g.new_state(1).legal_actions()


def test_variants_are_option_bundles():
    from boardlab.games.dungeons_jewel.game import DungeonsJewel

    names = [v.name for v in DungeonsJewel.variants]
    assert names[0] == "rulebook" and set(names) == {"rulebook", "concept", "revised"}
    assert make("dungeons-jewel", variant="concept").option_values["respawn_health"] == 3
    assert make("dungeons-jewel", variant="revised").option_values["fight_steal"] is True
