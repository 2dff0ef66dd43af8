"""The docstring examples of the engine and the terminal renderer run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "boardlab.engine.codec", "boardlab.engine.components", "boardlab.engine.rng", "boardlab.engine.game",
    "boardlab.engine.registry", "boardlab.engine.state", "boardlab.engine.scene", "boardlab.render.terminal",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failed, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failed == 0
