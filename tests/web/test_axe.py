"""Browser: axe-core finds no serious or critical accessibility violation on the lobby and on a game
page of each game (issue 32).

axe-core comes from PyPI, inside the test extra's pinned package ``axe-playwright-python`` (0.1.8,
which ships ``axe.min.js`` of axe-core 4.12.1; ``test_the_pinned_axe_core_version`` checks the
version), so nothing downloads while the tests run and nothing needs the npm registry.  It is
injected through Playwright (``page.add_script_tag(path=...)``).  A failure lists every violation: its rule, impact,
help text and the first elements it names.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from .servers import call
from .test_browser import browser, pages, server, shot, wait_turn  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

AXE_VERSION = "4.12.1"  # the axe-core inside axe-playwright-python==0.1.8 (pyproject.toml, test extra)


def _axe_script() -> Path | None:
    spec = importlib.util.find_spec("axe_playwright_python")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "axe.min.js"


AXE = _axe_script()
GAMES = ["armies", "blackfire", "dungeons-jewel", "summoners-quest", "wizards-labyrinth"]
BAD = ("serious", "critical")

RUN = """async () => {
  const r = await axe.run(document, { resultTypes: ["violations"] });
  return r.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 6).map(n => n.target.join(" ") + (n.failureSummary ? " :: " + n.failureSummary.split("\\n").slice(1).join("; ") : "")) }));
}"""


def axe_violations(page) -> list[dict]:
    if AXE is None or not AXE.is_file():
        pytest.fail("axe-core is not installed: pip install -e '.[test]' (it comes in axe-playwright-python)")
    page.add_script_tag(path=str(AXE))
    return [v for v in page.evaluate(RUN) if v["impact"] in BAD]


def test_the_pinned_axe_core_version():
    """The tests run the axe-core version the docs name, from the pinned PyPI package."""
    assert AXE is not None and AXE.is_file(), "axe-playwright-python is not installed: pip install -e '.[test]'"
    head = AXE.read_text(encoding="utf-8")[:200]
    found = re.search(r"axe v(\d+\.\d+\.\d+)", head)
    assert found and found.group(1) == AXE_VERSION, head


def report(where: str, found: list[dict]) -> str:
    lines = [f"{len(found)} serious or critical axe-core violations on {where}:"]
    for v in found:
        lines.append(f"- {v['id']} ({v['impact']}): {v['help']}")
        lines += [f"    {n}" for n in v["nodes"]]
    return "\n".join(lines)


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
def test_the_lobby_has_no_serious_axe_violation(server, pages, width, height):  # noqa: F811
    page = pages.new(width=width, height=height)
    page.goto(server.base + "/?game=wizards-labyrinth")
    page.wait_for_selector(".seat-row")
    found = axe_violations(page)
    assert not found, report(f"the lobby at {width}px", found)
    page.locator("#create").click()
    page.wait_for_selector("#created:not([hidden])")
    found = axe_violations(page)
    assert not found, report(f"the lobby's ready panel at {width}px", found)
    st, r = call(server.base, "GET", "/api/matches?limit=1")
    assert st == 200 and r["matches"], "the recent-games list was checked empty"
    assert not pages.errors, pages.errors


@pytest.mark.parametrize("game", GAMES)
def test_a_game_page_has_no_serious_axe_violation(server, pages, game):  # noqa: F811
    st, info = call(server.base, "GET", f"/api/games/{game}")
    seats = [{"kind": "human"}] + [{"kind": "bot", "agent": "random"}] * (info["default_players"] - 1)
    st, r = call(server.base, "POST", "/api/matches", {"game": game, "seats": seats, "seed": 1})
    assert st == 201, r
    page = pages.new(width=1280, height=800)
    page.goto(server.base + r["seats"][0]["link"])
    page.wait_for_selector("svg.board")
    wait_turn(page, "mine", "over")
    page.wait_for_selector("#howto")  # the first-game quick start is part of the page checked
    found = axe_violations(page)
    if found:
        shot(page, f"axe-{game}")
    assert not found, report(f"the {game} game page", found) + "\n" + json.dumps(
        {"state_id": page.evaluate("document.body.dataset.stateId")})
    assert not pages.errors, pages.errors
