"""Reusable game components: dice, decks, grids with walls, face-down tokens.

Components hold plain data so states can clone and serialise them cheaply.
Randomness always comes from the caller's :class:`~boardlab.engine.rng.Rng`
(the state's), never from a global generator.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator, Sequence

from .codec import record
from .errors import ContentError
from .rng import Rng


# -- dice -----------------------------------------------------------------
def roll(rng: Rng, sides: int = 6, count: int = 1) -> list[int]:
    """Roll ``count`` dice with ``sides`` faces each."""
    return [rng.below(sides) + 1 for _ in range(count)]


def dice_distribution(sides: int, count: int = 1) -> dict[int, float]:
    """Exact distribution of the sum of ``count`` dice with ``sides`` faces.

    >>> round(dice_distribution(6, 2)[7], 4)
    0.1667
    """
    dist = {0: 1.0}
    for _ in range(count):
        nxt: dict[int, float] = {}
        for total, p in dist.items():
            for face in range(1, sides + 1):
                nxt[total + face] = nxt.get(total + face, 0.0) + p / sides
        dist = nxt
    return dist


# -- decks ----------------------------------------------------------------
@record
class Deck:
    """A deck with a draw pile, a discard pile and a removed pile.

    The top of the draw pile is the *end* of ``draw_pile``.  When the draw
    pile is empty and ``reshuffle`` is true, drawing shuffles the discard pile
    back in (with the state's RNG).  Cards are any immutable values (usually
    ``str`` ids).

    >>> d = Deck(["a", "b", "c"]); r = Rng(1); d.shuffle(r)
    >>> len(d), d.draw(r) in "abc"
    (3, True)
    """

    __slots__ = ("draw_pile", "discard_pile", "removed", "reshuffle")

    def __init__(self, cards: Iterable[Any] = (), reshuffle: bool = True) -> None:
        self.draw_pile: list[Any] = list(cards)
        self.discard_pile: list[Any] = []
        self.removed: list[Any] = []
        self.reshuffle = reshuffle

    def __len__(self) -> int:
        return len(self.draw_pile)

    def shuffle(self, rng: Rng) -> None:
        rng.shuffle(self.draw_pile)

    def can_draw(self) -> bool:
        return bool(self.draw_pile) or (self.reshuffle and bool(self.discard_pile))

    def draw(self, rng: Rng) -> Any | None:
        """Draw the top card, reshuffling the discards in if needed; ``None`` if nothing is left."""
        if not self.draw_pile:
            if not (self.reshuffle and self.discard_pile):
                return None
            self.draw_pile = self.discard_pile
            self.discard_pile = []
            rng.shuffle(self.draw_pile)
        return self.draw_pile.pop()

    def draw_many(self, rng: Rng, n: int) -> list[Any]:
        out = []
        for _ in range(n):
            c = self.draw(rng)
            if c is None:
                break
            out.append(c)
        return out

    def discard(self, card: Any) -> None:
        self.discard_pile.append(card)

    def remove(self, card: Any) -> None:
        """Put a card in the removed pile (out of the game)."""
        self.removed.append(card)

    def put_bottom(self, card: Any) -> None:
        self.draw_pile.insert(0, card)

    def hidden_shuffle(self, rng: Rng) -> None:
        """Reshuffle the unseen draw pile (for determinization)."""
        rng.shuffle(self.draw_pile)

    def copy(self) -> "Deck":
        """An independent copy (fast path for a game's ``_copy_fields``)."""
        new = Deck.__new__(Deck)
        new.draw_pile = self.draw_pile[:]
        new.discard_pile = self.discard_pile[:]
        new.removed = self.removed[:]
        new.reshuffle = self.reshuffle
        return new

    def __repr__(self) -> str:
        return f"Deck(draw={len(self.draw_pile)}, discard={len(self.discard_pile)}, removed={len(self.removed)})"


# -- grids ----------------------------------------------------------------
Cell = tuple[int, int]
DIRECTIONS: dict[str, tuple[int, int]] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


class Grid:
    """A static square grid (``x`` right, ``y`` down) with walls and blocked cells.

    Cells are indexed ``i = y * width + x`` for speed; :meth:`neighbours`
    returns precomputed orthogonal neighbour indexes that no wall separates.
    Walls are stored as frozensets of two cell indexes.  A grid is immutable
    after construction; dynamic walls (placed during play) live in the state
    and are passed to :meth:`open_neighbours`.

    >>> g = Grid(3, 3, walls=[((0, 0), (1, 0))])
    >>> sorted(g.neighbours(g.index(0, 0)))
    [3]
    """

    __slots__ = ("width", "height", "blocked", "walls", "_nbrs")

    def __init__(
        self,
        width: int,
        height: int,
        walls: Iterable[tuple[Cell, Cell]] = (),
        blocked: Iterable[Cell] = (),
    ) -> None:
        if width <= 0 or height <= 0:
            raise ContentError(f"grid size must be positive, got {width}x{height}")
        self.width = width
        self.height = height
        self.blocked = frozenset(self.index(*c) for c in blocked)
        wall_set = set()
        for a, b in walls:
            ia, ib = self.index(*a), self.index(*b)
            if ib not in self._raw_neighbours(ia):
                raise ContentError(f"a wall must separate orthogonally adjacent cells, got {a} and {b}")
            wall_set.add(frozenset((ia, ib)))
        self.walls = frozenset(wall_set)
        self._nbrs: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                j
                for j in self._raw_neighbours(i)
                if j not in self.blocked and frozenset((i, j)) not in self.walls
            )
            if i not in self.blocked
            else ()
            for i in range(width * height)
        )

    def index(self, x: int, y: int) -> int:
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise ContentError(f"cell ({x}, {y}) is outside the {self.width}x{self.height} grid")
        return y * self.width + x

    def xy(self, i: int) -> Cell:
        return (i % self.width, i // self.width)

    def in_bounds(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height

    def _raw_neighbours(self, i: int) -> list[int]:
        x, y = i % self.width, i // self.width
        out = []
        for dx, dy in DIRECTIONS.values():
            nx, ny = x + dx, y + dy
            if 0 <= nx < self.width and 0 <= ny < self.height:
                out.append(ny * self.width + nx)
        return out

    def adjacent(self, i: int) -> list[int]:
        """All orthogonal neighbours in bounds, ignoring walls and blocks."""
        return self._raw_neighbours(i)

    def neighbours(self, i: int) -> tuple[int, ...]:
        """Orthogonal neighbours reachable from cell ``i`` (no wall, not blocked)."""
        return self._nbrs[i]

    def open_neighbours(self, i: int, extra_walls: "set[frozenset[int]] | frozenset[frozenset[int]]") -> list[int]:
        """Like :meth:`neighbours` but also honouring walls placed during play."""
        return [j for j in self._nbrs[i] if frozenset((i, j)) not in extra_walls]

    def cells(self) -> Iterator[int]:
        return (i for i in range(self.width * self.height) if i not in self.blocked)

    def distances(self, start: int, extra_walls: Any = frozenset(), passable: Any = None) -> dict[int, int]:
        """Breadth-first step distances from ``start`` (walls and blocked cells respected)."""
        dist = {start: 0}
        frontier = [start]
        while frontier:
            nxt = []
            for i in frontier:
                for j in self._nbrs[i]:
                    if j in dist or (extra_walls and frozenset((i, j)) in extra_walls):
                        continue
                    if passable is not None and not passable(j):
                        continue
                    dist[j] = dist[i] + 1
                    nxt.append(j)
            frontier = nxt
        return dist

    def connected(self, start: int, goals: Sequence[int], extra_walls: Any = frozenset(), passable: Any = None) -> bool:
        """Can every cell in ``goals`` be reached from ``start``?"""
        reach = self.distances(start, extra_walls, passable)
        return all(g in reach for g in goals)

    def direction(self, a: int, b: int) -> str:
        """Compass side of ``a`` on which the adjacent cell ``b`` lies."""
        ax, ay = self.xy(a)
        bx, by = self.xy(b)
        for name, (dx, dy) in DIRECTIONS.items():
            if (ax + dx, ay + dy) == (bx, by):
                return name
        raise ValueError(f"cells {a} and {b} are not adjacent")


# -- face-down tokens ------------------------------------------------------
@record
class Token:
    """A token that may lie face down.

    ``known_by`` is a bitmask of seats that know its face while it is face
    down (seat *s* is bit ``1 << s``); ``face_up`` tokens are public.  Views
    must show :meth:`face_for` rather than ``kind``.

    >>> t = Token("pit"); t.reveal_to(1)
    >>> t.face_for(0), t.face_for(1), t.face_for(None)
    (None, 'pit', None)
    """

    __slots__ = ("kind", "face_up", "known_by")

    def __init__(self, kind: str, face_up: bool = False, known_by: int = 0) -> None:
        self.kind = kind
        self.face_up = face_up
        self.known_by = known_by

    def reveal_to(self, seat: int) -> None:
        self.known_by |= 1 << seat

    def copy(self) -> "Token":
        """An independent copy (fast path for a game's ``_copy_fields``)."""
        new = Token.__new__(Token)
        new.kind, new.face_up, new.known_by = self.kind, self.face_up, self.known_by
        return new

    def flip_up(self) -> None:
        self.face_up = True

    def known_to(self, seat: int | None) -> bool:
        return self.face_up or (seat is not None and bool(self.known_by >> seat & 1))

    def face_for(self, seat: int | None) -> str | None:
        """The token's kind if ``seat`` may know it, else ``None`` (face down)."""
        return self.kind if self.known_to(seat) else None

    def __repr__(self) -> str:
        return f"Token({self.kind!r}, face_up={self.face_up}, known_by={self.known_by})"


def hidden_pool_resample(rng: Rng, tokens: Sequence[Token], seat: int, pool: list[str]) -> None:
    """Determinization helper: give every token ``seat`` does not know a kind drawn from ``pool``.

    ``pool`` is the multiset of kinds that ``seat`` cannot place (all kinds
    minus the ones it knows).  The tokens and the pool are re-matched at
    random; the pool must have at least as many kinds as unknown tokens.
    """
    unknown = [t for t in tokens if not t.known_to(seat)]
    kinds = list(pool)
    rng.shuffle(kinds)
    if len(kinds) < len(unknown):
        raise ValueError("hidden pool smaller than the number of unknown tokens")
    for t, k in zip(unknown, kinds):
        t.kind = k
