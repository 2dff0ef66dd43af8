"""Browser: the conventions of a game site (issue 44).

The action filter starts empty at each decision; "Your turn" in the headline and the tab's title;
resign, one-click rematch and take-back (against bots, refused with the reason when a die was
rolled, and as a request between people); earlier positions during play; the hand-over screen and
the rules drawer hold the focus; and, at 390x844 in every game, no text under 11 px, no tap target
under 44 px and a board that fits the screen or says it is zoomed, with a control to fit it.
"""

from __future__ import annotations

import pytest

from .servers import call
from .test_browser import browser, pages, server, shot, state_id, wait_turn  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

GAMES = ["armies", "blackfire", "dungeons-jewel", "summoners-quest", "wizards-labyrinth"]


def _match(server, game="gridtest", seats=None, seed=1, **kw):
    body = {"game": game, "seed": seed, **kw}
    if seats is not None:
        body["seats"] = seats
    st, r = call(server.base, "POST", "/api/matches", body)
    assert st == 201, r
    return r


def _vs_bot(server, game="gridtest", seed=1):
    st, info = call(server.base, "GET", f"/api/games/{game}")
    n = info["default_players"]
    return _match(server, game, [{"kind": "human"}] + [{"kind": "bot", "agent": "random"}] * (n - 1), seed)


def _act_label(page, text):
    page.locator("#actions .action", has_text=text).first.click()


# -- 1. the filter -------------------------------------------------------------------------------
def test_the_filter_is_cleared_at_each_decision_and_says_when_nothing_matches(server, pages):  # noqa: F811
    r = _vs_bot(server)
    page = pages.new(width=1280, height=800)
    page.goto(server.base + r["seats"][0]["link"])
    assert wait_turn(page, "mine") == "mine"
    assert page.locator("#filter").is_hidden()  # a short list needs no filter
    page.keyboard.press("/")  # ... but "/" opens it
    assert page.evaluate("document.activeElement.id") == "filter"
    page.keyboard.type("zzz")
    assert page.locator("#actions .action").count() == 0
    assert "No action matches" in page.locator("#actions .no-match").inner_text()
    assert page.locator("#filter").is_visible(), "a filter holding text must stay visible"
    page.locator("#filter-clear").click()
    assert page.locator("#actions .action").count() == 3
    page.locator("#filter").fill("move to 1")
    assert page.locator("#actions .action").count() == 1
    before = state_id(page)
    page.locator("#actions .action").first.click()
    page.wait_for_function(f"Number(document.body.dataset.stateId) > {before + 1} && document.body.dataset.turn === 'mine' || document.body.dataset.turn === 'over'")
    if page.evaluate("document.body.dataset.turn") == "mine":
        assert page.locator("#filter").input_value() == ""
        assert page.locator("#actions .action").count() >= 2, "the next decision shows every action"
    assert not pages.errors, pages.errors


# -- 2. your turn, resign, rematch, take back, earlier positions ----------------------------------
def test_your_turn_in_the_headline_and_the_tab_title(server, pages):  # noqa: F811
    r = _match(server, seats=[{"kind": "human"}, {"kind": "human"}])
    p1 = pages.new(width=1280, height=800)
    p1.goto(server.base + r["seats"][1]["link"])
    assert wait_turn(p1, "wait") == "wait"
    assert "Your turn" not in p1.title()
    assert p1.locator("#status .your-turn").count() == 0
    tok = r["seats"][0]["token"]
    st, _ = call(server.base, "POST", f"/api/matches/{r['match']['id']}/actions", {"seat": 0, "state_id": 0, "index": 0}, token=tok)
    assert st == 200
    assert wait_turn(p1, "mine") == "mine"
    assert p1.title().startswith("▶ Your turn")
    assert p1.locator("#status .your-turn").inner_text() == "Your turn"
    assert "(seat 2)" in p1.locator("#who").inner_text()  # seats count from 1 where players see them
    assert p1.evaluate("Number(document.body.dataset.turnAlerts)") >= 1
    assert not pages.errors, pages.errors


