"""A WebSocket page that never reads does not slow a match, and is dropped (issue 16, finding 3).

A real uvicorn on loopback: a bot game runs while a spectator socket asks for
snapshot after snapshot and never reads one.  The game must reach its end
(seen by a second, well-behaved spectator) and the bad reader must be closed
with code 4008 once its bounded send queue fills.
"""

from __future__ import annotations

import json
import logging

import pytest
from websockets.sync.client import connect

from boardlab.web.push import CLOSE_SLOW, apply_update

from .rawws import RawWebSocket
from .servers import ThreadServer, call

pytestmark = pytest.mark.timeout(180)  # every wait below is bounded


@pytest.fixture
def server(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARDLAB_SEND_QUEUE", "8")
    # this test is about the send queue: the per-socket message rate (test_hostile.py) is lifted
    monkeypatch.setenv("BOARDLAB_WS_RATE", "1000000")
    monkeypatch.setenv("BOARDLAB_WS_BURST", "1000000")
    srv = ThreadServer(tmp_path / "data", bot_delay=0).start()
    yield srv
    srv.stop()


def test_a_socket_that_never_reads_does_not_stall_a_bot_game_and_is_dropped(server, caplog):
    caplog.set_level(logging.INFO, logger="boardlab.web")
    seats = [{"kind": "bot", "agent": "random"}] * 4
    status, r = call(server.base, "POST", "/api/matches", {"game": "wizards-labyrinth", "seats": seats, "seed": 3})
    assert status == 201, r
    mid = r["match"]["id"]
    ws_path = f"/api/matches/{mid}/ws"
    bad = RawWebSocket(server.port, ws_path, rcvbuf=4096)
    try:
        # Each hello queues a full snapshot (8 KB and more); none is ever read.  2,500 of them
        # ask for over 20 MB: more than the kernel's socket buffers (tcp_wmem max is 4 MB)
        # and the server's transport buffer can hold, so the bounded queue must fill.
        for _ in range(2500):
            bad.send_json({"type": "hello"})
        with connect(f"ws://127.0.0.1:{server.port}{ws_path}", open_timeout=30, max_size=None) as good:
            good.send(json.dumps({"type": "hello"}))
            snap = None
            for _ in range(20_000):
                msg = json.loads(good.recv(timeout=60))
                snap = msg if msg["type"] == "snapshot" else apply_update(snap, msg)
                if snap["over"]:
                    break
            assert snap is not None and snap["over"], "the bot game did not reach its end"
            assert snap["state_id"] > 100
        # the game went on while the bad reader was connected; now it reads: its queue was dropped
        code, texts = bad.read_until_close()
        dropped = any("dropping a WebSocket that does not read" in r.getMessage() for r in caplog.records)
        assert dropped, "the server never dropped the socket that does not read"
        # The close frame waits behind everything already in the kernel's buffers.  On a busy
        # machine this slow reader may not reach it before the closing handshake times out and
        # the server cuts the connection: then the page sees the end of the stream instead.
        assert code == CLOSE_SLOW or (code is None and texts < 2500), (code, texts)
    finally:
        bad.close()
