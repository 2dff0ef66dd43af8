"""The designed content (board and 100 cards) and its validation."""

import json

import pytest

from boardlab.engine import ContentError, make
from boardlab.games.summoners_quest.board import Board, default_board_path
from boardlab.games.summoners_quest.content import EFFECTS, STATUSES, default_cards_path, load_cards


def test_card_counts_match_the_seed():
    # "40 Summon, 20 Spell, 20 Equip, and 20 Trap cards"
    cards = load_cards(default_cards_path())
    by_type = {}
    for c in cards.values():
        by_type[c.type] = by_type.get(c.type, 0) + 1
    assert by_type == {"summon": 40, "spell": 20, "equip": 20, "trap": 20}


def test_summons_come_from_the_four_folklores():
    # "Nordic, Japanese/Modern, Greek and Amazonian/Brazillian"
    cards = load_cards(default_cards_path())
    lores = {}
    for c in cards.values():
        if c.type == "summon":
            lores[c.lore] = lores.get(c.lore, 0) + 1
            assert c.cost > 0 and c.life > 0 and c.ability is not None
    assert lores == {"Nordic": 10, "Japanese/Modern": 10, "Greek": 10, "Amazonian/Brazilian": 10}


def test_mjolnir_has_its_lightning_bolt():
    c = load_cards(default_cards_path())["mjolnir"]
    assert c.type == "equip" and c.ability.name == "Lightning Bolt" and c.ability.range > 0
    assert ("damage", 3) in c.ability.effects


def test_traps_have_negation_targets_and_some_differ_for_summons():
    cards = load_cards(default_cards_path())
    traps = [c for c in cards.values() if c.type == "trap"]
    assert all(2 <= t.negate <= 6 for t in traps)
    assert sum(t.effects != t.summon_effects for t in traps) >= 10


def test_every_effect_kind_and_status_is_used_by_some_card():
    cards = load_cards(default_cards_path())
    used, statuses = set(), set()
    for c in cards.values():
        groups = [c.effects, c.summon_effects] + ([c.ability.effects] if c.ability else [])
        for g in groups:
            for e in g:
                used.add(e[0])
                if e[0] == "status":
                    statuses.add(e[1])
    assert used == set(EFFECTS)
    assert statuses == set(STATUSES)


def test_content_is_marked_designed():
    for path in (default_cards_path(), default_board_path()):
        assert json.loads(path.read_text())["designed"] is True


def _write(tmp_path, cards):
    p = tmp_path / "cards.json"
    p.write_text(json.dumps({"cards": cards}))
    return p


GOOD_SPELL = {"id": "zap", "name": "Zap", "type": "spell", "cost": 1, "range": 1, "target": "enemy", "effects": [["damage", 1]]}


@pytest.mark.parametrize("bad, words", [
    ({**GOOD_SPELL, "type": "potion"}, "'type' must be one of"),
    ({**GOOD_SPELL, "effects": [["explode", 2]]}, "unknown effect"),
    ({**GOOD_SPELL, "effects": [["damage"]]}, "takes 1 argument"),
    ({**GOOD_SPELL, "effects": [["status", "sleepy", 2]]}, "unknown status"),
    ({**GOOD_SPELL, "effects": [["roll", 1]]}, "only works in combat"),
    ({**GOOD_SPELL, "cost": -1}, "'cost' must be an integer"),
    ({**GOOD_SPELL, "target": "everyone"}, "target must be"),
    ({"id": "x", "name": "X", "type": "summon", "lore": "Greek", "cost": 2, "attack": 1, "life": 2, "move": "teleport"}, "'move' must be one of"),
    ({"id": "x", "name": "X", "type": "equip", "cost": 1, "lasting": "forever", "passive": {"attack": 1}}, "'lasting'"),
    ({"id": "x", "name": "X", "type": "equip", "cost": 1, "lasting": "perpetual", "passive": {"luck": 1}}, "'passive' keys"),
    ({"id": "x", "name": "X", "type": "trap", "negate": 9, "effects": [["damage", 1]]}, "'negate' must be"),
    ("not a card", "must be a JSON object"),
])
def test_malformed_cards_raise_clear_content_errors(tmp_path, bad, words):
    with pytest.raises(ContentError, match=words) as err:
        load_cards(_write(tmp_path, [GOOD_SPELL, bad] if bad is not GOOD_SPELL else [bad]))
    assert "cards.json" in str(err.value)


def test_duplicate_ids_and_bad_json(tmp_path):
    with pytest.raises(ContentError, match="duplicate card id"):
        load_cards(_write(tmp_path, [GOOD_SPELL, GOOD_SPELL]))
    p = tmp_path / "broken.json"
    p.write_text("{not json")
    with pytest.raises(ContentError, match="not valid JSON"):
        load_cards(p)
    with pytest.raises(ContentError, match="cannot read"):
        load_cards(tmp_path / "missing.json")


def test_alternative_card_file_is_loadable(tmp_path):
    p = _write(tmp_path, [GOOD_SPELL])
    game = make("summoners-quest", players=2, options={"cards_file": str(p), "starting_hand": 1})
    st = game.new_state(1)
    assert set(game.cards) == {"zap"}
    assert sum(len(h) for h in st.hands) == 1


def test_malformed_board_raises_content_error(tmp_path):
    doc = json.loads(default_board_path().read_text())
    doc["ring"][1]["kind"] = "portal"
    p = tmp_path / "board.json"
    p.write_text(json.dumps(doc))
    with pytest.raises(ContentError, match="section 0 must hold 6 focus points"):
        Board.load(p)
    doc = json.loads(default_board_path().read_text())
    doc["centre"][0]["portal"] = "r1"
    p.write_text(json.dumps(doc))
    with pytest.raises(ContentError, match="must name a ring portal"):
        Board.load(p)
    doc["centre"] = doc["centre"][:5]
    p.write_text(json.dumps(doc))
    with pytest.raises(ContentError, match="exactly 13"):
        Board.load(p)
    with pytest.raises(ContentError):
        make("summoners-quest", players=2, options={"board_file": str(p)})