def test_resign_puts_the_result_on_top_and_rematch_keeps_the_seats(server, pages):  # noqa: F811
    r = _vs_bot(server, seed=2)
    page = pages.new(width=1280, height=800)
    page.goto(server.base + r["seats"][0]["link"])
    assert wait_turn(page, "mine") == "mine"
    page.on("dialog", lambda d: d.accept())
    page.locator("#resign-btn").click()
    assert wait_turn(page, "over") == "over"
    assert "resigned" in page.locator("#gameover-text").inner_text()
    over = page.locator("#gameover").bounding_box()
    board = page.locator("#boards").bounding_box()
    assert over["y"] < board["y"], "the result sits above the board"
    st, info = call(server.base, "GET", f"/api/matches/{r['match']['id']}")
    assert info["status"] == "over" and info["results"]["winners"] == [1]
    old = page.url
    page.locator("#rematch-btn").click()
    page.wait_for_url(lambda u: u != old and "/game/" in u)
    assert page.url.split("#")[1] == old.split("#")[1]  # the same seat link works for the rematch
    assert wait_turn(page, "mine", "wait") in ("mine", "wait")
    new_id = page.url.split("/game/")[1].split("#")[0]
    st, info = call(server.base, "GET", f"/api/matches/{new_id}")
    assert [(s["kind"], s["agent"]) for s in info["seats"]] == [("human", None), ("bot", "random")]
    st, old_info = call(server.base, "GET", f"/api/matches/{r['match']['id']}")
    assert old_info["rematch"] == new_id
    shot(page, "game-site-rematch")
    assert not pages.errors, pages.errors


def test_take_back_against_a_bot_and_why_not_after_a_die_roll(server, pages):  # noqa: F811
    r = _vs_bot(server, seed=3)
    page = pages.new(width=1280, height=800)
    page.goto(server.base + r["seats"][0]["link"])
    assert wait_turn(page, "mine") == "mine"
    _act_label(page, "move to 1,0")
    page.wait_for_function("Number(document.body.dataset.stateId) >= 1")
    # the bot's reply lands first (a take-back while it is thinking could race it)
    page.wait_for_function("Number(document.body.dataset.stateId) >= 2 && document.body.dataset.turn === 'mine'")
    page.locator("#takeback-btn").click()
    page.wait_for_function("Number(document.body.dataset.stateId) === 0 && document.body.dataset.turn === 'mine'")
    assert page.locator("#actions .action", has_text="move to 1,0").count() == 1
    # "wait" rolls a die: that move cannot be taken back, and the page says why
    _act_label(page, "wait")
    page.wait_for_function("Number(document.body.dataset.stateId) >= 2 && document.body.dataset.turn === 'mine'")
    page.locator("#takeback-btn").click()
    page.wait_for_selector("#whynot:not([hidden])")
    assert "a die was rolled" in page.locator("#whynot").inner_text()
    assert state_id(page) >= 1
    # the refused request's 409 is the browser's only complaint
    assert not [e for e in pages.errors if "409 (Conflict)" not in e], pages.errors


def test_take_back_between_people_is_a_request_the_other_side_accepts(server, pages):  # noqa: F811
    r = _match(server, seats=[{"kind": "human"}, {"kind": "human"}], seed=4)
    p0, p1 = pages.new(width=1280, height=800), pages.new(width=1280, height=800)
    p0.goto(server.base + r["seats"][0]["link"])
    p1.goto(server.base + r["seats"][1]["link"])
    assert wait_turn(p0, "mine") == "mine"
    _act_label(p0, "move to 1,0")
    assert wait_turn(p1, "mine") == "mine"
    assert p0.locator("#takeback-btn").inner_text() == "Ask to take back"
    p0.locator("#takeback-btn").click()
    p1.wait_for_selector("#undo-accept")
    assert "asks to take back" in p1.locator("#undo-ask").inner_text()
    p1.locator("#undo-accept").click()
    assert wait_turn(p0, "mine") == "mine"
    p0.wait_for_function("Number(document.body.dataset.stateId) === 0")
    assert wait_turn(p1, "wait") == "wait"
    assert not pages.errors, pages.errors


def test_earlier_positions_during_play(server, pages):  # noqa: F811
    r = _vs_bot(server, seed=5)
    page = pages.new(width=1280, height=800)
    page.goto(server.base + r["seats"][0]["link"])
    assert wait_turn(page, "mine") == "mine"
    _act_label(page, "move to 1,0")
    # the bot's reply lands first, so the position count no longer changes under the history view
    page.wait_for_function("Number(document.body.dataset.stateId) >= 2 && document.body.dataset.turn === 'mine'")
    now = state_id(page)
    page.locator("#back-btn").click()
    page.wait_for_selector("#history:not([hidden])")
    assert page.evaluate("document.body.dataset.history") == str(now - 1)
    assert f"of {now}" in page.locator("#hist-label").inner_text()
    assert page.locator(".table .can-click").count() == 0, "an earlier position cannot be played"
    while page.evaluate("document.body.dataset.history") != "0":
        page.locator("#hist-prev").click()
        page.wait_for_function("document.body.dataset.history !== undefined")
        page.wait_for_timeout(30)
    assert "the start" in page.locator("#hist-label").inner_text()
    page.keyboard.press("Escape")
    page.wait_for_selector("#history", state="hidden")
    assert page.locator("#actions .action").count() >= 2
    assert not pages.errors, pages.errors


