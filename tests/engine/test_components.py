"""Components: decks, grids with walls, face-down tokens."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.engine import ContentError, Deck, Grid, Rng, Token
from boardlab.engine.components import hidden_pool_resample

from .stats import assert_fits


# -- Deck -------------------------------------------------------------------
def test_draw_takes_the_top_card_and_returns_none_when_exhausted():
    d = Deck(["a", "b", "c"], reshuffle=False)
    r = Rng(0)
    assert [d.draw(r), d.draw(r), d.draw(r)] == ["c", "b", "a"]
    assert d.draw(r) is None and not d.can_draw() and len(d) == 0


def test_discard_reshuffles_in_when_the_draw_pile_is_empty():
    d = Deck(["a", "b"])
    r = Rng(1)
    drawn = d.draw_many(r, 2)
    for c in drawn:
        d.discard(c)
    assert len(d) == 0 and d.can_draw()
    again = d.draw_many(r, 2)
    assert sorted(again) == ["a", "b"]
    assert d.discard_pile == [] and d.draw(r) is None


def test_removed_cards_never_come_back():
    d = Deck(["a", "b", "c"])
    r = Rng(2)
    first = d.draw(r)
    d.remove(first)
    for c in d.draw_many(r, 2):
        d.discard(c)
    seen = d.draw_many(r, 10)
    assert first not in seen and d.removed == [first] and len(seen) == 2


def test_no_reshuffle_deck_keeps_its_discards():
    d = Deck(["a"], reshuffle=False)
    r = Rng(3)
    d.discard(d.draw(r))
    assert d.draw(r) is None and d.discard_pile == ["a"]


def test_put_bottom_and_draw_many_stops_early():
    d = Deck(["x"], reshuffle=False)
    d.put_bottom("y")
    assert d.draw_many(Rng(0), 5) == ["x", "y"]


def test_shuffled_deck_order_is_uniform():
    counts: Counter = Counter()
    r = Rng(11)
    for _ in range(6000):
        d = Deck(["a", "b", "c"])
        d.shuffle(r)
        counts[d.draw(r)] += 1
    assert_fits(counts, {"a": 1 / 3, "b": 1 / 3, "c": 1 / 3})


@given(st.lists(st.integers(0, 9), max_size=12), st.integers(0, 2**32), st.lists(st.sampled_from("drx"), max_size=30))
@settings(max_examples=100, deadline=None)
def test_deck_conserves_cards(cards, seed, ops):
    """Draw/discard/remove move cards between piles; none appear or vanish."""
    d = Deck(cards)
    r = Rng(seed)
    hand: list[int] = []
    for op in ops:
        if op == "d":
            c = d.draw(r)
            if c is not None:
                hand.append(c)
        elif op == "r" and hand:
            d.discard(hand.pop())
        elif op == "x" and hand:
            d.remove(hand.pop())
        assert sorted(d.draw_pile + d.discard_pile + d.removed + hand) == sorted(cards)


# -- Grid -------------------------------------------------------------------
def test_orthogonal_neighbours_only():
    g = Grid(3, 3)
    centre = g.index(1, 1)
    assert sorted(g.neighbours(centre)) == sorted(g.index(x, y) for x, y in [(1, 0), (0, 1), (2, 1), (1, 2)])
    assert sorted(g.neighbours(g.index(0, 0))) == [g.index(1, 0), g.index(0, 1)]
    assert g.xy(g.index(2, 1)) == (2, 1)


def test_walls_block_both_directions():
    g = Grid(3, 3, walls=[((1, 1), (1, 0))])
    a, b = g.index(1, 1), g.index(1, 0)
    assert b not in g.neighbours(a) and a not in g.neighbours(b)
    assert b in g.adjacent(a)  # adjacency ignores walls


def test_blocked_cells_have_no_neighbours_and_are_not_entered():
    g = Grid(3, 1, blocked=[(1, 0)])
    assert g.neighbours(g.index(1, 0)) == ()
    assert g.index(1, 0) not in g.neighbours(g.index(0, 0))
    assert g.index(1, 0) not in list(g.cells())
    assert not g.connected(g.index(0, 0), [g.index(2, 0)])


def test_bfs_distances_respect_walls_and_extra_walls():
    g = Grid(3, 3, walls=[((0, 0), (1, 0))])
    d = g.distances(g.index(0, 0))
    assert d[g.index(1, 0)] == 3  # round the wall: down, right, up
    assert d[g.index(2, 2)] == 4
    extra = {frozenset((g.index(0, 0), g.index(0, 1)))}
    assert g.distances(g.index(0, 0), extra) == {g.index(0, 0): 0}
    assert g.open_neighbours(g.index(0, 0), extra) == []
    assert g.connected(g.index(0, 0), [g.index(2, 2)])
    only_top = g.distances(g.index(0, 0), passable=lambda j: g.xy(j)[0] == 0)
    assert set(only_top) == {g.index(0, y) for y in range(3)}


def test_direction_names():
    g = Grid(3, 3)
    c = g.index(1, 1)
    assert [g.direction(c, g.index(*xy)) for xy in [(1, 0), (2, 1), (1, 2), (0, 1)]] == ["N", "E", "S", "W"]
    with pytest.raises(ValueError):
        g.direction(c, g.index(0, 0))


@pytest.mark.parametrize("kwargs", [
    {"width": 0, "height": 3},
    {"width": 3, "height": 3, "walls": [((0, 0), (2, 2))]},
    {"width": 3, "height": 3, "walls": [((0, 0), (3, 0))]},
    {"width": 3, "height": 3, "blocked": [(5, 5)]},
])
def test_bad_grids_raise_content_errors(kwargs):
    with pytest.raises(ContentError):
        Grid(**kwargs)


# -- Token ------------------------------------------------------------------
def test_face_down_token_is_known_only_to_its_knowers():
    t = Token("monster")
    assert [t.face_for(s) for s in (None, 0, 1, 2)] == [None, None, None, None]
    t.reveal_to(2)
    assert [t.face_for(s) for s in (None, 0, 1, 2)] == [None, None, None, "monster"]
    assert t.known_to(2) and not t.known_to(0) and not t.known_to(None)
    t.flip_up()
    assert [t.face_for(s) for s in (None, 0, 1, 2)] == ["monster"] * 4


def test_hidden_pool_resample_keeps_known_tokens():
    tokens = [Token("pit", known_by=1), Token("gold"), Token("trap")]
    hidden_pool_resample(Rng(4), tokens, 0, ["gold", "trap"])
    assert tokens[0].kind == "pit"
    assert sorted(t.kind for t in tokens[1:]) == ["gold", "trap"]
    with pytest.raises(ValueError):
        hidden_pool_resample(Rng(4), [Token("a"), Token("b")], 0, ["x"])
