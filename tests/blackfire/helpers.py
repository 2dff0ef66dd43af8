"""Helpers that build explicit Blackfire positions for the scenario tests."""

from __future__ import annotations

from pathlib import Path

from boardlab.engine import make
from boardlab.engine.rng import Rng
from boardlab.games.blackfire.game import BlackfireState

FIELD = Path(__file__).with_name("field.txt")
UNITS = {"GS": 0, "GA": 1, "GW": 2, "RS": 3, "RA": 4, "RW": 5}


def field_state(variant: str = "final", seed: int = 0, **options) -> BlackfireState:
    """Green (seat 0) to move on the open test field, no tokens, exit #4 (10, 8) open, red start #1."""
    game = make("blackfire", variant=variant, options={"map": str(FIELD), "tokens_per_player": 0, "colours": "seat1-green", **options})
    st = game.new_state(seed)
    st.tokens = {}
    st.red_start = 0
    st.exit = 3
    st._legal = None
    return st


def sq(st: BlackfireState, x: int, y: int) -> int:
    return st.game.castle.index(x, y)


def place(st: BlackfireState, **where) -> None:
    """``place(st, GS=(1, 2), RA=None)`` puts units on squares (None: dead)."""
    for name, pos in where.items():
        u = st.units[UNITS[name]]
        u.cell = None if pos is None else sq(st, *pos)
    st._legal = None


def token(st: BlackfireState, x: int, y: int, kind: str) -> None:
    st.tokens[sq(st, x, y)] = kind
    st._legal = None


def rig(st: BlackfireState, *rolls: tuple[int, int]) -> None:
    """Make the next dice come up as ``rolls`` (pairs of sides, result)."""
    for seed in range(1, 1_000_000):
        r = Rng(seed)
        if all(r.roll(sides) == value for sides, value in rolls):
            st.rng = Rng(seed)
            return
    raise AssertionError("no seed found")


def moves(st: BlackfireState, unit: str) -> set[tuple[int, int]]:
    u = UNITS[unit]
    castle = st.game.castle
    return {castle.xy(a[2]) for a in st.legal_actions() if a[0] == "move" and a[1] == u}


def cell_of(st: BlackfireState, unit: str) -> tuple[int, int] | None:
    c = st.units[UNITS[unit]].cell
    return None if c is None else st.game.castle.xy(c)


def move(st: BlackfireState, unit: str, x: int, y: int) -> None:
    st.apply(("move", UNITS[unit], sq(st, x, y)))
