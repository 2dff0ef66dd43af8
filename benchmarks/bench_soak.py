"""Soak: the server under a hostile mix for minutes (issue 30), on loopback only, bounded in count and time.

At once, for ``--seconds`` (default 600, at most 3600):

* ``--players`` (100) playing clients, each from its own loopback address
  (127.0.1.x): creates a match (seat 0 human, the game's bots), follows it on a
  WebSocket, moves over HTTP when it is seat 0's turn, and starts a new match
  when one ends;
* ``--spectators`` (200) idle spectators on the players' matches, 8 per
  address (127.0.2.x): say hello, then only read; one the server closes (e.g.
  4009 or 4010, its match unloaded) is counted and watches one of the 100 newest
  matches a second later (a page told 4009 does not come back either);
* ``--stuck`` (50) WebSockets from one address (127.0.3.1) that ask for
  snapshots and never read; each reconnects (at most once a second) when the
  server closes it;
* ``--idle`` (300) TCP connections from one address (127.0.4.1) that send
  nothing; reopened (at most 50 a second in all) when closed;
* one client (127.0.5.1) flooding ``hello`` messages as fast as it can,
  reconnecting a second after each close;
* issue 45's attacks (``--no-i45`` leaves them out): 16 POSTs at a time declaring 60,000
  body bytes and sending 10 (127.0.7.1); 16 WebSockets at a time that never say hello
  (127.0.7.2); 4 connections asking for the rules and spectator snapshots, and cycling the
  replays of the finished matches, as fast as they are answered (127.0.7.3); a WebSocket
  from another origin every second (127.0.7.4);
* a probe (127.0.6.1) asking ``GET /api/games`` every 0.2 s, from its own
  process (so that its latency is the server's, not this busy client loop's).

Reported: the playing clients' errors (non-2xx, WebSocket errors, dropped
connections), move and probe latency p50/p99, what the attackers got (opened,
refused, closed), and every ``--sample-every`` seconds the server's RSS, open
descriptors and the kernel's TCP memory (``/proc/net/sockstat``, all sockets
on the machine), and the length of the server's full garbage collections
(a benchmark-only hook, ``GC_PRELUDE``).  ``--census T1,T2`` also counts the
server's objects at those times (``CENSUS_PRELUDE``).  Stops by itself.

    nice python benchmarks/bench_soak.py                  # 10 minutes
    nice python benchmarks/bench_soak.py --seconds 90 --json
    nice python benchmarks/bench_soak.py --seconds 180 --max-turns 12   # many matches end in a short run
    nice python benchmarks/bench_soak.py --seconds 1800 --sample-every 30  # past the first games' end
    nice python benchmarks/bench_soak.py --seconds 300 --census 120,290   # what the server's memory holds

Goal (quiet 2-core machine, default bot delay 0.8 s): 0 errors for the playing
clients, move p99 <= 500 ms, probe p99 <= 200 ms, RSS and descriptors flat after warm-up.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import socket
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from webserver import Server  # noqa: E402


def pct(xs: list[float], q: float) -> float | None:
    if not xs:
        return None
    xs = sorted(xs)
    return round(1000 * xs[min(len(xs) - 1, int(q * len(xs)))], 1)


def player_address(i: int) -> str:
    """The loopback address playing client ``i`` connects from (one each, 127.0.1.x)."""
    return f"127.0.1.{1 + i % 250}"


def proc_sample(pid: int) -> dict:
    out: dict = {}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                out["rss_mb"] = round(int(line.split()[1]) / 1024, 1)
        out["fds"] = len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        pass
    try:
        for line in Path("/proc/net/sockstat").read_text().splitlines():
            if line.startswith("TCP:"):
                parts = line.split()
                kv = dict(zip(parts[1::2], parts[2::2]))
                out["tcp_inuse"] = int(kv.get("inuse", 0))
                out["tcp_mem_mb"] = round(int(kv.get("mem", 0)) * os.sysconf("SC_PAGE_SIZE") / 2**20, 1)
    except OSError:
        pass
    return out


async def run(srv: Server, args: argparse.Namespace) -> dict:
    import httpx
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    from boardlab.web.push import apply_update

    base = srv.base
    port = srv.port
    wsbase = base.replace("http://", "ws://")
    moves: list[float] = []
    probes: list[float] = []
    errors: list[str] = []
    attack = {k: 0 for k in ("stuck_opened", "stuck_closed_by_server", "idle_opened", "idle_closed_by_server",
                             "flood_messages", "flood_closed_by_server", "spectators_watching", "spectators_refused",
                             "spectators_closed_by_server", "spectators_unloaded",
                             "slow_body_opened", "slow_body_closed_by_server", "no_hello_opened", "no_hello_closed_by_server",
                             "heavy_reads", "heavy_refused_429", "cross_origin_tried", "cross_origin_refused")}
    stats = {"matches_created": 0, "games_finished": 0}
    samples: list[dict] = []
    stop = asyncio.Event()
    t0 = time.monotonic()
    match_ids: list[str] = []
    options = {"options": {"max_turns": args.max_turns}} if args.max_turns else {}

    async def until_stop(coro) -> bool:
        """Await ``coro`` unless the soak ends first; True if it finished (then read its result, which may raise)."""
        task = asyncio.ensure_future(coro)
        stopper = asyncio.ensure_future(stop.wait())
        try:
            await asyncio.wait({task, stopper}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopper.cancel()
        if not task.done():
            task.cancel()
            try:  # wait for it to end, so that no task is left pending or unretrieved
                await task
            except BaseException:
                pass
            return False
        return True

    def retrieve(task: asyncio.Future) -> None:
        """Done callback: read a background task's outcome, so asyncio never logs it as never retrieved."""
        if not task.cancelled():
            task.exception()

    # -- playing clients ---------------------------------------------------------------------
    async def player(i: int) -> None:
        rng = random.Random(i)
        addr = player_address(i)
        await asyncio.sleep(args.ramp * i / max(1, args.players))
        # The limits go to the transport: an AsyncClient given a transport ignores its own ``limits``
        # (until 26 Nov 2026 they were given to the client, so the players kept idle connections for
        # httpx's default 5 s, the server's keep-alive then, and now and then sent a request on a
        # connection the server was closing: the 30-minute runs' rare ReadErrors, found with
        # --trace-players).
        limits = httpx.Limits(max_connections=4, max_keepalive_connections=2, keepalive_expiry=3.0)
        transport = httpx.AsyncHTTPTransport(local_address=addr, limits=limits)
        last_http = time.perf_counter()  # when its last HTTP response came (named in its error)
        async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as http:
            n = 0
            while not stop.is_set():
                doing[i] = "create"
                r = await http.post("/api/matches", json={"game": args.game, "seed": 1000 * i + n, **options})
                n += 1
                last_http = time.perf_counter()
                if r.status_code != 201:
                    errors.append(f"create {r.status_code}: {r.text[:100]}")
                    await until_stop(asyncio.sleep(5))
                    continue
                stats["matches_created"] += 1
                body = r.json()
                mid, tok = body["match"]["id"], body["seats"][0]["token"]
                match_ids.append(mid)
                doing[i] = "WebSocket connect"
                async with connect(f"{wsbase}/api/matches/{mid}/ws", max_size=None, open_timeout=30,
                                   local_addr=(addr, 0)) as ws:
                    await ws.send(json.dumps({"type": "hello", "seat": 0, "token": tok}))
                    doing[i] = "following its match"
                    snap = None
                    while not stop.is_set():
                        if snap is not None and snap["over"]:
                            stats["games_finished"] += 1
                            break
                        if snap is not None and snap["acting"] == 0:
                            t = time.perf_counter()
                            doing[i] = f"move, {t - last_http:.1f} s after its last HTTP response"
                            r = await http.post(f"/api/matches/{mid}/actions", headers={"Authorization": f"Bearer {tok}"},
                                                json={"seat": 0, "state_id": snap["state_id"],
                                                      "index": rng.randrange(len(snap["actions"]))})
                            last_http = time.perf_counter()
                            moves.append(last_http - t)
                            doing[i] = "following its match"
                            if r.status_code != 200:
                                errors.append(f"move {r.status_code}: {r.text[:100]}")
                                snap = None
                                await ws.send(json.dumps({"type": "hello", "seat": 0, "token": tok}))
                            else:
                                snap = r.json()
                            continue
                        recv = asyncio.ensure_future(ws.recv())
                        if not await until_stop(recv):
                            break
                        msg = json.loads(recv.result())
                        if msg["type"] == "snapshot":
                            if snap is None or msg["state_id"] >= snap["state_id"]:
                                snap = msg
                        elif msg["type"] == "update":
                            if snap is None or msg["state_id"] <= snap["state_id"]:
                                continue
                            if msg["from"] != snap["state_id"]:
                                await ws.send(json.dumps({"type": "hello", "seat": 0, "token": tok}))
                                continue
                            snap = apply_update(snap, msg)
                        elif msg["type"] == "error":
                            errors.append(f"ws error {msg.get('status')}: {msg.get('detail')}")

    doing: dict[int, str] = {}  # what each player is waiting for (named in its error, if one comes)
    failed: list[tuple[float, str]] = []  # (monotonic time, address) of each player that failed

    async def guarded(i: int) -> None:
        try:
            await player(i)
        except Exception as exc:
            errors.append(f"player {i} ({doing.get(i, '?')}, t={time.monotonic() - t0:.0f} s): "
                          f"{type(exc).__name__}: {str(exc)[:100]}")
            failed.append((time.monotonic(), player_address(i)))

    # -- idle spectators -------------------------------------------------------------------------
    async def spectator(i: int) -> None:
        addr = f"127.0.2.{1 + i // 8}"
        await asyncio.sleep(args.ramp + 2 * i / max(1, args.spectators))
        moved = 0  # times the server closed this spectator: it then watches one of the newest matches
        while not stop.is_set():
            if not match_ids:
                await until_stop(asyncio.sleep(1))
                continue
            if moved:  # like a page told 4009, it does not come back to the match it was closed on
                mid = match_ids[-1 - (i + moved) % min(100, len(match_ids))]
            else:
                mid = match_ids[i % len(match_ids)]
            try:
                async with connect(f"{wsbase}/api/matches/{mid}/ws", max_size=None, open_timeout=30,
                                   local_addr=(addr, 0)) as ws:
                    await ws.send(json.dumps({"type": "hello"}))
                    first = json.loads(await ws.recv())
                    if first["type"] != "snapshot":
                        attack["spectators_refused"] += 1
                        await until_stop(asyncio.sleep(5))
                        continue
                    attack["spectators_watching"] += 1
                    while not stop.is_set():  # read, never send
                        recv = asyncio.ensure_future(ws.recv())
                        if not await until_stop(recv):
                            return
                        recv.result()  # raises ConnectionClosed when the server closes the socket
            except ConnectionClosed as exc:  # e.g. 4009: nobody played its match, which was unloaded
                attack["spectators_closed_by_server"] += 1
                moved += 1
                if exc.rcvd is not None and exc.rcvd.code in (4009, 4010):  # unloaded (4010: finished)
                    attack["spectators_unloaded"] += 1
                await until_stop(asyncio.sleep(1))  # then watch another (quietly: no traceback)
            except Exception:
                await until_stop(asyncio.sleep(1))  # could not connect: try again

    # -- never-reading sockets ------------------------------------------------------------------------
    def raw_ws(addr: str, path: str) -> socket.socket:
        import base64

        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.bind((addr, 0))
        s.settimeout(5)
        s.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall((f"GET {path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        s.setblocking(False)
        return s

    def frame(text: str) -> bytes:
        data = text.encode()
        mask = os.urandom(4)
        head = bytes([0x81, 0x80 | len(data)])
        return head + mask + bytes(b ^ mask[k % 4] for k, b in enumerate(data))

    HELLO = frame('{"type":"hello"}')

    async def stuck(i: int) -> None:
        loop = asyncio.get_running_loop()
        await asyncio.sleep(args.ramp)
        while not stop.is_set():
            if not match_ids:
                await until_stop(asyncio.sleep(1))
                continue
            opened = time.monotonic()
            try:
                s = await loop.run_in_executor(None, raw_ws, "127.0.3.1", f"/api/matches/{match_ids[i % len(match_ids)]}/ws")
            except OSError:
                await until_stop(asyncio.sleep(1))
                continue
            attack["stuck_opened"] += 1
            try:
                while not stop.is_set():
                    try:
                        s.send(HELLO * 5)  # ask for snapshots, never read
                    except BlockingIOError:
                        pass
                    except OSError:
                        attack["stuck_closed_by_server"] += 1
                        break
                    await until_stop(asyncio.sleep(0.5))
            finally:
                s.close()
            await until_stop(asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - opened))))

    # -- idle TCP connections ------------------------------------------------------------------------
    async def idle_conns() -> None:
        await asyncio.sleep(args.ramp)
        open_: list[asyncio.StreamWriter] = []
        readers: list[asyncio.StreamReader] = []
        while not stop.is_set():
            # reap the ones the server closed
            keep_w, keep_r = [], []
            for r, w in zip(readers, open_):
                if r.at_eof() or w.is_closing():
                    attack["idle_closed_by_server"] += 1
                    w.close()
                else:
                    keep_w.append(w)
                    keep_r.append(r)
            open_, readers = keep_w, keep_r
            for _ in range(min(50, args.idle - len(open_))):
                try:
                    r, w = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.4.1", 0))
                except OSError:
                    attack["idle_closed_by_server"] += 1
                    continue
                attack["idle_opened"] += 1
                open_.append(w)
                readers.append(r)
                asyncio.ensure_future(r.read()).add_done_callback(retrieve)  # notices EOF / reset
            await until_stop(asyncio.sleep(1))
        for w in open_:
            w.close()

    # -- the flooder -------------------------------------------------------------------------------------
    async def flooder() -> None:
        await asyncio.sleep(args.ramp)
        while not stop.is_set():
            if not match_ids:
                await until_stop(asyncio.sleep(1))
                continue
            try:
                async with connect(f"{wsbase}/api/matches/{match_ids[0]}/ws", max_size=None, open_timeout=30,
                                   local_addr=("127.0.5.1", 0)) as ws:
                    async def drain() -> None:
                        try:
                            async for _ in ws:
                                pass
                        except Exception:  # closed by the server: the point of the exercise
                            pass
                    reader = asyncio.ensure_future(drain())
                    while not stop.is_set() and not reader.done():
                        await ws.send('{"type":"hello"}')
                        attack["flood_messages"] += 1
                        if attack["flood_messages"] % 50 == 0:
                            await asyncio.sleep(0)
                    reader.cancel()
                    await asyncio.gather(reader, return_exceptions=True)
            except Exception:
                pass
            if not stop.is_set():
                attack["flood_closed_by_server"] += 1
            await until_stop(asyncio.sleep(1))

    # -- issue 45: slow bodies, silent sockets, heavy reads, another origin -----------------------------------
    def slow_body(addr: str) -> socket.socket:
        s = socket.socket()
        s.bind((addr, 0))
        s.settimeout(5)
        s.connect(("127.0.0.1", port))
        s.sendall(b"POST /api/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 60000\r\n\r\n{\"game\": \"")
        s.setblocking(False)
        return s

    def no_hello(addr: str) -> socket.socket:
        return raw_ws(addr, f"/api/matches/{match_ids[-1]}/ws")

    async def holders(make, addr: str, opened: str, closed: str) -> None:
        """Keep 16 sockets made by ``make`` open; count the ones the server closes."""
        loop = asyncio.get_running_loop()
        await asyncio.sleep(args.ramp)
        held: list[socket.socket] = []
        while not stop.is_set():
            keep = []
            for s in held:
                try:
                    if s.recv(65536) == b"":
                        raise ConnectionResetError
                    keep.append(s)  # it answered something (a close frame follows)
                except BlockingIOError:
                    keep.append(s)
                except OSError:
                    attack[closed] += 1
                    s.close()
            held = keep
            while len(held) < 16 and match_ids and not stop.is_set():
                try:
                    held.append(await loop.run_in_executor(None, make, addr))
                    attack[opened] += 1
                except OSError:
                    attack[closed] += 1
                    break
            await until_stop(asyncio.sleep(1))
        for s in held:
            s.close()

    async def heavy_reader(k: int) -> None:
        import httpx

        await asyncio.sleep(args.ramp)
        async with httpx.AsyncClient(base_url=base, timeout=30, transport=httpx.AsyncHTTPTransport(local_address="127.0.7.3")) as c:
            n = 0
            while not stop.is_set():
                n += 1
                if not match_ids:
                    await until_stop(asyncio.sleep(1))
                    continue
                mid = match_ids[(n * 7 + k) % len(match_ids)]
                path = (f"/api/games/{args.game}/rules", f"/api/matches/{mid}/state",
                        f"/api/matches/{mid}/replay?step=1")[n % 3]
                try:
                    r = await c.get(path)
                    attack["heavy_reads"] += 1
                    if r.status_code == 429:
                        attack["heavy_refused_429"] += 1
                        await until_stop(asyncio.sleep(min(5.0, float(r.headers.get("retry-after", "1")))))
                except httpx.HTTPError:
                    await until_stop(asyncio.sleep(1))

    async def cross_origin() -> None:
        import base64

        loop = asyncio.get_running_loop()
        await asyncio.sleep(args.ramp)

        def attempt() -> bool:
            with socket.create_connection(("127.0.0.1", port), timeout=5, source_address=("127.0.7.4", 0)) as s:
                key = base64.b64encode(os.urandom(16)).decode()
                s.sendall((f"GET /api/matches/{match_ids[-1]}/ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                           f"Origin: http://evil.example\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
                return not s.recv(64).startswith(b"HTTP/1.1 101")

        while not stop.is_set():
            if match_ids:
                try:
                    attack["cross_origin_tried"] += 1
                    attack["cross_origin_refused"] += await loop.run_in_executor(None, attempt)
                except OSError:
                    pass
            await until_stop(asyncio.sleep(1))

    # -- probe and sampler ---------------------------------------------------------------------------------
    async def sampler() -> None:
        while not stop.is_set():
            samples.append({"t_s": round(time.monotonic() - t0), **proc_sample(srv.proc.pid)})
            await until_stop(asyncio.sleep(args.sample_every))
        samples.append({"t_s": round(time.monotonic() - t0), **proc_sample(srv.proc.pid)})

    tasks = [asyncio.ensure_future(guarded(i)) for i in range(args.players)]
    tasks += [asyncio.ensure_future(spectator(i)) for i in range(args.spectators)]
    tasks += [asyncio.ensure_future(stuck(i)) for i in range(args.stuck)]
    tasks += [asyncio.ensure_future(idle_conns()), asyncio.ensure_future(flooder()),
              asyncio.ensure_future(sampler())]
    if not args.no_i45:
        tasks += [asyncio.ensure_future(holders(slow_body, "127.0.7.1", "slow_body_opened", "slow_body_closed_by_server")),
                  asyncio.ensure_future(holders(no_hello, "127.0.7.2", "no_hello_opened", "no_hello_closed_by_server")),
                  asyncio.ensure_future(cross_origin())]
        tasks += [asyncio.ensure_future(heavy_reader(k)) for k in range(4)]
    # the probe runs in its own process: its latency is the server's, not this busy client loop's
    ctx = multiprocessing.get_context("spawn")
    probe_stop = ctx.Event()
    probe_out, probe_in = ctx.Pipe(duplex=False)
    prober = ctx.Process(target=probe_process, args=(port, probe_stop, probe_in), daemon=True)
    prober.start()
    await asyncio.sleep(args.seconds)
    stop.set()
    probe_stop.set()
    if await asyncio.to_thread(probe_out.poll, 30):
        got = probe_out.recv()
        probes.extend(got["latencies"])
        errors.extend(got["errors"])
    else:
        errors.append("probe: the probe process sent no result")
    prober.join(10)
    await asyncio.wait(tasks, timeout=40)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)  # nothing left pending or unretrieved
    return {
        "game": args.game, "max_turns": args.max_turns, "seconds": args.seconds, "bot_delay_s": args.bot_delay,
        "players": args.players, "spectators": args.spectators, "stuck": args.stuck, "idle": args.idle,
        **stats, "errors": len(errors), "error_samples": sorted(set(errors))[:8],
        "moves": len(moves), "move_ms_p50": pct(moves, 0.5), "move_ms_p99": pct(moves, 0.99),
        "probes": len(probes), "probe_ms_p50": pct(probes, 0.5), "probe_ms_p99": pct(probes, 0.99),
        "attackers": attack, "samples": samples, "t0_monotonic": t0, "failed": failed,
    }


def probe_process(port: int, stop, out) -> None:
    """``GET /api/games`` every 0.2 s from 127.0.6.1 on one keep-alive connection; sends latencies and errors."""
    import http.client

    latencies: list[float] = []
    errors: list[str] = []
    conn = None
    while not stop.is_set():
        if conn is None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=("127.0.6.1", 0))
        t = time.perf_counter()
        try:
            conn.request("GET", "/api/games")
            r = conn.getresponse()
            r.read()
            latencies.append(time.perf_counter() - t)
            if r.status != 200:
                errors.append(f"probe {r.status}")
            if r.getheader("connection", "").lower() == "close":
                conn.close()
                conn = None
        except (OSError, http.client.HTTPException) as exc:
            errors.append(f"probe: {type(exc).__name__}")
            conn.close()
            conn = None
        stop.wait(0.2)
    out.send({"latencies": latencies, "errors": errors})


