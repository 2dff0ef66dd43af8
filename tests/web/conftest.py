"""Fixtures for the web tests: an app on a temporary data dir, test games, helpers."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from fastapi.testclient import TestClient

from boardlab.web.app import create_app

from .devserver import register_test_games

register_test_games()

# These tests create many matches from one client address; the creation-rate
# limit is tested on its own with explicit limits (test_limits.py).
os.environ.setdefault("BOARDLAB_CREATE_RATE", "1000000")
os.environ.setdefault("BOARDLAB_CREATE_BURST", "1000000")
# ... and many all-bot matches (the per-client budget is tested in test_hostile.py).
os.environ.setdefault("BOARDLAB_BOT_MATCHES_PER_CLIENT", "1000000")
# ... and the WebSocket tests that ask for a fresh snapshot after every move send faster than a page.
os.environ.setdefault("BOARDLAB_WS_RATE", "1000000")
os.environ.setdefault("BOARDLAB_WS_BURST", "1000000")
# ... and the leak and API tests read a snapshot after every move of whole games (the heavy-read and
# rebuild rates are tested on their own, with explicit limits, in test_hostile_45.py).
os.environ.setdefault("BOARDLAB_READ_RATE", "1000000")
os.environ.setdefault("BOARDLAB_READ_BURST", "1000000")
os.environ.setdefault("BOARDLAB_REBUILD_RATE", "1000000")
os.environ.setdefault("BOARDLAB_REBUILD_BURST", "1000000")


@pytest.fixture
def data_dir(tmp_path):
    return tmp_path / "data"


@pytest.fixture
def client(data_dir):
    app = create_app(data_dir=data_dir, bot_delay=0)
    with TestClient(app) as c:
        yield c


def create(client: TestClient, game: str = "toy", seats: list[dict] | None = None, **kw: Any) -> dict:
    body: dict[str, Any] = {"game": game, **kw}
    if seats is not None:
        body["seats"] = seats
    r = client.post("/api/matches", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def canon(x: Any) -> str:
    return json.dumps(x, sort_keys=True)
