"""Blackfire: green's sorcerer Marius races the Orb of Blackfire out of red Soren's castle.

Metadata, options and variants, and the composed :class:`BlackfireState`; the
rules are in :mod:`.rules` (pieces in :mod:`.pieces`), the seat views in
:mod:`.view`, the evaluation features in :mod:`.features`, the scene in
:mod:`.scene`, the castle geometry in :mod:`.board` and the loading of the
castle and token files (``data/``) in :mod:`.content`.

>>> from boardlab.games.blackfire.game import BlackfireGame
>>> game = BlackfireGame(variant="prototype")
>>> game.opt["sorcerer_move"], sorted(game.token_counts)
(1, ['death', 'slow', 'speed', 'teleport'])
"""

from __future__ import annotations

from pathlib import Path

from typing import Any, ClassVar, Sequence

from boardlab.engine.game import Game, Option, Variant

from .board import Castle
from .content import CONTENT_KINDS, edit_tokens, load_castle, load_tokens
from .features import BlackfireFeatures
from .properties import PROPERTIES
from .rules import BlackfireRules
from .scene import build_scene
from .tokens import token_reference
from .view import BlackfireView

_CASTLES: dict[str, Castle] = {}


class BlackfireState(BlackfireView, BlackfireFeatures, BlackfireRules):
    """A Blackfire position: the rules (rules.py) with the seat views (view.py) and the
    evaluation features (features.py) bound in.  Build one with ``Game.new_state``."""

    __slots__ = ()


