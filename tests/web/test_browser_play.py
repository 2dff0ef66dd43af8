"""Browser, issue 32: the game page's board for a stranger, on a desktop and a phone, with or without a mouse.

Known face-down items drawn as known; "why not?" answers and hints; a board that fits the screen
(text size, tap targets or zoom, no page overflow, sides that differ by pattern as well as colour,
stacked pieces fanned out, the end view); keyboard play, a live region and a key to the pieces.
"""

from __future__ import annotations

import random

import pytest

from boardlab.engine import registry

from .servers import call
from .test_browser import ARTIFACTS, browser, pages, server, shot, wait_turn  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

ALL_GAMES = ["blackfire", "wizards-labyrinth", "armies", "dungeons-jewel", "summoners-quest"]
SIZES = [(1280, 800), (390, 844)]


def open_game(server, pages, game_id, width=1280, height=800, seed=1, bots="random", csp=False):  # noqa: F811
    st, info = call(server.base, "GET", f"/api/games/{game_id}")
    seats = [{"kind": "human"}] + [{"kind": "bot", "agent": bots}] * (info["default_players"] - 1)
    st, r = call(server.base, "POST", "/api/matches", {"game": game_id, "seats": seats, "seed": seed})
    assert st == 201, r
    page = pages.new(width=width, height=height, csp=csp)
    page.goto(server.base + r["seats"][0]["link"])
    page.wait_for_selector("svg.board")
    return page, r


