"""The shared conformance checks every registered game and variant must pass.

``tests/conformance/test_games.py`` runs them over every built-in game, variant
and player count (a new game in :data:`boardlab.games.BUILTIN` gets them for
free) and ``scripts/fuzz.py`` runs them at scale.  Game test modules also call :func:`check_playout` (usually from a hypothesis test
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
* an illegal action raises and changes nothing, including a legal action
  with an item of the wrong type (``True`` or ``35.0`` for ``1`` or ``35``);
* the game's own invariants (:meth:`State.check_invariants`) hold after every action, and so
  do its rule properties (:mod:`boardlab.engine.properties`), state and step alike;
* a tampered state document is refused with :class:`SaveFileError`.
"""

from __future__ import annotations

import json
from typing import Any

from boardlab.agents import Decision, make_agent
from boardlab.engine import GameOverError, IllegalActionError, SaveFileError, State, make
from boardlab.engine.properties import PropertyViolation, check_state, check_transition, properties_of
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
    props = properties_of(game)
    step_props = props is not None and props.has_step
    check_state(state, props)
    actions: list[tuple] = []
    step = 0
    while True:
        if step % every == 0:
            _check_state(state, game)
        state.check_invariants()
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
        before = state.clone() if step_props else state
        state.apply(action)
        actions.append(action)
        if props:
            try:
                check_transition(before, action, state, props)
            except PropertyViolation as v:
                v.config, v.seed, v.actions, v.decision = game.config(), seed, actions, state.decisions
                v.how = f"agent {agent!r}"
                raise AssertionError(v.describe()) from v
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


def bad_actions(state: State) -> list:
    """Malformed actions, and legal actions with an item of the wrong type (none of them legal)."""
    out: list = [("no-such-action",), ["no-such-action", 1], "move", 42, (), None, 1.5, {"a": 1}, [[["deep"]]]]
    for action in state.legal_actions()[:6]:
        for i, item in enumerate(action):
            if type(item) is int:
                twins = [float(item), str(item), [item]]
                if item in (0, 1):
                    twins.append(bool(item))
            elif type(item) is str:
                twins = [item.encode(), [item], None]
            else:
                continue
            for twin in twins:
                bad = list(action)
                bad[i] = twin
                out.append(bad)
        out.append([*action, 0])  # one item too many
    legal = {_typed_key(a) for a in state.legal_actions()}
    return [b for b in out if not (isinstance(b, (list, tuple)) and _typed_key(b) in legal)]


def _typed_key(action) -> tuple:
    return tuple((type(x).__name__, repr(x)) for x in action)


def check_bad_actions(state: State) -> int:
    """Illegal or malformed actions (and bad indexes) raise and leave the state unchanged; returns how many were tried."""
    before = state.dumps()
    tried = 0
    over = state.is_over()
    for bad in bad_actions(state):
        try:
            state.apply(bad)  # type: ignore[arg-type]
        except IllegalActionError as exc:
            assert not over or isinstance(exc, GameOverError), (bad, exc)
        else:
            raise AssertionError(f"illegal action {bad!r} was accepted")
        assert state.dumps() == before, f"{bad!r} changed the state"
        tried += 1
    for index in (True, False, 1.0, "0", None, -1, len(state.legal_actions()), 10**9):
        try:
            state.apply_index(index)  # type: ignore[arg-type]
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"action index {index!r} was accepted")
        assert state.dumps() == before, f"index {index!r} changed the state"
        tried += 1
    for rng in ("x", 1.5, None, True):
        try:
            state.determinize(0, rng)  # type: ignore[arg-type]
        except IllegalActionError:
            raise AssertionError("determinize raised IllegalActionError")
        except (ValueError, TypeError):
            pass
        else:
            raise AssertionError(f"determinize accepted rng {rng!r}")
    assert state.dumps() == before
    return tried


def check_apply_after_game_over(state: State) -> None:
    """A finished (or truncated) game refuses every action and index, and stays as it is."""
    assert state.is_over() and state.current_seat() is None and state.legal_actions() == ()
    before = state.dumps()
    for action in (("pass",), ["move", 1], (), "x"):
        try:
            state.apply(action)
        except GameOverError:
            pass
        except IllegalActionError:
            assert not isinstance(action, (list, tuple)), action
        else:
            raise AssertionError(f"{action!r} was accepted after the game ended")
    for index in (0, 1):
        try:
            state.apply_index(index)
        except GameOverError:
            pass
        else:
            raise AssertionError("apply_index was accepted after the game ended")
    assert state.dumps() == before
    res = state.results()
    assert len(res.scores) == state.game.players


