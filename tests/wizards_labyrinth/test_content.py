"""Designed content: the data files load, are marked designed, and malformed files raise ContentError."""

from __future__ import annotations

import json
import shutil

import pytest

from boardlab.engine import ContentError, make
from boardlab.games.wizards_labyrinth.content import DATA, load_content


def test_designed_content_loads_and_is_marked():
    c = load_content()
    for name in ("wizard_deck.json", "loot_deck.json", "tiles.json"):
        assert json.loads((DATA / name).read_text())["designed"] is True
    levels = {card.level for card in c.wizard_cards.values() if card.type == "monster"}
    assert levels == {1, 2, 3, 4, 5}
    one_mana = [n for n in c.wizard_deck if c.wizard_cards[n].type == "monster" and c.wizard_cards[n].cost == 1]
    assert len(one_mana) >= 8  # "adding alot of creatures that costs 1 mana"
    assert {"Frost Bolt", "Switcheroo", "Whirlwind"} <= set(c.wizard_cards)
    assert any(card.type == "trap" for card in c.wizard_cards.values())
    assert {"heal", "boost", "sprint"} == {x.effect for x in c.loot_cards.values() if x.type == "consumable"}
    assert {"sword", "boots"} <= {x.slot for x in c.loot_cards.values()}
    assert len(c.rooms) >= 47 and len(c.keys) == 3
    assert any(d < 0 for d, m in c.rooms) and any(m < 0 for d, m in c.rooms)


def test_every_tile_has_a_positive_or_negative_value_on_each_symbol():
    """ "Each tile has a Card Draw symbol and a Mana Wheel symbol and a positive or negative value in each
    of the symbols" (ledger 42): no designed room or key tile has a 0, and the rooms keep their average
    (slightly in the wizard's favour)."""
    c = load_content()
    assert len(c.rooms) == 47
    assert all(d != 0 and m != 0 for d, m in c.rooms + c.keys)
    assert sum(d for d, _ in c.rooms) == 21 and sum(m for _, m in c.rooms) == 15


def _copy(tmp_path):
    for name in ("wizard_deck.json", "loot_deck.json", "tiles.json"):
        shutil.copy(DATA / name, tmp_path / name)
    return tmp_path


@pytest.mark.parametrize("file,edit,message", [
    ("wizard_deck.json", lambda d: d["cards"][0].update(level=9), "level"),
    ("wizard_deck.json", lambda d: d["cards"][0].update(type="dragon"), "type"),
    ("wizard_deck.json", lambda d: d["cards"].append(dict(d["cards"][0])), "twice"),
    ("wizard_deck.json", lambda d: d["cards"][-1].update(effect="teleport"), "spell effect"),
    ("loot_deck.json", lambda d: d["cards"][3].update(slot="helmet"), "slot"),
    ("loot_deck.json", lambda d: d["cards"][0].update(amount="lots"), "integer"),
    ("tiles.json", lambda d: d["keys"].pop(), "exactly 3"),
    ("tiles.json", lambda d: d.pop("rooms"), "rooms"),
])
def test_malformed_files_raise_content_error(tmp_path, file, edit, message):
    base = _copy(tmp_path)
    doc = json.loads((base / file).read_text())
    edit(doc)
    (base / file).write_text(json.dumps(doc))
    with pytest.raises(ContentError, match=message):
        load_content(str(base))


def test_not_json_and_too_few_rooms(tmp_path):
    base = _copy(tmp_path)
    (base / "loot_deck.json").write_text("{oops")
    with pytest.raises(ContentError, match="not valid JSON"):
        load_content(str(base))
    base = _copy(tmp_path)
    doc = json.loads((base / "tiles.json").read_text())
    doc["rooms"] = [{"draw": 0, "mana": 0, "copies": 30}]
    (base / "tiles.json").write_text(json.dumps(doc))
    assert make("wizards-labyrinth", players=3, options={"content_dir": str(base)}).size == 5
    with pytest.raises(ContentError, match="room tiles"):
        make("wizards-labyrinth", players=5, options={"content_dir": str(base)})
