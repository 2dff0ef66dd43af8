"""Search agents: legality at every decision (prompts included), determinism, no peeking, parameters."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.agents import Decision, check_spec, make_agent
from boardlab.agents.mcts import ISMCTSAgent, OmniscientMCTSAgent
from boardlab.engine import UnknownAgentError, make
from boardlab.agents.runner import play_game

from .helpers import SealedDecision, load, real_games, states_along

SPECS = [
    "ismcts:iterations=12",
    "mcts:iterations=12",
    "omniscient-mcts:iterations=12",
    "ismcts:iterations=8:depth=3",
    "ismcts:iterations=8:rollout=heuristic",
    "persona:runner",
    "persona:hoarder:samples=2",
    "easy",
    "medium",
]


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("players,teams", [(2, False), (3, False), (4, True)])
def test_agents_return_legal_actions_including_response_windows(spec, players, teams):
    game = make("agents-race", players=players, options={"teams": teams})
    prompts = 0
    for seed in range(2):
        agents = [make_agent(spec, game, s, seed * 10 + s) for s in range(players)]
        state = game.new_state(seed)
        while not state.is_over():
            seat = state.current_seat()
            prompts += bool(state.stack)
            action = agents[seat].act(Decision(state, seat))
            assert action in state.legal_actions()
            state.apply(action)
    assert prompts > 0, "the test game never opened a response window"


@pytest.mark.parametrize("spec", ["ismcts:iterations=10", "mcts:iterations=10", "persona:ones", "omniscient-mcts:iterations=10"])
def test_agents_answer_the_hidden_coin_prompt(spec):
    game = make("agents-guess")
    for seed in range(3):
        _, rec = play_game(game, [spec, spec if not spec.startswith("persona") else "random"], seed)
        assert rec.decisions == 2  # a guess and the response window


@pytest.mark.parametrize("spec", ["ismcts:iterations=15", "mcts:iterations=15", "persona:runner:samples=2"])
def test_same_seed_same_choices(spec):
    game = make("agents-race", players=3)
    a = play_game(game, [spec] * 3, 11, keep_actions=True)[1]
    b = play_game(game, [spec] * 3, 11, keep_actions=True)[1]
    assert a.actions == b.actions


def test_different_agent_seeds_can_differ():
    game = make("toy", players=3)
    runs = {tuple(map(tuple, play_game(game, ["ismcts:iterations=3"] * 3, s, keep_actions=True)[1].actions)) for s in range(4)}
    assert len(runs) > 1


@pytest.mark.parametrize("seed", range(12))
def test_ismcts_decision_does_not_depend_on_the_hidden_coin(seed):
    # Same agent seed, two true states differing only in what seat 0 cannot see:
    # the decisions must be identical.  The omniscient baseline, which does read
    # the coin, always guesses it (so the test would catch an agent that peeks).
    game = make("agents-guess")
    states = {}
    s = 0
    while len(states) < 2:
        st0 = game.new_state(s)
        states.setdefault(st0.coin, st0)
        s += 1
    choices = set()
    for coin, state in states.items():
        agent = make_agent("ismcts:iterations=30", game, 0, seed)
        choices.add(agent.act(Decision(state, 0)))
        cheat = make_agent("omniscient-mcts:iterations=30", game, 0, seed)
        assert cheat.act(Decision(state, 0)) == ("guess", coin)
    assert len(choices) == 1


def test_ismcts_wins_half_and_omniscient_all_of_the_coin_guesses():
    game = make("agents-guess")
    fair = sum(play_game(game, ["ismcts:iterations=20", "first"], s)[1].scores[0] for s in range(120))
    cheat = sum(play_game(game, ["omniscient-mcts:iterations=20", "first"], s)[1].scores[0] for s in range(40))
    assert 40 <= fair <= 80  # binomial(120, 0.5): outside this range has probability < 0.05%
    assert cheat == 40


@pytest.mark.parametrize("spec", ["ismcts:iterations=8", "mcts:iterations=8", "persona:ones", "easy", "hard"])
def test_agents_only_use_determinizations(spec):
    game = make("agents-guess")
    for seed in range(3):
        state = game.new_state(seed)
        agent = make_agent(spec, game, 0, seed)
        assert agent.act(SealedDecision(state, 0)) in state.legal_actions()


@pytest.mark.parametrize("game_id", ["toy", *real_games()])
def test_ismcts_on_real_games_reads_only_determinizations(game_id):
    game = load(game_id)
    states = states_along(game, 3, every=7, limit=120)
    for i, state in enumerate(states[:6]):
        seat = state.current_seat()
        agent = make_agent("ismcts:iterations=6:depth=20", game, seat, i)
        assert agent.act(SealedDecision(state, seat)) in state.legal_actions()


def test_omniscient_agent_is_labelled():
    assert OmniscientMCTSAgent.omniscient is True
    assert ISMCTSAgent.omniscient is False
    assert make_agent("hard", make("toy"), 0).omniscient is False


def test_depth_cutoff_uses_evaluate():
    # With depth=1 the only signal is evaluate(): stepping 2 is valued highest.
    game = make("agents-race")
    state = game.new_state(1)
    agent = make_agent("ismcts:iterations=60:depth=1", game, 0, 5)
    assert agent.act(Decision(state, 0)) == ("step", 2)


def test_time_budget_runs_at_least_one_iteration():
    game = make("toy")
    agent = make_agent("ismcts:time=0.01", game, 0, 1)
    state = game.new_state(2)
    assert agent.act(Decision(state, 0)) in state.legal_actions()
    assert agent.last_iterations >= 1
    assert agent.iterations == 0  # a time budget alone has no iteration cap


def test_search_does_not_change_the_true_state_or_event_recording():
    game = make("toy")
    state = game.new_state(4)
    before = state.dumps()
    make_agent("ismcts:iterations=40", game, 0, 1).act(Decision(state, 0))
    make_agent("omniscient-mcts:iterations=40", game, 0, 1).act(Decision(state, 0))
    assert state.dumps() == before
    assert game.record_events is True


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:iterations=-1",
        "ismcts:iterations=0",
        "ismcts:rollout=greedy",
        "ismcts:c=-1",
        "ismcts:bogus=1",
        "mcts:depth=x",
        "persona",
        "persona:nobody",
        "hard:iterations=5",
        "toy-master",
    ],
)
def test_bad_specs_are_rejected_up_front(spec):
    game = make("agents-race")
    with pytest.raises(UnknownAgentError):
        check_spec(spec, game)
    with pytest.raises(UnknownAgentError):
        make_agent(spec, game, 0)


def test_heuristic_rollout_needs_a_heuristic():
    with pytest.raises(UnknownAgentError, match="no heuristic"):
        make_agent("ismcts:rollout=heuristic", make("toy"), 0)


def test_unknown_persona_lists_the_games_personas():
    with pytest.raises(UnknownAgentError, match="personas: hoarder, runner"):
        make_agent("persona:berserker", make("agents-race"), 0)
    with pytest.raises(UnknownAgentError, match="no personas"):
        make_agent("persona:berserker", make("toy"), 0)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_personas_follow_their_weights(seed):
    game = make("agents-guess")
    state = game.new_state(seed)
    assert make_agent("persona:ones:noise=0", game, 0, seed).act(Decision(state, 0)) == ("guess", 1)
    assert make_agent("persona:zeros:noise=0", game, 0, seed).act(Decision(state, 0)) == ("guess", 0)


def test_default_budget_is_capped_for_humans_and_explicit_iterations_are_exact():
    game = make("toy")
    default = make_agent("ismcts", game, 0)
    assert default.iterations == 200 and default.time_limit == 2.0
    exact = make_agent("ismcts:iterations=50", game, 0)
    assert exact.iterations == 50 and exact.time_limit == 0


def test_rollouts_default_to_the_games_heuristic():
    assert make_agent("ismcts", make("agents-race"), 0)._rollout_agents is not None
    assert make_agent("ismcts:rollout=random", make("agents-race"), 0)._rollout_agents is None
    assert make_agent("ismcts", make("toy"), 0)._rollout_agents is None
    assert make_agent("ismcts", make("agents-race"), 0)._prior_agent is not None
    assert make_agent("ismcts:prior=none", make("agents-race"), 0)._prior_agent is None


class CountingDecision(Decision):
    """A Decision that counts the determinizations it hands out."""

    __slots__ = ("samples",)

    def __init__(self, state):
        super().__init__(state)
        self.samples = 0

    def sample(self, rng):
        self.samples += 1
        return super().sample(rng)


@pytest.mark.parametrize("worlds", ["paired", "fresh"])
def test_paired_worlds_reuse_the_kth_world_for_every_root_action(worlds):
    """Paired: a root action's k-th visit plays world k, so only as many worlds are drawn as the most
    visited action has visits.  Fresh: one determinization per iteration."""
    game = make("agents-race", players=2)
    agent = make_agent(f"ismcts:iterations=90:worlds={worlds}", game, seat=0, seed=3)
    decision = CountingDecision(game.new_state(5))
    root = agent.search(decision, agent.rng)
    visits = [n.visits for n in root.kids[0].values()]
    assert sum(visits) == 90
    if worlds == "paired":
        assert decision.samples == max(visits) < 90
    else:
        assert decision.samples == 90



def test_playout_variety_draws_the_games_listed_parameters_per_playout():
    game = make("agents-race", players=2)
    game.playout_variety = {"margin": (1, 5)}
    seen = set()
    for seed in range(6):
        agent = make_agent("ismcts:iterations=12", game, seat=0, seed=seed)
        assert agent._variety == [("margin", (1, 5))]
        agent.search(Decision(game.new_state(seed)), agent.rng)
        seen |= {a.params["margin"] for a in agent._rollout_agents}
    assert seen == {1, 5}
    plain = make_agent("ismcts:iterations=12:variety=none", game, seat=0, seed=1)
    plain.search(Decision(game.new_state(1)), plain.rng)
    assert plain._variety == [] and {a.params["margin"] for a in plain._rollout_agents} == {3}
    a = make_agent("ismcts:iterations=30", game, seat=0, seed=4).act(Decision(game.new_state(2)))
    b = make_agent("ismcts:iterations=30", game, seat=0, seed=4).act(Decision(game.new_state(2)))
    assert a == b
    with pytest.raises(UnknownAgentError, match="variety"):
        make_agent("ismcts:variety=some", game, seat=0)


def test_games_without_variety_keep_the_heuristics_defaults():
    agent = make_agent("ismcts:iterations=10", make("agents-race"), seat=0)
    assert agent._variety == []


def _games_with_variety() -> list[str]:
    from boardlab.engine import registry

    return [g for g in real_games() if getattr(registry.game_class(g), "playout_variety", {})]


@pytest.mark.parametrize("game_id", _games_with_variety())
def test_declared_playout_variety_names_real_heuristic_parameters(game_id):
    """A game's playout_variety must name parameters its heuristic has, each with values to draw."""
    game = load(game_id)
    variety = game.playout_variety
    from boardlab.agents import agent_class

    heuristic = agent_class("heuristic", game)
    for key, values in variety.items():
        assert key in heuristic.defaults, key
        assert len(values) >= 2 and all(type(v) is type(heuristic.defaults[key]) for v in values)
    agent = make_agent("ismcts:iterations=8", game, seat=0, seed=1)
    assert [k for k, _ in agent._variety] == sorted(variety)


