"""Server CPU per decision with one WebSocket page per match (in one process, TestClient, bot delay 0).

    python benchmarks/bench_web_cpu.py after                       # this checkout
    PYTHONPATH=/tmp/main-copy python benchmarks/bench_web_cpu.py before

Three whole Dungeon's Jewel games (seat 0 played at random over the WebSocket,
three heuristic bots); the figure includes the bots and the client's own work.
"""
import time, json, random, tempfile, sys
from fastapi.testclient import TestClient
from boardlab.web.app import create_app
app = create_app(data_dir=tempfile.mkdtemp(), bot_delay=0)
tot_moves = 0
with TestClient(app) as c:
    t0 = time.process_time()
    for g in range(3):
        r = c.post("/api/matches", json={"game": "dungeons-jewel", "seed": g}).json()
        mid, tok = r["match"]["id"], r["seats"][0]["token"]
        rng = random.Random(g)
        with c.websocket_connect(f"/api/matches/{mid}/ws") as ws:
            ws.send_json({"type": "hello", "seat": 0, "token": tok})
            snap = ws.receive_json()
            n = 0
            while not snap["over"] and n < 2000:
                if snap["acting"] == 0:
                    ws.send_json({"type": "act", "state_id": snap["state_id"], "index": rng.randrange(len(snap["actions"]))})
                msg = ws.receive_json()
                if msg["type"] == "update":
                    from boardlab.web.push import apply_update  # only servers that send updates
                    snap = apply_update(snap, msg)
                else:
                    snap = msg
                n += 1
            tot_moves += snap["state_id"]
    print(sys.argv[1], "decisions", tot_moves, "cpu ms per decision", (time.process_time() - t0) / tot_moves * 1000)
