"""Browser tests: Debian's chromium, headless, driven by Playwright (never ``playwright install``).

Screenshots go to ``test-artifacts/``.  The server runs in a thread of this
process (so the test games registered here are served) on a free port.
"""

from __future__ import annotations

import re
import shutil

import pytest
from playwright.sync_api import Error as PlaywrightError

from boardlab.engine import registry

from .conftest import canon
from .servers import REPO, ThreadServer, call, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

CHROMIUM = shutil.which("chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
ARTIFACTS = REPO / "test-artifacts"
WAIT = 15_000  # ms, every wait is bounded


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = ThreadServer(tmp_path_factory.mktemp("web-browser"), bot_delay=0.05).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


class Pages:
    """New pages that record JavaScript errors."""

    def __init__(self, browser):
        self.browser = browser
        self.contexts = []
        self.errors: list[str] = []

    def new(self, width=1360, height=900, csp=False):
        # Playwright's string predicates (wait_for_function) are eval'd in the page, which the
        # app's CSP forbids: tests bypass it, except test_pages_run_under_the_strict_csp.
        ctx = self.browser.new_context(viewport={"width": width, "height": height}, bypass_csp=not csp)
        self.contexts.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(WAIT)
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        page.on("console", lambda m: self.errors.append(f"console: {m.text}") if m.type == "error" else None)
        return page

    def close(self):
        for c in self.contexts:
            c.close()


@pytest.fixture
def pages(browser):
    p = Pages(browser)
    yield p
    p.close()


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def wait_turn(page, *states: str) -> str:
    sel = ",".join(f'body[data-turn="{s}"]' for s in states)
    page.wait_for_selector(sel, state="attached")
    return page.evaluate("document.body.dataset.turn")


def state_id(page) -> int:
    return int(page.evaluate("document.body.dataset.stateId || -1"))


def click_target_or_action(page) -> None:
    """Act once: click through a board target if there is one, else pick the first listed action."""
    before = state_id(page)
    for _ in range(4):
        if page.locator(".can-click").count() == 0:
            break
        try:
            page.locator(".can-click").first.click(force=True, timeout=5_000)
            if page.locator("#chooser:not([hidden]) .btn").count():
                page.locator("#chooser .btn").first.click(timeout=5_000)
        except PlaywrightError:  # the board was redrawn under the click (a bot moved): look again
            continue
        page.wait_for_timeout(50)
        if state_id(page) != before or page.evaluate("document.body.dataset.turn") != "mine":
            return
    if state_id(page) == before and page.evaluate("document.body.dataset.turn") == "mine":
        page.locator("#actions .action").first.click()
    page.wait_for_function(f"Number(document.body.dataset.stateId) > {before}")


def test_lobby_create_play_by_clicking_and_bot_answers(server, pages):
    page = pages.new()
    page.goto(server.base + "/?game=gridtest")
    page.wait_for_selector('.game-card.selected[data-game="gridtest"]')
    assert page.locator(".game-card").count() >= 2
    assert page.locator("#setup-summary").inner_text().strip()
    page.locator('.seat-row[data-seat="1"] .seg[data-kind="bot"]').click()
    shot(page, "lobby")
    page.locator("#create").click()
    page.wait_for_selector("#created:not([hidden])")
    shot(page, "lobby-created")
    href = page.locator('.link-row[data-seat="0"] a.open-seat').get_attribute("href")
    assert re.match(r"^/game/[\w-]+#seat=0&token=[\w-]{24,}$", href)
    page.goto(server.base + href)
    page.wait_for_selector("svg.board")
    turns = 0
    for _ in range(3):
        if wait_turn(page, "mine", "over") == "over":
            break
        bot_lines = page.locator("#log li", has_text="Player 2").count()
        # two clicks: the pawn, then a highlighted square
        page.locator('[data-click="item:p0"].can-click').click(force=True)
        assert page.locator('[data-click="item:p0"].picked').count() == 1
        page.locator(".cell.can-click").first.click(force=True)
        turns += 1
        if wait_turn(page, "wait", "mine", "over") == "over":
            break
        page.wait_for_function(
            f"document.querySelectorAll('#log li').length && [...document.querySelectorAll('#log li')].filter(li => li.textContent.includes('Player 2')).length > {bot_lines} || document.body.dataset.turn === 'over'")
    assert turns >= 1
    # the page's own seat reads "Player 1 (you)" in the log (issue 44)
    assert page.locator("#log li", has_text="Player 1 (you) moves").count() >= 1
    shot(page, "game-gridtest-after-clicks")
    assert not pages.errors, pages.errors


def test_second_seat_sees_no_hidden_information(server, pages):
    st, r = call(server.base, "POST", "/api/matches", {"game": "gridtest", "seats": [{"kind": "human"}] * 2, "seed": 4})
    toks = [s["token"] for s in r["seats"]]
    goals = [call(server.base, "GET", f"/api/matches/{r['match']['id']}/state?seat={k}", token=toks[k])[1]["view"]["state"]["goal"] for k in (0, 1)]
    a, b, spec = pages.new(), pages.new(), pages.new()
    a.goto(server.base + r["seats"][0]["link"])
    b.goto(server.base + r["seats"][1]["link"])
    spec.goto(server.base + r["spectator_link"])
    for p in (a, b, spec):
        p.wait_for_selector("svg.board")
    wait_turn(a, "mine")
    a.locator("#actions .action", has_text="wait").click()  # logs a private line for seat 0
    wait_turn(b, "mine")
    a.wait_for_selector("#log li.private")
    cell = lambda g: f"main:{g[0]},{g[1]}"  # noqa: E731
    assert a.locator('[data-click="item:goal"]').get_attribute("data-cell") == cell(goals[0])
    assert b.locator('[data-click="item:goal"]').get_attribute("data-cell") == cell(goals[1])
    assert spec.locator('[data-click="item:goal"]').count() == 0
    html_b, html_s = b.content(), spec.content()
    assert "your goal is" in a.content()
    for html in (html_b, html_s):
        assert "your goal is" not in html
        assert f"{goals[0][0]},{goals[0][1]}</dd>" not in html  # seat 0's goal is not in any panel
    assert f"{goals[0][0]},{goals[0][1]}</dd>" in a.content()
    assert b.locator('.panel[data-seat="0"]').inner_text().endswith("secret")
    shot(b, "second-seat-view")
    shot(spec, "spectator-view")
    assert not pages.errors, pages.errors


def test_hotseat_pass_screen_hides_the_previous_view(server, pages):
    st, r = call(server.base, "POST", "/api/matches", {"game": "gridtest", "seats": [{"kind": "human"}] * 2, "seed": 6})
    toks = [s["token"] for s in r["seats"]]
    goals = [call(server.base, "GET", f"/api/matches/{r['match']['id']}/state?seat={k}", token=toks[k])[1]["view"]["state"]["goal"] for k in (0, 1)]
    page = pages.new()
    page.goto(server.base + r["hotseat_link"])
    page.wait_for_selector("#pass:not([hidden])")
    assert "Player 1" in page.locator("#pass h1").inner_text()
    assert page.locator('[data-click="item:goal"]').count() == 0
    page.locator("#pass-go").click()
    wait_turn(page, "mine")
    assert page.locator('[data-click="item:goal"]').get_attribute("data-cell") == f"main:{goals[0][0]},{goals[0][1]}"
    page.locator("#actions .action", has_text="wait").click()
    page.wait_for_selector("#pass:not([hidden])")
    assert "Player 2" in page.locator("#pass h1").inner_text()
    shot(page, "hotseat-pass")
    # the previous seat's view is gone from the page, not merely covered
    assert page.locator("#boards > *").count() == 0 and page.locator("#log li").count() == 0
    assert "your goal is" not in page.content()
    page.locator("#pass-go").click()
    wait_turn(page, "mine")
    assert page.locator('[data-click="item:goal"]').get_attribute("data-cell") == f"main:{goals[1][0]},{goals[1][1]}"
    assert not pages.errors, pages.errors


def test_finish_a_game_then_replay(server, pages):
    st, r = call(server.base, "POST", "/api/matches", {"game": "toy", "variant": "short", "seed": 2,
                                                       "seats": [{"kind": "human"}, {"kind": "bot", "agent": "random"}]})
    page = pages.new()
    page.goto(server.base + r["seats"][0]["link"])
    page.wait_for_selector("svg.board")
    for _ in range(40):
        if wait_turn(page, "mine", "over") == "over":
            break
        before = state_id(page)
        page.locator("#actions .action").last.click()
        page.wait_for_function(f"Number(document.body.dataset.stateId) > {before}")
    page.wait_for_selector("#gameover:not([hidden])")
    text = page.locator("#gameover-text").inner_text()
    assert "reached the target" in text and ("Player 1" in text or "Player 2" in text)
    shot(page, "game-over")
    page.locator("#replay-link").click()
    page.wait_for_url(re.compile(r"/replay/"))
    page.wait_for_selector("svg.board")
    page.wait_for_function("/^\\d+ \\/ \\d+$/.test(document.getElementById('stepno').textContent) && document.getElementById('stepno').textContent.split(' / ')[0] === document.getElementById('stepno').textContent.split(' / ')[1]")
    total = int(page.locator("#stepno").inner_text().split(" / ")[1])
    assert total >= 3 and not page.locator("#result").is_hidden()
    page.locator("#first").click()
    page.wait_for_function("document.getElementById('stepno').textContent.startsWith('0 /')")
    page.locator("#next").click()
    page.wait_for_function("document.getElementById('stepno').textContent.startsWith('1 /')")
    assert "Step 1" in page.locator("#last-action").inner_text()
    page.select_option("#pov", "1")
    page.wait_for_function("location.hash.includes('seat=1')")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.getElementById('stepno').textContent.startsWith('2 /')")
    shot(page, "replay")
    assert not pages.errors, pages.errors


def test_rules_are_one_click_away(server, pages):
    st, r = call(server.base, "POST", "/api/matches", {"game": "dungeons-jewel"})
    page = pages.new()
    page.goto(server.base + r["seats"][0]["link"])
    page.wait_for_selector("svg.board")
    page.locator("#rules-btn").click()
    page.wait_for_selector("#drawer:not([hidden]) #drawer-doc h1, #drawer:not([hidden]) #drawer-doc h2")
    shot(page, "rules-drawer")
    assert not pages.errors, pages.errors


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_smoke_every_registered_game(server, pages, game_id):
    """Every registered game: create with bots and one human, load, act a few times, no JS errors."""
    st, info = call(server.base, "GET", f"/api/games/{game_id}")
    assert st == 200, info
    n = info["default_players"]
    agent = "heuristic" if "heuristic" in info["agents"] else "random"
    seats = [{"kind": "human"}] + [{"kind": "bot", "agent": agent}] * (n - 1)
    st, r = call(server.base, "POST", "/api/matches", {"game": game_id, "seats": seats, "seed": 1})
    assert st == 201, r
    page = pages.new()
    page.goto(server.base + r["seats"][0]["link"])
    page.wait_for_selector("svg.board")
    # the board may be redrawn (a bot moved) between two calls, so measure it in one step
    page.wait_for_function(
        "(() => { const b = document.querySelector('svg.board'); return b && b.getBoundingClientRect().width > 100; })()",
        timeout=10_000,
    )
    for _ in range(3):
        if wait_turn(page, "mine", "over") == "over":
            break
        click_target_or_action(page)
    shot(page, f"smoke-{game_id}")
    assert not pages.errors, pages.errors


def test_unknown_match_page_says_so_in_the_header(server, pages):
    page = pages.new()
    page.goto(server.base + "/game/no-such-match")
    page.wait_for_selector("body.fatal")
    assert page.locator("#crumb").inner_text() == "Game unavailable"
    assert "cannot be shown" in page.locator("#boards").inner_text()
    assert page.title().startswith("Game unavailable")


def test_hotseat_with_one_human_follows_bot_moves_live(server, pages):
    """Hot-seat mode with one human seat takes that seat itself; the bot's moves then arrive as updates."""
    st, r = call(server.base, "POST", "/api/matches", {"game": "gridtest", "seats": [{"kind": "human"}, {"kind": "bot", "agent": "random"}], "seed": 8})
    page = pages.new()
    page.goto(server.base + r["hotseat_link"])
    for _ in range(3):
        if wait_turn(page, "mine", "over") == "over":
            break
        before = state_id(page)
        page.locator("#actions .action").first.click()
        # our move and the bot's answer: the page follows the updates to our next turn
        page.wait_for_function(f"Number(document.body.dataset.stateId) >= {before + 2} || document.body.dataset.turn === 'over'")
    assert state_id(page) >= 2
    assert not pages.errors, pages.errors


def test_javascript_patch_matches_the_python_reference(server, pages):
    """``Boardlab.applyPatch`` (common.js) turns each snapshot into the next exactly as ``apply_update`` does."""
    import json as _json

    from boardlab.agents import Decision, make_agent
    from boardlab.engine import make
    from boardlab.web.matches import snapshot
    from boardlab.web.push import apply_update, make_update

    page = pages.new()
    page.goto(server.base + "/")
    game = make("wizards-labyrinth")
    st = game.new_state(2)
    agents = [make_agent("heuristic", game, s, s) for s in range(game.players)]
    prev = {q: snapshot(None, q, st) for q in (None, 0, 1)}
    splices = 0
    for _ in range(60):
        s = st.current_seat()
        st.apply(tuple(agents[s].act(Decision(st.clone(), s))))
        for q in prev:
            new = snapshot(None, q, st)
            upd = _json.loads(_json.dumps(make_update(prev[q], new)))
            splices += sum(op[0] == "p" for op in upd["patch"])
            old = _json.loads(_json.dumps(prev[q]))
            got = page.evaluate(
                "([s, u]) => { const ev = s.events; delete s.events; const r = Boardlab.applyPatch(s, u.patch);"
                " r.events = u.events_new ? ev.concat(u.events_new) : u.events; return r; }",
                [old, upd])
            want = apply_update(old, upd)
            assert canon(got) == canon(want) == canon(_json.loads(_json.dumps(new)))
            prev[q] = new
    assert splices > 0  # the list splices were exercised
    assert not pages.errors, pages.errors


def test_a_missed_update_brings_a_fresh_snapshot(server, pages):
    """One update is lost on the way (a gap in state ids): the spectator page asks for a fresh
    snapshot at the next update and follows the bot game to its end."""
    import json as _json

    bots = [{"kind": "bot", "agent": "random"}] * 2
    st, r = call(server.base, "POST", "/api/matches", {"game": "gridtest", "seats": bots, "seed": 9, "options": {"max_turns": 60}})
    page = pages.new()
    seen = {"updates": 0, "dropped": 0, "hellos": 0}

    def handler(ws):
        server_ws = ws.connect_to_server()

        def from_page(message):
            if isinstance(message, str) and _json.loads(message).get("type") == "hello":
                seen["hellos"] += 1
            server_ws.send(message)

        def from_server(message):
            if _json.loads(message).get("type") == "update":
                seen["updates"] += 1
                if seen["updates"] == 3:
                    seen["dropped"] += 1
                    return
            ws.send(message)

        ws.on_message(from_page)
        server_ws.on_message(from_server)

    page.route_web_socket(re.compile(r".*/ws$"), handler)
    page.goto(server.base + r["spectator_link"])
    wait_turn(page, "over")
    final = call(server.base, "GET", f"/api/matches/{r['match']['id']}")[1]
    assert state_id(page) == final["decisions"]
    assert seen["dropped"] == 1 and seen["hellos"] >= 2  # the gap was noticed and a snapshot asked for
    assert not pages.errors, pages.errors


def test_pages_run_under_the_strict_csp(server, pages):
    """Issue 30, finding 11: the lobby, a game, the rules drawer and a replay work with the CSP enforced."""
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "agent": "random"}]
    status, r = call(server.base, "POST", "/api/matches", {"game": "dungeons-jewel", "players": 2, "seats": seats, "seed": 4})
    assert status == 201, r
    page = pages.new(csp=True)
    page.goto(server.base + "/")
    page.wait_for_selector(".game-card", state="attached")
    page.goto(server.base + r["seats"][0]["link"])
    page.wait_for_selector('body[data-turn="mine"]', state="attached")
    page.wait_for_selector("svg", state="attached")
    status, r2 = call(server.base, "POST", "/api/matches", {"game": "toy", "seats": [{"kind": "bot", "agent": "random"}] * 2, "seed": 2})
    mid = r2["match"]["id"]
    wait_for(lambda: call(server.base, "GET", f"/api/matches/{mid}")[1]["status"] == "over", 30, "bot game over")
    page.goto(server.base + f"/replay/{mid}")
    page.wait_for_selector("svg", state="attached")
    page.wait_for_timeout(300)
    csp = [e for e in pages.errors if "Content Security Policy" in e or "Content-Security-Policy" in e]
    assert not csp and not pages.errors, pages.errors


