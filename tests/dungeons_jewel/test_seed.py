"""Seed scenarios written for the concordance (issue 29): rules the other test files did not yet pin,
and the readings the second read of the seed added to the ledger (entries 34-37)."""

from __future__ import annotations

import pytest

from boardlab.engine import InvalidOptionError, make

from .helpers import CENTRE, STARTS, Dice, blank, cell, give, moves, place, put

AROUND = {cell(x, y) for x in (2, 3, 4) for y in (2, 3, 4)} - {CENTRE}
ORTHOGONAL = {cell(3, 2), cell(4, 3), cell(3, 4), cell(2, 3)}


def _others_step(s) -> None:
    """Seats 1-3 each take one step (out of their corner or back into it) on an empty dungeon."""
    for seat in (1, 2, 3):
        assert s.current_seat() == seat
        s.apply(("move", sorted(moves(s))[0]))


def _slay(variant=None, **options):
    """Seat 0 steps onto the centre and beats the dragon (6+6 and one attack item)."""
    s = blank(variant=variant, **options)
    give(s, 0, "broadsword")
    place(s, 0, cell(3, 2))
    s.rng = Dice(6, 6)
    s.apply(("move", CENTRE))
    assert s.jewel == 0 and s.exit == 0 and s.current_seat() == 1
    return s


# -- the centre: leaving with the jewel (issue 29 item 11, ledger 34) ------------------------------------
@pytest.mark.seed("dungeons-jewel:25.6", "dungeons-jewel:61.20")
def test_concept_slayer_may_step_off_the_centre_on_any_later_turn():
    """Concept: "If the player succeeds, then they can move to any space surrounding the center space"
    (no "on their next turn"): a slayer who spends the next turn attacking may still step diagonally later.
    The rulebook's "on their next turn" limits the step to that one turn (ledger 32)."""
    for variant, later in (("concept", AROUND), ("rulebook", ORTHOGONAL), ("revised", ORTHOGONAL)):
        s = _slay(variant)
        assert s.game.option_values["jewel_exit_turn"] == ("any" if variant == "concept" else "next")
        _others_step(s)
        assert moves(s) == AROUND  # the next turn: every variant offers the 8 surrounding spaces
        place(s, 1, cell(3, 2))
        s.rng = Dice(1, 2)  # the slayer attacks and loses: 1+1 against 2+0 is a tie
        s.apply(("attack", 1))
        assert s.jewel == 0 and s.health[:2] == [2, 2]
        place(s, 1, STARTS[1])
        _others_step(s)
        assert s.pos[0] == CENTRE and moves(s) == later, variant
    # once the concept slayer has left the centre, coming back gives only the ordinary moves
    s = _slay("concept")
    _others_step(s)
    s.apply(("move", cell(2, 2)))  # the diagonal step
    _others_step(s)
    s.apply(("move", cell(2, 3)))
    _others_step(s)
    s.apply(("move", CENTRE))
    _others_step(s)
    assert s.jewel == 0 and s.exit is None and moves(s) == ORTHOGONAL


@pytest.mark.seed("dungeons-jewel:25.6")
def test_jewel_exit_turn_option():
    """The option behind the two readings: ``next`` (rulebook, the default) or ``any`` (concept)."""
    assert make("dungeons-jewel").option_values["jewel_exit_turn"] == "next"
    s = _slay(jewel_exit_turn="any")
    _others_step(s)
    s.rng = Dice(3, 3)
    place(s, 1, cell(3, 2))
    s.apply(("attack", 1))  # a tie
    place(s, 1, STARTS[1])
    _others_step(s)
    assert moves(s) == AROUND
    with pytest.raises(InvalidOptionError):
        make("dungeons-jewel", options={"jewel_exit_turn": "later"})


@pytest.mark.seed("dungeons-jewel:25.6")
def test_concept_slayer_who_wins_the_jewel_back_in_a_fight_moves_normally():
    """Ledger 32/34: the step off the centre belongs to the dragon's slayer; once the jewel has been taken
    from them, winning it back in a fight does not bring the diagonal step back."""
    s = _slay("concept")
    _others_step(s)
    place(s, 1, cell(3, 2))
    s.rng = Dice(1, 6)  # the slayer attacks seat 1 and loses: seat 1 takes the jewel
    s.apply(("attack", 1))
    assert s.jewel == 1 and s.exit is None
    s.rng = Dice(1, 6)  # seat 1 attacks the slayer and loses: the slayer takes it back
    s.apply(("attack", 0))
    assert s.jewel == 0
    for seat in (2, 3):
        s.apply(("move", sorted(moves(s))[0]))
    assert s.pos[0] == CENTRE and moves(s) == ORTHOGONAL


# -- Basic rules ------------------------------------------------------------------------------------
@pytest.mark.seed("dungeons-jewel:61.3", "dungeons-jewel:17.5")
def test_the_move_is_announced_to_everyone_before_the_draw():
    """"Once a player makes their decision they must announce it to the rest of the players. Then the
    player draws a dungeon token." Everyone learns the room; only the drawer learns the token."""
    s = blank()
    s.pile = ["fire"]
    s.apply(("move", cell(1, 0)))
    for seat in (None, 1, 2, 3):
        texts = [e["text"] for e in s.events(seat)]
        announce = texts.index("Player 1 moves to b1.")
        assert texts[announce + 1] == "Player 1 draws a dungeon token for b1."
        assert "Fire" not in " ".join(texts[announce:])


