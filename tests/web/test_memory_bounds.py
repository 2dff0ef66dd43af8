"""What the server holds per match stays bounded however many matches are played (issue 30).

The 10-minute soak's RSS grew with every match played: each finished match stayed in memory for
``idle_seconds`` (300 s) with its whole log, although no page had it open.  Finished matches that
no page has open are now held at most ``Hub.max_finished`` (most recently used first); these tests
count what the hub holds after many matches are created and played to the end.
"""

from __future__ import annotations

import pytest

from boardlab.web.matches import MAX_FINISHED

from .conftest import auth, create

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def _play_to_the_end(client, made: dict) -> None:
    mid = made["match"]["id"]
    tokens = [s["token"] for s in made["seats"]]
    for _ in range(1000):
        info = client.get(f"/api/matches/{mid}").json()
        if info["status"] == "over":
            return
        seat = info["acting"]
        snap = client.get(f"/api/matches/{mid}/state", params={"seat": seat}, headers=auth(tokens[seat])).json()
        r = client.post(f"/api/matches/{mid}/actions", headers=auth(tokens[seat]),
                        json={"seat": seat, "state_id": snap["state_id"], "index": 0})
        assert r.status_code == 200, r.text
    raise AssertionError("the toy match did not end in 1000 decisions")


def _one_finished(client, bound: int):
    """The hub holding at most ``bound`` finished matches, and one match played to its end."""
    hub = client.app.state.hub
    hub.max_finished = bound
    made = create(client, "toy", seats=HUMANS, seed=100, variant="short")
    _play_to_the_end(client, made)
    return hub, made, made["match"]["id"]


def _held(hub) -> dict[str, int]:
    over = [m for m in hub.matches.values() if m.record.status == "over"]
    return {
        "matches": len(hub.matches),
        "finished_unwatched": sum(1 for m in over if not m.listeners),
        "pushed": len(hub.push._sent),
        "replay_states": sum(len(cps) for _n, cps in hub._replays.values()),
    }


def test_finished_matches_nobody_has_open_are_bounded_by_count(client):
    hub = client.app.state.hub
    assert hub.max_finished == MAX_FINISHED
    hub.max_finished = 5
    ids = []
    for i in range(30):
        made = create(client, "toy", seats=HUMANS, seed=i, variant="short")
        _play_to_the_end(client, made)
        ids.append(made["match"]["id"])
        held = _held(hub)
        assert held["finished_unwatched"] <= 5, (i, held)
        assert held["matches"] <= 6, (i, held)  # the five kept, and at most the one being played
        assert held["pushed"] == 0  # no page is open: no copy of any snapshot is kept
    # the five most recently played are the ones kept; the others were unloaded, not lost
    assert set(hub.matches) == set(ids[-5:])
    for mid in ids[:3]:
        assert client.get(f"/api/matches/{mid}/record").status_code == 200
        r = client.get(f"/api/matches/{mid}/replay", params={"step": 1})
        assert r.status_code == 200 and r.json()["step"] == 1
    held = _held(hub)
    assert held["finished_unwatched"] <= 5 and held["matches"] <= 6, held
    assert held["replay_states"] <= 4096


def test_a_finished_match_a_seat_has_open_is_kept_until_that_page_leaves(client):
    hub, watched, wid = _one_finished(client, bound=3)
    with client.websocket_connect(f"/api/matches/{wid}/ws") as ws:
        ws.send_json({"type": "hello", "seat": 0, "token": watched["seats"][0]["token"]})
        assert ws.receive_json()["type"] == "snapshot"
        for i in range(12):  # many more finished matches than the bound while its player looks at it
            _play_to_the_end(client, create(client, "toy", seats=HUMANS, seed=200 + i, variant="short"))
            assert _held(hub)["finished_unwatched"] <= 3
        assert wid in hub.matches  # its player's page was not closed
        ws.send_json({"type": "ping"})
        assert ws.receive_json()["type"] == "pong"
    for _ in range(200):  # the handler ends after the disconnect; the next requests let it run
        if wid not in hub.matches:
            break
        client.get("/api/matches", params={"limit": 1})
    assert wid not in hub.matches  # its last seat's page left: the oldest finished match is let go
    assert _held(hub)["finished_unwatched"] <= 3
    assert client.get(f"/api/matches/{wid}").json()["status"] == "over"  # reloaded on demand


def test_spectators_do_not_keep_a_finished_match_loaded(client):
    """Issue 30: the soak's spectators kept every finished match they watched in memory (up to --max-matches)."""
    from starlette.websockets import WebSocketDisconnect

    from boardlab.web.matches import CLOSE_FINISHED

    hub, watched, wid = _one_finished(client, bound=3)
    with client.websocket_connect(f"/api/matches/{wid}/ws") as ws:
        ws.send_json({"type": "hello"})
        final = ws.receive_json()
        assert final["type"] == "snapshot" and final["over"]  # the watcher has the final position
        for i in range(2):  # up to the bound (it and two more), the watched finished match stays
            _play_to_the_end(client, create(client, "toy", seats=HUMANS, seed=200 + i, variant="short"))
        assert wid in hub.matches
        _play_to_the_end(client, create(client, "toy", seats=HUMANS, seed=300, variant="short"))
        assert wid not in hub.matches  # one more finished match: the oldest is let go, watched or not
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == CLOSE_FINISHED
    over = [m for m in hub.matches.values() if m.record.status == "over"]
    assert len(over) <= 3
    assert client.get(f"/api/matches/{wid}").json()["status"] == "over"  # reloaded on demand
