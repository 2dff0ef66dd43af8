"""The JSON API: create and join, play through HTTP and WebSocket, reject bad input."""

from __future__ import annotations

import json

import pytest

from boardlab.engine import make
from boardlab.engine.registry import BUILTIN
from boardlab.web.push import apply_update

from .conftest import auth, canon, create

pytestmark = pytest.mark.timeout(60)  # every wait in these tests is bounded

HUMANS2 = [{"kind": "human"}, {"kind": "human"}]


def _state(client, mid, seat=None, token=None):
    params = {} if seat is None else {"seat": seat}
    r = client.get(f"/api/matches/{mid}/state", params=params, headers=auth(token))
    assert r.status_code == 200, r.text
    return r.json()


def test_games_list_has_descriptions_agents_and_rules(client):
    games = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert {"toy", "gridtest"} <= set(games)
    toy = games["toy"]
    assert toy["summary"] == toy["description"]  # no rules document: falls back to Game.description
    assert "random" in toy["agents"] and [v["name"] for v in toy["variants"]] == ["standard", "short"]
    assert client.get("/api/games/nope").status_code == 404
    rules = client.get("/api/games/toy/rules").json()
    assert rules["markdown"] is None and "Toy race" in rules["html"]
    page = client.get("/rules/toy")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]


def test_rules_summary_is_first_paragraph_of_the_rules_doc(client):
    from boardlab.engine.registry import game_class
    from boardlab.web import rules

    cls = game_class("dungeons-jewel")
    path = rules.rules_path(cls)
    if path is None:
        pytest.skip("no rules document yet")
    text = path.read_text()
    first = rules.summary(cls)
    assert first and "#" not in first
    assert first.split()[0] in text
    games = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert games["dungeons-jewel"]["summary"] == first
    assert "<h2" in client.get("/api/games/dungeons-jewel/rules").json()["html"]


def test_create_gives_secret_links_and_hides_secrets(client, data_dir):
    r = create(client, "toy", HUMANS2 + [{"kind": "bot", "agent": "random", "name": "Robo"}], players=3, seed=11)
    seats = r["seats"]
    assert [s["kind"] for s in seats] == ["human", "human", "bot"]
    assert seats[2]["name"] == "Robo" and seats[2]["token"] is None and seats[2]["link"] is None
    for s in seats[:2]:
        assert len(s["token"]) >= 24 and s["link"].endswith(f"#seat={s['seat']}&token={s['token']}")
    assert r["spectator_link"] == f"/game/{r['match']['id']}"
    # tokens are stored hashed: they never appear in the database file
    raw = b"".join(p.read_bytes() for p in data_dir.iterdir())
    for s in seats[:2]:
        assert s["token"].encode() not in raw
    assert r["host_token"].encode() not in raw
    # public info carries no seed and no token
    info = client.get(f"/api/matches/{r['match']['id']}").json()
    assert "seed" not in info and "token" not in json.dumps(info)
    listed = client.get("/api/matches").json()["matches"]
    assert listed[0]["id"] == r["match"]["id"] and "seed" not in listed[0]


def test_default_seats_human_then_bots(client):
    r = create(client, "toy", players=3)
    assert [s["kind"] for s in r["seats"]] == ["human", "bot", "bot"]


def test_complete_game_over_http_matches_the_engine(client):
    r = create(client, "toy", HUMANS2, seed=5)
    mid, toks = r["match"]["id"], [s["token"] for s in r["seats"]]
    local = make("toy", players=2).new_state(5)
    while True:
        acting = local.current_seat()
        snap = _state(client, mid, acting if acting is not None else 0, toks[acting or 0])
        assert snap["state_id"] == local.decisions
        if local.is_over():
            assert snap["over"] and snap["results"] == local.results().to_json()
            break
        assert snap["acting"] == acting
        assert [a["label"] for a in snap["actions"]] == [local.describe(a) for a in local.legal_actions()]
        choice = local.decisions % len(snap["actions"])
        body = {"seat": acting, "state_id": snap["state_id"], "action": snap["actions"][choice]["action"]}
        res = client.post(f"/api/matches/{mid}/actions", json=body, headers=auth(toks[acting]))
        assert res.status_code == 200, res.text
        local.apply(local.legal_actions()[choice])
        assert res.json()["state_id"] == local.decisions
    rec = client.get(f"/api/matches/{mid}/record").json()
    assert rec["seed"] == 5 and len(rec["actions"]) == local.decisions
    assert client.get("/api/matches").json()["matches"][0]["status"] == "over"


