"""A golden playthrough pins the rules and the heuristic agent, and the agent never peeks at hidden tokens."""

from __future__ import annotations

import json
from pathlib import Path

from boardlab.agents import Decision, make_agent
from boardlab.engine import make
from boardlab.agents.runner import play_game
from boardlab.games.blackfire.content import TOKEN_KINDS

GOLDEN = Path(__file__).with_name("golden_2073.json")


def test_golden_playthrough():
    doc = json.loads(GOLDEN.read_text())
    state, record = play_game(make("blackfire"), doc["agents"], doc["seed"], keep_actions=True)
    assert record.actions == doc["actions"]
    assert [list(record.winners), record.reason, record.turns, list(record.roles)] == [doc["winners"], doc["reason"], doc["turns"], doc["roles"]]
    # replaying the recorded actions on a fresh state gives the same end
    replay = make("blackfire").new_state(doc["seed"])
    for a in doc["actions"]:
        replay.apply(a)
    assert replay.dumps() == state.dumps()


def test_heuristic_agent_does_not_depend_on_hidden_token_kinds():
    game = make("blackfire")
    state = game.new_state(77)
    agents = [make_agent("heuristic", game, s, 5) for s in (0, 1)]
    for step in range(120):
        if state.is_over():
            break
        seat = state.current_seat()
        twin = state.clone()
        for n, c in enumerate(sorted(twin.tokens)):
            twin.tokens[c] = TOKEN_KINDS[(TOKEN_KINDS.index(twin.tokens[c]) + 1 + n) % len(TOKEN_KINDS)]
        probe = make_agent("heuristic", game, seat, 1000 + step)
        probe_twin = make_agent("heuristic", game, seat, 1000 + step)
        assert probe.act(Decision(state, seat)) == probe_twin.act(Decision(twin, seat))
        state.apply(agents[seat].act(Decision(state, seat)))