def test_open_plays_in_the_same_tab_and_back_returns_to_the_lobby(server, pages):  # noqa: F811
    page = pages.new(width=1280, height=800)
    page.goto(server.base + "/?game=gridtest")
    page.wait_for_selector('.game-card.selected[data-game="gridtest"]')
    page.locator("#create").click()
    page.wait_for_selector("#created:not([hidden])")
    link = page.locator('.link-row[data-seat="0"] a.open-seat')
    assert link.get_attribute("target") is None
    link.click()
    page.wait_for_url("**/game/**")
    page.wait_for_selector("svg.board")
    page.go_back()
    page.wait_for_url(lambda u: "/game/" not in u)
    page.wait_for_selector("#created:not([hidden])")
    assert not pages.errors, pages.errors


def test_clocks_between_people_and_a_loss_on_time(server, pages):  # noqa: F811
    st, r = call(server.base, "POST", "/api/matches", {"game": "gridtest", "seed": 6, "clock": 30,
                                                        "seats": [{"kind": "human"}, {"kind": "bot"}]})
    assert st == 400 and "between people" in r["detail"]
    r = _match(server, seats=[{"kind": "human"}, {"kind": "human"}], seed=6, clock=30)
    page = pages.new(width=1280, height=800)
    page.goto(server.base + r["seats"][0]["link"])
    assert wait_turn(page, "mine") == "mine"
    assert page.locator("#clocks .clock").count() == 2
    assert page.locator("#clocks .clock.running").inner_text().startswith("You 0:")
    page.wait_for_function("document.body.dataset.turn === 'over'", timeout=45_000)
    assert "ran out of time" in page.locator("#gameover-text").inner_text()
    assert not pages.errors, pages.errors


# -- 3. keyboard and focus -------------------------------------------------------------------------
def test_the_hand_over_screen_holds_the_focus(server, pages):  # noqa: F811
    r = _match(server, seats=[{"kind": "human"}, {"kind": "human"}], seed=7)
    page = pages.new(width=1280, height=800)
    page.goto(server.base + r["hotseat_link"])
    page.wait_for_selector("#pass:not([hidden])")
    assert page.evaluate("document.activeElement.id") == "pass-go"
    for _ in range(3):
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == "pass-go"
    assert page.evaluate("document.querySelector('.game-layout').inert") is True
    url = page.url
    page.keyboard.press("Enter")
    page.wait_for_selector("#pass", state="hidden")
    assert page.url == url
    assert wait_turn(page, "mine") == "mine"
    page.wait_for_function("document.activeElement && document.activeElement !== document.body")
    assert not pages.errors, pages.errors


def test_the_rules_drawer_holds_the_focus_and_gives_it_back(server, pages):  # noqa: F811
    r = _vs_bot(server, "dungeons-jewel", seed=8)
    page = pages.new(width=1280, height=800)
    page.goto(server.base + r["seats"][0]["link"])
    page.wait_for_selector("svg.board")
    page.locator("#rules-btn").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#drawer:not([hidden])")
    page.wait_for_selector("#drawer-doc h1, #drawer-doc h2, #drawer-doc p")
    for _ in range(12):
        page.keyboard.press("Tab")
        assert page.evaluate("document.getElementById('drawer').contains(document.activeElement)")
    page.keyboard.press("Escape")
    page.wait_for_selector("#drawer", state="hidden")
    assert page.evaluate("document.activeElement.id") == "rules-btn"
    assert not pages.errors, pages.errors


def test_arrow_keys_walk_the_action_list(server, pages):  # noqa: F811
    r = _vs_bot(server, seed=9)
    page = pages.new(width=1280, height=800)
    page.goto(server.base + r["seats"][0]["link"])
    assert wait_turn(page, "mine") == "mine"
    page.locator("#status").click()
    page.keyboard.press("a")
    assert page.evaluate("document.activeElement.classList.contains('action')")
    first = page.evaluate("document.activeElement.textContent")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.textContent") != first
    page.keyboard.press("End")
    assert page.evaluate("document.activeElement === [...document.querySelectorAll('#actions .action')].pop()")
    assert not pages.errors, pages.errors


