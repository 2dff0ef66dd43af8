"""Browser, issue 32 (the last review): stacks of small pieces open enlarged, board text is never
clipped or covered, and a redraw that is not the seat's new decision leaves the focus where it was.

At 1280x800 and 390x844 (the phone with a touch screen: taps, not clicks).
"""

from __future__ import annotations

import time
from collections import Counter

import pytest

from .servers import call
from .test_browser import ARTIFACTS, browser, pages, server, wait_turn  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

ALL_GAMES = ["blackfire", "wizards-labyrinth", "armies", "dungeons-jewel", "summoners-quest"]
SIZES = [(1280, 800), (390, 844)]


def _page(pages, width, height):  # noqa: F811
    """A page like ``pages.new``; the phone has a touch screen (``tap``)."""
    ctx = pages.browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True, has_touch=width < 700)
    pages.contexts.append(ctx)
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    page.on("pageerror", lambda e: pages.errors.append(f"pageerror: {e}"))
    page.on("console", lambda m: pages.errors.append(f"console: {m.text}") if m.type == "error" else None)
    return page


def _snap(server, r, seat=0):  # noqa: F811
    st, s = call(server.base, "GET", f"/api/matches/{r['match']['id']}/state?seat={seat}", token=r["seats"][seat]["token"])
    assert st == 200, s
    return s


def _act(server, r, seat, s, index=0):  # noqa: F811
    st, out = call(server.base, "POST", f"/api/matches/{r['match']['id']}/actions",
                   {"seat": seat, "state_id": s["state_id"], "index": index}, token=r["seats"][seat]["token"])
    assert st == 200, out
    return out


def _stacks(scene, pickable: bool):
    """Squares ("x,y") of the main board holding two or more items, with one that can be picked (or none)."""
    board = scene["boards"][0]
    first = {t["clicks"][0] for t in scene.get("targets") or [] if t.get("clicks")}
    count = Counter(f"{it['x']},{it['y']}" for it in board.get("items", []))
    out = []
    for sq, n in count.items():
        if n < 2:
            continue
        can = any(f"item:{it['id']}" in first for it in board["items"] if f"{it['x']},{it['y']}" == sq)
        if can == pickable:
            out.append(f"{board['id']}:{sq}")
    return out


def _blackfire_with_a_stack(server):  # noqa: F811
    """Blackfire after the placement phase: each side's three pieces share its start square."""
    seats = [{"kind": "human"}, {"kind": "bot", "agent": "random"}]
    st, r = call(server.base, "POST", "/api/matches", {"game": "blackfire", "seats": seats, "seed": 1})
    assert st == 201, r
    for _ in range(200):
        s = _snap(server, r)
        if s["acting"] == 0 and _stacks(s["scene"], True) and _stacks(s["scene"], False):
            return r, s
        assert not s["over"]
        if s["acting"] == 0:
            _act(server, r, 0, s)
        else:
            time.sleep(0.05)  # the bot is to move: ask again
    raise AssertionError("no position with both sides' pieces stacked")


STACK_JS = """() => {
  const v = document.getElementById('stack'), r = v.getBoundingClientRect();
  const px = t => parseFloat(getComputedStyle(t).fontSize) * (t.getScreenCTM() ? Math.hypot(t.getScreenCTM().a, t.getScreenCTM().b) : 1);
  return {
    shown: !v.hidden, box: [r.left, r.top, r.right, r.bottom], vw: document.documentElement.clientWidth, vh: innerHeight,
    pieces: [...v.querySelectorAll('.stack-piece')].map(b => { const br = b.getBoundingClientRect(), p = b.querySelector('.piece').getBoundingClientRect();
      const icon = b.querySelector('svg.stack-icon'), vb = icon.viewBox.baseVal;
      const clipped = [...icon.querySelectorAll('text')].filter(t => { const tb = t.getBBox();
        return tb.x < vb.x - 0.5 || tb.x + tb.width > vb.x + vb.width + 0.5; }).map(t => t.textContent);
      return { name: b.querySelector('.stack-name').textContent, can: b.classList.contains('can-click'), clipped,
               button: [br.width, br.height], piece: [p.width, p.height],
               text: Math.min(...[...b.querySelectorAll('svg text')].map(px), parseFloat(getComputedStyle(b.querySelector('.stack-name')).fontSize)) }; }) };
}"""


