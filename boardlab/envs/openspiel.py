"""Every boardlab game as an OpenSpiel Python game.

>>> import pyspiel
>>> from boardlab.envs.openspiel import register_all, short_name
>>> names = register_all()
>>> game = pyspiel.load_game(short_name("dungeons-jewel"), {"players": 4, "seed": 1})
>>> state = game.new_initial_state()
>>> state.current_player() in range(4)
True

Conventions (docs/ecosystem.md has the long form):

* short name ``python_boardlab_<id with underscores>``; parameters ``players``,
  ``variant``, ``seed`` (the engine seed of a new game) and ``max_turns``;
* **chance** is *seeded*: dice and shuffles happen inside ``apply_action``
  from the engine's RNG, which lives in the state and is fixed by the game's
  ``seed`` parameter.  Given its parameters the game is therefore a
  deterministic function of the actions (``ChanceMode.DETERMINISTIC``; a clone
  replays the same dice), and no state is a chance node.  The RNG is hidden
  from the players, so a game with chance is *imperfect information*;
  ``resample_from_infostate`` uses the engine's ``determinize``, which also
  reseeds future chance;
* **action ids** are compact: id ``k`` is the ``k``-th legal action in
  canonical order (sorted by ``repr`` of the engine action), and
  ``num_distinct_actions`` is a per-game bound on the number of legal actions
  (:data:`ACTION_BOUNDS`).  The same infostate has the same legal actions in
  every determinization, so an id means the same action there;
* illegal ids raise :class:`IllegalSpielActionError`, which is both a
  ``pyspiel.SpielError`` and the engine's ``IllegalActionError``;
* ``clone()`` goes through the engine's :meth:`State.clone` (pyspiel deep-copies
  the Python attributes of a state; the only one is a :class:`_Core` whose
  ``__deepcopy__`` is the engine clone), and serialization through the
  engine's JSON (``__reduce__``), so both work at any game length;
* ``information_state_string(p)`` is the canonical JSON of seat *p*'s view
  and its redacted event log (perfect recall); ``observation_string(p)`` is
  the view alone; tensors hash the view (:func:`encode_view`);
* returns are +1 per winner and -1 per loser (0 for everyone in a game
  without winners or cut by the turn cap).

* ``get_rng_state()``/``set_rng_state(text)`` on the game are the seed of new
  initial states (the game's only randomness: chance lives in each state);
  on a state, the engine RNG's 64-bit state (setting it reseeds future chance
  and drops the state's history, as a determinization does).  The text is a
  decimal integer; anything else raises :class:`SpielOptionError`.

OpenSpiel's C++ bots (``pyspiel.MCTSBot`` and ``pyspiel.ISMCTSBot``) crash the
interpreter on *every* Python game, OpenSpiel's own ``python_tic_tac_toe``
included: their ``step`` binding releases the GIL (``call_guard<gil_scoped_release>``)
and then calls ``PyState::Clone``, which runs Python code (importing ``copy``)
without re-acquiring it, a segmentation fault (gdb: ``PyList_New`` inside
``PyImport_ImportModule`` inside ``PyState::Clone`` inside
``MCTSBot::ApplyTreePolicy``).  Nothing on the Python side can take the GIL for
them, so importing this module wraps both classes: given a Python game or state
they raise :class:`SpielOptionError` naming the Python replacements
``open_spiel.python.algorithms.mcts.MCTSBot`` and
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (which work), and C++ games
pass through unchanged.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from boardlab.engine import registry
from boardlab.engine.errors import BoardlabError, IllegalActionError, InvalidOptionError
from boardlab.engine.rng import Rng
from boardlab.engine.state import State

from . import encoding as _encoding
from .encoding import OBSERVATION_SIZE, action_space_size, encode_view, view_string

_REGISTERED: dict[str, str] = {}

#: The per-game action bounds, shared with PettingZoo (see :mod:`boardlab.envs.encoding`).
ACTION_BOUNDS = _encoding.ACTION_BOUNDS
DEFAULT_ACTION_BOUND = _encoding.DEFAULT_ACTION_SPACE


class IllegalSpielActionError(pyspiel.SpielError, IllegalActionError):
    """An action id that is not legal here: a ``pyspiel.SpielError`` and an ``IllegalActionError``."""


class SpielOptionError(pyspiel.SpielError, InvalidOptionError):
    """Bad game parameters: a ``pyspiel.SpielError`` and an ``InvalidOptionError``."""


def short_name(game_id: str) -> str:
    """The OpenSpiel short name of a boardlab game id."""
    return "python_boardlab_" + game_id.replace("-", "_")


def action_bound(cls: Any) -> int:
    """The size of a game's OpenSpiel action space (see :data:`ACTION_BOUNDS`)."""
    return action_space_size(cls)


