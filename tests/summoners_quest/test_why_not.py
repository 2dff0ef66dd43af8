"""Summoner's Quest's "why not": mana, equipment and hand full, the phase, a closed gate, whose piece."""

from __future__ import annotations

from boardlab.engine import Prompt

from .helpers import fresh, give, rolled


def test_a_card_costing_more_than_the_active_mana_says_both():
    st = fresh()
    give(st, 0, "jormungandr", "einherjar")  # cost 7 (6 on a temple), cost 2 (1 on a temple)
    st.mana[0] = 3
    st._legal = None
    assert st.why_not(0, "Jörmungandr") == "it costs 6 mana and you have 3 active mana"
    assert st.why_not(0, "Einherjar") is None and st.why_not(0, "card:einherjar") is None
    panel = next(p for p in st.game.scene(st.view(0), st.legal_actions())["panels"] if p.get("seat") == 0)
    assert [c.get("why_not") for c in panel["cards"]] == ["it costs 6 mana and you have 3 active mana", None]


def test_equipment_full_says_the_limit():
    st = fresh()
    give(st, 0, "megingjord")
    st.mana[0] = 9
    st.equip[0] = ["mjolnir", "gungnir", "aegis"]
    st._legal = None
    assert st.why_not(0, "card:megingjord") == "equipment full: you and your summons already carry 3 items (the most)"


def test_the_phase_decides_what_can_be_pointed_at():
    st = fresh()
    give(st, 0, "einherjar")
    assert st.why_not(0, "N3") == "roll first: pieces move after the roll"
    rolled(st, 3, 4)
    assert st.why_not(0, "Einherjar") == "cards are played before you roll or after you move, not during the move"
    assert st.why_not(1, "N3") == "it is not your turn"
    assert st.why_not(0, "item:P1") == "that is Player 2's summoner"


def test_a_closed_gate_says_what_opening_it_costs():
    st = fresh()
    rolled(st, 3, 4)
    assert st.view(0)["state"]["gates"][0] is False
    assert st.why_not(0, "G1") == "gate 1 is closed: passing it opens it for 10 mana, and you have 6"
    assert st.why_not(0, "N7") is None  # seven steps along the ring


def test_a_full_hand_is_explained():
    st = fresh()
    give(st, 0, "einherjar", "tanuki", "harpy", "saci", "ratatoskr")
    st.stack.append(Prompt(0, "hand_full", None))
    st._legal = None
    scene = st.game.scene(st.view(0), st.legal_actions())
    assert scene["hint"] == ("Your hand holds 5 cards, the most allowed (5): discard one to draw,"
                             " or keep your hand and draw nothing.")
    assert st.why_not(0, "N3") == "first answer this: your hand is full: discard a card to draw, or keep it"
