"""Tests that kill surviving mutants of the Wizard's Labyrinth's rules modules (scripts/mutation.py, issue 42;
dispositions in benchmarks/mutation_dispositions.json)."""

from __future__ import annotations

from boardlab.games.wizards_labyrinth.board import token_list

from .helpers import put, scenario, to_moves

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


def test_the_tower_stays_open_once_more_keys_are_found_than_it_needs():
    # kills rules.py:171 `keys_taken >= keys_needed` -> `==` (seed 3): three key tiles, two keys open the
    # tower (the final rules' default), and the third key found shut it again
    s = scenario()
    assert s.game.option_values["keys_needed"] == 2
    for taken, open_ in ((1, False), (2, True), (3, True)):
        s.keys_taken = taken
        assert s.tower_open() is open_, taken


def test_beta_playtest_traps_hurt_two_for_each_of_three_traps():
    # kills combat.py:62 `trap_damage * traps` -> `**` (seed 3): with two traps 2 * 2 == 2 ** 2, so the rule's
    # own test could not tell; three traps do 6, not 8
    from .test_rule_clauses import fight

    s = fight("beta-playtest", ("T", "T", "T"), [9])
    assert s.hero(1).hp == 10 - 6 and not s.tokens[5]


def test_using_sprint_is_logged_with_the_cards_name():
    # kills heroes.py:85 `uses {a[1]}` -> `uses {a[0]}` (seed 3): "Hero 1 uses use"
    s = scenario(variant="beta")
    s.hero(1).hand = ["Sprint"]
    to_moves(s)
    before = len(s._entries())
    s.apply(("use", "Sprint"))
    assert "Hero 1 uses Sprint" in [e[3] for e in s._entries()[before:]]


def test_the_wizard_is_told_which_cards_a_flipped_room_draws():
    # kills rules.py:328 `', '.join(got) or 'nothing'` -> `and` (seed 3): the wizard's private line said
    # "You draw nothing" while cards went into the hand
    s = scenario()
    rooms = s.game.content.rooms
    c = next(i for i, t in enumerate(s.tiles) if t and t[0] == "r" and rooms[int(t[1:])][0] > 0)
    hand = list(s.whand)
    s.flip_tile(c)
    got = s.whand[len(hand):]
    assert got
    mine = [e["text"] for e in s.events(WIZARD)]
    assert f"You draw {', '.join(got)}" in mine, mine[-2:]


def test_switcheroo_under_the_rage_without_a_tower_entrance_measures_from_the_ring():
    # kills wizard.py:177 `goal is None` -> `goal is not None` (seed 3): with no entrance (option
    # tower_entrance off) the reach of a Switcheroo under the Rage is measured from the tower's ring; the
    # mutant measured from no square at all
    from boardlab.engine.state import Prompt

    s = scenario(tower_entrance=False)
    assert s.entrance_cell() is None
    put(s, 4, "T")
    put(s, 24, "X")
    put(s, 20, "m1")
    s.removed[15] = s.removed[21] = True  # A5 (cell 20) is cut off from the rest
    got = s._l_switch_token(Prompt(WIZARD, "switch_token", {"seat": 1}))
    assert got == [("token", 4, 0), ("token", 24, 0)]



def test_a_ten_sided_trap_die_is_named_in_words():
    # kills combat.py:16 `10: "ten"` -> `9: "ten"` (seed 4): option trap_die runs 2-20, and a d10 read
    # "10-sided" while a d9 read "ten-sided"
    from boardlab.games.wizards_labyrinth.combat import die_words

    assert [die_words(n) for n in (4, 6, 8, 9, 10, 12, 20)] == [
        "four-sided", "six-sided", "eight-sided", "9-sided", "ten-sided", "twelve-sided", "twenty-sided"]


def test_the_rage_keeps_a_tile_where_a_hero_stands_on_a_dropped_key():
    # kills rules.py:208 `occupied | keys` -> `occupied ^ keys` (seed 4): a tile both occupied and holding a
    # dropped key fell out of the tiles that must stay reachable
    from .test_rage import raging

    s = raging(removed=[15], heroes={1: 20, 2: 20})
    s.dropped_keys[20] = 1  # (a hero standing there picks a key up at his next move; the search must not care)
    cells = set(s.rage_removable())
    assert 20 not in cells and 21 not in cells and 22 in cells


def test_a_room_that_takes_cards_from_an_empty_hand_asks_for_nothing():
    # kills rules.py:329 `draw < 0 and self.whand` -> `or` (seed 4): with an empty hand a -1 room wrote
    # "The wizard discards " with nothing after it
    s = scenario()
    rooms = s.game.content.rooms
    c = next(i for i, t in enumerate(s.tiles) if t and t[0] == "r" and rooms[int(t[1:])][0] < 0)
    assert s.whand == []
    before = len(s._entries())
    s.flip_tile(c)
    assert not any(t.startswith("The wizard discards") for t in (e[3] for e in s._entries()[before:]))
    assert not any(p.kind == "discard" for p in s.stack)
