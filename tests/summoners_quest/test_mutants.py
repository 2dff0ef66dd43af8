"""Tests that kill surviving mutants of the Summoner's Quest's rules modules (scripts/mutation.py, issue 42;
dispositions in benchmarks/mutation_dispositions.json)."""

from __future__ import annotations

from .helpers import fresh, put


def test_a_portal_effect_jumps_along_the_ring_and_does_nothing_in_the_centre():
    # kills effects.py:261 `if p < 32` -> `p <= 32` (a summoner on mana gate 1, space 32, jumped to the first portal)
    st = fresh()
    board = st.game.board
    assert board.portals == [4, 12, 20, 28] and board.chamber == 44
    for start, end in ((0, 4), (4, 12), (27, 28), (28, 4), (31, 4), (32, 32), (35, 35), (44, 44)):
        st.set_pos("P0", start)
        st._piece_effect(("portal",), "P0")
        assert st.pos_of("P0") == end, (start, st.pos_of("P0"))


def test_a_summon_silenced_by_the_silence_card_cannot_use_its_ability():
    # kills effects.py:357 `m.status == "silenced"` -> `m.status is "silenced"`: the status comes from the card
    # file, an equal string that is not the same object, so only comparing by value sees it
    st = fresh(3)
    st.mana[0] = 10
    giant = put(st, 0, "frost_giant", 9)
    u = int(giant[1:])
    st.pos[0] = 5
    st.pos[1], st.pos[2] = 9, 20
    st._legal = None
    assert ("ability", u, 9) in st.legal_actions()
    silence = st.game.cards["silence"].effects[0]
    assert silence[:2] == ("status", "silenced") or list(silence[:2]) == ["status", "silenced"]
    st._piece_effect(tuple(silence), giant, "silence")
    st._legal = None
    assert st.summons[u].status == "silenced"
    assert not [a for a in st.legal_actions() if a[0] == "ability" and a[1] == u]


def test_the_log_names_the_defeated_summoners_player_from_one():
    # kills effects.py:186 `Player {s + 1}` -> `Player {s * 1}`
    st = fresh(3)
    st.eliminate(1)
    assert not st.alive[1]
    texts = [e["text"] for e in st.events(None)]
    assert "Player 2's summoner is defeated." in texts, texts[-3:]
