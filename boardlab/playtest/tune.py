"""``boardlab tune``: search a game's tunable rule parameters with Optuna.

Each trial sets the chosen parameters, plays a block of games with the same
seeds as every other trial (paired evaluation, so differences between trials
are not luck), repeated ``repeats`` times on further seed blocks, and scores:

* ``balance``: one minus the largest gap between seats' (or roles') win rates;
* ``length=T``: the relative distance of the mean length in turns from ``T``;
* ``truncation``: the truncated share.

A small penalty (``closeness`` weight) prefers settings near the designer's
values.  With one target the best trial is reported; with several, the
Pareto front.  The result can be saved as a variant file, playable with
``--variant FILE.json``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from boardlab.engine.errors import InvalidOptionError
from boardlab.engine.game import Option
from boardlab.engine.registry import game_class, make

from .metrics import balance, win_rates_by_role
from .run import seat_specs
from .simulate import RunConfig, play_rows

SAMPLERS = ("tpe", "random", "cmaes", "nsga2", "qmc")


@dataclass(frozen=True)
class Target:
    """One objective: ``balance``, ``truncation`` or ``length`` (with a goal in turns)."""

    kind: str
    goal: float | None = None

    @classmethod
    def parse(cls, text: str) -> "Target":
        text = text.strip()
        if text in ("balance", "truncation"):
            return cls(text)
        if text.startswith("length="):
            try:
                goal = float(text.split("=", 1)[1])
            except ValueError:
                raise InvalidOptionError(f"target {text!r}: length needs a number of turns, e.g. length=40") from None
            if goal <= 0:
                raise InvalidOptionError(f"target {text!r}: length must be positive")
            return cls("length", goal)
        raise InvalidOptionError(f"unknown target {text!r} (targets: balance, truncation, length=TURNS)")

    @property
    def label(self) -> str:
        return f"length={self.goal:g}" if self.kind == "length" else self.kind

    def loss(self, rows: Sequence[dict[str, Any]], players: int) -> float:
        """Lower is better; 0 is perfect."""
        if self.kind == "balance":
            roles = win_rates_by_role(rows)
            role_rates = [r["rate"] for r in roles.values()]
            seat_gap = 1.0 - balance(rows, players)
            if len(roles) > 1 and set(roles) != {f"seat {i}" for i in range(players)}:
                return max(seat_gap, max(role_rates) - min(role_rates))
            return seat_gap
        if self.kind == "truncation":
            return sum(1 for r in rows if r["truncated"]) / len(rows)
        mean = sum(r["turns"] for r in rows) / len(rows)
        return abs(mean - float(self.goal)) / float(self.goal)


def tunable_options(game_id: str) -> dict[str, Option]:
    """The game's options that may be tuned (declared ``tunable`` with bounds)."""
    return {o.name: o for o in game_class(game_id).options if o.tunable and o.low is not None and o.high is not None}


def _suggest(trial: Any, opt: Option) -> Any:
    if opt.kind == "int":
        return trial.suggest_int(opt.name, int(opt.low), int(opt.high))
    if opt.kind == "float":
        return trial.suggest_float(opt.name, float(opt.low), float(opt.high))
    if opt.kind == "bool":
        return trial.suggest_categorical(opt.name, [False, True])
    raise InvalidOptionError(f"option {opt.name!r} of kind {opt.kind} cannot be tuned")


def _sampler(name: str, seed: int, multi: bool) -> Any:
    import optuna

    if name == "tpe":
        return optuna.samplers.TPESampler(seed=seed)
    if name == "random":
        return optuna.samplers.RandomSampler(seed=seed)
    if name == "cmaes":
        if multi:
            raise InvalidOptionError("the cmaes sampler handles one target only; use nsga2 or tpe")
        return optuna.samplers.CmaEsSampler(seed=seed)
    if name == "nsga2":
        return optuna.samplers.NSGAIISampler(seed=seed)
    if name == "qmc":
        return optuna.samplers.QMCSampler(seed=seed)
    raise InvalidOptionError(f"unknown sampler {name!r} (samplers: {', '.join(SAMPLERS)})")


