"""The designed content file: counts, loading from another path, and clear errors."""

from __future__ import annotations

import json

import pytest

from boardlab.engine import ContentError, make
from boardlab.games.dungeons_jewel.content import DEFAULT_CONTENT, load_content


@pytest.mark.seed("dungeons-jewel:19.3")
def test_designed_content_counts():
    c = load_content()
    assert c.designed
    counts = {t.id: t.count for t in c.tokens}
    assert counts == {"spike": 6, "water": 5, "fire": 5, "gas": 5, "dart": 5, "quicksand": 5,
                      "monster": 8, "trapdoor": 4, "wall": 5}
    # enough tokens for every room of the 7x7 board (49 - 4 starts - the centre)
    assert len(c.token_pile()) == 48 >= 44
    assert len(c.treasure_deck()) == 32
    assert sum(1 for i in c.items if i.effect == "attack") == 8
    # every hazard of the seed has its survival item
    assert {i.hazard for i in c.items if i.effect == "survive"} == {
        "spike", "gas", "fire", "trapdoor", "water", "dart", "quicksand"}


def test_new_game_deals_the_designed_piles():
    s = make("dungeons-jewel").new_state(5)
    assert sorted(s.pile) == sorted(load_content().token_pile())
    assert sorted(s.deck) == sorted(load_content().treasure_deck())


def _write(tmp_path, doc) -> str:
    p = tmp_path / "content.json"
    p.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return str(p)


def test_content_from_another_path(tmp_path):
    doc = json.loads(DEFAULT_CONTENT.read_text())
    for t in doc["tokens"]:
        t["count"] = 10 if t["id"] == "monster" else 1
    game = make("dungeons-jewel", options={"content": _write(tmp_path, doc)})
    s = game.new_state(1)
    assert s.pile.count("monster") == 10 and len(s.pile) == 18


def _broken(mutate):
    doc = json.loads(DEFAULT_CONTENT.read_text())
    mutate(doc)
    return doc


@pytest.mark.parametrize("doc,message", [
    ("{not json", "not valid JSON"),
    ([], "top level must be a JSON object"),
    (_broken(lambda d: d.pop("tokens")), "'tokens' must be a non-empty list"),
    (_broken(lambda d: d["tokens"][0].update(type="lava")), "has type 'lava'"),
    (_broken(lambda d: d["tokens"][0].update(count=-1)), "integer 'count'"),
    (_broken(lambda d: d["tokens"][0].update(count="six")), "integer 'count'"),
    (_broken(lambda d: d["tokens"].append(dict(d["tokens"][0]))), "appears twice"),
    (_broken(lambda d: d["items"][0].update(hazard="lava")), "survives 'lava'"),
    (_broken(lambda d: d["items"][0].update(effect="fly")), "has effect 'fly'"),
    (_broken(lambda d: d["items"][0].pop("id")), "needs an 'id'"),
    (_broken(lambda d: d["items"].__setitem__(0, "boots")), "must be an object"),
    (_broken(lambda d: [t.update(count=0) for t in d["tokens"]]), "pile is empty"),
    (_broken(lambda d: d.update(designed="yes")), "'designed' must be true or false"),
])
def test_malformed_content_raises_content_error(tmp_path, doc, message):
    path = _write(tmp_path, doc)
    with pytest.raises(ContentError) as err:
        make("dungeons-jewel", options={"content": path})
    assert message in str(err.value) and "content file" in str(err.value)


def test_missing_content_file(tmp_path):
    with pytest.raises(ContentError, match="cannot read"):
        make("dungeons-jewel", options={"content": str(tmp_path / "nope.json")})


def test_content_option_presets_name_the_shipped_file():
    from boardlab.engine import InvalidOptionError, game_class

    game = make("dungeons-jewel")
    assert game.content_path("content") == DEFAULT_CONTENT
    cls = game_class("dungeons-jewel")
    cls.check_untrusted(None, {"content": ""})
    with pytest.raises(InvalidOptionError):
        cls.check_untrusted(None, {"content": str(DEFAULT_CONTENT)})
