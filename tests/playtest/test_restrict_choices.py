"""Suggestions only for choices (issue 33): a tag the verdict may suggest restricting is one an agent chooses, and
restricting it changes the games; a tag for something drawn or rolled is refused with the reason."""

from __future__ import annotations

import pytest

from boardlab.engine.errors import InvalidOptionError
from boardlab.engine.registry import make
from boardlab.games import BUILTIN
from boardlab.playtest.run import plan_run
from boardlab.playtest.simulate import play_row
from boardlab.playtest.tags import game_tags, optional_tags


def test_a_drawn_item_cannot_be_restricted_and_the_message_says_why():
    with pytest.raises(InvalidOptionError, match=r"item:gloves is something that happens to a player .*not a choice.*"
                                                 r"--variant rulebook\+without:item:gloves$"):
        plan_run("dungeons-jewel", games=2, players=2, restrict={0: "item:gloves"})
    # ... and the suggested experiment runs, and changes the games.
    edited = plan_run("dungeons-jewel", games=6, players=2, variant="rulebook+without:item:gloves", agents=["random"],
                      options={"max_turns": 200})
    plain = plan_run("dungeons-jewel", games=6, players=2, agents=["random"], options={"max_turns": 200})
    assert outcomes(edited, 6) != outcomes(plain, 6)
    assert all("item:gloves" not in m or not any(m["item:gloves"]) for *_, m in outcomes(edited, 6))
    # A cure is chosen (used against its hazard), and in the revision log any item can be taken from a loser.
    assert plan_run("dungeons-jewel", games=2, players=2, restrict={0: "item:spike_boots"}).restrict == {0: ["item:spike_boots"]}
    assert plan_run("dungeons-jewel", games=2, players=2, variant="revised", restrict={0: "item:gloves"}).restrict


def outcomes(config, games):
    game = make(config.game, players=config.players, variant=config.variant, options=config.options)
    game.record_events = False
    return [(r["winners"], r["turns"], r["decisions"], r["metrics"]) for r in (play_row(config, i, game) for i in range(games))]


@pytest.mark.parametrize("game_id", sorted(BUILTIN))
def test_every_choice_tag_met_in_play_changes_the_games_when_restricted(game_id):
    """Each vocabulary tag that random play meets as an option (up to four per game) restricts something: the
    restricted games differ from the unrestricted ones on the same seeds."""
    game = make(game_id)
    met = sorted(optional_tags(game, games=2, max_steps=400) & set(game_tags(game)))
    assert met
    step = max(1, len(met) // 4)
    for tag in met[::step][:4]:
        free = plan_run(game_id, games=12, agents=["random"], seed=5, options={"max_turns": 200})
        tied = plan_run(game_id, games=12, agents=["random"], seed=5, options={"max_turns": 200},
                        restrict={seat: tag for seat in range(game.players)})
        assert outcomes(free, 12) != outcomes(tied, 12), f"restricting {tag} changed nothing in {game_id}"