@pytest.mark.seed("dungeons-jewel:57.2")
def test_both_piles_are_shuffled():
    """"Players also designate a player to shuffle both the dungeon token pile, and the treasure card pile.\""""
    game = make("dungeons-jewel")
    piles = {tuple(game.new_state(seed).pile) for seed in range(6)}
    decks = {tuple(game.new_state(seed).deck) for seed in range(6)}
    assert len(piles) == 6 and len(decks) == 6
    assert all(sorted(p) == sorted(game.content.token_pile()) for p in piles)


@pytest.mark.seed("dungeons-jewel:61.14")
def test_a_placed_token_stays_for_every_later_visitor_its_drawer_included():
    """Ledger 36: "it remains on that space for all other players to survive if they move to that space".
    The drawer who comes back faces it again too (without loot), as does any other player."""
    s = blank()
    s.pile = ["gas"]
    s.deck = ["helmet", "boots"]
    s.rng = Dice(5)
    s.apply(("move", cell(1, 0)))
    s.apply(("place", "secret"))
    s.apply(("roll",))
    assert s.items[0] == ["boots"]
    _others_step(s)
    s.apply(("move", STARTS[0]))
    _others_step(s)
    s.rng = Dice(2)  # back into b1: the same sleeping gas, a failed roll, no new token
    s.apply(("move", cell(1, 0)))
    assert s.legal_actions() == (("roll",),) and s.tokens[cell(1, 0)] == "gas"
    s.apply(("roll",))
    assert s.health[0] == 1 and s.items[0] == ["boots"] and s.deck == ["helmet"]


# -- the concept section's gaps (ledger 35) ------------------------------------------------------------
@pytest.mark.seed("dungeons-jewel:19.1", "dungeons-jewel:75.4")
def test_concept_loots_only_a_room_whose_token_you_drew():
    """Ledger 35: the concept says "If a player survives the hazard, then they get to pull a loot card";
    the concept variant keeps the rulebook's "Loot is only gotten the first time a player enters a room"."""
    s = blank(variant="concept")
    put(s, cell(1, 0), "fire", known=0b10)
    s.deck = ["broadsword"]
    s.rng = Dice(3)  # 3+ survives in the concept
    s.apply(("move", cell(1, 0)))
    s.apply(("roll",))
    assert s.health[0] == 2 and s.items[0] == [] and s.deck == ["broadsword"]
    s = blank(variant="concept")
    s.pile = ["fire"]
    s.deck = ["broadsword"]
    s.rng = Dice(3)
    s.apply(("move", cell(1, 0)))
    s.apply(("place", "secret"))
    s.apply(("roll",))
    assert s.items[0] == ["broadsword"]


@pytest.mark.seed("dungeons-jewel:25.8")
def test_concept_carrier_beaten_in_a_fight_gives_up_the_jewel():
    """Ledger 35: the concept says only "all other players will attempt to defeat the player who has the
    jewel"; the concept variant hands the jewel to the winner as the rulebook does."""
    s = blank(variant="concept")
    place(s, 0, cell(2, 2))
    place(s, 1, cell(3, 2))
    s.jewel = 1
    s.rng = Dice(5, 2)
    s.apply(("attack", 1))
    assert s.jewel == 0 and s.health[1] == 1


@pytest.mark.seed("dungeons-jewel:29.8")
def test_a_fight_moves_nobody_unless_the_loser_is_out_of_health():
    """Ledger 37: "both players should still be on the same space that they started on", but a loser at
    zero health still starts over ("they start over ... but must move back to their beginning square")."""
    for variant, respawn in (("concept", 3), ("rulebook", 2)):
        s = blank(variant=variant)
        place(s, 0, cell(2, 2))
        place(s, 1, cell(3, 2))
        s.rng = Dice(6, 1)
        s.apply(("attack", 1))
        assert s.pos[:2] == [cell(2, 2), cell(3, 2)] and s.health[1] == 1
        s.seat, s._legal = 0, None
        s.rng = Dice(6, 1)
        s.apply(("attack", 1))
        assert s.pos[:2] == [cell(2, 2), STARTS[1]] and s.health[1] == respawn


@pytest.mark.seed("dungeons-jewel:118.3")
def test_concept_trap_door_uses_the_rulebook_special_space():
    """Ledger 35: the concept names no trap door; its variant uses the rulebook's "does not lose a health
    point, but does move back to their starting position", with the concept's 3+ roll."""
    s = blank(variant="concept")
    place(s, 0, cell(2, 0))
    put(s, cell(3, 0), "trapdoor")
    s.rng = Dice(2)
    s.apply(("move", cell(3, 0)))
    s.apply(("roll",))
    assert s.pos[0] == STARTS[0] and s.health[0] == 2


@pytest.mark.seed("dungeons-jewel:120.4")
def test_monster_survival_rules_remain_the_same():
    """"The survival rules remain the same.": a monster survived in a new room loots, a lost one costs a health point."""
    s = blank()
    give(s, 0, "shield")
    s.pile = ["monster"]
    s.deck = ["gloves"]
    s.rng = Dice(5)  # 5 + 1 = 6, higher than 5
    s.apply(("move", cell(1, 0)))
    s.apply(("place", "secret"))
    s.apply(("roll",))
    assert s.health[0] == 2 and s.items[0] == ["shield", "gloves"] and s.power[0] == 2
    s = blank()
    s.pile = ["monster"]
    s.deck = ["gloves"]
    s.rng = Dice(5)  # 5 + 0: not higher than 5
    s.apply(("move", cell(1, 0)))
    s.apply(("place", "secret"))
    s.apply(("roll",))
    assert s.health[0] == 1 and s.pos[0] == cell(1, 0) and s.items[0] == [] and s.deck == ["gloves"]
