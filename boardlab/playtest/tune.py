"""``boardlab tune``: search a game's tunable rule parameters, then confirm the result on fresh games.

1. **Search.** Optuna's sampler proposes ``trials`` settings (the designer's
   values are always the first). Every setting plays the same seeds (paired
   evaluation: settings differ by their rules, not their luck).
2. **Successive halving.** All settings play ``games`` games (rung 0); the best
   third (``eta``) play ``eta`` times as many, and so on for ``rungs`` rungs, so
   promising settings get more games and the noise of a few games cannot crown a
   winner. Games of a lower rung are reused (game *i* has the same seed). The
   designer's values are the incumbent: they race through every rung beside the
   best candidates, on the same games, so every comparison is between equal
   samples (never 100 noisy games against 900).
3. **Objective.** Each target (``balance``: the largest seat or side win-rate
   gap; ``length=T``: relative distance of the mean length from T;
   ``truncation``: the truncated share) has a ``tolerance``. A setting whose loss
   is within it *reaches* the target. Among settings that reach every target the
   smallest change from the designer's values (normalised distance) wins; if none
   reaches, the lowest loss (plus the ``closeness`` penalty) wins. Every loss is
   shown with a 95% interval from ``scipy.stats.bootstrap`` (BCa) over the games
   (:func:`loss_interval`; it always holds its estimate, even for a gap near zero).
4. **Confirmation.** The chosen setting and the designer's values play
   ``confirm_games`` FRESH games (a seed never used in the search), paired by
   seed; a paired BCa bootstrap of the loss difference gives an interval and a
   p-value (Holm across targets), and the verdict (see :func:`confirm`) is
   "confirmed" only if a target is significantly lower, none is higher, and the
   designer's values miss a target on the fresh games. Only "reaches the target"
   on the fresh games is ever said; the search games only choose.

With ``out``, everything goes to a run folder: ``tune.json``, ``tune.html``, and
the two confirmation runs (each a normal playtest run folder with its report,
headed by the tuned values) with their HTML comparison. With several targets the
Pareto front of the top rung is also reported. A confirmed result can be saved
as a variant file, playable with ``--variant FILE.json`` (:func:`save_variant`:
an unconfirmed one only on request, and the file records the verdict). The
``progress(done, total)`` callback counts every game played, the confirmation's
included; ``total`` is an upper bound that shrinks to the exact count as
duplicates and promotions become known.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from boardlab.engine.errors import BoardlabError, InvalidOptionError
from boardlab.engine.files import atomic_write
from boardlab.engine.game import Option
from boardlab.engine.registry import game_class, make

from .metrics import balance, win_rates_by_role
from .run import seat_specs
from .simulate import RunConfig

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


#: Bootstrap resamples behind every interval and paired test (scipy.stats.bootstrap, BCa).
RESAMPLES = 2000


def _components_of_resamples(target: Target, rows: Sequence[dict[str, Any]], players: int) -> Callable[[Any], Any]:
    """Signed parts of a target's loss, the loss being the largest magnitude among them.

    Maps an index array of shape ``(..., games)`` to an array ``(parts, ...)``:
    ``balance``: every pairwise difference of the seats' win rates (and of the
    roles' when roles are not seats), so the largest gap is the largest
    magnitude; ``length``: ``(mean turns - goal) / goal``; ``truncation``: the
    truncated share. Each part is a mean (or a ratio of means), smooth where the
    loss (a maximum of magnitudes) is not, so its bootstrap interval is trustworthy
    near zero.
    """
    from itertools import combinations

    import numpy as np

    n = len(rows)
    if target.kind == "truncation":
        trunc = np.array([1.0 if r["truncated"] else 0.0 for r in rows])
        return lambda idx: trunc[idx].mean(axis=-1)[None]
    if target.kind == "length":
        turns = np.array([float(r["turns"]) for r in rows])
        goal = float(target.goal)
        return lambda idx: ((turns[idx].mean(axis=-1) - goal) / goal)[None]
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
    seat_pairs = list(combinations(range(players), 2))
    role_pairs = list(combinations(range(len(roles)), 2)) if use_roles else []

    def parts(idx: Any) -> Any:
        rates = seats[idx].mean(axis=-2)
        out = [rates[..., i] - rates[..., j] for i, j in seat_pairs]
        if role_pairs:
            with np.errstate(invalid="ignore", divide="ignore"):
                rr = won[idx].sum(axis=-2) / played[idx].sum(axis=-2)
            rr = np.where(np.isnan(rr), 0.0, rr)
            out += [rr[..., i] - rr[..., j] for i, j in role_pairs]
        return np.stack(out)

    return parts


def _loss_of_resamples(target: Target, rows: Sequence[dict[str, Any]], players: int) -> Callable[[Any], Any]:
    """A vectorised ``target.loss``: maps a ``(..., games)`` index array to the losses of those resamples.

    Agrees with :meth:`Target.loss` on the identity resample (a test checks it).
    """
    import numpy as np

    parts = _components_of_resamples(target, rows, players)
    return lambda idx: np.abs(parts(idx)).max(axis=0)


def _bootstrap(statistic: Callable[[Any], Any], n: int, resamples: int, seed: int, confidence: float = 0.95,
               previous: Any = None) -> tuple[Any, Any, Any]:
    """``scipy.stats.bootstrap`` (BCa) of ``statistic`` over the indexes of ``n`` games (or game pairs).

    Resampling indexes resamples whatever the statistic reads from a game jointly,
    so a statistic of paired games is the paired bootstrap. Returns ``(low, high,
    result)``; a part whose bootstrap distribution is constant (every resample
    agrees, e.g. two settings that played identical games) gets the interval
    ``[estimate, estimate]`` instead of scipy's nan.
    """
    import warnings

    import numpy as np
    from scipy import stats

    def stat(idx: Any, axis: int = -1) -> Any:
        return statistic(np.moveaxis(np.asarray(idx), axis, -1))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # degenerate (constant) distributions are handled below
        res = stats.bootstrap((np.arange(n),), stat, n_resamples=0 if previous is not None else resamples, batch=256,
                              vectorized=True, method="BCa", confidence_level=confidence, bootstrap_result=previous,
                              rng=np.random.default_rng(seed))
    est = np.asarray(statistic(np.arange(n)), dtype=float)
    dist = np.asarray(res.bootstrap_distribution, dtype=float)
    low = np.array(res.confidence_interval.low, dtype=float, ndmin=1)
    high = np.array(res.confidence_interval.high, dtype=float, ndmin=1)
    flat = np.atleast_2d(dist)
    constant = np.all(flat == flat[:, :1], axis=1)
    est1 = np.atleast_1d(est)
    low = np.where(constant, est1, low)
    high = np.where(constant, est1, high)
    return low, high, res


def loss_interval(target: Target, rows: Sequence[dict[str, Any]], players: int, resamples: int = RESAMPLES, seed: int = 0) -> tuple[float, float]:
    """95% interval of a target's loss over the games.

    Each signed part of the loss (see :func:`_components_of_resamples`) gets a BCa
    interval from ``scipy.stats.bootstrap``; the loss, the largest magnitude, then
    lies between the largest distance of a part's interval from zero and the
    largest magnitude any part's interval reaches. A part's interval holds its
    estimate, so this interval holds the loss: a max-min gap near zero is no longer
    shown as 0.020 [0.030, 0.210] (the percentile bootstrap of the gap itself).
    """
    import numpy as np

    n = len(rows)
    if n < 2:
        v = target.loss(rows, players) if rows else 0.0
        return (v, v)
    low, high, _ = _bootstrap(_components_of_resamples(target, rows, players), n, resamples, seed)
    near = np.where((low <= 0) & (high >= 0), 0.0, np.minimum(np.abs(low), np.abs(high)))
    far = np.maximum(np.abs(low), np.abs(high))
    return (float(near.max()), float(far.max()))


def paired_loss_test(target: Target, rows_a: Sequence[dict[str, Any]], rows_b: Sequence[dict[str, Any]], players: int,
                     resamples: int = RESAMPLES, seed: int = 0) -> dict[str, Any]:
    """Paired bootstrap test of ``loss(B) - loss(A)`` over games paired by seed (``scipy.stats.bootstrap``, BCa).

    Game pairs are resampled jointly. The interval is the 95% BCa interval of the
    difference; the p-value inverts it: the smallest ``alpha`` whose ``1 - alpha``
    BCa interval excludes zero (found by bisection on the same bootstrap
    distribution), so ``p < 0.05`` exactly when the 95% interval excludes zero.
    Below ``1 / resamples`` it is reported as 0 (printed "< 1/resamples").
    """
    import numpy as np

    by_seed = {r["seed"]: r for r in rows_b}
    pairs = [(r, by_seed[r["seed"]]) for r in rows_a if r["seed"] in by_seed]
    n = len(pairs)
    pa, pb = [a for a, _ in pairs], [b for _, b in pairs]
    la, lb = target.loss(pa, players), target.loss(pb, players)
    fa, fb = _loss_of_resamples(target, pa, players), _loss_of_resamples(target, pb, players)

    def diff(idx: Any) -> Any:
        return fb(idx) - fa(idx)

    if n < 2:
        return {"loss_a": la, "loss_b": lb, "difference": lb - la, "ci_low": lb - la, "ci_high": lb - la, "p_value": 1.0,
                "games": n, "resamples": resamples}
    low, high, res = _bootstrap(diff, n, resamples, seed)
    lo, hi = float(low[0]), float(high[0])
    if lo == hi:  # every resample agrees: identical games (no difference) or a constant shift
        p = 1.0 if lo == 0 else 0.0
    else:
        p = _inverted_p(diff, n, resamples, seed, res)
    out = {"loss_a": la, "loss_b": lb, "difference": lb - la, "ci_low": lo, "ci_high": hi, "p_value": p,
           "games": n, "resamples": resamples, "alpha": 0.05}
    if lo != hi:  # the same bootstrap, for the interval at another level (the Holm step's: _relevel)
        out["_again"] = lambda alpha: _bootstrap(diff, n, resamples, seed, confidence=1 - alpha, previous=res)[:2]
    return out


def _relevel(t: dict[str, Any], alpha: float) -> None:
    """Re-take a :func:`paired_loss_test`'s BCa interval at level ``alpha`` (the Holm step that decided it), from the
    same bootstrap its p-value inverts, so the interval excludes zero exactly when the test rejects at ``alpha``."""
    again = t.pop("_again", None)
    t["alpha"] = alpha
    if again is not None:
        low, high = again(alpha)
        t["ci_low"], t["ci_high"] = float(low[0]), float(high[0])


def _inverted_p(diff: Callable[[Any], Any], n: int, resamples: int, seed: int, res: Any) -> float:
    """The smallest alpha whose two-sided ``1 - alpha`` BCa interval excludes zero (bisection, 16 steps)."""
    def excludes(alpha: float) -> bool:
        low, high, _ = _bootstrap(diff, n, resamples, seed, confidence=1 - alpha, previous=res)
        return bool(low[0] > 0 or high[0] < 0)

    floor = 1 / resamples
    if excludes(floor):
        return 0.0
    if not excludes(1 - 1e-6):
        return 1.0
    lo, hi = floor, 1 - 1e-6  # excludes(lo) is False, excludes(hi) is True
    for _ in range(16):
        mid = (lo + hi) / 2
        if excludes(mid):
            hi = mid
        else:
            lo = mid
    return hi


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
    cg = confirm_games or rung_games[-1]
    played = [0]
    expected = [0]
    rows_of: dict[str, list[dict[str, Any]]] = {}

    def still_to_play(pool_size: int, from_rung: int) -> int:
        """Games left from rung ``from_rung`` on, ``pool_size`` settings having played the rung below, and the
        confirmation: an upper bound (the designer's values counted as an extra at every rung)."""
        left, k = 0, pool_size
        for r in range(max(1, from_rung), rungs):
            k = max(1, -(-k // eta)) + 1
            left += k * (rung_games[r] - rung_games[r - 1])
        return left + 2 * cg

    def tick(new: int = 0) -> None:
        played[0] += new
        expected[0] = max(expected[0], played[0])
        if progress:
            progress(played[0], expected[0])

    def config_for(values: dict[str, Any], n_games: int, run_seed: int) -> RunConfig:
        options = {**base_game.overrides, **values}
        return RunConfig(game_id, players_n, base_game.variant, options, tuple(specs), n_games, run_seed)

    def rows_for(values: dict[str, Any], n_games: int) -> list[dict[str, Any]]:
        key = json.dumps(values, sort_keys=True)
        have = rows_of.setdefault(key, [])
        if len(have) < n_games:
            new = _play(config_for(values, n_games, seed), jobs, range(len(have), n_games), on_chunk=lambda c: tick(len(c)))
            have.extend(sorted(new, key=lambda r: r["index"]))
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

    expected[0] = trials * g0 + still_to_play(trials, 1)
    tick()
    for i in range(trials):
        trial = study.ask()
        values = {n: _suggest(trial, available[n]) for n in names}
        key = json.dumps(values, sort_keys=True)
        twin = next((r for r in records if json.dumps(r["params"], sort_keys=True) == key), None)
        rec = {"number": trial.number, "params": values, "distance": distance(values), "duplicate_of": twin["number"] if twin else None}
        if twin:  # a duplicate plays no new games: the plan shrinks by its rung-0 games
            expected[0] = played[0] + (trials - i - 1) * g0 + still_to_play(sum(r["duplicate_of"] is None for r in records) + trials - i - 1, 1)
        evaluate(rec, 0)
        scored = [l + closeness * rec["distance"] for l in rec["losses"]]
        study.tell(trial, scored if multi else scored[0])
        records.append(rec)
        if on_trial:
            on_trial(dict(rec))
    # The designer's values (trial 0) are the incumbent: raced through every rung on the same games as the
    # best candidates, so the final comparison is between equal samples (never 100 games against 900).
    default_rec = records[0]
    pool = [r for r in records if r["duplicate_of"] is None]
    for rung in range(1, rungs):
        pool = sorted(pool, key=rank)[: max(1, -(-len(pool) // eta))]
        if all(r is not default_rec for r in pool):
            pool.append(default_rec)
        expected[0] = played[0] + len(pool) * (rung_games[rung] - rung_games[rung - 1]) + still_to_play(len(pool), rung + 1)
        tick()
        for rec in pool:
            evaluate(rec, rung)
            if on_trial:
                on_trial(dict(rec))
    top = sorted(pool, key=rank)
    best = top[0]
    search_games = played[0]
    if best is default_rec:
        expected[0] = played[0]
    else:
        expected[0] = played[0] + 2 * cg
    tick()
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
        "games_played": search_games,
        "sampler": sampler,
        "seed": seed,
        "default_losses": default_rec["losses"],
        "default_intervals": default_rec["intervals"],
        "default_games": default_rec["games"],
        "default_reached": default_rec["reached"],
        "trial_table": evaluations,
        "best": {"params": best["params"], "losses": best["losses"], "intervals": best["intervals"], "games": best["games"],
                 "reached": best["reached"], "distance": best["distance"]},
    }
    if multi:
        front = [{"params": r["params"], "losses": r["losses"]} for r in top
                 if not any(all(o["losses"][i] <= r["losses"][i] for i in range(len(tgs))) and o["losses"] != r["losses"] for o in top)]
        result["pareto_front"] = front
    base = played[0]
    result["confirmation"] = confirm(result, tgs, config_for, cg, jobs, out,
                                     lambda done, total: tick(base + done - played[0]))
    result["games_played_total"] = played[0]
    expected[0] = played[0]
    tick()
    if out is not None:
        write_tune_folder(out, result)
    return result


def confirm(result: dict[str, Any], tgs: Sequence[Target], config_for: Callable[..., RunConfig], n_games: int, jobs: int,
            out: str | Path | None, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Play the chosen setting and the designer's values on fresh seeds, paired; test the loss difference.

    Verdicts: ``no change`` (the designer's values won the search: nothing is
    played), ``confirmed`` (some target significantly lower after Holm, none
    higher, and the designer's values miss a target on the fresh games), ``not
    needed`` (significantly better, but the designer's values already meet every
    target on the fresh games, so the smallest change that meets them is none),
    ``worse than the original`` or
    ``mixed`` (a target significantly higher), else ``not distinguishable from the
    original``. ``progress(done, total)`` counts the confirmation's games.
    """
    from boardlab.engine.rng import derive_seed

    if result["best"]["params"] == result["defaults"]:
        within = result["best"].get("reached")
        return {"verdict": "no change", "games_played": 0,
                "text": "The designer's values are the best setting found"
                + (f" (within tolerance on the {result['best'].get('games')} search games)" if within else "") + ": nothing to confirm."}
    fresh = derive_seed(result["seed"], 0x7E57)  # never a search seed: the search uses run seed ``seed``
    players = result["players"]
    cfg_a = config_for(dict(result["defaults"]), n_games, fresh)
    cfg_b = config_for(dict(result["best"]["params"]), n_games, fresh)

    def step(offset: int) -> Callable[[int, int], None]:
        return lambda done, _total: progress(offset + done, 2 * n_games) if progress else None

    if out is not None:
        from .run import execute
        from .store import RunDir

        folder = Path(out)
        execute(cfg_a, folder / "confirm-original", jobs=jobs, progress=step(0))
        execute(cfg_b, folder / "confirm-tuned", jobs=jobs, progress=step(n_games))
        rows_a, rows_b = RunDir(folder / "confirm-original").read_results(), RunDir(folder / "confirm-tuned").read_results()
    else:
        count = [0]

        def chunk(rows: list[dict[str, Any]]) -> None:
            count[0] += len(rows)
            if progress:
                progress(count[0], 2 * n_games)

        rows_a = _play(cfg_a, jobs, range(n_games), on_chunk=chunk)
        rows_b = _play(cfg_b, jobs, range(n_games), on_chunk=chunk)
    tests = [paired_loss_test(t, rows_a, rows_b, players, seed=result["seed"]) for t in tgs]
    from boardlab.stats import holm_levels, level_text

    reject, adjusted, levels = holm_levels([t["p_value"] for t in tests])
    for t, rej, p, level in zip(tests, reject, adjusted, levels):
        _relevel(t, level)  # one procedure at one level: the verdict, its p-value and its interval agree
        t["p_holm"] = p
        t["better"] = bool(rej and t["difference"] < 0)
        t["worse"] = bool(rej and t["difference"] > 0)
    tols = result.get("tolerance")
    original_reaches = tols is not None and all(t["loss_a"] <= tol + 1e-12 for t, tol in zip(tests, tols))
    tuned_reaches = tols is not None and all(t["loss_b"] <= tol + 1e-12 for t, tol in zip(tests, tols))
    better, worse = any(t["better"] for t in tests), any(t["worse"] for t in tests)
    # confirmed: some target significantly better, none significantly worse (a target both settings
    # already meet exactly, e.g. a length neither changes, cannot be "better"), and a change was needed
    if worse:
        verdict = "mixed" if better else "worse than the original"
    elif better:
        verdict = "not needed" if original_reaches else "confirmed"
    else:
        verdict = "not distinguishable from the original"
    parts = [f"{tg.label}: loss {t['loss_a']:.3f} -> {t['loss_b']:.3f} ({t['difference']:+.3f} [{t['ci_low']:+.3f}, {t['ci_high']:+.3f}] "
             f"({level_text(t['alpha'])}), paired BCa bootstrap p {_p(t['p_holm'])}, Holm)" for tg, t in zip(tgs, tests)]
    s = "s" if len(tgs) > 1 else ""
    if verdict == "not needed":
        head = f"On {n_games} fresh games the tuned setting is better, but the designer's values already reach the target{s}, so the change is not needed"
    elif verdict == "confirmed":
        head = (f"On {n_games} fresh games the tuned setting is confirmed"
                + (f" and reaches the target{s}" if tuned_reaches else f" better, but does not reach the target{s}"))
    else:
        head = f"On {n_games} fresh games the tuned setting is {verdict}"
    return {"verdict": verdict, "games": n_games, "games_played": 2 * n_games, "seed": fresh, "tests": tests,
            "original_reaches": original_reaches, "tuned_reaches": tuned_reaches,
            "text": head + ": " + "; ".join(parts) + "."}


def _losses(losses: Sequence[float]) -> str:
    return ", ".join(f"{l:.3f}" for l in losses)


def _p(p: float, resamples: int = RESAMPLES) -> str:
    return f"< {1 / resamples:g}" if p < 1 / resamples else f"= {p:.2g}"


def write_tune_folder(out: str | Path, result: dict[str, Any]) -> Path:
    """``tune.json`` and ``tune.html`` (trial table, choice, confirmation) in the run folder."""
    import html

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    atomic_write(folder / "tune.json", json.dumps(result, indent=2, sort_keys=True, default=str), "tune summary",
                 error=BoardlabError)
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
    goals = ", ".join(f"{t} within {tol:g}" for t, tol in zip(result["targets"], result["tolerance"]))
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
<p>Goal{'s' if len(result['targets']) > 1 else ''}: {html.escape(goals)}. On the same {result['best']['games']} search games
(the designer's values are raced through every rung beside the best candidates): the designer's values
{html.escape(json.dumps(result['defaults'], sort_keys=True))}: loss {html.escape(_losses(result['default_losses']))}
({'within' if result.get('default_reached') else 'outside'} tolerance); the search's choice
{html.escape(json.dumps(result['best']['params'], sort_keys=True))}: loss {html.escape(_losses(result['best']['losses']))}
({'within' if result['best']['reached'] else 'outside'} tolerance). Search games chose the setting; only the fresh
games below can confirm it.</p>
<p id="confirmation"><b>{html.escape(conf['verdict'])}</b>. {html.escape(conf['text'])}</p>{links}</section>
<section><h2>Trials</h2><p>{result['trials']} settings sampled by {html.escape(result['sampler'])}; rungs of
{', '.join(str(g) for g in result['rung_games'])} games (successive halving); {result['games_played']} games played in the search,
{conf.get('games_played', 0)} in the confirmation.
A row per evaluation: settings promoted to a higher rung appear again with more games.</p>
<table><tr><th>trial</th><th>parameters</th><th>rung</th><th>games</th>{heads}<th>distance</th><th>within tolerance (on these games)</th></tr>{rows}</table></section>
</body></html>
"""
    atomic_write(folder / "tune.html", page, "tune report", error=BoardlabError)
    return folder / "tune.html"


def _play(config: RunConfig, jobs: int, indexes: Any = None,
          on_chunk: Callable[[list[dict[str, Any]]], None] | None = None) -> list[dict[str, Any]]:
    """Play ``indexes`` of ``config``; ``on_chunk`` sees every chunk of rows as it is played (the progress bar)."""
    from .simulate import run_local

    indexes = list(range(config.games) if indexes is None else indexes)
    rows: list[dict[str, Any]] = []

    def take(chunk: list[dict[str, Any]]) -> None:
        rows.extend(chunk)
        if on_chunk:
            on_chunk(chunk)

    if indexes:
        run_local(config, indexes, jobs, take)
    return rows


class UnconfirmedSettingError(InvalidOptionError):
    """``save_variant`` refused a setting the confirmation did not confirm."""


def save_variant(result: dict[str, Any], path: str | Path, name: str | None = None, params: dict[str, Any] | None = None,
                 unconfirmed: bool = False) -> Path:
    """Write the chosen setting (or ``params``) as a variant file playable with ``--variant FILE``.

    Only a confirmed setting is written (or the designer's values, when the search
    kept them: verdict "no change"). Anything else raises
    :class:`UnconfirmedSettingError` unless ``unconfirmed`` is true; the file then
    says so in its description. Every file records the confirmation's verdict,
    games and (Holm-adjusted) p-values under ``"confirmation"``.
    """
    path = Path(path)
    conf = result.get("confirmation") or {}
    verdict = conf.get("verdict", "not run")
    chosen = params if params is not None else result["best"]["params"]
    ok = verdict == "no change" or (verdict == "confirmed" and chosen == result["best"]["params"])
    if not ok and not unconfirmed:
        what = "these values were not the confirmed choice" if verdict == "confirmed" else f"its confirmation on fresh games says {verdict!r}"
        raise UnconfirmedSettingError(f"not writing {path}: the tuned setting is not confirmed ({what}); "
                                      "pass --save-unconfirmed to write it anyway")
    pvals = {label: t.get("p_holm", t.get("p_value")) for label, t in zip(result["targets"], conf.get("tests", []))}
    record = {"verdict": verdict, "games": conf.get("games", 0), "seed": conf.get("seed"), "p_values": pvals,
              "confirmed": ok and verdict == "confirmed"}
    search = f"{result['trials']} trials, {result['games_per_trial']} games each"
    if verdict == "no change":
        how = "the search kept the designer's values"
    elif ok:
        how = f"confirmed on {record['games']} fresh games (p {', '.join(f'{k} {v:.2g}' for k, v in pvals.items())}, Holm)"
    else:
        how = (f"NOT confirmed: on {record['games']} fresh games the verdict was {verdict!r}"
               + (f" (p {', '.join(f'{k} {v:.2g}' for k, v in pvals.items())}, Holm)" if pvals else "") + "; saved with --save-unconfirmed")
    doc = {
        "name": name or path.stem,
        "game": result["game"],
        "base": result["variant"],
        "description": f"Tuned by boardlab tune toward {', '.join(result['targets'])} ({search}); {how}.",
        "overrides": chosen,
        "confirmation": record,
    }
    atomic_write(path, json.dumps(doc, indent=2, sort_keys=True) + "\n", "variant file", error=BoardlabError)
    return path