def _open(page, cell, width):
    """Tap (phone) or click (desktop) the square beside its pieces, where no piece is hit."""
    loc = page.locator(f'#boards .cell[data-click="{cell}"]')
    loc.scroll_into_view_if_needed()
    box = loc.locator(".bg").bounding_box()
    x, y = box["x"] + box["width"] - 3, box["y"] + 3  # the square's top right corner
    if width < 700:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)
    page.wait_for_selector("#stack:not([hidden])")


@pytest.mark.parametrize("width,height", SIZES)
def test_a_stack_of_small_pieces_opens_enlarged_with_finger_sized_pieces(server, pages, width, height):  # noqa: F811
    """Blackfire's start square holds a side's three pieces, each drawn about 15 px across. A tap on it
    (or Enter on it) opens the stack enlarged: every piece a button of at least 44 px, drawn at least
    32 px across, its text at least 11 px (10 on the phone), all on screen and beside the square; the
    pieces that can be picked are marked and tapping one picks it; Esc closes it and focus goes back to
    the square. The other side's stack opens too, to be read; its pieces cannot be picked."""
    r, s = _blackfire_with_a_stack(server)
    mine, theirs = _stacks(s["scene"], True)[0], _stacks(s["scene"], False)[0]
    page = _page(pages, width, height)
    page.goto(server.base + r["seats"][0]["link"])
    assert wait_turn(page, "mine") == "mine"
    min_px = 11 if width >= 1280 else 10
    small = page.evaluate("""c => [...document.querySelectorAll('#boards .item[data-cell]')].filter(e => e.dataset.cell === c)
      .map(e => e.querySelector('.piece').getBoundingClientRect().width)""", mine)
    assert len(small) == 3 and max(small) < 32, small  # why the stack needs opening: its pieces are small

    _open(page, mine, width)
    v = page.evaluate(STACK_JS)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"stack-open-{width}.png"))
    assert v["shown"] and len(v["pieces"]) == 3, v
    left, top, right, bottom = v["box"]
    assert left >= 0 and top >= 0 and right <= v["vw"] and bottom <= v["vh"], v  # all of it on screen
    for p in v["pieces"]:
        assert min(p["button"]) >= 44 and min(p["piece"]) >= 32, p
        assert p["text"] >= min_px and not p["clipped"], p
        assert p["can"], p  # your own pieces, your turn: each can be picked
    names = page.evaluate("""c => [...document.querySelectorAll('#boards .item[data-cell]')].filter(e => e.dataset.cell === c)
      .map(e => e.dataset.name)""", mine)
    assert [p["name"] for p in v["pieces"]] == names
    sq = page.locator(f'#boards .cell[data-click="{mine}"] .bg').bounding_box()
    assert sq["y"] + sq["height"] <= top or sq["y"] >= bottom or sq["x"] + sq["width"] <= left or sq["x"] >= right, \
        "the enlarged stack covers its own square"
    assert page.evaluate("document.activeElement.classList.contains('stack-piece')")

    # pick the second piece from the enlarged stack
    second = page.locator("#stack .stack-piece").nth(1)
    second.tap() if width < 700 else second.click()
    assert page.locator("#stack").is_hidden()
    assert page.locator("#boards .item.picked").evaluate_all("els => els.map(e => e.dataset.name)") == [names[1]]
    assert page.evaluate("document.activeElement.getAttribute('data-click')") == mine

    # the keyboard: Enter on the square opens it, Esc closes it and gives the square back its focus
    page.keyboard.press("Escape")  # drop the picked piece
    page.locator(f'#boards .cell[data-click="{mine}"]').focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#stack:not([hidden])")
    page.keyboard.press("Escape")
    assert page.locator("#stack").is_hidden()
    assert page.evaluate("document.activeElement.getAttribute('data-click')") == mine

    # the other side's stack: enlarged to be read, nothing in it can be picked, a tap says why not
    _open(page, theirs, width)
    v = page.evaluate(STACK_JS)
    assert len(v["pieces"]) == 3 and not any(p["can"] for p in v["pieces"]), v
    assert all(min(p["piece"]) >= 32 for p in v["pieces"]), v
    page.screenshot(path=str(ARTIFACTS / f"stack-theirs-{width}.png"))
    first = page.locator("#stack .stack-piece").first
    first.tap() if width < 700 else first.click()
    assert page.locator("#whynot").is_visible() and "can't use this now" in page.locator("#whynot").inner_text()
    assert not pages.errors, pages.errors


