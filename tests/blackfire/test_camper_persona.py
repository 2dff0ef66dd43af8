"""The camper persona (issue 19): while the enemy sorcerer is dead it gathers next to its respawn square,
the behaviour the respawn push was made to prevent; the plain heuristic does not."""

import pytest

import boardlab
from boardlab.agents import make_agent
from boardlab.agents.base import Decision


def respawn_pushes(spec: str, games: int = 12) -> int:
    game = boardlab.make("blackfire")
    pushes = 0
    for seed in range(games):
        state = game.new_state(seed)
        agents = [make_agent(spec, game, s, seed * 7 + s) for s in range(2)]
        steps = 0
        while state.current_seat() is not None and steps < 3000:
            seat = state.current_seat()
            state.apply(agents[seat].act(Decision(state, seat)))
            steps += 1
        pushes += sum(state.metrics().get("rule:push", [0, 0]))
    return pushes


@pytest.mark.seed("blackfire:37.2", "blackfire:91.3")
def test_campers_get_pushed_off_the_respawn_square_more_than_the_heuristic():
    assert respawn_pushes("heuristic:persona=camper") > 2 * max(1, respawn_pushes("heuristic"))


def test_camper_is_a_known_persona_and_the_default_heuristic_is_unchanged():
    game = boardlab.make("blackfire")
    agent = make_agent("heuristic:persona=camper", game, 0, 1)
    assert agent.style["camp"] == 1.0
    assert make_agent("heuristic", game, 0, 1).style["camp"] == 0.0
