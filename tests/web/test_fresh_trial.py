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


# -- keyboard focus -----------------------------------------------------------------------------
def test_enter_on_a_lobby_game_card_moves_on_to_its_setup_form(server, pages):  # noqa: F811
    page = pages.new(width=1280, height=800)
    page.goto(server.base + "/")
    page.wait_for_selector(".game-card.selected")
    page.locator('.game-card[data-game="armies"]').focus()
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'setup-title'")
    assert page.locator("#setup-title").inner_text() == "New game of Armies"
    page.keyboard.press("Tab")  # on into the setup (the rules link, then the form)
    assert page.evaluate("!!document.activeElement.closest('#setup')")
    # a mouse click on a card only selects it
    page.locator('.game-card[data-game="blackfire"]').click()
    assert page.evaluate("document.activeElement.dataset.game") == "blackfire"
    assert not pages.errors, pages.errors


def _xy(page):
    return page.evaluate("[document.activeElement.dataset.x, document.activeElement.dataset.y].map(Number)")


def test_blackfire_keeps_the_focus_beside_the_token_just_placed(server, pages):  # noqa: F811
    r = _match(server, "blackfire", [{"kind": "human"}, {"kind": "bot", "agent": "random"}], seed=5)
    page = pages.new(width=1280, height=800)
    page.goto(server.base + r["seats"][0]["link"])
    wait_turn(page, "mine")
    cells = page.locator("#boards .cell.can-click[role=button]")
    assert cells.count() > 40
    far = cells.nth(cells.count() // 2)
    far.focus()
    x, y = _xy(page)
    first = page.evaluate("[...document.querySelectorAll('#boards .cell.can-click[role=button]')][0].dataset.square")
    before = int(page.evaluate("document.body.dataset.stateId"))
    page.keyboard.press("Enter")
    page.wait_for_function(f"Number(document.body.dataset.stateId) > {before}")
    wait_turn(page, "mine")
    page.wait_for_function("document.activeElement && document.activeElement.matches('#boards .cell.can-click')")
    x2, y2 = _xy(page)
    assert abs(x2 - x) + abs(y2 - y) <= 2, ((x, y), (x2, y2))  # beside the placed token, not back at the first square
    assert page.evaluate("document.activeElement.dataset.square") != first
    assert not pages.errors, pages.errors


def test_tab_back_into_a_redrawn_board_returns_to_the_last_square(server, pages):  # noqa: F811
    r = _match(server, "blackfire", [{"kind": "human"}, {"kind": "bot", "agent": "random"}], seed=6)
    page = pages.new(width=1280, height=800)
    page.goto(server.base + r["seats"][0]["link"])
    wait_turn(page, "mine")
    cell = page.locator("#boards .cell.can-click[role=button]").nth(30)
    cell.focus()
    click = cell.get_attribute("data-click")
    page.locator("#actions .action").first.focus()  # away from the board
    page.evaluate("document.querySelector('#boards svg.board').dataset.old = '1'")
    page.set_viewport_size({"width": 1200, "height": 800})  # a redraw
    page.wait_for_function("!document.querySelector('#boards svg.board[data-old]')")
    page.wait_for_timeout(100)
    stop = page.evaluate("[...document.querySelectorAll('#boards svg.board .cell[tabindex=\"0\"]')].map(c => c.dataset.click)")
    assert stop == [click], (stop, click)
    assert not pages.errors, pages.errors


def test_the_arrow_keys_move_between_the_pieces_of_an_enlarged_stack(server, pages):  # noqa: F811
    from .test_browser_stacks import _blackfire_with_a_stack, _stacks

    r, s = _blackfire_with_a_stack(server)
    mine = _stacks(s["scene"], True)[0]
    page = pages.new(width=1280, height=800)
    page.goto(server.base + r["seats"][0]["link"])
    wait_turn(page, "mine")
    page.locator(f'#boards .cell[data-click="{mine}"]').focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#stack:not([hidden])")
    names = page.eval_on_selector_all("#stack .stack-piece", "bs => bs.map(b => b.querySelector('.stack-name').textContent)")
    assert len(names) == 3
    now = lambda: page.evaluate("document.activeElement.querySelector('.stack-name').textContent")  # noqa: E731
    assert now() == names[0]
    page.keyboard.press("ArrowDown")
    assert now() == names[1]
    page.keyboard.press("ArrowRight")
    assert now() == names[2]
    page.keyboard.press("ArrowDown")  # round to the first
    assert now() == names[0]
    page.keyboard.press("ArrowUp")
    assert now() == names[2]
    page.keyboard.press("Home")
    assert now() == names[0]
    assert not pages.errors, pages.errors


# -- Armies -------------------------------------------------------------------------------------
def test_an_armies_battle_line_in_the_log_shows_its_result_and_the_dice_on_demand(server, pages):  # noqa: F811
    import random
    import time

    from .test_browser_stacks import _act, _snap

    r = _match(server, "armies", [{"kind": "human"}, {"kind": "bot", "agent": "random"}], seed=3)
    rnd = random.Random(3)
    for _ in range(400):
        s = _snap(server, r)
        if any((e.get("text") or "").startswith("Attack ") for e in s.get("events") or []) or s["over"]:
            break
        if s["acting"] == 0:
            _act(server, r, 0, s, rnd.randrange(len(s["actions"])))
        else:
            time.sleep(0.05)
    assert any((e.get("text") or "").startswith("Attack ") for e in s.get("events") or []), "no battle was fought"
    page = pages.new(width=1280, height=800)
    page.goto(server.base + r["seats"][0]["link"])
    page.wait_for_selector("#log details.log-more")
    fold = page.locator("#log details.log-more").first
    summary = fold.locator("summary").inner_text()
    assert summary.startswith("Attack ") and summary.endswith("(details)") and "Defense:" not in summary, summary
    assert "Defense:" not in fold.inner_text()  # the dice stay folded
    fold.locator("summary").click()
    assert "Defense:" in fold.inner_text()
    assert not pages.errors, pages.errors


def test_the_filter_does_not_mention_the_slash_key_on_a_touch_screen(server, pages):  # noqa: F811
    r = _match(server, "armies", [{"kind": "human"}, {"kind": "bot", "agent": "random"}], seed=4)
    ctx = pages.browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True, has_touch=True, is_mobile=True)
    pages.contexts.append(ctx)
    phone = ctx.new_page()
    phone.goto(server.base + r["seats"][0]["link"])
    wait_turn(phone, "mine", "wait")
    assert phone.locator("#filter").get_attribute("placeholder") == "Filter actions"
    desk = pages.new(width=1280, height=800)
    desk.goto(server.base + r["seats"][0]["link"])
    wait_turn(desk, "mine", "wait")
    assert desk.locator("#filter").get_attribute("placeholder") == "Filter actions (press /)"
    assert not pages.errors, pages.errors