def test_complete_game_over_websocket_with_a_bot(client):
    r = create(client, "toy", [{"kind": "human"}, {"kind": "bot", "agent": "random"}], seed=9, variant="short")
    mid, tok = r["match"]["id"], r["seats"][0]["token"]
    with client.websocket_connect(f"/api/matches/{mid}/ws") as ws:
        ws.send_json({"type": "hello", "seat": 0, "token": tok})
        snap = ws.receive_json()
        assert snap["type"] == "snapshot" and snap["seat"] == 0
        seen_bot = False
        for _ in range(200):
            if snap["over"]:
                break
            if snap["acting"] == 0:
                ws.send_json({"type": "act", "state_id": snap["state_id"], "index": len(snap["actions"]) - 1})
            msg = ws.receive_json()
            assert msg["type"] == "update" and msg["from"] == snap["state_id"], msg  # after the first snapshot
            snap = apply_update(snap, msg)
            if snap["acting"] == 0 and snap["state_id"] > 0:
                seen_bot = True
        assert snap["over"] and seen_bot
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
    assert client.get(f"/api/matches/{mid}").json()["status"] == "over"


def test_spectator_needs_no_token_and_sees_public_view(client):
    r = create(client, "toy", HUMANS2, seed=3)
    snap = _state(client, r["match"]["id"])
    assert snap["seat"] is None and snap["actions"] == []
    assert snap["view"]["state"]["hand"] is None
    local = make("toy", players=2).new_state(3)
    assert canon(snap["view"]) == canon(local.view(None))


def test_host_token_acts_for_human_seats_only(client):
    r = create(client, "toy", [{"kind": "human"}, {"kind": "bot"}], seed=4)
    mid, host = r["match"]["id"], r["host_token"]
    assert _state(client, mid, 0, host)["seat"] == 0
    assert client.get(f"/api/matches/{mid}/state", params={"seat": 1}, headers=auth(host)).status_code == 403


# -- bad input: every case answers 4xx JSON and changes nothing -------------------

