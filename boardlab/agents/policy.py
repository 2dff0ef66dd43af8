"""Distilled policies: a fast agent fitted to a search agent's decisions.

A search agent (``ismcts``) is strong but slow: every decision costs hundreds
of playouts.  A *distilled policy* imitates it at the cost of one look ahead
per legal action.  For a decision it draws one determinization of the seat's
view (:meth:`Decision.sample`, so it never peeks), applies each legal action
to a copy with the same chance stream, and describes the resulting position
by the game's own :meth:`State.features`: the seat's (``own``) and the best
rival's (``rival``), whether the game ended and how it scored for the seat,
whether the seat acts again, and which kind of action it was.  Its score for
the action is a linear function of that description plus a bonus for the
game's ``heuristic`` move::

    score(a) = sum_i w[kind][i] * x_i(a) + heuristic[kind] * [a == heuristic's move]

and it plays the highest score.  When the game's heuristic can score every
legal action (an optional ``scores(decision)`` method, as Blackfire's has), one
more column, :data:`SCORE`, holds each action's score minus the best one's, so
the model can learn *when* to leave the heuristic's choice.  ``kind`` is the decision's kind (the first
legal action's name: ``move``, ``place``...), so each kind of decision gets
its own weights.  A kind the file does not know is played as the heuristic
plays it.

The weights are fitted by :mod:`boardlab.playtest.policyfit`
(``boardlab fit-policy``): a conditional-logit model (softmax over the legal
actions) whose targets are the search's root visit shares.  The file is plain
JSON, like a fitted evaluation::

    {"format": 1, "game": "dungeons-jewel", "features": ["own:health", ...],
     "models": {"move": {"weights": [...], "heuristic": 1.3}, ...},
     "fit": {...how it was made...}}

Parameters (``policy:file=auto``): ``file`` is ``auto`` (the game's
``policy_file``) or the path of a policy JSON file.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from boardlab.engine.errors import ContentError, UnknownAgentError
from boardlab.engine.evaluation import file_header, finite_number
from boardlab.engine.files import load_json_file
from boardlab.engine.rng import Rng, derive_seed

from .base import BaseAgent, Decision

if TYPE_CHECKING:  # pragma: no cover
    from boardlab.engine.game import Game
    from boardlab.engine.state import Action, State

FORMAT = 1
#: Per-action description beyond the game's features: the afterstate ended / the
#: seat's score if it did / the seat acts again.
EXTRA = ("over", "over_score", "again")
#: The column a game's heuristic adds when it can score every legal action (``scores(decision)``):
#: the action's score minus the best one's, so the heuristic's context (how good its best move is)
#: reaches the model.
SCORE = "heuristic_score"
#: The search agent ``boardlab fit-policy`` imitates unless told otherwise: the default
#: ``ismcts`` budget without its wall-clock cap.
DEFAULT_TEACHER = "ismcts:iterations=200"

_POLICIES: dict[str, "PolicyModel"] = {}


def feature_names(game: "Game", state: "State | None" = None) -> list[str]:
    """The names of the per-action description, in order (without the action-kind one-hots)."""
    if state is None:
        state = game.new_state(0)
    names = list(state.features(0))
    extra = list(EXTRA) + ([SCORE] if scoring_heuristic(game) else [])
    return [f"own:{n}" for n in names] + [f"rival:{n}" for n in names] + extra


def scoring_heuristic(game: "Game") -> bool:
    """Whether the game's heuristic agent scores every legal action (``scores(decision)``)."""
    cls = (getattr(game, "agents", None) or {}).get("heuristic")
    if isinstance(cls, str):
        from . import agent_class

        cls = agent_class("heuristic", game)
    return callable(getattr(cls, "scores", None))


def action_rows(decision: Decision, rng: Rng, names: Sequence[str], kinds: Sequence[str],
                scores: Sequence[float] | None = None) -> list[list[float]]:
    """One description row per legal action of ``decision`` (see the module docs).

    ``names`` are the game's feature names (without ``own:``/``rival:``);
    ``kinds`` the action kinds given a one-hot column each; ``scores`` the
    heuristic's score of each legal action, if the model has a :data:`SCORE`
    column.  Every action is applied to a copy of the same determinization
    with the same chance stream, so the rows differ only by what the actions do.
    """
    top = max(scores) if scores else 0.0
    seat = decision.seat
    base = decision.sample(rng)
    wseed = rng.next64()
    n = decision.game.players
    others = [o for o in range(n) if o != seat]
    kind_index = {k: i for i, k in enumerate(kinds)}
    rows: list[list[float]] = []
    for j, a in enumerate(decision.legal):
        s = base.clone()
        s.rng = Rng(wseed)
        s.apply(a)
        own = s.features(seat)
        row = [float(own[k]) for k in names]
        if others:
            feats = [s.features(o) for o in others]
            row += [max(float(f[k]) for f in feats) for k in names]
        else:
            row += [0.0] * len(names)
        over = s.is_over()
        row.append(1.0 if over else 0.0)
        row.append(float(s.results().scores[seat]) if over else 0.0)
        row.append(1.0 if not over and s.current_seat() == seat else 0.0)
        if scores is not None:
            row.append(float(scores[j]) - top)
        onehot = [0.0] * len(kinds)
        i = kind_index.get(str(a[0]))
        if i is not None:
            onehot[i] = 1.0
        rows.append(row + onehot)
    return rows


