"""Agents of the compiled core deciding on a position held by the Python engine (issue 43).

The compiled core (``boardlab_core``, see :mod:`boardlab.engine.core`) plays whole games with its own
``random``, ``heuristic`` and ``ismcts`` agents.  :class:`CoreAgent` lets one of those agents decide
*one* decision of a game the Python engine is playing: the Python state is converted to a core state
(``State.to_json()`` read by ``boardlab_core.state_from_json``) and the core's agent answers with one of
the legal actions.  The core rebuilds positions of every game it plays (the Dungeon's Jewel and Blackfire;
:func:`_conversion_refused` asks the installed build, so an older one without a game's conversion keeps the
Python agents for that game).  That is what a mixed table needs (the core's search against Python's in the arena)
and what the web bots use when the core supports the match's configuration (:func:`agent_for`).

``core-ismcts`` (:class:`CoreISMCTSAgent`) is the core's ISMCTS under the registry: it takes exactly the
parameters of ``ismcts`` (``core-ismcts:iterations=200``) and is the same algorithm with the same
parameters; its floating-point sums and tree order are the core's, so its games may differ from Python's.
The core's ``random`` and ``heuristic`` choose exactly as Python's (``tests/core/test_core_agent.py``;
Blackfire's in ``tests/core/test_blackfire_from_json.py``).

What the agent sees.  The core is handed the *full* state, as the Python ISMCTS is (its
:meth:`Decision.sample` determinizes the true state).  That is sound for the same reason: the core's
ISMCTS never reads the true state's hidden parts, every iteration searches a determinization for the
agent's own seat (``State::determinize``: everything the seat has not seen is re-dealt), exactly like
:class:`~boardlab.agents.mcts.ISMCTSAgent`; the core's ``heuristic`` and ``random`` read only what
Python's read.  The conversion is an engine-layer detail, not a peek: an agent of this module is no
more omniscient than the Python agent of the same name (``omniscient`` stays False).

Seeding.  An agent is built with a seed and keeps one core agent for its life, so the same seed and the
same positions give the same choices (with an iteration budget; ``time`` budgets depend on the machine).

>>> from boardlab.engine import make
>>> from boardlab.agents import make_agent, Decision
>>> game = make("dungeons-jewel", players=2)  # doctest: +SKIP
>>> make_agent("core-ismcts:iterations=50", game, 0, seed=1).act(Decision(game.new_state(3)))  # doctest: +SKIP
('move', 1)
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from boardlab.engine.errors import UnknownAgentError

from .base import Decision
from .mcts import ISMCTSAgent

if TYPE_CHECKING:  # pragma: no cover
    from boardlab.engine.game import Game
    from boardlab.engine.state import Action

#: The agent names of the core (its ``boardlab_core.Agent`` specs).
CORE_AGENTS = ("random", "heuristic", "ismcts")


#: Whether the core rebuilds a Python state of a configured game (``state_from_json``), by (game id, spec):
#: the core may play a game's whole games before it can take over a Python position of it.
_CONVERTS: dict[tuple[str, str], str | None] = {}


def _conversion_refused(game: Any, spec: str) -> str | None:
    """``None`` if ``boardlab_core.state_from_json`` rebuilds ``game``'s states, else why not (cached)."""
    from boardlab.engine.core import native

    key = (game.id, spec)
    if key not in _CONVERTS:
        convert = getattr(native(), "state_from_json", None)
        if convert is None:
            why: str | None = "this build of the core has no state_from_json"
        else:
            try:
                convert(game.id, spec, json.dumps(game.new_state(0).to_json()))
                why = None
            except ValueError as exc:
                why = f"it cannot take over a position of this game yet ({exc})"
        if len(_CONVERTS) > 64:
            _CONVERTS.clear()
        _CONVERTS[key] = why
    return _CONVERTS[key]


def core_game_spec(game: Any, agent_spec: str) -> str:
    """The core's spec of ``game`` (``Game.core_spec()``) if the core plays ``agent_spec`` in it.

    Raises :class:`UnknownAgentError` with the one-line reason otherwise (the core is not installed,
    does not have this game or configuration, or not this agent, or cannot rebuild its positions).
    """
    from boardlab.engine.core import core_reason

    spec, why = core_reason(game, [agent_spec])
    if spec is not None:
        why = _conversion_refused(game, spec)
    if spec is None or why is not None:
        raise UnknownAgentError(f"the compiled core cannot play {agent_spec!r} here: {why}")
    return spec


def _check_core_agent(game: Any, agent_spec: str) -> None:
    """Like :func:`core_game_spec` for a game, a game class or ``None`` (only what can be checked)."""
    from boardlab.engine.core import native
    from boardlab.engine.game import Game as GameBase

    if isinstance(game, GameBase):
        core_game_spec(game, agent_spec)
        return
    mod = native()
    if mod is None:
        raise UnknownAgentError(f"the compiled core cannot play {agent_spec!r}: it is not installed")
    games = tuple(getattr(mod, "GAMES", ()))
    gid = getattr(game, "id", None) if game is not None else (games[0] if games else None)
    if gid not in games:
        raise UnknownAgentError(f"the compiled core does not have {getattr(game, 'name', gid)!r}")
    try:
        mod.check_agent(gid, agent_spec)
    except ValueError as exc:
        raise UnknownAgentError(f"the compiled core cannot play {agent_spec!r}: {exc}") from None


