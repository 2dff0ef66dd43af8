"""Issue 32: the setup rolls say which die was rolled and name the square; the scene explains the board's marks."""

from __future__ import annotations

import re

from boardlab.engine import make


def _setup_done(seed: int = 3):
    game = make("blackfire")
    st = game.new_state(seed)
    while st.phase == "place":
        st.apply(st.legal_actions()[0])
    return game, st


def test_setup_rolls_name_the_four_sided_die_and_the_square():
    game, st = _setup_done()
    log = [e["text"] for e in st.events(0)]
    castle = game.castle
    red = st.red_start
    assert (f"Rolled {red + 1} on a four-sided die: red starts at start square R{red + 1}"
            f" ({castle.label(castle.red_starts[red])}).") in log
    assert any(t.startswith(f"Rolled {st.exit + 1} on a four-sided die: exit E{st.exit + 1}"
                            f" ({castle.label(castle.exits[st.exit])}) is open") for t in log)
    assert not any(re.search(r"\(d\d\)", t) for t in log)  # no "(d4)" to read as square d4


def test_board_key_explains_every_mark_before_a_unit_stands_on_it():
    game = make("blackfire")
    st = game.new_state(0)
    scene = game.scene(st.view(0), st.legal_actions())
    key = next(p for p in scene["panels"] if p["title"] == "Board key")
    marks = {row[0]: row[1] for row in key["rows"]}
    assert {"G", "R1-R4", "E1-E4", "T", "?", "[3]"} <= set(marks)
    assert "exits" in marks["E1-E4"] and "red start" in marks["R1-R4"]
    game, st = _setup_done()
    scene = game.scene(st.view(0), st.legal_actions())
    key = {row[0]: row[1] for row in next(p for p in scene["panels"] if p["title"] == "Board key")["rows"]}
    assert f"opened E{st.exit + 1} ({game.castle.label(game.castle.exits[st.exit])})" in key["E1-E4"]