#: Benchmark-only instrumentation run in the server process: the length of every full (generation 2)
#: garbage collection, one line per collection, in the file named by the placeholder.
GC_PRELUDE = """
import gc as _gc, time as _time
_gc_log = open({path!r}, "a", buffering=1)
_gc_t0 = [0.0]
def _gc_timer(phase, info):
    if phase == "start":
        _gc_t0[0] = _time.perf_counter()
    elif info["generation"] == 2:
        _gc_log.write("%.1f %d\\n" % (1000 * (_time.perf_counter() - _gc_t0[0]), info["collected"]))
_gc.callbacks.append(_gc_timer)
"""


#: Benchmark-only census (``--census T1,T2``): at each time, in a thread of the server, the tracked
#: objects by type before and after a full collection (what is garbage, what is live and growing),
#: and RSS before and after glibc's ``malloc_trim`` (memory freed but not returned to the OS).  Objects
#: frozen at start-up (``gc.freeze()``, see ``boardlab.web.server.tune_gc``) are not counted.
CENSUS_PRELUDE = """
import threading as _th, time as _t, gc as _g, collections as _c
def _rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024
def _count(f, label):
    objs = _g.get_objects()
    c = _c.Counter(type(o).__module__ + "." + type(o).__qualname__ for o in objs)
    del objs
    f.write("%s: RSS %.1f MB, %d tracked objects\\n" % (label, _rss(), sum(c.values())))
    return c
def _census():
    f = open({path!r}, "w", buffering=1)
    t0 = _t.monotonic()
    prev = None
    for at in {times!r}:
        _t.sleep(max(0.0, at - (_t.monotonic() - t0)))
        c = _count(f, "t=%g s, before a full collection" % at)
        n = _g.collect()
        c2 = _count(f, "t=%g s, after it (%d unreachable)" % (at, n))
        f.write("  garbage by type: %r\\n" % ((c - c2).most_common(12),))
        if prev is not None:
            f.write("  live objects grown since the last census: %r\\n" % ((c2 - prev).most_common(12),))
        prev = c2
        try:
            import ctypes
            ctypes.CDLL("libc.so.6").malloc_trim(0)
            f.write("  after malloc_trim: RSS %.1f MB\\n" % _rss())
        except (OSError, AttributeError):
            pass
    f.close()
_th.Thread(target=_census, daemon=True).start()
"""


