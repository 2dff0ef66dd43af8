from boardlab.engine import registry

from .games import GuessGame, RaceGame

registry.register("agents-guess", GuessGame)
registry.register("agents-race", RaceGame)