def test_unpruned_grows_with_the_iterations():
    from boardlab.agents.mcts import unpruned

    counts = [unpruned(n) for n in range(400)]
    assert counts[0] == 3 and counts == sorted(counts) and counts[-1] == 12 and counts.count(3) == 4


@pytest.mark.parametrize("worlds", ["paired", "fresh"])
def test_a_ranking_prior_restricts_the_root_to_its_best_actions(worlds):
    """With a prior that ranks the legal actions, the root searches only the first unpruned(n) of them;
    widen=none searches them all."""
    from boardlab.agents.mcts import unpruned

    game = load("blackfire")
    state = next(s for s in states_along(game, 3) if len(s.legal_actions()) >= 12)
    seat = state.current_seat()
    searched = {}
    for widen in ("auto", "none"):
        agent = make_agent(f"ismcts:iterations=12:worlds={worlds}:widen={widen}", game, seat=seat, seed=5)
        agent._prior_agent.ranked = lambda d: list(reversed(d.legal))
        hint, order = agent._prior(Decision(state))
        root = agent.search(Decision(state), agent.rng, hint, order)
        searched[widen] = set(root.kids[seat])
        if widen == "auto":
            assert order == list(reversed(state.legal_actions())) and hint == order[0]
            assert searched["auto"] <= set(order[: unpruned(11)]) and hint in searched["auto"]
        else:
            assert order is None
    assert len(searched["none"]) > unpruned(11)
    move = make_agent("ismcts:iterations=12", game, seat=seat, seed=5)
    move._prior_agent.ranked = lambda d: list(reversed(d.legal))
    assert move.act(Decision(state)) in set(list(reversed(state.legal_actions()))[: unpruned(11)])


