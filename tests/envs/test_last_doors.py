"""Issue 31, "strict at the last doors": the adapters' step/apply_action, action-space sizes, RNG state, C++ bots."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

from boardlab.engine import registry  # noqa: E402
from boardlab.engine.errors import BoardlabError, IllegalActionError  # noqa: E402
from boardlab.envs import encoding  # noqa: E402
from boardlab.envs.openspiel import ACTION_BOUNDS, load  # noqa: E402
from boardlab.envs.pettingzoo import env  # noqa: E402

WRONG_TYPES = [1.7, True, False, "1", "abc", [0], (0,), np.float32(0.5), np.float64(1.0), np.bool_(True),
               np.array([0]), None, float("nan"), 10**30, -1, object(), {"a": 1}, b"\x00"]


@pytest.mark.parametrize("action", WRONG_TYPES, ids=[repr(a)[:30] for a in WRONG_TYPES])
def test_pettingzoo_step_refuses_anything_but_a_legal_integer(action):
    # the issue: 1.7, True, "1" and np.float32(0.5) were applied; "abc" and [0] raised bare ValueError/TypeError
    e = env("blackfire", seed=2)
    e.reset(seed=2)
    before = e.state.dumps()
    with pytest.raises(IllegalActionError):
        e.step(action)
    assert e.state.dumps() == before


@pytest.mark.parametrize("seed", [1.7, "3", True, [1], float("nan")])
def test_pettingzoo_reset_takes_only_an_integer_seed(seed):
    e = env("toy", seed=1)
    with pytest.raises(BoardlabError):
        e.reset(seed=seed)
    e.reset(seed=np.int64(4))
    assert e.state.dumps() == env("toy", seed=4).game.new_state(4).dumps()


def test_pettingzoo_step_takes_numpy_integers():
    e = env("blackfire", seed=2)
    e.reset(seed=2)
    e.step(np.int64(0))
    e.step(np.array(0, dtype=np.int32))
    assert e.state.decisions == 2


def test_a_done_agent_takes_only_none():
    e = env("toy", players=2, options={"max_turns": 1})
    e.reset(seed=3)
    rng = np.random.default_rng(0)
    while not (e.terminations[e.agent_selection] or e.truncations[e.agent_selection]):
        e.step(int(rng.choice(np.flatnonzero(e.last()[0]["action_mask"]))))
    with pytest.raises(IllegalActionError):
        e.step(0)
    e.step(None)


@pytest.mark.parametrize("gid", sorted(ACTION_BOUNDS))
def test_pettingzoo_action_space_is_the_games_bound_like_openspiel(gid):
    # the issue: the mask had 1,024 entries for every game
    e = env(gid, seed=1)
    e.reset(seed=1)
    n = ACTION_BOUNDS[gid]
    assert e.action_space(e.agent_selection).n == n
    assert e.last()[0]["action_mask"].shape == (n,)
    assert load(gid).num_distinct_actions() == n


def test_exceeding_the_bound_fails_loudly(monkeypatch):
    monkeypatch.setitem(encoding.ACTION_BOUNDS, "blackfire", 4)  # its first position offers 181 placements
    with pytest.raises(BoardlabError, match="blackfire: 181 legal actions exceed the action space of 4"):
        env("blackfire", seed=1).reset(seed=1)
    game = load("blackfire", seed=1)  # (the game registered earlier keeps its bound: build a new game class)
    state = game.new_initial_state()
    state.get_game().action_bound = 4
    with pytest.raises(pyspiel.SpielError, match="exceed the action space"):
        state.legal_actions()


@pytest.mark.parametrize("action", WRONG_TYPES + [999], ids=[repr(a)[:30] for a in WRONG_TYPES + [999]])
def test_openspiel_apply_action_refuses_wrong_types_and_ids(action):
    game = load("dungeons-jewel", players=2, seed=1)
    state = game.new_initial_state()
    before = str(state)
    for call in (state.apply_action, state.apply_action_with_legality_check, state.child):
        with pytest.raises(pyspiel.SpielError):
            call(action)
        with pytest.raises(IllegalActionError):  # also the engine's own type
            call(action)
    assert str(state) == before and state.history() == []
    state.apply_action(np.int64(0))
    assert state.history() == [0]


def test_openspiel_rng_state_of_game_and_state():
    game = load("dungeons-jewel", players=2, seed=1)
    assert game.get_rng_state() == "1"
    game.set_rng_state("7")
    assert game.get_rng_state() == "7"
    assert game.new_initial_state().bl.dumps() == registry.make("dungeons-jewel", players=2).new_state(7).dumps()
    state = game.new_initial_state()
    a, b = state.clone(), state.clone()
    a.set_rng_state(b.get_rng_state())
    assert a.get_rng_state() == b.get_rng_state() and a.bl.history() is None  # set: the history is dropped
    a.set_rng_state("12345")
    assert a.get_rng_state() == "12345"
    for bad in ("-1", "abc", 7, str(2**64), "1" * 5000, None, "1.5", "٣"):
        with pytest.raises(pyspiel.SpielError):
            state.set_rng_state(bad)
        with pytest.raises(pyspiel.SpielError):
            game.set_rng_state(bad)
    assert game.get_rng_state() == "7"


CXX_BOTS = """
import pyspiel
from boardlab.envs.openspiel import load
game = load("dungeons-jewel", players=2, seed=1)
state = game.new_initial_state()
for make in (lambda: pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, 10, 10, 0, False, False),
             lambda: pyspiel.ISMCTSBot(1, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, 10).step(state)):
    try:
        make()
    except pyspiel.SpielError as exc:
        assert "open_spiel.python.algorithms" in str(exc), exc
    else:
        raise SystemExit("a C++ bot accepted a Python game")
cxx = pyspiel.load_game("tic_tac_toe")
assert pyspiel.MCTSBot(cxx, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, 10, 10, 0, False, False).step(
    cxx.new_initial_state()) in range(9)
print("ok")
"""


def test_cxx_search_bots_refuse_a_python_game_instead_of_crashing():
    # the issue: pyspiel.MCTSBot segfaulted on an adapted game (its step releases the GIL, then clones in Python)
    r = subprocess.run([sys.executable, "-c", CXX_BOTS], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "ok", (r.returncode, r.stderr[-2000:])
