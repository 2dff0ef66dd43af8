"""Fit a game's evaluation from self-play (``boardlab fit-eval``).

Search agents cut their playouts after a few decisions and score the
position with an evaluation (see :mod:`boardlab.engine.evaluation`).  This
module plays self-play games, records every ``every``-th position with each
seat's :meth:`State.features` and the way the game ended, and fits one
logistic regression per role (seat-advantage and asymmetric roles included)
by iteratively reweighted least squares with a small L2 penalty.  Every fifth
game is held out, and the report gives the held-out log-loss of the fitted
model, of a constant (the base rate) and of the game's hand-written
``State.evaluate``, so a designer can see whether the fit is worth using.

Varied opponents make better data: give several agent specs (for example the
heuristic with different parameters); game *i* seats them in rotation.
Everything is seeded: the same arguments give the same file.
"""

from __future__ import annotations

import math
from multiprocessing import get_context
from typing import Any, Sequence

from boardlab.engine.evaluation import FORMAT, FittedEvaluation
from boardlab.engine.rng import derive_seed

#: Ridge penalty of the fit (on standardised features).
L2 = 1e-3
HOLDOUT_EVERY = 5


def _play(config: dict[str, Any], specs: Sequence[str], index: int, seed: int, every: int) -> list[tuple]:
    """One self-play game: rows ``(game index, role, own features, other seats' features, own evaluate, score)``."""
    from boardlab.agents import Decision, make_agent
    from boardlab.agents.runner import configured_game

    game = configured_game(config)
    gseed = derive_seed(seed, index)
    state = game.new_state(gseed)
    n = game.players
    agents = [make_agent(specs[(index + s) % len(specs)], game, seat=s, seed=derive_seed(gseed, 1, s)) for s in range(n)]
    snaps: list[tuple] = []
    k = 0
    own_eval = type(state).evaluate
    while not state.is_over():
        if k % every == 0:
            feats = [state.features(s) for s in range(n)]
            roles = state.roles()
            for s in range(n):
                snaps.append((roles[s], s, feats, own_eval(state, s)))
        seat = state.current_seat()
        state.apply(agents[seat].act(Decision(state, seat)))
        k += 1
    scores = state.results().scores
    return [(index, role, feats[s], [feats[o] for o in range(len(feats)) if o != s], ev, scores[s])
            for role, s, feats, ev in snaps]


def _play_chunk(args: tuple) -> list[tuple]:
    config, specs, indexes, seed, every = args
    out: list[tuple] = []
    for i in indexes:
        out.extend(_play(config, specs, i, seed, every))
    return out


def collect(game: Any, specs: Sequence[str], games: int, seed: int = 0, every: int = 3, jobs: int = 1) -> list[tuple]:
    """Play ``games`` self-play games and return their labelled positions (independent of ``jobs``)."""
    config = game.config()
    chunks = [list(range(j, games, max(1, jobs))) for j in range(max(1, jobs))]
    if jobs <= 1:
        return _play_chunk((config, list(specs), list(range(games)), seed, every))
    with get_context("spawn").Pool(jobs) as pool:
        parts = pool.map(_play_chunk, [(config, list(specs), c, seed, every) for c in chunks])
    rows = [r for part in parts for r in part]
    rows.sort(key=lambda r: r[0])  # the order of the games, whatever the worker count
    return rows


def _logloss(p: Sequence[float], y: Sequence[float]) -> float:
    total = 0.0
    for pi, yi in zip(p, y):
        pi = min(1 - 1e-9, max(1e-9, pi))
        total -= yi * math.log(pi) + (1 - yi) * math.log(1 - pi)
    return total / max(1, len(y))


