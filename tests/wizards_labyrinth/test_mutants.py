"""Tests that kill surviving mutants of the Wizard's Labyrinth's rules modules (scripts/mutation.py, issue 42;
dispositions in benchmarks/mutation_dispositions.json)."""

from __future__ import annotations

from boardlab.games.wizards_labyrinth.board import token_list

from .helpers import scenario, to_moves

WIZARD = 0


def test_a_list_of_tokens_reads_as_english():
    # kills board.py:52 `len(words) < 3` -> `not len(words) < 3` (" and a trap"; "a blank and a trap and ...")
    assert token_list(["T"]) == "a trap"
    assert token_list(["X", "T"]) == "a blank and a trap"
    assert token_list(["m2", "X", "T"]) == "a level 2 monster, a blank and a trap"


def test_a_looted_card_is_counted_once_for_the_hero_who_took_it():
    # kills rules.py:186 `count(..., by: int = 1)` -> `by: int = 0` (every rule counter stuck at zero), and
    # rules.py:289 `if eq` -> `if not eq` in the public loot line (", equipping " with nothing, or the item left out)
    s = scenario()
    seat = s.hero_seats()[0]
    hero = s.hero(seat)
    before = list(s.stats.get("loot:drawn", [0] * s.game.players))
    s.loot(hero.cell if hasattr(hero, "cell") else 0, 1, 1, [seat])
    after = s.stats["loot:drawn"]
    assert after[seat] == before[seat] + 1
    assert [a - b for i, (a, b) in enumerate(zip(after, before)) if i != seat] == [0] * (len(after) - 1)
    public = [e for e in s.events(WIZARD) if (e.get("data") or {}).get("seat") == seat and "loots" in e["text"]][-1]
    if public["data"].get("equipped"):
        assert public["text"] == f"Hero {seat} loots 1 card(s), equipping {', '.join(public['data']['equipped'])}"
    else:
        assert public["text"] == f"Hero {seat} loots 1 card(s)", public


def test_a_health_potion_reports_the_hp_it_healed():
    # kills heroes.py:82 `"healed": h.hp - before` -> `h.hp + before` in the event's data
    s = scenario()
    s.hero(1).hand, s.hero(1).hp = ["Health Potion"], 4
    to_moves(s)
    s.apply(("use", "Health Potion"))
    event = [e for e in s.events(WIZARD) if (e.get("data") or {}).get("card") == "Health Potion"][-1]
    assert s.hero(1).hp == 7
    assert event["data"]["healed"] == 3 and "heals 3 HP: 4 -> 7" in event["text"], event
