"""Browser: the lobby and the page around the board (issue 32).

Seats show their role and which one you take; the hot-seat page never calls your seat "Spectator";
the ready panel comes into view with focus; "Create game" is above the fold at 1280x800; bots have
plain names; the recent-games list fits a phone; each game's quick start is shown at a first game
and heads the rules drawer.
"""

from __future__ import annotations

import re

import pytest

from boardlab.engine.registry import game_class
from boardlab.web import rules

from .servers import call
from .test_browser import browser, pages, server, shot, wait_turn  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

GAMES = ["armies", "blackfire", "dungeons-jewel", "summoners-quest", "wizards-labyrinth"]


def open_lobby(page, base: str, game: str) -> None:
    page.goto(f"{base}/?game={game}")
    page.wait_for_selector(f'.game-card.selected[data-game="{game}"]')
    page.wait_for_selector(".seat-row")


def test_seats_show_their_role_and_which_one_you_take(server, pages):  # noqa: F811
    page = pages.new(width=1280, height=800)
    open_lobby(page, server.base, "wizards-labyrinth")
    roles = page.locator(".seat-row .role").all_inner_texts()
    assert roles == ["Wizard", "Hero 1", "Hero 2", "Hero 3"]
    # a newcomer gets a Hero, not the Wizard, the hardest role (issue 44, the fresh person's trial)
    assert page.locator('.seat-row[data-seat="0"] .seat-who').inner_text() == "bot"
    assert page.locator('.seat-row[data-seat="1"] .seat-who').inner_text() == "you"
    assert "You play Hero 1 (seat 2)" in page.locator("#you-play").inner_text()
    assert "Wizard" in page.locator("#seats-note").inner_text()  # the quick start's seat line
    # the player count changes the roles; a second human seat is "another person", not you
    page.locator('#players .seg[data-n="3"]').click()
    assert page.locator(".seat-row .role").all_inner_texts() == ["Wizard", "Hero 1", "Hero 2"]
    page.locator('.seat-row[data-seat="2"] .seg[data-kind="human"]').click()
    assert page.locator('.seat-row[data-seat="2"] .seat-who').inner_text() == "another person"
    assert "Hero 2" in page.locator("#you-play").inner_text()
    # taking the Wizard instead: make the wizard human and the first hero a bot
    page.locator('.seat-row[data-seat="0"] .seg[data-kind="human"]').click()
    page.locator('.seat-row[data-seat="1"] .seg[data-kind="bot"]').click()
    assert "You play Wizard (seat 1)" in page.locator("#you-play").inner_text()
    open_lobby(page, server.base, "armies")
    assert page.locator(".seat-row .role").all_inner_texts() == ["White", "Black"]
    open_lobby(page, server.base, "dungeons-jewel")
    assert page.locator(".seat-row .role").first.inner_text() == "Player 1 (top left)"
    page.locator("#create").click()
    page.wait_for_selector("#created:not([hidden])")
    assert "Player 1 (top left)" in page.locator('.link-row[data-seat="0"]').inner_text()
    assert not pages.errors, pages.errors


WHO_LOG = """
window.__who = [];
document.addEventListener("DOMContentLoaded", () => {
  const who = document.getElementById("who");
  if (!who) return;
  new MutationObserver(() => window.__who.push(who.textContent)).observe(who, { childList: true, characterData: true, subtree: true });
});
"""


def test_the_hot_seat_page_never_calls_your_seat_spectator(server, pages):  # noqa: F811
    # Blackfire: Player 1 places tokens first; the human is Player 2, so a bot acts before the human
    seats = [{"kind": "bot", "agent": "random"}, {"kind": "human"}]
    st, r = call(server.base, "POST", "/api/matches", {"game": "blackfire", "seats": seats, "seed": 3})
    assert st == 201, r
    page = pages.new(width=1280, height=800)
    page.add_init_script(WHO_LOG)
    page.goto(server.base + r["hotseat_link"])
    page.wait_for_selector("svg.board")
    assert wait_turn(page, "mine", "over") == "mine"
    history = page.evaluate("window.__who")
    assert history, "the seat chip was never filled"
    assert not [t for t in history if "Spectator" in t], history
    assert "Player 2" in history[0], history
    assert not pages.errors, pages.errors


