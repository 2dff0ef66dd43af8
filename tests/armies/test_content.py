"""Card table and deck lists: shipped content is valid; malformed files raise clear ContentErrors."""

from __future__ import annotations

import json

import pytest

from boardlab.engine import ContentError, make
from boardlab.games.armies.content import builtin_decks, load_cards, load_deck, parse_cost, parse_deck


@pytest.mark.seed("armies:100.1")
def test_the_33_sample_cards():
    cards = load_cards()
    assert len(cards) == 33
    kinds = {}
    for c in cards.values():
        kinds[c.type] = kinds.get(c.type, 0) + 1
    assert kinds == {"leader": 5, "maneuver": 5, "technique": 5, "boon": 2, "curse": 3, "training": 8, "strategy": 5}
    assert cards["Heavy Cavalry"].cost == (5, 2, 0, 0, 0, 0)
    assert parse_cost("1EEE") == (1, 0, 3, 0, 0, 0) and parse_cost("") == (0,) * 6


def test_every_deck_file_shipped_is_a_preset_of_both_deck_options():
    """The presets are read from data/decks/: a designer adds a deck by adding its file."""
    from boardlab.games.armies.content import DECK_DIR

    game = make("armies")
    files = sorted(DECK_DIR.glob("*.deck"))
    for option in ("white_deck", "black_deck"):
        opt = type(game).all_options()[option]
        assert list(opt.presets) == [f.stem for f in files]
        assert [game.package_dir() / f for f in opt.files] == files


@pytest.mark.seed("armies:5.3")
def test_shipped_decks_are_legal_and_differ_in_focus():
    cards = load_cards()
    names = builtin_decks()
    assert len(names) >= 3
    focus = set()
    for n in names:
        d = load_deck(n, cards)
        assert len(d.cards) == 60 and max(d.cards.count(c) for c in d.cards) <= 4
        totals = [0] * 5
        for c in d.cards:
            for i in range(5):
                totals[i] += cards[c].cost[i + 1]
        focus.add(max(range(5), key=totals.__getitem__))
    assert len(focus) >= 3


def _deck(lines):
    return "\n".join(lines)


@pytest.mark.parametrize("text,msg", [
    (_deck(["5 Mind Fog"] + ["4 Teachings of Gnar"] * 0), "at most 4"),
    (_deck(["4 Mind Fog"]), "exactly 60"),
    (_deck(["4 Mind Fogg"]), "unknown card"),
    (_deck(["4 mind fog"]), "did you mean"),
    (_deck(["four Mind Fog"]), "expected '<count> <card name>'"),
])
@pytest.mark.seed("armies:5.3")
def test_bad_deck_lists(text, msg):
    with pytest.raises(ContentError, match=msg):
        parse_deck(text, load_cards(), "bad.deck")


def test_user_deck_file_and_option(tmp_path):
    cards = sorted(load_cards())
    lines = ["deck: Mine"] + [f"4 {n}" for n in cards[:15]]
    p = tmp_path / "mine.deck"
    p.write_text("\n".join(lines))
    g = make("armies", options={"white_deck": str(p)})
    assert g.deck_names[0] == "Mine" and len(g.deck_lists[0]) == 60
    with pytest.raises(ContentError, match="no Armies deck"):
        make("armies", options={"black_deck": str(tmp_path / "nope.deck")})


@pytest.mark.parametrize("mutate,msg", [
    (lambda c: c[0].update(cost="3X"), "bad cost"),
    (lambda c: c[0].update(type="spell"), "has type"),
    (lambda c: c[5].update(effect="fireball"), "unknown effect"),
    (lambda c: c.append(dict(c[0])), "listed twice"),
    (lambda c: c[0].update(offense="six"), "whole number"),
    (lambda c: c[0].update(colour="red"), "unknown field"),
    (lambda c: c[10].pop("windows"), "windows"),
])
def test_bad_card_files(tmp_path, mutate, msg):
    from boardlab.games.armies.content import CARDS_FILE

    doc = json.loads(CARDS_FILE.read_text())
    mutate(doc["cards"])
    p = tmp_path / "cards.json"
    p.write_text(json.dumps(doc))
    with pytest.raises(ContentError, match=msg):
        load_cards(p)
    with pytest.raises(ContentError):
        make("armies", options={"cards_file": str(p)})


def test_card_file_not_json(tmp_path):
    p = tmp_path / "cards.json"
    p.write_text("{nope")
    with pytest.raises(ContentError, match="not valid JSON"):
        load_cards(p)
