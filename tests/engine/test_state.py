"""The State API on the toy game: validation, game over, truncation, JSON, clone, events, views."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.engine import (
    GameOverError, IllegalActionError, InvalidOptionError, Prompt, Results, SaveFileError, State, make, registry,
)
from boardlab.engine.game import Game
from boardlab.engine.rng import Rng
from boardlab.engine.state import win_results

from ..conformance import check_bad_actions, check_playout


def toy(**kw):
    return make("toy", **kw)


def play_to_end(state, pick=lambda legal: legal[-1]):
    while not state.is_over():
        state.apply(pick(state.legal_actions()))
    return state


def test_new_game_from_seed_and_acting_seat():
    s = toy().new_state(seed=3)
    assert s.current_seat() == 0 and s.turn == 1 and s.decisions == 0 and not s.is_over()
    assert s.legal_actions()[-1] == ("roll",)
    assert all(type(a) is tuple for a in s.legal_actions())
    labels = s.labeled_actions()
    json.dumps(labels)
    assert labels[-1] == {"index": len(labels) - 1, "action": ["roll"], "label": "roll a d3"}


def test_seed_must_be_an_integer():
    with pytest.raises(InvalidOptionError):
        toy().new_state(seed="7")  # type: ignore[arg-type]


def test_apply_accepts_list_form_and_index():
    a, b = toy().new_state(5), toy().new_state(5)
    a.apply(["roll"])
    b.apply_index(len(b.legal_actions()) - 1)
    assert a.dumps() == b.dumps() and a.current_seat() == 1
    with pytest.raises(IllegalActionError):
        a.apply_index(99)


def test_illegal_actions_raise_and_change_nothing():
    s = toy().new_state(1)
    s.apply(("roll",))
    before = s.dumps()
    for bad in [("play", 99), ("roll", 1), ("fly",), [], "roll", None, 3]:
        with pytest.raises(IllegalActionError):
            s.apply(bad)  # type: ignore[arg-type]
        assert s.dumps() == before
    check_bad_actions(s)
    with pytest.raises(IllegalActionError) as info:
        s.apply(("play", 99))
    assert "roll a d3" in str(info.value)  # the message lists what is legal


def test_game_over_results_and_winners():
    s = play_to_end(toy().new_state(2))
    assert s.is_over() and s.current_seat() is None and s.legal_actions() == ()
    res = s.results()
    assert isinstance(res, Results) and not res.truncated and res.winners
    assert res.winners == s.winners() and all(res.scores[w] == 1.0 for w in res.winners)
    assert max(s.scores) >= 10 and all(s.scores[w] == max(s.scores) for w in res.winners)
    with pytest.raises(GameOverError):
        s.apply(("roll",))
    v = s.view(None)
    assert v["over"] and v["acting"] is None and v["results"] == res.to_json()


def test_results_of_an_unfinished_game_raise():
    with pytest.raises(IllegalActionError):
        toy().new_state(0).results()


def test_turn_cap_truncates_and_is_marked_distinct_from_a_finish():
    g = toy(options={"max_turns": 3, "target": 50})
    s = play_to_end(g.new_state(4), pick=lambda legal: ("roll",))
    res = s.results()
    assert s.truncated and res.truncated and res.winners == () and res.scores == (0.0, 0.0)
    assert res.reason == "turn cap reached"
    assert s.turn == 4 and s.decisions == 3  # the cap stops the game as the 4th turn begins
    assert "turn cap" in s.events(None)[-1]["text"]
    finished = play_to_end(toy().new_state(4)).results()
    assert not finished.truncated and finished.reason != res.reason


def test_json_save_and_load_is_exact_and_resumes_identically():
    g = toy(players=3)
    s = g.new_state(9)
    for _ in range(4):
        s.apply(s.legal_actions()[0])
    text = s.dumps()
    back = State.loads(text)
    assert back.dumps() == text and type(back) is type(s)
    assert back.events(1) == s.events(1) and back.view(2) == s.view(2)
    play_to_end(s)
    play_to_end(back)
    assert back.dumps() == s.dumps()
    # with the game object supplied, too
    assert State.from_json(json.loads(text), g).dumps() == text


@pytest.mark.parametrize("mutate", [
    lambda d: d.update(format="other"),
    lambda d: d.pop("rng"),
    lambda d: d["data"].pop("hands"),
    lambda d: d["data"].update(extra=1),
    lambda d: d.update(log=[{"$t": [1, 2]}]),
    lambda d: d.update(turn="x"),
])
def test_malformed_state_documents_raise_save_file_error(mutate):
    doc = toy().new_state(1).to_json()
    mutate(doc)
    with pytest.raises(SaveFileError):
        State.from_json(doc)


def test_loads_rejects_bad_json():
    with pytest.raises(SaveFileError):
        State.loads("{not json")
    with pytest.raises(SaveFileError):
        State.from_json([1, 2])  # type: ignore[arg-type]


def test_clone_is_independent():
    s = toy().new_state(6)
    s.apply(s.legal_actions()[0])
    before = s.dumps()
    c = s.clone()
    assert c.dumps() == before
    play_to_end(c)
    c.hands[0].append(3)
    assert s.dumps() == before
    # and the other way round
    c2 = s.clone()
    s.apply(("roll",))
    assert c2.decisions == s.decisions - 1


def test_events_are_redacted_per_seat():
    s = toy().new_state(8)
    s.apply(next(a for a in s.legal_actions() if a[0] == "play"))  # seat 0 plays and draws
    mine, theirs, public, everything = s.events(0), s.events(1), s.events(None), s.events(None, omniscient=True)
    assert any(e["text"].startswith("You draw") and e.get("private") for e in mine)
    assert not any("You draw" in e["text"] for e in theirs + public)
    assert any(e["text"] == "Seat 1 draws" for e in theirs)
    assert [e["i"] for e in mine] == [e["i"] for e in theirs] == list(range(len(mine)))
    assert any("You draw" in e["text"] for e in everything)
    with pytest.raises(InvalidOptionError):
        s.events(5)


def test_events_are_off_in_fast_simulation():
    g = toy()
    g.record_events = False
    s = play_to_end(g.new_state(1))
    assert s.events(None) == []


def test_views_hold_only_what_a_seat_may_know():
    s = toy(players=3).new_state(2)
    v0, v1, spec = s.view(0), s.view(1), s.view(None)
    assert v0["state"]["hand"] == s.hands[0] and v1["state"]["hand"] == s.hands[1]
    assert spec["state"]["hand"] is None
    assert v0["seat"] == 0 and v0["acting"] == 0 and v0["players"] == 3 and v0["game"] == "toy"
    assert "deck" in v0["state"] and "hands" not in json.dumps(v0)
    for bad in (3, -1, "0", True):
        with pytest.raises(InvalidOptionError):
            s.view(bad)  # type: ignore[arg-type]


def test_determinize_keeps_the_seats_view_and_resamples_the_rest():
    s = toy(players=3).new_state(12)
    s.apply(("roll",))
    mine = s.view(1)
    hidden_variants = set()
    for k in range(20):
        d = s.determinize(1, k)
        assert d.view(1) == mine and d.view(None)["state"] == s.view(None)["state"]
        assert d.events(None) == []  # the log is dropped
        assert sorted(d.hands[0] + d.hands[2] + d.deck.draw_pile) == sorted(s.hands[0] + s.hands[2] + s.deck.draw_pile)
        hidden_variants.add((tuple(d.hands[0]), tuple(d.hands[2])))
    assert len(hidden_variants) > 1, "determinize never changed the hidden hands"
    assert s.determinize(1, Rng(5)).dumps() == s.determinize(1, Rng(5)).dumps()


@given(st.integers(0, 10_000), st.sampled_from([2, 3, 4]), st.sampled_from(["standard", "short"]))
@settings(max_examples=15, deadline=None)
def test_toy_passes_the_conformance_checks(seed, players, variant):
    check_playout("toy", seed, players=players, variant=variant)


# -- prompts and interrupts ---------------------------------------------------
class DuelState(State):
    """Seat 0 attacks; seat 1 may respond (a prompt) and may be interrupted back (a prompt on a prompt)."""

    __slots__ = ("log",)

    def _setup(self):
        self.log = []
        self.begin_turn()

    def _current_seat(self):
        return 0

    def _legal_actions(self):
        if not self.stack:
            return [("attack",), ("end",)]
        top = self.stack[-1]
        if top.kind == "respond":
            return [("block",), ("pass",)]
        return [("counter",), ("pass",)]

    def _apply(self, action):
        self.log.append(action[0])
        if action == ("attack",):
            self.stack.append(Prompt(1, "respond", {"by": 0}))
        elif action == ("block",):
            self.stack.append(Prompt(0, "counter", {"by": 1}))
        elif self.stack:
            self.stack.pop()
            if self.stack and self.stack[-1].kind == "respond":
                self.stack.pop()

    def _is_over(self):
        return bool(self.log) and self.log[-1] == "end"

    def _results(self):
        return win_results(2, [0], "ended")

    def _view(self, seat):
        return {"log": list(self.log)}


class DuelGame(Game):
    id = "duel"
    name = "Duel"
    state_class = DuelState


@pytest.fixture
def duel():
    registry.register("duel", DuelGame)
    yield make("duel")
    registry._extra.pop("duel", None)
    registry._cache.pop("duel", None)


def test_prompts_route_decisions_to_the_prompted_seat(duel):
    s = duel.new_state(0)
    s.apply(("attack",))
    assert s.current_seat() == 1 and s.legal_actions() == (("block",), ("pass",)) and s.view(1)["prompt"] == "respond"
    s.apply(("block",))  # an interrupt on top of the response
    assert s.current_seat() == 0 and s.view(0)["prompt"] == "counter"
    back = State.loads(s.dumps())  # prompts survive JSON
    assert back.stack[-1].data == {"by": 1} and back.current_seat() == 0
    s.apply(("pass",))
    assert s.current_seat() == 0 and s.stack == [] and s.legal_actions() == (("attack",), ("end",))
    c = s.clone()
    c.apply(("attack",))
    assert s.stack == [] and len(c.stack) == 1


def test_a_prompt_can_pass(duel):
    s = duel.new_state(0)
    s.apply(("attack",))
    s.apply(("pass",))
    assert s.stack == [] and s.log == ["attack", "pass"]
