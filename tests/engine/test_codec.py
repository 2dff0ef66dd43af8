"""The codec: exact JSON round-trips of plain game data, copies, and malformed input."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.engine import Deck, SaveFileError, Token, copy_value, decode, encode
from boardlab.engine.state import Prompt

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**60), max_value=2**60),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8),
)
hashables = st.recursive(
    st.one_of(st.integers(-100, 100), st.text(max_size=5)),
    lambda inner: st.tuples(inner, inner),
    max_leaves=4,
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(st.one_of(scalars, hashables), max_size=4).map(tuple),
        st.dictionaries(st.text(max_size=5), inner, max_size=4),
        st.dictionaries(hashables, inner, max_size=4),
        st.sets(st.integers(-50, 50), max_size=5),
    ),
    max_leaves=12,
)


def roundtrip(v):
    return decode(json.loads(json.dumps(encode(v))))


def same(a, b):
    """Equal values of the same types all the way down (a tuple is not a list)."""
    if type(a) is not type(b):
        return False
    if type(a) in (list, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if type(a) is dict:
        return set(a) == set(b) and all(same(a[k], b[k]) for k in a)
    return a == b


@pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisWarning")
@given(values)
@settings(max_examples=100, deadline=None)
def test_encode_decode_is_exact(v):
    assert same(roundtrip(v), v)


@pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisWarning")
@given(values)
@settings(max_examples=60, deadline=None)
def test_copy_value_is_equal_and_independent(v):
    c = copy_value(v)
    assert same(c, v)
    before = json.dumps(encode(v), sort_keys=True)
    if isinstance(c, list):
        c.append("new")
    elif isinstance(c, dict):
        c["$mutated"] = 1
    elif isinstance(c, set):
        c.add(999)
    assert json.dumps(encode(v), sort_keys=True) == before


def test_special_forms():
    assert encode((1, 2)) == {"$t": [1, 2]}
    assert encode({3, 1}) == {"$s": [1, 3]}
    assert encode({1: "a"}) == {"$d": [[1, "a"]]}
    assert encode({"$x": 1}) == {"$d": [["$x", 1]]}
    assert same(roundtrip({"$x": (1, "a")}), {"$x": (1, "a")})


def test_records_round_trip_and_copy():
    deck = Deck(["a", "b", "c"])
    deck.discard("z")
    tok = Token("pit", known_by=0b101)
    p = Prompt(1, "respond", {"attacker": 0})
    back = roundtrip([deck, tok, p])
    assert back[0].draw_pile == ["a", "b", "c"] and back[0].discard_pile == ["z"] and back[0].reshuffle
    assert (back[1].kind, back[1].face_up, back[1].known_by) == ("pit", False, 5)
    assert (back[2].seat, back[2].kind, back[2].data) == (1, "respond", {"attacker": 0})
    c = copy_value(deck)
    c.draw_pile.pop()
    assert deck.draw_pile == ["a", "b", "c"]


@pytest.mark.parametrize("doc", [
    {"$r": "no.such.Record", "v": []},
    {"$r": "boardlab.engine.components.Token", "v": ["pit"]},
    {"$t": "not a list"},
    {"$d": [[1]]},
    {"$d": [[[1, 2], "list keys are unhashable"]]},
    {"$s": [[1]]},
])
def test_malformed_documents_raise_save_file_error(doc):
    with pytest.raises(SaveFileError):
        decode(doc)


def test_unencodable_values_raise_type_error():
    with pytest.raises(TypeError):
        encode(object())
    with pytest.raises(TypeError):
        copy_value(object())
