"""The Dungeon's Jewel (seed 003): metadata, options, variants, content tables and the full state.

>>> from boardlab.engine import make
>>> game = make("dungeons-jewel", players=4)
>>> state = game.new_state(seed=1)
>>> state.current_seat() in range(4), len(state.legal_actions()) >= 2
(True, True)
"""

from __future__ import annotations

from pathlib import Path

from typing import Any, Sequence

from boardlab.engine import ContentError, Game, InvalidOptionError, Option, Variant, dice_distribution
from boardlab.engine.checks import seat_or_none

from .board import Board
from .content import CONTENT_KINDS, load_content
from .features import DungeonFeatures
from .properties import PROPERTIES
from .rules import DungeonRules
from .scene import build_scene
from .view import DungeonView

CORNER_NAMES = ("top left", "top right", "bottom right", "bottom left")

RULE_STATS = (
    "attack:won_as_attacker", "attack:won_as_defender", "attack:tie",
    "dragon:fight", "dragon:won",
    "rule:item_used", "rule:respawn", "rule:trapdoor_home", "rule:jewel_dropped",
    "rule:jewel_taken", "rule:item_stolen", "rule:no_loot_left",
)


class DungeonState(DungeonView, DungeonFeatures, DungeonRules):
    """A position of the game: the rules (rules.py) with the seat views (view.py) and the
    evaluation features (features.py) bound in.  Build one with ``Game.new_state``."""

    __slots__ = ()


