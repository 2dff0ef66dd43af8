import pytest

from boardlab.engine import registry

from .toy import CoinGame, ToyGame

registry.register("toy", ToyGame)
registry.register("coin", CoinGame)