CLIPPED_JS = """() => {
  /* every text of every board: inside the board; a square's or space's label inside its square and
     not covered by a piece on it */
  const out = [];
  const inside = (a, b, horiz) => a.x >= b.x - 0.5 && a.x + a.width <= b.x + b.width + 0.5 &&
    (horiz || (a.y >= b.y - 0.5 && a.y + a.height <= b.y + b.height + 0.5));
  for (const svgEl of document.querySelectorAll('#boards svg.board')) {
    const vb = svgEl.viewBox.baseVal;
    for (const t of svgEl.querySelectorAll('text')) {
      if (!t.textContent.trim()) continue;
      const tb = t.getBBox(), what = `${svgEl.dataset.board} "${t.textContent}"`;
      if (!inside(tb, vb)) out.push(what + ' runs off the board');
      const cell = t.closest('.cell');
      if (!cell || t.classList.contains('node-tag')) continue;
      /* a space's round label: across (its glyph box is taller than a small space) */
      if (!inside(tb, cell.querySelector('.bg').getBBox(), t.classList.contains('node-label'))) out.push(what + ' runs out of its square');
      if (!t.classList.contains('cell-label')) continue;
      for (const it of svgEl.querySelectorAll('.item[data-cell]')) {
        if (it.dataset.cell !== cell.dataset.click) continue;
        const pb = it.querySelector('.piece').getBBox();
        const w = Math.min(tb.x + tb.width, pb.x + pb.width) - Math.max(tb.x, pb.x);
        const h = Math.min(tb.y + tb.height * 0.8, pb.y + pb.height) - Math.max(tb.y + tb.height * 0.2, pb.y);
        if (w > 1 && h > 1) out.push(what + ' is covered by ' + it.dataset.name);
      }
    }
  }
  return out;
}"""


@pytest.mark.parametrize("width,height", SIZES)
@pytest.mark.parametrize("game_id", ALL_GAMES)
def test_no_board_text_is_clipped_or_covered(server, pages, game_id, width, height):  # noqa: F811
    """Every text on every board stays inside the board; a square's label (the Labyrinth's TOWER and
    START on a phone) stays inside its square and no piece covers it; a space's label fits its space.
    Checked at the start and after each of the seat's first six decisions (bots answering)."""
    st, info = call(server.base, "GET", f"/api/games/{game_id}")
    seats = [{"kind": "human"}] + [{"kind": "bot", "agent": "random"}] * (info["default_players"] - 1)
    st, r = call(server.base, "POST", "/api/matches", {"game": game_id, "seats": seats, "seed": 1})
    assert st == 201, r
    page = _page(pages, width, height)
    page.goto(server.base + r["seats"][0]["link"])
    page.wait_for_selector("svg.board")
    bad = set()
    for _ in range(7):
        if wait_turn(page, "mine", "over") == "over":
            break
        page.wait_for_timeout(100)  # a board is fitted again once the layout around it settles
        bad.update(page.evaluate(CLIPPED_JS))
        before = int(page.evaluate("document.body.dataset.stateId"))
        page.locator("#actions .action").first.dispatch_event("click")
        page.wait_for_function(f"Number(document.body.dataset.stateId) > {before}")
    assert not bad, sorted(bad)[:10]
    assert not pages.errors, pages.errors


