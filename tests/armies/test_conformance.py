"""Shared conformance checks (tests/conformance.py) over seeds, for every variant; hidden information."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as hs

from boardlab.engine import make
from boardlab.engine.rng import Rng
from boardlab.games.armies.game import ArmiesGame

from ..conformance import check_bad_actions, check_no_leak, check_playout


def _invariants(st) -> None:
    # board and armies agree; skill never exceeds its maximum or goes negative
    for sq, i in enumerate(st.board):
        if i is not None:
            assert st.armies[i].sq == sq
    assert len({a.sq for a in st.armies.values()}) == len(st.armies)
    for a in st.armies.values():
        assert all(0 <= s <= m for s, m in zip(a.skill, a.maxs)), a
        if a.kind == "K":
            assert a.leader is None
    for seat in (0, 1):
        assert sum(1 for a in st.armies.values() if a.kind == "K" and a.seat == seat) == 1 or st.is_over()
    total = sum(len(h) for h in st.hands) + sum(len(d) for d in st.decks) + sum(len(d) for d in st.discards) \
        + sum(len(d) for d in st.removed) + len(st.strategies) \
        + sum((a.leader is not None) + len(a.attached) for a in st.armies.values())
    in_flight = sum(1 for f in st.pending if f["op"] == "resolve") + sum(
        1 for p in st.stack if p.kind == "pay" and p.data["play"].get("card"))
    assert total + in_flight == 120 or not st.game.use_cards


@pytest.mark.parametrize("variant", [v.name for v in ArmiesGame.variants])
@settings(max_examples=2, deadline=None)
@given(seed=hs.integers(0, 2**31))
def test_conformance_random_playouts(variant, seed):
    check_playout("armies", seed, variant=variant, options={"max_turns": 24}, every=4, leak_every=9,
                  invariants=_invariants)


@settings(max_examples=2, deadline=None)
@given(seed=hs.integers(0, 2**31))
def test_conformance_heuristic_playout(seed):
    check_playout("armies", seed, agent="heuristic", options={"max_turns": 24}, every=6, leak_every=11,
                  invariants=_invariants)


def test_bad_actions_change_nothing():
    st = make("armies").new_state(3)
    check_bad_actions(st)
    st.apply(st.legal_actions()[0])
    check_bad_actions(st)


def test_views_hide_the_opponents_hand_and_all_deck_order():
    st = make("armies").new_state(5)
    while st.stack and st.stack[-1].kind == "setup":
        st.apply(st.legal_actions()[0])
    v0, v1, spec = st.view(0)["state"], st.view(1)["state"], st.view(None)["state"]
    assert v0["hand"] == sorted(st.hands[0]) and v1["hand"] == sorted(st.hands[1]) and spec["hand"] is None
    for v in (v0, v1, spec):
        text = json.dumps(v)
        assert "deck_order" not in text and v["deck_sizes"] == [53, 53]
    assert json.dumps(v0).count("\"hand\"") == 1
    # the scene of seat 0 shows only seat 1's hand size, face down
    scene = st.game.scene(st.view(0), st.legal_actions())
    black = scene["panels"][1]
    assert all(c.get("face_down") for c in black["cards"]) and len(black["cards"]) == 7


def test_determinize_keeps_revealed_cards_and_the_views():
    st = make("armies").new_state(9)
    while st.stack and st.stack[-1].kind == "setup":
        st.apply(st.legal_actions()[0])
    st.hands[1][0] = "Unyielding Offense"
    st.revealed[1] = ["Unyielding Offense"]
    rng = Rng(4)
    check_no_leak(st, rng)
    for _ in range(10):
        d = st.determinize(0, rng)
        assert "Unyielding Offense" in d.hands[1]
        assert sorted(d.hands[1] + d.decks[1]) == sorted(st.hands[1] + st.decks[1])
        assert d.hands[0] == st.hands[0]
    hands = {tuple(sorted(st.determinize(0, rng).hands[1])) for _ in range(10)}
    assert len(hands) > 1


def test_json_round_trip_mid_combat_window():
    from .helpers import at, give, mv, position

    st = position({"e1": "K", "e8": "k", "a1": "R", "a7": "p", "b7": "r"}, hands=([], ["Hold the Line"]))
    give(at(st, "b7"), "LL")
    st._legal = None
    st.apply(mv("a1", "a7"))
    assert st.stack[-1].kind == "after_dice"
    again = type(st).loads(st.dumps(), st.game)
    assert again.dumps() == st.dumps() and again.legal_actions() == st.legal_actions()