def test_the_dragons_square_says_dragon_in_full_on_a_phone(server, pages):  # noqa: F811
    r = _match(server, "dungeons-jewel", [{"kind": "human"}] + [{"kind": "bot", "agent": "random"}] * 3, seed=3)
    page = pages.new(width=390, height=844)
    page.goto(server.base + r["seats"][0]["link"])
    page.wait_for_selector("#boards .cell-label")
    page.wait_for_timeout(300)
    labels = page.eval_on_selector_all("#boards .cell-label", "ts => ts.map(t => t.textContent)")
    assert "Dragon" in labels, labels  # was "Drag…"
    inside = page.evaluate("""() => { const t = [...document.querySelectorAll('#boards .cell-label')].find(t => t.textContent === 'Dragon');
      const a = t.getBoundingClientRect(), b = t.closest('.cell').querySelector('.bg').getBoundingClientRect();
      return a.left >= b.left - 0.5 && a.right <= b.right + 0.5; }""")
    assert inside, "the word stays inside its square"
    assert not pages.errors, pages.errors


def test_on_a_phone_the_quick_start_comes_before_the_status_and_the_board(server, pages):  # noqa: F811
    r = _match(server, "blackfire", [{"kind": "human"}, {"kind": "bot", "agent": "random"}], seed=7)
    page = pages.new(width=390, height=844)
    page.goto(server.base + r["seats"][0]["link"])
    page.wait_for_selector("#howto")
    wait_turn(page, "mine", "wait")
    howto, status, board = (page.locator(s).bounding_box() for s in ("#howto", "#status", "#boards"))
    assert howto["y"] + howto["height"] <= status["y"] <= board["y"], (howto, status, board)
    # folded to its title, so that the board still shows on the first screen; a tap opens it
    toggle = page.locator("#howto-toggle")
    assert toggle.get_attribute("aria-expanded") == "false" and page.locator("#howto .howto-body").is_hidden()
    assert board["y"] < 844 and toggle.bounding_box()["height"] >= 44
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true" and "Goal:" in page.locator("#howto .howto-body").inner_text()
    page.locator("#howto-ok").click()
    assert page.locator("#howto").count() == 0
    # a wide screen keeps it at the top of the side column, beside the board
    wide = pages.new(width=1280, height=800)
    wide.goto(server.base + r["seats"][0]["link"])
    wide.wait_for_selector("#howto")
    assert wide.evaluate("!!document.getElementById('howto').closest('.side')")
    assert not pages.errors, pages.errors


