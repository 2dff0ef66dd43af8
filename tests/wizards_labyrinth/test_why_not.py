"""The Labyrinth's "why not": mana, the step being played, occupied tiles, the token limit, hero moves."""

from __future__ import annotations

from .helpers import put, scenario, to_moves


def name(s, c):
    n = s.game.size
    return "ABCDEFGHIJ"[c % n] + str(c // n + 1)


def test_a_card_the_wizard_cannot_pay_says_the_mana():
    s = scenario()
    s.whand = ["Troll", "Goblin"]
    s.mana_left = 1
    s._legal = None
    assert s.why_not(0, "Troll") == "it costs 4 mana and you have 1 left this turn"
    assert s.why_not(0, "Goblin") is None
    scene = s.game.scene(s.view(0), s.legal_actions())
    wizard = next(p for p in scene["panels"] if p.get("seat") == 0)
    assert [c.get("why_not") for c in wizard["cards"]] == [None, "it costs 4 mana and you have 1 left this turn"]
    assert s.why_not(1, "A1") == "it is not your turn"  # a hero during the wizard's turn


def test_placing_tokens_names_the_occupied_tile_the_token_limit_and_the_step():
    s = scenario()
    s.whand = ["Goblin", "Troll"]
    s.mana = s.mana_left = 5
    s._legal = None
    s.apply(("play", "Goblin"))
    hero_tile = s.heroes[0].pos
    assert s.why_not(0, name(s, hero_tile)) == "a hero stands there: tokens never go on a hero's tile"
    full = 0 if hero_tile != 0 else 4
    put(s, full, *["X"] * s.game.token_limit)
    assert s.why_not(0, name(s, full)) == (
        f"the tile holds {s.game.token_limit} tokens, the most one tile may hold ({s.game.token_limit})")
    assert s.why_not(0, "Troll") == "finish this step first: place the next token"


def test_a_hero_move_says_not_adjacent_and_a_bonus_waits_for_a_fight():
    s = scenario()
    to_moves(s)
    seat = s.current_seat()
    h = s.hero(seat)
    h.hand = ["Battle Elixir", "Health Potion"]
    h.hp = s.game.option_values["hero_hp"]
    s._legal = None
    far = max(range(len(s.tiles)), key=lambda c: s.game.grid.distances(h.pos)[c] if c in s.game.grid.distances(h.pos) else -1)
    assert s.why_not(seat, name(s, far)) == "not next to you: a hero moves one step to a neighbouring tile"
    assert s.why_not(seat, "Battle Elixir") is None  # it can be given to a hero on the same tile
    for o in s.heroes:
        if o is not h:
            o.pos = far
    s._legal = None
    assert s.why_not(seat, "Battle Elixir") == "a combat bonus: it is played in a fight, before the dice"
    assert s.why_not(seat, "Health Potion") == f"you are at full health ({h.hp} HP)"
    h.hp -= 2
    s._legal = None
    assert s.why_not(seat, "Health Potion") is None
