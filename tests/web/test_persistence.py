"""Persistence: every accepted action is committed; a killed server resumes every game exactly."""

from __future__ import annotations


import pytest
from fastapi.testclient import TestClient

from boardlab.engine import make
from boardlab.web.app import create_app

from .conftest import auth, canon, create
from .servers import SubprocessServer, call, wait_for

pytestmark = pytest.mark.timeout(90)  # every wait in these tests is bounded



def test_sigkill_then_restart_resumes_every_game(tmp_path):
    data = tmp_path / "data"
    srv = SubprocessServer(data, bot_delay=0.15).start()
    try:
        base = srv.base
        # 1) an all-human game: each acknowledged action survives SIGKILL
        st, r = call(base, "POST", "/api/matches", {"game": "toy", "seats": [{"kind": "human"}] * 2, "seed": 31})
        assert st == 201
        mid, toks = r["match"]["id"], [s["token"] for s in r["seats"]]
        local = make("toy", players=2).new_state(31)
        for _ in range(5):
            seat = local.current_seat()
            st, snap = call(base, "POST", f"/api/matches/{mid}/actions", {"seat": seat, "state_id": local.decisions, "index": 0}, toks[seat])
            assert st == 200, snap
            local.apply(local.legal_actions()[0])
        before = {seat: call(base, "GET", f"/api/matches/{mid}/state?seat={seat}", token=toks[seat])[1] for seat in (0, 1)}
        # 2) a bots-only game, killed while the bots play
        st, rb = call(base, "POST", "/api/matches", {"game": "gridtest", "seats": [{"kind": "bot", "agent": "random"}] * 2, "seed": 5})
        bid = rb["match"]["id"]
        wait_for(lambda: call(base, "GET", f"/api/matches/{bid}")[1]["decisions"] >= 2, 20, "two bot moves")
        # 3) one more human action, acknowledged, then SIGKILL straight away
        seat = local.current_seat()
        st, _ = call(base, "POST", f"/api/matches/{mid}/actions", {"seat": seat, "state_id": local.decisions, "index": 1}, toks[seat])
        assert st == 200
        local.apply(local.legal_actions()[1])
        srv.kill()

        srv = SubprocessServer(data, bot_delay=0.0).start()
        base = srv.base
        for seat in (0, 1):
            st, snap = call(base, "GET", f"/api/matches/{mid}/state?seat={seat}", token=toks[seat])
            assert st == 200
            assert snap["state_id"] == local.decisions == before[seat]["state_id"] + 1
            assert canon(snap["view"]) == canon(local.view(seat))
            assert canon(snap["events"]) == canon(local.events(seat))
        # the old tokens still work and the game goes on
        seat = local.current_seat()
        st, snap = call(base, "POST", f"/api/matches/{mid}/actions", {"seat": seat, "state_id": local.decisions, "index": 0}, toks[seat])
        assert st == 200 and snap["state_id"] == local.decisions + 1
        # the bots picked up where they were and finish their game
        info = wait_for(lambda: (lambda i: i if i["status"] == "over" else None)(call(base, "GET", f"/api/matches/{bid}")[1]), 20, "game over")
        st, rec = call(base, "GET", f"/api/matches/{bid}/record")
        g = make("gridtest", players=2).new_state(5)
        for a in rec["actions"]:
            g.apply(a)
        assert g.is_over() and g.results().to_json() == info["results"] == rec["results"]
    finally:
        srv.kill()


def test_restart_in_process_rebuilds_exactly(tmp_path):
    data = tmp_path / "d"
    with TestClient(create_app(data_dir=data, bot_delay=0)) as c:
        r = create(c, "gridtest", [{"kind": "human"}, {"kind": "human"}], seed=3)
        mid, toks = r["match"]["id"], [s["token"] for s in r["seats"]]
        for i in range(6):
            seat = i % 2
            assert c.post(f"/api/matches/{mid}/actions", json={"seat": seat, "state_id": i, "index": 0}, headers=auth(toks[seat])).status_code == 200
        snaps = [c.get(f"/api/matches/{mid}/state", params={"seat": s}, headers=auth(toks[s])).json() for s in (0, 1)]
    with TestClient(create_app(data_dir=data, bot_delay=0)) as c:
        again = [c.get(f"/api/matches/{mid}/state", params={"seat": s}, headers=auth(toks[s])).json() for s in (0, 1)]
        for a, b in zip(snaps, again):
            a["match"].pop("updated_at"), b["match"].pop("updated_at")
            assert canon(a) == canon(b)


def test_database_url_env_var_is_used(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'elsewhere.db'}"
    monkeypatch.setenv("BOARDLAB_DATABASE_URL", url)
    app = create_app(data_dir=tmp_path / "unused", bot_delay=0)
    assert app.state.store.url == url
    with TestClient(app) as c:
        create(c, "toy")
    assert (tmp_path / "elsewhere.db").exists()
