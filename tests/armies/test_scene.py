"""The scene: board, pieces with their cards, panels, hand to its owner only, click targets, prompts."""

from __future__ import annotations

import json

from .helpers import at, give, mv, position, touch


def test_scene_board_items_panels_and_targets():
    st = position({"e1": "K", "e8": "k", "d1": "Q", "e2": "P"}, hands=(["Shield Bearers", "Teachings of Tor"], ["Ambush"]))
    give(at(st, "e1"), "LL")
    at(st, "d1").leader, at(st, "d1").spent = "Heavy Cavalry", True
    touch(st)
    legal = st.legal_actions()
    scene = st.game.scene(st.view(0), legal)
    json.dumps(scene)
    board = scene["boards"][0]
    assert board["cols"] == board["rows"] == 8 and len(board["cells"]) == 64
    cols, rows = board["col_labels"], board["row_labels"]
    queen = next(i for i in board["items"] if cols[i["x"]] + rows[i["y"]] == "d1")
    assert queen["title"].startswith("white queen")
    assert "Heavy Cavalry (spent: it has acted, so its army cannot attack until it rests)" in queen["title"] and queen["badge"].startswith("l")
    white, black, key = scene["panels"]
    assert key["title"] == "Key" and "'l' a spent one" in key["rows"][0][1]
    assert [c["name"] for c in white["cards"]] == ["Shield Bearers", "Teachings of Tor"]
    assert all(c.get("face_down") for c in black["cards"])
    assert any("Lorin 2/2" in r[1] for r in white["rows"] if r[0].startswith("General skill"))
    by_action = {legal[t["action"]]: t["clicks"] for t in scene["targets"]}
    assert by_action[mv("e2", "e4")] == ["main:4,6", "main:4,4"]
    play = ("play", "Shield Bearers", at(st, "e1").id, 12)
    assert by_action[play] == ["card:h0", "main:4,7", "main:4,6"]
    # a spectator sees no hand and gets no targets
    spec = st.game.scene(st.view(None), ())
    assert not spec["targets"] and all(c.get("face_down") for p in spec["panels"] for c in p["cards"])


def test_scene_prompt_when_a_window_opens():
    st = position({"e1": "K", "e8": "k", "a1": "R", "a7": "p", "b7": "r"}, hands=([], ["Hold the Line"]))
    give(at(st, "b7"), "LL")
    touch(st)
    st.apply(mv("a1", "a7"))
    scene = st.game.scene(st.view(1), st.legal_actions())
    assert "Hold the Line" in scene["prompt"] and "attack 1 vs defense 0" in scene["prompt"]
    assert st.game.scene(st.view(0), ())["prompt"] == ""