#: Benchmark-only trace (``--trace-players``): in the server, every limit that bites a playing client's
#: connection (address 127.0.1.x), every such connection lost with an error and every keep-alive close of
#: one, a line each with the monotonic time (one clock for all processes on Linux), to match the players' errors.
TRACE_PRELUDE = """
import time as _tt
_tr = open({path!r}, "a", buffering=1)
def _tr_w(what):
    _tr.write("%.3f %s\\n" % (_tt.monotonic(), what))
from boardlab.web import limits as _lm
_hit = _lm.LimitLog.hit
def _traced_hit(self, kind, msg, *a):
    if any(str(x).startswith("127.0.1.") for x in a):
        _tr_w("limit " + kind + ": " + (msg % a))
    return _hit(self, kind, msg, *a)
_lm.LimitLog.hit = _traced_hit
from uvicorn.protocols.http.h11_impl import H11Protocol as _H
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol as _W
def _player(p):
    return bool(p.client) and str(p.client[0]).startswith("127.0.1.")
for _cls, _name in ((_H, "HTTP"), (_W, "WebSocket")):
    def _lost(self, exc, _orig=_cls.connection_lost, _name=_name):
        if exc is not None and _player(self):
            _tr_w("%s connection of %s:%s lost: %r" % (_name, self.client[0], self.client[1], exc))
        return _orig(self, exc)
    _cls.connection_lost = _lost
_ka = _H.timeout_keep_alive_handler
def _traced_ka(self):
    if _player(self) and not self.transport.is_closing():
        _tr_w("keep-alive close of %s:%s (%d bytes unsent)" % (self.client[0], self.client[1],
                                                              self.transport.get_write_buffer_size()))
    return _ka(self)
_H.timeout_keep_alive_handler = _traced_ka
"""


