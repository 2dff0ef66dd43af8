"""Evaluation features: the race for the keys and the tower fight, and the shipped fitted evaluation.

Scenario board (3 players, 5x5): the tower is C3 (cell 12), its entrance faces N (cell 7), the key
tiles are B1, C1, D1 (cells 1, 2, 3) and both heroes start on A1 (cell 0) with 10 hit points.
"""

from __future__ import annotations

import math

import pytest

from boardlab.agents.mcts import evaluation_function
from boardlab.engine import make
from boardlab.games.wizards_labyrinth.features import fight_chance

from .helpers import put, scenario

NEW = ("ready", "tower_chance", "tower_odds", "hero_combat", "hero_life", "entrance_dist", "nearest_dist",
       "entrance_guard", "turn")
OLD = ("hero_hp", "heroes_alive", "keys", "explored", "mana", "hand", "tokens", "door_open")


def test_fight_chance_by_hand():
    # one hero against a level-0 guard: ties win, so P(h >= w) = (20 * 21 / 2) / 400
    assert fight_chance(1, 0) == pytest.approx(210 / 400)
    # two heroes take the higher d20: P(max < w) = ((w - 1) / 20)^2, sum of j^2 for j < 20 is 2470
    assert fight_chance(2, 0) == pytest.approx(1 - 2470 / 8000)
    # two heroes against 6 levels: the wizard's 15-20 can never be reached
    assert fight_chance(2, 6) == pytest.approx((14 - (2470 - 55) / 400) / 20)
    # alpha adds the d20s: P(a + b < w) summed over w is C(20, 3) = 1140 pairs out of 400 * 20
    assert fight_chance(2, 0, True) == pytest.approx(1 - 1140 / 8000)
    assert fight_chance(1, 20) == 0.0 and fight_chance(1, -19) == 1.0 and fight_chance(0, -5) == 0.0


def test_start_position():
    s = scenario()
    f = s.features(0)
    assert f["ready"] == 0.0
    # the tower is closed: the heroes are measured against the default guard (3 + 3 levels), no bonuses
    p = (14 - (2470 - 55) / 400) / 20
    assert f["tower_chance"] == pytest.approx(p)
    # a lost fight costs 2 hit points (2 monsters): the 10 hit points of the healthiest hero last 5 fights
    assert f["tower_odds"] == pytest.approx(1 - (1 - p) ** 5)
    assert f["hero_combat"] == 0.0
    assert f["hero_life"] == 1.0
    # A1 -> B1 -> C1 -> C2 (the entrance): 3 steps of a 5-wide grid
    assert f["entrance_dist"] == pytest.approx(0.6) and f["nearest_dist"] == pytest.approx(0.6)
    assert f["entrance_guard"] == 0.0
    s.turn = 50
    assert s.features(0)["turn"] == 0.25
    s.turn = 300
    assert s.features(0)["turn"] == 1.0


def test_every_seat_sees_the_same_side_features_and_old_names_stay():
    s = scenario()
    f = s.features(0)
    assert set(OLD) | set(NEW) == set(f)
    assert s.features(1) == f == s.features(2)
    for weights in s.game.personas.values():  # personas only name features that exist
        assert set(weights) <= set(f)


def test_keys_and_the_real_tower_guard():
    s = scenario()
    h1, h2 = s.hero(1), s.hero(2)
    put(s, 12, "m4", "m3", "X")  # blanks do not fight
    # closed tower: its tokens are not counted yet (the default guard is)
    assert s.features(0)["tower_chance"] == pytest.approx((14 - (2470 - 55) / 400) / 20)
    h1.keys = 2
    s.keys_taken = 2
    h1.equipment = ["Long Sword"]  # +2
    h2.hand = ["Battle Elixir"]  # +2 in one fight
    h2.hp = 3
    f = s.features(0)
    assert f["ready"] == 1.0 and f["keys"] == 1.0
    assert f["hero_combat"] == pytest.approx(4 / 8)
    # 7 levels less 4 bonus: the two heroes need max(d20, d20) >= w + 3; j^2 summed over 3..19 is 2465
    p = (17 - 2465 / 400) / 20
    assert f["tower_chance"] == pytest.approx(p)
    # the healthiest hero has 10 hit points and loses 2 a fight: 5 tries
    assert f["tower_odds"] == pytest.approx(1 - (1 - p) ** 5)
    h1.hp = 5  # now 5 hit points: 3 tries (5 -> 3 -> 1, a third loss kills)
    assert s.features(0)["tower_odds"] == pytest.approx(1 - (1 - p) ** 3)
    # dropped keys count for 'keys' but the heroes do not hold them: not ready
    h1.keys = 0
    s.dropped_keys = {5: 2}
    f = s.features(0)
    assert f["keys"] == 1.0 and f["ready"] == 0.0
    # an open door is ready whoever holds the keys
    s.door_open = True
    assert s.features(0)["ready"] == 1.0


