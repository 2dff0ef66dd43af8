"""The board: chess setup and movement ("each piece's movement is the same as that of chess")."""

from __future__ import annotations

import pytest

import chess
from hypothesis import given, settings, strategies as hs

from boardlab.engine import make
from boardlab.engine.rng import Rng
from boardlab.games.armies import board as B

from .helpers import at, mv, position, sq, touch


def _to_chess(st) -> chess.Board:
    b = chess.Board(None)
    for a in st.armies.values():
        b.set_piece_at(a.sq, chess.Piece(chess.PIECE_SYMBOLS.index(a.kind.lower()), a.seat == 0))
    b.turn = st.active == 0
    rights = 0
    for seat, (k, rooks) in ((0, (4, (7, 0))), (1, (60, (63, 56)))):
        king = st.at(k)
        if king and king.kind == "K" and king.seat == seat and not king.moved:
            for r in rooks:
                rook = st.at(r)
                if rook and rook.kind == "R" and rook.seat == seat and not rook.moved:
                    rights |= chess.BB_SQUARES[r]
    b.castling_rights = rights
    if st.ep is not None and st.ep[1] != st.active:
        b.ep_square = st.ep[0]
    return b


def _castles(b: chess.Board) -> set:
    """Castling moves ignoring check (Armies' General is never in check)."""
    out = set()
    for rook_sq in chess.scan_forward(b.castling_rights & b.occupied_co[b.turn]):
        king_sq = b.king(b.turn)
        between = chess.SquareSet(chess.between(king_sq, rook_sq))
        if all(b.piece_at(s) is None for s in between):
            out.add((king_sq, king_sq + (2 if rook_sq > king_sq else -2)))
    return out


def _compare(st) -> None:
    ours = {(a[1], a[2], a[3]) for a in st.move_actions(st.active) if a[0] == "move"}
    b = _to_chess(st)
    theirs = set()
    for m in b.generate_pseudo_legal_moves():
        if b.is_castling(m):
            continue
        promo = chess.piece_symbol(m.promotion) if m.promotion else ""
        theirs.add((m.from_square, m.to_square, promo))
    castles = {(f, t, "") for f, t in _castles(b)}
    assert ours == theirs | castles, (b.fen(), sorted(ours ^ (theirs | castles)))


@settings(max_examples=12, deadline=None)
@given(hs.integers(0, 10**6))
@pytest.mark.seed("armies:5.2")
def test_no_deck_moves_equal_chess_pseudo_legal_moves(seed):
    """'unenhanced armies behave exactly like chess pieces': with no cards, the legal moves of random
    positions reached by play are python-chess's pseudo-legal moves (check is never a rule), castling
    included without its check conditions."""
    g = make("armies", variant="chess")
    st = g.new_state(seed)
    rng = Rng(seed)
    for _ in range(120):
        if st.is_over():
            break
        if not st.stack and st.phase == "opp1":
            _compare(st)
        legal = st.legal_actions()
        moves = [a for a in legal if a[0] == "move"]
        st.apply(moves[rng.below(len(moves))] if moves and rng.below(10) else legal[rng.below(len(legal))])


@pytest.mark.seed("armies:5.2")
def test_initial_position_is_the_chess_setup():
    st = make("armies", variant="chess").new_state(0)
    assert _to_chess(st).board_fen() == chess.STARTING_BOARD_FEN
    assert len([a for a in st.legal_actions() if a[0] == "move"]) == 20


def test_pawn_double_step_and_en_passant():
    st = position({"e1": "K", "e8": "k", "e2": "P", "d4": "p"}, active=0)
    st.apply(mv("e2", "e4"))
    assert st.ep == (sq("e3"), 0, at(st, "e4").id)
    st.apply(("end",))
    assert mv("d4", "e3") in st.legal_actions()
    st.apply(mv("d4", "e3"))
    assert at(st, "e4") is None and at(st, "e3").seat == 1
    assert st.counts["rule:en_passant"] == [0, 1]


def test_en_passant_only_on_the_next_turn():
    st = position({"e1": "K", "e8": "k", "e2": "P", "d4": "p", "a7": "p"}, active=0)
    st.apply(mv("e2", "e4"))
    st.apply(("end",))
    st.apply(mv("a7", "a6"))
    st.apply(("end",))
    st.apply(("pass",))
    st.apply(("end",))
    assert mv("d4", "e3") not in st.legal_actions()