def _bad_cases(mid, toks, state_id):
    return [
        # (method, path, json body, headers, expected status)
        ("post", f"/api/matches/{mid}/actions", {"seat": 1, "state_id": state_id, "index": 0}, auth(toks[1]), 409),  # out of turn
        ("post", f"/api/matches/{mid}/actions", {"seat": 0, "state_id": state_id, "index": 0}, auth(toks[1]), 403),  # for another seat
        ("post", f"/api/matches/{mid}/actions", {"seat": 0, "state_id": state_id, "index": 0}, auth("forged" * 5), 403),
        ("post", f"/api/matches/{mid}/actions", {"seat": 0, "state_id": state_id, "index": 0}, {}, 401),  # missing secret
        ("post", f"/api/matches/{mid}/actions", {"seat": 0, "state_id": state_id + 1, "index": 0}, auth(toks[0]), 409),  # stale
        ("post", f"/api/matches/{mid}/actions", {"seat": 0, "state_id": state_id - 1, "index": 0}, auth(toks[0]), 409),
        ("post", f"/api/matches/{mid}/actions", {"seat": 0, "state_id": state_id, "action": ["play", 99]}, auth(toks[0]), 400),
        ("post", f"/api/matches/{mid}/actions", {"seat": 0, "state_id": state_id, "action": ["fly"]}, auth(toks[0]), 400),
        ("post", f"/api/matches/{mid}/actions", {"seat": 0, "state_id": state_id, "index": 99}, auth(toks[0]), 400),
        ("post", f"/api/matches/{mid}/actions", {"seat": 0, "state_id": state_id}, auth(toks[0]), 400),
        ("post", f"/api/matches/{mid}/actions", {"seat": 0, "state_id": state_id, "action": "roll"}, auth(toks[0]), 422),
        ("post", f"/api/matches/{mid}/actions", {"seat": 7, "state_id": state_id, "index": 0}, auth(toks[0]), 400),
        ("post", f"/api/matches/{mid}/actions", {"seat": 0, "state_id": "x", "index": 0}, auth(toks[0]), 422),
        ("post", f"/api/matches/{mid}/actions", {"seat": 0, "state_id": state_id, "index": 0, "extra": 1}, auth(toks[0]), 422),
        ("post", f"/api/matches/{mid}/actions", [1, 2], auth(toks[0]), 422),
        ("post", "/api/matches/nope/actions", {"seat": 0, "state_id": 0, "index": 0}, auth(toks[0]), 404),
        ("get", f"/api/matches/{mid}/state?seat=1", None, auth(toks[0]), 403),  # another seat's view
        ("get", f"/api/matches/{mid}/state?seat=0", None, {}, 401),
        ("get", f"/api/matches/{mid}/state?seat=0", None, auth("x"), 403),
        ("get", f"/api/matches/{mid}/state?seat=abc", None, auth(toks[0]), 422),
        ("get", "/api/matches/../../etc/passwd", None, {}, 404),
        ("get", f"/api/matches/{mid}/record", None, {}, 409),  # seed hidden until the end
        ("get", f"/api/matches/{mid}/replay?step=0", None, {}, 409),
        ("post", "/api/matches", {"game": "nope"}, {}, 400),
        ("post", "/api/matches", {"game": "toy", "variant": "nope"}, {}, 400),
        ("post", "/api/matches", {"game": "toy", "options": {"nope": 1}}, {}, 400),
        ("post", "/api/matches", {"game": "toy", "options": {"target": "high"}}, {}, 400),
        ("post", "/api/matches", {"game": "toy", "options": {"target": 1000}}, {}, 400),
        ("post", "/api/matches", {"game": "toy", "players": 9}, {}, 400),
        ("post", "/api/matches", {"game": "toy", "players": 2, "seats": [{"kind": "human"}]}, {}, 400),
        ("post", "/api/matches", {"game": "toy", "seats": [{"kind": "bot", "agent": "nope"}, {"kind": "human"}]}, {}, 400),
        ("post", "/api/matches", {"game": "toy", "seats": [{"kind": "bot", "agent": "random:x=1"}, {"kind": "human"}]}, {}, 400),
        ("post", "/api/matches", {"game": "toy", "seats": [{"kind": "alien"}, {"kind": "human"}]}, {}, 422),
        ("post", "/api/matches", {"game": "toy", "seed": -1}, {}, 422),
        ("post", "/api/matches", {}, {}, 422),
    ]


def test_every_bad_input_is_a_json_4xx_and_changes_nothing(client):
    r = create(client, "toy", HUMANS2, seed=21)
    mid, toks = r["match"]["id"], [s["token"] for s in r["seats"]]
    # take one step so that stale ids in both directions exist
    s0 = _state(client, mid, 0, toks[0])
    client.post(f"/api/matches/{mid}/actions", json={"seat": 0, "state_id": 0, "index": 0}, headers=auth(toks[0]))
    s1 = _state(client, mid, 1, toks[1])
    client.post(f"/api/matches/{mid}/actions", json={"seat": 1, "state_id": 1, "index": 0}, headers=auth(toks[1]))
    assert s0["state_id"] == 0 and s1["state_id"] == 1
    before = canon(_state(client, mid, 0, toks[0]))
    n_matches = len(client.get("/api/matches").json()["matches"])
    for method, path, body, headers, status in _bad_cases(mid, toks, 2):
        res = getattr(client, method)(path, json=body, headers=headers) if method == "post" else client.get(path, headers=headers)
        assert res.status_code == status, (path, body, res.status_code, res.text)
        detail = res.json()["detail"]
        assert isinstance(detail, str) and detail, (path, body)
    assert canon(_state(client, mid, 0, toks[0])) == before
    assert len(client.get("/api/matches").json()["matches"]) == n_matches


