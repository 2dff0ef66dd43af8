"""The compiled core against the Python rules (the reference) on a bounded budget: every
variant, player count and option set of scripts/differential.py, random, heuristic and
short-ISMCTS players, compared after every action (legal actions, state document with its
digest, views, events, results); the core's random and heuristic agents choose as Python's;
``play_games`` gives ``runner.play_game``'s records.  The long run is the script itself."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

core = pytest.importorskip("boardlab_core", reason="boardlab_core (the compiled core) is not installed")

from boardlab.engine import make  # noqa: E402
from boardlab.games.dungeons_jewel.core import core_spec  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _harness():
    spec = importlib.util.spec_from_file_location("differential", ROOT / "scripts" / "differential.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("differential", module)
    spec.loader.exec_module(module)
    return module


diff = _harness()
CONFIGS = diff.CONFIGS["dungeons-jewel"]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(("variant", "options"), CONFIGS, ids=[f"{v}-{i}" for i, (v, _) in enumerate(CONFIGS)])
def test_every_action_agrees(players, variant, options):
    mix = ["heuristic", "random", "heuristic:strength=5", "random"][:players]
    seed = 11 * players + len(options)
    n = diff.play_and_compare("dungeons-jewel", players, variant, options, seed, mix, full_every=40)
    assert n > 0


def test_short_ismcts_players_agree():
    n = diff.play_and_compare("dungeons-jewel", 3, "rulebook", {"max_turns": 30}, 5,
                              ["ismcts:iterations=6", "heuristic", "random"], full_every=10)
    assert n > 0


@pytest.mark.parametrize("players", [2, 4])
def test_play_games_records_match_the_runner(players):
    for variant, options in CONFIGS[:3] + CONFIGS[-1:]:
        total = diff.compare_records("dungeons-jewel", players, variant, options, [3, 17],
                                     ["heuristic", "random", "heuristic:caution=2", "random"][:players])
        assert total > 0


def test_the_harness_reports_a_difference():
    """A core fed another configuration than the reference must be caught, with a replayable report."""
    py_game = make("dungeons-jewel", players=2)
    other = core_spec(make("dungeons-jewel", players=2, variant="concept"))
    py = py_game.new_state(3)
    c = core.CoreState("dungeons-jewel", other, 3, 0)
    with pytest.raises(diff.Difference, match="differs"):
        for _ in range(400):
            diff.compare_state(py, c, 2, "probe")
            action = py.legal_actions()[0]
            py.apply(action)
            c.apply(action)


def test_illegal_action_changes_nothing():
    spec = core_spec(make("dungeons-jewel", players=2))
    c = core.CoreState("dungeons-jewel", spec, 1, 0)
    before = c.to_json()
    for bad in [("move", 999), ("roll",), ("move", True), ("move", "41"), "move", ("dragon", 1)]:
        with pytest.raises(ValueError):
            c.apply(bad)
    assert c.to_json() == before
    c.apply(list(c.legal_actions()[0]))  # the list form is accepted, as State.apply accepts it
    assert c.to_json() != before


def test_state_document_loads_in_the_reference():
    """The core's document is one the Python engine accepts (history replayed, digest checked)."""
    from boardlab.engine.state import State

    game = make("dungeons-jewel", players=3, variant="revised")
    c = core.CoreState("dungeons-jewel", core_spec(game), 8, 0)
    agent = core.Agent("dungeons-jewel", core_spec(game), "heuristic", 0, 1)
    rnd = core.Agent("dungeons-jewel", core_spec(game), "random", 1, 2)
    rnd2 = core.Agent("dungeons-jewel", core_spec(game), "random", 2, 3)
    for _ in range(150):
        if c.is_over():
            break
        c.apply([agent, rnd, rnd2][c.current_seat()].act(c))
    state = State.from_json(json.loads(c.to_json()), game)
    assert json.loads(json.dumps(state.to_json())) == json.loads(c.to_json())


def test_unsupported_configurations_and_agents_are_refused():
    from boardlab.games.dungeons_jewel.game import DungeonsJewel

    class Edited(DungeonsJewel):  # a designer's subclass may change any rule: the core refuses it
        __module__ = DungeonsJewel.__module__

    with pytest.raises(ValueError, match="built-in"):
        core_spec(Edited(players=2))
    for spec in ("mcts", "ismcts:eval=game", "ismcts:iterations=-1", "heuristic:boldness=2", "random:x=1", "persona:explorer"):
        with pytest.raises(ValueError):
            core.check_agent("dungeons-jewel", spec)
    for spec in ("random", "heuristic", "heuristic:strength=5:caution=2.5", "ismcts", "ismcts:iterations=50:rollout=heuristic"):
        core.check_agent("dungeons-jewel", spec)
    with pytest.raises(ValueError):
        core.check_agent("armies", "random")


@pytest.mark.parametrize("players", [2, 4])
def test_ismcts_searches_as_python(players):
    """Same algorithm, same parameters, same draws: at a fixed budget the core's ISMCTS picks
    Python's move.  (Issue 43 allows its float arithmetic to differ; today it does not, so a
    change here means the search itself changed: determinization, UCT, playouts or evaluation.)"""
    from boardlab.agents import Decision, make_agent

    game = make("dungeons-jewel", players=players)
    spec = core_spec(game)
    py = game.new_state(4)
    c = core.CoreState("dungeons-jewel", spec, 4, 0)
    players_ = [make_agent("heuristic", game, s, 60 + s) for s in range(players)]
    checked = 0
    for step in range(160):
        seat = py.current_seat()
        if seat is None:
            break
        if len(py.legal_actions()) > 1 and step % 9 == 0:
            agent = make_agent("ismcts:iterations=30", game, seat, 700 + step)
            mine = core.Agent("dungeons-jewel", spec, "ismcts:iterations=30", seat, 700 + step)
            assert tuple(mine.act(c)) == agent.act(Decision(py, seat)), f"step {step}"
            assert mine.last_iterations == agent.last_iterations == 30
            checked += 1
        action = players_[seat].act(Decision(py, seat))
        py.apply(action)
        c.apply(action)
    assert checked >= 5
