"""Issue 29, item 7: the token reference "written directly on the board" is generated from the rules.

The reference panel of the scene (the terminal and the browser both draw the scene) and the rules
document's copy come from :func:`boardlab.games.blackfire.tokens.token_reference`, built from the
variant's own option values, so it cannot drift from what the tokens do.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from boardlab.engine import make
from boardlab.games.blackfire.tokens import token_reference

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "blackfire.md"


def _panel(game) -> dict[str, str]:
    state = game.new_state(1)
    scene = game.scene(state.view(0), state.legal_actions())
    panel = next(p for p in scene["panels"] if p["title"].startswith("Tokens"))
    return {c["name"].lower(): c["text"] for c in panel["cards"]}


@pytest.mark.seed("blackfire:91.2")
@pytest.mark.parametrize("variant", ["final", "prototype"])
def test_the_scene_shows_the_reference_generated_for_the_variant(variant):
    game = make("blackfire", variant=variant)
    assert _panel(game) == token_reference(game.opt, game.token_counts)
    assert set(_panel(game)) == set(game.token_counts)


@pytest.mark.seed("blackfire:89.3")
@pytest.mark.seed("blackfire:91.2", "blackfire:87.1")
def test_prototype_teleport_is_described_as_the_jump_it_is():
    """Under ``prototype`` Teleport always jumps (``teleport_table=false``): no d6 table is printed."""
    ref = _panel(make("blackfire", variant="prototype"))
    assert "d6" not in ref["teleport"] and "Orb" not in ref["teleport"]
    assert ref["teleport"].startswith("The unit may teleport up to 3 spaces")
    assert "Roll a six-sided die. 1-4: move the Orb" in _panel(make("blackfire"))["teleport"]


@pytest.mark.seed("blackfire:91.2", "blackfire:65.1", "blackfire:73.1")
def test_revive_and_displace_say_what_the_rules_do():
    ref = _panel(make("blackfire"))
    assert "any dead unit" not in ref["revive"] and "your own dead units" in ref["revive"]
    assert "cannot attack" not in ref["displace"]
    assert "cannot shoot" in ref["displace"] and "archer contest (it needs 5+)" in ref["displace"]
    assert "never the Orb carrier onto the open exit" in ref["displace"]


@pytest.mark.seed("blackfire:91.2")
def test_the_reference_follows_the_options():
    ref = _panel(make("blackfire", options={"speed_bonus": 2, "archer_contest": False, "teleport_range": 4,
                                             "invulnerable_turns": 1}))
    assert ref["speed"] == "The unit can move up to 2 more spaces immediately."
    assert "contest" not in ref["displace"] + ref["recall"] + ref["revive"] + ref["teleport"]
    assert "is shot" in ref["displace"]
    assert "up to 4 spaces" in ref["teleport"] and "next 1 turn." in ref["invulnerable"]


def test_the_rules_document_prints_the_final_reference():
    """The doc's "Token reference" list is the generated final reference, word for word."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("### Token reference", 1)[1].split("\n#", 1)[0]
    printed = {m.group(1).lower(): m.group(2).strip() for m in re.finditer(r"^- \*\*(\w+)\*\* - (.+)$", section, re.M)}
    game = make("blackfire")
    assert printed == token_reference(game.opt, game.token_counts)


@pytest.mark.seed("blackfire:87.1")
def test_the_teleport_prompt_names_the_variants_range():
    from .helpers import field_state, move, place, rig, token

    st = field_state(teleport_range=4)
    place(st, GS=(0, 0), GA=(0, 8), GW=(7, 4), RS=(10, 1), RA=(10, 2), RW=(10, 3))
    token(st, 7, 5, "teleport")
    rig(st, (6, 6))
    move(st, "GW", 7, 5)
    scene = st.game.scene(st.view(0), st.legal_actions())
    assert scene["prompt"].startswith("Teleport: choose a square up to 4 spaces away")
