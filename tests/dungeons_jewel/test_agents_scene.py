"""The heuristic agent (finishes games, plays like the post-mortem), the scene and the lab hooks."""

from __future__ import annotations

import json

import pytest

from boardlab.agents import Decision, make_agent
from boardlab.engine import make
from boardlab.agents.runner import run_batch

from .helpers import CENTRE, STARTS, blank, cell, give, place, put


@pytest.mark.parametrize("variant", ["rulebook", "concept", "revised"])
def test_heuristic_games_finish(variant):
    """Simulations need games that end: under 5% of a batch may hit the turn cap."""
    game = make("dungeons-jewel", variant=variant)
    records = run_batch(game, ["heuristic"] * 4, 60 if variant == "rulebook" else 20, seed=7)
    truncated = sum(r.truncated for r in records)
    assert truncated <= 0.05 * len(records)
    assert sum(1 for r in records if r.winners) >= 0.95 * len(records)


def _act(s, seat=None):
    seat = s.current_seat() if seat is None else seat
    agent = make_agent("heuristic", s.game, seat, 1)
    return agent.act(Decision(s, seat))


def test_heuristic_attacks_an_adjacent_carrier():
    s = blank()
    place(s, 0, cell(2, 2))
    place(s, 1, cell(3, 2))
    s.jewel = 1
    assert _act(s) == ("attack", 1)


def test_heuristic_does_not_attack_before_the_jewel_is_taken():
    """"Players will often only attack once a player has a jewel.\""""
    s = blank()
    place(s, 0, cell(2, 2))
    place(s, 1, cell(3, 2))
    assert _act(s)[0] == "move"


def test_heuristic_carries_the_jewel_home():
    s = blank()
    place(s, 0, cell(1, 0))
    s.jewel = 0
    assert _act(s) == ("move", STARTS[0])


def test_heuristic_explores_while_weak_and_fights_when_strong():
    s = blank()
    s.pile = ["fire"] * 10
    s.deck = ["helmet"] * 10
    place(s, 0, cell(3, 2))
    put(s, cell(3, 1), "fire", face_up=True)
    put(s, cell(2, 2), "fire", face_up=True)
    put(s, cell(4, 2), "fire", face_up=True)
    assert _act(s) != ("move", CENTRE)  # weak: keeps away from the dragon
    give(s, 0, "broadsword", "shield", "boots")
    assert _act(s) == ("move", CENTRE)
    s.items[0], s.power[0] = [], 0
    s.deck = []  # the treasure has run out: nothing left to gain by exploring
    s._legal = None
    assert _act(s) == ("move", CENTRE)


def test_heuristic_uses_items_and_keeps_tokens_secret():
    s = blank()
    give(s, 0, "spike_boots")
    s.pile = ["spike"]
    s.apply(("move", cell(1, 0)))
    assert _act(s) == ("place", "secret")
    s.apply(("place", "secret"))
    assert _act(s) == ("use", "spike_boots")


def test_scene_board_panels_and_targets():
    game = make("dungeons-jewel")
    s = blank()
    place(s, 0, cell(2, 2))
    place(s, 1, cell(3, 2))
    put(s, cell(2, 1), "fire", known=0b01)
    put(s, cell(1, 2), "wall", face_up=True)
    s.walls[cell(1, 2)] |= 1 << 0
    s.walls[cell(1, 1)] |= 1 << 2
    s.facing[cell(1, 2)] = 0
    acts = s.legal_actions()
    scene = s.game.scene(s.view(0), acts)
    json.dumps(scene)
    board = scene["boards"][0]
    assert board["kind"] == "grid" and board["cols"] == board["rows"] == 7
    cells = {(c["x"], c["y"]): c for c in board["cells"]}
    assert cells[(0, 0)]["label"] == "S1" and cells[(3, 3)]["label"] == "Dragon"
    items = {i["id"]: i for i in board["items"]}
    assert items["t9"]["text"] == "Fi" and items["t9"]["face_down"]  # seen by seat 0, still face down
    assert items["t15"]["text"] == "Wa" and not items["t15"]["face_down"]
    assert items["p0"]["badge"] == "\u26652 \u26940"  # health 2, attack 0
    assert board["walls"] == [{"x": 1, "y": 2, "side": "N", "color": "#222"}]
    assert len(scene["panels"]) == 5 and scene["panels"][0]["rows"][0] == ["Health", "2"]
    clicks = {tuple(t["clicks"]): acts[t["action"]] for t in scene["targets"]}
    assert clicks[("main:2,1",)] == ("move", cell(2, 1))
    assert clicks[("item:p1",)] == ("attack", 1)
    # another seat sees the fire token as an unknown face-down token
    other = {i["id"]: i for i in game.scene(s.view(2))["boards"][0]["items"]}
    assert other["t9"]["text"] == "?" and "Fire" not in other["t9"]["title"]


def test_metrics_and_tags():
    s = blank()
    place(s, 0, cell(2, 2))
    place(s, 1, cell(3, 2))
    from .helpers import Dice

    s.rng = Dice(6, 1)
    s.apply(("attack", 1))
    m = s.metrics()
    assert m["attack:won_as_attacker"] == [1, 0, 0, 0] and m["attack:won_as_defender"] == [0, 0, 0, 0]
    assert "token:monster" in m and "item:broadsword" in m
    assert s.action_tags(("use", "spike_boots")) == ("rule:use_item", "item:spike_boots")
    assert s.action_tags(("attack", 2)) == ("rule:attack",)
    f = s.features(0)
    assert set(f) >= set().union(*s.game.personas.values())
    assert 0.0 <= s.evaluate(0) <= 1.0


def test_evaluate_rewards_the_carrier_near_home():
    s = blank()
    place(s, 0, cell(1, 0))
    s.jewel = 0
    near = s.evaluate(0)
    place(s, 0, CENTRE)
    assert near > s.evaluate(0) > s.evaluate(1)


def test_every_action_has_a_readable_label():
    s = blank(variant="revised")
    place(s, 0, CENTRE)
    place(s, 1, cell(3, 2))
    labels = {a: s.describe(a) for a in s.legal_actions()}
    assert labels[("dragon",)] == "fight the dragon (two six-sided dice + your attack power 0 must reach 9)"
    assert labels[("move", cell(2, 3))] == "move to c4"
    assert labels[("attack", 1)] == "attack Player 2"
    s.jewel = 0
    place(s, 0, cell(1, 0))
    assert s.describe(("move", STARTS[0])) == "move to a1 (home with the jewel)"
    for a, text in [(("place", "secret"), "place the token face down (secret: the others do not learn what is in the room)"), (("wall", "E"), "turn the wall to the east side"),
                    (("use", "spike_boots"), "use Spike boots"), (("roll",), "roll to survive"), (("take", "helmet"), "take Helmet")]:
        assert s.describe(a) == text


def test_dragon_chance_feature_is_the_exact_two_dice_probability():
    """P(2d6 + power >= 11): power 0 needs 11-12 (3/36), power 3 needs 8+ (15/36), power 9+ always wins."""
    s = blank()
    for power, ways in ((0, 3), (3, 15), (5, 26), (9, 36), (12, 36)):
        s.power[0] = power
        assert s.features(0)["dragon_chance"] == pytest.approx(ways / 36)
    s.power[0] = 3
    place(s, 0, CENTRE)
    assert s.features(0)["dragon_reach"] == pytest.approx(15 / 36)  # on the dragon's room: full closeness
    s.jewel = 1
    assert s.features(0)["dragon_reach"] == 0.0  # the dragon no longer holds the jewel
