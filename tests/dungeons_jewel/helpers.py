"""Building explicit Dungeon's Jewel positions for rule scenarios."""

from __future__ import annotations

from boardlab.engine import make

SIZE = 7


def cell(x: int, y: int) -> int:
    """The room at column ``x``, row ``y`` of the 7x7 board (0-based, y down)."""
    return y * SIZE + x


CENTRE = cell(3, 3)
STARTS = (cell(0, 0), cell(6, 0), cell(6, 6), cell(0, 6))


class Dice:
    """A scripted stand-in for the state's RNG: ``roll`` returns the given faces in order.

    A scenario that expects no die roll passes no faces, so an unexpected roll fails.
    """

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def roll(self, sides: int = 6) -> int:
        assert self.faces, "the rules rolled a die the scenario did not expect"
        face = self.faces.pop(0)
        assert 1 <= face <= sides
        return face

    def done(self) -> bool:
        return not self.faces

    # the rule properties re-roll a transition's dice from a copy of the generator before it
    @property
    def state(self) -> tuple[int, ...]:
        return tuple(self.faces)

    def copy(self) -> "Dice":
        return Dice(*self.faces)


def blank(players: int = 4, variant: str | None = None, **options):
    """A state on an empty dungeon: everyone on their start, seat 0 to move,
    no tokens on the board, empty piles (scenarios fill what they need)."""
    game = make("dungeons-jewel", players=players, variant=variant, options=options)
    s = game.new_state(0)
    n = game.board.cells
    s.tokens = [None] * n
    s.known = [0] * n
    s.walls = [0] * n
    s.facing = {}
    s.pile = []
    s.deck = []
    s.seat = 0
    s.first = 0
    s.stack = []
    s._legal = None
    return s


def put(state, at: int, kind: str, known: int = 0, face_up: bool = False) -> None:
    """Lay token ``kind`` on room ``at``, known to the seats in bitmask ``known``."""
    state.tokens[at] = kind
    state.known[at] = known | ((1 << 8) if face_up else 0)
    state._legal = None


def give(state, seat: int, *items: str) -> None:
    """Hand ``items`` to ``seat`` (attack items raise attack power)."""
    for item in items:
        state.items[seat].append(item)
        if item in state.game.attack_items:
            state.power[seat] += 1
    state._legal = None


def place(state, seat: int, at: int) -> None:
    state.pos[seat] = at
    state._legal = None


def moves(state) -> set[int]:
    return {a[1] for a in state.legal_actions() if a[0] == "move"}