def _game_type(cls: Any) -> Any:
    return pyspiel.GameType(
        short_name=short_name(cls.id),
        long_name=f"boardlab {cls.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        # seeded chance: see the module docstring (pyspiel cannot serialize a Python game
        # declared SAMPLED_STOCHASTIC: its Game has no GetRNGState a Python game can implement)
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        # the engine's RNG lives in the state and players do not know it, so a game with
        # chance is imperfect-information from OpenSpiel's point of view
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION if (cls.hidden_information or cls.chance) else pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": cls.default_players,
            "variant": cls.variants[0].name,
            "seed": 0,
            "max_turns": 0,
        },
    )


def _make_game_class(cls: Any) -> type:
    game_type = _game_type(cls)
    bound = action_bound(cls)

    class BoardlabSpielGame(pyspiel.Game):
        """A boardlab game seen through OpenSpiel."""

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            params = dict(params or {})
            unknown = set(params) - {"players", "variant", "seed", "max_turns"}
            if unknown:
                raise SpielOptionError(f"{short_name(cls.id)} has no parameter {sorted(unknown)[0]!r} (parameters: players, variant, seed, max_turns)")
            try:
                players = int(params.get("players", cls.default_players))
                options = {"max_turns": int(params["max_turns"])} if params.get("max_turns") else {}
                self.bl_game = cls(players=players, variant=params.get("variant") or None, options=options)
                self.bl_seed = int(params.get("seed", 0))
                self.bl_initial = self.bl_game.new_state(self.bl_seed)
            except BoardlabError as exc:
                raise SpielOptionError(f"{short_name(cls.id)}: {exc}") from None
            self.action_bound = bound
            info = pyspiel.GameInfo(
                num_distinct_actions=bound,
                max_chance_outcomes=0,
                num_players=players,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=None,
                max_game_length=max(1, self.bl_game.max_turns * 64),
            )
            super().__init__(game_type, info, params)

        def get_rng_state(self) -> str:
            """The seed of new initial states, as a decimal string."""
            return str(self.bl_seed)

        def set_rng_state(self, rng_state: str) -> None:
            """Set the seed of new initial states (a decimal integer string, 0..2^64-1)."""
            seed = _rng_text(rng_state, short_name(cls.id))
            self.bl_initial = self.bl_game.new_state(seed)
            self.bl_seed = seed

        def new_initial_state(self, *args: Any) -> "BoardlabSpielState":
            if args:
                raise pyspiel.SpielError(f"{short_name(cls.id)} has no initial state from a string or JSON")
            return BoardlabSpielState(self, self.bl_initial.clone())

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "BoardlabObserver":
            recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
            return BoardlabObserver(recall)

    BoardlabSpielGame.__name__ = f"Spiel_{cls.__name__}"
    return BoardlabSpielGame


def _core_from_json(text: str, prefix: dict[int, list] | None) -> "_Core":
    return _Core(State.loads(text), prefix)


class _Core:
    """Everything a :class:`BoardlabSpielState` holds on the Python side (its only attribute).

    pyspiel's ``State.clone`` builds a fresh state and ``copy.deepcopy``-s each
    Python attribute into it, and ``serialize`` pickles them: the hooks below
    make those the engine's clone and the engine's JSON (the event log is a
    linked list of tuples that a generic deep copy or pickle walks recursively).
    """

    __slots__ = ("bl", "prefix", "order")

    def __init__(self, bl: Any, prefix: dict[int, list] | None = None, order: tuple | None = None) -> None:
        self.bl = bl
        #: After a resample, the event history each seat had (as the resampling seat saw it);
        #: the engine drops the log of determinized states, so infostates keep it here.
        #: Never mutated, so clones share it.
        self.prefix = prefix
        #: The legal actions in canonical order (action id = index), cached.
        self.order = order

    def __deepcopy__(self, memo: Any) -> "_Core":
        return _Core(self.bl.clone(), self.prefix, self.order)

    def __reduce__(self) -> tuple:
        return (_core_from_json, (self.bl.dumps(), self.prefix))


