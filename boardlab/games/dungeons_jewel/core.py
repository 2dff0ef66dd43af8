"""The Python side of the compiled core for The Dungeon's Jewel (issue 43).

:func:`core_spec` turns a configured :class:`~.game.DungeonsJewel` into the JSON
document ``boardlab_core`` builds the same game from: the configuration, every
option value the rules read, and the content and board tables as the Python
game built them (so edited content plays in the core too).  A configuration the
core cannot reproduce exactly raises :class:`ValueError` with a one-line reason;
the engine then keeps the Python rules, which stay the reference.

>>> from boardlab.engine import make
>>> import json
>>> doc = json.loads(core_spec(make("dungeons-jewel", players=2)))
>>> doc["players"], doc["board"]["starts"]
(2, [0, 48])
"""

from __future__ import annotations

import json
import sys
from typing import Any

#: The parts of the Python implementation the core reproduces; a game that replaces one
#: (a subclass, another state class) is refused rather than played differently.
_RULE_STATS_TAIL = 12


#: The rule counters the core keeps, in its order (game.py's ``RULE_STATS`` must end the game's stat keys
#: exactly so; this module does not import game.py, which imports it).
RULE_STATS = (
    "attack:won_as_attacker", "attack:won_as_defender", "attack:tie",
    "dragon:fight", "dragon:won",
    "rule:item_used", "rule:respawn", "rule:trapdoor_home", "rule:jewel_dropped",
    "rule:jewel_taken", "rule:item_stolen", "rule:no_loot_left",
)
_HOME = "boardlab.games.dungeons_jewel.game"


def _check_supported(game: Any) -> None:
    from .agents import HeuristicAgent

    cls = type(game)
    if (cls.__module__, cls.__qualname__) != (_HOME, "DungeonsJewel"):
        raise ValueError(f"the core plays the built-in Dungeon's Jewel, not {cls.__name__}")
    st = game.state_class
    if (st.__module__, st.__qualname__) != (_HOME, "DungeonState"):
        raise ValueError("the core plays only the built-in DungeonState rules")
    if game.agents.get("heuristic") != "boardlab.games.dungeons_jewel.agents:HeuristicAgent":
        raise ValueError("the core's heuristic agent is the built-in one; this game names another")
    if set(HeuristicAgent.defaults) != {"strength", "caution", "patience"}:
        raise ValueError("the heuristic agent's parameters are not the ones the core knows")
    if not 2 <= game.players <= 4:
        raise ValueError(f"the core plays 2-4 players, not {game.players}")
    if tuple(game.stat_keys[-len(RULE_STATS):]) != RULE_STATS or len(RULE_STATS) != _RULE_STATS_TAIL:
        raise ValueError("the game's stat keys are not the ones the core counts")
    for key, value in game.playout_variety.items():
        if key not in HeuristicAgent.defaults or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
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
    """The JSON the core needs to build ``game`` (a configured Dungeon's Jewel), or ``ValueError``."""
    from .agents import HeuristicAgent

    _check_supported(game)
    content = game.content
    b = game.board
    for name, value in (("die", game.opt_die), ("hazard_target", game.opt_hazard), ("monster_target", game.opt_monster),
                        ("dragon_target", game.opt_dragon), ("start_health", game.opt_start_health),
                        ("respawn_health", game.opt_respawn_health)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"the core needs an integer {name}, got {value!r}")
    for key, value in HeuristicAgent.defaults.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"the core needs a number for the heuristic's {key}")
    roles = list(game.new_state(0).roles()) if game.players else []
    doc = {
        "game": game.id,
        "config": game.config(),
        "variant": game.variant,
        "players": game.players,
        "max_turns": game.max_turns,
        "die": game.opt_die,
        "hazard_target": game.opt_hazard,
        "monster_target": game.opt_monster,
        "dragon_target": game.opt_dragon,
        "start_health": game.opt_start_health,
        "respawn_health": game.opt_respawn_health,
        "fight_steal": bool(game.opt_steal),
        "exit_any": bool(game.opt_exit_any),
        "exit_next_turn": bool(game.opt_exit_next_turn),
        "tokens": [{"id": t.id, "name": t.name, "type": t.type, "count": t.count} for t in content.tokens],
        "items": [{"id": i.id, "name": i.name, "effect": i.effect, "hazard": i.hazard, "count": i.count}
                  for i in content.items],
        "token_pile": content.token_pile(),
        "treasure_deck": content.treasure_deck(),
        "cure": [[hazard, item] for hazard, item in game.cure.items()],
        "attack_items": sorted(game.attack_items),
        "wall_item": game.wall_item if game.wall_item in game.item_name else None,
        "board": {
            "size": b.size,
            "cells": b.cells,
            "centre": b.centre,
            "starts": list(b.starts),
            "corners": list(b.corners),
            "sides": [[list(p) for p in row] for row in b.sides],
            "around": list(b.around),
            "labels": list(b.labels),
        },
        "seat_names": [game.seat_name(s) for s in range(game.players)],
        "roles": roles,
        "stat_keys": list(game.stat_keys),
        "heuristic": dict(HeuristicAgent.defaults),
        "playout_variety": {k: list(v) for k, v in sorted(game.playout_variety.items())},
        "dragon_chance": list(game.dragon_chance),
        "evaluation": _evaluation(game),
    }
    return json.dumps(doc, sort_keys=True)
