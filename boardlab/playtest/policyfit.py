"""Distil a search agent into a fast policy (``boardlab fit-policy``).

The teacher (by default ``ismcts:iterations=200``, today's default search
budget without its wall-clock cap) plays every seat of ``games`` self-play
games.  At each decision with a choice, the teacher's root visit shares are
recorded with the description of every legal action that the distilled agent
will see (:func:`boardlab.agents.policy.action_rows`) and the game
heuristic's move.  One conditional-logit model per decision kind is then
fitted by L-BFGS (cross-entropy against the visit shares, a small L2 penalty
on standardised columns).  Every fifth game is held out; the report gives, on
those, how often the fitted policy and the heuristic pick the teacher's move.

Everything is seeded: the same arguments give the same file, whatever
``jobs`` is.
"""

from __future__ import annotations

from multiprocessing import get_context
from typing import Any, Sequence

from boardlab.agents.policy import DEFAULT_TEACHER, best_index
from boardlab.engine.rng import Rng, derive_seed

#: Ridge penalty (on standardised columns, per decision).
L2 = 1e-3
HOLDOUT_EVERY = 5


def _play(config: dict[str, Any], teacher: str, index: int, seed: int, names: list[str],
          kinds: list[str]) -> list[tuple]:
    """One self-play game: rows ``(game index, kind, action rows, visit shares, teacher pick, heuristic pick)``."""
    from boardlab.agents import Decision, agent_class, make_agent
    from boardlab.agents.policy import action_rows, scoring_heuristic
    from boardlab.agents.runner import configured_game

    game = configured_game(config)
    gseed = derive_seed(seed, index)
    state = game.new_state(gseed)
    n = game.players
    agents = [make_agent(teacher, game, seat=s, seed=derive_seed(gseed, 1, s)) for s in range(n)]
    heur = None
    if "heuristic" in getattr(game, "agents", {}):
        cls = agent_class("heuristic", game)
        heur = [cls(game, s, derive_seed(gseed, 2, s)) for s in range(n)]
    with_scores = heur is not None and scoring_heuristic(game)
    out: list[tuple] = []
    k = 0
    while not state.is_over():
        seat = state.current_seat()
        decision = Decision(state, seat)
        legal = decision.legal
        if len(legal) == 1:
            state.apply(legal[0])
            continue
        k += 1
        hint = heur[seat].act(decision) if heur is not None else None
        scores = heur[seat].scores(decision) if with_scores else None
        rows = action_rows(decision, Rng(derive_seed(gseed, 3, k)), names, kinds, scores)
        action = agents[seat].act(decision)
        root = getattr(agents[seat], "last_root", None)
        table = root.kids.get(seat, {}) if root is not None else {}
        visits = [float(table[a].visits) if a in table else 0.0 for a in legal]
        total = sum(visits)
        shares = [v / total for v in visits] if total else [1.0 if a == action else 0.0 for a in legal]
        out.append((index, str(legal[0][0]), rows, shares, legal.index(action),
                    legal.index(hint) if hint in legal else -1))
        state.apply(action)
    return out


def _play_chunk(args: tuple) -> list[tuple]:
    config, teacher, indexes, seed, names, kinds = args
    out: list[tuple] = []
    for i in indexes:
        out.extend(_play(config, teacher, i, seed, names, kinds))
    return out


def action_kinds(game: Any) -> list[str]:
    """Every action kind (an action's first element) the game's random playouts show, sorted."""
    from boardlab.agents import Decision

    kinds: set[str] = set()
    rng = Rng(1)
    for g in range(20):
        state = game.new_state(derive_seed(7, g))
        steps = 0
        while not state.is_over() and steps < 400:
            legal = Decision(state).legal
            kinds.update(str(a[0]) for a in legal)
            state.apply(legal[rng.below(len(legal))])
            steps += 1
    return sorted(kinds)