class BoardlabSpielState(pyspiel.State):
    """An OpenSpiel state wrapping a boardlab state."""

    def __init__(self, game: Any, bl_state: Any, prefix: dict[int, list] | None = None) -> None:
        super().__init__(game)
        self._core = _Core(bl_state, prefix)

    @property
    def bl(self) -> Any:
        """The engine state."""
        return self._core.bl

    @property
    def prefix(self) -> dict[int, list] | None:
        return self._core.prefix

    def events(self, player: int) -> list[dict[str, Any]]:
        """Seat ``player``'s event history (perfect recall)."""
        own = self.bl.events(player)
        prefix = self._core.prefix
        if prefix is None:
            return own
        return prefix.get(player, []) + own

    # -- action ids --------------------------------------------------------
    def actions(self) -> tuple:
        """The legal engine actions in id order (``actions()[k]`` has id ``k``)."""
        core = self._core
        order = core.order
        if order is None:
            order = tuple(sorted(core.bl.legal_actions(), key=repr))
            bound = self.get_game().action_bound
            if len(order) > bound:
                try:
                    _encoding.check_action_count(core.bl.game, len(order), bound)
                except BoardlabError as exc:
                    raise pyspiel.SpielError(str(exc)) from None
            core.order = order
        return order

    def action_id(self, action: Any) -> int:
        """The id of a legal engine action here."""
        try:
            return self.actions().index(tuple(action))
        except ValueError:
            raise IllegalSpielActionError(f"{list(action)!r} is not a legal action here") from None

    # -- OpenSpiel hooks ---------------------------------------------------
    def get_rng_state(self) -> str:
        """The engine RNG's state (it decides every later chance outcome), as a decimal string."""
        return str(self._core.bl.rng.state)

    def set_rng_state(self, rng_state: str) -> None:
        """Set the engine RNG's state; later chance outcomes change, so the state forgets its history."""
        value = _rng_text(rng_state, short_name(self._core.bl.game.id))
        bl = self._core.bl
        bl.rng = Rng(value)
        bl.forget_history()

    def current_player(self) -> int:
        seat = self._core.bl.current_seat()
        if seat is None:
            return pyspiel.PlayerId.TERMINAL
        return int(seat)

    def _legal_actions(self, player: int) -> list[int]:
        if player != self._core.bl.current_seat():
            return []
        return list(range(len(self.actions())))

    def _legal_id(self, action: Any) -> int:
        """``action`` if it is an integer id legal here; :class:`IllegalSpielActionError` (and no C++ dump) otherwise."""
        k = _action_id(action)
        n = len(self.actions())
        if not 0 <= k < n:
            if not n:
                raise IllegalSpielActionError(f"the game is over; action id {k} is not legal")
            raise IllegalSpielActionError(f"action id {k} is not legal here (legal ids: 0..{n - 1})")
        return k

    def apply_action(self, action: Any) -> None:
        """Strict ``apply_action``: an ``int`` (or numpy integer; never a bool or float) naming a legal id."""
        super().apply_action(self._legal_id(action))

    def apply_action_with_legality_check(self, action: Any) -> None:
        super().apply_action_with_legality_check(self._legal_id(action))

    def child(self, action: Any) -> Any:
        return super().child(self._legal_id(action))

    def _apply_action(self, action: int) -> None:
        order = self.actions()
        if not 0 <= action < len(order):
            if not order:
                raise IllegalSpielActionError(f"the game is over; action id {action} is not legal")
            raise IllegalSpielActionError(f"action id {action} is not legal here (legal ids: 0..{len(order) - 1})")
        core = self._core
        core.bl.apply(order[action])
        core.order = None

    def _action_to_string(self, player: int, action: int) -> str:
        order = self.actions()
        if 0 <= action < len(order):
            return self.bl.describe(order[action])
        return f"action#{action}"

    def is_terminal(self) -> bool:
        return self._core.bl.is_over()

    def returns(self) -> list[float]:
        bl = self._core.bl
        n = bl.game.players
        if not bl.is_over():
            return [0.0] * n
        res = bl.results()
        if res.truncated or not res.winners:
            return [0.0] * n
        return [1.0 if i in res.winners else -1.0 for i in range(n)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "BoardlabSpielState":
        """A state consistent with ``player_id``'s information (the engine's determinize)."""
        seed = int(probability_sampler() * (1 << 53)) if callable(probability_sampler) else 0
        n = self.bl.game.players
        # what player_id knows of everyone's history: its own events, and the public part of the others'
        public = self._public_events()
        prefix = {p: self.events(player_id) if p == player_id else public for p in range(n)}
        prefix[-1] = public
        return BoardlabSpielState(self.get_game(), self.bl.determinize(player_id, Rng(seed)), prefix)

    def _public_events(self) -> list[dict[str, Any]]:
        prefix = self._core.prefix
        if prefix is not None:
            return prefix.get(-1, []) + self.bl.events(None)
        return self.bl.events(None)

    def __str__(self) -> str:
        return view_string(self.bl.view(None))


class BoardlabObserver:
    """PyObserver: strings and tensors from a seat's view (never the full state)."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(OBSERVATION_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: BoardlabSpielState, player: int) -> None:
        self.tensor[:] = encode_view(state.bl.view(player))

    def string_from(self, state: BoardlabSpielState, player: int) -> str:
        view = state.bl.view(player)
        if not self.perfect_recall:
            return view_string(view)
        return json.dumps({"view": view, "events": state.events(player)}, sort_keys=True, separators=(",", ":"))


def _action_id(action: Any) -> int:
    """``action`` as an id if it is an integer that fits OpenSpiel's int64; :class:`IllegalSpielActionError` otherwise.

    (pybind11 would turn ``True`` into id 1 and raise a bare ``TypeError`` for ``1.7`` or ``"1"``.)
    """
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        action = action[()]  # a 0-d integer array, as PettingZoo accepts
    if not isinstance(action, (bool, np.bool_)):
        if isinstance(action, (int, np.integer)) and -(1 << 63) <= int(action) < 1 << 63:
            return int(action)
    shown = repr(action) if len(repr(action)) <= 40 else repr(action)[:37] + "..."
    raise IllegalSpielActionError(f"an action id is an integer, got {shown}")


def _rng_text(text: Any, where: str) -> int:
    """A decimal RNG state or seed string as an int in 0..2^64-1; :class:`SpielOptionError` otherwise."""
    if not isinstance(text, str) or not text.isascii() or not text.isdigit() or len(text) > 20 or int(text) >= 1 << 64:
        shown = repr(text) if len(repr(text)) <= 40 else repr(text)[:37] + "..."
        raise SpielOptionError(f"{where}: an RNG state is a decimal integer 0..2^64-1 given as a string, got {shown}")
    return int(text)


def _is_python_game(game: Any) -> bool:
    """True for a game (or state) class written in Python (a pyspiel subclass), false for OpenSpiel's C++ ones."""
    return not type(game).__module__.startswith("pyspiel")


_PY_BOTS = ("open_spiel.python.algorithms.mcts.MCTSBot", "open_spiel.python.algorithms.ismcts.ISMCTSBot")


def _refuse_cxx_bot(name: str, what: Any) -> None:
    if _is_python_game(what):
        raise SpielOptionError(
            f"pyspiel.{name} cannot search a Python game (it releases the GIL, then runs the game's Python code: "
            f"a segmentation fault); use {_PY_BOTS[0] if name == 'MCTSBot' else _PY_BOTS[1]} instead"
        )


def _guard_cxx_bots() -> None:
    """Make ``pyspiel.MCTSBot`` and ``pyspiel.ISMCTSBot`` refuse Python games cleanly (see the module docs)."""
    base_mcts, base_ismcts = pyspiel.MCTSBot, pyspiel.ISMCTSBot
    if getattr(base_mcts, "_boardlab_guard", False):
        return

    class MCTSBot(base_mcts):  # type: ignore[misc, valid-type]
        __doc__ = base_mcts.__doc__
        _boardlab_guard = True

        def __init__(self, game: Any, *args: Any, **kwargs: Any) -> None:
            _refuse_cxx_bot("MCTSBot", game)
            super().__init__(game, *args, **kwargs)

        def step(self, state: Any) -> Any:
            _refuse_cxx_bot("MCTSBot", state)
            return super().step(state)

        def step_with_policy(self, state: Any) -> Any:
            _refuse_cxx_bot("MCTSBot", state)
            return super().step_with_policy(state)

        def mcts_search(self, state: Any) -> Any:
            _refuse_cxx_bot("MCTSBot", state)
            return super().mcts_search(state)

    class ISMCTSBot(base_ismcts):  # type: ignore[misc, valid-type]
        __doc__ = base_ismcts.__doc__
        _boardlab_guard = True

        def step(self, state: Any) -> Any:
            _refuse_cxx_bot("ISMCTSBot", state)
            return super().step(state)

        def step_with_policy(self, state: Any) -> Any:
            _refuse_cxx_bot("ISMCTSBot", state)
            return super().step_with_policy(state)

    MCTSBot.__module__ = ISMCTSBot.__module__ = "pyspiel"
    pyspiel.MCTSBot, pyspiel.ISMCTSBot = MCTSBot, ISMCTSBot


_guard_cxx_bots()


def register(game_id: str) -> str:
    """Register one boardlab game with OpenSpiel; returns its short name."""
    name = short_name(game_id)
    if game_id not in _REGISTERED:
        cls = registry.game_class(game_id)
        game_cls = _make_game_class(cls)
        pyspiel.register_game(_game_type(cls), game_cls)
        _REGISTERED[game_id] = name
    return name


def register_all() -> list[str]:
    """Register every boardlab game; returns the short names."""
    return [register(g) for g in registry.game_ids()]


def load(game_id: str, **params: Any) -> Any:
    """``pyspiel.load_game`` for a boardlab game id with boardlab parameters."""
    register(game_id)
    return pyspiel.load_game(short_name(game_id), params)
