"""One test per clause for rule rows that rested only on broad scenario tests (issue 42, section 3).

Each test checks the words of its own row and carries only that row's mark, so a change that
breaks the clause fails a test named after it.
"""

from __future__ import annotations

import pytest

from boardlab.engine import make

from .helpers import CENTRE, STARTS, Dice, blank, cell, give, moves, place, put


# -- "Players continue taking turns" (25.1) --------------------------------------------------------
def _whole_turn(s, *actions) -> None:
    """Play one seat's whole turn (its action and every prompt it raises)."""
    seat = s.current_seat()
    for a in actions:
        assert s.current_seat() == seat or a[0] == "take", f"{a} was played by another seat"
        s.apply(a)


@pytest.mark.seed("dungeons-jewel:25.1")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_players_continue_taking_turns_through_every_kind_of_turn(players):
    """"Players continue taking turns trying to make it toward the objective": after every kind of
    turn (a new room with its token placed and rolled, an old room, an attack, a failed dragon fight,
    an empty room) the next seat clockwise plays, and nothing but the jewel brought home ends the game."""
    n = players
    s = blank(players=n)
    s.pile = ["fire"]
    s.deck = ["helmet"]
    put(s, cell(1, 1), "water")
    for seat, at in enumerate((cell(1, 0), cell(0, 1), cell(1, 2), cell(3, 2))[:n]):
        place(s, seat, at)
    s.rng = Dice(5, 1, *((3, 3) if n > 2 else ()), *((1, 2) if n > 3 else ()))
    # seat 0: a new room -- draw, place, roll (5: survives and loots)
    _whole_turn(s, ("move", cell(2, 0)), ("place", "secret"), ("roll",))
    assert s.items[0] == ["helmet"] and s.current_seat() == 1
    # seat 1: an old room -- roll (1: fails, loses a health point and stays)
    _whole_turn(s, ("move", cell(1, 1)), ("roll",))
    assert s.health[1] == 1 and s.current_seat() == 2 % n
    if n > 2:  # seat 2: attacks seat 1 next to it; 3 + 0 against 3 + 0 is a tie
        _whole_turn(s, ("attack", 1))
        assert s.health[1:3] == [1, 2] and s.current_seat() == 3 % n
    if n > 3:  # seat 3: fails the dragon (1 + 2 + 0 < 11) and stays on the centre
        _whole_turn(s, ("move", CENTRE))
        assert s.pos[3] == CENTRE and s.health[3] == 1 and s.current_seat() == 0
    assert s.rng.done()
    # then two rounds of steps into empty rooms (the pile is empty now)
    for _ in range(2 * n):
        seat = s.current_seat()
        assert not s.is_over()
        step = min(j for j in moves(s) if s.tokens[j] is None and j != CENTRE)
        s.apply(("move", step))
        assert not s.stack and s.current_seat() == (seat + 1) % n, f"seat {seat} is followed by {s.current_seat()}"
    assert not s.is_over()


@pytest.mark.seed("dungeons-jewel:25.1")
def test_turn_passes_only_when_the_whole_turn_is_played():
    """A turn is the move and the decisions it raises: the next player waits for the roll."""
    s = blank()
    s.pile = ["fire"]
    s.rng = Dice(4)
    s.apply(("move", cell(1, 0)))
    assert s.current_seat() == 0 and s.legal_actions() == (("place", "secret"), ("place", "reveal"))
    s.apply(("place", "secret"))
    assert s.current_seat() == 0
    s.apply(("roll",))
    assert s.current_seat() == 1