def check_json_forms(state: State) -> None:
    """The state reloads exactly with its history (re-derived) and without it (typed and checked)."""
    game = state.game
    doc = json.loads(state.dumps())
    back = State.from_json(json.loads(json.dumps(doc)), game)
    assert back.dumps() == state.dumps()
    doc["history"] = None
    back = State.from_json(doc, game)
    mine = state.to_json()
    theirs = back.to_json()
    mine.pop("history"), theirs.pop("history")
    assert text_dumps(mine) == text_dumps(theirs), "a state without history did not reload exactly"
    assert back.legal_actions() == state.legal_actions()


def check_tampering(state: State, *, fields: int | None = None) -> int:
    """Tampered documents give :class:`SaveFileError` (naming the field where one can be named).

    Every data field replaced by garbage, a changed base number, a changed
    configuration (options or variant; with and without the game object and
    the history) and a nested edit (one number or string deep inside each
    data field, with and without the history).
    """
    game = state.game
    doc = json.loads(state.dumps())
    if doc.get("history") is None:
        return 0
    tried = 0

    def refused(bad: dict, named: str) -> None:
        """Loading the tampered document ``bad`` must raise SaveFileError naming ``named``."""
        nonlocal tried
        try:
            State.from_json(bad, game)
        except SaveFileError as exc:
            assert named in str(exc), (named, str(exc))
        else:
            raise AssertionError(f"tampered field {named!r} loaded silently")
        tried += 1

    for name in sorted(doc["data"])[:fields]:
        bad = json.loads(json.dumps(doc))
        bad["data"][name] = "garbage" if bad["data"][name] != "garbage" else 7
        refused(bad, name)
    for key, value in (("rng", doc["rng"] ^ 1), ("turn", doc["turn"] + 1), ("truncated", not doc["truncated"]),
                       ("rng", "1"), ("turn", 1.0), ("decisions", True), ("stack", {"x": 1}), ("log", "x")):
        bad = json.loads(json.dumps(doc))
        bad[key] = value
        refused(bad, key)
    if doc["history"]["actions"]:
        bad = json.loads(json.dumps(doc))
        bad["history"]["actions"][-1] = ["no-such-action"]
        refused(bad, "history")
    # configuration edits: refused with the game object (naming the field) and without it (the digest)
    others = [v.name for v in type(game).variants if v.name != game.variant]
    edits = [("options", {**doc.get("options", {}), "max_turns": 10**6})] + [("variant", v) for v in others[:1]]
    for key, value in edits:
        bad = json.loads(json.dumps(doc))
        bad[key] = value
        refused(bad, key)
        for history in (bad["history"], None):
            bad["history"] = history
            try:
                State.from_json(json.loads(json.dumps(bad)))
            except SaveFileError:
                tried += 1
            else:
                raise AssertionError(f"an edited {key!r} loaded without a game object (history {'kept' if history else 'dropped'})")
    # nested edits: one number or string deep inside each data field, with and without the history
    for name in sorted(doc["data"])[:fields]:
        for history in (doc["history"], None):
            bad = json.loads(json.dumps(doc))
            bad["history"] = history
            if not _edit_leaf(bad["data"], name):
                continue
            if history is not None:
                refused(bad, name)
            else:
                refused(bad, "")  # the typed checks, the invariants or the digest: any SaveFileError
    return tried


def _edit_leaf(parent: Any, key: Any) -> bool:
    """Change the last int or str found inside ``parent[key]`` (depth first) in place; False if there is none."""
    value = parent[key]
    if type(value) is int:
        parent[key] = value + 1
        return True
    if type(value) is str and key not in ("$r", "$t", "$d", "$s"):
        parent[key] = value + "x"
        return True
    items = list(value.items()) if isinstance(value, dict) else list(enumerate(value)) if isinstance(value, list) else []
    for k, _ in reversed(items):
        if k == "$r":
            continue
        if _edit_leaf(value, k):
            return True
    return False
