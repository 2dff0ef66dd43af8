"""The heroes' heuristic plays on (issue 32, "bots that play on"): no shuttling around a guarded room.

Heuristic-only games used to reach the 400-turn cap in 1-5% of games (``final`` at 3-5 players, ``beta``
and ``beta-playtest`` at 3-4; docs/agents.md "Truncation").  Two causes, each pinned here by a position on
which the old agent stalls:

* a hero scored a move by the plain distance to his goal less the risk of the cell he steps on, so a
  hero next to a room guarded by strong monsters stepped to a safe cell as far away, and back, for ever
  (``final`` 3 players, seed 2215748035547023972: two heroes swapped tiles around the room holding the
  second key).  The road to the goal is now costed cell by cell (risk included), and a step along the
  cheapest road always beats a step off it;
* with no room left face down the heroes waited at the tower entrance, though a key still lay under the
  monsters of a key tile whose fight they had lost (``beta`` 3 players, same seed).  Guarded key tiles
  are goals now.
"""

from __future__ import annotations

from boardlab.agents import Decision, make_agent
from boardlab.agents.runner import play_game, run_batch
from boardlab.engine import make

from .helpers import put, scenario, to_moves


def _hero_move(s, seed: int = 1):
    seat = s.current_seat()
    assert s.stack[-1].kind == "move" and seat != 0
    return seat, make_agent("heuristic", s.game, seat, seed).act(Decision(s, seat))


def test_a_hero_walks_into_the_guarded_room_he_is_after():
    # Everything is explored but B4 (cell 15), guarded by a 3 and a 4 in plain sight; the hero on B4's
    # neighbour C4 (cell 16) holds one of the two keys.  The old heuristic stepped to B3, D4 or B5 (each
    # two steps from the room, no risk) and next turn back: it never entered.
    for agent_seed in range(5):
        s = scenario(players=3)
        for c in range(len(s.flipped)):
            s.flipped[c] = c != 15
        s.unclaimed = set()
        h1, h2 = s.heroes
        h1.pos, h2.pos, h1.keys = 16, 21, 1
        put(s, 15, "m3", "m4", face_up=True)
        to_moves(s)
        seat, action = _hero_move(s, agent_seed)
        assert seat == 1 and action == ("move", 15)


def test_heroes_go_back_for_a_key_left_under_its_monsters():
    # No room is face down, the door needs keys the heroes do not hold, and the key tile D1 (cell 3) kept
    # its key under the monster that beat them.  The old heuristic stood at the entrance (cell 7) for ever.
    s = scenario(players=3)
    for c in range(len(s.flipped)):
        s.flipped[c] = True
    s.unclaimed = {3}
    put(s, 3, "m2", face_up=True)
    for h in s.heroes:
        h.pos = 7
    to_moves(s)
    seat, action = _hero_move(s)
    assert action[0] == "move" and action[-1] in (2, 8)  # a step toward D1 (C1 or D2)
    view = Decision(s, seat).view["state"]
    assert view["tiles"][3]["unclaimed"] and view["tiles"][3]["state"] == "up"


def test_the_issue_game_ends():
    """The two games the issue names (capped at 400 turns before) now end, well inside the cap."""
    for variant in ("final", "beta"):
        game = make("wizards-labyrinth", players=3, variant=variant)
        game.record_events = False
        st, rec = play_game(game, ["heuristic"] * 3, 2215748035547023972)
        assert not rec.truncated and st.winner in ("heroes", "wizard") and rec.turns < 200, (variant, rec.turns)


def test_a_seeded_batch_has_no_truncated_game():
    # The first 30 games of the truncation benchmark's `final` 3-player run (seed 32): the old heuristic
    # truncated games 17 and 26 of them.
    game = make("wizards-labyrinth", players=3, variant="final")
    records = run_batch(game, ["heuristic"] * 3, 30, seed=32)
    assert [r.seed for r in records if r.truncated] == []
    assert max(r.turns for r in records) < game.max_turns
