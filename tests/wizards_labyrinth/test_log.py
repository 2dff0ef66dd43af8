"""The log says what everyone can see (issue 16 item 3); found by tests/test_indistinguishability.py."""

from __future__ import annotations

from boardlab.engine import make


def test_each_opening_keep_is_logged_privately_to_the_wizard():
    s = make("wizards-labyrinth", players=3).new_state(1)
    while not (s.stack and s.stack[-1].kind == "keep"):
        s.apply(s.legal_actions()[0])
    card = s.legal_actions()[0][1]
    n = len(s.events(0))
    s.apply(s.legal_actions()[0])
    assert s.events(0)[n]["text"] == f"You keep {card}"
    assert s.events(1)[n]["text"] == "The wizard keeps a card"


def test_switcheroo_logs_the_hero_picked_and_which_token():
    from .helpers import switcheroo_played

    s = switcheroo_played()
    n = len(s.events(1))
    s.apply(("hero", 1))
    assert s.events(1)[n]["text"] == "Switcheroo: the wizard picks Hero 1"
    s.apply(("token", 20, 1))
    assert "swaps places with the 2nd of 2 tokens on" in s.events(1)[-1]["text"] and s.events(1)[-1]["data"]["index"] == 1
