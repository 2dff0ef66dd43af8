"""A small, fast, seedable random number generator kept inside the game state.

The generator is SplitMix64: its whole state is one 64-bit integer, so cloning
and JSON round-trips are trivial and exact.  All randomness in a game comes
from the :class:`Rng` held by its state, so a saved game resumes identically.

>>> r = Rng(42)
>>> [r.roll(6) for _ in range(5)]
[2, 2, 1, 1, 5]
>>> Rng(42).roll(6) == Rng(42).roll(6)
True
"""

from __future__ import annotations

from typing import MutableSequence, Sequence, TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_LIMITS: dict[int, int] = {}  # n -> rejection limit of below(n)


def mix64(x: int) -> int:
    """The SplitMix64 finaliser: a bijective scramble of a 64-bit integer."""
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def derive_seed(seed: int, *salt: int) -> int:
    """Derive an independent 63-bit seed from ``seed`` and integer ``salt`` values.

    Used to give game *i* of a run, or agent *k* of a game, its own stream.
    """
    x = seed & _MASK
    for s in salt:
        x = mix64((x + _GOLDEN * (s + 1)) & _MASK)
    return mix64(x) >> 1


class Rng:
    """SplitMix64 generator with the helpers games need (dice, shuffles, choices)."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def copy(self) -> "Rng":
        return Rng(self.state)

    def next64(self) -> int:
        """The next raw 64-bit output."""
        s = (self.state + _GOLDEN) & _MASK
        self.state = s
        s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & _MASK
        return s ^ (s >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (unbiased, by rejection)."""
        if n <= 0:
            raise ValueError(f"below() needs n >= 1, got {n}")
        limit = _LIMITS.get(n)
        if limit is None:
            limit = (1 << 64) - ((1 << 64) % n)
            if n < 4096:
                _LIMITS[n] = limit
        while True:
            # next64() inlined (this is the hot path of every die roll and random agent)
            s = (self.state + _GOLDEN) & _MASK
            self.state = s
            s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & _MASK
            x = s ^ (s >> 31)
            if x < limit:
                return x % n

    def roll(self, sides: int = 6) -> int:
        """Roll one die with ``sides`` faces: a uniform integer in 1..sides."""
        return self.below(sides) + 1

    def roll_many(self, count: int, sides: int = 6) -> list[int]:
        """Roll ``count`` dice with ``sides`` faces."""
        return [self.below(sides) + 1 for _ in range(count)]

    def random(self) -> float:
        """A uniform float in [0, 1)."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def choice(self, seq: Sequence[T]) -> T:
        """A uniformly chosen element of a non-empty sequence."""
        return seq[self.below(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Shuffle ``seq`` in place (Fisher-Yates)."""
        # below(i + 1) inlined: determinizations shuffle whole decks and piles on every search iteration
        state = self.state
        limits = _LIMITS
        for i in range(len(seq) - 1, 0, -1):
            n = i + 1
            limit = limits.get(n)
            if limit is None:
                limit = (1 << 64) - ((1 << 64) % n)
                if n < 4096:
                    limits[n] = limit
            while True:
                state = (state + _GOLDEN) & _MASK
                s = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & _MASK
                x = s ^ (s >> 31)
                if x < limit:
                    break
            j = x % n
            seq[i], seq[j] = seq[j], seq[i]
        self.state = state

    def __repr__(self) -> str:
        return f"Rng(state={self.state})"
