"""The designed castle map and token set: parsing, validation and the map option."""

from __future__ import annotations

import pytest

from boardlab.engine import ContentError, make
from boardlab.games.blackfire.content import DEFAULT_MAP, load_castle, load_tokens, parse_castle

from .helpers import FIELD


@pytest.mark.seed("blackfire:16.1")
def test_designed_castle_has_everything_the_seed_names():
    castle = load_castle()
    assert castle.designed
    assert castle.chars[castle.green_start] == "G"
    assert len(castle.treasure) == 7 and len(castle.red_starts) == 4 and len(castle.exits) == 4
    assert castle.grid.walls and castle.grid.blocked
    x, y = castle.xy(castle.green_start)
    assert (x, y) == (castle.width // 2, castle.height // 2)  # "the marked tile at the center of the map"
    # every red start reaches every exit, and each exit is as far from green's centre as the others, give or take 2
    far = [castle.dist[castle.green_start][e] for e in castle.exits]
    assert max(far) - min(far) <= 2


@pytest.mark.seed("blackfire:62.1", "blackfire:89.2")
def test_designed_token_sets_sum_to_fifteen():
    counts = load_tokens(None, "final")
    assert sum(counts.values()) == 15 and len(counts) == 8
    proto = load_tokens(None, "prototype")
    assert set(proto) == {"teleport", "speed", "slow", "death"} and sum(proto.values()) == 15


def test_map_option_loads_another_file():
    game = make("blackfire", options={"map": str(FIELD)})
    assert game.castle.width == 11 and not game.castle.designed


GOOD = FIELD.read_text()


@pytest.mark.parametrize("text,message", [
    ("name: x\n", "no 'map:'"),
    (GOOD.replace("A . . . . T", "A . . . . X"), "unknown cell character 'X'"),
    (GOOD.replace(". .|. . . G", ". .|. . . ."), "exactly one green start"),
    (GOOD.replace("C . . . . T", "C . . . . ."), "7 treasure rooms"),
    (GOOD.replace(". T . 3", ". T . ."), "red start #3"),
    (GOOD.replace("A . . . . T", ". . . . . T"), "exit #1"),
    (GOOD.replace(". .|. . . G", ". .*. . . G"), "expected '|' or ' '"),
    (GOOD.replace("C . . . . T . . . . D", "C . . . . T . . . . D . ."), "more than the first row"),
    (GOOD.rstrip() + "\n\n", None),
    (GOOD.rstrip() + "\n-\n", "odd line count"),
    (GOOD.replace("B\n\n", "B\nxx\n", 1), "under cell"),
])
def test_malformed_maps_raise_clear_content_errors(text, message):
    if message is None:
        parse_castle(text, "ok.txt")  # trailing blank lines are fine
        return
    with pytest.raises(ContentError, match=message.replace("(", r"\(").replace("*", r"\*")):
        parse_castle(text, "bad.txt")


def test_unreachable_squares_and_inner_exits_are_rejected():
    walled = GOOD.replace(". . . . . . . . # # .\n\nC", ". . . . . . . . # # #\n\nC")
    walled = walled.replace("C . . . . T . . . . D", "C . . . . T . . .|. D")
    with pytest.raises(ContentError, match="cannot be reached"):
        parse_castle(walled, "bad.txt")


@pytest.mark.seed("blackfire:62.1")
def test_bad_files_and_token_sets(tmp_path):
    with pytest.raises(ContentError, match="cannot read castle map"):
        load_castle(tmp_path / "missing.txt")
    bad = tmp_path / "t.json"
    bad.write_text('{"sets": {"final": {"speed": 14}}}')
    with pytest.raises(ContentError, match="14 tokens"):
        load_tokens(bad, "final")
    bad.write_text('{"sets": {"final": {"fireball": 15}}}')
    with pytest.raises(ContentError, match="unknown token kind 'fireball'"):
        load_tokens(bad, "final")
    bad.write_text('{"sets": {"final": {"speed": 15}}}')
    with pytest.raises(ContentError, match="no token set 'prototype'"):
        load_tokens(bad, "prototype")
    bad.write_text("{nope")
    with pytest.raises(ContentError, match="not valid JSON"):
        load_tokens(bad, "final")
    assert DEFAULT_MAP.exists()


def test_no_single_defensive_warrior_can_seal_an_exit_or_a_start():
    """Playtest notes: walls were opened "to prevent defense camping by a warrior"."""
    castle = load_castle()
    grid = castle.grid
    for goal in (*castle.exits, *castle.red_starts):
        for blocker in castle.cells:
            if blocker in (goal, castle.green_start):
                continue
            assert grid.connected(castle.green_start, [goal], passable=lambda c: c != blocker), (castle.xy(goal), castle.xy(blocker))