def test_promotion_choices_and_capture_promotion():
    st = position({"e1": "K", "h8": "k", "b7": "P", "c8": "r"}, active=0)
    legal = st.legal_actions()
    for p in "qrbn":
        assert mv("b7", "b8", p) in legal and mv("b7", "c8", p) in legal
    st.apply(mv("b7", "c8", "n"))
    assert at(st, "c8").kind == "N" and at(st, "c8").seat == 0


@pytest.mark.seed("armies:86.2")
def test_castling_ignores_attacked_squares():
    """The General is never 'in check', so castling through or out of attack is allowed (ledger)."""
    st = position({"e1": "K", "h1": "R", "a1": "R", "e8": "k", "f8": "r"}, active=0)
    legal = st.legal_actions()
    assert mv("e1", "g1") in legal and mv("e1", "c1") in legal
    st.apply(mv("e1", "g1"))
    assert at(st, "g1").kind == "K" and at(st, "f1").kind == "R"


def test_castling_needs_unmoved_pieces_and_empty_squares():
    st = position({"e1": "K", "h1": "R", "a1": "R", "b1": "N", "e8": "k"}, active=0)
    at(st, "h1").moved = True
    touch(st)
    legal = st.legal_actions()
    assert mv("e1", "g1") not in legal and mv("e1", "c1") not in legal


@pytest.mark.seed("armies:44.1")
def test_general_threatens_like_a_queen_but_moves_like_a_king():
    st = position({"d4": "K", "h8": "k", "d8": "p"}, active=0)
    g = at(st, "d4")
    threats = set(st.threats(g))
    assert sq("d8") in threats and sq("h8") in threats and sq("a1") in threats
    moves = {a[2] for a in st.legal_actions() if a[0] == "move"}
    assert moves == set(B.KING[sq("d4")])


@pytest.mark.seed("armies:42.2")
def test_pawn_threatens_diagonally_forward_only():
    st = position({"e1": "K", "e8": "k", "d4": "P"}, active=0)
    assert set(st.threats(at(st, "d4"))) == {sq("c5"), sq("e5")}


@pytest.mark.seed("armies:96.1", "armies:96.2")
def test_stealth_jumps_but_cannot_attack_after_jumping():
    """'Armies with stealth can jump over pieces ... If a stealth army jumps one or more pieces it
    cannot then attack as part of the same move.'"""
    st = position({"a1": "R", "a3": "P", "a6": "p", "h1": "K", "h8": "k"}, active=0)
    st.armies[st.board[sq("a1")]].traits.append("stealth")
    touch(st)
    legal = st.legal_actions()
    assert mv("a1", "a4") in legal and mv("a1", "a5") in legal
    assert mv("a1", "a6") not in legal and mv("a1", "a7") in legal


@pytest.mark.seed("armies:52.1", "armies:64.1")
def test_moving_is_optional_and_one_army_moves():
    st = position({"e1": "K", "e8": "k", "a2": "P"}, active=0)
    assert ("pass",) in st.legal_actions()
    st.apply(mv("a2", "a3"))
    assert st.phase == "opp2" and not any(a[0] == "move" for a in st.legal_actions())


def test_squares_round_trip():
    assert [B.square_name(B.parse_square(n)) for n in ("a1", "h8", "e4")] == ["a1", "h8", "e4"]
    assert B.direction(sq("a1"), sq("c3")) == 4 and B.direction(sq("a1"), sq("b3")) is None


@settings(max_examples=150, deadline=None)
@given(seed=hs.integers(0, 10**9), kind=hs.sampled_from("PNBRQK"), limit=hs.sampled_from([1, 2, 7]))
def test_threatens_agrees_with_threats(seed, kind, limit):
    """The fast single-square test used by the heuristic gives exactly the squares of threats()."""
    rng = Rng(seed)
    density = 1 + rng.below(6)  # from a crowded board to an almost empty one
    board = [100 + s if rng.below(density) == 0 else None for s in range(64)]
    sq_ = rng.below(64)
    board[sq_] = None
    for seat in (0, 1):
        squares = set(B.threats(board, kind, sq_, seat, limit))
        assert {t for t in range(64) if B.threatens(board, kind, sq_, seat, t, limit)} == squares
