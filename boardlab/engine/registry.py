"""The game registry: list games and make one by name.

Built-in games are listed in :data:`BUILTIN` as import paths (so importing
the registry imports no game: the engine never imports a game module, it
only names them).  Third-party packages may add
games through the ``boardlab.games`` entry-point group.

>>> from boardlab.engine import registry
>>> "dungeons-jewel" in registry.game_ids()
True
"""

from __future__ import annotations

import importlib
from importlib import metadata
from typing import Any, Mapping

from .errors import UnknownGameError
from .game import Game

#: The built-in games: id -> ``"module:Class"``.
BUILTIN: dict[str, str] = {
    "armies": "boardlab.games.armies.game:ArmiesGame",
    "blackfire": "boardlab.games.blackfire.game:BlackfireGame",
    "dungeons-jewel": "boardlab.games.dungeons_jewel.game:DungeonsJewel",
    "summoners-quest": "boardlab.games.summoners_quest.game:SummonersQuestGame",
    "wizards-labyrinth": "boardlab.games.wizards_labyrinth.game:WizardsLabyrinthGame",
}

_extra: dict[str, str | type[Game]] = {}
_cache: dict[str, type[Game]] = {}


def register(game_id: str, target: str | type[Game]) -> None:
    """Register a game class (or an ``"module:Class"`` import path) under ``game_id``."""
    _extra[game_id] = target
    _cache.pop(game_id, None)


def _table() -> dict[str, str | type[Game]]:
    table: dict[str, str | type[Game]] = dict(BUILTIN)
    try:
        for ep in metadata.entry_points(group="boardlab.games"):
            table.setdefault(ep.name, ep.value)
    except Exception:  # pragma: no cover - broken third-party metadata
        pass
    table.update(_extra)
    return table


def game_ids() -> list[str]:
    """Ids of every registered game, sorted."""
    return sorted(_table())


def game_class(game_id: str) -> type[Game]:
    """The class of a registered game.  Raises :class:`UnknownGameError`."""
    cls = _cache.get(game_id)
    if cls is not None:
        return cls
    table = _table()
    target = table.get(game_id) if isinstance(game_id, str) else None
    if target is None:
        raise UnknownGameError(f"unknown game {game_id!r} (games: {', '.join(sorted(table))})")
    if isinstance(target, str):
        module, _, attr = target.partition(":")
        cls = getattr(importlib.import_module(module), attr)
    else:
        cls = target
    _cache[game_id] = cls
    return cls


def list_games() -> list[type[Game]]:
    """Every registered game class, by id."""
    return [game_class(g) for g in game_ids()]


def make(
    game_id: str,
    players: int | None = None,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> Game:
    """Make a configured game by name.

    Raises :class:`UnknownGameError`, :class:`UnknownVariantError` or
    :class:`InvalidOptionError` with a message naming what is allowed.
    """
    return game_class(game_id)(players=players, variant=variant, options=options)
