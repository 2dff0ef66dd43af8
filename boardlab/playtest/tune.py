"""``boardlab tune``: search a game's tunable rule parameters, then confirm the result on fresh games.

1. **Search.** Optuna's sampler proposes ``trials`` settings (the designer's
   values are always the first). Every setting plays the same seeds (paired
   evaluation: settings differ by their rules, not their luck).
2. **Successive halving.** All settings play ``games`` games (rung 0); the best
   third (``eta``) play ``eta`` times as many, and so on for ``rungs`` rungs, so
   promising settings get more games and the noise of a few games cannot crown a
   winner. Games of a lower rung are reused (game *i* has the same seed).
3. **Objective.** Each target (``balance``: the largest seat or side win-rate
   gap; ``length=T``: relative distance of the mean length from T;
   ``truncation``: the truncated share) has a ``tolerance``. A setting whose loss
   is within it *reaches* the target. Among settings that reach every target the
   smallest change from the designer's values (normalised distance) wins; if none
   reaches, the lowest loss (plus the ``closeness`` penalty) wins. Every loss is
   shown with a 95% bootstrap interval over the games.
4. **Confirmation.** The chosen setting and the designer's values play
   ``confirm_games`` FRESH games (a seed never used in the search), paired by
   seed; a paired bootstrap test of the loss difference gives a p-value, and the
   result is reported as "confirmed" (a target significantly lower, Holm across targets, none higher) or "not
   distinguishable from the original".

With ``out``, everything goes to a run folder: ``tune.json``, ``tune.html``, and
the two confirmation runs (each a normal playtest run folder with its report,
headed by the tuned values) with their HTML comparison. With several targets the
Pareto front of the top rung is also reported. The result can be saved as a
variant file, playable with ``--variant FILE.json``.
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
#: The longest ``length=`` goal, in turns (a turn cap beyond it is not a game anyone plays).
MAX_LENGTH_GOAL = 100_000


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
            if not 0 < goal <= MAX_LENGTH_GOAL:  # (also refuses nan and inf)
                raise InvalidOptionError(f"target {text!r}: length must be a number of turns in (0, {MAX_LENGTH_GOAL:,}]")
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


DEFAULT_TOLERANCE = {"balance": 0.05, "truncation": 0.01, "length": 0.05}


def _loss_of_resamples(target: Target, rows: Sequence[dict[str, Any]], players: int) -> Callable[[Any], Any]:
    """A vectorised ``target.loss``: maps a (resamples x games) index array to the losses of those resamples.

    Agrees with :meth:`Target.loss` on the identity resample (a test checks it).
    """
    import numpy as np

    n = len(rows)
    if target.kind == "truncation":
        trunc = np.array([1.0 if r["truncated"] else 0.0 for r in rows])
        return lambda idx: trunc[idx].mean(axis=1)
    if target.kind == "length":
        turns = np.array([float(r["turns"]) for r in rows])
        goal = float(target.goal)
        return lambda idx: np.abs(turns[idx].mean(axis=1) - goal) / goal
    seats = np.zeros((n, players))
    for i, r in enumerate(rows):
        for w in r["winners"]:
            seats[i, w] = 1.0
    roles = sorted({role for r in rows for role in r["roles"]})
    use_roles = len(roles) > 1 and set(roles) != {f"seat {i}" for i in range(players)}
    won = np.zeros((n, len(roles)))
    played = np.zeros((n, len(roles)))
    col = {role: j for j, role in enumerate(roles)}
    for i, r in enumerate(rows):
        rl = list(r["roles"])
        for role in set(rl):
            played[i, col[role]] = 1.0
        for role in {rl[w] for w in r["winners"]}:
            won[i, col[role]] = 1.0

    def losses(idx: Any) -> Any:
        rates = seats[idx].mean(axis=1)
        gap = rates.max(axis=1) - rates.min(axis=1)
        if use_roles:
            with np.errstate(invalid="ignore", divide="ignore"):
                rr = won[idx].sum(axis=1) / played[idx].sum(axis=1)
            rr = np.where(np.isnan(rr), 0.0, rr)
            gap = np.maximum(gap, rr.max(axis=1) - rr.min(axis=1))
        return gap

    return losses


def loss_interval(target: Target, rows: Sequence[dict[str, Any]], players: int, resamples: int = 1000, seed: int = 0) -> tuple[float, float]:
    """Percentile bootstrap 95% interval of a target's loss over the games (resampling games)."""
    import numpy as np

    n = len(rows)
    if n < 2:
        v = target.loss(rows, players) if rows else 0.0
        return (v, v)
    f = _loss_of_resamples(target, rows, players)
    vals = np.sort(f(np.random.default_rng(seed).integers(0, n, (resamples, n))))
    return (float(vals[int(0.025 * resamples)]), float(vals[min(resamples - 1, int(0.975 * resamples))]))


