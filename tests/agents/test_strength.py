"""Small-budget strength tests: statistical, with fixed seeds, seats rotated by the arena.

Each bound is the Wilson 95% interval's lower end, so a pass means the
searching agent wins more than half its games with confidence; the sample
sizes give a margin well beyond the observed rates (e.g. toy ~0.65 at 200
games, the blocking race ~0.9).  Strength against each game's heuristic
agent is measured by the arena in docs/agents.md, not here (too slow).
"""

from __future__ import annotations

import pytest

from boardlab.agents.arena import run_arena
from boardlab.engine import make

from .helpers import load


def row(report, agent):
    return next(r for r in report["agents"] if r["agent"] == agent)


def test_ismcts_beats_random_on_the_toy_race():
    rep = run_arena(make("toy"), ["ismcts:iterations=30", "random"], 200, seed=1)
    assert row(rep, "ismcts:iterations=30")["ci_low"] > 0.5


@pytest.mark.parametrize("players,teams", [(2, False), (4, True)])
def test_ismcts_beats_random_in_the_blocking_race(players, teams):
    game = make("agents-race", players=players, options={"teams": teams})
    spec = "ismcts:iterations=40:rollout=random:prior=none"  # the search alone, no help from the heuristic
    rep = run_arena(game, [spec, "random"], 60, seed=2)
    assert row(rep, spec)["ci_low"] > 0.5


def test_the_omniscient_baseline_measures_information():
    # The omniscient baseline exists to measure information: in the coin game it wins every time.
    rep = run_arena(make("agents-guess"), ["omniscient-mcts:iterations=10", "ismcts:iterations=10"], 40, seed=4)
    assert row(rep, "omniscient-mcts:iterations=10")["win_rate"] > row(rep, "ismcts:iterations=10")["win_rate"]


def test_thinking_helps_on_the_toy_race():
    rep = run_arena(make("toy"), ["ismcts:iterations=60", "ismcts:iterations=1"], 200, seed=5)
    assert row(rep, "ismcts:iterations=60")["ci_low"] > 0.5


def test_ismcts_beats_random_at_dungeons_jewel():
    # Random play almost never brings the jewel home; a 10-iteration search does.
    game = load("dungeons-jewel", players=2)
    rep = run_arena(game, ["ismcts:iterations=10:rollout=random", "random"], 8, seed=1)
    assert row(rep, "ismcts:iterations=10:rollout=random")["wins"] >= 7  # P(>= 7 of 8 | p = 0.5) < 4%


@pytest.mark.parametrize("game_id,players,sides,games", [
    ("armies", 2, False, 8),
    ("blackfire", 2, False, 8),
    ("summoners-quest", 2, False, 8),
    # One agent per side: the wizard against both heroes, then swapped.  Sides differ
    # a lot in this game, so 8 games are too few to separate a 20-iteration search.
    ("wizards-labyrinth", 3, True, 16),
])
def test_a_small_search_beats_random_in_every_game(game_id, players, sides, games):
    # ISMCTS at a tenth of the default budget, with the game's defaults (heuristic prior and playouts).
    # The arena's own figures against random and the heuristic are in docs/agents.md.
    from scipy.stats import binom

    need = next(k for k in range(games + 1) if binom.sf(k - 1, games, 0.5) < 0.05)  # 8 -> 7, 16 -> 12
    game = load(game_id, players=players)
    rep = run_arena(game, ["ismcts:iterations=20", "random"], games, seed=2, sides=sides)
    assert row(rep, "ismcts:iterations=20")["wins"] >= need  # P(>= need | p = 0.5) < 5%
