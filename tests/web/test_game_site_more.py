"""Browser: the rest of issue 44 (items 5 and 6) and the web part of issue 45.

Fewer clicks that choose nothing (auto-roll, Armies' suggested skill split on one key), saying what
is about to happen and what just did above the board (Blackfire), the Dungeon's Jewel's key to its
board codes; and for invited players, the seat's secret out of the address bar (a reload keeps the
seat) and a plain word on who holds the links and the seed.
"""

from __future__ import annotations

import pytest

from .servers import call
from .test_browser import browser, pages, server, state_id, wait_turn  # noqa: F401  (fixtures)
from .test_game_site import _match, _vs_bot

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


# -- issue 45: the seat's secret leaves the address bar ---------------------------------------------
def test_the_seat_token_leaves_the_address_bar_and_a_reload_keeps_the_seat(server, pages):  # noqa: F811
    r = _match(server, seats=[{"kind": "human"}, {"kind": "human"}], seed=21)
    tok = r["seats"][1]["token"]
    page = pages.new(width=1280, height=800)
    page.goto(server.base + r["seats"][1]["link"])
    wait_turn(page, "wait", "mine")
    assert tok not in page.url and page.url.endswith("#seat=1"), page.url
    assert page.evaluate(f"sessionStorage.getItem('boardlab.link.{r['match']['id']}.seat1')") == tok
    assert "(seat 2)" in page.locator("#who").inner_text()
    # an invited player is told who holds the links and the seed
    note = page.locator("#creator-note")
    assert note.is_visible() and "holds the private link of every seat" in note.inner_text() and "seed" in note.inner_text()
    page.reload()
    wait_turn(page, "wait", "mine")
    assert "(seat 2)" in page.locator("#who").inner_text(), "a reload still plays the seat"
    assert tok not in page.url
    # the address without the secret, in another browser: a spectator, told why
    other = pages.new(width=1280, height=800)
    other.goto(page.url)
    wait_turn(other, "wait", "mine")
    assert other.locator("#who").inner_text() == "Spectator"
    assert other.locator("#creator-note").is_hidden()
    assert "does not hold the private link of seat 2" in other.locator("#toasts").inner_text()
    assert not pages.errors, pages.errors


def test_the_hot_seat_secret_leaves_the_address_bar(server, pages):  # noqa: F811
    r = _match(server, seats=[{"kind": "human"}, {"kind": "bot", "agent": "random"}], seed=22)
    page = pages.new(width=1280, height=800)
    page.goto(server.base + r["hotseat_link"])
    wait_turn(page, "mine", "wait")
    host = r["hotseat_link"].split("host=")[1]
    assert host not in page.url and page.url.endswith("#hotseat"), page.url
    assert page.locator("#creator-note").is_hidden(), "the hot-seat page is the creator's own"
    page.reload()
    assert wait_turn(page, "mine", "wait") in ("mine", "wait")
    # one person against a bot is not called a hot-seat game (issue 44, the fresh person's trial)
    page.wait_for_function("document.querySelector('#who').textContent.startsWith('You are')")
    assert "Hot-seat" not in page.locator("#who").inner_text()
    assert not pages.errors, pages.errors


def test_the_lobby_tells_the_creator_the_players_are_told(server, pages):  # noqa: F811
    page = pages.new(width=1280, height=800)
    page.goto(server.base + "/?game=gridtest")
    page.wait_for_selector('.game-card.selected[data-game="gridtest"]')
    page.locator("#create").click()
    page.wait_for_selector("#created:not([hidden])")
    assert "You keep every link and the seed" in page.locator("#created .summary").inner_text()
    assert not pages.errors, pages.errors


def test_one_person_against_bots_gets_a_short_ready_panel_and_no_hot_seat(server, pages):  # noqa: F811
    page = pages.new(width=1280, height=800)
    page.goto(server.base + "/?game=armies")
    page.wait_for_selector('.game-card.selected[data-game="armies"]')
    page.locator("#create").click()
    page.wait_for_selector("#created:not([hidden])")
    summary = page.locator("#created .summary").inner_text()
    assert summary.startswith("You play White against a bot: press Play now.") and "send it" not in summary, summary
    play = page.locator("#hotseat")
    assert play.inner_text() == "Play now"
    play.click()
    page.wait_for_url("**/game/**")
    wait_turn(page, "mine", "wait")
    page.wait_for_function("document.querySelector('#who').textContent.startsWith('You are')")
    assert "Hot-seat" not in page.locator("#who").inner_text()
    # two people on one screen: the links panel and the hot-seat wording as before
    page.goto(server.base + "/?game=armies")
    page.wait_for_selector('.game-card.selected[data-game="armies"]')
    page.locator('.seat-row[data-seat="1"] .seg[data-kind="human"]').click()
    page.locator("#create").click()
    page.wait_for_selector("#created:not([hidden])")
    assert page.locator("#hotseat").inner_text() == "Play all human seats on this screen"
    assert page.locator("#created .summary").inner_text().startswith("Each human seat has a private link")
    assert not pages.errors, pages.errors


