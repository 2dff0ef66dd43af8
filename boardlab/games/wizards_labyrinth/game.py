"""The Wizard's Labyrinth: one wizard against 2 to 4 heroes (seed 001, a course blog).

The name is ours (the seed has no title).  Three rule versions from the blog
are variants: ``final`` (8 November), ``beta`` (23 October) and ``alpha``
(17 October); every difference between them is an option.  Rules live in
:mod:`.rules` (the wizard's turn in :mod:`.wizard`), geometry in :mod:`.board`,
content in :mod:`.content` and ``data/``, the seat views in :mod:`.view`, the
evaluation features in :mod:`.features`, the scene in :mod:`.scene` and the
bots in :mod:`.agents`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from boardlab.engine import ContentError, Game, Grid, InvalidOptionError, Option, Variant
from boardlab.engine.checks import one_of

from .board import GRID_SIZE
from .content import CONTENT_KINDS, Content, load_content
from .features import LabyrinthFeatures
from .properties import PROPERTIES
from .rules import LabyrinthRules
from .scene import build_scene
from .view import LabyrinthView

OPTIONS = (
    Option("content_dir", "", "Directory holding wizard_deck.json, loot_deck.json and tiles.json (empty: the designed files).", "str", path=True,
           presets={"": "data"}),
    Option("deck", "final", "Wizard deck: 'final' (with the 26 Oct cards) or 'early' (without them).", "str", choices=("final", "early")),
    Option("keys_needed", 2, "Keys the heroes need to open the tower (also starts the rage).", "int", low=1, high=3, tunable=True),
    Option("start_mana", 2, "Mana wheel value at the start.", "int", low=0, high=20, tunable=True),
    Option("mana_per_turn", 0, "Mana wheel steps gained at the start of each wizard turn.", "int", low=0, high=3, tunable=True),
    Option("mana_max", 8, "Maximum of the mana wheel (at the maximum the wizard draws an extra card).", "int", low=2, high=20, tunable=True),
    Option("hero_hp", 10, "Hit points of each hero.", "int", low=1, high=30, tunable=True),
    Option("opening_draw", 5, "Cards the wizard draws at setup.", "int", low=1, high=10, tunable=True),
    Option("opening_keep", 3, "Cards of the opening draw the wizard keeps.", "int", low=1, high=10, tunable=True),
    Option("first_turn_draw", True, "The wizard's first turn starts with the usual draw after the opening draw (alpha: "
           "false, the opening five are the first turn's draw).", "bool"),
    Option("loot_phase", True, "Flip tiles and loot in a loot phase after combat (final); false: on entering (beta, alpha).", "bool"),
    Option("combine_rolls", False, "Heroes fighting together add their d20s (alpha); false: take the highest.", "bool"),
    Option("trap_save_1", 7, "Save needed against 1 trap.", "int", low=1, high=21, tunable=True),
    Option("trap_save_2", 10, "Save needed against 2 traps.", "int", low=1, high=21, tunable=True),
    Option("trap_save_3", 13, "Save needed against 3 or more traps.", "int", low=1, high=21, tunable=True),
    Option("trap_die", 20, "Sides of the die rolled for trap saves (the seed: 'All dice use in the game are twenty sided dice'; "
           "6 tries the d6 that alpha's '5+ ... making it 4+' suggests, ledger 45).", "int", low=2, high=20),
    Option("trap_damage", 2, "Damage of a failed trap save.", "int", low=0, high=10, tunable=True),
    Option("trap_damage_per_trap", False, "A failed save costs the damage once per trap (the 26 Oct update's account of beta).", "bool"),
    Option("loss_damage_per_monster", True, "A lost fight costs 1 damage per monster (false: 1 damage, alpha).", "bool"),
    Option("win_loot_draw", 2, "Loot cards drawn for winning a fight.", "int", low=0, high=5, tunable=True),
    Option("win_loot_keep_all", False, "Keep every card drawn for a win (beta, alpha); false: keep 1 (final).", "bool"),
    Option("win_loot_repeat_draw", 2, "Loot cards for a win in a room already cleared once (beta: 1).", "int", low=0, high=5),
    Option("tile_token_limit", 0, "Most tokens on one tile (0: the number of players; alpha: 3).", "int", low=0, high=10, tunable=True),
    Option("rage", True, "Rage of the wizard once the keys are taken (not in alpha).", "bool"),
    Option("tower_entrance", True, "The tower has one entrance whose direction the wizard chooses (not in alpha).", "bool"),
    Option("stuck_retreat", "wizard", "Who chooses the retreat of a hero who could not move: 'wizard' (final) or 'hero'.", "str", choices=("wizard", "hero")),
    Option("switcheroo_onto_heroes", False, "Switcheroo may pick a hero who shares his tile, so the swapped token lands "
           "beside the heroes left there (false: only a hero alone on his tile, as tokens go only on 'any tile that does "
           "not have a player on it', ledger 44).", "bool"),
    Option("trading", True, "Heroes on one tile may give each other loot and keys (not in alpha).", "bool"),
    Option("equipment_limits", True, "At most 2 swords and 1 pair of boots equipped (not in alpha).", "bool"),
)

_EARLY = {"deck": "early", "keys_needed": 3, "loot_phase": False, "win_loot_keep_all": True, "stuck_retreat": "hero"}

VARIANTS = (
    Variant("final", "The Rules (Final), 8 November 2013."),
    Variant("beta", "Rules - Beta, 23 October 2013: loot on entering, 3 keys, 10+ trap saves.",
            {**_EARLY, "trap_save_1": 10, "trap_save_2": 10, "trap_save_3": 10, "win_loot_repeat_draw": 1}),
    Variant("beta-playtest", "Beta with the traps as the 26 October update describes them: 2 damage per trap.",
            {**_EARLY, "trap_save_1": 10, "trap_save_2": 10, "trap_save_3": 10, "win_loot_repeat_draw": 1,
             "trap_damage_per_trap": True}),
    Variant("alpha", "Rules - Alpha build, 17 October 2013: +1 mana a turn, combined rolls, 5+ saves, no rage.",
            {**_EARLY, "start_mana": 0, "mana_per_turn": 1, "first_turn_draw": False, "combine_rolls": True, "trap_save_1": 5, "trap_save_2": 5,
             "trap_save_3": 5, "loss_damage_per_monster": False, "tile_token_limit": 3, "rage": False,
             "tower_entrance": False, "trading": False, "equipment_limits": False}),
)


class LabyrinthState(LabyrinthView, LabyrinthFeatures, LabyrinthRules):
    """A position of the game: the rules (rules.py) with the seat views (view.py) and the
    evaluation features (features.py) bound in.  Build one with ``Game.new_state``."""

    __slots__ = ()


class WizardsLabyrinthGame(Game):
    id = "wizards-labyrinth"
    name = "The Wizard's Labyrinth"
    description = (
        "One wizard against 2-4 heroes in a grid of face-down rooms. The heroes move together in secret, "
        "fight the wizard's hidden monsters and traps with d20s, and hunt for the key tiles that open the "
        "wizard's tower; the wizard spends mana from a wheel the rooms turn, and rages once the keys are found."
    )
    min_players, max_players, default_players = 3, 5, 4
    options = OPTIONS
    variants = VARIANTS
    chance = True
    hidden_information = True
    default_max_turns = 400
    state_class = LabyrinthState
    rules_doc = "docs/rules/wizards-labyrinth.md"
    content_kinds = CONTENT_KINDS
    properties = PROPERTIES
    agents = {"heuristic": "boardlab.games.wizards_labyrinth.agents:HeuristicAgent"}
    #: Fitted evaluation for search agents (``boardlab fit-eval``; see docs/agents.md).
    evaluation_file = Path(__file__).parent / "data" / "evaluation.json"
    personas = {
        "cautious": {"hero_hp": 2.0, "keys": 1.0, "explored": 0.5},
        "explorer": {"explored": 2.0, "keys": 2.0, "hero_hp": 0.5},
        "tyrant": {"mana": 1.0, "hand": 1.0, "tokens": 1.5, "hero_hp": -1.0},
    }

    content: Content
    size: int
    grid: Grid

    def load_content(self) -> None:
        o = self.option_values
        self.content = load_content(self.content_path("content_dir"), self.content_edits)
        self.size = GRID_SIZE[self.players]
        self.grid = Grid(self.size, self.size)
        needed = self.size * self.size - 2
        if len(self.content.rooms) < needed:
            hint = " (a content edit may replace room tiles, e.g. replace:room:-1/-1=1/1)" if self.content_edits else ""
            raise ContentError(f"tiles.json: a {self.size}x{self.size} grid needs {needed} room tiles, got {len(self.content.rooms)}{hint}")
        if o["deck"] == "early":
            self.deck_cards = tuple(c for c in self.content.wizard_deck if not self.content.wizard_cards[c].added)
        else:
            self.deck_cards = self.content.wizard_deck
        if len(self.deck_cards) < o["opening_draw"]:
            raise ContentError(f"wizard_deck.json: the deck has fewer cards than the opening draw ({o['opening_draw']})")
        if o["opening_keep"] > o["opening_draw"]:
            raise InvalidOptionError("opening_keep must not exceed opening_draw")
        self.token_limit = o["tile_token_limit"] or self.players

    #: Presentation only (the lobby): a newcomer plays a Hero by default, as the Wizard is the hardest role.
    newcomer_seat = 1
    newcomer_note = ("You start as Hero 1: the heroes are the easier role for a first game. The Wizard (seat 1) plays"
                     " alone against every hero and makes hidden choices from the first move; switch the seats to"
                     " Human/Bot to play him.")

    def seat_names(self) -> list[str]:
        return ["Wizard"] + [f"Hero {i}" for i in range(1, self.players)]

    def scene(self, view: dict[str, Any], actions: Sequence[tuple] = ()) -> dict[str, Any]:
        return build_scene(self, view, actions)

    def check_state(self, state) -> None:
        """Invariants of a position (conformance suite, fuzzer, loading a state without history)."""
        one_of(state, "phase", {"setup", "wizard", "move", "combat", "loot", "over"})
        one_of(state, "winner", {"", "heroes", "wizard"})
        # every tile is a real tile of the game's content: the start, the tower, a key tile or a room tile; each
        # room tile is on the grid or in the pool of unused rooms exactly once (a state document is judged by this)
        from collections import Counter

        rooms = Counter(f"r{i}" for i in range(len(self.content.rooms)))
        names = {"start", "tower", *(f"k{i}" for i in range(len(self.content.keys))), *rooms}
        for c, t in enumerate(state.tiles):
            if type(t) is not str or t not in names:
                raise AssertionError(f"tiles[{c}] is {t!r}, which is not a tile")
        for t in state.tile_pool:
            if type(t) is not str or t not in rooms:
                raise AssertionError(f"tile_pool holds {t!r}, which is not a room tile")
        if Counter(t for t in state.tiles if t in rooms) + Counter(state.tile_pool) != rooms:
            raise AssertionError("the room tiles on the grid and in tile_pool are not each room tile once")