# -- The centre (13.3, 25.2, 61.16, 61.17, 61.21) ---------------------------------------------------
@pytest.mark.seed("dungeons-jewel:13.3")
@pytest.mark.parametrize("size", [5, 7, 9])
def test_the_jewel_is_on_the_very_centre_tile(size):
    """"There is a jewel on the very center most tile on the board": the middle room, and only there
    does a player meet the dragon."""
    s = blank(board_size=size)
    mid = (size // 2) * size + size // 2
    assert s.game.board.centre == mid
    above = mid - size
    place(s, 0, above)
    s.rng = Dice(1, 1)
    s.apply(("move", mid))
    assert s.rng.done() and s.health[0] == 1  # two dice against the dragon: failed
    s = blank(board_size=size)
    place(s, 0, above - size)
    s.rng = Dice()  # a room next to the centre is an ordinary room (empty pile: nothing happens)
    s.apply(("move", above))
    assert s.health[0] == 2 and s.jewel is None


@pytest.mark.seed("dungeons-jewel:25.2")
def test_two_dice_are_rolled_against_the_dragon():
    """"they must roll two dice to defeat the "dragon"": both dice count (5 + 6 = 11 beats the rulebook's
    dragon with no attack power; either die alone would not), and no third die is rolled."""
    s = blank()
    place(s, 0, cell(3, 2))
    s.rng = Dice(5, 6)
    s.apply(("move", CENTRE))
    assert s.rng.done() and s.jewel == 0


@pytest.mark.seed("dungeons-jewel:61.16")
def test_no_hazard_token_is_drawn_at_the_centre():
    """"If a player makes it to the center space, they do not draw a hazard card, but instead always
    face the same hazard": the pile is untouched and no token is placed, the dragon fight comes instead."""
    s = blank()
    s.pile = ["fire", "monster"]
    place(s, 0, cell(3, 2))
    s.rng = Dice(1, 1)
    s.apply(("move", CENTRE))
    assert s.pile == ["fire", "monster"] and s.tokens[CENTRE] is None and not s.stack
    assert s.current_seat() == 1 and s.health[0] == 1  # "the same hazard": the dragon
    # coming back to fight again draws nothing either
    s.seat = 0
    s.rng = Dice(1, 1)
    s.apply(("dragon",))
    assert s.pile == ["fire", "monster"] and s.tokens[CENTRE] is None


@pytest.mark.seed("dungeons-jewel:61.17")
def test_the_dragon_guards_the_jewel_only_while_it_is_there():
    """"At the center is a jewel guarded by a dragon": nobody holds it until the dragon is beaten;
    once taken, the centre is an empty room (no fight); dropped, it is guarded again."""
    s = blank()
    assert s.jewel is None
    place(s, 0, CENTRE)
    assert ("dragon",) in s.legal_actions()
    s.jewel = 1  # someone else carries it
    s._legal = None
    assert ("dragon",) not in s.legal_actions()
    place(s, 0, cell(3, 2))
    s.rng = Dice()  # entering the centre rolls nothing: no dragon to fight
    s.apply(("move", CENTRE))
    assert s.rng.done() and s.health[0] == 2 and s.jewel == 1
    # the carrier falls through a trap door: the jewel returns to the dragon
    s = blank()
    place(s, 1, cell(2, 0))
    s.seat = 1
    s.jewel = 1
    put(s, cell(1, 0), "trapdoor")
    place(s, 0, CENTRE)
    s.rng = Dice(1)
    s.apply(("move", cell(1, 0)))
    s.apply(("roll",))
    assert s.jewel is None
    s.seat = 0
    s._legal = None
    assert ("dragon",) in s.legal_actions()


@pytest.mark.seed("dungeons-jewel:61.21")
@pytest.mark.parametrize("variant,respawn", [("rulebook", 2), ("concept", 3)])
def test_failing_the_dragon_takes_damage_like_a_hazard(variant, respawn):
    """"If the player does not get a high enough roll, then they take damage in the same way that they
    would if they had not survived a hazard": one health lost, staying on the centre; at none left,
    back to the start corner with the respawn health."""
    s = blank(variant=variant)
    place(s, 0, cell(3, 2))
    s.rng = Dice(1, 2)
    s.apply(("move", CENTRE))
    assert s.health[0] == 1 and s.pos[0] == CENTRE and s.jewel is None
    s.seat = 0
    s.rng = Dice(2, 1)
    s.apply(("dragon",))
    assert s.pos[0] == STARTS[0] and s.health[0] == respawn and s.jewel is None


# -- Attacking (29.3, 29.5, 29.6, 29.7, 29.9, 67.5) ---------------------------------------------------
def _duel(rolls, powers=(0, 0), **options):
    s = blank(**options)
    place(s, 0, cell(2, 2))
    place(s, 1, cell(3, 2))
    attack = ["broadsword", "shield", "boots", "helmet", "legs", "gloves"]
    give(s, 0, *attack[:powers[0]])
    give(s, 1, *attack[:powers[1]])
    s.rng = Dice(*rolls)
    s.apply(("attack", 1))
    assert s.rng.done()
    return s


@pytest.mark.seed("dungeons-jewel:29.3")
def test_highest_roll_plus_attack_power_wins_the_fight():
    """"Whoever has the highest roll plus attack power wins": the sums decide, not the dice alone."""
    s = _duel((5, 2), powers=(0, 4))  # 5 + 0 against 2 + 4: the defender wins on the sum
    assert s.health[:2] == [1, 2]
    s = _duel((2, 5), powers=(4, 0))  # 2 + 4 against 5 + 0: the attacker wins on the sum
    assert s.health[:2] == [2, 1]


@pytest.mark.seed("dungeons-jewel:29.5")
def test_attacker_who_wins_takes_a_health_point_from_the_other():
    """"If the attacking player wins, then the other player loses a health point.\""""
    s = _duel((6, 1))
    assert s.health[1] == 1 and s.health[0] == 2
    s = _duel((6, 1))
    s.health[1] = 1
    s.seat = 0
    s.rng = Dice(6, 1)
    s.apply(("attack", 1))  # the other's last health point: they start over at their corner
    assert s.health[1] == 2 and s.pos[1] == STARTS[1] and s.health[0] == 2


@pytest.mark.seed("dungeons-jewel:29.6")
def test_attacked_player_who_wins_takes_a_health_point_from_the_attacker():
    """"If the attacked player wins, then the attacking player loses a health point.\""""
    s = _duel((1, 6))
    assert s.health[0] == 1 and s.health[1] == 2


@pytest.mark.seed("dungeons-jewel:29.7")
@pytest.mark.parametrize("variant", ["rulebook", "revised"])
def test_a_tie_costs_nobody_health(variant):
    """"If it is a tie, neither player loses any health": not even with different dice (3 + 1 = 4 + 0),
    no item changes hands in `revised`, and a carrier keeps the jewel."""
    s = blank(variant=variant)
    place(s, 0, cell(2, 2))
    place(s, 1, cell(3, 2))
    give(s, 0, "helmet")
    give(s, 1, "spike_boots")
    s.jewel = 1
    s.rng = Dice(3, 4)
    s.apply(("attack", 1))
    assert s.health[:2] == [2, 2] and s.jewel == 1 and not s.stack
    assert s.items[:2] == [["helmet"], ["spike_boots"]] and s.current_seat() == 1


@pytest.mark.seed("dungeons-jewel:29.9")
def test_the_attacker_cannot_move_that_turn():
    """"If a player decides to attack, then they cannot move for that turn": the turn ends with the
    attack, whatever its outcome, and the attacker is where they stood."""
    for rolls in ((6, 1), (1, 6), (3, 3)):
        s = _duel(rolls)
        assert s.pos[0] == cell(2, 2) and s.current_seat() == 1 and not s.stack


@pytest.mark.seed("dungeons-jewel:67.5")
def test_the_attacking_player_cannot_move_during_this_turn_even_after_winning():
    """"The attacking player cannot move during this turn": winning the fight (even taking an item in
    `revised`) gives no step into the beaten player's room; the next seat plays."""
    s = _duel((6, 1), variant="revised")
    s.items[1] = ["helmet"]
    s.power[1] = 1
    s.health[1] = 2
    s.seat = 0
    s._legal = None
    s.rng = Dice(6, 1)
    s.apply(("attack", 1))
    assert s.legal_actions() == (("take", "helmet"),)
    s.apply(("take", "helmet"))
    assert s.pos[0] == cell(2, 2) and s.current_seat() == 1


# -- Ledger-only sentences that state a rule (17.6b, 25.8b, 57.3b) --------------------------------------
@pytest.mark.seed("dungeons-jewel:17.6b")
def test_a_drawn_token_is_attributed_to_the_room_entered():
    """"Once a dungeon token is drawn it is attributed to the tile ..." -- the room the player moves to
    (ledger 15), never the room they leave."""
    s = blank()
    place(s, 0, cell(1, 0))
    s.pile = ["fire"]
    s.rng = Dice()
    s.apply(("move", cell(2, 0)))
    assert s.tokens[cell(2, 0)] == "fire" and s.tokens[cell(1, 0)] is None


@pytest.mark.seed("dungeons-jewel:25.8b")
def test_every_other_player_may_attack_the_carrier_and_win_the_jewel():
    """"At this point, all other players will attempt to defeat the player who has the jewel": any
    player next to the carrier may attack them, and the one who beats them takes the jewel (ledger 10)."""
    s = blank()
    place(s, 0, cell(2, 2))
    s.jewel = 0
    for seat, at in ((1, cell(3, 2)), (2, cell(2, 3)), (3, cell(2, 2))):
        place(s, seat, at)
        s.seat = seat
        s._legal = None
        assert ("attack", 0) in s.legal_actions(), seat
    s.seat = 2
    s._legal = None
    s.rng = Dice(6, 1)
    s.apply(("attack", 0))
    assert s.jewel == 2 and s.health[0] == 1


@pytest.mark.seed("dungeons-jewel:57.3b")
def test_the_player_who_shuffles_starts():
    """"The person who shuffled starts first": the player named as shuffling (the die roll's winner,
    ledger 23) is the first to act."""
    for seed in range(6):
        s = make("dungeons-jewel", players=4).new_state(seed)
        shuffler = [e["data"]["first"] for e in s.events(None) if e["data"] and "first" in e["data"]]
        assert shuffler == [s.current_seat()] == [s.first]