def test_hit_points_and_potions():
    s = scenario()
    s.hero(1).hp = 4
    s.hero(1).hand = ["Health Potion", "Sprint"]
    f = s.features(0)
    assert f["hero_hp"] == pytest.approx(14 / 20)
    assert f["hero_life"] == pytest.approx((4 + 3 + 10) / 20)


def test_race_to_the_entrance_goes_around_the_tower_and_removed_tiles():
    s = scenario()
    s.hero(1).pos = 1  # B1: B1 -> C1 -> C2, 2 steps
    s.hero(2).pos = 22  # C5: the tower blocks the straight road; C5 -> D5 -> D4 -> D3 -> D2 -> C2, 5 steps
    f = s.features(0)
    assert f["entrance_dist"] == pytest.approx((2 + 5) / 2 / 5)
    assert f["nearest_dist"] == pytest.approx(2 / 5)
    s.removed[2] = s.removed[6] = True  # C1 and B2 gone: B1 must go round by A1, A2, A3, B3, B4, C4, D4, D3, D2
    f = s.features(0)
    assert f["entrance_dist"] == pytest.approx((10 + 5) / 2 / 5)
    assert f["nearest_dist"] == pytest.approx(5 / 5)
    s.hero(2).pos = 12  # a hero in the tower has arrived
    assert s.features(0)["nearest_dist"] == 0.0


def test_monsters_guarding_the_entrance():
    s = scenario()
    put(s, 7, "m3", "m2", "T", "X")
    put(s, 8, "m5")  # next to the entrance: not counted
    assert s.features(0)["entrance_guard"] == pytest.approx(0.5)


def test_alpha_without_an_entrance_measures_to_the_nearest_side_of_the_tower():
    s = scenario(variant="alpha")
    assert s.entrance_cell() is None
    s.hero(1).pos = 0  # A1 -> 3 steps to C2 or B3
    s.hero(2).pos = 18  # D4 -> D3, 1 step
    put(s, 13, "m2")
    f = s.features(0)
    assert f["entrance_dist"] == pytest.approx((3 + 1) / 2 / 5)
    assert f["nearest_dist"] == pytest.approx(1 / 5)
    assert f["entrance_guard"] == pytest.approx(0.2)
    # alpha adds the heroes' d20s and a lost fight costs 1 hit point: 10 tries against 3 + 3 levels
    pa = fight_chance(2, 6, True)
    assert f["tower_chance"] == pytest.approx(pa) and pa > fight_chance(2, 6)
    assert f["tower_odds"] == pytest.approx(1 - (1 - pa) ** 10)


def test_no_living_heroes():
    s = scenario()
    for h in s.heroes:
        h.alive, h.hp = False, 0
    f = s.features(0)
    assert f["tower_chance"] == 0.0 and f["tower_odds"] == 0.0 and f["hero_life"] == 0.0
    assert f["entrance_dist"] == 2.0 and f["nearest_dist"] == 2.0


# -- the shipped fit -----------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4])
def test_shipped_fit_beats_a_constant_and_the_hand_set_evaluate(players):
    game = make("wizards-labyrinth", players=players)
    ev = game.fitted_evaluation()
    assert ev is not None and ev.game_id == "wizards-labyrinth"
    assert set(ev.features) == set(game.new_state(1).features(0))
    stats = ev.fit[str(players)]
    assert stats["logloss_fitted"] < stats["logloss_constant"]
    assert stats["logloss_fitted"] < stats["logloss_game_evaluate"]
    values = evaluation_function(game, "auto")(game.new_state(1))
    assert len(values) == players and all(0.0 < v < 1.0 for v in values)


def test_shipped_fit_favours_armed_heroes_at_the_door():
    """Heroes with the keys at the entrance, well armed, against a weak guard: the heroes' chance rises."""
    s = scenario()
    value = s.game.fitted_evaluation().evaluator(3)
    before = value(s)
    s.keys_taken = 2
    for h in s.heroes:
        h.pos = 7
        h.equipment = ["Long Sword", "Short Sword"]
    s.hero(1).keys = 2
    put(s, 12, "m1")
    after = value(s)
    assert after[1] > before[1] and after[2] > before[2] and after[0] < before[0]
    assert math.isclose(after[1], after[2])
