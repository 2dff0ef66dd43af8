"""PettingZoo AEC environments for every boardlab game.

>>> from boardlab.envs.pettingzoo import env
>>> e = env("dungeons-jewel", players=4, seed=3)
>>> e.reset(seed=3)
>>> obs, reward, term, trunc, info = e.last()
>>> sorted(obs)
['action_mask', 'observation']

Conventions (as PettingZoo's classic games):

* agents are ``player_0`` .. ``player_{n-1}``, one per seat;
* the observation is a dict: ``observation`` (the acting seat's view hashed
  into a fixed ``float32`` vector, see :mod:`boardlab.envs.encoding`) and
  ``action_mask`` (``int8``, 1 for legal indexes);
* the action space is ``Discrete(N)`` with the *positional* scheme: index
  ``i`` is the ``i``-th legal action (``info["legal_labels"]`` names them);
  ``N`` is the game's bound on legal actions
  (:data:`~boardlab.envs.encoding.ACTION_BOUNDS`), shared with OpenSpiel;
* ``step`` is strict: the action must be an integer (``int`` or a numpy
  integer, never a ``bool``, a float or a string) naming a legal index, and
  ``None`` once the agent is done; anything else raises
  :class:`~boardlab.engine.errors.IllegalActionError` and changes nothing;
* rewards come at the end: +1 for each winner, -1 for each loser, 0 for all
  in a game without a winner; a game stopped by the turn cap sets
  ``truncations`` (not ``terminations``) and gives 0;
* ``info["view"]`` holds the agent's full JSON view for agents that prefer it;
* misuse raises boardlab's own errors (:mod:`boardlab.engine.errors`, all
  :class:`ValueError`), each with one line saying what to do: an unknown
  agent name (``observe("player_99")``, ``action_space``) or keyword
  (``env(g, bogus=1)``) is an :class:`~boardlab.engine.errors.InvalidOptionError`,
  so is using the environment before ``reset()``; a ``step`` once every agent is
  done is a :class:`~boardlab.engine.errors.GameOverError`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from boardlab.engine.errors import GameOverError, IllegalActionError, InvalidOptionError
from boardlab.engine.registry import make

from .encoding import OBSERVATION_SIZE, action_space_size, check_action_count, encode_view


class BoardlabAECEnv(AECEnv):
    """One boardlab game as a PettingZoo AEC environment."""

    metadata = {"render_modes": ["ansi", "human"], "name": "boardlab", "is_parallelizable": False}

    def __init__(
        self,
        game: str,
        players: int | None = None,
        variant: str | None = None,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidOptionError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise InvalidOptionError(f"seed must be an integer, got {seed!r}")
        self.game = make(game, players=players, variant=variant, options=options or {})
        self.metadata = {**self.metadata, "name": f"boardlab_{self.game.id.replace('-', '_')}_v0"}
        self.render_mode = render_mode
        self._seed = 0 if seed is None else seed
        self._episode = 0
        self.possible_agents = [f"player_{i}" for i in range(self.game.players)]
        self.agents = self.possible_agents[:]
        n = action_space_size(self.game)
        self._n_actions = n
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(OBSERVATION_SIZE,), dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.state = None
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]

    # -- spaces ----------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[self._agent(agent)]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[self._agent(agent)]

    def _agent(self, agent: Any) -> str:
        """``agent`` if it names one of this game's agents, else :class:`InvalidOptionError`."""
        if not isinstance(agent, str) or agent not in self.possible_agents:
            raise InvalidOptionError(f"no agent named {_short(agent)} in this {self.game.players}-player game;"
                                     f" agents are {', '.join(self.possible_agents)}")
        return agent

    def _started(self, what: str) -> None:
        if self.state is None:
            raise InvalidOptionError(f"call reset() before {what}()")

    # -- lifecycle -------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
                raise InvalidOptionError(f"seed must be an integer, got {_short(seed)}")
            self._seed = int(seed)
            self._episode = 0
        game_seed = self._seed + self._episode
        self._episode += 1
        self.state = self.game.new_state(game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        seat = self.state.current_seat()
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
            legal = self.state.legal_actions()
            check_action_count(self.game, len(legal), self._n_actions)
            self.infos[self.agent_selection] = {"legal_labels": [self.state.describe(a) for a in legal]}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(self._agent(agent))
        self._started("observe")
        view = self.state.view(seat)
        mask = np.zeros(self._n_actions, dtype=np.int8)
        if not self.state.is_over() and self.state.current_seat() == seat:
            mask[: len(self.state.legal_actions())] = 1
        return {"observation": np.asarray(encode_view(view), dtype=np.float32), "action_mask": mask}

    def step(self, action: Any) -> None:
        self._started("step")
        if not self.agents:
            raise GameOverError("the game is over and every agent is done: call reset() to start another")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise IllegalActionError(f"{agent} is done: its only action is None, got {_short(action)}")
            self._was_dead_step(action)
            return
        legal = self.state.legal_actions()
        index = _index(action)
        if index is None or not 0 <= index < len(legal):
            raise IllegalActionError(f"action {_short(action)} is not a legal index (an integer 0..{len(legal) - 1}) for {agent}")
        self._cumulative_rewards[agent] = 0
        self.state.apply(legal[index])
        if self.state.is_over():
            res = self.state.results()
            for i, a in enumerate(self.possible_agents):
                if res.truncated or not res.winners:
                    self.rewards[a] = 0
                else:
                    self.rewards[a] = 1 if i in res.winners else -1
                if res.truncated:
                    self.truncations[a] = True
                else:
                    self.terminations[a] = True
                self.infos[a] = {"reason": res.reason, "winners": list(res.winners)}
            self._accumulate_rewards()
            # every agent gets a final (dead) step, in seat order from the one after the mover
            nxt = (self.possible_agents.index(agent) + 1) % len(self.possible_agents)
            self.agent_selection = self.possible_agents[nxt]
        else:
            self._clear_rewards()
            self._select()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        self._started("render")
        from boardlab.render.terminal import scene_text

        seat = self.state.current_seat()
        text = scene_text(self.game.scene(self.state.view(seat), ()))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def _index(action: Any) -> int | None:
    """``action`` as an index if it is an integer (``int`` or numpy integer, not a bool), else ``None``."""
    if isinstance(action, (bool, np.bool_)):
        return None
    if isinstance(action, (int, np.integer)):
        return int(action)
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        return int(action)
    return None


def _short(value: Any) -> str:
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a hostile object's repr
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."


_KEYWORDS = ("options", "render_mode")


def env(game: str, players: int | None = None, variant: str | None = None, seed: int | None = None, **kwargs: Any) -> BoardlabAECEnv:
    """An AEC environment for ``game`` (see the module docs).

    Besides ``players``, ``variant`` and ``seed`` it takes ``options`` (the
    game's option overrides) and ``render_mode``; any other keyword raises
    :class:`~boardlab.engine.errors.InvalidOptionError` naming it.
    """
    unknown = sorted(k for k in kwargs if k not in _KEYWORDS)
    if unknown:
        raise InvalidOptionError(f"env() got an unknown keyword {unknown[0]!r}; it takes players, variant, seed, "
                                 + ", ".join(_KEYWORDS) + " (game options go in options={...})")
    return BoardlabAECEnv(game, players=players, variant=variant, seed=seed, **kwargs)
