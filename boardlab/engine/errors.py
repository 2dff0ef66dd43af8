"""The boardlab error hierarchy.

Every error the engine raises on bad input derives from :class:`BoardlabError`
(itself a :class:`ValueError`), so callers can catch one type.  Messages say
what was wrong and what is allowed.
"""

from __future__ import annotations


class BoardlabError(ValueError):
    """Root of all boardlab errors caused by bad input."""


class UnknownGameError(BoardlabError):
    """No game is registered under the requested name."""


class UnknownVariantError(BoardlabError):
    """The game has no variant with the requested name."""


class InvalidOptionError(BoardlabError):
    """An option name, value or player count is not allowed."""


class IllegalActionError(BoardlabError):
    """The action is not legal in the current state; the state is unchanged."""


class GameOverError(IllegalActionError):
    """An action was applied to a finished game."""


class ContentError(BoardlabError):
    """A data file (map, deck, card list, variant file) is malformed."""


class SaveFileError(BoardlabError):
    """A saved game or state JSON document is malformed or inconsistent."""


class UnknownAgentError(BoardlabError):
    """No agent is registered under the requested name, or its parameters are bad."""
