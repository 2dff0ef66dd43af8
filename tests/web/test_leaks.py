"""Every payload a seat receives holds exactly what that seat may know.

Whole games are played through the API (HTTP and WebSocket, with and without
bots); each snapshot sent to a seat is compared with what the engine gives
that seat at that state: ``state.view(seat)``, ``state.events(seat)``, the
scene of that view, and the legal actions only when the seat is acting.
Spectator payloads must equal the spectator view.
"""

from __future__ import annotations

import random

import pytest

from boardlab.engine import make
from boardlab.web.push import apply_update

from .conftest import auth, canon, create

pytestmark = pytest.mark.timeout(120)  # every wait in these tests is bounded

SNAPSHOT_KEYS = {"type", "match", "seat", "state_id", "acting", "over", "results", "view", "scene", "actions", "events"}
MATCH_KEYS = {"id", "game", "game_name", "variant", "players", "options", "seats", "status", "acting",
              "decisions", "results", "created_at", "updated_at"}


def check_payload(payload, state, seat):
    """``payload`` (sent to ``seat``) must equal what the engine lets ``seat`` know in ``state``."""
    assert set(payload) == SNAPSHOT_KEYS, set(payload) ^ SNAPSHOT_KEYS
    assert set(payload["match"]) == MATCH_KEYS
    for s in payload["match"]["seats"]:
        assert set(s) == {"seat", "kind", "name", "agent"}
    assert payload["seat"] == seat and payload["state_id"] == state.decisions
    view = state.view(seat)
    acting = state.current_seat()
    mine = seat is not None and seat == acting
    assert canon(payload["view"]) == canon(view)
    assert canon(payload["events"]) == canon(state.events(seat))
    assert canon(payload["scene"]) == canon(state.game.scene(view, state.legal_actions() if mine else ()))
    assert canon(payload["actions"]) == canon(state.labeled_actions() if mine else [])
    assert payload["acting"] == acting and payload["over"] == state.is_over()


class Follower:
    """A page's copy of its snapshot: the first ``snapshot``, then every ``update`` applied to it.

    This is the payload leak checker's view of the WebSocket: what a page holds
    after each message must equal the full snapshot the engine allows its seat.
    """

    def __init__(self) -> None:
        self.snap: dict | None = None
        self.updates = 0

    def feed(self, msg: dict) -> dict:
        if msg["type"] == "snapshot":
            self.snap = msg
        else:
            assert msg["type"] == "update", msg
            assert set(msg) in ({"type", "seat", "from", "state_id", "patch", "events_new"},
                                {"type", "seat", "from", "state_id", "patch", "events"}), set(msg)
            assert self.snap is not None, "an update before the first snapshot"
            self.snap = apply_update(self.snap, msg)
            self.updates += 1
        return self.snap


@pytest.mark.parametrize("game_id,players,turns", [("toy", 3, 40), ("gridtest", 3, 40), ("dungeons-jewel", 3, 20)])
def test_all_human_game_every_payload(client, game_id, players, turns):
    """All seats human, played by the test over HTTP; WebSocket listeners for every seat and a spectator."""
    seed = 1234
    r = create(client, game_id, [{"kind": "human"}] * players, players=players, seed=seed, options={"max_turns": turns})
    mid, toks = r["match"]["id"], [s["token"] for s in r["seats"]]
    variant = r["match"]["variant"]
    rng = random.Random(seed)
    local = make(game_id, players=players, variant=variant, options={"max_turns": turns}).new_state(seed)
    states = [local.clone()]
    sockets = []
    try:
        for seat in [None, *range(players)]:
            ws = client.websocket_connect(f"/api/matches/{mid}/ws").__enter__()
            ws.send_json({"type": "hello", "seat": seat, "token": toks[seat] if seat is not None else None})
            sockets.append((seat, ws))
        while not local.is_over():
            acting = local.current_seat()
            for seat in [None, *range(players)]:
                params = {} if seat is None else {"seat": seat}
                snap = client.get(f"/api/matches/{mid}/state", params=params, headers=auth(toks[seat] if seat is not None else None)).json()
                check_payload(snap, local, seat)
            i = rng.randrange(len(local.legal_actions()))
            res = client.post(f"/api/matches/{mid}/actions", json={"seat": acting, "state_id": local.decisions, "index": i},
                              headers=auth(toks[acting]))
            assert res.status_code == 200, res.text
            local.apply(local.legal_actions()[i])
            states.append(local.clone())
            check_payload(res.json(), local, acting)
        for seat, ws in sockets:
            page = Follower()
            for st in states:  # one snapshot on hello, then one update per action, in order
                check_payload(page.feed(ws.receive_json()), st, seat)
            assert page.updates == len(states) - 1
    finally:
        for _, ws in sockets:
            ws.__exit__(None, None, None)


@pytest.mark.parametrize("game_id,players,agent", [("toy", 4, "random"), ("gridtest", 2, "random"), ("dungeons-jewel", 4, "heuristic")])
def test_game_with_bots_every_websocket_message(client, game_id, players, agent):
    """One human (acting over the WebSocket) against server-side bots; a spectator watches."""
    seed = 77
    seats = [{"kind": "human"}] + [{"kind": "bot", "agent": agent}] * (players - 1)
    r = create(client, game_id, seats, players=players, seed=seed, options={"max_turns": 60})
    mid, tok = r["match"]["id"], r["seats"][0]["token"]
    rng = random.Random(seed)
    got: dict = {0: [], None: []}
    pages = {0: Follower(), None: Follower()}
    with client.websocket_connect(f"/api/matches/{mid}/ws") as spec, client.websocket_connect(f"/api/matches/{mid}/ws") as me:
        spec.send_json({"type": "hello", "seat": None, "token": None})
        me.send_json({"type": "hello", "seat": 0, "token": tok})
        snap = pages[0].feed(me.receive_json())
        assert snap["type"] == "snapshot"
        got[0].append(snap)
        for _ in range(5000):
            if snap["over"]:
                break
            if snap["acting"] == 0:
                me.send_json({"type": "act", "state_id": snap["state_id"], "index": rng.randrange(len(snap["actions"]))})
            snap = pages[0].feed(me.receive_json())
            got[0].append(snap)
        assert snap["over"]
        rec = client.get(f"/api/matches/{mid}/record").json()
        while not got[None] or got[None][-1]["state_id"] < len(rec["actions"]):
            got[None].append(pages[None].feed(spec.receive_json()))
    game = make(game_id, players=players, variant=r["match"]["variant"], options={"max_turns": 60})
    st = game.new_state(seed)
    states = [st.clone()]
    for a in rec["actions"]:
        st.apply(a)
        states.append(st.clone())
    for seat, msgs in got.items():
        # bots may move before a page says hello; from then on every state arrives, in order
        first = msgs[0]["state_id"]
        assert [m["state_id"] for m in msgs] == list(range(first, len(states)))
        for m in msgs:
            check_payload(m, states[m["state_id"]], seat)