class BlackfireGame(Game):
    id = "blackfire"
    name = "Blackfire"
    description = (
        "Two sorcerers, one Orb: green Marius must carry the Orb of Blackfire out of red Soren's castle "
        "before Soren takes it back and leaves with it. Sorcerers, archers and warriors with stances, "
        "fifteen face-down magic tokens, archer contests and respawns."
    )
    min_players = max_players = default_players = 2
    chance = True
    hidden_information = True
    default_max_turns = 300
    state_class = BlackfireState
    rules_doc = "docs/rules/blackfire.md"
    #: The rule properties checked after every transition (``properties.py``, issue 42).
    properties = PROPERTIES
    options = (
        Option("map", "", "Castle map file (text grid; empty = the designed castle.txt).", "str", path=True,
               presets={"": "data/castle.txt"}),
        Option("tokens", "", "Token file (JSON; empty = the designed tokens.json).", "str", path=True,
               presets={"": "data/tokens.json"}),
        Option("token_set", "final", "Which token set of the token file to use.", "str", choices=("final", "prototype")),
        Option("tokens_per_player", 4, "Tokens each player places at setup.", "int", low=0, high=4),
        Option("colours", "roll", "Who plays green: roll a d6 (even: Player 1), or fix it.", "str",
               choices=("roll", "seat1-green", "seat1-red")),
        Option("sorcerer_move", 2, "Sorcerer's natural movement.", "int", low=1, high=4, tunable=True),
        Option("archer_move", 2, "Archer's natural movement.", "int", low=1, high=4, tunable=True),
        Option("warrior_move", 3, "Offensive warrior's natural movement.", "int", low=1, high=5, tunable=True),
        Option("archer_range", 2, "Archers kill opposing pieces that stop within this many spaces.", "int", low=1, high=3, tunable=True),
        Option("archer_offense", True, "An archer that stops within range of opposing pieces kills one (false: archers are "
               "solely defensive, as first designed).", "bool"),
        Option("archer_contest", True, "Two archers that meet hold a d6 contest (false: an archer that stops within range of "
               "the enemy archer is shot like any other piece, as before the contest was added).", "bool"),
        Option("contest_target", 5, "Archer contest: the attacker's d6 must reach this.", "int", low=2, high=6, tunable=True),
        Option("speed_bonus", 3, "Extra spaces a Speed token gives.", "int", low=1, high=5, tunable=True),
        Option("invulnerable_turns", 2, "How many opposing turns Invulnerable lasts.", "int", low=1, high=4, tunable=True),
        Option("teleport_range", 3, "How far Teleport (result 6) moves the unit.", "int", low=1, high=5, tunable=True),
        Option("teleport_table", True, "Teleport rolls the d6 table (false: it only teleports the unit, as in the prototype).", "bool"),
        Option("respawn", True, "A killed sorcerer respawns.", "bool"),
        Option("respawn_turns", 3, "A killed sorcerer respawns at the start of its side's Nth turn after its death, so it "
               "misses N-1 turns of its own (3: misses 2; 4 is the reading 'misses 3' of 'respawns after 3 turns').",
               "int", low=1, high=6, tunable=True),
        Option("push_radius", 3, "A respawning sorcerer pushes opposing units within this distance to one more (0 = no push).", "int", low=0, high=5, tunable=True),
        Option("sorcerer_kill_wins", False, "Killing the opposing sorcerer wins (the prototype's victory condition).", "bool"),
    )
    variants = (
        Variant("final", "The rules of the design document (15 tokens of 8 kinds, sorcerers move 2, respawn and push)."),
        Variant("prototype", "The first playtest rules: only teleport, speed, slow and death tokens, sorcerers move 1, "
                "killing the opposing sorcerer wins, no respawn or push, solely defensive archers and no archer contest.",
                {"token_set": "prototype", "teleport_table": False, "sorcerer_move": 1, "sorcerer_kill_wins": True,
                 "respawn": False, "push_radius": 0, "archer_offense": False, "archer_contest": False}),
    )
    content_kinds = CONTENT_KINDS
    agents: ClassVar[dict[str, str]] = {
        "heuristic": "boardlab.games.blackfire.agents:HeuristicAgent",
    }
    #: Fitted evaluation for search agents (``boardlab fit-eval``; see docs/agents.md).
    evaluation_file = Path(__file__).parent / "data" / "evaluation.json"
    personas: ClassVar[dict[str, dict[str, float]]] = {
        "runner": {"orb": 3.0, "exit_progress": 3.0, "safety": 1.0, "material": 0.5},
        "hunter": {"orb": 1.5, "material": 2.5, "enemy_carrier_pressure": 2.0, "safety": 0.5},
        "cautious": {"orb": 2.0, "safety": 3.0, "material": 1.5, "exit_progress": 1.0},
        "collector": {"orb": 1.5, "tokens": 2.0, "material": 1.0, "exit_progress": 1.0},
    }

    castle: Castle
    token_counts: dict[str, int]
    token_reference: dict[str, str]
    opt: dict[str, Any]

    def load_content(self) -> None:
        self.opt = self.option_values
        path = self.content_path("map")
        castle = _CASTLES.get(str(path))
        if castle is None:
            castle = _CASTLES[str(path)] = load_castle(path)
        self.castle = castle
        self.token_counts = edit_tokens(load_tokens(self.content_path("tokens"), self.opt["token_set"]), self.content_edits,
                                        len(castle.treasure) + 2 * self.opt["tokens_per_player"])
        # the board's reference is generated from these rules, so it cannot drift from them
        self.token_reference = token_reference(self.opt, self.token_counts)

    def scene(self, view: dict[str, Any], actions: Sequence[tuple] = ()) -> dict[str, Any]:
        return build_scene(self, view, actions)

    def seat_names(self) -> list[str]:
        return ["Player 1", "Player 2"]

    def core_spec(self) -> str:
        """This configuration as the compiled core's spec (:mod:`.core`), or why the core cannot play it."""
        from boardlab.engine.core import EngineUnavailable

        from .core import core_spec

        try:
            return core_spec(self)
        except ValueError as exc:
            raise EngineUnavailable(str(exc)) from None

    def check_state(self, state) -> None:
        """Invariants of a position (conformance suite, fuzzer, loading a state without history)."""
        from boardlab.engine.checks import one_of, seat_or_none

        one_of(state, "phase", {"place", "play"})
        seat_or_none(state, "winner")
