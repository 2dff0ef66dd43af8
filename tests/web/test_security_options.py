"""Issue 16, finding 1: options over HTTP are data, never paths."""

from __future__ import annotations

import pytest

from boardlab.engine.registry import game_class

pytestmark = pytest.mark.timeout(60)

PATH_OPTIONS = [
    ("armies", "white_deck"), ("armies", "black_deck"), ("armies", "cards_file"),
    ("blackfire", "map"), ("blackfire", "tokens"), ("dungeons-jewel", "content"),
    ("summoners-quest", "cards_file"), ("summoners-quest", "board_file"),
    ("wizards-labyrinth", "content_dir"),
]


@pytest.mark.parametrize("game,option", PATH_OPTIONS)
@pytest.mark.parametrize("path", ["/etc/passwd", "/nonexistent/file", "/dev/zero"])
def test_path_valued_options_are_refused_over_http_naming_allowed_values(client, tmp_path, game, option, path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-LINE\n")
    for value in (path, str(secret)):
        r = client.post("/api/matches", json={"game": game, "options": {option: value}})
        assert r.status_code == 400, r.text
        detail = r.json()["detail"]
        assert "allowed values" in detail and option in detail
        assert "root:" not in detail and "TOP-SECRET" not in detail and "No such file" not in detail
        assert value not in detail  # the same answer whether or not the path exists


def test_every_path_option_is_declared_with_presets_and_presets_are_accepted(client):
    for game, option in PATH_OPTIONS:
        opt = game_class(game).all_options()[option]
        assert opt.path and opt.presets, (game, option)
        r = client.post("/api/matches", json={"game": game, "options": {option: opt.presets[-1]}})
        assert r.status_code == 201, r.text


def test_variant_files_are_refused_over_http(client):
    r = client.post("/api/matches", json={"game": "armies", "variant": "/etc/v.json"})
    assert r.status_code == 400 and "variant must be one of" in r.json()["detail"], r.text
