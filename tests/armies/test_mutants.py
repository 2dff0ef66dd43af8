"""Tests that kill surviving mutants of Armies' rules modules (scripts/mutation.py, issue 42;
dispositions in benchmarks/mutation_dispositions.json)."""

from __future__ import annotations

import pytest

from .helpers import finish_payment, give, at, position, sq, touch


@pytest.mark.seed("armies:362.1")
def test_a_double_marching_black_pawn_may_double_step_onto_the_first_rank_and_promote():
    # kills moves.py:49 `0 <= two < 64` -> `1 <= two < 64`: a black pawn on a3 double-steps to a1 (square 0)
    st = position({"e8": "k", "e1": "K", "a3": "p", "h3": "p"}, active=1, hands=((), ["Double March"]))
    give(at(st, "e8"), "GG")
    touch(st)
    st.apply(("strategy", "Double March"))
    finish_payment(st)
    targets = {(a[1], a[2]) for a in st.legal_actions() if a[0] == "move"}
    assert (sq("h3"), sq("h1")) in targets
    assert (sq("a3"), sq("a1")) in targets  # a1 is square 0
    promos = {a[3] for a in st.legal_actions() if a[0] == "move" and a[1:3] == (sq("a3"), sq("a1"))}
    assert promos and "" not in promos  # reaching the last rank promotes


@pytest.mark.parametrize("seat", [0, 1])
def test_a_player_who_must_draw_from_an_empty_deck_loses_under_deck_out_lose(seat):
    # kills rules.py:257 `end_game(1 - seat, ...)` -> `end_game(1 * seat, ...)` (the player who decked out won);
    # tests/armies/test_turn.py::test_deck_out_options checks only that the game ends
    st = position({"e1": "K", "e8": "k"}, options={"deck_out": "lose"}, deck=())
    if seat == 1:
        st.decks[0] = ["Mind Fog"]
    st.apply(("pass",))
    st.apply(("end",))
    if seat == 1:
        st.apply(("pass",)) if st.phase == "opp1" else None
        st.apply(("end",))
    assert st.is_over()
    assert st.winner == 1 - seat
