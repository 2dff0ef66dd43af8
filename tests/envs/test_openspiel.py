"""OpenSpiel adapter: registration, Python MCTS and ISMCTS bots on every game, no leaks."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from boardlab.engine import registry  # noqa: E402
from boardlab.engine.errors import BoardlabError  # noqa: E402
from boardlab.engine.rng import Rng  # noqa: E402
from boardlab.envs.openspiel import BoardlabSpielState, load, register_all, short_name  # noqa: E402

GAMES = registry.game_ids()


def test_every_game_registers_with_its_type_and_info():
    names = register_all()
    assert set(names) >= {short_name(g) for g in GAMES if g in registry.game_ids()}
    for gid in GAMES:
        cls = registry.game_class(gid)
        for n in (cls.min_players, cls.max_players):
            game = load(gid, players=n)
            gt = game.get_type()
            assert game.num_players() == n
            assert gt.min_num_players == cls.min_players and gt.max_num_players == cls.max_players
            want = pyspiel.GameType.Information.IMPERFECT_INFORMATION if (cls.hidden_information or cls.chance) else pyspiel.GameType.Information.PERFECT_INFORMATION
            assert gt.information == want
            assert gt.chance_mode in (pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC, pyspiel.GameType.ChanceMode.DETERMINISTIC)
            assert game.min_utility() == -1.0 and game.max_utility() == 1.0


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("bot", ["mcts", "ismcts"])
def test_python_bots_play_complete_games(game_id, bot):
    cls = registry.game_class(game_id)
    if bot == "ismcts" and not (cls.hidden_information or cls.chance):
        pytest.skip("OpenSpiel's ISMCTS asserts imperfect information; this game has no secret and no chance")
    game = load(game_id, players=cls.default_players, seed=7, max_turns=4)
    rs = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(1, rs)
    if bot == "mcts":
        bots = [mcts.MCTSBot(game, 2.0, 4, evaluator, random_state=rs, solve=False) for _ in range(game.num_players())]
    else:
        bots = [ismcts.ISMCTSBot(game, evaluator, 2.0, 4, random_state=rs) for _ in range(game.num_players())]
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        steps += 1
        assert steps < 5000
    assert len(state.returns()) == game.num_players()


def test_chance_is_the_engines_and_clone_is_independent():
    game = load("toy", players=2, seed=3)
    a = game.new_initial_state()
    b = a.clone()
    act = a.legal_actions()[0]
    a.apply_action(act)
    b.apply_action(act)
    assert a.bl.dumps() == b.bl.dumps()  # same RNG inside the state: same dice
    c = a.clone()
    c.apply_action(c.legal_actions()[0])
    assert c.bl.dumps() != a.bl.dumps()


def test_action_ids_are_stable_across_determinizations():
    game = load("toy", players=2, seed=5)
    s = game.new_initial_state()
    ids = s.legal_actions()
    twin = s.resample_from_infostate(0, lambda: 0.25)
    assert twin.legal_actions() == ids
    assert [s.action_to_string(0, i) for i in ids] == [twin.action_to_string(0, i) for i in ids]


@pytest.mark.parametrize("game_id", GAMES)
def test_observation_and_infostate_strings_leak_nothing(game_id):
    game = load(game_id, seed=11)
    state = game.new_initial_state()
    rs = np.random.RandomState(0)
    for _ in range(25):
        if state.is_terminal():
            break
        for p in range(game.num_players()):
            obs = state.observation_string(p)
            info = state.information_state_string(p)
            twin = BoardlabSpielState(game, state.bl.determinize(p, Rng(int(rs.randint(1 << 30)))))
            assert twin.observation_string(p) == obs
            resampled = state.resample_from_infostate(p, rs.uniform)
            assert resampled.information_state_string(p) == info
            assert resampled.observation_string(p) == obs
        state.apply_action(int(rs.choice(state.legal_actions())))


def test_bad_parameters_are_refused():
    with pytest.raises(BoardlabError):
        load("toy", players=7)
    with pytest.raises(BoardlabError):
        load("toy", variant="nope")
    with pytest.raises(Exception):
        load("toy", colour="blue")
    state = load("toy").new_initial_state()
    with pytest.raises(Exception):
        state.apply_action(123)


def test_clone_is_the_engine_clone_at_any_log_length():
    state = load("dungeons-jewel", seed=2).new_initial_state()
    for _ in range(3000):  # far past the ~335 events where a generic deepcopy hit RecursionError
        state.bl.emit("filler")
    twin = state.clone()
    assert twin.bl is not state.bl and twin.bl._log is state.bl._log  # engine clone shares the immutable log
    twin.apply_action(twin.legal_actions()[0])
    assert twin.bl.dumps() != state.bl.dumps()


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("serialize", [False, True])
def test_random_sim_test_passes(game_id, serialize):
    game = load(game_id, seed=1, max_turns=6)
    pyspiel.random_sim_test(game, num_sims=1, serialize=serialize, verbose=False)


@pytest.mark.parametrize("game_id", GAMES)
def test_compact_action_space_and_serialization_round_trip(game_id):
    game = load(game_id, seed=4)
    assert game.num_distinct_actions() <= 1024
    state = game.new_initial_state()
    rs = np.random.RandomState(1)
    for _ in range(30):
        if state.is_terminal():
            break
        assert len(state.legal_actions_mask()) == game.num_distinct_actions()
        state.apply_action(int(rs.choice(state.legal_actions())))
    text = pyspiel.serialize_game_and_state(game, state)
    _, back = pyspiel.deserialize_game_and_state(text)
    assert back.bl.dumps() == state.bl.dumps() and back.history() == state.history()


def test_illegal_action_raises_spiel_error_and_changes_nothing():
    state = load("dungeons-jewel", seed=3).new_initial_state()
    before = state.bl.dumps()
    for bad in (len(state.legal_actions()), 10**6, -1):
        with pytest.raises(pyspiel.SpielError):
            state.apply_action(bad)
    assert state.bl.dumps() == before and state.history() == []


class _EngineEvaluation:
    """A cheap leaf evaluation (the engine's heuristic), so full games stay CI-sized."""

    def evaluate(self, state):
        if state.is_terminal():
            return np.array(state.returns())
        return np.array([2.0 * state.bl.evaluate(p) - 1.0 for p in range(state.num_players())])

    def prior(self, state):
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


# ISMCTS on Dungeon's Jewel (~1,900 decisions, long infostate strings) takes over a minute; the capped test covers it
@pytest.mark.parametrize("game_id,bot", [(g, "mcts") for g in GAMES] + [(g, "ismcts") for g in GAMES if g != "dungeons-jewel"
                                                     and (registry.game_class(g).hidden_information or registry.game_class(g).chance)])
def test_python_bots_finish_uncapped_games(game_id, bot):
    game = load(game_id, seed=7)
    rs = np.random.RandomState(0)
    ev = _EngineEvaluation()
    bots = [mcts.MCTSBot(game, 2.0, 2, ev, random_state=rs, solve=False) if bot == "mcts" else ismcts.ISMCTSBot(game, ev, 2.0, 2, random_state=rs) for _ in range(game.num_players())]
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    assert len(state.returns()) == game.num_players()
