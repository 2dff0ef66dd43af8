"""The terminal renderer draws any scene: grids with walls, items and blocked cells, node boards, panels."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.engine import game_ids, make
from boardlab.render.terminal import render_scene, scene_text


def grid_scene(**board):
    return {"title": "T", "status": "S", "prompt": "P", "boards": [{"id": "main", "kind": "grid", **board}]}


def rows_of(text):
    return text.splitlines()


def test_grid_walls_items_labels_and_blocked_cells():
    text = scene_text(grid_scene(
        cols=3, rows=2,
        cells=[{"x": 2, "y": 1, "blocked": True}, {"x": 0, "y": 1, "label": "St"}],
        walls=[{"x": 0, "y": 0, "side": "E"}, {"x": 1, "y": 0, "side": "S"}],
        items=[{"id": "a", "x": 1, "y": 0, "text": "P1", "title": "Knight"}, {"id": "t", "x": 2, "y": 0, "face_down": True}],
    ))
    lines = rows_of(text)
    assert lines[0] == "T"
    assert lines[1].split() == ["0", "1", "2"]
    assert lines[2] == "  +---+---+---+"
    assert lines[3] == "0 |   | P1  ? |"  # wall east of (0,0); a face-down token shows as ?
    assert lines[4] == "  +   +---+   +"  # wall south of (1,0)
    assert lines[5] == "1 | St     ###|"  # a label where no item is; a blocked cell
    assert lines[6] == "  +---+---+---+"
    assert "P1  Knight" in text  # legend of titled items
    assert text.rstrip().endswith("S\nP")


def test_wall_sides_are_equivalent_from_both_cells():
    east = scene_text(grid_scene(cols=2, rows=1, walls=[{"x": 0, "y": 0, "side": "E"}]))
    west = scene_text(grid_scene(cols=2, rows=1, walls=[{"x": 1, "y": 0, "side": "W"}]))
    north = scene_text(grid_scene(cols=1, rows=2, walls=[{"x": 0, "y": 1, "side": "N"}]))
    south = scene_text(grid_scene(cols=1, rows=2, walls=[{"x": 0, "y": 0, "side": "S"}]))
    assert east == west and north == south
    assert "0 |   |   |" in east and north.splitlines()[4] == "  +---+"


def test_a_stack_that_does_not_fit_shows_a_count_and_a_legend_line():
    text = scene_text(grid_scene(cols=1, rows=1, items=[{"id": str(i), "x": 0, "y": 0, "text": f"P{i}"} for i in range(6)]))
    assert "[6]" in text.splitlines()[3]
    assert "  0,0: P0 P1 P2 P3 P4 P5" in text.splitlines()


def test_node_board_lists_nodes_items_and_neighbours():
    scene = {"boards": [{"id": "ring", "kind": "nodes",
                         "nodes": [{"id": "r0", "label": "Temple"}, {"id": "r1", "label": "Gate"}, {"id": "r2"}],
                         "edges": [["r0", "r1"], ["r1", "r2"]],
                         "items": [{"id": "s1", "node": "r1", "text": "S1", "badge": "10"}]}]}
    lines = rows_of(scene_text(scene))
    assert any(line.split()[:2] == ["r0", "Temple"] and "-> Gate" in line for line in lines)
    gate = next(line for line in lines if line.split()[:2] == ["r1", "Gate"])
    assert "S1(10)" in gate and "Temple, r2" in gate


def test_panels_with_rows_and_cards():
    scene = {"panels": [{"title": "Player 1", "active": True, "color": "#c00", "rows": [["Health", "2"]],
                         "cards": [{"id": "c", "name": "Rope", "text": "Climb"}, {"id": "d", "face_down": True}]},
                        {"title": "A very long panel title indeed", "rows": [["x", "1"]]}]}
    text = scene_text(scene)
    assert "> Player 1" in text and "Health 2" in text and "Rope: Climb" in text and "(face down)" in text
    assert "A very long panel title indeed" in text


def test_numbered_actions_and_unknown_boards():
    text = scene_text({"boards": [{"id": "x", "kind": "hex"}]}, actions=["go", "stay"])
    assert "unknown kind 'hex'" in text and "1. go" in text and "2. stay" in text


def test_bad_colours_are_ignored():
    scene_text(grid_scene(cols=1, rows=1, items=[{"id": "a", "x": 0, "y": 0, "text": "A", "color": "not-a-colour"}]))


ascii_text = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=6)
item = st.fixed_dictionaries({"id": st.text(max_size=3), "x": st.integers(0, 4), "y": st.integers(0, 4)},
                             optional={"text": st.one_of(ascii_text, st.just("a\nb")), "face_down": st.booleans(), "color": st.text(max_size=7),
                                       "badge": st.integers(0, 99), "title": st.text(max_size=10)})
wall = st.fixed_dictionaries({"x": st.integers(0, 4), "y": st.integers(0, 4), "side": st.sampled_from("NESW")})


@given(st.integers(1, 5), st.integers(1, 5), st.lists(item, max_size=8), st.lists(wall, max_size=8))
@settings(max_examples=30, deadline=None)
def test_any_grid_scene_renders_with_a_fixed_shape(cols, rows, items, walls):
    items = [i for i in items if i["x"] < cols and i["y"] < rows]
    walls = [w for w in walls if w["x"] < cols and w["y"] < rows]
    lines = rows_of(scene_text(grid_scene(cols=cols, rows=rows, items=items, walls=walls)))
    grid = lines[2 : 3 + 2 * rows]
    assert len(grid) == 2 * rows + 1
    assert grid[0].startswith("  +") and grid[-1].startswith("  +")
    assert len({len(line) for line in grid[0::2]}) == 1  # every boundary line has the same width
    assert all(line.rstrip().endswith("|") for line in grid[1::2])


@pytest.mark.parametrize("game_id", [g for g in game_ids()])
def test_every_registered_game_scene_renders(game_id):
    try:
        game = make(game_id)
    except Exception as exc:  # a game being written elsewhere may not import yet
        pytest.skip(f"{game_id} does not load: {exc}")
    state = game.new_state(3)
    for _ in range(10):
        if state.is_over():
            break
        state.apply(state.legal_actions()[0])
    acting = state.current_seat()
    for seat in [None, *range(game.players)]:
        actions = state.legal_actions() if seat == acting else ()
        render_scene(game.scene(state.view(seat), actions))
        assert scene_text(game.scene(state.view(seat), actions))


def test_walls_use_the_terminal_foreground_not_the_scene_colour():
    """A near-black wall colour (256-colour 234 on a dark terminal) would be invisible."""
    import io

    from rich.console import Console

    from boardlab.render.terminal import render_scene

    scene = grid_scene(cols=2, rows=1, walls=[{"x": 0, "y": 0, "side": "E", "color": "#1d1a17"}])
    buf = io.StringIO()
    Console(file=buf, width=80, color_system="256", force_terminal=True).print(render_scene(scene, (), 80))
    out = buf.getvalue()
    assert "\x1b[1m|" in out  # the wall: bold
    assert "38;5;234" not in out


def test_a_piece_whose_badge_does_not_fit_keeps_its_letter_and_gets_a_legend_line():
    """A lone "S(Orb)" in a narrow cell showed "[1]"; now the letter stays, marked "+", the badge in the legend."""
    scene = grid_scene(cols=15, rows=1, col_labels=[chr(97 + i) for i in range(15)], row_labels=["1"],
                       items=[{"id": "s", "x": 3, "y": 0, "text": "S", "badge": "Orb"},
                              {"id": "t", "x": 4, "y": 0, "text": "a", "badge": "INV2 SLOW"}])
    lines = scene_text(scene, width=80).splitlines()
    row = next(line for line in lines if line.startswith("1 "))
    assert "S+" in row and "a+" in row and "[1]" not in row
    assert "  d1: S(Orb)" in lines and "  e1: a(INV2 SLOW)" in lines


def test_near_black_and_near_white_pieces_use_the_terminal_foreground():
    """Armies' black armies (#222) vanished on dark terminals, its white ones (#fff) on light ones."""
    from rich.console import Console
    import io

    scene = grid_scene(cols=3, rows=1, items=[{"id": "b", "x": 0, "y": 0, "text": "B", "color": "#222"},
                                              {"id": "w", "x": 1, "y": 0, "text": "W", "color": "#fff"},
                                              {"id": "r", "x": 2, "y": 0, "text": "R", "color": "#c0392b"}])
    buf = io.StringIO()
    Console(file=buf, width=60, color_system="truecolor", force_terminal=True).print(render_scene(scene))
    out = buf.getvalue()
    assert "38;2;34;34;34" not in out and "38;2;255;255;255" not in out
    assert "38;2;192;57;43" in out  # a real colour is kept


def test_a_cell_label_covered_by_pieces_is_said_in_the_legend():
    """Issue 20: room values and START were hidden under heroes."""
    scene = grid_scene(cols=2, rows=1, col_labels=["A", "B"], row_labels=["1"],
                       cells=[{"x": 0, "y": 0, "label": "START"}, {"x": 1, "y": 0, "label": "+1/-1"}],
                       items=[{"id": "h", "x": 0, "y": 0, "text": "H1", "badge": "9"}])
    lines = scene_text(scene).splitlines()
    assert "  A1: START H1(9)" in lines
    assert not any(line.startswith("  B1:") for line in lines)  # an uncovered label is on the board
