"""Restricted play: tags match case-insensitively and accumulate per seat."""

from boardlab.cli.playtest import _parse_restrict
from boardlab.playtest import plan_run
from boardlab.playtest.simulate import RunConfig, _Restricted


def test_repeated_restrict_accumulates():
    assert _parse_restrict(("0=card:a", "0=card:b", "1=card:a")) == {0: ["card:a", "card:b"], 1: ["card:a"]}


def test_restriction_is_case_insensitive():
    class Agent:
        name = "x"

        def act(self, decision):
            return decision.legal

    class State:
        def action_tags(self, a):
            return ("card:Ambush",) if a == "ambush" else ("card:Other",)

    class Decision:
        _state = State()
        legal = ("ambush", "other")

    assert _Restricted(Agent(), ["card:ambush"]).act(Decision()) == ("other",)


def test_restrict_round_trips_as_lists_and_reads_old_strings():
    cfg = plan_run("armies", games=2, agents=["random"], restrict={0: ["card:Ambush", "card:Second Wind"]})
    assert RunConfig.from_json(cfg.to_json()).restrict == {0: ["card:Ambush", "card:Second Wind"]}
    doc = cfg.to_json()
    doc["restrict"] = {"0": "card:a"}
    assert RunConfig.from_json(doc).restrict == {0: ["card:a"]}
