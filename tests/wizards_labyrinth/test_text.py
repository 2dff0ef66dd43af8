"""Issue 32: roll lines name the dice and the number needed; the decisions explain the rules a new player misses."""

from __future__ import annotations

from .helpers import Dice, move_all, put, scenario, to_moves


def _log(s, seat=None):
    return [e["text"] for e in s.events(seat)]


def _scene(s, seat):
    return s.game.scene(s.view(seat), s.legal_actions() if s.current_seat() == seat else ())


def test_trap_and_fight_lines_name_the_dice_and_the_target():
    s = scenario()
    s.hero(1).equipment = ["Leather Boots"]
    put(s, 5, "T", "m2")
    to_moves(s)
    s.rng = Dice([3, 14, 9])  # trap save 3 + 2 boots; wizard 14 + 2; hero 9 + 0
    move_all(s, {1: ("move", 5)})
    log = _log(s)
    assert "Hero 1 rolls a twenty-sided die against 1 trap(s): 3, +2 save bonus = 5, needed 7: hurt" in log
    assert any(t.startswith("Fight on ") and "the wizard rolls a twenty-sided die for the monsters: 14, +2 monster"
               " level(s) = 16; the hero rolls a twenty-sided die: 9, +0 equipment and bonuses = 9, needed 16" in t
               and t.endswith("the monsters win") for t in log)


def test_two_heroes_fight_line_says_the_best_die_counts():
    s = scenario()
    put(s, 5, "m5")
    to_moves(s)
    s.rng = Dice([15, 4, 17])
    move_all(s, {1: ("move", 5), 2: ("move", 5)})
    assert any("the heroes roll a twenty-sided die each: 4 and 17 (the best counts: 17)" in t for t in _log(s))


def test_place_panel_counts_each_kind_of_token():
    """Orc: "Place a level 3 monster and 2 blanks": the panel lists 2 blanks, not one blank."""
    s = scenario()
    s.whand = ["Orc"]
    s.mana_left = 5
    s._legal = None
    s.apply(("play", "Orc"))
    panel = next(p for p in _scene(s, 0)["panels"] if p["title"] == "Tokens of Orc to place")
    assert [c["name"] for c in panel["cards"]] == ["2 blanks", "1 level 3 monster"]
    assert "at most 3 on a tile" in _scene(s, 0)["hint"]


def test_switcheroo_hint_says_why_a_hero_is_not_offered():
    s = scenario(players=4)
    s.hero(3).pos = 10  # Heroes 1 and 2 share the start tile, Hero 3 stands alone
    put(s, 20, "m2")
    s.whand = ["Switcheroo"]
    s.mana_left = 5
    s._legal = None
    s.apply(("play", "Switcheroo"))
    hint = _scene(s, 0)["hint"]
    assert "Hero 1 shares his tile with another hero" in hint and "Hero 2 shares his tile" in hint
    assert "Hero 3" not in hint


def test_setup_and_hero_hints_state_the_goal():
    from boardlab.engine import make
    s = make("wizards-labyrinth", players=3).new_state(0)
    while s.stack[-1].kind != "key":
        s.apply(s.legal_actions()[0])
    assert "You hide 3 key tiles" in _scene(s, 0)["hint"]
    while s.stack[-1].kind != "keep":
        s.apply(s.legal_actions()[0])
    assert "keep 3 of them" in _scene(s, 0)["hint"]
    s = to_moves(scenario())
    hint = _scene(s, 1)["hint"]
    assert "hides 3 key tiles" in hint and "tower" in hint and "wins for the heroes" in hint
    assert "the wizard rages: each of his turns starts by destroying tiles" in hint


def test_main_hint_says_why_a_card_in_hand_is_not_offered():
    """Switcheroo in hand but not offered: the hint says why (no hero stands alone to swap)."""
    s = scenario()  # both heroes share the start tile
    put(s, 20, "m2")
    s.whand = ["Switcheroo"]
    s.mana_left = 5
    s._legal = None
    assert ("play", "Switcheroo") not in s.legal_actions()
    hint = _scene(s, 0)["hint"]
    assert "\nNot playable now:\n\u2022 Switcheroo: no hero can swap with a token now" in hint  # one line per card


