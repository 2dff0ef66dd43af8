"""The heuristic agent plays both sides to a finish; roles and results are team results."""

from __future__ import annotations

from boardlab.engine import make
from boardlab.agents.runner import run_batch, summarize

from boardlab.games.wizards_labyrinth.agents import win_chance


def test_heuristic_games_finish_with_team_results():
    game = make("wizards-labyrinth", players=3)
    records = run_batch(game, ["heuristic"] * 3, 12, seed=11)
    assert sum(r.truncated for r in records) <= 1
    summary = summarize(game, ["heuristic"] * 3, records, 11, 1.0)
    assert set(summary["wins_by_side"]) <= {"wizard", "hero"}
    for r in records:
        assert r.roles == ("wizard", "hero", "hero")
        assert r.truncated or r.winners in ((0,), (1, 2))


def test_win_chance_matches_enumeration():
    assert abs(win_chance(1, 0, 0) - 210 / 400) < 1e-9  # a tie goes to the heroes
    assert win_chance(2, 0, 0) > win_chance(1, 0, 0)
    assert win_chance(2, 0, 0, combine=True) > win_chance(2, 0, 0)


def test_state_hooks():
    s = make("wizards-labyrinth", players=4).new_state(5)
    assert s.roles() == ("wizard", "hero", "hero", "hero")
    f = s.features(1)
    assert set(f) >= {"hero_hp", "keys", "explored", "mana"}
    assert 0 <= s.evaluate(0) <= 1 and abs(s.evaluate(0) + s.evaluate(1) - 1) < 1e-9
    assert s.action_tags(("play", "Frost Bolt")) == ("card:Frost Bolt",)
    assert s.action_tags(("remove", 3)) == ("rule:rage",)
    assert set(s.game.personas) == {"cautious", "explorer", "tyrant"}
    for weights in s.game.personas.values():
        assert set(weights) <= set(f)
