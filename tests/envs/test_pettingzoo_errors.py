"""PettingZoo misuse raises boardlab's own errors with one clear line (issue 45, section 3)."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")

from boardlab.engine.errors import BoardlabError, GameOverError, InvalidOptionError  # noqa: E402
from boardlab.envs.pettingzoo import env  # noqa: E402


def _finished():
    e = env("blackfire", seed=1)
    e.reset(seed=1)
    for agent in e.agent_iter(max_iter=100_000):
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
        else:
            e.step(int(obs["action_mask"].nonzero()[0][0]))
    assert e.agents == []
    return e


def test_step_after_every_agent_is_done():
    e = _finished()  # the issue: KeyError
    with pytest.raises(GameOverError, match="every agent is done: call reset"):
        e.step(0)
    with pytest.raises(GameOverError):
        e.step(None)
    e.reset(seed=2)  # and the environment is still usable
    assert e.agents == e.possible_agents


def test_an_unknown_agent_is_named():
    e = env("blackfire", seed=1)
    e.reset(seed=1)
    for call in (e.observe, e.observation_space, e.action_space):  # the issue: ValueError, KeyError
        with pytest.raises(InvalidOptionError, match="no agent named 'player_99'.*player_0, player_1"):
            call("player_99")


def test_an_unknown_keyword_is_named():
    with pytest.raises(InvalidOptionError, match="unknown keyword 'bogus'"):  # the issue: TypeError
        env("blackfire", bogus=1)
    assert env("blackfire", options={}, render_mode="ansi").render_mode == "ansi"


def test_using_it_before_reset_says_so():
    e = env("blackfire")
    with pytest.raises(InvalidOptionError, match=r"call reset\(\) before observe\(\)"):
        e.observe("player_0")
    with pytest.raises(InvalidOptionError, match=r"call reset\(\) before step\(\)"):
        e.step(0)


def test_every_error_is_a_boardlab_error_and_a_value_error():
    assert issubclass(GameOverError, BoardlabError) and issubclass(InvalidOptionError, ValueError)
