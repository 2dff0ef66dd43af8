"""Issue 16, finding 4: REST and WebSocket share one strict move model; loose types get a 422 naming the field."""

from __future__ import annotations

import pytest

from .conftest import auth, create

pytestmark = pytest.mark.timeout(60)

HUMANS2 = [{"kind": "human"}, {"kind": "human"}]

LOOSE = [
    ("index", True), ("index", "0"), ("index", 0.0),
    ("seat", True), ("seat", "0"), ("seat", 0.0),
    ("state_id", "0"), ("state_id", 0.0), ("state_id", False),
]


def _state_id(client, mid, tok):
    r = client.get(f"/api/matches/{mid}/state", params={"seat": 0}, headers=auth(tok))
    assert r.status_code == 200, r.text
    return r.json()["state_id"]


@pytest.mark.parametrize("field,value", LOOSE)
def test_rest_move_rejects_loose_types_and_changes_nothing(client, field, value):
    r = create(client, "toy", HUMANS2, seed=1)
    mid, tok = r["match"]["id"], r["seats"][0]["token"]
    sid = _state_id(client, mid, tok)
    body = {"seat": 0, "state_id": sid, "index": 0, field: value}
    res = client.post(f"/api/matches/{mid}/actions", json=body, headers=auth(tok))
    assert res.status_code == 422, res.text
    assert field in res.json()["detail"]
    assert _state_id(client, mid, tok) == sid  # nothing applied
    ok = client.post(f"/api/matches/{mid}/actions", json={"seat": 0, "state_id": sid, "index": 0}, headers=auth(tok))
    assert ok.status_code == 200, ok.text  # the same move, well typed, is accepted


@pytest.mark.parametrize("field,value", [(f, v) for f, v in LOOSE if f != "seat"])
def test_websocket_move_rejects_the_same_loose_types_with_422(client, field, value):
    r = create(client, "toy", HUMANS2, seed=1)
    mid, tok = r["match"]["id"], r["seats"][0]["token"]
    with client.websocket_connect(f"/api/matches/{mid}/ws") as ws:
        ws.send_json({"type": "hello", "seat": 0, "token": tok})
        snap = ws.receive_json()
        msg = {"type": "act", "state_id": snap["state_id"], "index": 0, field: value}
        ws.send_json(msg)
        err = ws.receive_json()
        assert err["type"] == "error" and err["status"] == 422 and field in err["detail"], err
