"""PettingZoo adapter: the official API and seed tests for every game and variant."""

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from boardlab.engine import registry  # noqa: E402
from boardlab.engine.errors import BoardlabError  # noqa: E402
from boardlab.engine.rng import Rng  # noqa: E402
from boardlab.envs.encoding import encode_view  # noqa: E402
from boardlab.envs.pettingzoo import env  # noqa: E402

CASES = [
    (gid, v.name)
    for gid in registry.game_ids()
    for v in registry.game_class(gid).variants
]


@pytest.mark.parametrize("game_id,variant", CASES)
def test_api_and_seed(game_id, variant):
    cls = registry.game_class(game_id)
    api_test(env(game_id, variant=variant, seed=5, options={"max_turns": 30}), num_cycles=60)
    seed_test(lambda: env(game_id, variant=variant, options={"max_turns": 30}), num_cycles=40)
    # every supported player count builds and resets
    for n in range(cls.min_players, cls.max_players + 1):
        e = env(game_id, players=n, variant=variant, seed=1)
        e.reset(seed=1)
        assert len(e.possible_agents) == n


def play_random(e, seed):
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    final, terms, truncs = {}, {}, {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            final[agent], terms[agent], truncs[agent] = reward, term, trunc
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(rng.choice(legal)))
        steps += 1
    assert set(final) == set(e.possible_agents)
    return steps, final, terms, truncs


def test_truncation_is_kept_apart_from_termination():
    e = env("toy", players=2, options={"max_turns": 2})
    steps, rewards, terms, truncs = play_random(e, 3)
    assert all(truncs.values()) or all(terms.values())
    e = env("toy", players=2, options={"max_turns": 1})  # one turn can never reach 10 points
    _, rewards, terms, truncs = play_random(e, 3)
    assert all(truncs.values()) and not any(terms.values())
    assert set(rewards.values()) == {0}


def test_rewards_at_the_end_are_plus_and_minus_one():
    e = env("toy", players=3)
    _, rewards, terms, _ = play_random(e, 11)
    assert all(terms.values())
    assert sorted(rewards.values()).count(1) >= 1
    assert set(rewards.values()) <= {1, -1}


def test_observation_is_built_from_the_view_only():
    e = env("toy", players=2, seed=4)
    e.reset(seed=4)
    state = e.state
    for seat in range(2):
        obs = e.observe(f"player_{seat}")["observation"]
        twin = state.determinize(seat, Rng(99))
        assert np.array_equal(obs, np.asarray(encode_view(twin.view(seat)), dtype=np.float32))


def test_bad_parameters_are_refused():
    with pytest.raises(BoardlabError):
        env("no-such-game")
    with pytest.raises(BoardlabError):
        env("toy", players=9)
    with pytest.raises(BoardlabError):
        env("toy", variant="nope")
    with pytest.raises(BoardlabError):
        env("toy", seed="abc")
    with pytest.raises(BoardlabError):
        env("toy", render_mode="rgb_array")
    e = env("toy", seed=1)
    e.reset()
    with pytest.raises(BoardlabError):
        e.step(999)


def test_example_script_runs():
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "examples" / "masked_random_dungeons_jewel.py"
    out = subprocess.run([sys.executable, str(script), "--games", "2", "--train", "2"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "mean final score" in out.stdout
