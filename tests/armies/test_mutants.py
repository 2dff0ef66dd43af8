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
