"""Agents: the interface, baselines, and the registry that builds them from spec strings.

A spec is ``name`` or ``name:key=value:key=value``, for example ``random``,
``heuristic`` or ``ismcts:iterations=400``.  Game-neutral agents are listed
in :data:`AGENTS`; a game adds its own (``heuristic``, personas) through its
``Game.agents`` table, which takes precedence.
"""

from __future__ import annotations

import importlib
import math
from typing import TYPE_CHECKING, Any

from boardlab.engine.errors import UnknownAgentError

from .base import Agent, BaseAgent, Decision
from .simple import FirstAgent, RandomAgent

if TYPE_CHECKING:  # pragma: no cover
    from boardlab.engine.game import Game

#: Game-neutral agents: name -> class or ``"module:Class"``.
AGENTS: dict[str, Any] = {
    "random": RandomAgent,
    "first": FirstAgent,
    "ismcts": "boardlab.agents.mcts:ISMCTSAgent",
    "core-ismcts": "boardlab.agents.core_agent:CoreISMCTSAgent",  # the compiled core's ISMCTS (issue 43)
    "mcts": "boardlab.agents.mcts:MCTSAgent",
    "omniscient-mcts": "boardlab.agents.mcts:OmniscientMCTSAgent",
    "persona": "boardlab.agents.persona:PersonaAgent",
    "easy": "boardlab.agents.levels:EasyAgent",
    "medium": "boardlab.agents.levels:MediumAgent",
    "hard": "boardlab.agents.levels:HardAgent",
    "strong": "boardlab.agents.levels:StrongAgent",
    "policy": "boardlab.agents.policy:PolicyAgent",
}


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``"name:k=v:k2=v2"`` into a name and typed parameters (int, float, bool or str)."""
    if not isinstance(spec, str) or not spec.strip():
        raise UnknownAgentError("an agent spec must be a non-empty string such as 'random' or 'ismcts:iterations=400'")
    name, *parts = spec.strip().split(":")
    params: dict[str, Any] = {}
    if name == "persona" and parts and "=" not in parts[0]:
        params["name"] = parts.pop(0)  # persona:aggressive
    for part in parts:
        key, sep, raw = part.partition("=")
        if not sep or not key:
            raise UnknownAgentError(f"agent parameter {part!r} in {spec!r} must look like key=value")
        if key in params:
            raise UnknownAgentError(f"agent parameter {key!r} is given twice in {spec!r}")
        value = _typed(raw)
        if isinstance(value, float) and not math.isfinite(value):
            raise UnknownAgentError(f"agent parameter {key}={raw} in {spec!r} is not a finite number")
        params[key] = value
    return name, params


def _typed(raw: str) -> Any:
    low = raw.lower()
    if low in ("true", "false"):
        return low == "true"
    for conv in (int, float):
        try:
            return conv(raw)
        except ValueError:
            pass
    return raw


def available_agents(game: "Game | type[Game] | None" = None) -> list[str]:
    """Names of the agents usable for ``game`` (or the game-neutral ones)."""
    names = set(AGENTS)
    if game is not None:
        names |= set(getattr(game, "agents", {}))
    return sorted(names)


def menu_specs(game: "Game | type[Game]") -> list[str]:
    """Agent specs to offer a person choosing a bot (lobby, ``boardlab play``), best first.

    The levels come first, then the game's own agents, the search agents and
    ``random``, then one ``persona:<name>`` per persona of the game.  Test-only
    (``first``) and cheating baselines (``omniscient-mcts``) are left out;
    they stay usable by name.
    """
    own = [a for a in sorted(getattr(game, "agents", {})) if a not in AGENTS]
    out = ["easy", "medium", "hard", *own, "ismcts", "mcts", "random"]
    out += [f"persona:{p}" for p in sorted(getattr(game, "personas", {}) or {})]
    known = set(available_agents(game))
    return [s for s in out if s.split(":")[0] in known]


def _resolve(target: Any) -> Any:
    if isinstance(target, str):
        module, _, attr = target.partition(":")
        return getattr(importlib.import_module(module), attr)
    return target


def agent_class(name: str, game: "Game | type[Game] | None" = None) -> Any:
    table = dict(AGENTS)
    if game is not None:
        table.update(getattr(game, "agents", {}))
    if name not in table:
        raise UnknownAgentError(f"unknown agent {name!r} (agents: {', '.join(sorted(table))})")
    return _resolve(table[name])


def check_spec(spec: str, game: "Game | type[Game] | None" = None) -> None:
    """Raise :class:`UnknownAgentError` if ``spec`` names no agent of ``game``."""
    name, params = parse_spec(spec)
    cls = agent_class(name, game)
    check = getattr(cls, "check_params", None)
    if check is not None:  # agents may validate their parameters up front
        check(game, params)


def make_agent(spec: str, game: "Game", seat: int, seed: int = 0) -> Agent:
    """Build the agent named by ``spec`` for ``seat`` of ``game``, seeded with ``seed``."""
    name, params = parse_spec(spec)
    cls = agent_class(name, game)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.players:
        raise UnknownAgentError(f"seat must be 0..{game.players - 1} for {game.id}, got {seat!r}")
    try:
        agent = cls(game, seat, seed, **params)
    except TypeError as exc:
        raise UnknownAgentError(f"bad parameters for agent {name!r}: {exc}") from None
    agent.name = spec
    return agent


__all__ = [
    "AGENTS", "Agent", "BaseAgent", "Decision", "FirstAgent", "RandomAgent",
    "agent_class", "available_agents", "check_spec", "make_agent", "menu_specs", "parse_spec",
]


def _core_spec_of(game: Any, spec: str) -> str:
    """The concrete spec the compiled core plays for ``spec``: a level name becomes its search, and
    ``core-ismcts`` (the core's search on a Python-held position) the core's own ``ismcts``, so a lineup
    of them plays whole games in the core."""
    if isinstance(spec, str) and (spec == "core-ismcts" or spec.startswith("core-ismcts:")):
        return spec[len("core-"):]
    if not isinstance(spec, str) or ":" in spec or spec in (getattr(game, "agents", None) or {}):
        return spec
    from .levels import LEVELS, level_spec

    return level_spec(game, spec) if spec in LEVELS else spec


def _register_core_resolver() -> None:
    from boardlab.engine.core import set_spec_resolver

    set_spec_resolver(_core_spec_of)


_register_core_resolver()