# -- 4. the phone ------------------------------------------------------------------------------------
SMALL = """() => {
  const out = { text: [], taps: [] };
  const seen = el => { const r = el.getBoundingClientRect(); if (r.width < 1 || r.height < 1) return null;
    for (let e = el; e && e !== document; e = e.parentElement || e.parentNode) { const cs = getComputedStyle(e); if (cs.visibility === "hidden" || cs.display === "none") return null; }
    return r; };
  const name = el => (el.id ? "#" + el.id : el.tagName.toLowerCase() + (el.className && el.className.baseVal === undefined ? "." + String(el.className).split(" ")[0] : "")) + " “" + (el.textContent || el.getAttribute("aria-label") || "").trim().slice(0, 30) + "”";
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const t = walker.currentNode, el = t.parentElement;
    if (!t.textContent.trim() || !el || el.closest("svg, .sr-only, script, style")) continue;
    if (!seen(el)) continue;
    const fs = parseFloat(getComputedStyle(el).fontSize);
    if (fs < 11) out.text.push(name(el) + " " + fs.toFixed(1) + "px");
  }
  for (const t of document.querySelectorAll("svg text")) {
    if (!t.textContent.trim() || !seen(t)) continue;
    const m = t.getScreenCTM(); if (!m) continue;
    const fs = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
    if (fs < 11) out.text.push("svg text “" + t.textContent + "” " + fs.toFixed(1) + "px");
  }
  for (const el of document.querySelectorAll("a[href], button, input:not([type=hidden]), select, summary, [role=button][tabindex]")) {
    if (el.closest(".sr-only")) continue;
    const r = seen(el); if (!r) continue;
    if (r.width < 44 - 0.5 || r.height < 44 - 0.5) out.taps.push(name(el) + " " + r.width.toFixed(0) + "x" + r.height.toFixed(0));
  }
  return out;
}"""


@pytest.mark.parametrize("game_id", GAMES)
def test_phone_text_and_tap_targets_and_board_fit(server, pages, game_id):  # noqa: F811
    page = pages.new(width=390, height=844)
    page.goto(server.base + f"/?game={game_id}")
    page.wait_for_selector(f'.game-card.selected[data-game="{game_id}"]')
    page.locator(".advanced summary").click()
    lobby = page.evaluate(SMALL)
    assert not lobby["text"], ("lobby", lobby["text"][:10])
    assert not lobby["taps"], ("lobby", lobby["taps"][:10])
    r = _vs_bot(server, game_id, seed=11)
    page.goto(server.base + r["seats"][0]["link"])
    page.wait_for_selector("svg.board")
    wait_turn(page, "mine", "over")
    page.wait_for_timeout(300)  # boards are refitted once the layout settles (ResizeObserver)
    found = page.evaluate(SMALL)
    shot(page, f"phone-{game_id}")
    assert not found["text"], found["text"][:10]
    assert not found["taps"], found["taps"][:10]
    # the board fits the screen, or says it is zoomed and offers to fit it
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for wrap in page.locator(".board-wrap:not(.small)").all():
        box = wrap.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390 + 0.5
        if "zoomed" in (wrap.get_attribute("class") or ""):
            zoom = page.locator(".boards > .board-tools .board-zoom").first
            assert zoom.is_visible()
            zoom.click()
            page.wait_for_function("!document.querySelector('.board-wrap.zoomed') || document.querySelector('.board-zoom[aria-pressed=true]')")
            svg = page.locator(".board-wrap:not(.small) svg.board").first.bounding_box()
            outer = page.locator(".board-wrap:not(.small)").first.bounding_box()
            assert svg["width"] <= outer["width"] + 0.5, "Fit to screen shows the whole board"
            break
    # less pinned space: what stays on screen when the page scrolls
    pinned = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(e => ['sticky', 'fixed'].includes(getComputedStyle(e).position) && e.getClientRects().length && !e.closest('[hidden], #toasts'))
        .reduce((a, e) => a + e.getBoundingClientRect().height, 0)""")
    assert pinned <= 844 * 0.6, f"{pinned:.0f} px of 844 stay pinned"
    assert not pages.errors, pages.errors