def test_malformed_and_oversized_bodies(client):
    r = create(client, "toy", HUMANS2, seed=2)
    mid, tok = r["match"]["id"], r["seats"][0]["token"]
    url = f"/api/matches/{mid}/actions"
    hdr = {**auth(tok), "Content-Type": "application/json"}
    for raw in (b"{", b"not json", b"", b'{"seat": 0, "state_id": 0, "index": 0', b"\xff\xfe"):
        res = client.post(url, content=raw, headers=hdr)
        assert res.status_code == 422, (raw, res.text)
        assert isinstance(res.json()["detail"], str)
    big = json.dumps({"seat": 0, "state_id": 0, "action": ["x" * 100_000]}).encode()
    res = client.post(url, content=big, headers=hdr)
    assert res.status_code == 413 and "detail" in res.json()

    def chunks():
        for _ in range(40):
            yield b" " * 4096

    res = client.post(url, content=chunks(), headers=hdr)  # no content-length: counted while streaming
    assert res.status_code == 413
    assert _state(client, mid, 0, tok)["state_id"] == 0


def test_websocket_rejects_bad_messages(client):
    r = create(client, "toy", HUMANS2, seed=8)
    mid, toks = r["match"]["id"], [s["token"] for s in r["seats"]]
    with client.websocket_connect(f"/api/matches/{mid}/ws") as ws:
        ws.send_text("{nope")
        assert ws.receive_json()["status"] == 400
        ws.send_text("[1]")
        assert ws.receive_json()["status"] == 400
        ws.send_json({"type": "act", "state_id": 0, "index": 0})
        assert ws.receive_json()["status"] == 401  # no hello
        ws.send_json({"type": "hello", "seat": 0, "token": toks[1]})
        assert ws.receive_json()["status"] == 403
        ws.send_json({"type": "hello", "seat": 0, "token": None})
        assert ws.receive_json()["status"] == 401
        ws.send_json({"type": "hello", "seat": "0", "token": toks[0]})
        assert ws.receive_json()["status"] == 400
        ws.send_text(json.dumps({"type": "ping", "pad": "x" * 70_000}))
        assert ws.receive_json()["status"] == 413
        ws.send_json({"type": "hello", "seat": 1, "token": toks[1]})
        assert ws.receive_json()["seat"] == 1
        ws.send_json({"type": "act", "state_id": 0, "index": 0})  # seat 1 out of turn
        assert ws.receive_json()["status"] == 409
        ws.send_json({"type": "shout"})
        assert ws.receive_json()["status"] == 400
    with client.websocket_connect("/api/matches/nope/ws") as ws:
        assert ws.receive_json()["status"] == 404


def test_replay_steps_and_points_of_view(client):
    r = create(client, "toy", [{"kind": "bot", "agent": "random"}, {"kind": "bot", "agent": "random"}], seed=12, variant="short")
    mid = r["match"]["id"]
    for _ in range(200):
        if client.get(f"/api/matches/{mid}").json()["status"] == "over":
            break
        import time

        time.sleep(0.01)
    rec = client.get(f"/api/matches/{mid}/record").json()
    game = make("toy", players=2, variant="short")
    st = game.new_state(rec["seed"])
    for step in range(len(rec["actions"]) + 1):
        for seat in (None, 0, 1):
            params = {"step": step} if seat is None else {"step": step, "seat": seat}
            fr = client.get(f"/api/matches/{mid}/replay", params=params).json()
            assert fr["step"] == step and fr["steps"] == len(rec["actions"])
            assert canon(fr["view"]) == canon(st.view(seat))
            assert canon(fr["events"]) == canon(st.events(seat))
        if step < len(rec["actions"]):
            st.apply(rec["actions"][step])
    assert client.get(f"/api/matches/{mid}/replay", params={"step": 999}).status_code == 400
    assert client.get(f"/api/matches/{mid}/replay", params={"step": 0, "seat": 5}).status_code == 400