def test_a_redraw_that_is_not_your_decision_leaves_the_focus_where_you_put_it(server, pages):  # noqa: F811
    """The Dungeon's Jewel with a second human seat (played here through the API) and a bot. While
    another seat moves, the page is redrawn: a square the player focused keeps the focus (it jumped to
    the first choosable square, or fell to <body>). When the turn comes to the player, focus goes to the
    decision. A redraw during the player's own decision (a new width) leaves the focus on the square
    they chose to look at."""
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}, {"kind": "bot", "agent": "random"}]
    st, r = call(server.base, "POST", "/api/matches", {"game": "dungeons-jewel", "players": 3, "seats": seats, "seed": 1})
    assert st == 201, r
    s = _snap(server, r, 1)
    assert s["acting"] == 1, s["acting"]  # Bo starts (seed 1): the page waits, whatever the timing
    page = _page(pages, 1280, 800)
    page.goto(server.base + r["seats"][0]["link"])
    page.wait_for_selector("svg.board")
    assert wait_turn(page, "wait") == "wait"
    cell = page.locator("#boards .cell[role=button]").nth(9)
    cell.focus()
    click = cell.get_attribute("data-click")
    name = page.evaluate("document.activeElement.getAttribute('aria-label')")
    checked = 0
    while s["acting"] == 1:  # Bo's moves redraw Ann's board; none is a decision of hers
        before = int(page.evaluate("document.body.dataset.stateId"))
        s = _act(server, r, 1, s)
        page.wait_for_function(f"Number(document.body.dataset.stateId) > {before}")
        if s["acting"] == 1:  # Bo is still to move, so nothing else can have happened since
            assert page.evaluate("document.activeElement.getAttribute('data-click')") == click, \
                page.evaluate("document.activeElement.outerHTML.slice(0, 80)")
            assert page.evaluate("document.activeElement.getAttribute('aria-label')").split(",")[0] == name.split(",")[0]
            checked += 1
    assert checked >= 1

    # the bot moves, then it is Ann's decision: the focus goes to it
    assert wait_turn(page, "mine") == "mine"
    page.wait_for_function("!!document.activeElement.closest('#boards .cell.can-click, #actions .action')")

    # during her decision she looks at another square; a new width redraws the board
    other = page.locator("#boards .cell[role=button]:not(.can-click)").nth(3)
    other.focus()
    click = other.get_attribute("data-click")
    page.evaluate("document.querySelector('#boards svg.board').dataset.old = '1'")
    page.set_viewport_size({"width": 1200, "height": 800})
    page.wait_for_function("!document.querySelector('#boards svg.board[data-old]')")
    page.wait_for_timeout(100)
    assert page.evaluate("document.activeElement.getAttribute('data-click')") == click
    assert page.evaluate("document.activeElement.closest('svg.board') && document.activeElement.tabIndex") == 0
    assert not pages.errors, pages.errors


BOX_JS = """() => { const w = document.querySelector('#boards .board-wrap.zoomed');
  return w ? [w.scrollLeft, w.scrollTop] : null; }"""
IN_BOX_JS = """sel => { const w = document.querySelector('#boards .board-wrap.zoomed'), b = w.getBoundingClientRect();
  const x0 = b.left + w.clientLeft, y0 = b.top + w.clientTop;
  const els = [...document.querySelectorAll(sel)];
  return els.length > 0 && els.some(e => { const r = e.getBoundingClientRect();
    return r.left >= x0 - 1 && r.right <= x0 + w.clientWidth + 1 && r.top >= y0 - 1 && r.bottom <= y0 + w.clientHeight + 1; }); }"""


