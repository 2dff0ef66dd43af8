"""Browser: grid boards carry axis labels that name squares the way the legal actions do."""

from __future__ import annotations

import re

import pytest

from boardlab.engine import make
from boardlab.engine.registry import BUILTIN

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


IN_VIEW = """(() => { const b = document.querySelector('svg.board').getBoundingClientRect();
  const top = Math.max(b.top, 0), bottom = Math.min(b.bottom, innerHeight);
  return bottom - top >= Math.min(b.height, innerHeight) * 0.5; })()"""


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
def test_board_stays_in_view_when_choosing_far_down_the_side(server, pages, width, height):  # noqa: F811
    """The actions (and hands) sit beside or below the board; reaching the last one keeps the board visible."""
    seats = [{"kind": "human"}, {"kind": "bot", "agent": "random"}]
    st, r = call(server.base, "POST", "/api/matches", {"game": "blackfire", "seats": seats, "seed": 3})
    assert st == 201, r
    page = pages.new(width=width, height=height)
    page.goto(server.base + r["seats"][0]["link"])
    page.wait_for_selector("svg.board")
    assert wait_turn(page, "mine") == "mine"
    last = page.locator("#actions .action").last
    last.scroll_into_view_if_needed()  # a choice far down the side column (or below the board)
    last.hover()
    assert page.evaluate(IN_VIEW), f"the board scrolled out of view at {width}px"
    shot(page, f"board-in-view-{width}")
    assert not pages.errors, pages.errors


def test_a_seat_link_opened_in_a_spectator_tab_takes_the_seat(server, pages):  # noqa: F811
    st, r = call(server.base, "POST", "/api/matches", {"game": "dungeons-jewel", "seed": 2})
    assert st == 201, r
    page = pages.new()
    page.goto(server.base + r["spectator_link"])
    page.wait_for_selector("svg.board")
    assert page.locator("#who").inner_text() == "Spectator"
    page.goto(server.base + r["seats"][0]["link"])  # same page, only the fragment changes
    page.wait_for_function("document.querySelector('#who').textContent.startsWith('You are')")
    assert "Player 1" in page.locator("#who").inner_text() or "You are" in page.locator("#who").inner_text()
    assert not pages.errors, pages.errors


NODE_LABEL_CLASHES = """(() => {
  const boxes = el => el.getBoundingClientRect();
  const hit = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const nodes = [...document.querySelectorAll('svg.node-board .node')];
  const labels = [...document.querySelectorAll('svg.node-board .node-label')];
  const out = [];
  labels.forEach((l, i) => {
    const lb = boxes(l), own = l.closest('.node');
    labels.slice(i + 1).forEach(m => { if (hit(lb, boxes(m))) out.push(l.textContent + '/' + m.textContent); });
    nodes.forEach(n => { if (n !== own && !l.classList.contains('node-tag') && hit(lb, boxes(n.querySelector('circle.bg'))))
      out.push(l.textContent + ' on ' + n.dataset.square); });
  });
  return out; })()"""


@pytest.mark.parametrize("width,height", [(1280, 900), (390, 844)])
def test_summoners_quest_every_space_labelled_without_overlap_and_named_by_the_actions(server, pages, width, height):  # noqa: F811
    seats = [{"kind": "human"}] + [{"kind": "bot", "agent": "random"}] * 3
    st, r = call(server.base, "POST", "/api/matches", {"game": "summoners-quest", "seats": seats, "seed": 1})
    assert st == 201, r
    page = pages.new(width=width, height=height)
    page.goto(server.base + r["seats"][0]["link"])
    page.wait_for_selector("svg.node-board .node-label")
    assert wait_turn(page, "mine") == "mine"
    squares = page.locator("svg.node-board .node").evaluate_all("els => els.map(e => e.dataset.square)")
    assert len(squares) == 45 and all(squares) and len(set(squares)) == 45
    shown = page.locator("svg.node-board .node-label").all_text_contents()
    assert sorted(shown) == sorted(squares)  # every space, temples included, carries its label
    assert page.evaluate(NODE_LABEL_CLASHES) == []
    labels = page.locator("#actions .action-label").all_inner_texts()
    temples = [t for t in labels if t.startswith("start at")]
    assert temples
    clickable = set(page.locator("svg.node-board .node.can-click").evaluate_all("els => els.map(e => e.dataset.square)"))
    for t in temples:
        m = re.search(r"\((\w+)\)$", t)
        assert m and m.group(1) in clickable, (t, clickable)
    shot(page, f"summoners-quest-labels-{width}")
    assert not pages.errors, pages.errors


