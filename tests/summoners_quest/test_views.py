"""Hidden information: hands, deck order and face-down traps never leak."""

import json

from boardlab.engine import make
from boardlab.engine.rng import Rng

from .helpers import fresh, give


def secret_position():
    st = fresh(3)
    give(st, 1, "fenrir", "mjolnir", "fire_glyph")
    give(st, 0, "insight")
    st.traps[20] = ["whirlpool", 1]
    st.deck.draw_pile.remove("whirlpool")
    st._legal = None
    return st


def test_views_show_only_own_hand_and_own_traps():
    st = secret_position()
    for seat in (None, 0, 2):
        text = json.dumps(st.view(seat))
        for secret in ("fenrir", "mjolnir", "fire_glyph", "whirlpool"):
            assert secret not in text, (seat, secret)
    mine = st.view(1)["state"]
    assert mine["hand"] == ["fenrir", "mjolnir", "fire_glyph"]
    assert mine["traps"] == [{"space": 20, "owner": 1, "card": "whirlpool"}]
    assert st.view(None)["state"]["players"][1]["hand_size"] == 3


def test_scenes_do_not_leak():
    st = secret_position()
    game = st.game
    for seat in (None, 0, 2):
        text = json.dumps(game.scene(st.view(seat), st.legal_actions() if seat == 0 else ()))
        for secret in ("fenrir", "Fenrir", "Mj\\u00f6lnir", "Fire Glyph", "Whirlpool"):
            assert secret not in text, (seat, secret)
    text = json.dumps(game.scene(st.view(1)))
    assert "Fenrir" in text and "Whirlpool" in text


def test_private_draws_are_private_events():
    st = fresh()
    top = st.deck.draw_pile[-1]
    st.draw_cards(0, 1)
    ev0 = st.events(0)[-1]
    ev1 = st.events(1)[-1]
    assert top in json.dumps(ev0) and top not in json.dumps(ev1)


def test_determinize_resamples_other_hands_deck_and_face_down_traps():
    st = secret_position()
    changed_hand = changed_trap = False
    for i in range(30):
        d = st.determinize(0, Rng(i))
        assert d.hands[0] == st.hands[0]
        assert [len(h) for h in d.hands] == [len(h) for h in st.hands]
        assert d.game.cards[d.traps[20][0]].type == "trap" and d.traps[20][1] == 1
        assert sorted(d.deck.draw_pile + d.hands[1] + d.hands[2] + [d.traps[20][0]]) == sorted(
            st.deck.draw_pile + st.hands[1] + st.hands[2] + ["whirlpool"])
        assert d.view(0)["state"] == st.view(0)["state"]
        changed_hand |= d.hands[1] != st.hands[1]
        changed_trap |= d.traps[20][0] != "whirlpool"
    assert changed_hand and changed_trap
    # the trap's owner knows it: its own determinization keeps it
    assert all(st.determinize(1, Rng(i)).traps[20][0] == "whirlpool" for i in range(10))


def test_scene_has_the_board_panels_and_click_targets():
    st = fresh(2)
    give(st, 0, "pitfall", "fireball")
    st.pos[1] = 2
    st._legal = None
    scene = st.game.scene(st.view(0), st.legal_actions())
    board = scene["boards"][0]
    assert board["kind"] == "nodes" and len(board["nodes"]) == 45
    assert {i["id"] for i in board["items"]} >= {"P0", "P1"}
    rows = dict(scene["panels"][0]["rows"])
    assert rows["Mana"] == "6 active / 0 used" and rows["Chamber hold"] == "0/3"
    assert [c["id"] for c in scene["panels"][0]["cards"]] == ["pitfall", "fireball"]
    targets = {tuple(t["clicks"]) for t in scene["targets"]}
    assert ("card:fireball", "item:P1") in targets and ("card:pitfall", "board:r5") in targets
    gate = next(n for n in board["nodes"] if n["id"] == "g0")
    assert gate["label"] == "G1" and gate["title"].endswith("closed: 10 mana to open")


def test_every_space_has_one_board_label_and_actions_name_it():
    """Issue 20: "start at North temple" must match the board's label; every temple is labelled."""
    st = make("summoners-quest").new_state(3)
    scene = st.game.scene(st.view(st.current_seat()), st.legal_actions())
    nodes = scene["boards"][0]["nodes"]
    labels = [n["label"] for n in nodes]
    assert all(labels) and len(set(labels)) == len(labels) == 45
    by_id = {n["id"]: n["label"] for n in nodes}
    temples = [t for t in scene["targets"] if st.legal_actions()[t["action"]][0] == "temple"]
    assert len(temples) == 4
    for t in temples:
        label = by_id[t["clicks"][0].split(":")[1]]
        described = st.describe(st.legal_actions()[t["action"]])
        assert described.endswith(f"temple ({label})") and t["label"] == described, (described, label)
    assert {by_id[f"r{i}"] for i in (0, 8, 16, 24)} == {"NT", "ET", "ST", "WT"}
    # the log names the space the same way, and so do moves, by the code drawn on the destination
    st.apply(st.legal_actions()[0])
    assert st.events()[-1]["text"].endswith("starts at the North temple (NT).")
    while st.phase != "move":
        st.apply(st.legal_actions()[-1] if st.phase == "pre" else st.legal_actions()[0])
    scene = st.game.scene(st.view(st.current_seat()), st.legal_actions())
    moves = [t for t in scene["targets"] if t["label"].startswith("move")]
    assert moves
    for t in moves:
        assert t["label"].endswith(f"({by_id[t['clicks'][-1].split(':')[1]]})"), t


def test_metrics_and_action_tags():
    st = fresh(2)
    give(st, 0, "fireball")
    st.pos[1] = 2
    st._legal = None
    assert st.action_tags(("cast", "fireball", "P1")) == ("card:fireball", "rule:cast")
    st.apply(("cast", "fireball", "P1"))
    assert st.metrics()["card:fireball"] == [1, 0]
    f = st.features(0)
    assert 0 <= st.evaluate(0) <= 1 and f["life"] == 1.0 and f["enemy_life"] == 0.7
    assert set(make("summoners-quest").personas) == {"warlord", "king-of-the-hill", "collector"}
