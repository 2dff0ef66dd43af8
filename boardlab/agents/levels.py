"""Levels: ``easy``, ``medium``, ``hard`` and ``strong`` as concrete agent specs.

=========  =====================================================================
level      agent
=========  =====================================================================
easy       the game's ``heuristic`` agent, or ``ismcts:iterations=10`` if it has none
medium     ``ismcts:iterations=30:time=1``
hard       ``ismcts:iterations=300:time=1.8`` (the time cap keeps a human's wait under ~2 s)
strong     for the lab's verdicts: play at least as well as today's default ``ismcts``,
           as cheaply as the game allows.  The game-neutral spec is
           ``ismcts:iterations=200:stop=sure`` (the default's budget without its 2 s
           wall-clock cap, so results do not depend on the machine's load; ``stop=sure``
           ends a search once its choice can no longer change); a game whose cheaper
           spec was measured in the arena not to be weaker (docs/benchmarks.md,
           "Verdict speed") declares it in ``agent_levels["strong"]``
=========  =====================================================================

A game may override a level with a class attribute
``agent_levels = {"hard": "ismcts:iterations=300:rollout=heuristic"}``.
The names ``easy``, ``medium``, ``hard`` and ``strong`` are registered agents,
so a lobby or ``boardlab play --agents hard`` can offer them directly;
``strong`` is meant for the lab (``boardlab playtest GAME --agents strong``)
and has no time cap, so lobbies do not list it.

>>> from boardlab.engine.game import Game
>>> level_spec(Game, "medium")
'ismcts:iterations=30:time=1'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardlab.engine.errors import UnknownAgentError

from .base import BaseAgent, Decision

if TYPE_CHECKING:  # pragma: no cover
    from boardlab.engine.game import Game
    from boardlab.engine.state import Action

LEVELS = ("easy", "medium", "hard", "strong")

#: Game-neutral level specs (``{heuristic}`` is filled with the game's heuristic, if any).
DEFAULT_LEVELS: dict[str, str] = {
    "easy": "{heuristic}",
    "medium": "ismcts:iterations=30:time=1",
    "hard": "ismcts:iterations=300:time=1.8",
    "strong": "ismcts:iterations=200:stop=sure",
}


def level_spec(game: "Game | type[Game]", level: str) -> str:
    """The concrete agent spec playing ``level`` (``easy``/``medium``/``hard``/``strong``) in ``game``."""
    if level not in LEVELS:
        raise UnknownAgentError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
    override = (getattr(game, "agent_levels", None) or {}).get(level)
    if override:
        return str(override)
    spec = DEFAULT_LEVELS[level]
    if spec == "{heuristic}":
        return "heuristic" if "heuristic" in (getattr(game, "agents", None) or {}) else "ismcts:iterations=10"
    return spec


class LevelAgent(BaseAgent):
    """Plays as the agent :func:`level_spec` names for the game (subclasses fix the level)."""

    level = "medium"

    def __init__(self, game: "Game", seat: int, seed: int = 0, **params: Any) -> None:
        super().__init__(game, seat, seed, **params)
        from . import make_agent

        self.spec = level_spec(game, self.level)
        self.inner = make_agent(self.spec, game, seat, seed)
        self.omniscient = getattr(self.inner, "omniscient", False)

    @classmethod
    def check_params(cls, game: Any, params: dict[str, Any]) -> None:
        if params:
            raise UnknownAgentError(f"level {cls.level!r} takes no parameters (got {', '.join(sorted(params))})")

    def act(self, decision: Decision) -> "Action":
        return self.inner.act(decision)


class EasyAgent(LevelAgent):
    level = "easy"


class MediumAgent(LevelAgent):
    level = "medium"


class HardAgent(LevelAgent):
    level = "hard"


class StrongAgent(LevelAgent):
    level = "strong"