def test_the_bonus_decision_before_the_fight_says_what_each_side_rolls():
    s = scenario()
    s.hero(1).hand = ["Battle Elixir"]
    s.hero(1).equipment = ["Long Sword"]
    put(s, 5, "m3", "m1")
    to_moves(s)
    move_all(s, {1: ("move", 5)})
    assert s.stack[-1].kind == "boost"
    hint = _scene(s, 1)["hint"]
    assert hint.startswith("The wizard will roll a twenty-sided die + 4 (the monsters' levels here)")
    assert "+ 2 from equipment" in hint and "a tie goes to the heroes" in hint


def test_switcheroo_token_choices_name_the_stack_place_not_a_bare_number():
    """'1 on A1' read as a monster level: the label says the token's place in the tile's stack and what the
    wizard knows of it; the public log says only what every seat knows (face down)."""
    from .helpers import switcheroo_played

    s = switcheroo_played()
    s.apply(("hero", 1))
    labels = [t["label"] for t in _scene(s, 0)["targets"]]  # the wizard's (seat 0) choice
    cell = next(lab for lab in labels if "the 2nd of 2 tokens on " in lab)
    assert cell.endswith("(a level 1 monster)"), labels
    assert any(lab.startswith("the 1st of 2 tokens on ") and lab.endswith("(a blank)") for lab in labels), labels
    assert "with the 2nd of 2 tokens on" in s.describe(("token", 20, 1)) and s.describe(("token", 20, 1)).endswith(
        "(face down)")
    n = len(s.events(1))
    s.apply(("token", 20, 1))
    text = s.events(1)[n]["text"]
    assert "the 2nd of 2 tokens on" in text and text.endswith("(face down)") and "monster" not in text


def test_the_opening_keep_prompt_says_how_many_cards_the_wizard_keeps():
    from boardlab.engine import make

    s = make("wizards-labyrinth", players=3).new_state(1)
    while not (s.stack and s.stack[-1].kind == "keep"):
        s.apply(s.legal_actions()[0])
    o = s.game.option_values
    assert _scene(s, 0)["prompt"] == (f"Wizard: keep {o['opening_keep']} of the {o['opening_draw']} cards of the"
                                      f" opening draw ({o['opening_keep']} more to choose)")
    s.apply(s.legal_actions()[0])
    assert _scene(s, 0)["prompt"].endswith(f"({o['opening_keep'] - 1} more to choose)")


def test_placing_tokens_says_the_token_limit_of_a_tile():
    s = scenario()
    s.whand = ["Orc"] if "Orc" in s.game.content.wizard_cards else [next(
        n for n, c in s.game.content.wizard_cards.items() if c.type != "spell")]
    s.mana_left = 99
    s._legal = None
    s.apply(("play", s.whand[0]))
    assert s.stack[-1].kind == "place"
    limit = s.game.token_limit
    assert _scene(s, 0)["prompt"] == f"Wizard: place the next token (at most {limit} tokens on a tile)"
    assert f"at most {limit} on a tile" in _scene(s, 0)["hint"]


def test_a_potion_logs_the_healing_and_its_cause():
    """A hero went from 5 back to 8 HP with no line saying so."""
    s = scenario()
    top = s.game.option_values["hero_hp"]
    s.hero(1).hp = 5
    s.hero(1).hand = ["Health Potion"]
    s.hero(2).hp = top - 1
    s.hero(2).hand = ["Health Potion"]
    to_moves(s)
    n = len(s.events(2))
    for seat in (1, 2):  # drink on the movement decision, then stay
        while s.stack[-1].seat != seat:
            s.apply(("stay",))
        s.apply(("use", "Health Potion"))
    move_all(s, {})
    log = _log(s, 2)[n:]
    assert f"Hero 1 uses Health Potion and heals 3 HP: 5 -> 8 of {top}" in log, log
    assert (f"Hero 2 uses Health Potion and heals 1 HP: {top - 1} -> {top} of {top}"
            f" (it heals up to 3; {top} is the most)") in log, log