class CoreAgent:
    """The core's agent ``spec`` (``random``, ``heuristic`` or ``ismcts:...``) deciding for ``seat``.

    ``game_spec`` is the game's core spec when the caller has it (:func:`core_game_spec` builds it
    otherwise).  Raises :class:`UnknownAgentError` when the core cannot play ``spec`` in ``game``.
    """

    #: Reads only what the Python agent of the same name reads (see the module docstring).
    omniscient = False

    def __init__(self, game: "Game", seat: int, seed: int = 0, spec: str = "ismcts", *,
                 game_spec: str | None = None) -> None:
        self.game = game
        self.seat = seat
        self.seed = seed
        self.core_spec = spec
        self.name = spec
        self._game_spec = game_spec if game_spec is not None else core_game_spec(game, spec)
        self._agent: Any = None

    def _core_agent(self) -> Any:
        if self._agent is None:
            from boardlab.engine.core import native

            self._agent = native().Agent(self.game.id, self._game_spec, self.core_spec, self.seat, self.seed)
        return self._agent

    def core_state(self, decision: Decision) -> Any:
        """The core's copy of the decision's position (``boardlab_core.CoreState``)."""
        from boardlab.engine.core import native

        doc = json.dumps(decision._state.to_json())
        return native().state_from_json(self.game.id, self._game_spec, doc)

    def act(self, decision: Decision) -> "Action":
        if decision.seat != self.seat:
            raise ValueError(f"this agent plays seat {self.seat}, not seat {decision.seat}")
        choice = self._core_agent().act(self.core_state(decision))
        for action in decision.legal:
            if action == choice:
                return action
        # the core and the Python rules disagree on the legal actions: a defect (scripts/differential.py)
        raise RuntimeError(f"the compiled core chose {choice!r}, which the Python rules do not allow here")

    @property
    def last_iterations(self) -> int:
        """Search iterations of the last decision (0 before the first and for non-search agents)."""
        return self._agent.last_iterations if self._agent is not None else 0


def _spec_text(name: str, params: dict[str, Any]) -> str:
    """``name:k=v:...`` that :func:`boardlab.agents.parse_spec` reads back as ``params``."""
    parts = [name]
    for key, value in params.items():
        if isinstance(value, bool):
            text = "true" if value else "false"
        else:
            text = repr(value) if isinstance(value, float) else str(value)
        parts.append(f"{key}={text}")
    return ":".join(parts)


class CoreISMCTSAgent(CoreAgent):
    """``core-ismcts``: the core's ISMCTS with the parameters of ``ismcts`` (same names, defaults, checks)."""

    #: The parameters of ``ismcts`` and their defaults.
    defaults: dict[str, Any] = dict(ISMCTSAgent.defaults)

    def __init__(self, game: "Game", seat: int, seed: int = 0, **params: Any) -> None:
        self.check_params(game, params)
        super().__init__(game, seat, seed, _spec_text("ismcts", params))

    @classmethod
    def check_params(cls, game: Any, params: dict[str, Any]) -> None:
        """``ismcts``'s checks, then the core's: it must play this search in this game."""
        ISMCTSAgent.refuse_unknown(params, "core-ismcts")
        ISMCTSAgent.check_params(game, params)
        _check_core_agent(game, _spec_text("ismcts", params))


def agent_for(spec: str, game: "Game", seat: int, seed: int = 0) -> Any:
    """The agent ``spec`` for ``seat``: the core's where :func:`boardlab.engine.core.choose` picks the
    core for ``game`` and ``spec`` (installed, supports the configuration and the agent; ``BOARDLAB_ENGINE``
    respected), else :func:`boardlab.agents.make_agent`'s Python agent.  The web bots decide with it."""
    from boardlab.engine.core import choose

    from . import make_agent

    from . import agent_class
    from .simple import RandomAgent

    name = spec.split(":", 1)[0].strip() if isinstance(spec, str) else ""
    # the names must mean the agents the core reproduces (a game's table may rename them; its
    # ``heuristic`` is checked by its core_spec)
    python = {"random": RandomAgent, "ismcts": ISMCTSAgent}
    if name in CORE_AGENTS and (name not in python or agent_class(name, game) is python[name]):
        choice = choose(game, [spec])
        if choice.engine == "core" and _conversion_refused(game, choice.spec) is None:
            return CoreAgent(game, seat, seed, spec, game_spec=choice.spec)
    return make_agent(spec, game, seat, seed)


__all__ = ["CORE_AGENTS", "CoreAgent", "CoreISMCTSAgent", "agent_for", "core_game_spec"]