def test_pages_are_served(client):
    for path in ("/", "/game/abc", "/replay/abc", "/static/scene.js", "/static/app.css", "/openapi.json"):
        assert client.get(path).status_code == 200, path
    assert client.get("/rules/nope").status_code == 404


class _BrokenAgent:
    def __init__(self, game, seat, seed=0, **params):
        self.name = "broken"

    def act(self, decision):
        raise RuntimeError("this agent is broken")


def test_a_failing_bot_does_not_stall_the_match(client, monkeypatch):
    import time

    from boardlab import agents

    monkeypatch.setitem(agents.AGENTS, "broken", _BrokenAgent)
    r = create(client, "toy", [{"kind": "bot", "agent": "broken"}, {"kind": "bot", "agent": "random"}], seed=1, variant="short")
    mid = r["match"]["id"]
    for _ in range(300):
        if client.get(f"/api/matches/{mid}").json()["status"] == "over":
            break
        time.sleep(0.01)
    assert client.get(f"/api/matches/{mid}").json()["status"] == "over"


def test_security_headers_and_no_caching_of_views(client):
    r = create(client, "toy", HUMANS2, seed=1)
    res = client.get(f"/api/matches/{r['match']['id']}/state", params={"seat": 0}, headers=auth(r["seats"][0]["token"]))
    assert res.headers["cache-control"] == "no-store"
    assert res.headers["x-content-type-options"] == "nosniff" and res.headers["referrer-policy"] == "no-referrer"
    assert client.get("/").headers["x-frame-options"] == "DENY"


def test_names_typed_in_the_lobby_appear_in_the_scene_actions_and_log(client):
    """Issue 20: names typed in the lobby appeared only in the header chip."""
    m = create(client, "summoners-quest", seats=[{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bob"}], players=2, seed=1)
    toks = [s["token"] for s in m["seats"]]
    mid = m["match"]["id"]
    snap = _state(client, mid, 0, toks[0])
    first = snap["acting"]
    name = ["Ada", "Bob"][first]
    tok = toks[first]
    snap = _state(client, mid, first, tok)
    assert snap["scene"]["status"] == f"{name} to act"
    assert [p["title"] for p in snap["scene"]["panels"][:2]] == ["Ada", "Bob"]
    r = client.post(f"/api/matches/{mid}/actions", json={"seat": first, "index": 0, "state_id": snap["state_id"]}, headers=auth(tok))
    assert r.status_code == 200, r.text
    texts = [e["text"] for e in _state(client, mid, first, tok)["events"]]
    assert any(t.startswith(f"{name} starts at") for t in texts), texts
    assert not any("Player 1" in t or "Player 2" in t for t in texts), texts


@pytest.mark.parametrize("game_id", sorted(BUILTIN))
def test_rules_drawer_puts_the_rules_first_and_developer_notes_under_a_fold_without_paths(client, game_id):
    """Issue 20: the rules drawer opened on developer notes with source file paths."""
    import re

    page = client.get(f"/api/games/{game_id}/rules").json()["html"]
    players, _, fold = page.partition('<details class="dev-notes">')
    assert fold and fold.rstrip().endswith("</details>")
    assert re.search(r"<h2>Rules as implemented", players)
    assert "Interpretation ledger" not in players and "Interpretation ledger" in fold
    assert not re.search(r"\b(?:boardlab|tests|docs)/[\w/.-]*|/work/|::test_", page), re.findall(r"\b(?:boardlab|tests)/[\w/.-]*", page)[:3]
    assert "Code:" not in players
