import pytest

from boardlab.engine import registry

from .toy import ToyGame

registry.register("toy", ToyGame)
