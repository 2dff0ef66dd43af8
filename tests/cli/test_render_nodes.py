"""Node boards with positions are drawn as a map."""

from boardlab.render.terminal import scene_text


def test_nodes_with_positions_are_placed_on_a_map():
    scene = {
        "title": "t",
        "boards": [{
            "id": "ring", "kind": "nodes",
            "nodes": [
                {"id": "a", "x": 0.0, "y": 0.0, "label": "NW"},
                {"id": "b", "x": 1.0, "y": 0.0, "label": "NE"},
                {"id": "c", "x": 0.0, "y": 1.0, "label": "SW"},
                {"id": "d", "x": 1.0, "y": 1.0, "label": "SE"},
            ],
            "edges": [["a", "b"], ["b", "d"], ["d", "c"], ["c", "a"]],
            "items": [{"id": "p", "node": "d", "text": "P1"}],
        }],
    }
    lines = [l for l in scene_text(scene).splitlines() if l.strip()]
    top = next(l for l in lines if "NW" in l)
    bottom = next(l for l in lines if "SW" in l)
    assert top.index("NW") < top.index("NE")          # west left of east
    assert lines.index(top) < lines.index(bottom)      # north above south
    assert "P1" in bottom and "SE" not in bottom       # the occupant is drawn in its node's place
    assert bottom.index("SW") < bottom.index("P1")


def test_nodes_without_positions_fall_back_to_a_list():
    scene = {"boards": [{"id": "b", "kind": "nodes", "nodes": [{"id": "a", "label": "Alpha"}, {"id": "z", "label": "Zed"}], "edges": [["a", "z"]]}]}
    text = scene_text(scene)
    assert "Alpha" in text and "-> Zed" in text


def test_a_node_map_never_cuts_an_item_and_names_listed_nodes_by_their_board_label():
    scene = {"boards": [{
        "id": "ring", "kind": "nodes",
        "nodes": [{"id": "r0", "x": 0.0, "y": 0.0, "label": "NT", "title": "North temple (NT)"},
                  {"id": "r1", "x": 1.0, "y": 0.0, "label": "N1", "title": "North focus 1 (N1)"},
                  {"id": "r2", "x": 0.5, "y": 1.0, "label": "N2", "title": "North focus 2 (N2)"}],
        "items": [{"id": "p", "node": "r0", "text": "P1", "badge": "10"},
                  {"id": "s", "node": "r1", "text": "Chi2", "badge": "5"}, {"id": "t", "node": "r1", "text": "T3"}],
    }]}
    lines = scene_text(scene).splitlines()
    top = lines[0]
    assert "P1(1" not in top and "P1" in top and "[2]" in top and "Chi2" not in top  # whole, or a count
    listed = {line.split()[0]: line for line in lines[1:] if line.strip()}
    assert "P1(10)" in listed["NT"] and "North temple (NT)" in listed["NT"]
    assert "Chi2(5)" in listed["N1"] and "T3" in listed["N1"]
