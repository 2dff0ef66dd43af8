"""The shared conformance checks every registered game and variant must pass.

Game test modules call :func:`check_playout` (usually from a hypothesis test
over seeds) and :func:`check_bad_actions`.  The checks:

* legal actions are never empty before the end, and are JSON-safe tuples;
* every state round-trips exactly through JSON, and a restored state
  continues identically;
* clones are independent of the original;
* the same seed and agents give the same game, byte for byte;
* no view leaks: resampling what a seat cannot see (``determinize``) leaves
  that seat's view, and the spectator's, unchanged (so a view cannot depend
  on anything hidden from it, provided ``determinize`` resamples it all);
* scenes are JSON-safe and their click targets point at legal actions;
* an illegal action raises and changes nothing.
"""

from __future__ import annotations

import json
from typing import Any

from boardlab.agents import Decision, make_agent
from boardlab.engine import IllegalActionError, State, make
from boardlab.engine.rng import Rng


def _json_eq(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def playout(game, seed: int, agent: str = "random", max_decisions: int = 100000) -> list[State]:
    """Play one game; return the states after each decision (clones)."""
    agents = [make_agent(agent, game, s, seed + s) for s in range(game.players)]
    state = game.new_state(seed)
    states = [state.clone()]
    while not state.is_over() and state.decisions < max_decisions:
        seat = state.current_seat()
        state.apply(agents[seat].act(Decision(state, seat)))
        states.append(state.clone())
    return states


def check_playout(
    game_id: str,
    seed: int,
    *,
    players: int | None = None,
    variant: str | None = None,
    options: dict | None = None,
    agent: str = "random",
    every: int = 1,
    leak_every: int = 5,
    invariants=None,
) -> State:
    """Run every conformance check along one playout; return the final state."""
    game = make(game_id, players=players, variant=variant, options=options or {})
    agents = [make_agent(agent, game, s, seed * 31 + s) for s in range(game.players)]
    state = game.new_state(seed)
    twin = game.new_state(seed)
    rng = Rng(seed ^ 0x5EED)
    step = 0
    while True:
        if step % every == 0:
            _check_state(state, game)
        if invariants is not None:
            invariants(state)
        if step % leak_every == 0:
            check_no_leak(state, rng)
        seat = state.current_seat()
        if seat is None:
            assert state.is_over()
            assert state.legal_actions() == ()
            res = state.results()
            assert len(res.scores) == game.players
            assert all(0 <= w < game.players for w in res.winners)
            break
        legal = state.legal_actions()
        assert legal, f"no legal actions at decision {state.decisions} but game not over"
        for a in legal:
            assert type(a) is tuple and a and isinstance(a[0], str), a
            assert all(type(x) in (int, str) for x in a[1:]), a
            assert isinstance(state.describe(a), str)
        action = agents[seat].act(Decision(state, seat))
        assert action in legal
        state.apply(action)
        twin.apply(list(action))  # the JSON (list) form works too
        step += 1
    assert state.dumps() == twin.dumps(), "same seed and actions gave different games"
    return state


def _check_state(state: State, game) -> None:
    doc = state.to_json()
    text = json.dumps(doc, sort_keys=True)
    restored = State.from_json(json.loads(text), game)
    assert restored.dumps() == state.dumps(), "JSON round-trip is not exact"
    assert restored.legal_actions() == state.legal_actions()
    assert restored.current_seat() == state.current_seat()
    # views are JSON-safe and equal after the round-trip
    for seat in [None, *range(game.players)]:
        v = state.view(seat)
        json.dumps(v)
        assert _json_eq(v, restored.view(seat))
    # the scene of every seat is JSON-safe and its targets point at legal actions
    acting = state.current_seat()
    for seat in [None, *range(game.players)]:
        actions = state.legal_actions() if seat is not None and seat == acting else ()
        scene = game.scene(state.view(seat), actions)
        json.dumps(scene)
        for t in scene.get("targets", []):
            assert 0 <= t["action"] < len(actions), t
    json.dumps(state.metrics())
    # a restored state continues identically (same RNG)
    if not state.is_over():
        a = state.legal_actions()[0]
        c1, c2 = state.clone(), restored
        c1.apply(a)
        c2.apply(a)
        assert c1.dumps() == c2.dumps(), "restored state diverged"
        assert state.dumps() == text_dumps(doc), "clone mutation leaked into the original"


def text_dumps(doc: dict) -> str:
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


def check_no_leak(state: State, rng: Rng) -> None:
    """Resampling hidden information must not change what a seat sees."""
    players = state.game.players
    spectator = state.view(None)["state"]
    for seat in range(players):
        mine = state.view(seat)["state"]
        for _ in range(2):
            d = state.determinize(seat, rng)
            assert _json_eq(d.view(seat)["state"], mine), f"seat {seat}'s view changed under its own determinization"
            assert _json_eq(d.view(None)["state"], spectator), "spectator view changed under determinization"
            assert d.legal_actions() == state.legal_actions() or d.current_seat() != seat


def check_bad_actions(state: State) -> None:
    """Illegal or malformed actions raise and leave the state unchanged."""
    import pytest

    before = state.dumps()
    for bad in (("no-such-action",), ["no-such-action", 1], "move", 42, ()):
        with pytest.raises(IllegalActionError):
            state.apply(bad)  # type: ignore[arg-type]
        assert state.dumps() == before
