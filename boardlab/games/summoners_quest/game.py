"""Summoner's Quest: the game declaration (metadata, options, variants, content) and the composed state."""

from __future__ import annotations

from pathlib import Path

from typing import Any, Sequence

from boardlab.engine import Game, Option, Variant

from .board import Board
from .content import CONTENT_KINDS, load_cards
from .features import SummonersQuestFeatures
from .properties import PROPERTIES
from .rules import SummonersQuestRules
from .scene import build_scene
from .view import SummonersQuestView


class SummonersQuestState(SummonersQuestView, SummonersQuestFeatures, SummonersQuestRules):
    """A position of the game: the rules (rules.py) with the seat views (view.py) and the
    evaluation features (features.py) bound in.  Build one with ``Game.new_state``."""

    __slots__ = ()


class SummonersQuestGame(Game):
    id = "summoners-quest"
    name = "Summoner's Quest"
    description = (
        "Summoners race around a ring of focus points, portals and mana temples, summon creatures "
        "from Nordic, Japanese, Greek and Amazonian folklore, cast spells and set traps, then open a "
        "mana gate and fight to hold the Chamber of Victory for three turns or be the last summoner standing."
    )
    min_players, max_players, default_players = 2, 4, 4
    chance = True
    hidden_information = True
    default_max_turns = 600
    state_class = SummonersQuestState
    rules_doc = "docs/rules/summoners-quest.md"
    options = (
        Option("starting_hand", 3, "Cards dealt to each player at setup (the seed is silent).", "int", low=0, high=5, tunable=True),
        Option("start_mana", 6, "Mana stones each player starts with.", "int", low=1, high=20, tunable=True),
        Option("mana_recovery", 2, "Used mana stones recovered at the start of each turn.", "int", low=0, high=6, tunable=True),
        Option("gate_cost", 10, "Mana to open a mana gate.", "int", low=0, high=30, tunable=True),
        Option("hold_turns", 3, "Turns the chamber of victory must be held.", "int", low=1, high=10, tunable=True),
        Option("hand_limit", 5, "Most cards in a hand.", "int", low=1, high=10, tunable=True),
        Option("equip_max", 3, "Most equipment a player has equipped (summoner and summons together).", "int", low=1, high=6, tunable=True),
        Option("player_status_max", 3, "Most status effects on a summoner at once.", "int", low=1, high=6, tunable=True),
        Option("gate_opening", "moving", "Open a gate by paying while moving through it, or at will from anywhere.", "str",
               choices=("moving", "at-will")),
        Option("ties", "reroll", "Combat ties: both re-roll, or the defender / attacker wins.", "str",
               choices=("reroll", "defender", "attacker")),
        Option("cards_file", "", "Path of an alternative card file (empty: the designed 100 cards).", "str", path=True,
               presets={"": "data/cards.json"}),
        Option("board_file", "", "Path of an alternative board file (empty: the designed board).", "str", path=True,
               presets={"": "data/board.json"}),
    )
    variants = (
        Variant("standard", "The seed's rules with the interpretation ledger's readings (3 starting cards, ties re-rolled)."),
        Variant("empty-hands", "No starting cards: the seed deals none, so cards come only from focus points.", {"starting_hand": 0}),
        Variant("gates-at-will", "A gate is opened by an at-will action from anywhere (then walked through for free).",
                {"gate_opening": "at-will"}),
        Variant("defender-ties", "Combat ties go to the defender instead of a re-roll.", {"ties": "defender"}),
    )
    content_kinds = CONTENT_KINDS
    #: The rule properties checked after every transition (properties.py, docs/rules/summoners-quest.md).
    properties = PROPERTIES
    agents = {"heuristic": "boardlab.games.summoners_quest.agents:HeuristicAgent"}
    #: Fitted evaluation for search agents (``boardlab fit-eval``; see docs/agents.md).
    evaluation_file = Path(__file__).parent / "data" / "evaluation.json"
    personas = {
        "warlord": {"enemy_life": -2.0, "summon_power": 1.5, "life": 0.5},
        "king-of-the-hill": {"near_chamber": 2.0, "in_centre": 2.0, "hold": 3.0, "mana": 1.0},
        "collector": {"cards": 1.5, "equipment": 1.5, "mana": 1.0, "life": 1.0},
    }

    def load_content(self) -> None:
        self.cards = load_cards(self.content_path("cards_file"), self.content_edits)
        self.board = Board.load(self.content_path("board_file"))

    def scene(self, view: dict[str, Any], actions: Sequence[tuple] = ()) -> dict[str, Any]:
        return build_scene(self, view, actions)

    def check_state(self, state) -> None:
        """Invariants of a position (conformance suite, fuzzer, loading a state without history)."""
        from boardlab.engine.checks import one_of, seat_or_none

        one_of(state, "phase", {"pre", "move", "landing", "temple", "post", "over"})
        seat_or_none(state, "winner")


__all__ = ["SummonersQuestGame", "SummonersQuestState"]