def _irls(X: Any, y: Any, l2: float) -> Any:
    import numpy as np

    mu = X.mean(0)
    sd = X.std(0)
    sd[sd < 1e-9] = 1.0
    Z = np.hstack([(X - mu) / sd, np.ones((len(X), 1))])
    w = np.zeros(Z.shape[1])
    reg = l2 * np.eye(Z.shape[1])
    reg[-1, -1] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(Z @ w, -40, 40)))
        g = Z.T @ (p - y) / len(y) + reg @ w
        H = (Z.T * (p * (1 - p))) @ Z / len(y) + reg + 1e-9 * np.eye(Z.shape[1])
        step = np.linalg.solve(H, g)
        w -= step
        if float(np.abs(step).max()) < 1e-8:
            break
    coef = w[:-1] / sd  # back to the features' own scale
    bias = float(w[-1] - (coef * mu).sum())
    return bias, coef


def fit(rows: Sequence[tuple], l2: float = L2) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """Fit one model per role; return ``(models by role, held-out statistics, feature names)``."""
    import numpy as np

    if not rows:
        raise ValueError("no positions to fit (play more games)")
    names = sorted(rows[0][2])
    by_role: dict[str, list[tuple]] = {}
    for r in rows:
        by_role.setdefault(r[1], []).append(r)
    models: dict[str, Any] = {}
    held_p: list[float] = []
    held_y: list[float] = []
    held_own: list[float] = []
    train_y: list[float] = []
    for role, rs in sorted(by_role.items()):
        X = np.array([[own[f] for f in names] + [max((o[f] for o in others), default=0.0) for f in names]
                      for _i, _r, own, others, _e, _y in rs], dtype=float)
        y = np.array([r[5] for r in rs], dtype=float)
        held = np.array([r[0] % HOLDOUT_EVERY == HOLDOUT_EVERY - 1 for r in rs])
        train = ~held if held.any() and (~held).any() else np.ones(len(rs), dtype=bool)
        bias, coef = _irls(X[train], y[train], l2)
        k = len(names)
        models[role] = {
            "bias": round(bias, 6),
            "own": {f: round(float(c), 6) for f, c in zip(names, coef[:k]) if abs(c) > 1e-9},
            "rival": {f: round(float(c), 6) for f, c in zip(names, coef[k:]) if abs(c) > 1e-9},
            "positions": int(len(rs)),
        }
        if held.any():
            z = np.clip(X[held] @ coef + bias, -40, 40)
            held_p.extend((1.0 / (1.0 + np.exp(-z))).tolist())
            held_y.extend(y[held].tolist())
            held_own.extend(r[4] for r, h in zip(rs, held) if h)
        train_y.extend(y[train].tolist())
    base = sum(train_y) / len(train_y)
    stats = {
        "positions": len(rows),
        "held_out_positions": len(held_y),
        "logloss_fitted": round(_logloss(held_p, held_y), 4),
        "logloss_constant": round(_logloss([base] * len(held_y), held_y), 4),
        "logloss_game_evaluate": round(_logloss(held_own, held_y), 4),
    }
    return models, stats, names


def fit_evaluation(game: Any, specs: Sequence[str], games: int, seed: int = 0, every: int = 3, jobs: int = 1,
                   base: FittedEvaluation | None = None) -> dict[str, Any]:
    """Play, fit and return the evaluation file's JSON (merged into ``base``'s other player counts)."""
    rows = collect(game, specs, games, seed, every, jobs)
    models, stats, names = fit(rows)
    data = base.to_json() if base is not None else {"format": FORMAT, "game": game.id, "features": names, "models": {}, "fit": {}}
    if base is not None and list(base.features) != names:
        data = {"format": FORMAT, "game": game.id, "features": names, "models": {}, "fit": {}}  # features changed: start afresh
    data["models"][str(game.players)] = models
    data["fit"][str(game.players)] = {
        "variant": game.variant,
        "options": dict(game.overrides),
        "agents": list(specs),
        "games": games,
        "seed": seed,
        "every": every,
        **stats,
    }
    FittedEvaluation(data, "fitted evaluation")  # validates what we are about to write
    return data
