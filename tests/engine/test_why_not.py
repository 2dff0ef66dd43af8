"""``State.why_not`` for every game: it answers from the seat's own view (a determinized copy, which
the seat cannot tell from the real position, gets the same answers), a reason is given exactly when
no legal action's target uses the thing pointed at, and bad targets are one-line errors."""

from __future__ import annotations

import random

import pytest

from boardlab.engine import make
from boardlab.engine.errors import InvalidOptionError
from boardlab.engine.registry import BUILTIN

GAMES = sorted(BUILTIN)


def clickables(scene):
    """Every click id a player can point at in ``scene``: cells, nodes, items and cards."""
    out = []
    for board in scene.get("boards") or ():
        bid = board["id"]
        if board.get("kind") == "grid":
            out += [f"{bid}:{x},{y}" for y in range(board["rows"]) for x in range(board["cols"])]
        else:
            out += [f"{bid}:{n['id']}" for n in board.get("nodes") or ()]
        out += [f"item:{it['id']}" for it in board.get("items") or ()]
    for panel in scene.get("panels") or ():
        out += [f"card:{c['id']}" for c in panel.get("cards") or ()]
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_reasons_come_from_the_view_and_only_for_what_cannot_be_used(game_id):
    check_why_not(make(game_id))


CHECKS = 100  # clickables checked per game, at least


def check_why_not(game) -> int:
    """The why-not checks over seeded random playouts of ``game``; returns how many clickables were checked.

    Two playouts, checked at every 6th of their first 48 decisions, then, for a game that leaves fewer than
    ``CHECKS`` clickables there (a short game, or one without a board whose only clickables are the acting seat's
    cards), more playouts checked at every decision until it has (at most 40 in all)."""
    rng = random.Random(11)
    checked = 0
    for seed in range(1, 41):
        if seed > 2 and checked > CHECKS:
            break
        stride = 6 if seed <= 2 else 1
        state = game.new_state(seed)
        steps = 0
        while not state.is_over() and steps < 48:
            if steps % stride == 0:
                acting = state.current_seat()
                for seat in range(game.players):
                    mine = seat == acting
                    scene = game.scene(state.view(seat), state.legal_actions() if mine else ())
                    used = {c for t in scene["targets"] for c in t["clicks"]}
                    reasons = scene.get("why_not") or {}
                    assert not used & set(reasons), "a reason for something a legal action uses"
                    if not mine:
                        assert not reasons, "reasons for a seat that is not acting"
                    twin = state.determinize(seat, rng.randrange(1 << 30))
                    for click in clickables(scene):
                        answer = state.why_not(seat, click)
                        assert answer == twin.why_not(seat, click), (seat, click)
                        assert (answer is None) == (click in used or _on_used(scene, click, used)), (seat, click, answer)
                        checked += 1
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
    assert checked > CHECKS, f"{game.id}: only {checked} clickables checked in 40 playouts"
    return checked


def _on_used(scene, click, used):
    """Is ``click`` an item on a used square, a square under a used item, or a copy of a used card?"""
    for board in scene.get("boards") or ():
        for it in board.get("items") or ():
            place = f"{board['id']}:{it['x']},{it['y']}" if "x" in it else f"{board['id']}:{it.get('node')}"
            if (click == f"item:{it['id']}" and place in used) or (click == place and f"item:{it['id']}" in used):
                return True
    names = {}
    for panel in scene.get("panels") or ():
        for c in panel.get("cards") or ():
            if not c.get("face_down"):
                names.setdefault((id(panel), c.get("name")), []).append(f"card:{c['id']}")
    return any(click in group and used & set(group) for group in names.values())


def test_bad_targets_and_seats_are_one_line_errors_and_the_generic_answers():
    state = make("dungeons-jewel").new_state(3)
    seat = state.current_seat()
    for bad in ("z9", "", "   ", "card:nope", 3, None):
        with pytest.raises(InvalidOptionError):
            state.why_not(seat, bad)
    with pytest.raises(InvalidOptionError):
        state.why_not(7, "a1")
    assert state.why_not(None, "a1") == "a spectator does not act"
    assert state.why_not((seat + 1) % state.players, "a1") == "it is not your turn"
