"""A golden playthrough: a seeded 3-player heuristic game is pinned (rules, RNG use and agent).

If a deliberate rule or agent change moves it, re-pin the numbers below and say so in the commit.
"""

import hashlib
import json

from boardlab.engine import make
from boardlab.agents.runner import play_game


def test_golden_heuristic_game():
    game = make("summoners-quest", players=3)
    state, rec = play_game(game, ["heuristic"] * 3, 2024, keep_actions=True)
    digest = hashlib.sha256(json.dumps(rec.actions).encode()).hexdigest()[:16]
    assert (rec.turns, rec.decisions, rec.winners, rec.reason) == (46, 182, (2,), "held the chamber of victory")
    assert digest == "87bfc04fcaef8cb3"
