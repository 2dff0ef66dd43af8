"""Goofspiel's content: the cards, designed in code (no data file).

Each seat holds the cards ``1..cards`` of one suit and the prize deck is
``1..cards`` of another.  A game with shipped files would read and validate
them here (raising ``ContentError`` naming the file) from the path that
``Game.content_path(option)`` gives.
"""

from __future__ import annotations


def suit(cards: int) -> list[int]:
    """The card values of one suit, ``1..cards``, in order."""
    return list(range(1, cards + 1))
