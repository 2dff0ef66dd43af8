"""Issue 32: roll lines name the dice and the number needed; effects name their cause; the turn hint explains the goal."""

from __future__ import annotations

import pytest

from .helpers import fresh, give, pair_onto_pitfall, put, rolled, script
from .test_combat import attack_setup


def _log(st, seat=None):
    return [e["text"] for e in st.events(seat)]


@pytest.mark.seed("summoners-quest:50.2")
def test_own_trap_catches_its_owners_summon_and_the_log_says_whose_it_was():
    """"they can be tripped by anyone, even the player that placed it": Player 1's Frost Rune stuns
    Player 1's own Kitsune, and the log names the trap as its cause."""
    st = fresh()
    s = put(st, 0, "kitsune", 0)
    st.traps[4] = ["frost_rune", 0]
    rolled(st, 1, 2)  # swift: 3 + 1
    script(st, 1)
    st.apply(("move", s, 4, 1) if ("move", s, 4, 1) in st.legal_actions() else next(
        a for a in st.legal_actions() if a[0] == "move" and a[1] == s and a[2] == 4))
    log = _log(st)
    assert "Kitsune (P1) springs Frost Rune (Player 1's own trap: a trap catches its owner's pieces too)." in log
    assert "Kitsune (P1) rolls a six-sided die to negate Frost Rune: 1, needed 4: the trap takes effect." in log
    assert "Kitsune (P1) is stunned for 1 turn(s) (Frost Rune, Player 1's own trap)." in log


def test_a_combat_ability_status_names_the_ability():
    st = fresh()
    st.summons.clear()
    k = put(st, 1, "kappa", 3)
    st.combat = {"att": "P0", "def": k, "space": 3, "bonus": {}}
    st.apply_effects((("status", "slowed", 2),), 1, "P0", k, "Kappa's Drag Under")
    assert "Player 1 is slowed for 2 turn(s) (Kappa's Drag Under)." in _log(st)


def test_movement_and_combat_rolls_say_what_was_rolled():
    st = fresh()
    script(st, 3, 4)
    st.apply(("roll",))
    assert "Player 1 rolls two six-sided dice to move: 3+4 = 7." in _log(st)
    st = attack_setup()
    script(st, 2, 5)
    st.apply(("move", "P", 5, -1))
    line = next(t for t in _log(st) if t.startswith("Combat:"))
    assert "each side rolls a six-sided die, the higher total wins" in line
    assert "attacker Player 1 rolls 2; defender Player 2 rolls 5." in line


def test_turn_hint_explains_winning_gates_summoning_and_unplayable_cards():
    st = fresh()
    give(st, 0, "kitsune")
    st.mana[0] = 1
    scene = st.game.scene(st.view(0), st.legal_actions())
    hint = scene["hint"]
    assert "hold the Chamber of Victory for 3 turns" in hint and "opens for 10 mana" in hint
    assert "only when no other piece stands there" in hint
    assert "Kitsune (it costs 3 mana and you have 1 active mana)" in hint


def test_trap_victim_choice_explains_the_negation_roll():
    st = fresh()
    s = pair_onto_pitfall(st)
    assert st.stack[-1].kind == "trap_victim"
    hint = st.game.scene(st.view(0), st.legal_actions())["hint"]
    assert hint.startswith("The one who takes the trap rolls a six-sided die: reaching the number on the trap card")