def collect(game: Any, teacher: str, games: int, seed: int = 0, jobs: int = 1) -> tuple[list[tuple], list[str], list[str]]:
    """Play the teacher's self-play games; return ``(rows, feature names, action kinds)``."""
    from boardlab.agents.policy import feature_names

    full = feature_names(game)
    names = [f[4:] for f in full if f.startswith("own:")]
    record = game.record_events
    game.record_events = False
    try:
        kinds = action_kinds(game)
    finally:
        game.record_events = record
    config = game.config()
    jobs = max(1, jobs)
    if jobs == 1:
        rows = _play_chunk((config, teacher, list(range(games)), seed, names, kinds))
    else:
        # One game per task: game lengths vary a lot, so fixed chunks would leave a core idle.
        with get_context("spawn").Pool(jobs) as pool:
            parts = pool.map(_play_chunk, [(config, teacher, [i], seed, names, kinds) for i in range(games)],
                             chunksize=1)
        rows = [r for part in parts for r in part]  # pool.map keeps the game order
    return rows, full, kinds


def _fit_kind(rows: Sequence[tuple], l2: float) -> tuple[Any, float]:
    """Conditional logit for one decision kind: raw-scale weights and the heuristic bonus."""
    import numpy as np
    from scipy.optimize import minimize

    X = np.array([x for r in rows for x in r[2]], dtype=float)
    T = np.array([t for r in rows for t in r[3]], dtype=float)
    H = np.array([1.0 if i == r[5] else 0.0 for r in rows for i in range(len(r[2]))])
    starts = np.cumsum([0] + [len(r[2]) for r in rows[:-1]])
    seg = np.repeat(np.arange(len(rows)), [len(r[2]) for r in rows])
    mu = X.mean(0)
    sd = X.std(0)
    sd[sd < 1e-9] = 1.0
    Z = np.hstack([(X - mu) / sd, H[:, None]])
    n = len(rows)

    def loss(w: Any) -> tuple[float, Any]:
        s = Z @ w
        m = np.maximum.reduceat(s, starts)
        e = np.exp(s - m[seg])
        tot = np.add.reduceat(e, starts)
        logp = s - m[seg] - np.log(tot)[seg]
        p = np.exp(logp)
        f = -(T * logp).sum() / n + 0.5 * l2 * (w[:-1] @ w[:-1])
        g = Z.T @ (p - T) / n
        g[:-1] += l2 * w[:-1]
        return float(f), g

    res = minimize(loss, np.zeros(Z.shape[1]), jac=True, method="L-BFGS-B", options={"maxiter": 500})
    w = res.x
    return w[:-1] / sd, float(w[-1])


def fit(rows: Sequence[tuple], l2: float = L2) -> tuple[dict[str, Any], dict[str, Any]]:
    """Fit one model per decision kind; return ``(models, held-out statistics per kind)``."""
    by_kind: dict[str, list[tuple]] = {}
    for r in rows:
        by_kind.setdefault(r[1], []).append(r)
    models: dict[str, Any] = {}
    stats: dict[str, Any] = {}
    for kind, rs in sorted(by_kind.items()):
        held = [r for r in rs if r[0] % HOLDOUT_EVERY == HOLDOUT_EVERY - 1]
        train = [r for r in rs if r[0] % HOLDOUT_EVERY != HOLDOUT_EVERY - 1] or rs
        weights, bonus = _fit_kind(train, l2)
        models[kind] = {"weights": [round(float(w), 6) for w in weights], "heuristic": round(bonus, 6)}
        agree = sum(1 for r in held if best_index(weights, bonus, r[2], r[5]) == r[4])
        heur = sum(1 for r in held if r[5] == r[4])
        stats[kind] = {"decisions": len(rs), "held_out": len(held),
                       "policy_agrees": round(agree / len(held), 4) if held else None,
                       "heuristic_agrees": round(heur / len(held), 4) if held else None}
    return models, stats


def fit_policy(game: Any, teacher: str = DEFAULT_TEACHER, games: int = 100, seed: int = 0, jobs: int = 1,
               l2: float = L2) -> dict[str, Any]:
    """Play, fit and return the policy file's contents (see :mod:`boardlab.agents.policy`)."""
    from boardlab.agents.policy import FORMAT

    rows, names, kinds = collect(game, teacher, games, seed, jobs)
    if not rows:
        raise ValueError("the teacher made no decision with a choice (play more games)")
    models, stats = fit(rows, l2)
    return {
        "format": FORMAT,
        "game": game.id,
        "features": names,
        "action_kinds": kinds,
        "models": models,
        "fit": {"teacher": teacher, "games": games, "seed": seed, "players": game.players,
                "variant": game.variant, "l2": l2, "held_out_every": HOLDOUT_EVERY, "kinds": stats},
    }
