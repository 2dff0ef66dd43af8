"""Which engine plays a game: the Python rules (the reference) or the compiled core.

boardlab's rules have one reference, the Python rules in ``boardlab/games``: the designer's editable
path. The compiled core (the ``boardlab_core`` extension module, a Rust crate in
``crates/boardlab-core`` built by maturin) is an accelerator for built-in games: it plays the same
games move for move, and ``scripts/differential.py`` (with ``tests/core``) checks that it does, state
by state. A command asks :func:`choose` which engine plays a configuration:

``auto``
    the core when it is installed and supports the game, its variant, options and content, and every
    agent of the run; Python otherwise. The default.
``python``
    always the Python rules.
``core``
    the core, or :class:`EngineUnavailable` with one line that says why not.

The ``BOARDLAB_ENGINE`` environment variable sets the default for ``auto``'s place (``python`` to
switch the core off everywhere). Whatever the choice, the same seed gives the same game: results do
not depend on the engine, and the run's manifest and report say which one ran (:meth:`EngineChoice.to_json`).

A game supports the core by implementing :meth:`boardlab.engine.game.Game.core_spec`: the JSON the core
builds the configured game from, or :class:`EngineUnavailable` naming what it does not support.

>>> choose(None, requested="python").engine
'python'
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from .errors import BoardlabError

#: The values of ``--engine``.
ENGINES = ("auto", "python", "core")
_UNSET = object()
_NATIVE: Any = _UNSET
_NATIVE_REASON = ""
#: Maps ``(game, agent spec)`` to the concrete spec the core is asked to play: the agents layer
#: registers one (:func:`set_spec_resolver`) that turns the level names (``strong`` ...) into the
#: search they stand for, so ``--skill-check`` and ``--agents strong`` run on the core too.
_SPEC_RESOLVER: Callable[[Any, str], str] | None = None


class EngineUnavailable(BoardlabError):
    """The compiled core cannot play this configuration (the message says why, in one line)."""


@dataclass(frozen=True, slots=True)
class EngineChoice:
    """The engine a run uses, why, and (for the core) the configured game's spec for it."""

    engine: str
    reason: str
    spec: str | None = None
    version: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"engine": self.engine, "reason": self.reason}
        if self.version:
            out["core_version"] = self.version
        return out

    @property
    def label(self) -> str:
        """``core 0.1.0`` or ``python``, with the reason: for reports."""
        name = f"compiled core {self.version}" if self.engine == "core" else "Python rules"
        return f"{name} ({self.reason})"


def native() -> Any:
    """The ``boardlab_core`` extension module, or ``None`` when it is not installed."""
    global _NATIVE, _NATIVE_REASON
    if _NATIVE is _UNSET:
        try:
            import boardlab_core  # type: ignore[import-not-found]

            _NATIVE = boardlab_core
        except ImportError as exc:  # not built here: pure Python
            _NATIVE = None
            _NATIVE_REASON = f"the compiled core is not installed ({exc.name or 'boardlab_core'} not importable)"
    return _NATIVE


def default_engine() -> str:
    """``BOARDLAB_ENGINE`` when set to a known engine, else ``auto``."""
    value = os.environ.get("BOARDLAB_ENGINE", "auto").strip().lower()
    return value if value in ENGINES else "auto"


def check_engine(requested: str | None) -> str:
    """``requested`` if it is an engine name (``None``: the default); else :class:`BoardlabError`."""
    if requested is None:
        return default_engine()
    if requested not in ENGINES:
        raise BoardlabError(f"unknown engine {requested!r} (engines: {', '.join(ENGINES)})")
    return requested


def set_spec_resolver(resolver: Callable[[Any, str], str] | None) -> None:
    """Register how an agent spec becomes the core's concrete spec (see :func:`core_agent_specs`)."""
    global _SPEC_RESOLVER
    _SPEC_RESOLVER = resolver


def core_agent_specs(game: Any, agent_specs: Sequence[str]) -> list[str]:
    """``agent_specs`` as the core is asked to play them (level names resolved; others unchanged)."""
    if _SPEC_RESOLVER is None or game is None:
        return list(agent_specs)
    return [_SPEC_RESOLVER(game, spec) for spec in agent_specs]


def core_reason(game: Any, agent_specs: Sequence[str] = (), *, restricted: bool = False) -> tuple[str | None, str | None]:
    """``(spec, None)`` when the core can play ``game`` with ``agent_specs``, else ``(None, why)``."""
    mod = native()
    if mod is None:
        return None, _NATIVE_REASON
    if game is None:
        return None, "no game"
    if game.id not in getattr(mod, "GAMES", ()):
        return None, f"the compiled core does not have {game.name} yet"
    if restricted:
        return None, "restricted play (--restrict) runs on the Python rules"
    try:
        spec = game.core_spec()
    except EngineUnavailable as exc:
        return None, str(exc)
    for agent, concrete in zip(agent_specs, core_agent_specs(game, agent_specs)):
        try:
            mod.check_agent(game.id, concrete)
        except ValueError as exc:
            return None, f"agent {agent!r}: {exc}"
    return spec, None


def choose(game: Any, agent_specs: Sequence[str] = (), requested: str | None = None, *,
           restricted: bool = False) -> EngineChoice:
    """The engine for ``game`` played by ``agent_specs`` (see the module docstring)."""
    wanted = check_engine(requested)
    if wanted == "python":
        why = "--engine python" if requested == "python" else "BOARDLAB_ENGINE=python"
        return EngineChoice("python", why)
    spec, why = core_reason(game, agent_specs, restricted=restricted)
    if spec is None:
        if wanted == "core":
            raise EngineUnavailable(f"--engine core cannot run this: {why}")
        return EngineChoice("python", why or "unsupported")
    version = getattr(native(), "__version__", "?")
    return EngineChoice("core", "--engine core" if wanted == "core" else "installed and supports this run", spec, version)