def best_index(weights: Sequence[float], bonus: float, rows: Sequence[Sequence[float]], hint: int) -> int:
    """The row with the highest score ``weights . row`` (+ ``bonus`` for row ``hint``; ties go to ``hint``,
    then to the earlier row): the policy's choice, shared by the agent and the fit's held-out check."""
    best, best_score = 0, -math.inf
    for i, row in enumerate(rows):
        score = sum(w * x for w, x in zip(weights, row))
        if i == hint:
            score += bonus
        if score > best_score or (score == best_score and i == hint):
            best, best_score = i, score
    return best


class PolicyModel:
    """A parsed policy file (see the module docs).  Raises :class:`ContentError` when malformed."""

    __slots__ = ("game_id", "features", "kinds", "models", "fit", "source", "uses_scores")

    def __init__(self, data: Any, source: str = "policy") -> None:
        self.source = source
        self.game_id = file_header(data, source, "policy", FORMAT)
        feats = data.get("features")
        kinds = data.get("action_kinds", [])
        for key, val in (("features", feats), ("action_kinds", kinds)):
            if not isinstance(val, list) or not all(isinstance(x, str) for x in val):
                raise ContentError(f"{source}: {key!r} must be a list of names")
        self.features: list[str] = list(feats)  # type: ignore[arg-type]
        self.uses_scores = SCORE in self.features
        if self.uses_scores and self.features[-1] != SCORE:
            raise ContentError(f"{source}: {SCORE!r} must be the last feature")
        self.kinds: list[str] = list(kinds)
        width = len(self.features) + len(self.kinds)
        models = data.get("models")
        if not isinstance(models, dict):
            raise ContentError(f"{source}: 'models' must be an object of decision kinds")
        self.models: dict[str, tuple[tuple[float, ...], float]] = {}
        for kind, m in models.items():
            where = f"{source}: models[{kind!r}]"
            if not isinstance(m, dict) or not isinstance(m.get("weights"), list):
                raise ContentError(f"{where} must hold 'weights' (a list) and 'heuristic' (a number)")
            w = m["weights"]
            if len(w) != width:
                raise ContentError(f"{where}: {len(w)} weights for {width} columns")
            self.models[kind] = (tuple(finite_number(x, where) for x in w), finite_number(m.get("heuristic", 0.0), where))
        self.fit = data.get("fit", {})

    @classmethod
    def load(cls, path: "str | Path") -> "PolicyModel":
        return cls(load_json_file(path, "policy"), source=str(path))

    def base_names(self) -> list[str]:
        """The game feature names the rows use (``own:x`` gives ``x``)."""
        return [f[4:] for f in self.features if f.startswith("own:")]


def game_policy(game: "Game") -> "PolicyModel | None":
    """The game's shipped policy (``Game.policy_file``, read once), or ``None``."""
    path = getattr(game, "policy_file", None)
    if path is None or not Path(path).exists():
        return None
    key = str(path)
    model = _POLICIES.get(key)
    if model is None:
        model = _POLICIES[key] = PolicyModel.load(path)
    return model


def load_policy(game: "Game", choice: str) -> PolicyModel:
    """``auto`` (the game's policy) or a policy file's path; raises :class:`UnknownAgentError`."""
    if choice == "auto":
        model = game_policy(game)
        if model is None:
            raise UnknownAgentError(f"{getattr(game, 'id', 'this game')} has no fitted policy (boardlab fit-policy makes one)")
    elif isinstance(choice, str) and choice.endswith(".json"):
        key = str(Path(choice).resolve())
        model = _POLICIES.get(key) or PolicyModel.load(choice)
        _POLICIES[key] = model
    else:
        raise UnknownAgentError(f"policy file must be auto or a .json file, got {choice!r}")
    gid = getattr(game, "id", "")
    if model.game_id and gid and model.game_id != gid:
        raise UnknownAgentError(f"{model.source} is a policy for {model.game_id}, not {gid}")
    names = set(feature_names(game)) if game is not None else set()
    missing = [f for f in model.features if f not in names]
    if missing:
        raise UnknownAgentError(f"{model.source}: the game has no feature {missing[0]!r}")
    return model


class PolicyAgent(BaseAgent):
    """Plays the highest-scoring legal action of a distilled policy (see the module docs)."""

    defaults: dict[str, Any] = {"file": "auto"}

    def __init__(self, game: "Game", seat: int, seed: int = 0, **params: Any) -> None:
        super().__init__(game, seat, seed, **params)  # refuses unknown parameters
        self.model = load_policy(game, self.params["file"])
        self.names = self.model.base_names()
        from . import agent_class

        self.heuristic = None
        if "heuristic" in getattr(game, "agents", {}):
            self.heuristic = agent_class("heuristic", game)(game, seat, derive_seed(seed, 81))

    @classmethod
    def check_params(cls, game: Any, params: dict[str, Any]) -> None:
        cls.refuse_unknown(params, "policy")
        if game is not None:
            load_policy(game, {**cls.defaults, **params}["file"])

    def act(self, decision: Decision) -> "Action":
        legal = decision.legal
        if len(legal) == 1:
            return legal[0]
        hint = self.heuristic.act(decision) if self.heuristic is not None else None
        m = self.model.models.get(str(legal[0][0]))
        if m is None:
            return hint if hint is not None else legal[0]
        weights, bonus = m
        game = decision.game
        recording = game.record_events
        game.record_events = False
        try:
            scores = self.heuristic.scores(decision) if self.model.uses_scores else None
            rows = action_rows(decision, self.rng, self.names, self.model.kinds, scores)
        finally:
            game.record_events = recording
        return legal[best_index(weights, bonus, rows, legal.index(hint) if hint in legal else -1)]