# -- issue 44, item 5: fewer clicks that choose nothing ----------------------------------------------
def test_auto_roll_takes_a_roll_with_nothing_to_choose(server, pages):  # noqa: F811
    r = _vs_bot(server, "dungeons-jewel", seed=23)
    page = pages.new(width=1280, height=800)
    page.goto(server.base + r["seats"][0]["link"])
    lone = False
    for _ in range(40):
        if wait_turn(page, "mine", "over") == "over":
            break
        labels = page.locator("#actions .action").all_inner_texts()
        if len(labels) == 1 and "roll" in labels[0]:
            lone = True
            break
        assert page.locator("#autoroll-btn").is_hidden() or page.locator("#autoroll-btn").get_attribute("aria-pressed") == "true"
        before = state_id(page)
        page.locator("#actions .action").first.click()
        page.wait_for_function(f"Number(document.body.dataset.stateId) > {before}")
    assert lone, "no roll with nothing to choose came up"
    btn = page.locator("#autoroll-btn")
    assert btn.is_visible() and btn.inner_text() == "Auto-roll: off"
    before = state_id(page)
    btn.click()
    page.wait_for_function("Number(document.body.dataset.autoRolled || 0) >= 1")
    page.wait_for_function(f"Number(document.body.dataset.stateId) > {before}")
    assert btn.get_attribute("aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('boardlab.autoroll.dungeons-jewel.0')") == "1"
    assert not pages.errors, pages.errors


def test_armies_suggests_a_skill_split_accepted_with_one_key(server, pages):  # noqa: F811
    r = _vs_bot(server, "armies", seed=24)
    page = pages.new(width=1280, height=800)
    page.goto(server.base + r["seats"][0]["link"])
    assert wait_turn(page, "mine") == "mine"
    page.wait_for_selector("#suggest:not([hidden])")
    text = page.locator("#suggest").inner_text()
    assert text.startswith("Suggested: General skill: ") and "Accept (S)" in text
    split = text.split("Suggested: General skill: ")[1].split(" (")[0]
    page.locator("#status").click()
    page.keyboard.press("s")
    page.wait_for_function("Number(document.body.dataset.stateId) >= 1")
    page.locator("#log li", has_text=f"skill points: {split}").first.wait_for()
    assert not pages.errors, pages.errors


# -- issue 44, item 6: say what is about to happen, and what just did --------------------------------
def test_blackfire_warns_above_the_board_and_recaps_after_a_move(server, pages):  # noqa: F811
    r = _vs_bot(server, "blackfire", seed=25)
    page = pages.new(width=1280, height=800)
    page.goto(server.base + r["seats"][0]["link"])
    assert wait_turn(page, "mine") == "mine"
    assert "your token 1 of " in page.locator("#prompt").inner_text()
    assert page.locator(".table .cell.can-click").count() > 20, "the setup squares glow on the board"
    for _ in range(30):  # the setup: tokens, then the first move of the play
        if wait_turn(page, "mine", "over") == "over" or page.locator("#alert:not([hidden])").count():
            break
        before = state_id(page)
        page.locator("#actions .action").first.click()
        page.wait_for_function(f"Number(document.body.dataset.stateId) > {before}")
    alert = page.locator("#alert")
    assert alert.is_visible() and "shoots any unit of yours" in alert.inner_text()
    board, warn = page.locator("#boards").bounding_box(), alert.bounding_box()
    assert warn["y"] < board["y"], "the warning sits above the board"
    labels = page.locator("#actions .action").all_inner_texts()
    move = next(i for i, t in enumerate(labels) if " to " in t)
    before = state_id(page)
    page.locator("#actions .action").nth(move).click()
    page.wait_for_function(f"Number(document.body.dataset.stateId) > {before}")
    page.wait_for_selector("#recap:not([hidden])")
    assert page.locator("#recap").inner_text().startswith("Since your last move")
    assert not pages.errors, pages.errors