def test_a_finished_match_unloaded_under_its_spectator_keeps_the_final_position(server, pages):
    """Issue 30: spectators no longer keep a finished match loaded; the page is told (4010) and keeps the board."""
    import asyncio

    from boardlab.web.matches import CLOSE_FINISHED, CLOSE_FINISHED_REASON

    bots = [{"kind": "bot", "agent": "random"}] * 2
    st, r = call(server.base, "POST", "/api/matches", {"game": "gridtest", "seats": bots, "seed": 11, "options": {"max_turns": 20}})
    assert st == 201, r
    mid = r["match"]["id"]
    page = pages.new()
    page.goto(server.base + r["spectator_link"])
    wait_turn(page, "over")
    final = state_id(page)
    hub = server.app.state.hub

    async def unload() -> None:
        m = hub.matches.get(mid)  # (newer finished matches of other tests may have let it go already)
        if m is not None:
            hub.unload(m, CLOSE_FINISHED, CLOSE_FINISHED_REASON)

    asyncio.run_coroutine_threadsafe(unload(), hub._sweeper.get_loop()).result(10)
    page.wait_for_selector("#conn.off", state="attached")
    page.wait_for_selector(".toast", state="attached")
    assert "This game is over" in page.locator("#toasts").inner_text()
    page.wait_for_function("document.getElementById('status').textContent.includes('No longer live')")
    assert mid not in hub.matches
    assert page.locator("svg.board").count() >= 1 and state_id(page) == final  # the final position stays
    assert "fatal" not in (page.get_attribute("body", "class") or "")
    page.wait_for_timeout(1500)  # and it does not reconnect (which would reload the match)
    assert mid not in hub.matches
    assert not pages.errors, pages.errors