def test_a_zoomed_board_on_a_phone_keeps_its_scroll_and_shows_the_deciding_squares(server, pages):  # noqa: F811
    """Blackfire on a 390x844 phone is zoomed in a box that scrolls. Another seat's moves redraw the
    board: the box stays where the player scrolled it (it jumped back to the top left corner). At the
    end, the squares the scene marks (the open exit, where the Orb is carried out) are brought into the
    box, not left out of sight in a corner of it."""
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}]
    st, r = call(server.base, "POST", "/api/matches", {"game": "blackfire", "seats": seats, "seed": 2,
                                                       "options": {"max_turns": 3}})
    assert st == 201, r
    s = _snap(server, r, 0)
    while s["acting"] == 0:  # Ann's opening decisions, so that the page waits for Bo
        s = _act(server, r, 0, s)
    assert s["acting"] == 1 and not s["over"]
    page = _page(pages, 390, 844)
    page.goto(server.base + r["seats"][0]["link"])
    page.wait_for_selector("#boards .board-wrap.zoomed svg.board")
    assert wait_turn(page, "wait") == "wait"
    page.evaluate("() => { const w = document.querySelector('#boards .board-wrap.zoomed'); w.scrollLeft = 150; w.scrollTop = 120; }")
    at = page.evaluate(BOX_JS)
    assert at[0] > 0 and at[1] > 0, at  # the box does scroll both ways
    s = _snap(server, r, 1)
    redraws = 0
    while s["acting"] == 1 and not s["over"]:
        before = int(page.evaluate("document.body.dataset.stateId"))
        s = _act(server, r, 1, s)
        page.wait_for_function(f"Number(document.body.dataset.stateId) > {before}")
        if s["acting"] == 1 and not s["over"]:
            assert page.evaluate(BOX_JS) == at, "a redraw moved the zoomed board"
            redraws += 1
    assert redraws >= 1
    # play on to the turn cap; then the page shows the end with the open exit in the box
    while not s["over"]:
        seat = s["acting"]
        s = _act(server, r, seat, _snap(server, r, seat))
    page.evaluate("() => { const w = document.querySelector('#boards .board-wrap.zoomed'); w.scrollLeft = 0; w.scrollTop = 0; }")
    page.reload()
    assert wait_turn(page, "over") == "over"
    page.wait_for_selector("#boards .board-wrap.zoomed .cell.marked")
    assert page.evaluate(IN_BOX_JS, "#boards .cell.marked"), "the open exit is out of sight at the end"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "end-zoomed-blackfire-390.png"))
    assert not pages.errors, pages.errors


def test_the_hotseat_pass_screen_removes_an_enlarged_stack(server, pages):  # noqa: F811
    """Hot-seat: a stack opened by the keyboard (the other side's, to read it) stays open while its
    player picks an action from the list; when that ends the turn, the pass screen must remove the
    enlarged stack with the rest of that player's view."""
    seats = [{"kind": "human"}, {"kind": "human"}]
    st, r = call(server.base, "POST", "/api/matches", {"game": "blackfire", "seats": seats, "seed": 1})
    assert st == 201, r
    for _ in range(40):
        s = _snap(server, r, 0)
        if s["acting"] == 0 and _stacks(s["scene"], False):
            break
        _act(server, r, s["acting"], _snap(server, r, s["acting"]))
    else:
        raise AssertionError("no stack of the other side's pieces")
    theirs = _stacks(s["scene"], False)[0]
    page = _page(pages, 1280, 800)
    page.goto(server.base + r["hotseat_link"])
    page.wait_for_selector("#pass:not([hidden])")
    page.locator("#pass-go").click()
    # the page keeps data-turn "pass" until the snapshot asked for on "go" arrives: wait for it
    assert wait_turn(page, "mine") == "mine"
    for i in range(6):
        turn = wait_turn(page, "mine", "pass")
        if turn == "pass" and i:  # the last move's redraw came before its turn ended: it passed
            break
        assert turn == "mine"
        page.locator(f'#boards .cell[data-click="{theirs}"]').focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("#stack:not([hidden]) .stack-piece")
        before = int(page.evaluate("document.body.dataset.stateId"))
        page.locator("#actions .action").last.dispatch_event("click")  # no pointer: the stack stays open
        page.wait_for_function(f"Number(document.body.dataset.stateId) > {before} || document.body.dataset.turn === 'pass'")
        if page.evaluate("document.body.dataset.turn") == "pass":
            break
    else:
        raise AssertionError("the turn never passed")
    assert page.locator("#pass").is_visible()
    assert page.locator("#stack").is_hidden() and page.locator("#stack .stack-piece").count() == 0
    assert not pages.errors, pages.errors
