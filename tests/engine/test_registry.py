"""The registry: listing games, making one, and clear errors for every bad request."""

from __future__ import annotations

import pytest

from boardlab.engine import (
    BoardlabError, InvalidOptionError, UnknownGameError, UnknownVariantError, game_class, game_ids, make, registry,
)
from boardlab.engine.game import Game, Option, Variant

from ..toy import ToyGame


def test_builtin_and_registered_games_are_listed():
    ids = game_ids()
    assert "dungeons-jewel" in ids and "toy" in ids
    assert ids == sorted(ids)
    assert game_class("toy") is ToyGame


def test_make_applies_players_variant_and_options():
    g = make("toy", players=3, variant="short", options={"max_turns": "7"})
    assert (g.players, g.variant, g.option_values["target"], g.max_turns) == (3, "short", 5, 7)
    assert g.config() == {"game": "toy", "players": 3, "variant": "short", "options": {"max_turns": 7}}  # coerced
    d = make("toy")
    assert (d.players, d.variant, d.option_values["target"], d.max_turns) == (2, "standard", 10, ToyGame.default_max_turns)


def test_user_options_override_the_variant():
    assert make("toy", variant="short", options={"target": 8}).option_values["target"] == 8


@pytest.mark.parametrize("kwargs,error,words", [
    ({"game_id": "no-such-game"}, UnknownGameError, ["no-such-game", "toy"]),
    ({"game_id": "toy", "variant": "nope"}, UnknownVariantError, ["nope", "standard", "short"]),
    ({"game_id": "toy", "options": {"colour": 1}}, InvalidOptionError, ["colour", "target", "max_turns"]),
    ({"game_id": "toy", "options": {"target": "ten"}}, InvalidOptionError, ["target", "int"]),
    ({"game_id": "toy", "options": {"target": 2}}, InvalidOptionError, ["target", ">= 3"]),
    ({"game_id": "toy", "options": {"target": 51}}, InvalidOptionError, ["target", "<= 50"]),
    ({"game_id": "toy", "options": {"target": 2.5}}, InvalidOptionError, ["target"]),
    ({"game_id": "toy", "options": {"target": True}}, InvalidOptionError, ["target"]),
    ({"game_id": "toy", "players": 1}, InvalidOptionError, ["2-4", "1"]),
    ({"game_id": "toy", "players": 5}, InvalidOptionError, ["2-4", "5"]),
    ({"game_id": "toy", "players": "3"}, InvalidOptionError, ["integer"]),
    ({"game_id": "toy", "players": True}, InvalidOptionError, ["integer"]),
])
def test_bad_requests_raise_clear_errors(kwargs, error, words):
    with pytest.raises(error) as info:
        make(**kwargs)
    assert isinstance(info.value, BoardlabError) and isinstance(info.value, ValueError)
    for w in words:
        assert w in str(info.value)


def test_option_coercion_from_cli_strings():
    b = Option("fast", False, "", "bool")
    assert b.coerce("yes") is True and b.coerce("0") is False
    with pytest.raises(InvalidOptionError):
        b.coerce("maybe")
    f = Option("p", 0.5, "", "float", low=0, high=1)
    assert f.coerce("0.25") == 0.25
    with pytest.raises(InvalidOptionError):
        f.coerce("2")
    s = Option("mode", "a", "", "str", choices=("a", "b"))
    assert s.coerce("b") == "b"
    with pytest.raises(InvalidOptionError):
        s.coerce("c")


def test_spec_is_json_describable():
    import json

    spec = ToyGame.spec()
    json.dumps(spec)
    assert spec["id"] == "toy" and [v["name"] for v in spec["variants"]] == ["standard", "short"]
    assert {o["name"] for o in spec["options"]} == {"max_turns", "target"}


def test_register_a_class_by_import_path():
    registry.register("toy-by-path", "tests.toy:ToyGame")
    try:
        assert make("toy-by-path").id == "toy"
    finally:
        registry._extra.pop("toy-by-path", None)
        registry._cache.pop("toy-by-path", None)


def test_variant_file(tmp_path):
    p = tmp_path / "fast.json"
    p.write_text('{"name": "fast", "game": "toy", "base": "short", "overrides": {"target": 4}}')
    g = make("toy", variant=str(p))
    assert g.variant == "short" and g.option_values["target"] == 4
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "toy", "overrides": {"nope": 1}}')
    with pytest.raises(BoardlabError, match="nope"):
        make("toy", variant=str(bad))
