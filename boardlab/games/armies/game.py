"""Armies: chess with a deck of cards (seed 002).

>>> from boardlab.games.armies.game import ArmiesGame
>>> st = ArmiesGame(variant="chess").new_state(seed=1)
>>> st.roles(), len(st.legal_actions())
(('white', 'black'), 21)
"""

from __future__ import annotations

from pathlib import Path

from typing import Any, Sequence

from boardlab.engine import Game, Option, Variant

from .content import CONTENT_KINDS, builtin_decks, deck_presets, edit_deck, load_cards, load_deck
from .features import ArmiesFeatures
from .properties import PROPERTIES
from .rules import ArmiesRules
from .scene import build_scene
from .view import ArmiesView

#: The shipped decks (name -> file in the package), the only deck values a web client may choose.
DECK_PRESETS: dict[str, str] = deck_presets()


class ArmiesState(ArmiesView, ArmiesFeatures, ArmiesRules):
    """A position of the game: the rules (rules.py) with the seat views (view.py) and the
    evaluation features (features.py) bound in.  Build one with ``Game.new_state``."""

    __slots__ = ()


class ArmiesGame(Game):
    id = "armies"
    name = "Armies"
    description = (
        "Chess meets a trading-card game: every piece is an army that carries leaders, boons and curses "
        "and earns skill in five domains of war; captures are dice battles, techniques interrupt the "
        "opponent, and a General only falls when it can no longer pay for its defeats."
    )
    min_players = max_players = default_players = 2
    hidden_information = True
    chance = True
    default_max_turns = 500
    state_class = ArmiesState
    properties = PROPERTIES
    rules_doc = "docs/rules/armies.md"
    options = (
        Option("white_deck", "gnar-lorin", "White's deck: a shipped deck name (gnar-lorin, ethyr-shives, "
               "tor-archers) or the path of a .deck file.", "str",
               path=True, presets=DECK_PRESETS),
        Option("black_deck", "tor-archers", "Black's deck: a shipped deck name or the path of a .deck file.", "str",
               path=True, presets=DECK_PRESETS),
        Option("no_deck", False, "Play without cards: plain chess with binary-dice combat.", "bool"),
        Option("cards_file", "", "Load the card table from this JSON file instead of the shipped one.", "str",
               path=True, presets={"": "data/cards.json"}),
        Option("first", "white", "Who moves first: white, or roll dice.", "str", choices=("white", "roll")),
        Option("dice", "d6", "Binary dice: d6 (4-6 count 1) or coin flips.", "str", choices=("d6", "coin")),
        Option("hand_size", 7, "Cards drawn at the start of the game.", "int", low=0, high=20, tunable=True),
        Option("trainings_per_turn", 0, "Training cards a player may play per turn (0 = no limit).", "int",
               low=0, high=10, tunable=True),
        Option("deck_out", "skip", "Drawing from an empty deck: skip the draw, lose, or reshuffle the discards.",
               "str", choices=("skip", "lose", "reshuffle")),
        Option("general_defeats", "any", "Which lost battles cost the General a skill point: any (attacking "
               "or defending) or only those it defends.", "str", choices=("any", "defending")),
        Option("windows", "able", "Response windows open only when the responder could respond (able) or "
               "at every opportunity (always: hides whether a technique is held).", "str", choices=("able", "always")),
    )
    variants = (
        Variant("standard", "The rules as written: white moves first, shipped decks (Gnar Vanguard vs Torani Archers)."),
        Variant("roll-first", "The players roll to see who goes first.", {"first": "roll"}),
        Variant("chess", "No decks: unenhanced armies, plain chess with binary-dice combat.", {"no_deck": True}),
        Variant("one-training", "At most one Training card per turn (like lands).", {"trainings_per_turn": 1}),
        Variant("hidden-windows", "Every response window opens, so passing reveals nothing.", {"windows": "always"}),
        Variant("witch-vs-cavalry", "Witch and Woodsman (Ethyr/Shives) against Gnar Vanguard.",
                {"white_deck": "ethyr-shives", "black_deck": "gnar-lorin"}),
    )
    content_kinds = CONTENT_KINDS
    agents = {"heuristic": "boardlab.games.armies.agents:HeuristicAgent"}
    #: Fitted evaluation for search agents (``boardlab fit-eval``; see docs/agents.md).
    evaluation_file = Path(__file__).parent / "data" / "evaluation.json"
    personas = {
        "aggressive": {"material": 1.0, "general_threat": 2.0, "attacks": 1.0, "general_life": 0.5},
        "cautious": {"material": 1.0, "general_life": 2.0, "general_safety": 1.5, "cards": 0.5},
        "mystic": {"material": 0.7, "skill": 1.5, "cards": 1.0, "leaders": 1.5, "general_life": 1.0},
    }

    def load_content(self) -> None:
        opts = self.option_values
        self.cards = load_cards(self.content_path("cards_file"), self.content_edits)
        self.use_cards = not opts["no_deck"]
        if self.use_cards:
            lists = [edit_deck(load_deck(self.content_path("white_deck"), self.cards), self.cards, self.content_edits),
                     edit_deck(load_deck(self.content_path("black_deck"), self.cards), self.cards, self.content_edits)]
            self.deck_lists = tuple(d.cards for d in lists)
            self.deck_names = tuple(d.name for d in lists)
        else:
            self.deck_lists = ((), ())
            self.deck_names = ("", "")

    def scene(self, view: dict[str, Any], actions: Sequence[tuple] = ()) -> dict[str, Any]:
        return build_scene(self, view, actions)

    def seat_names(self) -> list[str]:
        return ["White", "Black"]

    @staticmethod
    def shipped_decks() -> list[str]:
        return builtin_decks()

    def check_state(self, state) -> None:
        """Invariants of a position (conformance suite, fuzzer, loading a state without history)."""
        from collections import Counter

        from boardlab.engine.checks import one_of, seat_or_none

        one_of(state, "phase", {"setup", "opp1", "moving", "opp2", "over"})
        seat_or_none(state, "winner")
        # cards known to be in a hand (returned from play) are real cards, each a card of that hand (counted);
        # without a deck no pile holds a card (a state document's contents are judged by this)
        for seat in (0, 1):
            revealed, hand = state.revealed[seat], state.hands[seat]
            for name in revealed:
                if type(name) is not str or name not in self.cards:
                    raise AssertionError(f"revealed[{seat}] holds {name!r}, which is not a card")
            if Counter(revealed) - Counter(hand):
                raise AssertionError(f"revealed[{seat}] holds cards that are not in hands[{seat}]")
        if not self.use_cards:
            for name in ("hands", "decks", "discards", "removed", "revealed"):
                if any(getattr(state, name)):
                    raise AssertionError(f"{name} holds cards in a game without decks")
