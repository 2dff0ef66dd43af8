"""The agent interface (the engine defines it; agents and games implement it).

An agent is asked to decide with a :class:`Decision`: the seat, its view, the
legal actions and the game.  It returns one of the legal actions.  An agent
never sees the true state; a searching agent calls :meth:`Decision.sample` to
get a full state consistent with the seat's view (a *determinization*), with
hidden information resampled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from .errors import UnknownAgentError
from .rng import Rng

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game
    from .state import Action, State


class Decision:
    """What an agent is told when it must act."""

    __slots__ = ("seat", "legal", "game", "_state", "_view")

    def __init__(self, state: "State", seat: int | None = None) -> None:
        self.seat: int = state.current_seat() if seat is None else seat  # type: ignore[assignment]
        self.legal: tuple["Action", ...] = state.legal_actions()
        self.game: "Game" = state.game
        self._state = state
        self._view: dict[str, Any] | None = None

    @property
    def view(self) -> dict[str, Any]:
        """The seat's view (built on first access)."""
        if self._view is None:
            self._view = self._state.view(self.seat)
        return self._view

    def sample(self, rng: Rng | int) -> "State":
        """A full state consistent with this seat's view; hidden parts are resampled."""
        return self._state.determinize(self.seat, rng)

    def describe(self, action: "Action") -> str:
        return self._state.describe(action)

    def omniscient_state(self) -> "State":
        """The true state (a copy).  Only agents labelled omniscient may call this."""
        return self._state.clone()


@runtime_checkable
class Agent(Protocol):
    """Anything with ``act(decision) -> action``.  ``name`` is its spec string."""

    name: str

    def act(self, decision: Decision) -> "Action":  # pragma: no cover - protocol
        ...


class BaseAgent:
    """Convenience base: stores the seat, a private RNG and parameters."""

    #: True only for baselines that read the true hidden state.
    omniscient: bool = False
    #: Parameter names (and defaults) this agent accepts from its spec string.
    defaults: dict[str, Any] = {}

    def __init__(self, game: "Game", seat: int, seed: int = 0, **params: Any) -> None:
        self.refuse_unknown(params)
        params = {**self.defaults, **params}
        self.game = game
        self.seat = seat
        self.rng = Rng(seed)
        self.params = params
        self.name = type(self).__name__

    @classmethod
    def refuse_unknown(cls, params: dict[str, Any], name: str | None = None) -> None:
        """Raise :class:`UnknownAgentError` if ``params`` names a parameter not in :attr:`defaults`.

        ``name`` is the agent's name in the message (default: the class name).  Agents'
        ``check_params`` call it too, so a spec is refused before any agent is built.
        """
        unknown = sorted(set(params) - set(cls.defaults))
        if unknown:
            allowed = ", ".join(sorted(cls.defaults)) or "none"
            raise UnknownAgentError(f"agent {name or cls.__name__} has no parameter {unknown[0]!r} (parameters: {allowed})")

    def act(self, decision: Decision) -> "Action":  # pragma: no cover - abstract
        raise NotImplementedError
