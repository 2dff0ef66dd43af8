"""Chessboard geometry for Armies: squares, precomputed rays, moves and threats.

Squares are numbered like python-chess: ``sq = rank * 8 + file`` with a1 = 0,
h1 = 7, a8 = 56, h8 = 63.  White (seat 0) starts on ranks 1-2 and its pawns
move towards rank 8.  Tables are built once at import.

These functions read a state's ``board`` (64 entries: army id or ``None``) and
``armies`` (id -> :class:`~boardlab.games.armies.rules.Army`).  The rules
(who may attack, weather, Double March) are passed in as plain arguments so
this module stays pure geometry.
"""

from __future__ import annotations

FILES = "abcdefgh"
#: Direction vectors (file step, rank step): 0-3 orthogonal, 4-7 diagonal.
DIRS = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1))
ROOK_DIRS = (0, 1, 2, 3)
BISHOP_DIRS = (4, 5, 6, 7)
QUEEN_DIRS = (0, 1, 2, 3, 4, 5, 6, 7)
LINE_DIRS = {"R": ROOK_DIRS, "B": BISHOP_DIRS, "Q": QUEEN_DIRS, "K": QUEEN_DIRS}
BACK_RANK = "RNBQKBNR"
PIECE_NAMES = {"P": "pawn", "N": "knight", "B": "bishop", "R": "rook", "Q": "queen", "K": "General"}
PROMOTIONS = ("q", "r", "b", "n")


def square_name(sq: int) -> str:
    """``square_name(12) == "e2"``."""
    return FILES[sq & 7] + str((sq >> 3) + 1)


def parse_square(text: str) -> int:
    """``parse_square("e2") == 12``."""
    return (int(text[1]) - 1) * 8 + FILES.index(text[0])


def _on(f: int, r: int) -> bool:
    return 0 <= f < 8 and 0 <= r < 8


def _build():
    rays = []
    knight = []
    king = []
    for sq in range(64):
        f, r = sq & 7, sq >> 3
        per = []
        for df, dr in DIRS:
            line = []
            nf, nr = f + df, r + dr
            while _on(nf, nr):
                line.append(nr * 8 + nf)
                nf += df
                nr += dr
            per.append(tuple(line))
        rays.append(tuple(per))
        knight.append(tuple(
            (r + dr) * 8 + f + df
            for df, dr in ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
            if _on(f + df, r + dr)
        ))
        king.append(tuple(line[0] for line in per if line))
    return tuple(rays), tuple(knight), tuple(king)


#: ``RAYS[sq][d]``: the squares from ``sq`` outwards in direction ``d``.
#: ``KNIGHT[sq]``/``KING[sq]``: knight and king steps.
RAYS, KNIGHT, KING = _build()
#: ``DISTANCE[a][b]``: king steps between two squares, ``max(|file difference|, |rank difference|)``.
DISTANCE = tuple(tuple(max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3))) for b in range(64)) for a in range(64))


def direction(a: int, b: int) -> int | None:
    """Index into :data:`DIRS` of the straight line from ``a`` to ``b`` (``None`` if not on a line)."""
    df = (b & 7) - (a & 7)
    dr = (b >> 3) - (a >> 3)
    if df == 0 and dr == 0:
        return None
    if df != 0 and dr != 0 and abs(df) != abs(dr):
        return None
    step = ((df > 0) - (df < 0), (dr > 0) - (dr < 0))
    return DIRS.index(step)


def pawn_step(seat: int) -> int:
    return 8 if seat == 0 else -8


def _pawn_attacks(sq: int, seat: int) -> tuple[int, ...]:
    f, r = sq & 7, sq >> 3
    nr = r + (1 if seat == 0 else -1)
    if not 0 <= nr < 8:
        return ()
    return tuple(nr * 8 + nf for nf in (f - 1, f + 1) if 0 <= nf < 8)


#: ``PAWN_ATTACKS[seat][sq]``: see :func:`pawn_attacks`.
PAWN_ATTACKS = tuple(tuple(_pawn_attacks(sq, seat) for sq in range(64)) for seat in (0, 1))


def pawn_attacks(sq: int, seat: int) -> tuple[int, ...]:
    """The two squares diagonally in front of a pawn (what it threatens)."""
    return PAWN_ATTACKS[seat][sq]


def threats(board: list, kind: str, sq: int, seat: int, limit: int = 7) -> list[int]:
    """Squares a piece threatens for playing cards (its own square excluded).

    Pawns threaten diagonally forward, knights their jumps, line pieces along
    their lines up to and including the first occupied square.  The General
    threatens like a queen.  ``limit`` caps line range (Unseasonable Weather).
    """
    if kind == "P":
        return list(PAWN_ATTACKS[seat][sq])
    if kind == "N":
        return list(KNIGHT[sq])
    out = []
    rays = RAYS[sq]
    for d in LINE_DIRS[kind]:
        for t in rays[d] if limit >= 7 else rays[d][:limit]:  # (no ray is longer than 7)
            out.append(t)
            if board[t] is not None:
                break
    return out


def threatens(board: list, kind: str, sq: int, seat: int, target: int, limit: int = 7) -> bool:
    """``target in threats(board, kind, sq, seat, limit)``, without building the list (a search hot path)."""
    if kind == "P":
        return target in PAWN_ATTACKS[seat][sq]
    if kind == "N":
        return target in KNIGHT[sq]
    d = direction(sq, target)
    if d is None or d not in LINE_DIRS[kind]:
        return False
    dist = DISTANCE[sq][target]
    if dist > limit:
        return False
    ray = RAYS[sq][d]
    for i in range(dist - 1):  # the squares strictly between must be empty
        if board[ray[i]] is not None:
            return False
    return True


def initial_layout() -> list[tuple[int, str, int]]:
    """``(seat, kind, square)`` for the 32 pieces of the chess setup."""
    out = []
    for f, kind in enumerate(BACK_RANK):
        out.append((0, kind, f))
        out.append((0, "P", 8 + f))
    for f, kind in enumerate(BACK_RANK):
        out.append((1, "P", 48 + f))
        out.append((1, kind, 56 + f))
    return out
