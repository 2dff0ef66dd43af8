"""Saved games: the configuration, the seed, the agents and the list of actions.

A saved game is replayed by making the same game, starting it from the same
seed and re-applying the actions; the engine's determinism makes this exact.
The format (``boardlab.game/1``)::

    {
      "format": "boardlab.game/1",
      "game": "dungeons-jewel", "players": 4, "variant": "rulebook",
      "options": {"max_turns": 300},          # overrides given by the user
      "seed": 12345,
      "agents": ["human", "heuristic", "random", "human"],
      "actions": [["move", 3, 4], ["roll"], ...],
      "over": true,
      "results": {"scores": [...], "winners": [2], "truncated": false, "reason": "..."}
    }

``over``/``results`` are informative; loading checks every action is legal.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boardlab.engine import registry
from boardlab.engine.errors import BoardlabError, IllegalActionError, SaveFileError
from boardlab.engine.game import Game
from boardlab.engine.state import State

GAME_FORMAT = "boardlab.game/1"


@dataclass
class SavedGame:
    """A game record that :func:`replay_states` turns back into states."""

    game: str
    players: int
    variant: str
    options: dict[str, Any]
    seed: int
    agents: list[str]
    actions: list[list[Any]] = field(default_factory=list)

    @classmethod
    def start(cls, game: Game, seed: int, agents: list[str]) -> "SavedGame":
        cfg = game.config()
        return cls(cfg["game"], cfg["players"], cfg["variant"], dict(cfg["options"]), seed, list(agents))

    def make_game(self) -> Game:
        return registry.make(self.game, players=self.players, variant=self.variant, options=self.options)

    def to_json(self, state: State | None = None) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "format": GAME_FORMAT,
            "game": self.game,
            "players": self.players,
            "variant": self.variant,
            "options": self.options,
            "seed": self.seed,
            "agents": self.agents,
            "actions": self.actions,
        }
        if state is not None:
            over = state.is_over()
            doc["over"] = over
            doc["results"] = state.results().to_json() if over else None
        return doc

    def save(self, path: str | Path, state: State | None = None) -> None:
        """Write the record atomically (:func:`~boardlab.engine.files.atomic_write`): a full disk or a kill
        leaves the previous save as it was, and the error says so in one line."""
        from boardlab.engine.files import atomic_write

        text = json.dumps(self.to_json(state), indent=None, separators=(",", ":"))
        atomic_write(path, text + "\n", "saved game", error=SaveFileError)

    @classmethod
    def from_json(cls, doc: Any, where: str = "save file") -> "SavedGame":
        if not isinstance(doc, dict) or doc.get("format") != GAME_FORMAT:
            raise SaveFileError(f"{where} is not a boardlab saved game (format must be {GAME_FORMAT!r})")
        try:
            game, players, variant = doc["game"], doc["players"], doc["variant"]
            options, seed, agents, actions = doc.get("options", {}), doc["seed"], doc["agents"], doc["actions"]
        except KeyError as exc:
            raise SaveFileError(f"{where} lacks the key {exc.args[0]!r}") from None
        if not isinstance(game, str) or not isinstance(variant, str):
            raise SaveFileError(f"{where}: 'game' and 'variant' must be strings")
        for name, value in (("players", players), ("seed", seed)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise SaveFileError(f"{where}: {name!r} must be an integer, got {value!r}")
        if not isinstance(options, dict):
            raise SaveFileError(f"{where}: 'options' must be an object")
        if not isinstance(agents, list) or not all(isinstance(a, str) for a in agents):
            raise SaveFileError(f"{where}: 'agents' must be a list of strings")
        if not isinstance(actions, list) or not all(
            isinstance(a, list) and a and isinstance(a[0], str)
            and all(isinstance(x, (int, str)) and not isinstance(x, bool) for x in a)
            for a in actions
        ):
            raise SaveFileError(f"{where}: 'actions' must be a list of actions like [\"kind\", 1, 2]")
        return cls(game, players, variant, dict(options), seed, list(agents), [list(a) for a in actions])

    @classmethod
    def load(cls, path: str | Path) -> "SavedGame":
        """Read a saved game through the engine's bounded reader (:mod:`boardlab.engine.files`)."""
        from boardlab.engine.files import load_json_file

        doc = load_json_file(path, "saved game", error=SaveFileError)
        return cls.from_json(doc, where=str(path))


def replay_states(saved: SavedGame) -> tuple[Game, list[State]]:
    """The game and the states before the first action and after each one (event log kept)."""
    try:
        game = saved.make_game()
    except BoardlabError as exc:
        raise SaveFileError(f"the saved game cannot be set up: {exc}") from None
    if len(saved.agents) != game.players:
        raise SaveFileError(f"the saved game lists {len(saved.agents)} agents for {game.players} players")
    state = game.new_state(saved.seed)
    states = [state.clone()]
    for i, action in enumerate(saved.actions):
        try:
            state.apply(action)
        except IllegalActionError as exc:
            raise SaveFileError(f"action {i + 1} of the saved game, {action!r}, is not legal: {exc}") from None
        states.append(state.clone())
    return game, states
