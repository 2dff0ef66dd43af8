"""Goofspiel: the declaration (metadata, options, variants, agents, personas) and the composed state.

>>> import boardlab, goofspiel                              # doctest: +SKIP
>>> goofspiel.register()                                    # doctest: +SKIP
>>> state = boardlab.make("goofspiel").new_state(seed=1)    # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any, Sequence

from boardlab.engine import Game, Option, Variant

from .features import GoofspielFeatures
from .rules import GoofspielRules
from .scene import build_scene
from .view import GoofspielView


class GoofspielState(GoofspielView, GoofspielFeatures, GoofspielRules):
    """A position: the rules (rules.py) with the views (view.py) and features (features.py) bound in."""

    __slots__ = ()  # every state class declares __slots__; the fields are the rules'


class GoofspielGame(Game):
    id = "goofspiel"  # the registry id: boardlab play goofspiel, /api/games, saved files
    name = "Goofspiel"
    description = ("Two players bid secretly and simultaneously for prize cards with a hand of "
                   "cards 1..N; the higher bid takes the prize, a tie discards it.")
    min_players, max_players, default_players = 2, 2, 2
    chance = True  # the prize deck is shuffled
    hidden_information = True  # a pending bid is known only to its bidder
    default_max_turns = 20  # the turn cap when max_turns is 0: one turn per round, 13 rounds at most
    state_class = GoofspielState
    rules_doc = "examples/goofspiel/README.md"
    options = (
        Option("cards", 6, "Cards per suit: each hand and the prize deck hold 1..cards (rounds = cards).",
               "int", low=2, high=13, tunable=True),
    )
    variants = (
        Variant("short", "Six cards a suit, six rounds."),
        Variant("classic", "A full suit of thirteen cards.", {"cards": 13}),
    )
    agents = {"heuristic": f"{__package__}.agents:HeuristicAgent"}
    personas = {"leader": {"lead": 1.0}, "hoarder": {"lead": 0.5, "hand_edge": 0.5}}

    def load_content(self) -> None:
        self.cards: int = self.option_values["cards"]

    def scene(self, view: dict[str, Any], actions: Sequence[tuple] = ()) -> dict[str, Any]:
        return build_scene(self, view, actions)

    def seat_names(self) -> list[str]:
        return ["Player 1", "Player 2"]

    def check_state(self, state: Any) -> None:
        """Invariants, called after every action by the conformance suite and on loading a state without history."""
        n = self.cards
        played = len(state.rounds)
        for seat in range(2):
            hand = state.hands[seat]
            assert hand == sorted(set(hand)) and all(type(c) is int and 1 <= c <= n for c in hand), f"hands[{seat}] {hand!r}"
            assert len(hand) == n - played, f"hands[{seat}] has {len(hand)} cards after {played} rounds"
            bid = state.bids[seat]
            assert bid is None or (type(bid) is int and bid in hand), f"bids[{seat}] {bid!r} is not an unplayed card"
        assert state.bids[1] is None, "bids[1]: the round's last bid reveals at once"
        turned = sorted([*state.prizes, *([state.prize] if state.prize else []), *(r[0] for r in state.rounds)])
        assert turned == list(range(1, n + 1)), f"prizes: {turned!r} is not one suit"
        won = sum(r[0] for r in state.rounds if r[1] != r[2])
        assert sum(state.points) == won, f"points {state.points!r} do not add up to the prizes won ({won})"
