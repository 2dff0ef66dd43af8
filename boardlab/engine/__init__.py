"""The game-neutral boardlab engine: registry, state protocol, RNG, components, events."""

from .codec import copy_value, decode, encode, record
from .components import Deck, Grid, Token, dice_distribution, roll
from .errors import (
    BoardlabError,
    ContentError,
    GameOverError,
    IllegalActionError,
    InvalidOptionError,
    SaveFileError,
    UnknownAgentError,
    UnknownGameError,
    UnknownVariantError,
)
from .game import Game, Option, Variant, load_json_file
from .registry import game_class, game_ids, list_games, make, register
from .rng import Rng, derive_seed
from .state import Action, Prompt, Results, State, win_results

__all__ = [
    "Action", "BoardlabError", "ContentError", "Deck", "Game", "GameOverError", "Grid",
    "IllegalActionError", "InvalidOptionError", "Option", "Prompt", "Results", "Rng",
    "SaveFileError", "State", "Token", "UnknownAgentError", "UnknownGameError",
    "UnknownVariantError", "Variant", "copy_value", "decode", "derive_seed", "dice_distribution",
    "encode", "game_class", "game_ids", "list_games", "load_json_file", "make", "record",
    "register", "roll", "win_results",
]
