"""Small building blocks for a game's invariant hook (:meth:`Game.check_state`).

Each raises :class:`AssertionError` naming the field when the state breaks the
rule; :meth:`State.check_invariants` calls the game's hook, and the conformance
suite, ``scripts/fuzz.py`` and :meth:`State.from_json` call that.
"""

from __future__ import annotations

from typing import Any, Iterable


def one_of(state: Any, field: str, allowed: Iterable[Any]) -> None:
    """``state.<field>`` is one of ``allowed`` (compared with exact types)."""
    value = getattr(state, field)
    if not any(type(value) is type(a) and value == a for a in allowed):
        raise AssertionError(f"field {field!r} is {value!r}, not one of {sorted(map(repr, allowed))}")


def seat_or_none(state: Any, field: str) -> None:
    """``state.<field>`` is ``None`` or a seat of the game."""
    value = getattr(state, field)
    if value is not None and (type(value) is not int or not 0 <= value < state.game.players):
        raise AssertionError(f"field {field!r} is {value!r}, not a seat or None")
