"""WebSocket traffic of one Wizard's Labyrinth game watched by its four seats (issue 16, finding 8).

Four human seats, each a WebSocket page on loopback; the acting page moves
(the game's heuristic agent, run on a local copy of the game, chooses; the
server sees ordinary moves).  Every message each page receives is counted in
bytes.  Bounded: at most ``--decisions`` decisions and ``--time-limit`` seconds.

    python benchmarks/bench_web_payload.py                      # 288 decisions, this checkout
    python benchmarks/bench_web_payload.py --pythonpath /tmp/main-copy   # another checkout's server
    python benchmarks/bench_web_payload.py --decisions 0 --json  # the whole game

Targets: median update <= 4 KB; the 288-decision game < 2 MB for 4 listeners.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from webserver import Server  # noqa: E402

from boardlab.agents import Decision, make_agent  # noqa: E402
from boardlab.engine import make  # noqa: E402


def _apply(snap: dict, msg: dict) -> dict:
    from boardlab.web.push import apply_update

    return apply_update(snap, msg)


async def play(base: str, game_id: str, seed: int, limit: int, time_limit: float) -> dict:
    import urllib.request

    from websockets.asyncio.client import connect

    body = json.dumps({"game": game_id, "seats": [{"kind": "human"}] * 4, "seed": seed}).encode()
    req = urllib.request.Request(base + "/api/matches", data=body, method="POST", headers={"Content-Type": "application/json"})
    r = json.loads(urllib.request.urlopen(req, timeout=30).read())
    mid, tokens = r["match"]["id"], [s["token"] for s in r["seats"]]
    m = r["match"]
    game = make(game_id, players=m["players"], variant=m["variant"], options=m["options"])
    local = game.new_state(seed)
    agents = [make_agent("heuristic", game, s, seed * 10 + s) for s in range(4)]
    sizes: dict[int, list[tuple[str, int]]] = {s: [] for s in range(4)}
    errors: list[str] = []
    end = limit if limit > 0 else 10**9
    deadline = time.monotonic() + time_limit
    ws_url = base.replace("http://", "ws://") + f"/api/matches/{mid}/ws"

    async def page(seat: int) -> None:
        async with connect(ws_url, max_size=None, open_timeout=30) as ws:
            await ws.send(json.dumps({"type": "hello", "seat": seat, "token": tokens[seat]}))
            snap = None
            acted = -1
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("time limit")
                raw = await asyncio.wait_for(ws.recv(), left)
                msg = json.loads(raw)
                if msg["type"] == "error":
                    errors.append(msg["detail"])
                    continue
                sizes[seat].append((msg["type"], len(raw.encode())))
                snap = msg if msg["type"] == "snapshot" else _apply(snap, msg)
                sid = snap["state_id"]
                if snap["over"] or sid >= end:
                    return
                if snap["acting"] == seat and acted < sid:
                    acted = sid
                    while local.decisions < sid:  # other pages' moves are applied by their own page
                        await asyncio.sleep(0)
                    action = agents[seat].act(Decision(local.clone(), seat))
                    index = [tuple(a) for a in local.legal_actions()].index(tuple(action))
                    local.apply(tuple(action))
                    await ws.send(json.dumps({"type": "act", "state_id": sid, "index": index}))

    await asyncio.gather(*(page(s) for s in range(4)))
    all_sizes = [n for s in sizes.values() for _, n in s]
    updates = [n for s in sizes.values() for t, n in s[1:]]
    return {
        "game": game_id, "seed": seed, "decisions": local.decisions, "listeners": 4,
        "messages": len(all_sizes), "total_bytes": sum(all_sizes),
        "first_snapshot_bytes_median": statistics.median(s[0][1] for s in sizes.values()),
        "update_bytes_median": statistics.median(updates), "update_bytes_p90": _q(updates, 0.9),
        "update_bytes_max": max(updates), "message_types": sorted({t for s in sizes.values() for t, _ in s}),
        "errors": errors,
    }


def _q(xs: list[int], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="wizards-labyrinth")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--decisions", type=int, default=288, help="stop after this many decisions (0: the whole game)")
    ap.add_argument("--time-limit", type=float, default=300.0, help="seconds before giving up")
    ap.add_argument("--pythonpath", default=None, help="serve another checkout (default: this one)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    with Server(bot_delay=0, pythonpath=args.pythonpath) as srv:
        t0 = time.monotonic()
        out = asyncio.run(play(srv.base, args.game, args.seed, args.decisions, args.time_limit))
        out["wall_s"] = round(time.monotonic() - t0, 2)
        out["server_cpu_s"] = round(srv.cpu_seconds(), 2)
    if args.json:
        print(json.dumps(out, indent=2))
        return
    for k, v in out.items():
        print(f"{k:>28}: {v}")


if __name__ == "__main__":
    main()
