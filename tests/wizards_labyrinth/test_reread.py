"""Issue 17 (The Wizard's Labyrinth): rules re-read against the seed; each test failed before its fix."""

from __future__ import annotations

from .helpers import put, scenario


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
