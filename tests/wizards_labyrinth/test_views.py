"""Hidden information: what each seat's view holds, determinization, and the event log."""

from __future__ import annotations

import json

from boardlab.engine import Rng, make
from tests.conformance import check_no_leak

from .helpers import move_all, put, scenario, to_moves


def test_heroes_never_see_keys_tokens_or_the_wizard_hand():
    s = scenario()
    s.whand = ["Goblin", "Troll"]
    put(s, 10, "m3", "X")
    for seat in (1, 2, None):
        st = s.view(seat)["state"]
        assert all("kind" not in st["tiles"][c] for c in (1, 2, 3))
        assert st["tokens"][10] == [None, None]
        assert st["wizard"]["hand"] is None and st["wizard"]["hand_size"] == 2
        text = json.dumps(st)
        assert "Troll" not in text and "m3" not in text
    w = s.view(0)["state"]
    assert w["tokens"][10] == ["m3", "X"] and w["wizard"]["hand"] == ["Goblin", "Troll"]
    assert [w["tiles"][c]["kind"] for c in (1, 2, 3)] == ["key"] * 3


def test_unflipped_room_values_are_hidden_from_everyone():
    """Ledger: the grid is built from a shuffled, face-down pile: nobody knows a room before it flips."""
    s = scenario()
    for seat in (0, 1, None):
        assert s.view(seat)["state"]["tiles"][5] == {"state": "down"}


def test_loot_hands_open_among_heroes_hidden_from_wizard():
    """Ledger: the heroes play with open hands among themselves; the wizard sees only hand sizes."""
    s = scenario()
    s.hero(1).hand = ["Battle Elixir"]
    s.hero(1).equipment = ["Shield"]
    assert s.view(2)["state"]["heroes"][0]["hand"] == ["Battle Elixir"]
    for seat in (0, None):
        h = s.view(seat)["state"]["heroes"][0]
        assert h["hand"] is None and h["hand_size"] == 1 and h["equipment"] == ["Shield"]


def test_determinize_resamples_what_a_hero_cannot_see():
    s = scenario()
    s.whand = ["Goblin", "Troll", "Orc"]
    put(s, 10, "m3", "X", "T")
    rng = Rng(5)
    keys, hands, faces = set(), set(), set()
    for _ in range(30):
        d = s.determinize(1, rng)
        keys.add(tuple(c for c, t in enumerate(d.tiles) if t[0] == "k"))
        hands.add(tuple(d.whand))
        faces.add(tuple(t.kind for t in d.tokens[10]))
        assert json.dumps(d.view(1)["state"], sort_keys=True) == json.dumps(s.view(1)["state"], sort_keys=True)
    assert len(keys) > 5 and len(hands) > 5 and len(faces) > 1
    check_no_leak(s, Rng(7))


def test_determinize_for_the_wizard_keeps_keys_and_tokens_but_resamples_hero_hands():
    s = scenario()
    s.hero(1).hand = ["Battle Elixir", "Sprint"]
    put(s, 10, "m3", "X")
    rng = Rng(3)
    hands = set()
    for _ in range(20):
        d = s.determinize(0, rng)
        assert [c for c, t in enumerate(d.tiles) if t[0] == "k"] == [1, 2, 3]
        assert [t.kind for t in d.tokens[10]] == ["m3", "X"]
        hands.add(tuple(d.hero(1).hand))
    assert len(hands) > 3


def test_pending_moves_resampled_for_other_seats():
    s = to_moves(scenario())
    s.apply(("move", 5))
    seen = {s.determinize(2, Rng(i)).pending[1] for i in range(20)}
    assert len(seen) > 1
    assert all(s.determinize(1, Rng(i)).pending[1] == ("move", 5) for i in range(5))


def test_private_events_stay_private():
    s = scenario()
    s.whand = ["Skeleton"]
    s._legal = None
    s.apply(("play", "Skeleton"))
    s.apply(("place", 10, "m2"))
    hero_log = json.dumps(s.events(1))
    assert "level 2 monster" not in hero_log and "Skeleton" in hero_log
    assert "You place a level 2 monster on " in json.dumps(s.events(0))


def test_scene_shows_wizard_hand_only_to_wizard_and_has_targets():
    s = scenario()
    s.whand = ["Goblin"]
    s._legal = None
    g = s.game
    wiz = g.scene(s.view(0), s.legal_actions())
    hero = g.scene(s.view(1), ())
    wpanel = wiz["panels"][0]
    assert [c["name"] for c in wpanel["cards"]] == ["Goblin"]
    assert "cards" not in hero["panels"][0] and ["Hand", "1 card(s)"] in hero["panels"][0]["rows"]
    assert any(t["clicks"] == ["card:wiz-0"] for t in wiz["targets"])
    assert wiz["boards"][0]["cols"] == 5 and len(wiz["boards"][0]["cells"]) == 25
    wheel = wiz["boards"][1]
    assert wheel["kind"] == "nodes" and len(wheel["nodes"]) == 9 and wheel["items"][0]["node"] == "m2"
    s.apply(("play", "Goblin"))
    scene = g.scene(s.view(0), s.legal_actions())
    assert any(t["clicks"] == ["card:tok-m1", "main:0,2"] for t in scene["targets"])
    to_scene = make("wizards-labyrinth", players=3).scene
    assert to_scene(s.view(None))["targets"] == []
    json.dumps(scene)


def test_move_targets_are_cells():
    s = to_moves(scenario())
    scene = s.game.scene(s.view(1), s.legal_actions())
    clicks = {tuple(t["clicks"]) for t in scene["targets"]}
    assert ("main:1,0",) in clicks and ("main:0,1",) in clicks
    move_all(s, {})


def test_placement_prompt_shows_others_how_many_tokens_remain_not_which():
    """Issue 16 finding 6: the remainder of a public card's tokens would name each token placed."""
    s = scenario()
    card = next(c for c in s.game.content.wizard_cards.values() if c.type != "spell" and len(c.tokens()) >= 2)
    s.whand = [card.name]
    s.mana_left = 99
    s._legal = None
    s.apply(("play", card.name))
    assert s.stack[-1].kind == "place"
    first = s.legal_actions()[0]
    s.apply(first)
    left = len(s.stack[-1].data["tokens"])
    assert s.view(0)["state"]["prompt"]["tokens"] == sorted(s.stack[-1].data["tokens"])
    for seat in (1, 2, None):
        prompt = s.view(seat)["state"]["prompt"]
        assert "tokens" not in prompt and prompt["tokens_left"] == left
        assert "Left to place" in json.dumps(s.game.scene(s.view(seat), ()))
    rng = Rng(3)
    remaining = set()
    for _ in range(40):
        d = s.determinize(1, rng)
        remaining.add(tuple(sorted(d.stack[-1].data["tokens"])))
        assert sorted(d.stack[-1].data["tokens"] + [t.kind for t in d.tokens[first[1]][-1:]]) == sorted(card.tokens())
    if len(set(card.tokens())) > 1:
        assert len(remaining) > 1
    check_no_leak(s, Rng(7))