class DungeonsJewel(Game):
    id = "dungeons-jewel"
    name = "The Dungeon's Jewel"
    description = (
        "A dungeon crawl for 2-4 players on a 7x7 board: step from room to room, draw and "
        "secretly place dungeon tokens, survive their hazards with dice or items, loot "
        "treasure, beat the dragon at the centre and carry its jewel back to your corner "
        "while the others try to knock it out of your hands."
    )
    min_players, max_players, default_players = 2, 4, 4
    chance = True
    hidden_information = True
    default_max_turns = 1000
    state_class = DungeonState
    #: What the seed's rules make always true, checked after every transition (properties.py).
    properties = PROPERTIES
    rules_doc = "docs/rules/dungeons-jewel.md"
    options = (
        Option("content", "", "Path of a token/treasure content file (empty: the designed one).", "str", path=True,
               presets={"": "data/content.json"}),
        Option("board_size", 7, "Board side length in rooms (odd, so there is one centre space).", "int", low=5, high=11, tunable=True),
        Option("die", 6, "Sides of each die.", "int", low=4, high=20, tunable=True),
        Option("hazard_target", 4, "Die roll needed to survive a hazard or trap door.", "int", low=1, high=20, tunable=True),
        Option("monster_target", 6, "Die + attack power needed to beat a monster ('higher than 5').", "int", low=1, high=30, tunable=True),
        Option("dragon_target", 11, "Two dice + attack power needed to beat the dragon ('higher than ten').", "int", low=2, high=40, tunable=True),
        Option("start_health", 2, "Health points at the start.", "int", low=1, high=6, tunable=True),
        Option("respawn_health", 2, "Health points after starting over at the start corner.", "int", low=1, high=6, tunable=True),
        Option("fight_steal", False, "The winner of a fight takes one item from the loser (revision log).", "bool"),
        Option("jewel_exit", "surrounding", "Where the new jewel carrier may step off the centre: any of the 8 "
               "surrounding spaces, or only the 4 orthogonal ones.", "str", choices=("surrounding", "adjacent")),
        Option("jewel_exit_turn", "next", "When the new jewel carrier may take that step: only on their next turn "
               "(rulebook, 'on their next turn'), or on any turn until they leave the centre (concept).", "str",
               choices=("next", "any")),
    )
    variants = (
        Variant("rulebook", "The rulebook: hazards on 4+, the dragon needs more than 10, start over with 2 health."),
        Variant("concept", "The concept section's numbers: hazards on 3+, the dragon on 10 or more, start over with 3 health; "
                "the dragon's slayer may step off the centre to any surrounding space on any turn, not only the next.",
                {"hazard_target": 3, "dragon_target": 10, "respawn_health": 3, "jewel_exit_turn": "any"}),
        Variant("revised", "The revision log: the dragon on 9 or more, and a fight's winner takes one item from the loser.",
                {"dragon_target": 9, "fight_steal": True}),
    )
    content_kinds = CONTENT_KINDS
    agents = {"heuristic": "boardlab.games.dungeons_jewel.agents:HeuristicAgent"}
    #: Fitted evaluation for search agents (``boardlab fit-eval``; see docs/agents.md).
    evaluation_file = Path(__file__).parent / "data" / "evaluation.json"
    #: Search playouts follow several looting plans (fight the dragon at attack power 3-6),
    #: so the search can tell when stopping to loot pays (docs/agents.md).
    playout_variety = {"strength": (3, 4, 5, 6)}
    personas = {
        "explorer": {"items": 1.0, "explored": 2.0, "health": 0.5},
        "aggressive": {"power": 1.5, "has_jewel": 3.0, "opponent_has_jewel": -2.0, "goal_closeness": 1.0},
        "cautious": {"health": 2.0, "items": 0.5, "has_jewel": 2.0, "goal_closeness": 0.5},
    }

    def load_content(self) -> None:
        o = self.option_values
        size = o["board_size"]
        if size % 2 == 0:
            raise InvalidOptionError(f"board_size must be odd so the board has a centre space, got {size}")
        if o["hazard_target"] > o["die"]:
            raise InvalidOptionError(f"hazard_target {o['hazard_target']} cannot be rolled on a d{o['die']}")
        self.board = Board(size, self.players)
        self.content = content = load_content(self.content_path("content"), self.content_edits)
        self.opt_die = o["die"]
        self.opt_hazard = o["hazard_target"]
        self.opt_monster = o["monster_target"]
        self.opt_dragon = o["dragon_target"]
        two_dice = dice_distribution(self.opt_die, 2)
        #: P(two dice + power >= dragon_target) by attack power (0..len-1): the ``dragon_chance`` feature
        self.dragon_chance = tuple(sum(p for t, p in two_dice.items() if t + power >= self.opt_dragon)
                                   for power in range(20))
        self.opt_start_health = o["start_health"]
        self.opt_respawn_health = o["respawn_health"]
        self.opt_steal = o["fight_steal"]
        self.opt_exit_any = o["jewel_exit"] == "surrounding"
        self.opt_exit_next_turn = o["jewel_exit_turn"] == "next"
        # lookup tables shared by every state
        self.token_type = {t.id: t.type for t in content.tokens}
        self.token_name = {t.id: t.name for t in content.tokens}
        self.item_name = {i.id: i.name for i in content.items}
        self.cure = {i.hazard: i.id for i in reversed(content.items) if i.effect == "survive"}
        self.attack_items = frozenset(i.id for i in content.items if i.effect == "attack")
        walls = [i.id for i in content.items if i.effect == "walls"]
        self.wall_item = walls[0] if walls else "\0none"
        if len(walls) > 1:
            raise ContentError(f"Dungeon's Jewel content file {content.path}: only one item may have effect 'walls'")
        self.move_actions = tuple(("move", c) for c in range(self.board.cells))
        self.attack_actions = tuple(("attack", s) for s in range(self.players))
        self.use_actions = {i.id: ("use", i.id) for i in content.items}
        self.take_actions = {i.id: ("take", i.id) for i in content.items}
        self.stat_keys = (*(f"token:{t.id}" for t in content.tokens), *(f"item:{i.id}" for i in content.items), *RULE_STATS)
        self.stat_index = {k: i for i, k in enumerate(self.stat_keys)}
        self.token_stat = {t.id: f"token:{t.id}" for t in content.tokens}
        self.item_stat = {i.id: f"item:{i.id}" for i in content.items}
        self._names = tuple(f"Player {s + 1}" for s in range(self.players))

    def seat_name(self, seat: int) -> str:
        return self._names[seat]

    def seat_names(self) -> list[str]:
        corners = [CORNER_NAMES[self.board.corners.index(c)] for c in self.board.starts]
        return [f"Player {s + 1} ({corners[s]})" for s in range(self.players)]

    def scene(self, view: dict[str, Any], actions: Sequence[tuple] = ()) -> dict[str, Any]:
        return build_scene(self, view, actions)

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
        seat_or_none(state, "winner")
        seat_or_none(state, "jewel")
