"""Issue 16, finding 5: a per-client creation rate, a cap on matches in memory, idle matches unloaded.

Through the real server: a client over its creation rate gets a 429 JSON
(with Retry-After) and creates nothing, while another address still can; the
server holds at most ``max_matches`` matches, unloading idle ones (least
recently used first) and answering 503 when every match is busy; an idle
match is unloaded after ``idle_seconds`` and comes back from the database,
exactly, when opened; bad limits are refused at the command line.
"""

from __future__ import annotations

import http.client
import json
import sys
import types

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from boardlab.cli import build_cli
from boardlab.engine import make
from boardlab.web.app import create_app
from boardlab.web.limits import Limits, RateLimiter

from .conftest import auth, canon, create
from .servers import ThreadServer, wait_for

pytestmark = pytest.mark.timeout(120)



def _post_from(port: int, source_ip: str, path: str, body: dict) -> tuple[int, dict, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source_ip, 0))
    try:
        conn.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
        r = conn.getresponse()
        return r.status, json.loads(r.read()), dict(r.getheaders())
    finally:
        conn.close()


def test_creation_rate_is_limited_per_client_address(tmp_path):
    srv = ThreadServer(tmp_path / "d", limits=Limits(create_rate=1, create_burst=3)).start()
    try:
        body = {"game": "toy", "seats": [{"kind": "human"}, {"kind": "human"}]}
        for _ in range(3):
            st, r, _ = _post_from(srv.port, "127.0.0.1", "/api/matches", body)
            assert st == 201, r
        n = len(srv.app.state.store.ids())
        st, r, headers = _post_from(srv.port, "127.0.0.1", "/api/matches", body)
        assert st == 429
        assert "too many new matches" in r["detail"] and "3 at once" in r["detail"] and "1 a minute" in r["detail"]
        assert int({k.lower(): v for k, v in headers.items()}["retry-after"]) >= 1
        assert len(srv.app.state.store.ids()) == n  # nothing was created
        # another client address has its own bucket
        st, r, _ = _post_from(srv.port, "127.0.0.2", "/api/matches", body)
        assert st == 201, r
    finally:
        srv.stop()


def test_token_bucket_refills_at_the_rate():
    rl = RateLimiter(rate_per_minute=6, burst=2)  # one token every 10 s
    assert rl.take("a", now=0.0) == 0 and rl.take("a", now=0.0) == 0
    assert rl.take("a", now=0.0) == pytest.approx(10.0)
    assert rl.take("a", now=5.0) == pytest.approx(5.0)  # half a token saved from the refused try's time
    assert rl.take("a", now=10.0) == 0
    assert rl.take("b", now=10.0) == 0


def _play(c: TestClient, r: dict, moves: int) -> None:
    mid, toks = r["match"]["id"], [s["token"] for s in r["seats"]]
    for _ in range(moves):
        info = c.get(f"/api/matches/{mid}").json()
        seat = info["acting"]
        resp = c.post(f"/api/matches/{mid}/actions", json={"seat": seat, "state_id": info["decisions"], "index": 0}, headers=auth(toks[seat]))
        assert resp.status_code == 200, resp.text


def _views(c: TestClient, r: dict) -> list[str]:
    mid, toks = r["match"]["id"], [s["token"] for s in r["seats"]]
    out = []
    for s in (0, 1):
        snap = c.get(f"/api/matches/{mid}/state", params={"seat": s}, headers=auth(toks[s])).json()
        snap["match"].pop("updated_at")
        out.append(canon(snap))
    return out


def test_matches_in_memory_are_capped_and_unloaded_ones_come_back_exactly(data_dir):
    humans = [{"kind": "human"}, {"kind": "human"}]
    with TestClient(create_app(data_dir=data_dir, bot_delay=0, limits=Limits(max_matches=3))) as c:
        hub = c.app.state.hub
        made = [create(c, "toy", humans, seed=10 + i) for i in range(3)]
        for r in made:
            _play(c, r, 3)
        before = [_views(c, r) for r in made]
        c.get(f"/api/matches/{made[0]['match']['id']}")  # made[0] is now the most recently used
        extra = create(c, "toy", humans, seed=99)
        assert len(hub.matches) == 3
        assert made[1]["match"]["id"] not in hub.matches  # the least recently used idle match went
        assert extra["match"]["id"] in hub.matches and made[0]["match"]["id"] in hub.matches
        # every match answers exactly as before, reloaded from the database when needed, and plays on
        for r, b in zip(made, before):
            assert _views(c, r) == b
            _play(c, r, 2)
        assert len(hub.matches) == 3
        # the reloaded match went on from where it was: its log is the 5 moves, in order
        rec = c.get(f"/api/matches/{made[1]['match']['id']}").json()
        assert rec["decisions"] == 5


def test_busy_matches_are_not_unloaded_and_a_full_server_answers_503(data_dir):
    with TestClient(create_app(data_dir=data_dir, bot_delay=0, limits=Limits(max_matches=2))) as c:
        a = create(c, "toy", [{"kind": "human"}, {"kind": "human"}], seed=1)
        b = create(c, "toy", [{"kind": "human"}, {"kind": "human"}], seed=2)
        with c.websocket_connect(f"/api/matches/{a['match']['id']}/ws") as wa, \
             c.websocket_connect(f"/api/matches/{b['match']['id']}/ws") as wb:
            for ws, r in ((wa, a), (wb, b)):
                ws.send_json({"type": "hello", "seat": 0, "token": r["seats"][0]["token"]})
                assert ws.receive_json()["type"] == "snapshot"
            n = len(c.app.state.store.ids())
            resp = c.post("/api/matches", json={"game": "toy"})
            assert resp.status_code == 503
            assert "maximum of 2" in resp.json()["detail"]
            assert len(c.app.state.store.ids()) == n
        # once nobody watches them, they can be unloaded to make room
        wait_for(lambda: not any(m.listeners for m in c.app.state.hub.matches.values()), 30, "sockets closed", every=0.02)
        assert c.post("/api/matches", json={"game": "toy"}).status_code == 201


