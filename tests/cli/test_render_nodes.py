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