class FirstLegal:
    """A stand-in playout policy that always picks the first legal action and records its choices."""

    def __init__(self):
        self.choices = []
        self.rng = None
        self.params = {}

    def act(self, decision):
        self.choices.append(decision.legal[0])
        return decision.legal[0]


def _first_keys_below_root(root):
    out, stack = [], [(root, True)]
    while stack:
        node, is_root = stack.pop()
        for table in node.kids.values():
            if not is_root and len(table) > 0:
                out.append(next(iter(table)))
            stack.extend((child, False) for child in table.values())
    return out


def test_expand_heuristic_tries_the_playout_policys_reply_first():
    game = make("agents-race", players=3)
    agent = make_agent("ismcts:iterations=120:expand=heuristic:rollout=random", game, seat=0, seed=4)
    guides = [FirstLegal() for _ in range(game.players)]
    agent._guide_agents = guides
    root = agent.search(Decision(game.new_state(2)), agent.rng)
    chosen = {a for g in guides for a in g.choices}
    firsts = _first_keys_below_root(root)
    assert chosen and firsts
    assert all(a in chosen for a in firsts)  # every node below the root first expanded the policy's choice
    # the default expands in random order: the first children are not all first-legal choices
    plain = make_agent("ismcts:iterations=120:rollout=random", game, seat=0, seed=4)
    assert plain._guide_agents is None
    assert not all(a in chosen for a in _first_keys_below_root(plain.search(Decision(game.new_state(2)), plain.rng)))


