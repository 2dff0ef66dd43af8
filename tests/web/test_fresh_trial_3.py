"""Browser: keyboard details from the second fresh trial (issue 44, docs/web.md).

"Play now" in the lobby puts the focus on the first decision, not on the page; Enter in the filter
with one match moves to it; the page says that the arrow keys work on the board.
"""

from __future__ import annotations

import pytest

from .test_browser import browser, pages, server, wait_turn  # noqa: F401  (fixtures)
from .test_fresh_trial import _sq_with_a_trap_card

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

_FOCUS = """() => { const a = document.activeElement; if (!a || a === document.body) return 'body';
  return a.matches('#actions .action, #actions .group-pick, .table .cell.can-click') ? 'decision' : (a.id || a.className || a.tagName); }"""


def test_play_now_puts_the_focus_on_the_first_decision(server, pages):  # noqa: F811
    page = pages.new(width=1280, height=800)
    page.goto(server.base + "/?game=summoners-quest")
    page.wait_for_selector('.game-card.selected[data-game="summoners-quest"]')
    page.locator("#create").click()
    page.wait_for_selector("#created:not([hidden])")
    assert page.locator("#hotseat").inner_text() == "Play now"
    page.locator("#hotseat").focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/game/**")
    wait_turn(page, "mine")
    page.wait_for_function(f"({_FOCUS})() === 'decision'", timeout=5000)
    assert page.evaluate(_FOCUS) == "decision"
    assert not pages.errors, pages.errors


def _unique_label(labels):
    for lab in labels:
        if sum(lab.lower() in o.lower() for o in labels) == 1:
            return lab
    raise AssertionError(labels)


def test_enter_in_the_filter_with_one_match_moves_to_it_and_a_second_enter_plays_it(server, pages):  # noqa: F811
    r, s, _ = _sq_with_a_trap_card(server)
    page = pages.new(width=1280, height=800)
    page.goto(server.base + r["seats"][0]["link"])
    wait_turn(page, "mine")
    page.locator("#actions .group-list").first.click()
    labels = page.locator("#actions .action .action-label").all_inner_texts()
    one = _unique_label(labels)
    filt = page.locator("#filter")
    filt.fill("zzz no such action")
    filt.press("Enter")
    assert page.locator("#actions .no-match").is_visible()
    assert page.evaluate("document.activeElement.id") == "filter"
    filt.fill(one)
    assert page.locator("#actions .action").count() == 1
    filt.press("Enter")
    assert page.evaluate("document.activeElement.matches('#actions .action')")
    assert page.evaluate("document.activeElement.textContent").startswith(one)
    before = int(page.evaluate("document.body.dataset.stateId"))
    page.keyboard.press("Enter")
    page.wait_for_function(f"Number(document.body.dataset.stateId) > {before}")
    assert not pages.errors, pages.errors


def test_the_page_says_the_arrow_keys_move_on_the_board(server, pages):  # noqa: F811
    r, s, _ = _sq_with_a_trap_card(server)
    page = pages.new(width=1280, height=800)
    page.goto(server.base + r["seats"][0]["link"])
    wait_turn(page, "mine")
    hint = page.locator("#keys-hint")
    assert hint.is_visible()
    text = hint.inner_text()
    assert "arrow keys" in text and "board" in text and "/" in text, text
    assert float(hint.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 11
    assert not pages.errors, pages.errors


def test_the_labyrinths_key_explains_the_room_labels(server, pages):  # noqa: F811
    """The Key lists the scene's key_notes under the pieces: what "+2/-1" on a room means."""
    import random

    from .test_browser_stacks import _act, _snap
    from .test_game_site import _match

    r = _match(server, "wizards-labyrinth", [{"kind": "human"}] * 3, seed=1, players=3)
    rnd = random.Random(1)
    for _ in range(600):
        acting = _snap(server, r, 0)["acting"]
        s = _snap(server, r, acting)
        if "key_notes" in s["scene"]:
            break
        _act(server, r, acting, s, rnd.randrange(len(s["actions"])))
    else:
        raise AssertionError("no face-up room")
    page = pages.new(width=1280, height=800)
    page.goto(server.base + r["seats"][1]["link"])
    page.wait_for_selector("#legend .legend-notes li")
    notes = page.locator("#legend .legend-notes li").all_inner_texts()
    assert any("+2/-1" in t and "mana" in t for t in notes), notes
    assert float(page.locator("#legend .legend-notes li").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 11
    assert not pages.errors, pages.errors
