"""Every boardlab game as an OpenSpiel Python game.

>>> import pyspiel
>>> from boardlab.envs.openspiel import register_all, short_name
>>> names = register_all()
>>> game = pyspiel.load_game(short_name("dungeons-jewel"), {"players": 4, "seed": 1})
>>> state = game.new_initial_state()
>>> state.current_player() in range(4)
True

Conventions:

* short name ``python_boardlab_<id with underscores>``; parameters ``players``,
  ``variant``, ``seed`` (the engine seed of a new game) and ``max_turns``;
* information is imperfect for games with hidden information *or* chance
  (the future dice live in the state's RNG, which players do not know);
* chance is *sampled*: dice and shuffles happen inside ``apply_action`` from
  the engine's RNG held in the state (``ChanceMode.SAMPLED_STOCHASTIC``), so
  a state never is a chance node; ``resample_from_infostate`` uses the
  engine's ``determinize``, which also reseeds future chance;
* action ids are stable 24-bit hashes of the engine actions
  (:func:`boardlab.envs.encoding.stable_ids`), the same in every state;
* ``information_state_string(p)`` is the canonical JSON of seat *p*'s view
  and its redacted event log (perfect recall); ``observation_string(p)`` is
  the view alone; tensors hash the view (:func:`encode_view`);
* returns are +1 per winner and -1 per loser (0 for everyone in a game
  without winners or cut by the turn cap).

OpenSpiel's C++ bots (``pyspiel.MCTSBot`` and the C++ ISMCTS) crash or fail on
Python games, so use the Python ``open_spiel.python.algorithms.mcts.MCTSBot``
and ``open_spiel.python.algorithms.ismcts.ISMCTSBot``.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from boardlab.engine import registry
from boardlab.engine.errors import InvalidOptionError
from boardlab.engine.rng import Rng

from .encoding import OBSERVATION_SIZE, STABLE_ID_SPACE, encode_view, stable_ids, view_string

_REGISTERED: dict[str, str] = {}


def short_name(game_id: str) -> str:
    """The OpenSpiel short name of a boardlab game id."""
    return "python_boardlab_" + game_id.replace("-", "_")


def _game_type(cls: Any) -> Any:
    team = False
    return pyspiel.GameType(
        short_name=short_name(cls.id),
        long_name=f"boardlab {cls.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC if cls.chance else pyspiel.GameType.ChanceMode.DETERMINISTIC,
        # the engine's RNG lives in the state and players do not know it, so a game with
        # chance is imperfect-information from OpenSpiel's point of view
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION if (cls.hidden_information or cls.chance) else pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM if team else pyspiel.GameType.Utility.GENERAL_SUM,
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

    class BoardlabSpielGame(pyspiel.Game):
        """A boardlab game seen through OpenSpiel."""

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            params = dict(params or {})
            unknown = set(params) - {"players", "variant", "seed", "max_turns"}
            if unknown:
                raise InvalidOptionError(f"{short_name(cls.id)} has no parameter {sorted(unknown)[0]!r} (parameters: players, variant, seed, max_turns)")
            players = int(params.get("players", cls.default_players))
            options = {"max_turns": int(params["max_turns"])} if params.get("max_turns") else {}
            self.bl_game = cls(players=players, variant=params.get("variant") or None, options=options)
            self.bl_seed = int(params.get("seed", 0))
            info = pyspiel.GameInfo(
                num_distinct_actions=STABLE_ID_SPACE,
                max_chance_outcomes=0,
                num_players=players,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=None,
                max_game_length=max(1, self.bl_game.max_turns * 64),
            )
            super().__init__(game_type, info, params)
            self._games_made = 0

        def new_initial_state(self) -> "BoardlabSpielState":
            return BoardlabSpielState(self, self.bl_game.new_state(self.bl_seed))

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "BoardlabObserver":
            recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
            return BoardlabObserver(recall)

    BoardlabSpielGame.__name__ = f"Spiel_{cls.__name__}"
    return BoardlabSpielGame


class BoardlabSpielState(pyspiel.State):
    """An OpenSpiel state wrapping a boardlab state."""

    def __init__(self, game: Any, bl_state: Any, prefix: dict[int, list] | None = None) -> None:
        super().__init__(game)
        self.bl = bl_state
        self._ids: list[int] | None = None
        #: After a resample, the event history each seat had (as the resampling seat saw it);
        #: the engine drops the log of determinized states, so infostates keep it here.
        self.prefix = prefix

    def events(self, player: int) -> list[dict[str, Any]]:
        """Seat ``player``'s event history (perfect recall)."""
        own = self.bl.events(player)
        if self.prefix is None:
            return own
        return self.prefix.get(player, []) + own

    # -- helpers ---------------------------------------------------------
    def _id_map(self) -> list[int]:
        if self._ids is None:
            self._ids = stable_ids(self.bl.legal_actions())
        return self._ids

    # -- OpenSpiel hooks ---------------------------------------------------
    def current_player(self) -> int:
        if self.bl.is_over():
            return pyspiel.PlayerId.TERMINAL
        return int(self.bl.current_seat())

    def _legal_actions(self, player: int) -> list[int]:
        if self.bl.is_over() or player != self.bl.current_seat():
            return []
        return sorted(self._id_map())

    def _apply_action(self, action: int) -> None:
        ids = self._id_map()
        try:
            idx = ids.index(action)
        except ValueError:
            raise InvalidOptionError(f"action id {action} is not legal here") from None
        self.bl.apply(self.bl.legal_actions()[idx])
        self._ids = None

    def _action_to_string(self, player: int, action: int) -> str:
        ids = self._id_map()
        if action in ids:
            return self.bl.describe(self.bl.legal_actions()[ids.index(action)])
        return f"action#{action}"

    def is_terminal(self) -> bool:
        return self.bl.is_over()

    def returns(self) -> list[float]:
        n = self.bl.game.players
        if not self.bl.is_over():
            return [0.0] * n
        res = self.bl.results()
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
        if self.prefix is not None:
            return self.prefix.get(-1, []) + self.bl.events(None)
        return self.bl.events(None)

    def __deepcopy__(self, memo: Any) -> "BoardlabSpielState":
        # pyspiel's clone() of a Python state deep-copies it; the engine clone is much cheaper
        return BoardlabSpielState(self.get_game(), self.bl.clone(), self.prefix)

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
