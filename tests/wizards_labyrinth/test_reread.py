"""Issue 17 (The Wizard's Labyrinth): rules re-read against the seed; each test failed before its fix."""

from __future__ import annotations

import pytest

from .helpers import put, scenario


@pytest.mark.seed("wizards-labyrinth:119.2", "wizards-labyrinth:155.2")
def test_switcheroo_respects_the_token_limit():
    """Issue 17 item 4: "There can be a maximum number of tokens on a single tile equal to the total
    number of players in the game (wizard + heroes)": the token swapped onto the hero's tile may not
    take it past the limit (3 in a 3-player game)."""
    s = scenario()
    h = s.hero(1)
    h.pos = 10
    put(s, 10, "m1", "X", "X")  # the hero's tile is full (3 tokens)
    put(s, 20, "m2")
    s.whand = ["Switcheroo"]
    s._legal = None
    assert ("play", "Switcheroo") in s.legal_actions()
    s.apply(("play", "Switcheroo"))
    if s.stack[-1].kind == "switch_hero":
        assert ("hero", 1) not in s.legal_actions()
        s.apply(("hero", 2))
    assert all(len(t) <= s.game.token_limit for t in s.tokens)


def test_rage_sends_loot_on_a_removed_tile_to_the_discard_pile():
    """Issue 17 item 6: the Rage "remove[s] them from the game" (the tiles); the seed protects only keys,
    and loot dropped on a removed tile goes to the loot discard pile, so the loot deck keeps its cards."""
    from .helpers import move_all, to_moves

    s = scenario()
    s.keys_taken = 2
    s.dropped_cards[24] = ["Sprint", "Shield"]
    to_moves(s)
    move_all(s, {})
    assert s.stack[-1].kind == "rage"
    s.apply(("remove", 24))
    assert 24 not in s.dropped_cards
    assert s.ldeck.discard_pile[-2:] == ["Sprint", "Shield"]


@pytest.mark.seed("wizards-labyrinth:155.2")
def test_switcheroo_cannot_send_a_hero_to_a_cut_off_tile():
    """Issue 17 item 5: the Rage "can not remove tiles in such a way that a hero could not get to the
    wizard tower"; Switcheroo may not make such a hero either. E5 (24) is cut off by the removed D5 and E4."""
    s = scenario()
    s.hero(2).pos = 5  # Hero 1 alone on his tile (ledger 44)
    s.removed[19] = s.removed[23] = True
    put(s, 24, "m1")
    put(s, 20, "m2")
    s.whand = ["Switcheroo"]
    s._legal = None
    s.apply(("play", "Switcheroo"))
    s.apply(("hero", 1))
    targets = {a[1] for a in s.legal_actions()}
    assert 24 not in targets and 20 in targets


@pytest.mark.seed("wizards-labyrinth:47.3")
def test_a_hero_retreating_into_a_later_fight_does_not_fight_twice():
    """Issue 17 item 7 / ledger 14: tokens a stuck hero is sent into are "resolved next turn": the
    combatants of each tile are fixed when the combat phase begins."""
    from .helpers import Dice, move_all, to_moves

    s = scenario()
    s.hero(1).pos, s.hero(2).pos = 5, 10  # both start on tokens, so both are stuck
    put(s, 5, "m5", face_up=True)
    put(s, 10, "m1", face_up=True)
    s.rng = Dice([20, 1, 1, 20, 20])  # A2: wizard 20, hero 1 rolls 1 and loses; A3: wizard 1, then the heroes' rolls
    to_moves(s)
    move_all(s, {})
    assert s.stack[-1].kind == "retreat"
    s.apply(("retreat", 10))
    fights = [e for e in s.events(omniscient=True) if "heroes_win" in (e.get("data") or {})]
    assert [len(e["data"]["rolls"]) for e in fights if e["data"]["cell"] == 10] == [1]
    assert s.hero(1).hp == 10 - 1 and s.hero(1).pos == 10