def tune(
    game_id: str,
    *,
    targets: Sequence[str],
    params: Sequence[str] | None = None,
    trials: int = 20,
    games: int = 100,
    repeats: int = 1,
    players: int | None = None,
    variant: str | None = None,
    agents: Sequence[str] | None = None,
    seed: int = 0,
    sampler: str = "tpe",
    closeness: float = 0.05,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Search the named tunable parameters toward the targets; returns best settings or the Pareto front."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    if trials < 1 or games < 1 or repeats < 1:
        raise InvalidOptionError("--trials, --games and --repeats must be at least 1")
    tgs = [Target.parse(t) for t in targets]
    if not tgs:
        raise InvalidOptionError("give at least one --target")
    base_game = make(game_id, players=players, variant=variant)
    available = tunable_options(game_id)
    names = list(params) if params else list(available)
    if not names:
        raise InvalidOptionError(f"{game_id} declares no tunable parameters")
    for n in names:
        if n not in available:
            raise InvalidOptionError(f"{game_id} has no tunable parameter {n!r} (tunable: {', '.join(sorted(available)) or 'none'})")
    specs = seat_specs(base_game, agents)
    defaults = {n: base_game.option_values[n] for n in names}
    multi = len(tgs) > 1
    study = optuna.create_study(
        directions=["minimize"] * len(tgs) if multi else None,
        direction=None if multi else "minimize",
        sampler=_sampler(sampler, seed, multi),
    )
    study.enqueue_trial(dict(defaults))
    total_games = games * repeats
    evaluations: dict[str, list[float]] = {}

    def evaluate(values: dict[str, Any]) -> list[float]:
        key = json.dumps(values, sort_keys=True)
        if key in evaluations:
            return evaluations[key]
        options = {**base_game.overrides, **values}
        config = RunConfig(game_id, base_game.players, base_game.variant, options, tuple(specs), total_games, seed)
        rows = _play(config, jobs)
        losses = [t.loss(rows, base_game.players) for t in tgs]
        evaluations[key] = losses
        return losses

    def distance(values: dict[str, Any]) -> float:
        d = 0.0
        for n, v in values.items():
            opt = available[n]
            span = float(opt.high) - float(opt.low) or 1.0
            d += abs(float(v) - float(defaults[n])) / span
        return d / len(values)

    def objective(trial: Any) -> Any:
        values = {n: _suggest(trial, available[n]) for n in names}
        losses = evaluate(values)
        penalty = closeness * distance(values)
        trial.set_user_attr("raw", losses)
        if progress:
            progress(trial.number + 1, trials)
        scored = [l + penalty for l in losses]
        return scored if multi else scored[0]

    study.optimize(objective, n_trials=trials)
    result: dict[str, Any] = {
        "game": game_id,
        "players": base_game.players,
        "variant": base_game.variant,
        "targets": [t.label for t in tgs],
        "params": names,
        "defaults": defaults,
        "trials": trials,
        "games_per_trial": total_games,
        "sampler": sampler,
        "default_losses": evaluate(dict(defaults)),
    }
    if multi:
        front = [{"params": t.params, "losses": t.user_attrs["raw"]} for t in study.best_trials]
        front.sort(key=lambda f: f["losses"])
        result["pareto_front"] = front
        result["best"] = front[0]
    else:
        best = study.best_trial
        result["best"] = {"params": best.params, "losses": best.user_attrs["raw"]}
    return result


def _play(config: RunConfig, jobs: int) -> list[dict[str, Any]]:
    indexes = list(range(config.games))
    if jobs <= 1:
        return play_rows(config.to_json(), indexes)
    from .simulate import run_local

    rows: list[dict[str, Any]] = []
    run_local(config, indexes, jobs, rows.extend)
    return rows


def save_variant(result: dict[str, Any], path: str | Path, name: str | None = None, params: dict[str, Any] | None = None) -> Path:
    """Write the best settings (or ``params``) as a variant file playable with ``--variant FILE``."""
    path = Path(path)
    chosen = params if params is not None else result["best"]["params"]
    doc = {
        "name": name or path.stem,
        "game": result["game"],
        "base": result["variant"],
        "description": f"Tuned by boardlab tune toward {', '.join(result['targets'])} ({result['trials']} trials, {result['games_per_trial']} games each).",
        "overrides": chosen,
    }
    path.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path


