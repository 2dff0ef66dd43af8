"""The shared conformance suite: every built-in game, variant and player count.

A game added to :data:`boardlab.games.BUILTIN` is checked here without any
test of its own.  Each configuration plays a random game for a bounded number of
decisions (every decision of a game shorter than :data:`SHORT`, every 30th of a longer one) and checks,
along the way, the game's invariants after every action,
exact JSON round-trips (with and without the state's history), clone
independence, determinization keeping the seat's view and legal actions, strict
refusal of every kind of bad input, and refusal of tampered state documents.
Every legal-action list must fit the adapters' action bound.  One whole game
per game (``test_plays_to_the_end_through_both_adapters``) runs through
PettingZoo and OpenSpiel side by side, as OpenSpiel's ``random_sim_test`` does,
checking the mask, the length, the utilities and the rewards.
Games keep their own rule scenarios in their own test folders.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardlab.engine import GameOverError, Rng, State, game_class, make
from boardlab.envs.encoding import action_space_size
from boardlab.games import BUILTIN

from . import (
    check_apply_after_game_over,
    check_bad_actions,
    check_json_forms,
    check_no_leak,
    check_tampering,
    text_dumps,
)


def configurations() -> list[tuple[str, str, int]]:
    out = []
    for gid in sorted(BUILTIN):
        cls = game_class(gid)
        for variant in cls.variants:
            for players in range(cls.min_players, cls.max_players + 1):
                out.append((gid, variant.name, players))
    return out


CONFIGS = configurations()
#: A game that ends within this many decisions is checked at every decision (a secret may last one decision,
#: as a pending bid does); a longer one every 30 decisions, over its first 120.
SHORT = 60
IDS = [f"{g}-{v}-{p}p" for g, v, p in CONFIGS]


def walk(game, seed: int, decisions: int, *, every: int = 0, on_step=None) -> tuple[State, list[tuple]]:
    """A random playout of at most ``decisions``; checks invariants after every action."""
    state = game.new_state(seed)
    rng = Rng(seed * 7919 + 1)
    bound = action_space_size(game)
    actions = []
    state.check_invariants()
    while not state.is_over() and state.decisions < decisions:
        if on_step is not None and every and state.decisions % every == 0:
            on_step(state)
        legal = state.legal_actions()
        assert legal, f"no legal actions at decision {state.decisions} but the game is not over"
        assert len(legal) <= bound, f"{len(legal)} legal actions exceed the adapters' bound of {bound}"
        for a in legal:
            assert type(a) is tuple and a and type(a[0]) is str, a
            assert all(type(x) in (int, str) for x in a[1:]), a
        action = legal[rng.below(len(legal))]
        state.apply(action)
        actions.append(action)
        state.check_invariants()
    return state, actions


def check_clone_independence(state: State) -> None:
    if state.is_over():
        return
    before = state.dumps()
    copy = state.clone()
    rng = Rng(state.decisions)
    for _ in range(5):
        if copy.is_over():
            break
        legal = copy.legal_actions()
        copy.apply(legal[rng.below(len(legal))])
    assert state.dumps() == before, "playing on a clone changed the original"
    assert state.clone().dumps() == before


@pytest.mark.parametrize("gid,variant,players", CONFIGS, ids=IDS)
def test_random_playout_conforms(gid, variant, players):
    game = make(gid, players=players, variant=variant)
    seed = 1000 + len(gid) * 31 + players
    leak_rng = Rng(seed)
    counts = {"bad": 0}

    def step(state: State) -> None:
        check_json_forms(state)
        check_clone_independence(state)
        check_no_leak(state, leak_rng)
        counts["bad"] += check_bad_actions(state)

    every = 1 if walk(game, seed, SHORT + 1)[0].decisions <= SHORT else 30
    state, actions = walk(game, seed, 120, every=every, on_step=step)
    step(state)
    assert counts["bad"] > 0
    # replay determinism: the same seed and actions give the same game, byte for byte (list form too)
    again = game.new_state(seed)
    for a in actions:
        again.apply(list(a))
    assert again.dumps() == state.dumps()
    assert check_tampering(state, fields=None) > 0


@pytest.mark.parametrize("gid", sorted(BUILTIN))
def test_apply_after_game_over(gid):
    # a short turn cap makes every game end quickly (truncated): the engine's game-over gate
    game = make(gid, options={"max_turns": 3})
    state, _ = walk(game, 5, 10_000)
    assert state.is_over()
    check_apply_after_game_over(state)
    check_json_forms(state)
    check_bad_actions(state)


@pytest.mark.parametrize("gid", sorted(BUILTIN))
def test_a_natural_finish_refuses_further_actions(gid):
    game = make(gid)
    game.record_events = False  # speed: a whole random game
    for seed in range(3):
        state, _ = walk(game, seed, 5_000)
        if state.is_over() and not state.truncated:
            check_apply_after_game_over(state)
            return
    pytest.skip(f"no random game of {gid} finished by its rules within 5,000 decisions")


@pytest.mark.parametrize("gid", sorted(BUILTIN))
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(seed=st.integers(0, 2**63 - 1), steps=st.integers(0, 60))
def test_any_seed_round_trips_and_refuses_bad_input(gid, seed, steps):
    game = make(gid)
    state, _ = walk(game, seed, steps)
    check_json_forms(state)
    check_bad_actions(state)
    d = state.determinize(0, seed)
    assert d.history() is None  # a determinization is not what its seed and actions give
    text = json.dumps(d.to_json())
    back = State.from_json(json.loads(text), game)
    assert text_dumps(back.to_json()) == text_dumps(json.loads(text))


def test_every_builtin_game_is_covered():
    assert {g for g, _, _ in CONFIGS} == set(BUILTIN)
    assert len(CONFIGS) >= len(BUILTIN)


def test_game_over_error_is_an_illegal_action_error():
    from boardlab.engine import IllegalActionError

    assert issubclass(GameOverError, IllegalActionError)


@pytest.mark.parametrize("gid", sorted(BUILTIN))
def test_plays_to_the_end_through_both_adapters(gid):
    """One whole game per game, as OpenSpiel's ``random_sim_test`` plays: PettingZoo drives it and OpenSpiel
    follows move for move; on the way the mask, the action bound and the length are checked, at the end
    the utilities, the rewards and the engine's results must agree (issue 31)."""
    np = pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo")
    pytest.importorskip("pyspiel")
    from boardlab.envs.openspiel import load
    from boardlab.envs.pettingzoo import env

    seed = 7
    e = env(gid, seed=seed)
    e.reset(seed=seed)
    spiel_game = load(gid, seed=seed)
    spiel = spiel_game.new_initial_state()
    bound = action_space_size(e.game)
    assert spiel_game.num_distinct_actions() == bound
    max_length = spiel_game.max_game_length()
    rng = np.random.default_rng(seed)
    final: dict[str, float] = {}
    ended: dict[str, tuple[bool, bool]] = {}
    steps = 0
    for agent in e.agent_iter(max_iter=10**6):
        obs, reward, term, trunc, _ = e.last()
        seat = e.possible_agents.index(agent)
        if term or trunc:
            final[agent], ended[agent] = reward, (term, trunc)
            assert obs["action_mask"].sum() == 0
            e.step(None)
            continue
        state = e.state
        legal = state.legal_actions()
        mask = obs["action_mask"]
        assert mask.shape == (bound,) and mask.dtype == np.int8
        assert len(legal) <= bound and mask[: len(legal)].all() and not mask[len(legal):].any()
        assert spiel.current_player() == seat == state.current_seat()
        assert spiel.legal_actions() == list(range(len(legal)))
        index = int(rng.choice(np.flatnonzero(mask)))
        spiel.apply_action(spiel.action_id(legal[index]))
        e.step(index)
        steps += 1
        assert steps <= max_length and spiel.move_number() == steps
    state = e.state
    assert state.is_over() and spiel.is_terminal() and steps == state.decisions
    assert spiel.bl.dumps() == state.dumps()  # the same game, move for move
    res = state.results()
    expected = [0.0 if res.truncated or not res.winners else (1.0 if s in res.winners else -1.0)
                for s in range(state.players)]
    assert spiel.returns() == expected
    assert [final[a] for a in e.possible_agents] == expected
    assert set(ended) == set(e.possible_agents) and e.agents == []
    assert all(ended[a] == (not res.truncated, res.truncated) for a in e.possible_agents)