def test_the_dungeons_jewel_codes_have_a_key_under_the_board(server, pages):  # noqa: F811
    r = _vs_bot(server, "dungeons-jewel", seed=26)
    page = pages.new(width=1280, height=800)
    page.goto(server.base + r["seats"][0]["link"])
    page.wait_for_selector("#codes:not([hidden])")
    text = page.locator("#codes").inner_text()
    for code in ("Mo Monster", "Fl Flooded room", "Qu Quicksand"):
        assert code in text, text
    assert page.locator("#codes").bounding_box()["y"] > page.locator("#boards").bounding_box()["y"]
    st, _ = call(server.base, "GET", f"/api/matches/{r['match']['id']}")
    assert st == 200
    assert not pages.errors, pages.errors


# -- issue 44, the fresh person's trial: the seat's own results first, and saying when it is out -------
def test_the_recap_pins_the_seats_own_roll_before_the_bots_turns(server, pages):  # noqa: F811
    r = _vs_bot(server, "dungeons-jewel", seed=27)
    page = pages.new(width=1280, height=800)
    page.goto(server.base + r["seats"][0]["link"])
    for _ in range(60):
        if wait_turn(page, "mine", "over") == "over":
            break
        labels = page.locator("#actions .action").all_inner_texts()
        roll = next((i for i, t in enumerate(labels) if "roll" in t), None)
        before = state_id(page)
        page.locator("#actions .action").nth(roll if roll is not None else 0).click()
        page.wait_for_function(f"Number(document.body.dataset.stateId) > {before}")
        if roll is None:
            continue
        if wait_turn(page, "mine", "over") == "over":
            break
        items = page.locator("#recap li:not(.ended)")
        texts = items.all_inner_texts()
        flags = [items.nth(i).get_attribute("data-own") == "1" for i in range(len(texts))]
        if all(flags):
            continue  # no other seat acted in between: nothing to push the roll away
        assert flags[0] and flags == sorted(flags, reverse=True), (texts, flags)  # the seat's lines first
        assert any("roll" in t for t, f in zip(texts, flags) if f), texts
        assert not any(t.startswith("Player 1 ") or t.startswith("You ") for t, f in zip(texts, flags) if not f), texts
        assert "yours first" in page.locator("#recap .recap-title").inner_text()
        break
    else:
        pytest.fail("no roll followed by the other seats' turns came up")
    assert not pages.errors, pages.errors


def test_a_board_that_fits_the_phone_is_not_zoomed_and_the_labels_do_not_cover_each_other(server, pages):  # noqa: F811
    page = pages.new(width=390, height=844)
    r = _vs_bot(server, "dungeons-jewel", seed=28)
    page.goto(server.base + r["seats"][0]["link"])
    page.wait_for_selector("svg.board")
    wait_turn(page, "mine", "over")
    page.wait_for_timeout(300)
    wrap = page.locator(".board-wrap:not(.small)").first
    assert "zoomed" not in (wrap.get_attribute("class") or ""), "the 7 by 7 board fits 390 px: drawn whole"
    assert page.locator(".boards > .board-tools").count() == 0
    assert page.evaluate("(() => { const w = document.querySelector('.board-wrap'); return w.scrollWidth <= w.clientWidth; })()")
    sizes = page.evaluate("[...document.querySelectorAll('svg.board .cell .bg')].map(r => r.getBoundingClientRect()).map(r => Math.min(r.width, r.height))")
    assert len(sizes) == 49 and min(sizes) >= 44 - 0.5, min(sizes)
    # a big board stays zoomed; scrolled, its row numbers go under the column letters, and a corner covers both
    r = _vs_bot(server, "blackfire", seed=29)
    page.goto(server.base + r["seats"][0]["link"])
    page.wait_for_selector(".board-wrap.zoomed svg.board")
    wait_turn(page, "mine", "over")
    page.wait_for_timeout(300)
    assert page.evaluate("[...document.querySelector('.board-wrap.zoomed svg .axes').children].map(g => g.getAttribute('class'))") == ["axes-row", "axes-col", "axes-corner"]
    page.evaluate("(() => { const w = document.querySelector('.board-wrap.zoomed'); w.scrollLeft = 150; w.scrollTop = 130; })()")
    page.wait_for_timeout(200)
    got = page.evaluate("""(() => { const w = document.querySelector('.board-wrap.zoomed'), b = w.getBoundingClientRect();
        const c = w.querySelector('.axes-corner rect').getBoundingClientRect(), cs = getComputedStyle(w);
        return [c.left - b.left - w.clientLeft - parseFloat(cs.paddingLeft), c.top - b.top - w.clientTop - parseFloat(cs.paddingTop)]; })()""")
    assert abs(got[0]) < 1.5 and abs(got[1]) < 1.5, got  # the corner sits in the box's top-left corner
    assert not pages.errors, pages.errors
