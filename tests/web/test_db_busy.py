"""A database that stays locked answers 503 JSON, never a 500, and changes nothing."""

from __future__ import annotations

from sqlalchemy.exc import OperationalError

from .conftest import auth, create


def test_a_locked_database_gives_503_and_applies_nothing(client, monkeypatch):
    made = create(client, "toy", seats=[{"kind": "human"}, {"kind": "human"}])
    mid, toks = made["match"]["id"], [s["token"] for s in made["seats"]]
    acting = client.get(f"/api/matches/{mid}/state").json()["acting"]
    tok = toks[acting]

    def state():
        r = client.get(f"/api/matches/{mid}/state", params={"seat": acting}, headers=auth(tok))
        assert r.status_code == 200, r.text
        return r.json()

    snap = state()

    store = client.app.state.store

    def locked(*a, **k):
        raise OperationalError("INSERT ...", {}, Exception("database is locked"))

    monkeypatch.setattr(store, "append_action", locked)
    body = {"seat": acting, "state_id": snap["state_id"], "action": snap["actions"][0]["action"]}
    res = client.post(f"/api/matches/{mid}/actions", json=body, headers=auth(tok))
    assert res.status_code == 503 and res.json()["detail"] == "the database is busy; try again"
    assert res.headers["retry-after"] == "1"
    after = state()
    assert after["state_id"] == snap["state_id"] and after["view"] == snap["view"]
    monkeypatch.undo()
    res = client.post(f"/api/matches/{mid}/actions", json=body, headers=auth(tok))
    assert res.status_code == 200, res.text