def test_idle_matches_are_unloaded_and_reload_on_demand(data_dir):
    with TestClient(create_app(data_dir=data_dir, bot_delay=0, limits=Limits(idle_seconds=0.2))) as c:
        hub = c.app.state.hub
        r = create(c, "toy", [{"kind": "human"}, {"kind": "human"}], seed=4)
        mid = r["match"]["id"]
        _play(c, r, 4)
        before = _views(c, r)
        wait_for(lambda: mid not in hub.matches, 30, "idle match unloaded", every=0.02)
        assert _views(c, r) == before
        _play(c, r, 1)
        assert c.get(f"/api/matches/{mid}").json()["decisions"] == 5


def test_an_unloaded_match_still_held_is_adopted_not_duplicated(data_dir):
    with TestClient(create_app(data_dir=data_dir, bot_delay=0)) as c:
        hub = c.app.state.hub
        r = create(c, "toy", [{"kind": "human"}, {"kind": "human"}], seed=3)
        held = hub.get(r["match"]["id"])  # e.g. a socket that has not said hello yet
        hub.unload(held)
        assert r["match"]["id"] not in hub.matches
        assert hub.get(r["match"]["id"]) is held and not held.unloaded


def test_a_bot_game_left_alone_is_never_unloaded_mid_game(data_dir):
    with TestClient(create_app(data_dir=data_dir, bot_delay=0.05, limits=Limits(idle_seconds=0.05))) as c:
        r = create(c, "toy", [{"kind": "bot", "agent": "random"}] * 2, seed=8)
        mid = r["match"]["id"]
        info = wait_for(lambda: (lambda i: i if i["status"] == "over" else None)(c.get(f"/api/matches/{mid}").json()), 30, "bot game over", every=0.02)
        st = make("toy", players=2).new_state(8)
        for a in c.get(f"/api/matches/{mid}/record").json()["actions"]:
            st.apply(a)
        assert st.is_over() and st.results().to_json() == info["results"]
        assert info["decisions"] >= 5


@pytest.mark.parametrize(
    "args, env, needle",
    [
        (["--create-rate", "0"], {}, "--create-rate"),
        (["--max-matches", "many"], {}, "--max-matches"),
        (["--bot-workers", "0"], {}, "--bot-workers"),
        ([], {"BOARDLAB_IDLE_SECONDS": "soon"}, "BOARDLAB_IDLE_SECONDS"),
        ([], {"BOARDLAB_MAX_MATCHES": "0"}, "BOARDLAB_MAX_MATCHES"),
        ([], {"BOARDLAB_WS_RATE": "inf"}, "BOARDLAB_WS_RATE"),
        ([], {"BOARDLAB_BOT_WORKERS": "100000"}, "BOARDLAB_BOT_WORKERS"),
    ],
)
def test_bad_limits_exit_2_with_one_line(monkeypatch, args, env, needle):
    fake = types.ModuleType("boardlab.web.server")
    fake.run = lambda **kw: None
    monkeypatch.setitem(sys.modules, "boardlab.web.server", fake)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    r = CliRunner().invoke(build_cli(), ["serve", *args])
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and needle in lines[0], r.output


def test_serve_passes_its_limits(monkeypatch):
    calls = []
    fake = types.ModuleType("boardlab.web.server")
    fake.run = lambda **kw: calls.append(kw)
    monkeypatch.setitem(sys.modules, "boardlab.web.server", fake)
    monkeypatch.setenv("BOARDLAB_CREATE_BURST", "7")
    for name in ("BOARDLAB_BOT_MATCHES_PER_CLIENT", "BOARDLAB_WS_RATE", "BOARDLAB_WS_BURST",  # set by conftest
                 "BOARDLAB_READ_RATE", "BOARDLAB_READ_BURST", "BOARDLAB_REBUILD_RATE", "BOARDLAB_REBUILD_BURST"):
        monkeypatch.delenv(name, raising=False)
    r = CliRunner().invoke(build_cli(), ["serve", "--create-rate", "5", "--max-matches", "50", "--idle-seconds", "60",
                                         "--bot-workers", "3", "--bot-move-limit", "4.5"])
    assert r.exit_code == 0, r.output
    assert calls[0]["limits"] == Limits(bot_workers=3, bot_move_limit=4.5, create_rate=5, create_burst=7,
                                        max_matches=50, idle_seconds=60)


def test_serve_passes_forwarded_allow_ips_only_when_given(monkeypatch):
    calls = []
    fake = types.ModuleType("boardlab.web.server")
    fake.run = lambda **kw: calls.append(kw)
    monkeypatch.setitem(sys.modules, "boardlab.web.server", fake)
    assert CliRunner().invoke(build_cli(), ["serve"]).exit_code == 0
    assert "forwarded_allow_ips" not in calls[-1]  # believed from no address
    r = CliRunner().invoke(build_cli(), ["serve", "--forwarded-allow-ips", "10.0.0.5", "--max-connections", "500"])
    assert r.exit_code == 0, r.output
    assert calls[-1]["forwarded_allow_ips"] == "10.0.0.5" and calls[-1]["limits"].max_connections == 500
    r = CliRunner().invoke(build_cli(), ["serve", "--forwarded-allow-ips", " "])
    assert r.exit_code == 2 and "--forwarded-allow-ips" in r.output