@pytest.mark.parametrize("width,height", [(1280, 900), (390, 844)])
def test_the_mana_wheel_is_captioned_in_words_and_shown_beside_the_labyrinth(server, pages, width, height):  # noqa: F811
    """Issue 20: the wheel was a ring of unlabelled dots below the fold, its legend "mana(0)"."""
    seats = [{"kind": "human"}] + [{"kind": "bot", "agent": "random"}] * 3
    st, r = call(server.base, "POST", "/api/matches", {"game": "wizards-labyrinth", "seats": seats, "seed": 1})
    assert st == 201, r
    page = pages.new(width=width, height=height)
    page.goto(server.base + r["seats"][0]["link"])
    page.wait_for_selector(".board-wrap.small svg.node-board")
    wheel = page.locator(".board-wrap.small")
    assert wheel.locator("figcaption").inner_text().startswith("Mana wheel: 2 of 8")
    labels = wheel.locator(".node-label").all_text_contents()
    assert sorted(labels, key=int) == [str(v) for v in range(9)]
    box = wheel.bounding_box()
    grid = page.locator(".board-wrap:not(.small) svg.grid-board").bounding_box()
    assert box["y"] + box["height"] <= height and box["y"] < grid["y"] + grid["height"]  # beside it, in view
    font = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.board-wrap.small .node-label')).fontSize)")
    scale = page.evaluate("(() => { const s = document.querySelector('.board-wrap.small svg'); return s.getBoundingClientRect().width / s.viewBox.baseVal.width; })()")
    assert font * scale >= 5, (font, scale)  # the numbers can be read
    assert not pages.errors, pages.errors


def _has_board(game_id: str) -> bool:
    """What the game declares: its opening scene has a board (a board-less game runs the card and hand checks)."""
    game = make(game_id)
    state = game.new_state(1)
    return bool(game.scene(state.view(state.current_seat()), state.legal_actions()).get("boards"))


ALL_GAMES = sorted(BUILTIN)  # every registered built-in game, a new one too
BOARD_GAMES = [g for g in ALL_GAMES if _has_board(g)]
CARD_GAMES = [g for g in ALL_GAMES if g not in BOARD_GAMES]
SQUARES_JS = "els => els.map(e => e.dataset.square).filter(Boolean)"


def _advance(page, until, limit: int = 12) -> bool:
    """Take the first listed action (bots answer) until ``until()`` holds; False if it never does."""
    for _ in range(limit):
        if until():
            return True
        if wait_turn(page, "mine", "over") == "over":
            return False
        before = int(page.evaluate("document.body.dataset.stateId || -1"))
        page.locator("#actions .action").first.click()
        page.wait_for_function(f"Number(document.body.dataset.stateId) > {before}")
        wait_turn(page, "mine", "over")
    return until()


