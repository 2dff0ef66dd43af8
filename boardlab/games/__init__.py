"""The built-in games, one package each (listed by import path in :data:`boardlab.engine.registry.BUILTIN`)."""

from boardlab.engine.registry import BUILTIN

__all__ = ["BUILTIN"]
