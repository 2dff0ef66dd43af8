"""Issue 17 (Blackfire): rules re-read against the seed; each test failed before its fix."""

from __future__ import annotations

import pytest

from .helpers import UNITS, cell_of, field_state, place, sq, token

FAR_RED = dict(RS=(10, 1), RA=(10, 2), RW=(10, 3))


def fresh(**units):
    st = field_state()
    place(st, **{**FAR_RED, **units})
    return st


@pytest.mark.seed("blackfire:29.1")
def test_revival_never_kills_an_invulnerable_unit_sharing_a_square():
    """Issue 17 item 11: "Unit is immune to 1 attack"; a revival onto a square holding an
    invulnerable enemy (here under its own archer) may not be chosen at all."""
    st = fresh(GS=(5, 4), GA=None, GW=(0, 8), RS=(5, 5), RA=(5, 5))
    st.orb_holder, st.orb_cell = None, sq(st, 0, 4)
    st.units[UNITS["RS"]].inv_until = st.turn + 4
    st._legal = None
    assert ("revive", UNITS["GA"], sq(st, 5, 5)) not in st.legal_actions()
    # the same square in the other order (invulnerable unit listed last) is refused too
    st.units[UNITS["RS"]].inv_until = None
    st.units[UNITS["RA"]].inv_until = st.turn + 4
    st._legal = None
    assert ("revive", UNITS["GA"], sq(st, 5, 5)) not in st.legal_actions()
    assert cell_of(st, "RS") == (5, 5)


def test_invulnerable_pickup_message_reads_an():
    """Issue 17 item 12: the message says "picks up an Invulnerable token"."""
    st = fresh(GS=(5, 4), GA=(0, 8), GW=(0, 4))
    token(st, 5, 5, "invulnerable")
    st.apply(("move", UNITS["GS"], sq(st, 5, 5)))
    assert any("picks up an Invulnerable token" in e["text"] for e in st.events(omniscient=True))
