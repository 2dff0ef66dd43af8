"""The compiled core against the Python rules for Blackfire, on a bounded budget: every
configuration of scripts/differential.py (both variants, option sets touching every rule the
options switch), random, heuristic (with personas and weights) and short-ISMCTS players,
compared after every action (legal actions, state document with its digest, views, events,
results); the core's random and heuristic agents choose as Python's; ``play_games`` gives
``runner.play_game``'s records.  The long run is ``scripts/differential.py --game blackfire``."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

core = pytest.importorskip("boardlab_core", reason="boardlab_core (the compiled core) is not installed")

from boardlab.engine import make  # noqa: E402
from boardlab.games.blackfire.core import core_spec  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
GAME = "blackfire"


def _harness():
    spec = importlib.util.spec_from_file_location("differential", ROOT / "scripts" / "differential.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("differential", module)
    spec.loader.exec_module(module)
    return module


diff = _harness()
CONFIGS = diff.CONFIGS[GAME]
MIXES = diff.mixes(GAME)


def test_the_core_lists_blackfire():
    assert GAME in core.GAMES and "dungeons-jewel" in core.GAMES


@pytest.mark.parametrize("mix", range(4))
@pytest.mark.parametrize(("variant", "options"), CONFIGS, ids=[f"{v}-{i}" for i, (v, _) in enumerate(CONFIGS)])
def test_every_action_agrees(variant, options, mix):
    seed = 13 * mix + len(options)
    n = diff.play_and_compare(GAME, 2, variant, options, seed, list(MIXES[mix]), full_every=25)
    assert n > 0


def test_short_ismcts_players_agree():
    n = diff.play_and_compare(GAME, 2, "final", {"max_turns": 12}, 5, ["ismcts:iterations=6", "heuristic"], full_every=10)
    assert n > 0


@pytest.mark.parametrize(("variant", "options"), CONFIGS[:3] + CONFIGS[-2:])
def test_play_games_records_match_the_runner(variant, options):
    total = 0
    for mix in MIXES[:4]:
        total += diff.compare_records(GAME, 2, variant, options, [3, 17], list(mix))
    assert total > 0


def test_the_harness_reports_a_difference():
    """A core fed another configuration than the reference must be caught, with a replayable report."""
    py_game = make(GAME)
    other = core_spec(make(GAME, options={"contest_target": 2, "sorcerer_move": 3}))
    py = py_game.new_state(3)
    c = core.CoreState(GAME, other, 3, 0)
    with pytest.raises(diff.Difference, match="differ"):
        for _ in range(400):
            diff.compare_state(py, c, 2, "probe")
            action = py.legal_actions()[-1]
            py.apply(action)
            c.apply(action)


def test_illegal_action_changes_nothing():
    c = core.CoreState(GAME, core_spec(make(GAME)), 1, 0)
    before = c.to_json()
    for bad in [("place", 9999), ("end",), ("place", True), ("place", "41"), "place", ("move", 0, 1)]:
        with pytest.raises(ValueError):
            c.apply(bad)
    assert c.to_json() == before
    c.apply(list(c.legal_actions()[0]))  # the list form is accepted, as State.apply accepts it
    assert c.to_json() != before


def test_state_document_loads_in_the_reference():
    """The core's document is one the Python engine accepts (history replayed, digest checked)."""
    from boardlab.engine.state import State

    game = make(GAME)
    spec = core_spec(game)
    c = core.CoreState(GAME, spec, 8, 0)
    agents = [core.Agent(GAME, spec, "heuristic", 0, 1), core.Agent(GAME, spec, "random", 1, 2)]
    for _ in range(120):
        if c.is_over():
            break
        c.apply(agents[c.current_seat()].act(c))
    state = State.from_json(json.loads(c.to_json()), game)
    assert json.loads(json.dumps(state.to_json())) == json.loads(c.to_json())


def test_determinization_resamples_only_hidden_tokens():
    """The core's determinization is the Python one: same draws, same document (log and history dropped)."""
    game = make(GAME, options={"tokens_per_player": 2})
    spec = core_spec(game)
    py = game.new_state(21)
    c = core.CoreState(GAME, spec, 21, 0)
    for step in range(30):
        for seat in (0, 1):
            d_py = py.determinize(seat, 99 + step)
            d_core = c.determinize(seat, 99 + step)
            assert json.loads(d_core.fields_json()) == diff._fields(d_py), f"step {step} seat {seat}"
        action = py.legal_actions()[(7 * step) % len(py.legal_actions())]
        py.apply(action)
        c.apply(action)
        if py.is_over():
            break


def test_unsupported_configurations_and_agents_are_refused():
    from boardlab.engine.core import EngineUnavailable, core_reason
    from boardlab.games.blackfire.game import BlackfireGame

    class Edited(BlackfireGame):  # a designer's subclass may change any rule: the core refuses it
        __module__ = BlackfireGame.__module__

    with pytest.raises(ValueError, match="built-in"):
        core_spec(Edited())
    with pytest.raises(EngineUnavailable, match="built-in"):
        Edited().core_spec()
    for spec in ("mcts", "ismcts:eval=game", "heuristic:strength=2", "heuristic:persona=wizard", "heuristic:noise=-1",
                 "heuristic:kill=true", "random:x=1"):
        with pytest.raises(ValueError):
            core.check_agent(GAME, spec)
    for spec in ("random", "heuristic", "heuristic:persona=camper:noise=0.5", "heuristic:stay=-2:token=3", "ismcts",
                 "ismcts:iterations=50:rollout=heuristic"):
        core.check_agent(GAME, spec)
    spec, why = core_reason(make(GAME), ["heuristic:persona=hunter", "ismcts"])
    assert why is None and json.loads(spec)["game"] == GAME


def test_ismcts_searches_as_python():
    """Same algorithm, same parameters, same draws: at a fixed budget the core's ISMCTS picks
    Python's move (issue 43 allows its float arithmetic to differ; a change here means the
    search itself changed: determinization, UCT, playouts or evaluation)."""
    from boardlab.agents import Decision, make_agent

    game = make(GAME)
    spec = core_spec(game)
    py = game.new_state(4)
    c = core.CoreState(GAME, spec, 4, 0)
    players = [make_agent("heuristic", game, s, 60 + s) for s in range(2)]
    checked = 0
    for step in range(120):
        seat = py.current_seat()
        if seat is None:
            break
        if len(py.legal_actions()) > 1 and step % 5 == 0:
            agent = make_agent("ismcts:iterations=30", game, seat, 700 + step)
            mine = core.Agent(GAME, spec, "ismcts:iterations=30", seat, 700 + step)
            assert tuple(mine.act(c)) == agent.act(Decision(py, seat)), f"step {step}"
            assert mine.last_iterations == agent.last_iterations == 30
            checked += 1
        action = players[seat].act(Decision(py, seat))
        py.apply(action)
        c.apply(action)
    assert checked >= 5
