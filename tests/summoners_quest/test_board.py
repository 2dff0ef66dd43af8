"""The board: ring of 32 in 4 sections, 13 centre spaces, movement paths and distances."""

import pytest

from boardlab.games.summoners_quest.board import Board, default_board_path

B = Board.load(default_board_path())


@pytest.mark.seed("summoners-quest:12.1", "summoners-quest:32.1", "summoners-quest:34.1", "summoners-quest:9.1b")
def test_board_layout():
    # "8 spaces per section (6 focus points, a teleport point and a Mana Temple)"; ledger: fixed order
    assert B.size == 45
    for s in range(4):
        assert B.kinds[8 * s: 8 * s + 8] == ["temple", "focus", "focus", "focus", "portal", "focus", "focus", "focus"]
    assert B.temples == [0, 8, 16, 24] and B.portals == [4, 12, 20, 28]


@pytest.mark.seed("summoners-quest:36.1", "summoners-quest:36.5", "summoners-quest:38.1")
def test_centre_paths():
    # "13 spaces in the center": 4 gates, 2 halls each, one chamber; gates attached to the portals
    assert [B.kinds[i] for i in range(32, 45)] == ["gate", "hall", "hall"] * 4 + ["chamber"]
    for k in range(4):
        g = B.gate_space(k)
        assert B.portal_of_gate[k] == 8 * k + 4
        assert B.fwd[g] == g + 1 and B.fwd[g + 1] == g + 2 and B.fwd[g + 2] == B.chamber
        assert B.back[g] == 8 * k + 4


def test_forward_branches_at_portals_and_stops_in_the_chamber():
    dests = {(d, g) for d, g, _ in B.forward(2, 5)}
    assert dests == {(7, -1), (B.gate_space(0) + 2, 0)}
    # from the portal itself, 12 steps: straight on, through gate 0 (stops in the chamber) or gate 1
    dests = {(d, g) for d, g, _ in B.forward(4, 12)}
    assert dests == {(16, -1), (B.chamber, 0), (B.chamber, 1)}


def test_backward_leaves_the_halls_toward_the_ring():
    assert B.backward(B.gate_space(1) + 1, 3) == 11
    assert B.backward(0, 2) == 30
    assert B.backward(B.chamber, 2) == B.chamber


def test_distances_respect_closed_gates():
    closed = B.distances(0)
    opened = B.distances(0b0001)
    assert closed[4][B.gate_space(0)] > 4
    assert opened[4][B.gate_space(0)] == 1
    assert opened[4][B.chamber] == 4
    assert closed[0][16] == 16 and closed[0][31] == 1
