"""Fuzz the adapters' action doors with wrong types (issue 31).

    nice python scripts/fuzz_adapters.py --cases 10000
    python scripts/fuzz_adapters.py --cases 500 --door pettingzoo-step --json

Doors: PettingZoo's ``step`` and OpenSpiel's ``apply_action`` (with
``apply_action_with_legality_check`` and ``child`` in turn), over every game.
Each case hands the acting seat a value drawn, seeded, from wrong types and
edge values (floats, bools, numpy floats and bools, strings, bytes, lists,
tuples, dicts, arrays, ``None``, ``nan``, huge and negative integers, objects)
or, one time in four, a legal index as an ``int`` or a numpy integer.  A legal
index must be applied; anything else must raise the library's own error
(``IllegalActionError``; for OpenSpiel also a ``pyspiel.SpielError``) and leave
the state exactly as it was.  Any other exception, or a changed state, is a
failure (printed with door, game, case and seed).  Exit code 1 if anything failed.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import traceback
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from boardlab.engine.errors import IllegalActionError  # noqa: E402
from boardlab.games import BUILTIN  # noqa: E402

GAMES = sorted(BUILTIN)


def wrong_value(rng: random.Random, n_legal: int) -> tuple[Any, bool]:
    """A value to act with, and whether it is a legal index."""
    if rng.random() < 0.25 and n_legal:
        k = rng.randrange(n_legal)
        return rng.choice([k, np.int64(k), np.int32(k), np.uint8(k) if k < 256 else k, np.array(k)]), True
    k = rng.randrange(max(1, n_legal))
    makers = [
        lambda: float(k) + rng.choice([0.0, 0.5, 0.7]), lambda: rng.choice([True, False]), lambda: str(k),
        lambda: rng.choice(["abc", "", " 1", "0x1", "1e3", "٣"]), lambda: [k], lambda: (k,), lambda: {"a": k},
        lambda: np.float32(k + 0.5), lambda: np.float64(k), lambda: np.bool_(rng.random() < 0.5),
        lambda: np.array([k]), lambda: np.array([[k]]), lambda: np.array(float(k)), lambda: None, lambda: float("nan"),
        lambda: float("inf"), lambda: -rng.randint(1, 10**6), lambda: n_legal + rng.randint(0, 10**6),
        lambda: 10 ** rng.randint(19, 400), lambda: -(10 ** rng.randint(19, 400)), lambda: object(),
        lambda: b"\x00", lambda: bytearray(b"1"), lambda: complex(k, 0), lambda: slice(0, 1),
        lambda: np.int64(n_legal + rng.randint(0, 100)), lambda: np.int64(-1), lambda: [[[k]]], lambda: {k},
    ]
    return rng.choice(makers)(), False


def fuzz_pettingzoo(cases: int, seed: int) -> dict[str, Any]:
    from boardlab.envs.pettingzoo import env

    rng = random.Random(f"pz:{seed}")
    envs = {}
    out: dict[str, Any] = {"door": "pettingzoo-step", "cases": 0, "applied": 0, "refused": 0, "failures": []}
    case = -1
    while out["cases"] < cases:
        case += 1
        gid = GAMES[case % len(GAMES)]
        e = envs.get(gid)
        if e is None or not e.agents:
            e = envs[gid] = env(gid, seed=seed + case)
            e.reset(seed=seed + case)
        agent = e.agent_selection
        if e.terminations[agent] or e.truncations[agent]:
            e.step(None)
            continue
        legal = e.state.legal_actions()
        value, ok = wrong_value(rng, len(legal))
        before = e.state.dumps()
        out["cases"] += 1
        try:
            e.step(value)
        except IllegalActionError:
            if ok:
                out["failures"].append({"game": gid, "case": case, "value": repr(value)[:80], "problem": "legal index refused"})
            elif e.state.dumps() != before:
                out["failures"].append({"game": gid, "case": case, "value": repr(value)[:80], "problem": "state changed"})
            out["refused"] += 1
        except Exception as exc:  # noqa: BLE001 - what the fuzzer hunts
            out["failures"].append({"game": gid, "case": case, "value": repr(value)[:80],
                                    "problem": f"{type(exc).__name__}: {exc}"[:300],
                                    "trace": traceback.format_exc(limit=3)[-800:]})
        else:
            if not ok:
                out["failures"].append({"game": gid, "case": case, "value": repr(value)[:80], "problem": "accepted"})
            out["applied"] += 1
    return out


def fuzz_openspiel(cases: int, seed: int) -> dict[str, Any]:
    import pyspiel

    from boardlab.envs.openspiel import load

    rng = random.Random(f"os:{seed}")
    states: dict[str, Any] = {}
    out: dict[str, Any] = {"door": "openspiel-apply_action", "cases": 0, "applied": 0, "refused": 0, "failures": []}
    for case in range(cases):
        gid = GAMES[case % len(GAMES)]
        st = states.get(gid)
        if st is None or st.is_terminal():
            st = states[gid] = load(gid, seed=seed + case).new_initial_state()
        n = len(st.legal_actions())
        value, ok = wrong_value(rng, n)
        method = ("apply_action", "apply_action_with_legality_check", "child")[case % 3]
        before = (st.serialize(), st.history())
        out["cases"] += 1
        try:
            result = getattr(st, method)(value)
        except pyspiel.SpielError as exc:
            if not isinstance(exc, IllegalActionError):
                out["failures"].append({"game": gid, "case": case, "value": repr(value)[:80], "problem": f"bare SpielError: {exc}"[:300]})
            elif ok:
                out["failures"].append({"game": gid, "case": case, "value": repr(value)[:80], "problem": "legal id refused"})
            elif (st.serialize(), st.history()) != before:
                out["failures"].append({"game": gid, "case": case, "value": repr(value)[:80], "problem": "state changed"})
            out["refused"] += 1
        except Exception as exc:  # noqa: BLE001
            out["failures"].append({"game": gid, "case": case, "value": repr(value)[:80], "method": method,
                                    "problem": f"{type(exc).__name__}: {exc}"[:300],
                                    "trace": traceback.format_exc(limit=3)[-800:]})
        else:
            if not ok:
                out["failures"].append({"game": gid, "case": case, "value": repr(value)[:80], "method": method,
                                        "problem": "accepted"})
            elif method == "child":
                assert result.history() == before[1] + [int(value)]
            out["applied"] += 1
    return out


DOORS = {"pettingzoo-step": fuzz_pettingzoo, "openspiel-apply_action": fuzz_openspiel}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--door", default="all", choices=["all", *DOORS])
    ap.add_argument("--cases", type=int, default=10_000, help="cases per door")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    failed = 0
    for name in (DOORS if args.door == "all" else [args.door]):
        t0, c0 = time.perf_counter(), time.process_time()
        res = DOORS[name](args.cases, args.seed)
        res.update(seed=args.seed, wall_s=round(time.perf_counter() - t0, 1), cpu_s=round(time.process_time() - c0, 1))
        failed += len(res["failures"])
        if args.json:
            print(json.dumps(res, sort_keys=True), flush=True)
        else:
            print(f"{name}: {res['cases']:,} cases over {len(GAMES)} games, {res['refused']:,} refused with the library's "
                  f"error, {res['applied']:,} legal indexes applied; {len(res['failures'])} failures; "
                  f"wall {res['wall_s']} s, CPU {res['cpu_s']} s", flush=True)
            for f in res["failures"][:10]:
                print(f"  FAIL {json.dumps(f)[:1200]}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