def shot_view(page, name: str) -> None:
    """A screenshot of what is on screen (the viewport), for looking at the board as a player sees it."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.wait_for_timeout(150)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def snapshot(server, r, seat=0):
    st, s = call(server.base, "GET", f"/api/matches/{r['match']['id']}/state?seat={seat}", token=r["seats"][seat]["token"])
    assert st == 200, s
    return s


# ---- 3. a board that fits ---------------------------------------------------------------------
FIT_JS = """(minPx) => {
  const small = [], taps = [];
  for (const t of document.querySelectorAll('#boards svg.board text')) {
    if (!t.textContent.trim() || t.closest('[hidden]')) continue;
    const m = t.getScreenCTM(); if (!m) continue;
    const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
    if (px < minPx) small.push(t.textContent + ' ' + px.toFixed(1));
  }
  for (const c of document.querySelectorAll('#boards .cell.can-click, #boards .item.can-click')) {
    /* a piece is tapped through its square too (game.js picks the piece on a tapped square) */
    const cell = c.dataset.cell && [...document.querySelectorAll('#boards .cell')].find(e => e.dataset.click === c.dataset.cell);
    const r = ((cell || c).querySelector('.bg') || c).getBoundingClientRect();
    if (Math.min(r.width, r.height) < 32) taps.push((c.dataset.square || c.dataset.click) + ' ' + r.width.toFixed(0));
  }
  return { small: small.slice(0, 8), nsmall: small.length, taps: taps.slice(0, 8),
           overflow: document.documentElement.scrollWidth - innerWidth };
}"""

SIDES_JS = """() => {
  /* the sides' non-colour marks: pattern overlays on their pieces and on their panels' swatches */
  const items = {}, swatches = {};
  for (const it of document.querySelectorAll('#boards .item[data-side]')) {
    const mark = it.querySelector('.side-mark'), shape = it.querySelector('.piece').tagName;
    const pat = mark ? mark.getAttribute('fill').replace(/-b\\d+\\)$/, ')') : 'plain';
    (items[it.dataset.side] = items[it.dataset.side] || new Set()).add(shape + ':' + pat);
  }
  for (const s of document.querySelectorAll('#panels .swatch[class*=side-]'))
    swatches[s.className] = getComputedStyle(s).backgroundImage;
  return { items: Object.fromEntries(Object.entries(items).map(([k, v]) => [k, [...v]])), swatches };
}"""

# a deuteranopia simulation (Machado et al. 2009, severity 1) applied to the whole page
DEUTAN = ("0.367 0.861 -0.228 0 0  0.280 0.673 0.047 0 0  -0.012 0.043 0.969 0 0  0 0 0 1 0")


def _advance_until(page, cond: str, limit: int = 40) -> bool:
    for _ in range(limit):
        if page.evaluate(cond):
            return True
        if wait_turn(page, "mine", "over") == "over":
            return bool(page.evaluate(cond))
        before = int(page.evaluate("document.body.dataset.stateId || -1"))
        page.locator("#actions .action").last.dispatch_event("click")
        page.wait_for_function(f"Number(document.body.dataset.stateId) > {before}")
    return bool(page.evaluate(cond))


@pytest.mark.parametrize("width,height", SIZES)
@pytest.mark.parametrize("game_id", ALL_GAMES)
def test_the_board_fits_reads_and_tells_sides_apart_by_more_than_colour(server, pages, game_id, width, height):  # noqa: F811
    """Issue 32: text at least 11 px at 1280x800 and 10 px at 390x844; every clickable square or piece
    at least 32 px (the board zooms in a scrolling box when it would be smaller); the page never
    scrolls sideways; the sides carry different patterns, so they still differ under a deuteranopia
    filter, where their colours may not."""
    page, r = open_game(server, pages, game_id, width, height)
    min_px = 11 if width >= 1280 else 10
    # play on until pieces of two sides are on the board (Blackfire's placement has none)
    has_sides = "document.querySelectorAll('#panels .swatch[class*=side-]').length >= 2"
    two_sides = "new Set([...document.querySelectorAll('#boards .item[data-side]')].map(e => e.dataset.side)).size >= 2"
    if game_id == "blackfire":
        assert _advance_until(page, two_sides), f"{game_id}: no two sides' pieces on the board"
    wait_turn(page, "mine", "over")
    fit = page.evaluate(FIT_JS, min_px)
    assert fit["nsmall"] == 0, (game_id, width, fit["small"])
    assert fit["taps"] == [], (game_id, width, fit["taps"])
    assert fit["overflow"] <= 0, f"{game_id} at {width}px scrolls sideways by {fit['overflow']}px"
    page.locator(".board-wrap").first.evaluate("e => e.scrollIntoView()")
    shot_view(page, f"board-{game_id}-{width}")
    sides = page.evaluate(SIDES_JS)
    if page.evaluate(has_sides):
        bg = list(sides["swatches"].values())
        assert len(set(bg)) == len(bg), sides  # each side's swatch has its own pattern
        marks = [tuple(sorted(v)) for v in sides["items"].values()]
        assert len(set(marks)) == len(marks), sides  # each side's pieces have their own pattern
        # under a simulated deuteranopia, pixels of the two sides' pieces: colour may merge, the
        # pattern stays (a side with a pattern overlay shows light stripes/dots inside its pieces)
        page.evaluate("""m => { const s = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
          s.innerHTML = `<filter id="deutan"><feColorMatrix type="matrix" values="${m}"/></filter>`;
          s.style.cssText = 'position:absolute;width:0;height:0'; document.body.appendChild(s);
          document.documentElement.style.filter = 'url(#deutan)'; }""", DEUTAN)
        if len(sides["items"]) >= 2:
            assert page.locator("#boards .item .side-mark").count() > 0
    shot(page, f"fit-{game_id}-{width}")
    assert not pages.errors, pages.errors


def test_stacked_pieces_fan_out_and_nodes_are_finger_sized_on_a_phone(server, pages):  # noqa: F811
    """Summoner's Quest at 390x844: two pieces on one node do not overlap, and a node is >= 32 px."""
    page, r = open_game(server, pages, "summoners-quest", 390, 844)
    wait_turn(page, "mine")
    scene = snapshot(server, r)["scene"]
    board = next(b for b in scene["boards"] if b["kind"] == "nodes")
    node = board["nodes"][5]["id"]
    board = dict(board, items=[{"id": "a", "node": node, "text": "S1", "color": "#c00", "badge": "10"},
                               {"id": "b", "node": node, "text": "S2", "color": "#06c", "badge": "9"},
                               {"id": "c", "node": node, "text": "T", "color": "#b7950b", "shape": "card"}])
    boxes = page.evaluate("""sc => { const div = document.createElement('div'); div.id = 'probe';
      document.querySelector('#boards').after(div);
      window.Boardlab.render(sc, { boards: div });
      return [...div.querySelectorAll('.item .piece')].map(e => { const r = e.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom]; }); }""", dict(scene, boards=[board]))
    assert len(boxes) == 3
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            overlap = min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])
            assert min(overlap) <= 0.5, (a, b)
    size = page.evaluate("Math.min(...[...document.querySelectorAll('#boards .node circle.bg')].map(c => c.getBoundingClientRect().width))")
    assert size >= 32, size
    assert not pages.errors, pages.errors


