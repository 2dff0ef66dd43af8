from __future__ import annotations

import pytest
from click.testing import CliRunner

from boardlab.cli import build_cli
from boardlab.engine import registry


@pytest.fixture(scope="session")
def cli():
    return build_cli()


@pytest.fixture
def run(cli, tmp_path, monkeypatch):
    """Invoke ``boardlab ARGS`` in-process (in ``tmp_path``); returns the click Result."""
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()

    def invoke(*args, input=None):
        return runner.invoke(cli, [str(a) for a in args], input=input, catch_exceptions=False)

    return invoke


def playable_games() -> list[str]:
    """The toy game, plus The Dungeon's Jewel once it imports."""
    games = ["toy"]
    try:
        registry.game_class("dungeons-jewel")
        games.append("dungeons-jewel")
    except Exception:
        pass
    return games
