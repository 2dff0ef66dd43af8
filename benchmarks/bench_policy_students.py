"""Distilled policies (issue 21): can a richer student imitate the search better than the heuristic?

    python benchmarks/bench_policy_students.py collect GAME --players 2 --games 120 --seed 22 --out data.pkl
    python benchmarks/bench_policy_students.py compare data.pkl [--json]

``collect`` plays the teacher's self-play games exactly as ``boardlab fit-policy`` does
(:func:`boardlab.playtest.policyfit.collect`, 2 worker processes) and keeps the decision rows in a
local pickle (a cache for this script only: it is large, and never committed).

``compare`` fits, per decision kind, on the same train/held-out split as ``fit-policy`` (every
fifth game held out), the shipped student (``fit-policy``'s own fit,
:func:`boardlab.playtest.policyfit.fit`) and a conditional logit with one ``tanh`` hidden layer of
8 or 16 units (ridge 1e-3 or 1e-2, L-BFGS, seeded), and
prints each one's held-out agreement with the teacher's move next to the heuristic's, and which
kinds of action the teacher and the heuristic picked in that kind of decision.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from typing import Any, Sequence

import numpy as np
from scipy.optimize import minimize

from boardlab.playtest.policyfit import HOLDOUT_EVERY, collect, fit

#: The richer students: (hidden units, ridge).
STUDENTS = ((8, 1e-3), (16, 1e-3), (16, 1e-2))


def fit_student(rows: Sequence[tuple], hidden: int, l2: float, seed: int = 0) -> Any:
    """A conditional logit ``s(a) = w.z + v.tanh(W z + b) + h [a == heuristic's]``; returns a scorer."""
    X = np.array([x for r in rows for x in r[2]], float)
    T = np.array([t for r in rows for t in r[3]], float)
    H = np.array([1.0 if i == r[5] else 0.0 for r in rows for i in range(len(r[2]))])
    lens = [len(r[2]) for r in rows]
    starts = np.cumsum([0] + lens[:-1])
    seg = np.repeat(np.arange(len(rows)), lens)
    mu, sd = X.mean(0), X.std(0)
    sd[sd < 1e-9] = 1.0
    Z = (X - mu) / sd
    d, k, n = Z.shape[1], hidden, len(rows)

    def unpack(p: Any) -> tuple:
        w, W = p[:d], p[d:d + k * d].reshape(k, d)
        b, v, h = p[d + k * d:d + k * d + k], p[d + k * d + k:d + k * d + 2 * k], p[-1]
        return w, W, b, v, h

    def loss(p: Any) -> tuple[float, Any]:
        w, W, b, v, h = unpack(p)
        A = np.tanh(Z @ W.T + b)
        s = Z @ w + A @ v + h * H
        m = np.maximum.reduceat(s, starts)
        e = np.exp(s - m[seg])
        logp = s - m[seg] - np.log(np.add.reduceat(e, starts))[seg]
        G = (np.exp(logp) - T) / n
        f = -(T * logp).sum() / n + 0.5 * l2 * (w @ w + (W * W).sum() + v @ v)
        dA = np.outer(G, v) * (1 - A * A)
        grad = [Z.T @ G + l2 * w, (dA.T @ Z + l2 * W).ravel(), dA.sum(0), A.T @ G + l2 * v, [H @ G]]
        return float(f), np.concatenate(grad)

    rng = np.random.default_rng(seed)
    p0 = np.concatenate([np.zeros(d), rng.normal(0, 0.3, k * d), np.zeros(k), rng.normal(0, 0.1, k), [0.0]])
    w, W, b, v, h = unpack(minimize(loss, p0, jac=True, method="L-BFGS-B", options={"maxiter": 1000}).x)

    def score(action_rows: list[list[float]], hint: int) -> Any:
        z = (np.array(action_rows, float) - mu) / sd
        s = z @ w + np.tanh(z @ W.T + b) @ v
        if hint >= 0:
            s[hint] += h
        return s

    return score


def _picked_kinds(rs: Sequence[tuple], which: int, width: int, kinds: Sequence[str]) -> dict[str, int]:
    """How often the teacher (``which`` = 4) or the heuristic (5) picked each kind of action."""
    out: dict[str, int] = {}
    for r in rs:
        if r[which] < 0:
            continue
        onehot = r[2][r[which]][width:]
        kind = kinds[onehot.index(1.0)] if 1.0 in onehot else "?"
        out[kind] = out.get(kind, 0) + 1
    return dict(sorted(out.items()))


def compare(rows: Sequence[tuple], width: int, kinds: Sequence[str]) -> list[dict[str, Any]]:
    shipped = fit(rows)[1]  # fit-policy's held-out agreement per kind, on the same split
    by_kind: dict[str, list[tuple]] = {}
    for r in rows:
        by_kind.setdefault(r[1], []).append(r)
    out = []
    for kind, rs in sorted(by_kind.items()):
        held = [r for r in rs if r[0] % HOLDOUT_EVERY == HOLDOUT_EVERY - 1]
        train = [r for r in rs if r[0] % HOLDOUT_EVERY != HOLDOUT_EVERY - 1]
        if len(held) < 20 or len(train) < 20:
            continue
        row: dict[str, Any] = {"kind": kind, "decisions": len(rs), "held_out": len(held),
                               "heuristic": round(float(np.mean([r[5] == r[4] for r in held])), 4),
                               "teacher_picked": _picked_kinds(rs, 4, width, kinds),
                               "heuristic_picked": _picked_kinds(rs, 5, width, kinds),
                               "fit-policy": shipped[kind]["policy_agrees"]}
        for hidden, l2 in STUDENTS:
            score = fit_student(train, hidden, l2)
            agree = np.mean([int(np.argmax(score(r[2], r[5]))) == r[4] for r in held])
            row[f"hidden={hidden},l2={l2:g}"] = round(float(agree), 4)
        out.append(row)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("game")
    c.add_argument("--players", type=int)
    c.add_argument("--games", type=int, default=120)
    c.add_argument("--seed", type=int, default=22)
    c.add_argument("--teacher", default="ismcts:iterations=200")
    c.add_argument("--out", required=True)
    m = sub.add_parser("compare")
    m.add_argument("data")
    m.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.cmd == "collect":
        from boardlab.engine import make

        game = make(args.game, players=args.players)
        rows, names, kinds = collect(game, args.teacher, args.games, args.seed, jobs=2)
        with open(args.out, "wb") as fh:
            pickle.dump({"game": args.game, "players": game.players, "games": args.games, "seed": args.seed,
                         "teacher": args.teacher, "rows": rows, "features": names, "kinds": kinds}, fh)
        print(f"{args.game}: {len(rows)} decisions -> {args.out}")
        return 0
    with open(args.data, "rb") as fh:
        data = pickle.load(fh)
    result = compare(data["rows"], len(data["features"]), data["kinds"])
    meta = {k: data[k] for k in ("game", "players", "games", "seed", "teacher")}
    for row in result:
        print(json.dumps({**meta, **row}, sort_keys=True) if args.json else row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