def test_the_end_banner_sits_above_the_board(server, pages):  # noqa: F811
    """At the end, the result is at the top, where the player looks (issue 44; it sat under the board,
    below the fold), and the whole board still fits the 1280x800 screen under the top bar."""
    page, r = open_game(server, pages, "blackfire", 1280, 800)
    page.evaluate("document.getElementById('gameover').hidden = false")
    board = page.locator("#boards svg.board").first.bounding_box()
    banner = page.locator("#gameover").bounding_box()
    assert banner["y"] + banner["height"] <= board["y"], (board, banner)
    assert board["height"] <= 800 - 60, board
    assert not pages.errors, pages.errors


# ---- 1. what the seat knows -----------------------------------------------------------------
def _scenes(game_id: str, n: int = 40, seed: int = 3):
    """Scenes of every seat from a seeded random playout (every 4th decision)."""
    g = registry.make(game_id)
    st, rng, out = g.new_state(seed), random.Random(seed), []
    for step in range(n * 4):
        if st.is_over():
            break
        if step % 4 == 0:
            for seat in range(g.players):
                acts = st.legal_actions() if st.current_seat() == seat else ()
                out.append(g.scene(st.view(seat), acts))
        st.apply(rng.choice(st.legal_actions()))
    return out


RENDER_ITEMS_JS = """scenes => { const div = document.createElement('div'); document.body.appendChild(div);
  const out = [];
  for (const sc of scenes) {
    window.Boardlab.render({ boards: sc.boards, panels: sc.panels }, { boards: div });
    out.push([...div.querySelectorAll('.item')].map(g => { const t = g.querySelector('.item-text');
      return [g.dataset.click, t ? t.textContent : '', g.classList.contains('known')]; }));
  }
  div.remove(); return out; }"""


@pytest.mark.parametrize("game_id", ALL_GAMES)
def test_no_item_the_view_names_is_drawn_as_unknown(server, pages, game_id):  # noqa: F811
    """Issue 32: a face-down item whose scene names it (its text is not "?") is drawn with that text,
    marked as face down (a folded corner, class "known"); only truly unknown items show "?"."""
    page, r = open_game(server, pages, game_id)
    scenes = _scenes(game_id)
    drawn = page.evaluate(RENDER_ITEMS_JS, scenes)
    known_seen = 0
    for sc, items in zip(scenes, drawn):
        expect = [it for b in sc["boards"] for it in b.get("items", [])]
        assert len(items) == len(expect)
        by_id = {"item:" + str(it["id"]): it for it in expect if it.get("id") is not None}
        for click, text, known in items:
            it = by_id.get(click)
            if it is None:
                continue
            named = it.get("text") not in (None, "", "?")
            if it.get("face_down") and named:
                known_seen += 1
                assert known and text and text != "?", (game_id, it, text)
                assert text == str(it["text"]) or text.endswith("…")
            if it.get("face_down") and not named:
                assert text == "?" and not known
    if game_id == "dungeons-jewel":
        assert known_seen > 0  # your own face-down tokens ("... (face down; you have seen it)")
    assert not pages.errors, pages.errors


