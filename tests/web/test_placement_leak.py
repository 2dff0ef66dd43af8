"""Issue 16 finding 6, through the real server: the wizard's placement prompt names the tokens left only to him."""

from __future__ import annotations

import pytest

from .conftest import auth, create

pytestmark = pytest.mark.timeout(120)


def test_heroes_and_spectators_learn_how_many_tokens_remain_not_which(client):
    r = create(client, "wizards-labyrinth", [{"kind": "human"}] * 3, players=3, seed=11)
    mid, toks = r["match"]["id"], [s["token"] for s in r["seats"]]
    seen = 0
    for _ in range(400):
        snap = client.get(f"/api/matches/{mid}/state", params={"seat": 0}, headers=auth(toks[0])).json()
        if snap["over"]:
            break
        prompt = snap["view"]["state"]["prompt"]
        if prompt and prompt["kind"] == "place":
            assert "tokens" in prompt and prompt["tokens_left"] == len(prompt["tokens"])
            for seat in (1, 2, None):
                params, headers = ({}, {}) if seat is None else ({"seat": seat}, auth(toks[seat]))
                other = client.get(f"/api/matches/{mid}/state", params=params, headers=headers).json()
                p = other["view"]["state"]["prompt"]
                assert "tokens" not in p and p["tokens_left"] == len(prompt["tokens"])
            with client.websocket_connect(f"/api/matches/{mid}/ws") as ws:
                ws.send_json({"type": "hello", "seat": 1, "token": toks[1]})
                p = ws.receive_json()["view"]["state"]["prompt"]
                assert "tokens" not in p and p["tokens_left"] == len(prompt["tokens"])
            seen += 1
            if seen >= 3:
                break
        acting = snap["acting"]
        if acting != 0:
            snap = client.get(f"/api/matches/{mid}/state", params={"seat": acting}, headers=auth(toks[acting])).json()
        body = {"seat": acting, "state_id": snap["state_id"], "index": 0}
        assert client.post(f"/api/matches/{mid}/actions", json=body, headers=auth(toks[acting])).status_code == 200
    assert seen >= 1