def test_expand_parameter_is_checked():
    with pytest.raises(UnknownAgentError, match="expand must be"):
        check_spec("ismcts:expand=greedy", make("agents-race"))
    with pytest.raises(UnknownAgentError, match="no heuristic"):
        make_agent("ismcts:expand=heuristic", make("toy"), 0)
    agent = make_agent("ismcts:expand=heuristic", make("agents-race"), 0)
    assert agent._guide_agents is agent._rollout_agents  # heuristic playouts guide the expansion too


def _decisions_with_a_choice(game, seed, every, count):
    states = [s for s in states_along(game, seed, every=every) if len(s.legal_actions()) > 1]
    return [Decision(s, s.current_seat()) for s in states[:count]]


@pytest.mark.parametrize("game_id, worlds", [("agents-race", "paired"), ("agents-race", "fresh"),
                                             ("dungeons-jewel", "paired"), ("summoners-quest", "paired")])
def test_stop_sure_makes_exactly_the_whole_budgets_choice_with_fewer_iterations(game_id, worlds):
    """stop=sure ends a search only once no other root action can overtake the leader, so from the
    same random state it picks what the whole budget picks; the iterations it saves are counted."""
    game = load(game_id, players=2)
    decisions = [d for seed in (4, 5) for d in _decisions_with_a_choice(game, seed, 2, 8)]
    assert len(decisions) >= 8
    saved = 0
    for k, d in enumerate(decisions):
        full = make_agent(f"ismcts:iterations=60:worlds={worlds}", game, d.seat, seed=k)
        sure = make_agent(f"ismcts:iterations=60:worlds={worlds}:stop=sure", game, d.seat, seed=k)
        assert sure.act(d) == full.act(d), (game_id, k)
        assert full.last_iterations == 60 and 1 <= sure.last_iterations <= 60
        saved += 60 - sure.last_iterations
    assert saved > 0  # a clear decision ends early