def paired_loss_test(target: Target, rows_a: Sequence[dict[str, Any]], rows_b: Sequence[dict[str, Any]], players: int,
                     resamples: int = 2000, seed: int = 0) -> dict[str, Any]:
    """Paired bootstrap test of ``loss(B) - loss(A)`` over games paired by seed (resampling pairs jointly).

    The p-value is twice the smaller tail of the bootstrap distribution around zero
    (its resolution is ``1 / resamples``).
    """
    import numpy as np

    by_seed = {r["seed"]: r for r in rows_b}
    pairs = [(r, by_seed[r["seed"]]) for r in rows_a if r["seed"] in by_seed]
    n = len(pairs)
    pa, pb = [a for a, _ in pairs], [b for _, b in pairs]
    la, lb = target.loss(pa, players), target.loss(pb, players)
    idx = np.random.default_rng(seed).integers(0, n, (resamples, n))
    diffs = np.sort(_loss_of_resamples(target, pb, players)(idx) - _loss_of_resamples(target, pa, players)(idx))
    below = float((diffs <= 0).mean())
    above = float((diffs >= 0).mean())
    return {"loss_a": la, "loss_b": lb, "difference": lb - la, "ci_low": float(diffs[int(0.025 * resamples)]),
            "ci_high": float(diffs[min(resamples - 1, int(0.975 * resamples))]), "p_value": min(1.0, 2 * min(below, above)),
            "games": n, "resamples": resamples}


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
    rungs: int = 3,
    eta: int = 3,
    tolerance: Sequence[float] | None = None,
    confirm_games: int | None = None,
    out: str | Path | None = None,
    on_trial: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Search, race and confirm (see the module docstring); returns the trials, the choice and the confirmation."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    if trials < 1 or games < 1 or repeats < 1 or rungs < 1 or eta < 2:
        raise InvalidOptionError("--trials, --games, --repeats and --rungs must be at least 1, --eta at least 2")
    tgs = [Target.parse(t) for t in targets]
    if not tgs:
        raise InvalidOptionError("give at least one --target")
    tols = list(tolerance) if tolerance else [DEFAULT_TOLERANCE[t.kind] for t in tgs]
    if len(tols) != len(tgs) or any(t < 0 for t in tols):
        raise InvalidOptionError(f"--tolerance needs one non-negative value per --target ({len(tgs)})")
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
    players_n = base_game.players
    multi = len(tgs) > 1
    study = optuna.create_study(
        directions=["minimize"] * len(tgs) if multi else None,
        direction=None if multi else "minimize",
        sampler=_sampler(sampler, seed, multi),
    )
    study.enqueue_trial(dict(defaults))
    g0 = games * repeats
    rung_games = [g0 * eta ** r for r in range(rungs)]
    keep = [trials]
    for _ in range(1, rungs):
        keep.append(max(1, -(-keep[-1] // eta)))
    total = sum(k * g for k, g in zip(keep, rung_games)) - sum(keep[r] * rung_games[r - 1] for r in range(1, rungs))
    played = [0]
    rows_of: dict[str, list[dict[str, Any]]] = {}

    def config_for(values: dict[str, Any], n_games: int, run_seed: int) -> RunConfig:
        options = {**base_game.overrides, **values}
        return RunConfig(game_id, players_n, base_game.variant, options, tuple(specs), n_games, run_seed)

    def rows_for(values: dict[str, Any], n_games: int) -> list[dict[str, Any]]:
        key = json.dumps(values, sort_keys=True)
        have = rows_of.setdefault(key, [])
        if len(have) < n_games:
            new = _play(config_for(values, n_games, seed), jobs, range(len(have), n_games))
            have.extend(sorted(new, key=lambda r: r["index"]))
            played[0] += len(new)
            if progress:
                progress(min(played[0], total), total)
        return have[:n_games]

    def distance(values: dict[str, Any]) -> float:
        d = 0.0
        for n, v in values.items():
            opt = available[n]
            span = float(opt.high) - float(opt.low) or 1.0
            d += abs(float(v) - float(defaults[n])) / span
        return d / len(values)

    records: list[dict[str, Any]] = []
    evaluations: list[dict[str, Any]] = []

    def evaluate(rec: dict[str, Any], rung: int) -> None:
        rows = rows_for(rec["params"], rung_games[rung])
        rec["rung"] = rung
        rec["games"] = len(rows)
        rec["losses"] = [t.loss(rows, players_n) for t in tgs]
        rec["intervals"] = [list(loss_interval(t, rows, players_n, seed=seed)) for t in tgs]
        rec["reached"] = all(l <= tol + 1e-12 for l, tol in zip(rec["losses"], tols))
        rec["mean_turns"] = sum(r["turns"] for r in rows) / len(rows)
        evaluations.append({k: v for k, v in rec.items()})

    def rank(rec: dict[str, Any]) -> tuple:
        if rec["reached"]:
            return (0, round(rec["distance"], 12), sum(rec["losses"]))
        return (1, sum(rec["losses"]) + closeness * rec["distance"], rec["distance"])

    for _ in range(trials):
        trial = study.ask()
        values = {n: _suggest(trial, available[n]) for n in names}
        key = json.dumps(values, sort_keys=True)
        twin = next((r for r in records if json.dumps(r["params"], sort_keys=True) == key), None)
        rec = {"number": trial.number, "params": values, "distance": distance(values), "duplicate_of": twin["number"] if twin else None}
        evaluate(rec, 0)
        scored = [l + closeness * rec["distance"] for l in rec["losses"]]
        study.tell(trial, scored if multi else scored[0])
        records.append(rec)
        if on_trial:
            on_trial(dict(rec))
    pool = [r for r in records if r["duplicate_of"] is None]
    for rung in range(1, rungs):
        pool = sorted(pool, key=rank)[: max(1, -(-len(pool) // eta))]
        for rec in pool:
            evaluate(rec, rung)
            if on_trial:
                on_trial(dict(rec))
    top = sorted(pool, key=rank)
    best = top[0]
    default_rec = next(r for r in records if r["number"] == 0)
    result: dict[str, Any] = {
        "game": game_id,
        "players": players_n,
        "variant": base_game.variant,
        "targets": [t.label for t in tgs],
        "tolerance": tols,
        "params": names,
        "defaults": defaults,
        "trials": trials,
        "games_per_trial": g0,
        "rung_games": rung_games,
        "games_played": played[0],
        "sampler": sampler,
        "seed": seed,
        "default_losses": default_rec["losses"],
        "default_intervals": default_rec["intervals"],
        "default_games": default_rec["games"],
        "trial_table": evaluations,
        "best": {"params": best["params"], "losses": best["losses"], "intervals": best["intervals"], "games": best["games"],
                 "reached": best["reached"], "distance": best["distance"]},
    }
    if multi:
        front = [{"params": r["params"], "losses": r["losses"]} for r in top
                 if not any(all(o["losses"][i] <= r["losses"][i] for i in range(len(tgs))) and o["losses"] != r["losses"] for o in top)]
        result["pareto_front"] = front
    result["confirmation"] = confirm(result, tgs, config_for, confirm_games or rung_games[-1], jobs, out, progress)
    if out is not None:
        write_tune_folder(out, result)
    return result


def confirm(result: dict[str, Any], tgs: Sequence[Target], config_for: Callable[..., RunConfig], n_games: int, jobs: int,
            out: str | Path | None, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Play the chosen setting and the designer's values on fresh seeds, paired; test the loss difference."""
    from boardlab.engine.rng import derive_seed

    if result["best"]["params"] == result["defaults"]:
        return {"verdict": "no change", "text": "The designer's values are the best setting found"
                + (" and already reach the target" if result["best"]["reached"] else "") + ": nothing to confirm."}
    fresh = derive_seed(result["seed"], 0x7E57)  # never a search seed: the search uses run seed ``seed``
    players = result["players"]
    cfg_a = config_for(dict(result["defaults"]), n_games, fresh)
    cfg_b = config_for(dict(result["best"]["params"]), n_games, fresh)
    if out is not None:
        from .run import execute
        from .store import RunDir

        folder = Path(out)
        execute(cfg_a, folder / "confirm-original", jobs=jobs)
        execute(cfg_b, folder / "confirm-tuned", jobs=jobs)
        rows_a, rows_b = RunDir(folder / "confirm-original").read_results(), RunDir(folder / "confirm-tuned").read_results()
    else:
        rows_a = _play(cfg_a, jobs, range(n_games))
        rows_b = _play(cfg_b, jobs, range(n_games))
    tests = [paired_loss_test(t, rows_a, rows_b, players, seed=result["seed"]) for t in tgs]
    from boardlab.stats import holm

    reject, adjusted = holm([t["p_value"] for t in tests])
    for t, rej, p in zip(tests, reject, adjusted):
        t["p_holm"] = p
        t["better"] = bool(rej and t["difference"] < 0)
        t["worse"] = bool(rej and t["difference"] > 0)
    # confirmed: some target significantly better, none significantly worse (a target both settings
    # already meet exactly, e.g. a length neither changes, cannot be "better")
    confirmed = any(t["better"] for t in tests) and not any(t["worse"] for t in tests)
    parts = [f"{tg.label}: loss {t['loss_a']:.3f} -> {t['loss_b']:.3f} ({t['difference']:+.3f} [{t['ci_low']:+.3f}, {t['ci_high']:+.3f}], "
             f"paired bootstrap p {_p(t['p_holm'])})" for tg, t in zip(tgs, tests)]
    verdict = "confirmed" if confirmed else "not distinguishable from the original"
    return {"verdict": verdict, "games": n_games, "seed": fresh, "tests": tests,
            "text": f"On {n_games} fresh games the tuned setting is {verdict}: " + "; ".join(parts) + "."}


def _p(p: float, resamples: int = 2000) -> str:
    return f"< {1 / resamples:g}" if p < 1 / resamples else f"= {p:.2g}"


def write_tune_folder(out: str | Path, result: dict[str, Any]) -> Path:
    """``tune.json`` and ``tune.html`` (trial table, choice, confirmation) in the run folder."""
    import html

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "tune.json").write_text(json.dumps(result, indent=2, sort_keys=True, default=str), encoding="utf-8")
    conf = result["confirmation"]
    if (folder / "confirm-original").exists() and (folder / "confirm-tuned").exists():
        from .compare import compare_rows, html_comparison
        from .store import RunDir

        cmp = compare_rows(RunDir(folder / "confirm-original").read_results(), RunDir(folder / "confirm-tuned").read_results())
        html_comparison("the designer's values", "the tuned values " + json.dumps(result["best"]["params"], sort_keys=True),
                        cmp, folder / "comparison.html")
    rows = "".join(
        f"<tr><td>{r['number']}</td><td><code>{html.escape(json.dumps(r['params'], sort_keys=True))}</code></td><td>{r['rung']}</td>"
        f"<td>{r['games']}</td>"
        + "".join(f"<td>{l:.3f} [{iv[0]:.3f}, {iv[1]:.3f}]</td>" for l, iv in zip(r["losses"], r["intervals"]))
        + f"<td>{r['distance']:.3f}</td><td>{'yes' if r['reached'] else 'no'}</td></tr>"
        for r in result["trial_table"]
    )
    heads = "".join(f"<th>{html.escape(t)} loss [95% CI]</th>" for t in result["targets"])
    links = ""
    if (folder / "comparison.html").exists():
        links = ('<p>Confirmation runs: <a href="confirm-original/report.html">original</a>, '
                 '<a href="confirm-tuned/report.html">tuned</a>, <a href="comparison.html">comparison</a>.</p>')
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>boardlab tune: {html.escape(result['game'])}</title>
<style>body {{ font-family: system-ui, sans-serif; margin: 2em auto; max-width: 64em; color: #222; }}
table {{ border-collapse: collapse; }} td, th {{ border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; }}</style>
</head><body>
<h1>Tuning {html.escape(result['game'])} ({html.escape(result['variant'])}, {result['players']} players)</h1>
<section><h2>Verdict</h2>
<p>Designer's values {html.escape(json.dumps(result['defaults'], sort_keys=True))}; chosen
{html.escape(json.dumps(result['best']['params'], sort_keys=True))}
({'reaches' if result['best']['reached'] else 'does not reach'} the target{'s' if len(result['targets']) > 1 else ''}
{html.escape(', '.join(f'{t} within {tol:g}' for t, tol in zip(result['targets'], result['tolerance'])))}).</p>
<p id="confirmation"><b>{html.escape(conf['verdict'])}</b>. {html.escape(conf['text'])}</p>{links}</section>
<section><h2>Trials</h2><p>{result['trials']} settings sampled by {html.escape(result['sampler'])}; rungs of
{', '.join(str(g) for g in result['rung_games'])} games (successive halving); {result['games_played']} games played in the search.
A row per evaluation: settings promoted to a higher rung appear again with more games.</p>
<table><tr><th>trial</th><th>parameters</th><th>rung</th><th>games</th>{heads}<th>distance</th><th>reaches target</th></tr>{rows}</table></section>
</body></html>
"""
    (folder / "tune.html").write_text(page, encoding="utf-8")
    return folder / "tune.html"


def _play(config: RunConfig, jobs: int, indexes: Any = None) -> list[dict[str, Any]]:
    indexes = list(range(config.games) if indexes is None else indexes)
    if not indexes:
        return []
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


