"""boardlab: five paper board-game designs as playable software, and a lab that playtests them.

>>> import boardlab
>>> game = boardlab.make("dungeons-jewel", players=4)
>>> state = game.new_state(seed=1)
>>> state.current_seat() in range(4)
True
"""

from boardlab.engine import (
    BoardlabError,
    Game,
    IllegalActionError,
    Results,
    State,
    game_class,
    game_ids,
    list_games,
    make,
)

__version__ = "0.1.0"


def new_game(game_id: str, seed: int = 0, players: int | None = None, variant: str | None = None, **options: object) -> State:
    """Shortcut: ``make(game_id, players, variant, options).new_state(seed)``."""
    return make(game_id, players=players, variant=variant, options=options).new_state(seed)


__all__ = [
    "BoardlabError", "Game", "IllegalActionError", "Results", "State", "__version__",
    "game_class", "game_ids", "list_games", "make", "new_game",
]