def player_trace(path: Path, t0: float, failed: list[tuple[float, str]]) -> dict:
    """:data:`TRACE_PRELUDE`'s lines (times made seconds since the soak's start ``t0``): how many
    keep-alive closes, every other line, and the keep-alive closes of a failed player's address
    within 10 s of its failure."""
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return {}
    closes, other, near = 0, [], []
    for line in lines:
        t_raw, _, what = line.partition(" ")
        t = float(t_raw)
        shown = f"t={t - t0:.1f} s: {what}"
        if "keep-alive close" not in what:
            other.append(shown)
            continue
        closes += 1
        if any(abs(t - tf) <= 10 and f" of {addr}:" in what for tf, addr in failed):
            near.append(shown)
    return {"keep_alive_closes": closes, "other": other[:40], "near_failures": near[:40]}


def gc_pauses(path: Path) -> dict:
    """Count, p50 and max (ms) of the server's full collections, from :data:`GC_PRELUDE`'s file."""
    try:
        ms = sorted(float(line.split()[0]) for line in path.read_text().splitlines() if line.strip())
    except OSError:
        return {}
    if not ms:
        return {"count": 0}
    return {"count": len(ms), "p50_ms": ms[len(ms) // 2], "max_ms": ms[-1], "total_s": round(sum(ms) / 1000, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=600.0, help="length of the soak (at most 3600)")
    ap.add_argument("--players", type=int, default=100)
    ap.add_argument("--spectators", type=int, default=200)
    ap.add_argument("--stuck", type=int, default=50)
    ap.add_argument("--idle", type=int, default=300)
    ap.add_argument("--game", default="dungeons-jewel")
    ap.add_argument("--bot-delay", type=float, default=0.8)
    ap.add_argument("--max-turns", type=int, default=0,
                    help="the matches' max_turns option (0: the game's own cap); small values let a short soak see many matches end")
    ap.add_argument("--ramp", type=float, default=20.0, help="seconds over which the players start")
    ap.add_argument("--sample-every", type=float, default=10.0)
    ap.add_argument("--census", default="",
                    help="seconds (comma-separated) at which the server counts its objects (CENSUS_PRELUDE; "
                         "each census holds the server for a second or so, so latency figures of such a run are not comparable)")
    ap.add_argument("--trace-players", action="store_true",
                    help="trace, in the server, what happens to the playing clients' connections (TRACE_PRELUDE): "
                         "limits that bite them, connections lost with an error, keep-alive closes")
    ap.add_argument("--no-i45", action="store_true", help="leave out issue 45's attacks (slow bodies, silent sockets, heavy reads, another origin)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not 0 < args.seconds <= 3600 or not 0 <= args.players <= 250 or not 0 <= args.spectators <= 2000 \
            or not 0 <= args.stuck <= 500 or not 0 <= args.idle <= 2000:
        ap.error("--seconds 0..3600, --players 0..250, --spectators 0..2000, --stuck 0..500, --idle 0..2000")
    gc_dir = tempfile.TemporaryDirectory(prefix="boardlab-soak-gc-")
    gc_file = Path(gc_dir.name) / "gc.txt"
    # the server's default limits: nothing lifted
    try:
        census = [float(x) for x in args.census.split(",") if x.strip()]
    except ValueError:
        ap.error("--census: seconds separated by commas, e.g. 120,290")
    if any(not 0 < t < args.seconds for t in census):
        ap.error("--census: each time must be within the run (0 < t < --seconds)")
    census_file = Path(gc_dir.name) / "census.txt"
    prelude = GC_PRELUDE.format(path=str(gc_file))
    if census:
        prelude += CENSUS_PRELUDE.format(path=str(census_file), times=census)
    trace_file = Path(gc_dir.name) / "trace.txt"
    if args.trace_players:
        prelude += TRACE_PRELUDE.format(path=str(trace_file))
    with Server(bot_delay=args.bot_delay, prelude=prelude) as srv:
        out = asyncio.run(run(srv, args))
        out["server_cpu_s"] = round(srv.cpu_seconds(), 1)
        out["loadavg_1min_at_end"] = round(os.getloadavg()[0], 2)
    out["server_full_gc"] = gc_pauses(gc_file)
    out["server_log_lines"] = len(srv.log_lines)  # the rate-limited one-line warnings (limits biting)
    out["server_log_sample"] = sorted({line[:120] for line in srv.log_lines})[:6]
    if census:
        out["server_census"] = census_file.read_text().splitlines() if census_file.exists() else []
    if args.trace_players:
        out["player_trace"] = player_trace(trace_file, out["t0_monotonic"], out["failed"])
    out.pop("t0_monotonic", None)
    out.pop("failed", None)
    gc_dir.cleanup()
    if args.json:
        print(json.dumps(out, indent=2))
        return
    samples = out.pop("samples")
    census_lines = out.pop("server_census", [])
    for k, v in out.items():
        print(f"{k:>22}: {v}")
    print(f"{'t_s':>6} {'rss_mb':>8} {'fds':>6} {'tcp_inuse':>10} {'tcp_mem_mb':>11}")
    for s in samples:
        print(f"{s.get('t_s', ''):>6} {s.get('rss_mb', ''):>8} {s.get('fds', ''):>6} {s.get('tcp_inuse', ''):>10} {s.get('tcp_mem_mb', ''):>11}")
    if census_lines:
        print("server census:")
        print("\n".join(census_lines))


if __name__ == "__main__":
    main()