@pytest.mark.parametrize("game", GAMES)
def test_create_is_above_the_fold_and_the_ready_panel_takes_focus(server, pages, game):  # noqa: F811
    page = pages.new(width=1280, height=800)
    open_lobby(page, server.base, game)
    box = page.locator("#create").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 800, f"Create game ends at {box} in {game}"
    page.locator("#create").click()
    page.wait_for_selector("#created:not([hidden])")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'created-title'")
    title = page.locator("#created-title").bounding_box()
    header = page.locator(".topbar").bounding_box()
    assert title is not None and header is not None
    assert title["y"] >= header["y"] + header["height"] - 1, "the ready panel's title is under the top bar"
    assert title["y"] + title["height"] <= 800, "the ready panel is below the fold"
    hotseat = page.locator("#hotseat").bounding_box()
    assert hotseat is not None and hotseat["y"] + hotseat["height"] <= 800
    if game == "wizards-labyrinth":
        shot(page, "lobby-ready-1280")
    assert not pages.errors, pages.errors


JARGON = re.compile(r"^(heuristic|ismcts|mcts|random|persona:.*|easy|medium|hard)$|bot · ")


def test_bots_have_plain_names_with_the_spec_in_a_detail(server, pages):  # noqa: F811
    page = pages.new(width=1280, height=800)
    open_lobby(page, server.base, "armies")
    labels = page.locator('.seat-row[data-seat="1"] select.agent option').all_inner_texts()
    assert labels[:3] == ["Easy", "Medium", "Hard"], labels
    assert not [x for x in labels if JARGON.search(x)], labels
    assert page.locator('.seat-row[data-seat="1"] select.agent').input_value() == "easy"
    page.locator(".bot-help summary").click()
    help_text = page.locator("#bot-help-list").inner_text()
    assert "Easy" in help_text and "easy = heuristic" in help_text
    assert "Agent: ismcts" in help_text and "Deep search" in help_text
    assert "Easy bot" in page.locator("#you-play").inner_text()
    page.locator("#create").click()
    page.wait_for_selector("#created:not([hidden])")
    bot_row = page.locator(".link-row.bot").inner_text()
    assert "Bot · Easy" in bot_row and "heuristic" not in bot_row, bot_row
    assert not pages.errors, pages.errors


def test_recent_games_fit_a_phone(server, pages):  # noqa: F811
    page = pages.new(width=390, height=844)
    open_lobby(page, server.base, "summoners-quest")
    for _ in range(2):
        page.locator("#create").click()
        page.wait_for_selector("#created:not([hidden])")
        page.locator("#again").click()
    page.reload()
    page.wait_for_selector("#recent .row-actions a")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the lobby is {width} px wide on a 390 px screen"
    resume = page.locator("#recent a", has_text="Resume").first
    resume.scroll_into_view_if_needed()
    box = resume.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    shot(page, "lobby-phone")
    assert not pages.errors, pages.errors


def quick_start_words(game: str) -> int:
    md = rules.quick_start(game_class(game))
    assert md, f"{game} has no '## Quick start' in its rules document"
    return len(re.sub(r"[*`]", "", md).split())


@pytest.mark.parametrize("game", GAMES)
def test_each_quick_start_is_short_and_in_the_players_part(game):
    n = quick_start_words(game)
    assert 40 <= n < 150, f"{game}: the quick start has {n} words"
    md = rules.quick_start(game_class(game))
    for part in ("Goal", "A turn", "How to win"):
        assert f"**{part}:**" in md, (game, part)
    players, devs = rules.split_for_players(rules.rules_text(game_class(game)))
    assert "## Quick start" in players and "## Quick start" not in devs
    # the first section of the players' part
    assert re.findall(r"^## .*", players, re.M)[0] == "## Quick start"


@pytest.mark.parametrize("game", GAMES)
def test_the_quick_start_opens_at_a_first_game_and_heads_the_rules_drawer(server, pages, game):  # noqa: F811
    n = seats_for(server, game)
    st, r = call(server.base, "POST", "/api/matches", {"game": game, "seats": n, "seed": 1})
    assert st == 201, r
    page = pages.new(width=1280, height=800)
    page.goto(server.base + r["seats"][0]["link"])
    page.wait_for_selector("#howto")
    assert page.locator("#howto-title").inner_text().startswith("How to play")
    text = page.locator("#howto").inner_text()
    assert "Goal:" in text and "How to win:" in text
    if game == "blackfire":
        shot(page, "howto-blackfire")
    page.locator("#howto-ok").click()
    assert page.locator("#howto").count() == 0
    page.reload()
    page.wait_for_selector("svg.board")
    page.wait_for_timeout(500)
    assert page.locator("#howto").count() == 0, "the quick start came back after 'Got it'"
    page.locator("#rules-btn").click()
    page.wait_for_selector("#drawer-doc h2")
    assert page.locator("#drawer-doc h2").first.inner_text() == "Quick start"
    assert not pages.errors, pages.errors


def seats_for(server, game: str) -> list[dict]:
    st, info = call(server.base, "GET", f"/api/games/{game}")
    return [{"kind": "human"}] + [{"kind": "bot", "agent": "random"}] * (info["default_players"] - 1)
