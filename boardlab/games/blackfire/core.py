"""The Python side of the compiled core for Blackfire (issue 43).

:func:`core_spec` turns a configured :class:`~.game.BlackfireGame` into the JSON
document ``boardlab_core`` builds the same game from: the configuration, every
option value the rules read, the castle tables as the Python game built them
(squares, neighbours, walking distances, special squares) and the token counts
after content edits, so an edited castle or token file plays in the core too.  A
configuration the core cannot reproduce exactly raises :class:`ValueError` with
a one-line reason; the engine then keeps the Python rules, which stay the reference.

>>> from boardlab.engine import make
>>> import json
>>> doc = json.loads(core_spec(make("blackfire")))
>>> doc["options"]["sorcerer_move"], len(doc["castle"]["red_starts"])
(2, 4)
"""

from __future__ import annotations

import json
from typing import Any

_HOME = "boardlab.games.blackfire.game"
#: The option values the core reads (every option of the game but the content files, which it
#: receives as tables).
_INT_OPTIONS = ("tokens_per_player", "sorcerer_move", "archer_move", "warrior_move", "archer_range",
                "contest_target", "speed_bonus", "invulnerable_turns", "teleport_range", "respawn_turns",
                "push_radius")
_BOOL_OPTIONS = ("archer_offense", "archer_contest", "teleport_table", "respawn", "sorcerer_kill_wins")
_KNOWN_OPTIONS = {"map", "tokens", "token_set", "colours", "max_turns", *_INT_OPTIONS, *_BOOL_OPTIONS}
#: The heuristic's parameters the core knows (``agents.HeuristicAgent.defaults``).
_HEURISTIC = ("noise", "persona", "progress", "danger", "kill", "hunt", "token", "stay")
_MAX_SQUARES = 1024


def _check_supported(game: Any) -> None:
    from .agents import PERSONA_STYLE, HeuristicAgent
    from .content import TOKEN_KINDS
    from .pieces import STAT_KEYS

    cls = type(game)
    if (cls.__module__, cls.__qualname__) != (_HOME, "BlackfireGame"):
        raise ValueError(f"the core plays the built-in Blackfire, not {cls.__name__}")
    st = game.state_class
    if (st.__module__, st.__qualname__) != (_HOME, "BlackfireState"):
        raise ValueError("the core plays only the built-in BlackfireState rules")
    if game.agents.get("heuristic") != "boardlab.games.blackfire.agents:HeuristicAgent":
        raise ValueError("the core's heuristic agent is the built-in one; this game names another")
    if tuple(HeuristicAgent.defaults) != _HEURISTIC:
        raise ValueError("the heuristic agent's parameters are not the ones the core knows")
    if set(PERSONA_STYLE) != {"", "runner", "hunter", "cautious", "collector", "camper"}:
        raise ValueError("the heuristic's personas are not the ones the core knows")
    if game.players != 2:
        raise ValueError(f"Blackfire has 2 players, not {game.players}")
    unknown = set(game.opt) - _KNOWN_OPTIONS
    if unknown:
        raise ValueError(f"the core does not know the option {sorted(unknown)[0]!r}")
    if len(STAT_KEYS) != 24 or tuple(STAT_KEYS[:8]) != tuple(f"token:{k}" for k in TOKEN_KINDS):
        raise ValueError("the game's stat keys are not the ones the core counts")
    if game.castle.width * game.castle.height > _MAX_SQUARES:
        raise ValueError(f"the core plays castles of up to {_MAX_SQUARES} squares")
    for key in game.playout_variety:
        if key not in HeuristicAgent.WEIGHTS and key not in ("noise", "stay"):
            raise ValueError(f"the core cannot vary the heuristic's {key!r} in playouts")


def _evaluation(game: Any) -> dict[str, Any] | None:
    fitted = game.fitted_evaluation()
    if fitted is None:
        return None
    by_role = fitted.models_for(game.players)
    return {
        "fallback": next(iter(by_role)),
        "models": {role: {"bias": b, "own": [list(p) for p in own], "rival": [list(p) for p in rival]}
                   for role, (b, own, rival) in by_role.items()},
    }


def core_spec(game: Any) -> str:
    """The JSON the core needs to build ``game`` (a configured Blackfire), or ``ValueError``."""
    from .agents import HeuristicAgent
    from .pieces import STAT_KEYS

    _check_supported(game)
    opt = game.opt
    options: dict[str, Any] = {"colours": opt["colours"]}
    for name in _INT_OPTIONS:
        value = opt[name]
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"the core needs an integer {name}, got {value!r}")
        options[name] = value
    for name in _BOOL_OPTIONS:
        options[name] = bool(opt[name])
    for key, value in HeuristicAgent.defaults.items():
        if key != "persona" and (isinstance(value, bool) or not isinstance(value, (int, float))):
            raise ValueError(f"the core needs a number for the heuristic's {key}")
    c = game.castle
    doc = {
        "game": game.id,
        "config": game.config(),
        "variant": game.variant,
        "players": game.players,
        "max_turns": game.max_turns,
        "options": options,
        "castle": {
            "width": c.width,
            "height": c.height,
            "chars": "".join(c.chars),
            "cells": list(c.cells),
            "placeable": list(c.placeable),
            "nbrs": [list(row) for row in c.grid._nbrs],
            "dist": c.dist,
            "green_start": c.green_start,
            "red_starts": list(c.red_starts),
            "exits": list(c.exits),
            "treasure": list(c.treasure),
        },
        "token_counts": [[k, n] for k, n in game.token_counts.items()],
        "stat_keys": list(STAT_KEYS),
        "seat_names": game.seat_names(),
        "heuristic": dict(HeuristicAgent.defaults),
        "playout_variety": {k: list(v) for k, v in sorted(game.playout_variety.items())},
        "evaluation": _evaluation(game),
    }
    return json.dumps(doc, sort_keys=True)
