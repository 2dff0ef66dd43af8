"""The wizard's resampling of the heroes' hands keeps the equipment rule: a hero never holds equipment
whose slot in front is free (``receive`` puts it in front), so a determinized hand holds none either.
Found when loading a determinized position started checking the rule properties (issue 45)."""

from __future__ import annotations

import pytest

from boardlab.engine import make
from boardlab.engine.properties import check_state
from boardlab.engine.rng import Rng
from boardlab.games.wizards_labyrinth.properties import PROPERTIES, equipment

WIZARD = 0


@pytest.mark.seed("wizards-labyrinth:136.1", "wizards-labyrinth:137.1")
@pytest.mark.parametrize("variant", ["final", "beta", "alpha"])
def test_the_wizards_determinization_deals_no_equipment_into_a_hand_with_its_slot_free(variant):
    game = make("wizards-labyrinth", players=4, variant=variant)
    rng = Rng(7)
    checked = 0
    for seed in range(6):
        state = game.new_state(seed)
        while not state.is_over() and state.decisions < 400:
            if any(h.hand for h in state.heroes):
                d = state.determinize(WIZARD, seed * 1000 + state.decisions)
                equipment(d)
                check_state(d, PROPERTIES)
                checked += 1
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
    assert checked > 50
