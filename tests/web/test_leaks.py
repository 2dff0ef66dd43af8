"""Every payload a seat receives holds exactly what that seat may know.

Whole games are played through the API (HTTP and WebSocket, with and without
bots); each snapshot sent to a seat is compared with what the engine gives
that seat at that state: ``state.view(seat)``, ``state.events(seat)``, the
scene of that view, and the legal actions only when the seat is acting.
Spectator payloads must equal the spectator view.
"""

from __future__ import annotations

import json
import random

import pytest

from boardlab.engine import make
from boardlab.engine.registry import BUILTIN
from boardlab.web.push import apply_update

from .conftest import auth, canon, create

pytestmark = pytest.mark.timeout(120)  # every wait in these tests is bounded

SNAPSHOT_KEYS = {"type", "match", "seat", "state_id", "acting", "over", "results", "view", "scene", "actions", "events"}
MATCH_KEYS = {"id", "game", "game_name", "variant", "players", "options", "seats", "status", "acting",
              "decisions", "results", "created_at", "updated_at",
              # issue 44: the take-back counter and the rematch's id (public to every page of the match);
              # 'undo_request' (who asked, at which decision) and 'clocks' appear only while they exist
              "epoch", "rematch"}
OPTIONAL_MATCH_KEYS = {"undo_request", "clocks"}


def check_payload(payload, state, seat):
    """``payload`` (sent to ``seat``) must equal what the engine lets ``seat`` know in ``state``."""
    assert set(payload) == SNAPSHOT_KEYS, set(payload) ^ SNAPSHOT_KEYS
    assert MATCH_KEYS <= set(payload["match"]) <= MATCH_KEYS | OPTIONAL_MATCH_KEYS
    for s in payload["match"]["seats"]:
        assert set(s) == {"seat", "kind", "name", "agent"}
    assert payload["seat"] == seat and payload["state_id"] == state.decisions
    view = state.view(seat)
    acting = state.current_seat()
    mine = seat is not None and seat == acting
    assert canon(payload["view"]) == canon(view)
    # the log in the order sent (key order kept by JSON): cheaper than sorting keys of a long log
    assert json.dumps(payload["events"]) == json.dumps(state.events(seat))
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


def check_followers(sockets, states):
    """Each socket got one snapshot on hello, then one update per action, in order: all as the engine allows."""
    for seat, ws in sockets:
        page = Follower()
        for st in states:
            check_payload(page.feed(ws.receive_json()), st, seat)
        assert page.updates == len(states) - 1


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
        check_followers(sockets, states)
    finally:
        for _, ws in sockets:
            ws.__exit__(None, None, None)


@pytest.mark.parametrize("game_id,players,agent,options", [
    ("toy", 4, "random", {"max_turns": 60}), ("gridtest", 2, "random", {"max_turns": 60}),
    ("dungeons-jewel", 4, "heuristic", {"max_turns": 60}),
    # every registered built-in game (a new one too), played to its end by server-side bots
    *((game_id, None, "heuristic", {}) for game_id in sorted(BUILTIN)),
])
def test_game_with_bots_every_websocket_message(client, game_id, players, agent, options):
    """One human (acting over the WebSocket) against server-side bots; a spectator watches."""
    seed = 77
    players = players or make(game_id).players
    seats = [{"kind": "human"}] + [{"kind": "bot", "agent": agent}] * (players - 1)
    r = create(client, game_id, seats, players=players, seed=seed, options=options)
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
    game = make(game_id, players=players, variant=r["match"]["variant"], options=options)
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


# every shipped game; seeds whose heuristic games are of ordinary length (a 1,200-decision labyrinth
# game would only make the test slow: every state is checked for every seat)
GAMES = {game_id: {"dungeons-jewel": 5, "wizards-labyrinth": 16}.get(game_id, 2024) for game_id in sorted(BUILTIN)}


@pytest.mark.parametrize("game_id,seed", sorted(GAMES.items()))
def test_payload_leak_checker_full_game_every_seat(client, game_id, seed):
    """The payload leak checker: a full game of each shipped game, every seat's move chosen by the
    game's heuristic bot and sent over HTTP.  Every seat and a spectator listen on WebSockets;
    every REST payload (each move's answer, and at every step one page's ``GET .../state``, the
    pages taking turns, so each is fetched every ``players + 1`` steps) and every WebSocket
    message (the first snapshot, then each update applied to it) must equal what the engine lets
    that seat know at that state."""
    from boardlab.agents import Decision, available_agents, make_agent

    game = make(game_id)
    players = game.players
    r = create(client, game_id, [{"kind": "human"}] * players, seed=seed)
    mid, toks = r["match"]["id"], [s["token"] for s in r["seats"]]
    local = make(game_id, players=players, variant=r["match"]["variant"]).new_state(seed)
    spec = "heuristic" if "heuristic" in available_agents(type(game)) else "random"
    agents = [make_agent(spec, local.game, s, seed + s) for s in range(players)]
    states = [local.clone()]
    sockets = []
    try:
        for seat in [None, *range(players)]:
            ws = client.websocket_connect(f"/api/matches/{mid}/ws").__enter__()
            ws.send_json({"type": "hello", "seat": seat, "token": toks[seat] if seat is not None else None})
            sockets.append((seat, ws))
        for _ in range(5000):
            if local.is_over():
                break
            seat = [None, *range(players)][local.decisions % (players + 1)]
            params = {} if seat is None else {"seat": seat}
            snap = client.get(f"/api/matches/{mid}/state", params=params, headers=auth(toks[seat] if seat is not None else None)).json()
            check_payload(snap, local, seat)
            acting = local.current_seat()
            action = tuple(agents[acting].act(Decision(local.clone(), acting)))
            res = client.post(f"/api/matches/{mid}/actions", json={"seat": acting, "state_id": local.decisions, "action": list(action)},
                              headers=auth(toks[acting]))
            assert res.status_code == 200, res.text
            local.apply(action)
            states.append(local.clone())
            check_payload(res.json(), local, acting)
        assert local.is_over()
        check_followers(sockets, states)
    finally:
        for _, ws in sockets:
            ws.__exit__(None, None, None)
