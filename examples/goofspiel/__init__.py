"""Goofspiel: the worked example of docs/architecture.md, "How to add a game".

A complete out-of-tree game: 2 players, secret simultaneous bids, one prize per
round.  ``examples/`` is not on ``sys.path``; put it there (or install the
package) and register the game before you make it::

    import sys; sys.path.insert(0, "examples")
    import goofspiel
    goofspiel.register()                  # registry.register("goofspiel", GoofspielGame)
    game = boardlab.make("goofspiel")

``tests/test_worked_example.py`` does exactly this and runs the shared
conformance and indistinguishability checks over every decision.
"""

from __future__ import annotations


def register() -> None:
    """Add Goofspiel to the registry of this process (idempotent)."""
    from boardlab.engine import registry

    from .game import GoofspielGame

    registry.register(GoofspielGame.id, GoofspielGame)
