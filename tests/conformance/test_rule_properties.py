"""Rule properties (issue 42): every built-in game declares them, they hold over a bounded budget of
random, heuristic and short-search transitions in every variant and player count, and the machinery
that checks them reports a failure with a replayable record.

``scripts/properties.py`` runs the same checks at length (docs/benchmarks.md, "Rule properties").
"""

from __future__ import annotations

import importlib.util
import json

import pytest

from boardlab.engine import make
from boardlab.engine.properties import (
    PropertySet,
    PropertyViolation,
    check_state,
    check_transition,
    properties_of,
    replay,
)
from boardlab.games import BUILTIN

from ..toy import ToyGame
from ..test_concordance import ROOT  # noqa: F401 (the repository root)

_spec = importlib.util.spec_from_file_location("properties_script", ROOT / "scripts" / "properties.py")
script = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(script)

#: Transitions per game and agent mix in CI; the script runs a million and more.
BUDGET = {"random": 3000, "heuristic": 1500, "search": 150}


@pytest.mark.parametrize("gid", sorted(BUILTIN))
def test_every_game_declares_rule_properties(gid):
    props = properties_of(make(gid))
    assert props, f"{gid} declares no rule properties (boardlab/games/<game>/properties.py)"
    assert all(p.rows for p in props)


@pytest.mark.slow
@pytest.mark.parametrize("mix", sorted(BUDGET))
@pytest.mark.parametrize("gid", sorted(BUILTIN))
def test_rule_properties_hold_on_a_bounded_budget(gid, mix):
    res = script.run(gid, BUDGET[mix], 1, 20261207, mix)
    assert res["transitions"] >= BUDGET[mix] and res["games"] >= 1
    # (every variant and player count: each game's tests/<game>/test_rule_properties.py plays them all)
    assert not res["failures"], "\n".join(json.dumps(f) for f in res["failures"])


# -- the machinery, on the toy game -----------------------------------------------------------

TOY_PROPS = PropertySet()


@TOY_PROPS.state("scores never go down", rows=("1.1",))
def _scores_bounded(s):
    assert all(0 <= v <= 20 for v in s.scores), s.scores


@TOY_PROPS.step("a turn adds 1 to 3 to the mover's score", rows=("1.2",))
def _adds(before, action, after):
    s = before.seat
    gained = after.scores[s] - before.scores[s]
    assert 1 <= gained <= 3, (action, gained)


class _ToyWithProps(ToyGame):
    properties = TOY_PROPS


def test_a_property_set_refuses_duplicates_and_missing_rows():
    props = PropertySet()
    props.state("x", rows=("1.1",))(lambda s: None)
    with pytest.raises(ValueError, match="already declared"):
        props.state("x", rows=("1.2",))(lambda s: None)
    with pytest.raises(ValueError, match="concordance rows"):
        props.step("y", rows=())
    assert props.rows() == {"1.1": ["x"]}


def test_a_violation_names_the_property_and_replays():
    game = _ToyWithProps(players=2)
    state = game.new_state(3)
    actions = []
    while not state.is_over():
        before = state.clone()
        action = state.legal_actions()[0]
        state.apply(action)
        actions.append(action)
        check_transition(before, action, state)
    # a planted break: the mover's score jumps by 7
    before = state.clone()
    state.scores[0] += 7
    with pytest.raises(PropertyViolation) as caught:
        check_transition(before, ("roll",), state)
    v = caught.value
    assert v.prop.name in ("a turn adds 1 to 3 to the mover's score", "scores never go down")
    assert "toy:1.2" in str(v) or "toy:1.1" in str(v)
    # crashes inside a property are its failures too, with the error's type
    with pytest.raises(PropertyViolation, match="TypeError"):
        check_state(_Broken(game))


class _Broken:
    def __init__(self, game):
        self.game = game
        self.scores = None  # iterating None raises TypeError


def test_replay_rebuilds_the_failing_transition():
    game = make("dungeons-jewel", players=2)
    state = game.new_state(11)
    actions = []
    for _ in range(12):
        a = state.legal_actions()[-1]
        state.apply(a)
        actions.append(a)
    v = PropertyViolation(next(iter(TOY_PROPS)), game.id, "planted", config=game.config(), seed=11,
                          actions=actions, decision=state.decisions)
    doc = json.loads(json.dumps(v.replay_doc()))
    before, action, after = replay(doc)
    assert action == actions[-1]
    assert after.dumps() == state.dumps()
    assert before.decisions == after.decisions - 1
    assert "replay: config=" in str(v) and "actions=" in str(v)


def test_the_script_reports_a_violation_with_a_replay_record(monkeypatch):
    """A property that fails at once makes the script exit 1 and print a replayable record."""
    gid = "dungeons-jewel"
    cls = type(make(gid))
    failing = PropertySet()

    @failing.state("never more than 0 decisions", rows=("1.1",))
    def _never(s):
        assert s.decisions == 0, f"decisions {s.decisions}"

    monkeypatch.setattr(cls, "properties", failing)
    res = script.run(gid, 10, 1, 5, "random")
    assert res["failures"], res
    f = res["failures"][0]
    assert f["property"] == "never more than 0 decisions" and f["decision"] == 1 and len(f["actions"]) == 1
    before, action, after = replay(f)
    assert after.decisions == 1
