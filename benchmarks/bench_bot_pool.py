"""Probe latency of a real ``boardlab serve`` on loopback while eight of the strongest web bots think.

    python benchmarks/bench_bot_pool.py [--code DIR] [--probes 200] [--bots 8]

Starts ``python -m boardlab.cli serve`` (the code in ``--code``, default this
checkout) on a free loopback port with a temporary data directory and
``BOARDLAB_BOT_DELAY=0``, creates one all-human match, and measures the
latency of ``GET /api/matches/{id}/state`` (a seat's snapshot) and
``GET /api/games`` (the lobby), ``--probes`` times each, 50 ms apart: first
with no bot playing, then while ``--bots`` Armies matches of two bots with the
strongest spec the web accepts (``ismcts:iterations=1000:time=2``) play.
Prints p50 and p99 with distribution-free 95% intervals (order statistics of
the binomial).  Bounded: at most ``probes * 2 * 2`` requests, each with a 60 s
timeout; the server is stopped with SIGTERM and the time it takes to stop is
printed too.  Loopback only.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from scipy.stats import binom

STRONGEST = "ismcts:iterations=1000:time=2"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def req(base: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    r = urllib.request.Request(base + path, data=data, headers=headers, method="POST" if body is not None else "GET")
    with urllib.request.urlopen(r, timeout=60) as resp:
        return json.loads(resp.read())


def quantile_ci(xs: list[float], q: float, level: float = 0.95) -> tuple[float, float, float]:
    """The q-quantile of ``xs`` and a distribution-free interval from order statistics."""
    s = sorted(xs)
    n = len(s)
    lo = int(binom.ppf((1 - level) / 2, n, q))
    hi = int(binom.ppf(1 - (1 - level) / 2, n, q)) + 1
    est = s[min(n - 1, int(q * n))]
    return est, s[max(0, lo - 1)], s[min(n - 1, hi - 1)]


def probe(base: str, path: str, token: str | None, n: int) -> list[float]:
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        req(base, path, token=token)
        out.append((time.perf_counter() - t0) * 1000)
        time.sleep(0.05)
    return out


def report(label: str, xs: list[float]) -> None:
    p50 = quantile_ci(xs, 0.5)
    p99 = quantile_ci(xs, 0.99)
    print(f"  {label:<34} p50 {p50[0]:7.1f} ms [{p50[1]:.1f}, {p50[2]:.1f}]   "
          f"p99 {p99[0]:7.1f} ms [{p99[1]:.1f}, {p99[2]:.1f}]   max {max(xs):.1f} ms   n={len(xs)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--code", default=str(Path(__file__).resolve().parents[1]))
    ap.add_argument("--probes", type=int, default=200)
    ap.add_argument("--bots", type=int, default=8)
    args = ap.parse_args()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as d:
        env = {**os.environ, "PYTHONPATH": args.code, "BOARDLAB_BOT_DELAY": "0",
               "BOARDLAB_CREATE_BURST": "1000", "BOARDLAB_CREATE_RATE": "1000"}
        proc = subprocess.Popen([sys.executable, "-m", "boardlab.cli", "serve", "--port", str(port), "--data-dir", d],
                                cwd=d, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    req(base, "/api/games")
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.2)
            m = req(base, "/api/matches", {"game": "armies", "seats": [{"kind": "human"}, {"kind": "human"}], "seed": 1})
            state = f"/api/matches/{m['match']['id']}/state?seat=0"
            tok = m["seats"][0]["token"]
            print(f"code: {args.code}; {os.cpu_count()} CPUs; {args.probes} probes each, 50 ms apart")
            print("no bots:")
            report("GET .../state (seat snapshot)", probe(base, state, tok, args.probes))
            report("GET /api/games (lobby)", probe(base, "/api/games", None, args.probes // 4))
            for i in range(args.bots):
                req(base, "/api/matches", {"game": "armies", "seats": [{"kind": "bot", "agent": STRONGEST}] * 2, "seed": 100 + i})
            time.sleep(3)
            print(f"{args.bots} matches of two '{STRONGEST}' bots playing:")
            report("GET .../state (seat snapshot)", probe(base, state, tok, args.probes))
            report("GET /api/games (lobby)", probe(base, "/api/games", None, args.probes // 4))
            done = sum(x["decisions"] for x in req(base, "/api/matches?limit=50")["matches"])
            print(f"  bot decisions made meanwhile: {done}")
        finally:
            t0 = time.perf_counter()
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=60)
                print(f"stopped {time.perf_counter() - t0:.1f} s after SIGTERM")
            except subprocess.TimeoutExpired:
                print("still running 60 s after SIGTERM: killed")
                proc.kill()
                proc.wait()


if __name__ == "__main__":
    main()
