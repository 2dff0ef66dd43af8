"""The scene (what the terminal and browser draw) and the heuristic agent."""

from __future__ import annotations

import json

from boardlab.agents import Decision, make_agent
from boardlab.engine import make
from boardlab.agents.runner import run_batch

from .helpers import UNITS, field_state, place, sq, token


def _scene(st, seat=0):
    return st.game.scene(st.view(seat), st.legal_actions() if st.current_seat() == seat else ())


def test_scene_draws_walls_exits_tokens_and_pieces():
    st = field_state()
    place(st, GS=(5, 4), GA=(2, 2), GW=(4, 4), RS=(10, 1), RA=(10, 2), RW=(10, 3))
    token(st, 6, 6, "death")
    st.units[UNITS["GW"]].stance = "defensive"
    st.units[UNITS["GA"]].slow_at = st.turn + 2
    st.units[UNITS["RA"]].inv_until = st.turn + 3
    scene = _scene(st)
    json.dumps(scene)
    board = scene["boards"][0]
    assert board["kind"] == "grid" and (board["cols"], board["rows"]) == (11, 9)
    assert {"x": 1, "y": 4, "side": "E", "color": "#1d1a17"} in board["walls"]
    cells = {(c["x"], c["y"]): c for c in board["cells"]}
    assert cells[(8, 7)]["blocked"]
    assert cells[(10, 8)].get("highlight") and "(open: " in cells[(10, 8)]["title"]
    assert not cells[(0, 8)].get("highlight")
    items = {it["id"]: it for it in board["items"]}
    assert items["token-6-6"]["face_down"] and "death" not in json.dumps(items["token-6-6"])
    assert "Orb" in items["u0"]["badge"] and "DEF" in items["u2"]["badge"]
    assert "SLOW" in items["u1"]["badge"] and "INV" in items["u4"]["badge"]


def test_moves_are_two_clicks_piece_then_square():
    st = field_state()
    place(st, GS=(5, 4), GA=(2, 2), GW=(4, 4), RS=(10, 1), RA=(10, 2), RW=(10, 3))
    scene = _scene(st)
    legal = st.legal_actions()
    target = next(t for t in scene["targets"] if legal[t["action"]] == ("move", UNITS["GS"], sq(st, 5, 2)))
    assert target["clicks"] == ["item:u0", "main:5,2"]
    clicks = [tuple(t["clicks"]) for t in scene["targets"]]
    assert len(clicks) == len(set(clicks))  # each click sequence picks one action
    assert not _scene(st, 1)["targets"]  # not red's turn


def test_respawn_countdown_is_shown():
    st = field_state()
    place(st, GS=(5, 4), GA=(2, 2), GW=(4, 4), RS=(10, 1), RA=(10, 2), RW=(10, 3))
    st._kill(UNITS["GS"])
    scene = _scene(st)
    items = {it["id"]: it for it in scene["boards"][0]["items"]}
    assert items["ghost0"]["badge"] == "in 3" and (items["ghost0"]["x"], items["ghost0"]["y"]) == (5, 4)
    assert any(c["id"] == "dead-0" for p in scene["panels"] for c in p.get("cards", []))


def test_heuristic_agent_plays_legal_moves_from_its_view():
    game = make("blackfire")
    st = game.new_state(11)
    agents = [make_agent("heuristic", game, s, s) for s in (0, 1)]
    for _ in range(200):
        if st.is_over():
            break
        seat = st.current_seat()
        action = agents[seat].act(Decision(st, seat))
        assert action in st.legal_actions()
        st.apply(action)


def test_heuristic_games_finish():
    records = run_batch(make("blackfire"), ["heuristic", "heuristic"], 30, seed=5)
    assert sum(r.truncated for r in records) <= 3
    assert {r.roles[r.winners[0]] for r in records if r.winners} == {"green", "red"}
    metrics_game = make("blackfire").new_state(2)
    assert "token:speed" in metrics_game.metrics()


def test_heuristic_displaces_the_enemy_archer_into_a_contest_it_favours():
    """Rules ledger 14: an enemy archer displaced within 2 of my archer holds the contest as the attacker
    (it needs 5 or 6), so the heuristic, holding Displace, puts it there."""
    st = field_state()
    place(st, GW=(5, 4), GS=(0, 0), GA=(6, 2), RA=(8, 4), RS=(10, 1), RW=(10, 3))
    token(st, 5, 5, "displace")
    st.apply(("move", UNITS["GW"], sq(st, 5, 5)))
    assert st.stack[-1].kind == "displace"
    agent = make_agent("heuristic:noise=0", st.game, 0, 0)
    action = agent.act(Decision(st, 0))
    assert action[0] == "displace" and action[1] == UNITS["RA"]
    castle = st.game.castle
    assert castle.dist[action[2]][sq(st, 6, 2)] <= 2


def test_secret_placements_show_their_progress_to_every_seat():
    """Issue 32 (an all-bot web match looked stalled): a placed token is hidden from the other seat
    and from spectators, so the status line counts each seat's placements for everyone."""
    game = make("blackfire")
    st = game.new_state(3)
    before = game.scene(st.view(None))["status"]
    st.apply(st.legal_actions()[0])
    for seat in (None, 0, 1):
        status = game.scene(st.view(seat))["status"]
        assert status != before and "face-down tokens placed: Player 1 1/4, Player 2 0/4" in status, status
