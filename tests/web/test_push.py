"""The incremental-update format: ``apply_patch(old, diff(old, new))`` is ``new``, exactly as JSON."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.web.push import apply_patch, apply_update, diff, encode, make_update

scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=False, allow_infinity=False, width=16),
                    st.sampled_from(["", "a", "b", "card"]))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=6),
                                                        st.dictionaries(st.sampled_from("abcde"), inner, max_size=5)),
                      max_leaves=30)
docs = st.dictionaries(st.sampled_from(["view", "scene", "actions", "acting", "x"]), values, max_size=5)


def wire(x):
    return json.loads(json.dumps(x))


@settings(max_examples=400, deadline=None)
@given(docs, docs)
def test_patch_turns_old_into_new(old, new):
    old, new = wire(old), wire(new)
    ops = wire(diff(old, new))  # the operations travel as JSON
    got = apply_patch(wire(old), ops)
    assert encode(got) == encode(new) or json.dumps(got, sort_keys=True) == json.dumps(new, sort_keys=True)


def test_types_are_kept_where_python_equality_would_hide_a_change():
    old = {"v": [1, 2], "w": {"k": 1}}
    new = {"v": [True, 2.0], "w": {"k": True}}
    got = apply_patch(wire(old), wire(diff(old, new)))
    assert json.dumps(got, sort_keys=True) == json.dumps(new, sort_keys=True)


def test_an_inserted_item_is_one_splice_not_a_shifted_list():
    old = {"hand": [{"card": i} for i in range(20)]}
    new = {"hand": [{"card": i} for i in range(5)] + [{"card": 99}] + [{"card": i} for i in range(5, 20)]}
    ops = diff(old, new)
    assert ops == [["p", ["hand"], 5, 0, [{"card": 99}]]]


def test_update_carries_new_events_only_and_refuses_a_gap():
    a = {"type": "snapshot", "seat": 1, "state_id": 3, "view": {"n": 1}, "events": [{"i": 0}]}
    b = {"type": "snapshot", "seat": 1, "state_id": 4, "view": {"n": 2}, "events": [{"i": 0}, {"i": 1}]}
    u = make_update(a, b)
    assert u["events_new"] == [{"i": 1}] and "events" not in u
    assert apply_update(a, u) == b
    c = {**b, "state_id": 5}
    try:
        apply_update(c, u)
    except ValueError:
        pass
    else:  # pragma: no cover
        raise AssertionError("an update from state 3 applied to state 5")
    # earlier events changed (never expected): the whole log is sent
    d = {**b, "events": [{"i": 0, "x": 1}, {"i": 1}]}
    u2 = make_update(a, d)
    assert "events_new" not in u2 and apply_update(a, u2) == d


def test_the_last_page_leaving_frees_the_pushed_snapshots(client):
    from .conftest import create

    r = create(client, "toy", [{"kind": "human"}, {"kind": "human"}], seed=3)
    mid, tok = r["match"]["id"], r["seats"][0]["token"]
    hub = client.app.state.hub
    match = hub.get(mid)
    with client.websocket_connect(f"/api/matches/{mid}/ws") as ws:
        ws.send_json({"type": "hello", "seat": 0, "token": tok})
        assert ws.receive_json()["type"] == "snapshot"
        assert match in hub.push._sent
    for _ in range(100):  # the handler's cleanup runs on the server's loop: bounded wait for it
        if match not in hub.push._sent:
            break
        client.get("/api/games")
    assert match not in hub.push._sent and not match.listeners


def test_updates_carry_only_the_new_events_and_the_log_is_built_only_for_a_full_snapshot(client, monkeypatch):
    """Issue 30: per move the server built, copied and compared every listening seat's whole log.

    The pages (a seat and a spectator) follow 30 moves by updates alone and end with exactly the
    snapshot the server would send afresh; the whole log is built once per ``hello``, never per move.
    """
    from boardlab.web.matches import FEED

    from .conftest import auth, canon, create

    whole = []
    events = FEED.events

    def counting(match, seat, since=None):
        if since is None:
            whole.append(seat)
        return events(match, seat, since)

    monkeypatch.setattr(FEED, "events", counting)
    r = create(client, "toy", [{"kind": "human"}, {"kind": "human"}], seed=5)
    mid, toks = r["match"]["id"], [s["token"] for s in r["seats"]]
    first = client.post(f"/api/matches/{mid}/actions", headers=auth(toks[0]), json={"seat": 0, "state_id": 0, "index": 0})
    assert first.status_code == 200 and first.json()["events"]  # the pages open on a log (its mark is not the empty one)
    with client.websocket_connect(f"/api/matches/{mid}/ws") as mine, \
            client.websocket_connect(f"/api/matches/{mid}/ws") as watcher:
        mine.send_json({"type": "hello", "seat": 0, "token": toks[0]})
        watcher.send_json({"type": "hello"})
        pages = {0: mine.receive_json(), None: watcher.receive_json()}
        assert [p["type"] for p in pages.values()] == ["snapshot", "snapshot"]
        assert sorted(whole, key=str) == [0, None]
        moves = 0
        while moves < 30 and not pages[0]["over"]:
            acting = pages[0]["acting"]
            got = client.post(f"/api/matches/{mid}/actions", headers=auth(toks[acting]),
                              json={"seat": acting, "state_id": pages[0]["state_id"], "index": 0})
            assert got.status_code == 200, got.text
            moves += 1
            for seat, ws in ((0, mine), (None, watcher)):
                msg = ws.receive_json()
                assert msg["type"] == "update" and "events_new" in msg, msg
                pages[seat] = apply_update(pages[seat], msg)
        assert moves >= 5
        assert sorted(whole, key=str) == [0, None]  # nothing rebuilt the whole log while playing
        for seat in (0, None):
            fresh = client.get(f"/api/matches/{mid}/state", params={} if seat is None else {"seat": seat},
                               headers=auth(toks[0]) if seat == 0 else {}).json()
            assert canon(pages[seat]) == canon(fresh)
        assert len(pages[0]["events"]) > 5
        sent = client.app.state.hub.push._sent[client.app.state.hub.get(mid)]
        assert all("events" not in s.snap and s.body is None for s in sent.values())  # no copy of the log kept
