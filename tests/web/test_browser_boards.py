"""Browser: grid boards carry axis labels that name squares the way the legal actions do."""

from __future__ import annotations

import re

import pytest

from .servers import call
from .test_browser import browser, pages, server, shot, wait_turn  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


@pytest.mark.parametrize("game_id", ["blackfire", "dungeons-jewel", "wizards-labyrinth"])
def test_axis_labels_match_a_legal_actions_square(server, pages, game_id):  # noqa: F811
    st, info = call(server.base, "GET", f"/api/games/{game_id}")
    n = info["default_players"]
    seats = [{"kind": "human"}] + [{"kind": "bot", "agent": "random"}] * (n - 1)
    st, r = call(server.base, "POST", "/api/matches", {"game": game_id, "seats": seats, "seed": 1})
    assert st == 201, r
    page = pages.new(width=1280, height=900)
    page.goto(server.base + r["seats"][0]["link"])
    page.wait_for_selector("svg.grid-board .axis-label")
    board = page.locator("svg.grid-board").first
    cols = board.locator(".axis-col").all_text_contents()
    rows = board.locator(".axis-row").all_text_contents()
    assert cols and rows and all(cols) and all(rows)
    squares = set(board.locator(".cell[data-square]").evaluate_all("els => els.map(e => e.dataset.square)"))
    assert len(squares) == len(cols) * len(rows)
    assert {c + r for c in cols for r in rows} == squares
    if wait_turn(page, "mine", "over") == "mine":
        labels = " ".join(page.locator("#actions .action-label").all_inner_texts())
        named = set(re.findall(r"\b[a-zA-Z]\d{1,2}\b", labels))
        if game_id != "wizards-labyrinth":  # its opening actions name towers by number
            assert named and named <= squares, (named, sorted(squares)[:5])
        clickable = set(board.locator(".cell.can-click[data-square]").evaluate_all(
            "els => els.map(e => e.dataset.square)"))
        assert named <= clickable | squares
    shot(page, f"axes-{game_id}")
    assert not pages.errors, pages.errors
