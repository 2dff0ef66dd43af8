"""``State.events_since``: a long game's log piece by piece (issue 30: the server sends each move's new events only).

For every registered game, along a seeded random playout, the events after an earlier state's
``log_mark()`` are exactly the tail of the whole log, for every seat and the spectator; a mark
from another line of play is refused with ``None`` rather than answered wrongly.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.engine import InvalidOptionError, make, registry


@pytest.mark.parametrize("game_id", registry.game_ids())
@given(seed=st.integers(0, 2**31 - 1))
@settings(max_examples=4, deadline=None)
def test_events_since_an_earlier_mark_is_the_tail_of_the_log(game_id, seed):
    state = make(game_id).new_state(seed)
    seats = [None, *range(state.game.players)]
    rng = random.Random(seed)
    marks = [(state.log_mark(), {s: len(state.events(s)) for s in seats})]
    for _ in range(60):
        if state.is_over():
            break
        state.apply(rng.choice(state.legal_actions()))
        marks.append((state.log_mark(), {s: len(state.events(s)) for s in seats}))
    for mark, counts in marks[:: max(1, len(marks) // 8)] + [marks[-1]]:
        for s in seats:
            whole = state.events(s)
            assert state.events_since(mark, s) == whole[counts[s]:]
    assert state.events_since(None, seats[-1]) == state.events(seats[-1])


def test_a_mark_from_another_line_of_play_is_refused():
    base = make("toy").new_state(8)
    legal = base.legal_actions()
    assert len(legal) >= 2
    a, b = base.clone(), base.clone()
    a.apply(legal[0])
    b.apply(legal[1])
    assert len(a.events(None)) > len(base.events(None))  # the moves were logged
    assert b.events_since(a.log_mark(), None) is None  # a's log is not b's past
    assert b.events_since(base.log_mark(), None) == b.events(None)[len(base.events(None)):]
    assert base.events_since(a.log_mark(), None) is None  # nor is a later state's mark
    with pytest.raises(InvalidOptionError):
        b.events_since(base.log_mark(), 7)
