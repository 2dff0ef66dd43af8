"""Browser: fixes from the fresh person's trial (docs/web.md, "A fresh person's verdicts", issue 44).

The Labyrinth's lobby gives a newcomer a Hero seat and says why; its zoomed board on a phone keeps
the width the mana wheel leaves (it was a 130 px strip beside the zoom bar); the page explains how
the game ended; keyboard focus stays where the player works.
"""

from __future__ import annotations

import pytest

from .test_browser import browser, pages, server, wait_turn  # noqa: F401  (fixtures)
from .test_game_site import _match

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


def test_the_labyrinth_lobby_gives_a_newcomer_a_hero_seat_and_says_why(server, pages):  # noqa: F811
    page = pages.new(width=1280, height=800)
    page.goto(server.base + "/?game=wizards-labyrinth")
    page.wait_for_selector('.game-card.selected[data-game="wizards-labyrinth"]')
    kinds = page.eval_on_selector_all("#seats .seat-row", "rows => rows.map(r => r.querySelector('[data-kind].on').dataset.kind)")
    assert kinds[0] == "bot" and kinds[1] == "human", kinds
    assert page.locator("#you-play").inner_text().startswith("You play Hero 1 (seat 2)")
    note = page.locator("#newcomer-note")
    assert note.is_visible() and "easier role" in note.inner_text() and "Wizard" in note.inner_text()
    # choosing the Wizard yourself hides the note
    page.locator('#seats .seat-row[data-seat="0"] [data-kind="human"]').click()
    page.locator('#seats .seat-row[data-seat="1"] [data-kind="bot"]').click()
    assert note.is_hidden()
    # another game still gives seat 1
    page.locator('.game-card[data-game="armies"]').click()
    kinds = page.eval_on_selector_all("#seats .seat-row", "rows => rows.map(r => r.querySelector('[data-kind].on').dataset.kind)")
    assert kinds[0] == "human", kinds
    assert page.locator("#newcomer-note").is_hidden()
    assert not pages.errors, pages.errors


def test_the_labyrinths_zoomed_board_keeps_its_width_on_a_phone(server, pages):  # noqa: F811
    r = _match(server, "wizards-labyrinth", [{"kind": "human"}] + [{"kind": "bot", "agent": "random"}] * 3, seed=3)
    page = pages.new(width=390, height=844)
    page.goto(server.base + r["hotseat_link"])
    wait_turn(page, "mine")
    page.wait_for_selector(".board-wrap.zoomed")
    main = page.locator(".board-wrap.zoomed").bounding_box()
    wheel = page.locator(".board-wrap.small").bounding_box()
    assert main["width"] >= 250, main  # was 128 px beside the zoom bar
    assert abs(main["y"] - wheel["y"]) < 2, (main, wheel)  # the wheel still sits small beside it
    bar = page.locator(".boards > .board-tools").bounding_box()
    assert bar["y"] + bar["height"] <= main["y"] + 1, (bar, main)  # the zoom bar has a line of its own
    assert not pages.errors, pages.errors
