"""Hidden information: another seat's face-down token never shows in a view, an event or a scene,
and determinization re-deals exactly what a seat has not seen."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from boardlab.agents import Decision, make_agent
from boardlab.engine import Rng, make

from .helpers import blank, cell, put

FACE_UP = 1 << 8


def _knows(s, seat, c) -> bool:
    return bool(s.known[c] & (FACE_UP | 1 << seat))


def _secret_names(s, seat) -> dict[str, str]:
    """Names of the token kinds lying face down on rooms ``seat`` has not seen, by id."""
    g = s.game
    return {s.tokens[c]: g.token_name[s.tokens[c]] for c in range(g.board.cells)
            if s.tokens[c] is not None and not _knows(s, seat, c)}


@pytest.mark.seed("dungeons-jewel:61.5")
@pytest.mark.parametrize("variant,players,seed", [("rulebook", 4, 1), ("concept", 3, 2), ("revised", 2, 3), ("rulebook", 4, 4)])
def test_face_down_tokens_never_leak(variant, players, seed):
    game = make("dungeons-jewel", players=players, variant=variant)
    agents = [make_agent("heuristic", game, k, seed + k) for k in range(players)]
    s = game.new_state(seed)
    seen_events = [0] * players
    steps = 0
    while not s.is_over() and steps < 400:
        s.apply(agents[s.current_seat()].act(Decision(s)))
        steps += 1
        for seat in range(players):
            # the view shows a face only where the seat has seen it (or it is face up)
            for c, face, up in s.view(seat)["state"]["tokens"]:
                assert (face is not None) == _knows(s, seat, c)
                assert up == bool(s.known[c] & FACE_UP)
            secret = _secret_names(s, seat)
            # new events as this seat sees them name no token it has not seen
            events = s.events(seat)
            for ev in events[seen_events[seat]:]:
                data = ev["data"] or {}
                if "cell" not in data:
                    assert "token" not in data
                    continue
                c = data["cell"]
                if not _knows(s, seat, c) and s.tokens[c] is not None:
                    kind = s.tokens[c]
                    assert "token" not in data, (seat, ev)
                    assert game.token_name[kind] not in ev["text"] and kind not in json.dumps(data), (seat, ev)
            seen_events[seat] = len(events)
            # nor does the scene built from its view
            scene = game.scene(s.view(seat))
            for item in scene["boards"][0]["items"]:
                if item["id"].startswith("t"):
                    c = int(item["id"][1:])
                    if not _knows(s, seat, c):
                        assert item["text"] == "?" and item["face_down"]
                        assert all(name not in item["title"] for name in secret.values())
    # the treasure deck's order is never in a view: only its size
    assert s.view(0)["state"]["treasure_deck"] == len(s.deck)


def test_determinize_redeals_only_unseen_faces():
    s = blank()
    put(s, cell(1, 0), "fire", known=0b01)          # seat 0 has seen it
    put(s, cell(2, 0), "monster", known=0b10)       # only seat 1 has
    put(s, cell(3, 0), "spike", face_up=True)      # public
    put(s, cell(4, 0), "wall", face_up=True)
    s.pile = ["water", "gas", "wall", "dart", "trapdoor"]
    s.deck = ["helmet", "shield", "boots", "legs"]
    before_tokens = Counter(k for k in s.tokens if k) + Counter(s.pile)
    faces = Counter()
    decks = set()
    for i in range(200):
        d = s.determinize(0, Rng(i))
        assert d.tokens[cell(1, 0)] == "fire" and d.tokens[cell(3, 0)] == "spike" and d.tokens[cell(4, 0)] == "wall"
        assert Counter(k for k in d.tokens if k) + Counter(d.pile) == before_tokens
        assert d.tokens[cell(2, 0)] != "wall"  # face-down tokens are never walls
        faces[d.tokens[cell(2, 0)]] += 1
        assert sorted(d.deck) == sorted(s.deck)
        decks.add(tuple(d.deck))
        assert d.view(0)["state"] == s.view(0)["state"]
    # seat 0 cannot tell the monster from the five other unseen non-wall tokens
    assert set(faces) == {"monster", "water", "gas", "dart", "trapdoor"}
    assert len(decks) > 10
    # seat 1 has seen the monster: it stays
    assert all(s.determinize(1, Rng(i)).tokens[cell(2, 0)] == "monster" for i in range(20))


@pytest.mark.seed("dungeons-jewel:17.7", "dungeons-jewel:61.5")
def test_drawn_token_event_is_private():
    s = blank()
    s.pile = ["quicksand"]
    s.apply(("move", cell(1, 0)))
    mine = s.events(0)[-1]
    theirs = s.events(1)[-1]
    assert mine["data"]["token"] == "quicksand" and "Quicksand" in mine["text"]
    assert "token" not in theirs["data"] and "Quicksand" not in theirs["text"]