# ---- 2. why not? --------------------------------------------------------------------------------
def test_why_not_answers_a_click_and_shows_beside_cards_and_the_hint_under_the_prompt(server, pages):  # noqa: F811
    """Armies' first decision (the General's skill points) is made in the action list: clicking a
    square says why it cannot be used now, on the page and in the live region; the hint line is
    shown under the prompt; each unplayable card carries its reason beside it."""
    page, r = open_game(server, pages, "armies", 1280, 800)
    assert wait_turn(page, "mine") == "mine"
    sc = snapshot(server, r)["scene"]
    assert sc.get("hint") and sc.get("why_not")
    assert page.locator("#hint").inner_text() == sc["hint"]
    click, reason = next((k, v) for k, v in sc["why_not"].items() if k.startswith("main:"))
    page.locator(f'#boards [data-click="{click}"]').click(force=True)
    msg = page.locator("#whynot")
    assert msg.is_visible() and reason in msg.inner_text()
    page.wait_for_function("document.getElementById('announce').textContent.length > 0")
    assert reason in page.locator("#announce").text_content()
    cards = [c for p in sc["panels"] for c in p.get("cards") or [] if c.get("why_not") and not c.get("face_down")]
    shown = page.locator("#panels .card .why-not").all_inner_texts()
    assert len(shown) == len(cards) and all(c["why_not"] in t for c, t in zip(cards, shown))
    # a hand with an unplayable card (Armies' reason for a card it cannot afford)
    hand = {"title": "Your hand", "seat": 0, "cards": [
        {"id": "h1", "name": "Ambush", "text": "Leader Technique"},
        {"id": "h2", "name": "Charge", "text": "Army", "why_not": "it costs 2 Gnar and your pieces hold 1 Gnar"}]}
    beside = page.evaluate("""p => { const div = document.createElement('div'); document.body.appendChild(div);
      window.Boardlab.render({ panels: [p] }, { panels: div });
      return [...div.querySelectorAll('.card')].map(c => (c.querySelector('.why-not') || {}).textContent || ''); }""", hand)
    assert beside[0] == "" and "it costs 2 Gnar and your pieces hold 1 Gnar" in beside[1]
    shot(page, "why-not-armies")
    assert not pages.errors, pages.errors


# ---- 4. without a mouse ---------------------------------------------------------------------------
def test_keyboard_play_names_cells_moves_with_arrows_and_focuses_the_next_decision(server, pages):  # noqa: F811
    """Dungeon's Jewel: cells take focus with names ("c4: ..."); arrow keys move between them; a
    focused action highlights its square; Enter plays; the bots' answer is announced; focus lands on
    the next decision, never on <body>; the key to the pieces is a list on the page."""
    page, r = open_game(server, pages, "dungeons-jewel", 1280, 800)
    assert wait_turn(page, "mine") == "mine"
    first = page.locator("#boards .cell[tabindex='0']")
    assert first.count() == 1
    first.focus()
    name = page.evaluate("document.activeElement.getAttribute('aria-label')")
    sq = page.evaluate("document.activeElement.dataset.square")
    assert name.startswith(sq + ": ") and "can be chosen" in name
    x, y = page.evaluate("[document.activeElement.dataset.x, document.activeElement.dataset.y].map(Number)")
    page.keyboard.press("ArrowRight" if x == 0 else "ArrowLeft")
    x2, y2 = page.evaluate("[document.activeElement.dataset.x, document.activeElement.dataset.y].map(Number)")
    assert (abs(x2 - x), y2) == (1, y)
    page.keyboard.press("ArrowDown" if y == 0 else "ArrowUp")
    assert page.evaluate("Math.abs(Number(document.activeElement.dataset.y) - %d)" % y) == 1
    pinned = page.locator("#actions .action.has-target").first
    pinned.focus()
    assert page.locator("#boards .hint").count() >= 1  # its square lights up
    legend = page.locator("#legend .legend-list li")
    assert legend.count() >= 1 and legend.first.is_visible()
    page.locator("#boards .cell.can-click[role=button]").first.focus()
    # play by keyboard only: Enter on whatever has focus; focus always lands on the next decision
    announced = False
    for _ in range(8):
        before = int(page.evaluate("document.body.dataset.stateId"))
        page.keyboard.press("Enter")
        page.wait_for_function(f"Number(document.body.dataset.stateId) > {before}")
        if wait_turn(page, "mine", "over") == "over":
            break
        page.wait_for_function("document.activeElement && document.activeElement !== document.body")
        assert page.evaluate("!!document.activeElement.closest('#boards .cell.can-click, #actions .action, #chooser')")
        announced = announced or bool(page.evaluate("document.getElementById('announce').textContent"))
        if announced:
            break
    assert announced, "the bots' moves were never announced"
    assert not pages.errors, pages.errors
