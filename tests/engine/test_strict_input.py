"""Strict input at the engine's door (issue 18): exact action types, transactional apply,
checked ``apply_index``/``determinize``/``make_agent`` arguments."""

from __future__ import annotations

import pytest

from boardlab.agents import make_agent
from boardlab.engine import Game, IllegalActionError, InvalidOptionError, Results, State, UnknownAgentError, make, win_results
from boardlab.games import BUILTIN


def test_float_move_in_the_dungeon_is_illegal_and_changes_nothing():
    # the case: ["move", 35.0] passed (35.0 == 35), stored 35.0 and broke every later apply
    state = make("dungeons-jewel").new_state(0)
    assert ("move", 35) in state.legal_actions()
    before = state.dumps()
    with pytest.raises(IllegalActionError):
        state.apply(["move", 35.0])
    assert state.dumps() == before
    state.apply(["move", 35])  # the real action still works


@pytest.mark.parametrize("game_id", sorted(BUILTIN))
def test_every_int_item_refuses_bool_and_float_twins(game_id):
    game = make(game_id)
    state = game.new_state(3)
    before = state.dumps()
    tried = 0
    for _ in range(40):  # walk a little so that actions with int items come up in every game
        for action in state.legal_actions():
            for i, item in enumerate(action):
                if type(item) is not int:
                    continue
                for twin in (float(item), *((bool(item),) if item in (0, 1) else ())):
                    bad = list(action)
                    bad[i] = twin
                    before = state.dumps()
                    with pytest.raises(IllegalActionError):
                        state.apply(bad)
                    assert state.dumps() == before
                    tried += 1
        if state.is_over():
            break
        state.apply(state.legal_actions()[0])
    assert tried > 0


def test_armies_train_with_a_float_count_is_illegal():
    game = make("armies")
    state = game.new_state(1)
    for _ in range(300):
        trains = [a for a in state.legal_actions() if a[0] == "train" and any(type(x) is int for x in a[1:])]
        if trains:
            break
        state.apply(state.legal_actions()[-1])
    else:
        pytest.skip("no train action came up")
    action = trains[0]
    bad = [float(x) if type(x) is int else x for x in action]
    before = state.dumps()
    with pytest.raises(IllegalActionError):
        state.apply(bad)
    assert state.dumps() == before


def test_blackfire_place_true_is_illegal():
    state = make("blackfire").new_state(0)
    places = [a for a in state.legal_actions() if a[0] == "place" and a[1:] and a[1] in (0, 1)]
    assert places, state.legal_actions()
    before = state.dumps()
    with pytest.raises(IllegalActionError):
        state.apply(["place", bool(places[0][1]), *places[0][2:]])
    assert state.dumps() == before


@pytest.mark.parametrize("bad", [True, False, 1.0, "1", None, [1]])
def test_apply_index_takes_only_ints(bad):
    state = make("toy").new_state(0)
    before = state.dumps()
    with pytest.raises(IllegalActionError):
        state.apply_index(bad)
    assert state.dumps() == before


def test_apply_index_after_game_over_is_game_over():
    from boardlab.engine import GameOverError

    state = make("toy").new_state(0)
    while not state.is_over():
        state.apply_index(0)
    with pytest.raises(GameOverError):
        state.apply_index(0)


@pytest.mark.parametrize("bad", ["x", 1.5, True, None, [1]])
def test_determinize_refuses_a_non_rng(bad):
    state = make("toy").new_state(0)
    with pytest.raises(InvalidOptionError):
        state.determinize(0, bad)


@pytest.mark.parametrize("seat", [2, 99, -1, True, 0.0])
def test_make_agent_refuses_a_seat_the_game_does_not_have(seat):
    with pytest.raises(UnknownAgentError):
        make_agent("random", make("toy", players=2), seat)


@pytest.mark.parametrize("spec", ["mcts:c=1e400", "mcts:c=nan", "ismcts:c=-inf", "mcts:c=1:c=2"])
def test_agent_specs_with_non_finite_or_repeated_parameters_are_refused(spec):
    with pytest.raises(UnknownAgentError):
        make_agent(spec, make("toy"), 0)


# -- transactional apply -----------------------------------------------------------------------
class BuggyState(State):
    """Mutates, then raises a raw TypeError on ("boom",): a rules bug the engine must contain."""

    __slots__ = ("count", "items")

    def _setup(self) -> None:
        self.count = 0
        self.items = [1, 2]
        self.begin_turn()

    def _current_seat(self) -> int:
        return self.count % 2

    def _legal_actions(self):
        return [("step",), ("boom",)]

    def _apply(self, action) -> None:
        self.count += 1
        self.items.append(self.rng.below(10))
        self.emit("half done")
        self.begin_turn()
        if action[0] == "boom":
            raise TypeError("unsupported operand")

    def _is_over(self) -> bool:
        return self.count >= 5

    def _results(self) -> Results:
        return win_results(2, [0], "done")

    def _view(self, seat):
        return {"count": self.count, "items": list(self.items)}


class BuggyGame(Game):
    id = "buggy-test"
    name = "Buggy"
    state_class = BuggyState


@pytest.mark.parametrize("form", [("boom",), ["boom"]])
def test_a_transition_that_raises_leaves_the_state_exactly_as_before(form):
    state = BuggyGame().new_state(4)
    state.apply(("step",))
    before = state.dumps()
    with pytest.raises(IllegalActionError, match="TypeError"):
        state.apply(form)
    assert state.dumps() == before
    assert state.turn == 2 and state.decisions == 1
    state.apply(("step",))  # and the state still plays
    assert state.count == 2


def test_apply_index_is_transactional_too():
    state = BuggyGame().new_state(4)
    before = state.dumps()
    with pytest.raises(IllegalActionError):
        state.apply_index(1)
    assert state.dumps() == before
