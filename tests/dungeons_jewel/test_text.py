"""Issue 32: roll lines say what was rolled and the number needed; prompts say it before the roll."""

from __future__ import annotations

from .helpers import CENTRE, Dice, blank, cell, place


def _texts(s, seat):
    return [e["text"] for e in s.events(seat)]


def test_hazard_roll_line_names_the_die_and_the_target():
    s = blank()
    s.pile = ["fire"]
    s.rng = Dice(2)
    s.apply(("move", cell(1, 0)))
    s.apply(("place", "reveal"))
    scene = s.game.scene(s.view(0), s.legal_actions())
    assert "roll (a six-sided die: 4 or more)" in scene["prompt"] and "treasure card" in scene["prompt"]
    assert s.describe(("roll",)) == "roll to survive (a six-sided die: 4 or more)"
    s.apply(("roll",))
    assert "Player 1 rolls against Fire trap: 2 on a six-sided die, needed 4: fails the room." in _texts(s, 1)


def test_monster_roll_line_adds_attack_power():
    s = blank()
    s.pile = ["monster"]
    s.power[0] = 2
    s.rng = Dice(3)
    s.apply(("move", cell(1, 0)))
    s.apply(("place", "secret"))
    assert s.describe(("roll",)) == "roll to survive (a six-sided die + your attack power 2 must reach 6)"
    s.apply(("roll",))
    mine = _texts(s, 0)
    assert "You roll against Monster: 3 on a six-sided die + 2 attack power = 5, needed 6: you fail." in mine
    # a face-down token stays secret: the others learn the roll, not the target
    theirs = _texts(s, 1)
    assert "Player 1 rolls 3 on a six-sided die and fails the room (its token is secret)." in theirs
    assert not any("Monster" in t or "needed" in t for t in theirs)


def test_dragon_line_names_the_dice_the_attack_power_and_the_target():
    s = blank()
    s.power[0] = 2
    place(s, 0, cell(3, 2))
    s.rng = Dice(1, 4)
    s.apply(("move", CENTRE))
    assert "Player 1 fights the dragon: two six-sided dice 1+4, +2 attack power = 7, needed 11: fails." in _texts(s, 1)


def test_attack_line_says_each_die_and_attack_power():
    s = blank()
    place(s, 1, cell(1, 0))
    s.power[1] = 1
    s.rng = Dice(5, 2)
    s.apply(("attack", 1))
    assert any("each rolls a six-sided die and adds attack power: 5 + 0 = 5 against 2 + 1 = 3" in t for t in _texts(s, 0))


def test_face_down_choice_and_loot_are_explained():
    s = blank()
    scene = s.game.scene(s.view(0), s.legal_actions())
    assert "Loot comes only from a new room" in scene["hint"]
    s.pile = ["fire"]
    s.apply(("move", cell(1, 0)))
    assert "the others do not learn" in s.describe(("place", "secret"))
    assert "everyone sees" in s.describe(("place", "reveal"))
    scene = s.game.scene(s.view(0), s.legal_actions())
    assert "face up: everyone sees it" in scene["prompt"]


def test_moving_to_the_dragon_says_what_the_fight_needs():
    s = blank()
    s.power[0] = 2
    place(s, 0, cell(3, 2))
    assert s.describe(("move", CENTRE)) == "move to d4 (the dragon: two six-sided dice + your attack power 2 must reach 11)"
