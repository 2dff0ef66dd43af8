"""Browser: fixes from the second fresh trial of the Wizard's Labyrinth and Summoner's Quest (issue 44).

On a phone no action button lies under the pinned board once scrolled into view; the prompt's marker
does not look like a disclosure.
"""

from __future__ import annotations

import pytest

from .test_browser import browser, pages, server, wait_turn  # noqa: F401  (fixtures)
from .test_fresh_trial import _sq_with_a_trap_card

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

# every visible button of the action list, scrolled into view the ways the page and the browser do it
# (scrollIntoView from below and from above, and focus(): the arrow keys and "A" focus a button), from
# the bottom of the page, where a button above the screen comes back at its top edge: under the board
_UNCOVERED = """how => {
  const bad = [];
  const btns = [...document.querySelectorAll('#actions button')].filter(b => b.getClientRects().length);
  for (const b of btns) {
    window.scrollTo(0, document.documentElement.scrollHeight);
    if (how === 'focus') b.focus(); else b.scrollIntoView({ block: how });
    const r = b.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const at = document.elementFromPoint(x, y);
    if (!at || !b.contains(at)) bad.push([how, b.textContent.slice(0, 40), Math.round(y), at ? (at.id || at.className.baseVal || at.className) : null]);
  }
  return [btns.length, bad];
}"""


def test_on_a_phone_no_action_button_is_under_the_pinned_board(server, pages):  # noqa: F811
    r, s, _ = _sq_with_a_trap_card(server)
    page = pages.new(width=390, height=844)
    page.goto(server.base + r["seats"][0]["link"])
    wait_turn(page, "mine")
    page.locator("#actions .group-list").first.click()  # all 45 trap spaces: a long list
    pinned = page.locator("#boards").bounding_box()
    assert pinned["height"] > 200, pinned  # the board is pinned and tall
    for how in ("nearest", "start", "focus"):
        n, bad = page.evaluate(_UNCOVERED, how)
        assert n >= 10 and not bad, (how, n, bad)
    # Playwright's own tap scrolls the button into view and hits it, from the bottom of the page too
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    last = page.locator("#actions .action").first
    last.scroll_into_view_if_needed()
    box = last.bounding_box()
    assert page.evaluate("([x, y]) => !!document.elementFromPoint(x, y).closest('#actions .action')",
                         [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
    assert not pages.errors, pages.errors


def test_the_labyrinths_loot_buttons_name_the_offered_cards(server, pages):  # noqa: F811
    """The loot choice's buttons read "card 1 to Hero 1"; a hero, who sees the offer, now reads the card's
    name and what it does (the scene's action_labels; the shared label stays blind for the wizard)."""
    import random

    from .test_browser_stacks import _act, _snap
    from .test_game_site import _match

    r = _match(server, "wizards-labyrinth", [{"kind": "human"}] * 3, seed=1, players=3)
    rnd = random.Random(1)
    for _ in range(600):
        acting = _snap(server, r, 0)["acting"]
        s = _snap(server, r, acting)
        if (s["view"]["state"]["prompt"] or {}).get("kind") == "loot":
            break
        _act(server, r, acting, s, rnd.randrange(len(s["actions"])))
    else:
        raise AssertionError("no loot choice")
    offer = s["view"]["state"]["prompt"]["cards"]
    page = pages.new(width=1280, height=800)
    page.goto(server.base + r["seats"][acting]["link"])
    wait_turn(page, "mine")
    texts = page.locator("#actions .action .action-label").all_inner_texts()
    assert len(texts) == len(s["actions"]) and not any(t.startswith("card ") for t in texts), texts
    for a, t in zip(s["actions"], texts):
        assert t.startswith(offer[a["action"][1]]) and f"to Hero {a['action'][2]} (" in t, (t, offer)
    # the filter finds a card by its name
    page.keyboard.press("/")
    page.locator("#filter").fill(offer[0].lower())
    assert page.locator("#actions .action").count() >= 1
    assert not pages.errors, pages.errors


def test_the_prompt_has_no_disclosure_triangle(server, pages):  # noqa: F811
    """A "▸" before the prompt ("▸ Jump to the next portal?") looked like a disclosure that opened
    nothing (the second fresh trial); the prompt is marked by a bar instead, and does not look clickable."""
    from .test_game_site import _vs_bot

    r = _vs_bot(server, "summoners-quest")
    page = pages.new(width=390, height=844)
    page.goto(server.base + r["seats"][0]["link"])
    wait_turn(page, "mine")
    prompt = page.locator("#prompt")
    assert prompt.is_visible() and prompt.inner_text().strip()
    before, after, cursor = page.evaluate("""() => { const p = document.getElementById('prompt');
      return [getComputedStyle(p, '::before').content, getComputedStyle(p, '::after').content, getComputedStyle(p).cursor]; }""")
    for glyph in "▸▹►▶▾▼":
        assert glyph not in before and glyph not in after and glyph not in prompt.inner_text(), (before, after)
    assert cursor != "pointer"
    assert not pages.errors, pages.errors
