"""Issue 16, finding 7: every lobby bot of every game can be created over HTTP (was a 500 for mcts/ismcts)."""

from __future__ import annotations

import pytest

from boardlab.engine import make

pytestmark = pytest.mark.timeout(120)


def test_every_lobby_bot_of_every_game_can_be_created_over_http(client):
    failures = []
    for g in client.get("/api/games").json()["games"]:
        n = make(g["id"]).players
        assert g["agents"], g["id"]
        for agent in g["agents"]:
            seats = [{"kind": "human"}] + [{"kind": "bot", "agent": agent}] * (n - 1)
            r = client.post("/api/matches", json={"game": g["id"], "seats": seats})
            if r.status_code != 201:
                failures.append((g["id"], agent, r.status_code, r.text[:200]))
    assert not failures, failures
