"""Fitted position evaluations: a seat's chance to win, learned from self-play.

Search agents that stop a playout early need a number in [0, 1] for every
seat.  A game may hand-write :meth:`State.evaluate`, but hand-set weights are
rarely calibrated.  A *fitted evaluation* is a logistic model over the game's
own :meth:`State.features`, fitted on positions from self-play games labelled
with how those games ended (``boardlab fit-eval``, in
:mod:`boardlab.playtest.evalfit`)::

    P(seat wins) = sigmoid(bias + sum_f own[f] * features(seat)[f]
                                + sum_f rival[f] * max_{o != seat} features(o)[f])

One model is kept per player count and per role (``State.roles()``), so an
asymmetric game (one wizard against the heroes) or a seat advantage gets its
own weights.  A model for another player count is used when the exact one is
missing (the nearest count).  The file is plain JSON, so a designer can read
and edit it::

    {"format": 1, "game": "dungeons-jewel", "features": ["health", ...],
     "models": {"2": {"player 1": {"bias": 0.1, "own": {...}, "rival": {...}}, ...}},
     "fit": {...how it was made: variant, games, agents, seed, log-loss...}}

The engine knows no game: this module only reads features by name.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from .errors import ContentError
from .files import load_json_file

if TYPE_CHECKING:  # pragma: no cover
    from .state import State

FORMAT = 1

Model = tuple[float, tuple[tuple[str, float], ...], tuple[tuple[str, float], ...]]


def finite_number(value: Any, where: str) -> float:
    """``value`` as a float; :class:`ContentError` naming ``where`` unless it is a finite int or float."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ContentError(f"{where} must be a finite number, got {value!r}")
    return float(value)


def file_header(data: Any, source: str, what: str, fmt: int) -> str:
    """Check a fitted file's JSON header (an object of format ``fmt``); return its game id.

    ``what`` names the kind of file in the messages (``evaluation``, ``policy``).  Raises
    :class:`ContentError` naming ``source`` when the header is malformed.
    """
    if not isinstance(data, dict):
        article = "an" if what[0] in "aeiou" else "a"
        raise ContentError(f"{source}: {article} {what} file holds a JSON object")
    if data.get("format") != fmt:
        raise ContentError(f"{source}: unsupported {what} format {data.get('format')!r} (expected {fmt})")
    game_id = data.get("game", "")
    if not isinstance(game_id, str):
        raise ContentError(f"{source}: 'game' must be a game id")
    return game_id


class FittedEvaluation:
    """A parsed evaluation file (see the module docs).  Raises :class:`ContentError` when malformed."""

    __slots__ = ("game_id", "features", "models", "fit", "source")

    def __init__(self, data: Any, source: str = "evaluation") -> None:
        self.source = source
        self.game_id = file_header(data, source, "evaluation", FORMAT)
        feats = data.get("features")
        if not isinstance(feats, list) or not all(isinstance(f, str) for f in feats):
            raise ContentError(f"{source}: 'features' must be a list of feature names")
        self.features = tuple(feats)
        models = data.get("models")
        if not isinstance(models, dict) or not models:
            raise ContentError(f"{source}: 'models' must map player counts to models by role")
        self.models: dict[int, dict[str, Model]] = {}
        for count, by_role in models.items():
            if not str(count).isdigit() or len(str(count)) > 3 or int(count) < 1:  # (int() of 4,300+ digits raises)
                raise ContentError(f"{source}: model key {str(count)[:20]!r} is not a player count")
            if not isinstance(by_role, dict) or not by_role:
                raise ContentError(f"{source}: models[{count}] must map roles to weights")
            parsed: dict[str, Model] = {}
            for role, m in by_role.items():
                where = f"{source}: models[{count}][{role}]"
                if not isinstance(m, dict):
                    raise ContentError(f"{where} must be an object with bias, own and rival")
                bias = finite_number(m.get("bias", 0.0), f"{where}.bias")
                parts = []
                for part in ("own", "rival"):
                    w = m.get(part, {})
                    if not isinstance(w, dict):
                        raise ContentError(f"{where}.{part} must map feature names to weights")
                    unknown = sorted(set(w) - set(self.features))
                    if unknown:
                        raise ContentError(f"{where}.{part} names unknown feature {unknown[0]!r}")
                    parts.append(tuple((f, finite_number(v, f"{where}.{part}.{f}")) for f, v in sorted(w.items()) if v))
                parsed[str(role)] = (bias, parts[0], parts[1])
            self.models[int(count)] = parsed
        fit = data.get("fit", {})
        self.fit = fit if isinstance(fit, dict) else {}

    @classmethod
    def load(cls, path: str | Path) -> "FittedEvaluation":
        return cls(load_json_file(path, "evaluation file"), str(path))

    def models_for(self, players: int) -> dict[str, Model]:
        """The models for ``players`` seats, or those of the nearest player count."""
        if players in self.models:
            return self.models[players]
        nearest = min(self.models, key=lambda n: (abs(n - players), n))
        return self.models[nearest]

    def evaluator(self, players: int) -> Callable[["State"], tuple[float, ...]]:
        """A function giving every seat's estimated win chance in a (non-terminal) state."""
        by_role = self.models_for(players)
        fallback = next(iter(by_role.values()))
        exp = math.exp
        seats = range(players)

        def values(state: "State") -> tuple[float, ...]:
            feats = [state.features(s) for s in seats]
            roles = state.roles()
            out = []
            for s in seats:
                bias, own, rival = by_role.get(roles[s], fallback)
                mine = feats[s]
                x = bias
                for f, w in own:
                    x += w * mine.get(f, 0.0)
                if rival:
                    others = [feats[o] for o in seats if o != s]
                    for f, w in rival:
                        x += w * max(o.get(f, 0.0) for o in others)
                x = -40.0 if x < -40.0 else 40.0 if x > 40.0 else x
                out.append(1.0 / (1.0 + exp(-x)))
            return tuple(out)

        return values

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game_id,
            "features": list(self.features),
            "models": {
                str(n): {role: {"bias": b, "own": dict(own), "rival": dict(rival)} for role, (b, own, rival) in by.items()}
                for n, by in sorted(self.models.items())
            },
            "fit": self.fit,
        }