@pytest.mark.parametrize("width,height", [(1280, 900), (390, 844)])
@pytest.mark.parametrize("game_id", BOARD_GAMES)
def test_every_game_names_squares_as_its_actions_and_keeps_the_board_in_view_after_a_card_click(
        server, pages, game_id, width, height):  # noqa: F811
    """Issue 20, per game at desktop and phone widths: the board's square names (grid axes, or the
    node labels) exist and name a legal action's square; clicking a card far down the side column
    (or below the board) leaves the board in view."""
    st, info = call(server.base, "GET", f"/api/games/{game_id}")
    seats = [{"kind": "human"}] + [{"kind": "bot", "agent": "random"}] * (info["default_players"] - 1)
    st, r = call(server.base, "POST", "/api/matches", {"game": game_id, "seats": seats, "seed": 1})
    assert st == 201, r
    page = pages.new(width=width, height=height)
    page.goto(server.base + r["seats"][0]["link"])
    page.wait_for_selector("svg.board")
    assert wait_turn(page, "mine") == "mine"
    board = page.locator("svg.board").first
    squares = set(board.locator(".cell[data-square]").evaluate_all(SQUARES_JS))
    if board.locator(".axis-col").count():
        cols = board.locator(".axis-col").all_text_contents()
        rows = board.locator(".axis-row").all_text_contents()
        assert squares == {c + r_ for c in cols for r_ in rows}
    assert squares, "the board names no square"

    def named() -> set[str]:
        labels = " ".join(page.locator("#actions .action-label").all_inner_texts())
        return {w for w in re.findall(r"\b[A-Za-z]{1,2}\d{0,2}[a-b]?\b", labels) if w in squares and any(ch.isdigit() or ch.isupper() for ch in w)}

    assert _advance(page, lambda: bool(named())), f"no legal action named a square of {game_id}"
    shot(page, f"names-{game_id}-{width}")

    if game_id == "dungeons-jewel":  # no cards in this game (items are panel rows): the last panel
        far = page.locator(".panel").last
    else:
        cards = page.locator(".panel .card")
        assert _advance(page, lambda: cards.count() > 0), f"no card shown in {game_id}"
        far = cards.last
    far.click(force=True)  # scrolls it into view first, as a player's click would
    page.wait_for_timeout(100)
    assert page.evaluate(IN_VIEW), f"{game_id}: the board left the view at {width}px after a card click"
    shot(page, f"card-click-{game_id}-{width}")
    assert not pages.errors, pages.errors


@pytest.mark.parametrize("width,height", [(1280, 900), (390, 844)])
@pytest.mark.parametrize("game_id", CARD_GAMES or [pytest.param("", marks=pytest.mark.skip(reason="every built-in game has a board"))])
def test_a_board_less_game_shows_its_hands_in_the_table_column_and_a_card_click_acts(
        server, pages, game_id, width, height):  # noqa: F811
    """Issue 46: a game without a board gets no big empty placeholder (a slim title band), its panels (the hands)
    sit in the table column at its full width rather than squeezed into the side column, and clicking a card
    of the player's own hand takes that action."""
    st, info = call(server.base, "GET", f"/api/games/{game_id}")
    seats = [{"kind": "human"}] + [{"kind": "bot", "agent": "random"}] * (info["default_players"] - 1)
    st, r = call(server.base, "POST", "/api/matches", {"game": game_id, "seats": seats, "seed": 1})
    assert st == 201, r
    page = pages.new(width=width, height=height)
    page.goto(server.base + r["seats"][0]["link"])
    page.wait_for_selector(".game-layout.no-board .table #panels .panel")
    assert wait_turn(page, "mine") == "mine"
    band = page.locator("svg.placeholder-board").bounding_box()
    assert band is None or band["height"] <= 60, band  # not a big empty frame
    mine = page.locator(".panel .card.can-click").first
    assert mine.count(), f"{game_id}: no clickable card in the player's hand"
    hand = page.locator(".panel", has=page.locator(".card.can-click")).first.bounding_box()
    assert hand and hand["width"] >= 0.45 * width, hand  # not the side column (380px at 1280) but the table's width
    before = int(page.evaluate("document.body.dataset.stateId || -1"))
    mine.click()
    if page.locator("#chooser:not([hidden]) .btn").count():
        page.locator("#chooser .btn").first.click()
    page.wait_for_function(f"Number(document.body.dataset.stateId) > {before}")
    shot(page, f"board-less-{game_id}-{width}")
    assert not pages.errors, pages.errors