def test_stop_sure_stops_exactly_when_the_lead_exceeds_the_iterations_left():
    """The search runs until the leader's margin over every other root action exceeds the
    iterations left, and no longer: a search cut one iteration shorter had no such margin."""
    game = load("dungeons-jewel", players=2)
    stopped = 0
    for k, d in enumerate(_decisions_with_a_choice(game, 6, 3, 10)):
        agent = make_agent("ismcts:iterations=80:stop=sure", game, d.seat, seed=k)
        root = agent.search(d, agent.rng)
        done = agent.last_iterations
        if done == 80:
            continue
        stopped += 1
        first, second = (sorted((n.visits for n in root.kids[d.seat].values()), reverse=True) + [0, 0])[:2]
        assert first - second > 80 - done
        # the same search one iteration shorter (same seed): its margin was not yet enough
        shorter = make_agent(f"ismcts:iterations={done - 1}", game, d.seat, seed=k)
        short = shorter.search(d, shorter.rng)
        f1, s1 = (sorted((n.visits for n in short.kids[d.seat].values()), reverse=True) + [0, 0])[:2]
        assert f1 - s1 <= 80 - (done - 1)
    assert stopped >= 2


def test_stop_parameter_is_checked():
    with pytest.raises(UnknownAgentError, match="stop must be one of none, sure"):
        check_spec("ismcts:stop=maybe", make("toy"))


def test_only_searches_the_named_kinds_and_plays_the_heuristic_elsewhere():
    from boardlab.agents import agent_class
    from boardlab.engine.rng import derive_seed

    game = make("blackfire")
    searched = played = 0
    for seed in range(3):
        agent = make_agent("ismcts:iterations=10:only=stance", game, 0, seed=5)
        twin = agent_class("heuristic", game)(game, 0, derive_seed(5, 80))  # the heuristic it plays with
        others = make_agent("heuristic", game, 1, 1)
        state = game.new_state(seed)
        while not state.is_over():
            seat = state.current_seat()
            d = Decision(state, seat)
            if seat == 1:
                state.apply(others.act(d))
                continue
            action = agent.act(d)
            if len(d.legal) > 1 and d.legal[0][0] == "stance":
                searched += 1
                assert agent.last_iterations == 10  # the search chose; its heuristic did not act
            elif len(d.legal) > 1:
                played += 1
                assert agent.last_iterations == 0
                assert action == twin.act(d)
            state.apply(action)
    assert searched >= 3 and played >= 3


@pytest.mark.parametrize("spec,match", [
    ("ismcts:only=+", "decision kinds joined by"),
    ("ismcts:only=move++end", "decision kinds joined by"),
    ("ismcts:only=3", "decision kinds joined by"),
])
def test_only_parameter_is_checked(spec, match):
    with pytest.raises(UnknownAgentError, match=match):
        check_spec(spec, make("blackfire"))


def test_only_needs_a_heuristic():
    with pytest.raises(UnknownAgentError, match="no heuristic"):
        check_spec("ismcts:only=play", make("toy"))
