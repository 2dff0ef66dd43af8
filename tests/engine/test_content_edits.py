"""Content edits (issue 34 item 1): the engine's parsing, applying, recording and replaying.

Each game's own content kinds are tested in ``tests/<game>/test_content_edits.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.engine import BoardlabError, ContentError, State, make
from boardlab.engine.content_edits import OPTION_KEY, ContentEditError, ContentEdits, Edit, slug

KINDS = {"item": "an item", "token": "a token"}


def parse(value):
    return ContentEdits.parse(value, "g", KINDS)


# -- parsing -----------------------------------------------------------------------------------------


def test_short_form_and_json_form_are_the_same_edits():
    short = parse("without:item:gloves+with:item:shield*2+with:token:wall+replace:token:death=speed")
    doc = {"remove": ["item:gloves"], "add": {"item:shield": 2, "token:wall": 1}, "replace": {"token:death": "token:speed"}}
    assert short.to_json() == doc
    assert parse(doc).to_json() == doc
    assert parse(json.dumps(doc)).to_json() == doc
    assert short.short() == "without:item:gloves+with:item:shield*2+with:token:wall+replace:token:death=speed"


def test_json_form_with_fields():
    doc = {"add": {"item:ring": {"effect": "attack", "copies": 2}}, "replace": {"item:gloves": {"count": 1}}}
    edits = parse(doc)
    assert [(e.op, e.kind, e.name, e.fields) for e in edits.edits] == [
        ("add", "item", "ring", {"effect": "attack", "copies": 2}), ("replace", "item", "gloves", {"count": 1})]
    assert edits.to_json() == doc


@pytest.mark.parametrize("value, message", [
    ({"drop": ["item:x"]}, "unknown section 'drop'"),
    ({"remove": "item:x"}, "'remove' must be a list"),
    ({"remove": ["gloves"]}, "must name content as KIND:NAME"),
    ({"add": {"item:x": 0}}, "from 1 to 100"),
    ({"add": {"item:x": 101}}, "from 1 to 100"),
    ({"add": {"item:x": True}}, "from 1 to 100"),
    ({"add": {"item:x": {"copies": 0}}}, "from 1 to 100"),
    ({"add": {"item:x": {}}}, "at least one field"),
    ({"replace": {"item:x": "token:y"}}, "same kind"),
    ({"replace": {"item:x": 3}}, "the fields to change"),
    ({"remove": ["thing:x"]}, "g has no content kind 'thing' in 'without:thing:x' (kinds: item, token)"),
    ({"remove": ["item:x"], "add": {"item:X": 1}}, "item:X is edited twice"),
    ("without:item", "must name content as KIND:NAME"),
    ("drop:item:x", "'drop:item:x' is not a content edit"),
    ("with:item:x*two", "the number after '*'"),
    ("replace:item:x", "replace:KIND:OLD=NEW"),
    ("{not json", "not valid JSON"),
    (["item:x"], "must be an object"),
])
def test_malformed_edits_are_one_line_errors(value, message):
    with pytest.raises(ContentEditError) as info:
        parse(value)
    assert message in str(info.value)
    assert "\n" not in str(info.value)
    assert isinstance(info.value, BoardlabError) and isinstance(info.value, ContentError)


def test_too_many_edits():
    with pytest.raises(ContentEditError, match="at most 200"):
        parse({"remove": [f"item:x{i}" for i in range(201)]})


def test_slug():
    assert slug("Non-aggression Order") == "non-aggression-order"
    assert slug("frost_giant") == slug("Frost Giant") == "frost-giant"


# -- applying ----------------------------------------------------------------------------------------

ENTRIES = [{"id": "gloves", "count": 2}, {"id": "shield", "count": 1}, {"id": "Fire_Cloak"}]


def test_apply_entries_with_counts():
    edits = parse({"remove": ["item:GLOVES"], "add": {"item:shield": 3, "item:ring": {"effect": "attack", "copies": 4}},
                   "replace": {"item:fire-cloak": {"count": 5}}})
    out = edits.apply_entries("item", ENTRIES, key="id", count="count")
    assert out == [{"id": "gloves", "count": 0}, {"id": "shield", "count": 4}, {"id": "Fire_Cloak", "count": 5},
                   {"id": "ring", "effect": "attack", "count": 4}]
    assert ENTRIES[0] == {"id": "gloves", "count": 2}  # the input is not changed
    assert [e.name for e in edits.edits] == ["gloves", "shield", "ring", "Fire_Cloak"]  # exact names recorded
    edits.check_applied()
    assert edits.to_json()["remove"] == ["item:gloves"]


def test_apply_entries_replace_by_another_entry_moves_every_copy():
    edits = parse("replace:item:gloves=shield")
    assert edits.apply_entries("item", ENTRIES, key="id", count="count", count_default=1)[:2] == [
        {"id": "gloves", "count": 0}, {"id": "shield", "count": 3}]
    edits.check_applied()


def test_apply_entries_one_copy_each():
    edits = parse("without:item:shield")
    assert edits.apply_entries("item", ENTRIES, key="id") == [ENTRIES[0], ENTRIES[2]]
    for bad, message in (("with:item:shield", "one copy of each item"), ("replace:item:shield=gloves", "one copy of each")):
        with pytest.raises(ContentEditError, match=message):
            parse(bad).apply_entries("item", ENTRIES, key="id")


def test_apply_entries_refuses_unknown_and_existing_names():
    with pytest.raises(ContentEditError, match=r"g has no item 'glove'; did you mean 'gloves'\? \(known: gloves, shield, Fire_Cloak\)"):
        parse("without:item:glove").apply_entries("item", ENTRIES, key="id", count="count")
    with pytest.raises(ContentEditError, match="item 'Gloves' exists"):
        parse({"add": {"item:Gloves": {"effect": "x"}}}).apply_entries("item", ENTRIES, key="id", count="count")
    with pytest.raises(ContentEditError, match="keeps the item's 'id'"):
        parse({"replace": {"item:gloves": {"id": "mitts"}}}).apply_entries("item", ENTRIES, key="id", count="count")


def test_apply_pool_and_definitions():
    edits = parse({"remove": ["token:death"], "add": {"token:speed": 2, "token:new": {"power": 1, "copies": 3}},
                   "replace": {"token:slow": "token:speed", "token:big": {"power": 9}}})
    table = edits.apply_definitions("token", [{"name": "big", "power": 1}], key="name")
    assert table == [{"name": "big", "power": 9}, {"name": "new", "power": 1}]
    pool = edits.apply_pool("token", ["death", "slow", "death", "speed"], ["death", "slow", "speed", "new", "big"])
    assert pool == ["speed", "speed", "speed", "speed", "new", "new", "new"]
    edits.check_applied()
    assert [e.hits for e in edits.edits] == [2, 0, 0, 1, 0]


def test_apply_pool_without_definitions_refuses_fields():
    with pytest.raises(ContentEditError, match="defined by its rules"):
        parse({"replace": {"token:slow": {"power": 1}}}).apply_pool("token", ["slow"], ["slow"], definitions=False)


def test_check_applied_refuses_unused_and_empty_edits():
    edits = parse("without:item:gloves+without:token:wall")
    edits.apply_entries("item", ENTRIES, key="id", count="count")
    with pytest.raises(ContentEditError, match="plays without tokens"):
        edits.check_applied()
    edits = parse("without:item:gloves")
    edits.apply_entries("item", [{"id": "gloves", "count": 0}], key="id", count="count")
    with pytest.raises(ContentEditError, match="changes nothing: no copy of item 'gloves' is in play"):
        edits.check_applied()


def test_edit_labels():
    assert Edit("add", "item", "x", copies=1).label() == "with:item:x"
    assert Edit("replace", "item", "x", fields={"a": 1}).label() == "replace:item:x"


# -- games: configuration, saves, variant files, CLI ---------------------------------------------------


def test_variant_string_records_the_edits_in_the_options():
    game = make("dungeons-jewel", players=2, variant="revised+without:item:Gloves")
    assert game.variant == "revised"
    assert game.variant_label == "revised+without:item:Gloves"
    assert game.config() == {"game": "dungeons-jewel", "players": 2, "variant": "revised",
                             "options": {OPTION_KEY: {"remove": ["item:gloves"]}}}
    assert game.option_values["fight_steal"] is True  # the base variant still applies
    again = make("dungeons-jewel", players=2, variant="revised", options=game.config()["options"])
    assert again.config() == game.config() and again.content == game.content
    default = make("dungeons-jewel", players=2, variant="without:item:gloves")
    assert default.variant == "rulebook" and default.config()["options"] == game.config()["options"]


def test_the_option_takes_the_short_form_as_text():
    game = make("dungeons-jewel", players=2, options={OPTION_KEY: "without:item:gloves+with:item:shield*2"})
    assert game.config()["options"] == {OPTION_KEY: {"remove": ["item:gloves"], "add": {"item:shield": 2}}}


def test_no_edits_leave_the_configuration_unchanged():
    assert make("dungeons-jewel", players=2, options={OPTION_KEY: ""}).config()["options"] == {}
    assert make("dungeons-jewel", players=2, options={OPTION_KEY: {}}).config()["options"] == {}


@pytest.mark.parametrize("variant, message", [
    ("rulebook+without:item:glvoes", "dungeons-jewel has no item 'glvoes'; did you mean 'gloves'?"),
    ("rulebook+without:thing:x", "dungeons-jewel has no content kind 'thing'"),
    ("rulebook+gloves", "variant 'rulebook+gloves': 'gloves' is not a content edit"),
    ("nosuch+without:item:gloves", "dungeons-jewel has no variant 'nosuch'"),
    ("+without:item:gloves", "no variant name before '+'"),
])
def test_bad_variant_strings(variant, message):
    with pytest.raises(BoardlabError) as info:
        make("dungeons-jewel", players=2, variant=variant)
    assert message in str(info.value)


def test_a_game_without_content_kinds_refuses_edits():
    with pytest.raises(ContentEditError, match="toy has no content kind 'item'.*it has no editable content"):
        make("toy", variant="without:item:x")


def test_variant_file_content_section_replays_without_the_file(tmp_path):
    path = tmp_path / "no-gloves.json"
    path.write_text(json.dumps({"name": "no-gloves", "game": "dungeons-jewel", "base": "concept",
                                "overrides": {"die": 8}, "content": {"remove": ["item:gloves"], "add": {"token:wall": 2}}}))
    game = make("dungeons-jewel", players=2, variant=str(path))
    assert game.variant_label == "no-gloves"
    cfg = game.config()
    assert cfg["variant"] == "concept"
    assert cfg["options"] == {"die": 8, OPTION_KEY: {"remove": ["item:gloves"], "add": {"token:wall": 2}}}
    state = game.new_state(seed=4)
    for _ in range(30):
        state.apply(state.legal_actions()[0])
    path.unlink()
    loaded = State.from_json(json.loads(json.dumps(state.to_json())))
    assert loaded.game.config() == cfg
    assert loaded.to_json() == state.to_json()
    # a variant file plus short-form edits after it
    path.write_text(json.dumps({"game": "dungeons-jewel", "content": {"remove": ["item:gloves"]}}))
    both = make("dungeons-jewel", players=2, variant=f"{path}+without:item:helmet")
    assert both.config()["options"][OPTION_KEY] == {"remove": ["item:gloves", "item:helmet"]}


def test_variant_file_with_unknown_content_is_refused(tmp_path):
    path = tmp_path / "v.json"
    path.write_text(json.dumps({"game": "dungeons-jewel", "content": {"remove": ["item:mitts"]}}))
    with pytest.raises(ContentEditError, match="dungeons-jewel has no item 'mitts'"):
        make("dungeons-jewel", players=2, variant=str(path))
    path.write_text(json.dumps({"game": "dungeons-jewel", "content": {"delete": []}}))
    with pytest.raises(ContentEditError, match=r"variant file .*v.json: 'content': unknown section 'delete'"):
        make("dungeons-jewel", players=2, variant=str(path))


def test_a_save_of_an_edited_game_is_refused_by_the_unedited_game():
    from boardlab.engine import SaveFileError

    edited = make("dungeons-jewel", players=2, variant="without:item:gloves")
    doc = edited.new_state(seed=1).to_json()
    with pytest.raises(SaveFileError, match="options"):
        State.from_json(doc, make("dungeons-jewel", players=2))


def test_the_web_server_refuses_variant_strings_but_not_the_option():
    cls = type(make("dungeons-jewel", players=2))
    with pytest.raises(BoardlabError, match="variant must be one of"):
        cls.check_untrusted("rulebook+without:item:gloves", {})
    cls.check_untrusted("rulebook", {OPTION_KEY: {"remove": ["item:gloves"]}})  # opens no file


def test_cli_unknown_name_is_exit_2_and_one_line():
    proc = subprocess.run([sys.executable, "-m", "boardlab", "simulate", "dungeons-jewel", "--players", "2", "--games", "1",
                           "--variant", "rulebook+without:item:glvoes"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0
    assert "dungeons-jewel has no item 'glvoes'" in proc.stderr and "Traceback" not in proc.stderr


# -- property: any removals and additions give exactly the expected deck, and replay ----------------------

DJ_ITEMS = ("spike_boots", "fire_cloak", "wall_spell", "broadsword", "gloves", "helmet")


@settings(max_examples=30, deadline=None)
@given(removed=st.sets(st.sampled_from(DJ_ITEMS)), added=st.dictionaries(st.sampled_from(DJ_ITEMS), st.integers(1, 5)))
def test_any_removals_and_additions_give_the_expected_deck_and_replay(removed, added):
    added = {k: v for k, v in added.items() if k not in removed}
    tokens = [f"without:item:{r}" for r in sorted(removed)] + [f"with:item:{k}*{v}" for k, v in sorted(added.items())]
    game = make("dungeons-jewel", players=2, variant="+".join(["rulebook", *tokens]))
    deck = game.content.treasure_deck()
    for item in DJ_ITEMS:
        assert deck.count(item) == (0 if item in removed else 2 + added.get(item, 0))
    assert len(deck) == 32 - 2 * len(removed) + sum(added.values())
    again = make("dungeons-jewel", players=2, variant="rulebook", options=game.config()["options"])
    assert again.config() == game.config() and again.content == game.content
    assert again.new_state(seed=3).to_json() == game.new_state(seed=3).to_json()
