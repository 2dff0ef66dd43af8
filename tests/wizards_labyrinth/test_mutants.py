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


def test_cells_are_named_by_column_letter_and_row_number_from_the_top():
    # kills board.py:58 `c // n + 1` -> `c // n + 2` (seed 2): the top row was named row 2 and the bottom row
    # row 8 on a 7 x 7 board, in every log line and view that names a cell
    from boardlab.games.wizards_labyrinth.board import cell_name

    s = scenario()
    g = s.game
    n = g.size
    assert cell_name(g, 0) == "A1"
    assert cell_name(g, n - 1) == "ABCDEFG"[n - 1] + "1"
    assert cell_name(g, n) == "A2"
    assert cell_name(g, n * n - 1) == f"{'ABCDEFG'[n - 1]}{n}"
    assert sorted(cell_name(g, c) for c in range(n * n)) == sorted(f"{a}{r}" for a in "ABCDEFG"[:n]
                                                                  for r in range(1, n + 1))


def test_a_two_step_move_logs_the_tile_it_passed_through():
    # kills heroes.py:150 `"via": m[1]` -> `"via": m[0]` (seed 2): the log's "via" for a Sprint move said "move2"
    # instead of the tile the hero went through (what the board shows as its retreat tile)
    from .helpers import move_all

    s = scenario()
    h = s.hero(1)
    h.hand = ["Sprint"]
    to_moves(s)
    s.apply(("use", "Sprint"))
    s.apply(("move2", 1, 2))
    before = len(s._entries())
    move_all(s, {})
    moved = [e[4] for e in s._entries()[before:] if e[3].startswith("Hero 1 moves to")]
    assert moved and moved[0]["to"] == 2 and moved[0]["via"] == 1, moved
    assert h.pos == 2 and h.prev == 1
