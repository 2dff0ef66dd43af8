"""Content edits of Blackfire (issue 34 item 1): the magic tokens (kinds fixed by the rules, counts by data)."""

from __future__ import annotations

import random

import pytest

from boardlab.engine import make
from boardlab.engine.content_edits import ContentEditError

SEEDS = range(10)


def watch(variant: str | None = None, **options) -> set[str]:
    """Play seeded random games to the end; every token kind that was ever in the bag or on the board."""
    game = make("blackfire", variant=variant, options=options or None)
    seen: set[str] = set()
    for seed in SEEDS:
        state, rng = game.new_state(seed=seed), random.Random(seed)
        for _ in range(2000):
            seen.update(state.tokens.values())
            seen.update(state.bag)
            seen.update(state.revealed)
            if state.is_over():
                break
            state.apply(rng.choice(state.legal_actions()))
    return seen


def test_a_replaced_token_is_never_in_play():
    assert "death" in watch()
    game = make("blackfire", variant="final+replace:token:death=speed")
    assert game.token_counts == {"teleport": 2, "speed": 4, "slow": 2, "revive": 2, "recall": 2, "invulnerable": 2, "displace": 1}
    assert game.config()["options"] == {"content_edits": {"replace": {"token:death": "token:speed"}}}
    assert "death" not in game.token_reference
    seen = watch("final+replace:token:death=speed")
    assert "death" not in seen and "speed" in seen


def test_removing_tokens_needs_a_bag_that_still_fills_the_castle():
    with pytest.raises(ContentEditError, match="the edited token set has 13 tokens; .* need 15"):
        make("blackfire", variant="final+without:token:death")
    game = make("blackfire", variant="final+without:token:death", options={"tokens_per_player": 3})
    assert sum(game.token_counts.values()) == 13 and "death" not in game.token_counts
    assert "death" not in watch("final+without:token:death", tokens_per_player=3)


def test_added_tokens():
    game = make("blackfire", variant="prototype+with:token:revive*2")
    assert game.token_counts == {"teleport": 4, "speed": 4, "slow": 4, "death": 3, "revive": 2}
    assert "revive" in game.token_reference
    assert "revive" in watch("prototype+with:token:revive*2")


def test_token_kinds_are_rules():
    with pytest.raises(ContentEditError, match="blackfire has no token 'deth'; did you mean 'death'"):
        make("blackfire", variant="without:token:deth")
    with pytest.raises(ContentEditError, match="defined by its rules, not data"):
        make("blackfire", options={"content_edits": {"add": {"token:fog": {"copies": 1}}}})
    with pytest.raises(ContentEditError, match="no copy of token 'revive' is in play"):
        make("blackfire", variant="prototype+without:token:revive")