def test_the_armies_board_is_seen_whole_at_1280x800_with_the_recap_open(server, pages):  # noqa: F811
    import random

    r = _match(server, "armies", [{"kind": "human"}, {"kind": "bot", "agent": "random"}], seed=5)
    page = pages.new(width=1280, height=800)
    page.goto(server.base + r["seats"][0]["link"])
    rnd = random.Random(1)
    for _ in range(12):
        if wait_turn(page, "mine", "over") == "over":
            break
        if page.locator("#recap:not([hidden])").count() and int(page.evaluate("document.body.dataset.stateId")) > 3:
            break
        n = page.locator("#actions .action").count()
        before = int(page.evaluate("document.body.dataset.stateId"))
        page.locator("#actions .action").nth(rnd.randrange(max(1, n - 1))).click()
        page.wait_for_function(f"Number(document.body.dataset.stateId) > {before}")
    assert wait_turn(page, "mine") == "mine" and page.locator("#recap").is_visible()
    page.wait_for_timeout(300)
    board = page.locator("#boards svg.board").bounding_box()
    assert board["y"] + board["height"] <= 800, board  # ranks 1 and 2 were below the fold
    cell = page.locator("#boards .cell .bg").first.bounding_box()
    assert cell["width"] >= 34 - 0.5, cell  # never smaller than a mouse's square
    assert not pages.errors, pages.errors


def _sq_with_a_trap_card(server):
    """Summoner's Quest between two people played through the API (a fixed line of random choices) until
    seat 1 holds a card with one action per space (a trap: 45 spaces)."""
    import random
    from collections import Counter

    from .test_browser_stacks import _act, _snap

    r = _match(server, "summoners-quest", [{"kind": "human"}, {"kind": "human"}], seed=1, players=2)
    rnd = random.Random(1)
    for _ in range(400):
        acting = _snap(server, r, 0)["acting"]
        s = _snap(server, r, acting)
        if acting == 0:
            by_card = Counter(t["clicks"][0] for t in s["scene"]["targets"]
                              if len(t["clicks"]) >= 2 and t["clicks"][0].startswith("card:"))
            if by_card and by_card.most_common(1)[0][1] >= 8:
                return r, s, by_card
        _act(server, r, acting, s, rnd.randrange(len(s["actions"])))
    raise AssertionError("no trap card in seat 1's hand")


def test_a_card_with_one_action_per_space_is_one_entry_that_picks_on_the_board(server, pages):  # noqa: F811
    r, s, by_card = _sq_with_a_trap_card(server)
    first, n = by_card.most_common(1)[0]
    page = pages.new(width=1280, height=800)
    page.goto(server.base + r["seats"][0]["link"])
    wait_turn(page, "mine")
    entry = page.locator(f'#actions .group-pick[data-first="{first}"]')
    assert f"({n} choices: pick one on the board)" in entry.inner_text()
    assert page.locator("#actions .action").count() == len(s["actions"]) - sum(v for v in by_card.values() if v >= 8)
    entry.click()
    assert page.locator("#boards .can-click").count() == n  # the card is picked: its places glow
    before = int(page.evaluate("document.body.dataset.stateId"))
    page.locator("#boards .can-click").first.click()
    page.wait_for_function(f"Number(document.body.dataset.stateId) > {before}")
    assert not pages.errors, pages.errors


def test_list_all_opens_a_grouped_entry_into_its_actions(server, pages):  # noqa: F811
    r, s, by_card = _sq_with_a_trap_card(server)
    page = pages.new(width=1280, height=800)
    page.goto(server.base + r["seats"][0]["link"])
    wait_turn(page, "mine")
    before = page.locator("#actions .action").count()
    page.locator("#actions .group-list").first.click()
    assert page.locator("#actions .action").count() == before + by_card.most_common(1)[0][1]
    assert not pages.errors, pages.errors
