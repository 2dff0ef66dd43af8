"""Every RULE_CHANGES entry in scripts/findings.py is well formed: each flip names options the game really has,
with allowed values, so a row can never be 'run' on an option the game silently ignores (issue 19)."""

import importlib.util
from pathlib import Path

import pytest

from boardlab.engine import registry

ROOT = Path(__file__).resolve().parents[2]


def load_findings():
    spec = importlib.util.spec_from_file_location("findings_script_entries", ROOT / "scripts" / "findings.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


F = load_findings()


@pytest.mark.parametrize("game_id", ["armies", "summoners-quest"])
def test_entries_flip_real_options_with_quotes(game_id):
    spec = F.RULE_CHANGES[game_id]
    game = registry.make(game_id, players=spec["base"].get("players"), variant=spec["base"]["variant"])
    assert spec["changes"] and spec.get("not_available")
    for change, flip, said, expect, *extra in spec["changes"]:
        assert said and change
        assert expect is None or (expect[0] == "turns" or expect[0].startswith(("role:", "seat:"))) and expect[1] in (-1, 1)
        flip = {k: v for k, v in flip.items() if k != "restrict"}
        # the flipped game builds, and really differs from the base in each flipped option
        flipped = registry.make(game_id, players=spec["base"].get("players"), variant=spec["base"]["variant"], options=flip)
        for name, value in flip.items():
            assert flipped.option_values[name] == value != game.option_values[name], (change, name)
    for change, why in spec["not_available"]:
        assert change and why


def test_an_unknown_option_in_a_flip_is_refused():
    with pytest.raises(Exception):
        registry.make("summoners-quest", players=4, variant="standard", options={"no_such_rule": 1})
