"""Game metadata: options, variants and the configured :class:`Game`.

A *game* in boardlab is a class that declares its metadata once (id, name,
player range, options, variants) and names its :class:`~boardlab.engine.state.State`
subclass.  An *instance* of that class is a configured game: a player count,
a variant and option values, with any content (maps, decks) loaded.  It is
immutable once built and shared by every state created from it.

>>> import boardlab
>>> game = boardlab.make("dungeons-jewel", players=4, variant="rulebook")  # doctest: +SKIP
>>> state = game.new_state(seed=7)  # doctest: +SKIP
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Mapping, Sequence

from .content_edits import OPTION_KEY as CONTENT_EDITS, ContentEdits
from .errors import InvalidOptionError, SaveFileError, UnknownVariantError
from .files import load_json_file

if TYPE_CHECKING:  # pragma: no cover
    from .evaluation import FittedEvaluation
    from .state import State

_EVALUATIONS: dict[str, "FittedEvaluation"] = {}


@dataclass(frozen=True, slots=True)
class Option:
    """A rule parameter of a game.

    ``kind`` is one of ``int``, ``float``, ``bool``, ``str``.  Numeric options
    may give ``low``/``high`` bounds; ``tunable`` marks the ones the rule
    optimiser may search.  ``choices`` restricts a ``str`` option.
    ``path`` marks a *content* option: a ``str`` naming a file or folder of
    game content (a map, a deck, a card set).  The game declares its shipped
    content by name in ``presets``, a mapping from preset name to the shipped
    file, relative to the game's package folder (``{"": "data/castle.txt"}``; the
    empty name is the designed default).  :meth:`Game.content_path` is the one
    place that turns a value into a file: a preset name gives the shipped file,
    anything else is taken as a path, which only trusted callers (the CLI) may
    give; :meth:`Game.check_untrusted` refuses it for the web server.
    After construction ``presets`` holds the names and ``files`` the files.
    """

    name: str
    default: Any
    description: str
    kind: str = "int"
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] | None = None
    tunable: bool = False
    path: bool = False
    presets: tuple[str, ...] | Mapping[str, str] = ()
    files: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.presets, Mapping):
            object.__setattr__(self, "files", tuple(self.presets.values()))
            object.__setattr__(self, "presets", tuple(self.presets.keys()))

    def coerce(self, value: Any) -> Any:
        """Check and convert ``value`` (possibly a string from the CLI) for this option."""
        try:
            if self.kind == "bool":
                if isinstance(value, str):
                    low = value.strip().lower()
                    if low in ("1", "true", "yes", "on"):
                        value = True
                    elif low in ("0", "false", "no", "off"):
                        value = False
                    else:
                        raise ValueError
                if not isinstance(value, bool):
                    raise ValueError
            elif self.kind == "int":
                if isinstance(value, bool) or isinstance(value, float) and not value.is_integer():
                    raise ValueError
                value = int(value)
            elif self.kind == "float":
                if isinstance(value, bool):
                    raise ValueError
                value = float(value)
            elif self.kind == "str":
                if not isinstance(value, str):
                    raise ValueError
            else:  # pragma: no cover - declaration error
                raise InvalidOptionError(f"option {self.name!r} has unknown kind {self.kind!r}")
        except (TypeError, ValueError):
            raise InvalidOptionError(
                f"option {self.name!r} needs a {self.kind} value, got {value!r}"
            ) from None
        if self.low is not None and value < self.low:
            raise InvalidOptionError(f"option {self.name!r} must be >= {self.low}, got {value!r}")
        if self.high is not None and value > self.high:
            raise InvalidOptionError(f"option {self.name!r} must be <= {self.high}, got {value!r}")
        if self.choices is not None and value not in self.choices:
            raise InvalidOptionError(
                f"option {self.name!r} must be one of {', '.join(self.choices)}; got {value!r}"
            )
        return value

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "default": self.default,
            "description": self.description,
            "kind": self.kind,
            "low": self.low,
            "high": self.high,
            "choices": list(self.choices) if self.choices else None,
            "tunable": self.tunable,
            "path": self.path,
            "presets": list(self.presets) if self.path else None,
        }


@dataclass(frozen=True, slots=True)
class Variant:
    """A named bundle of option overrides (a rule version or alternative reading)."""

    name: str
    description: str
    overrides: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "overrides": dict(self.overrides)}


#: Options every game has.  ``max_turns`` truncates a game (results mark it).
COMMON_OPTIONS: tuple[Option, ...] = (
    Option("max_turns", 0, "Truncate the game after this many turns (0 = the game's default cap).", "int", low=0),
)


class Game:
    """Base class of every game: metadata (class attributes) plus one configuration.

    Subclasses set the class attributes below and implement
    :meth:`load_content` if they read data files.  Build one with
    :func:`boardlab.engine.registry.make` or directly::

        game = MyGame(players=2, variant="final", options={"max_turns": 200})
    """

    #: Registry id, e.g. ``"dungeons-jewel"``.
    id: ClassVar[str] = ""
    #: Human name, e.g. ``"The Dungeon's Jewel"``.
    name: ClassVar[str] = ""
    #: One-paragraph description (shown in lobbies and ``boardlab games``).
    description: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    default_players: ClassVar[int] = 2
    #: Declared rule options (in addition to :data:`COMMON_OPTIONS`).
    options: ClassVar[tuple[Option, ...]] = ()
    #: Variants; the first is the default.
    variants: ClassVar[tuple[Variant, ...]] = (Variant("default", "The rules as written."),)
    #: Does the game use dice or shuffles?
    chance: ClassVar[bool] = True
    #: Does any seat have information another seat lacks?
    hidden_information: ClassVar[bool] = False
    #: The turn cap used when ``max_turns`` is 0.
    default_max_turns: ClassVar[int] = 1000
    #: The State subclass implementing the rules.
    state_class: ClassVar[type["State"]]
    #: The rule properties of the game (:mod:`boardlab.engine.properties`): what its rules make
    #: always true, checked after every transition by the conformance suite and the fuzzers.
    #: A :class:`~boardlab.engine.properties.PropertySet` (typed loosely: the engine's modules import acyclically).
    properties: ClassVar[Any] = None
    #: Path of the rules document relative to the repository (for links).
    rules_doc: ClassVar[str] = ""
    #: Kinds of designed content a content edit may name (kind -> what it is), e.g.
    #: ``{"item": "a treasure card"}``; the game applies ``self.content_edits`` in
    #: :meth:`load_content` (see :mod:`boardlab.engine.content_edits`).
    content_kinds: ClassVar[dict[str, str]] = {}

    def __init__(
        self,
        players: int | None = None,
        variant: str | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        cls = type(self)
        if players is None:
            players = cls.default_players
        if isinstance(players, bool) or not isinstance(players, int):
            raise InvalidOptionError(f"player count must be an integer, got {players!r}")
        if not cls.min_players <= players <= cls.max_players:
            raise InvalidOptionError(
                f"{cls.id} is for {cls.player_range()} players, not {players}"
            )
        self.players: int = players
        declared = cls.all_options()
        file_overrides: dict[str, Any] = {}
        self.variant_label: str | None = None
        options = dict(options or {})
        # content edits: the variant file's section, then the variant string's tokens, then the option
        edits = ContentEdits((), cls.id, cls.content_kinds)
        given = variant
        variant, tokens = cls.split_variant(variant)
        if isinstance(variant, str) and variant.endswith(".json"):
            base, file_overrides, self.variant_label, file_edits = cls.load_variant_file(variant, with_content=True)
            options = {**file_overrides, **options}
            edits = edits.merged(file_edits)
            variant = base
        if tokens:
            edits = edits.merged(ContentEdits.from_tokens(tokens, cls.id, cls.content_kinds, f"variant {given!r}"))
            self.variant_label = "+".join([self.variant_label or cls.get_variant(variant).name, *tokens])
        if CONTENT_EDITS in options:
            edits = edits.merged(ContentEdits.parse(options.pop(CONTENT_EDITS), cls.id, cls.content_kinds,
                                                    f"option {CONTENT_EDITS!r}"))
        #: The content edits this configuration applies (:mod:`boardlab.engine.content_edits`).
        self.content_edits: ContentEdits = edits
        variant_obj = cls.get_variant(variant)
        self.variant: str = variant_obj.name
        values: dict[str, Any] = {o.name: o.default for o in declared.values()}
        for key, value in variant_obj.overrides.items():
            values[key] = declared[key].coerce(value)
        for key, value in (options or {}).items():
            if key not in declared:
                known = ", ".join(sorted(declared)) or "none"
                raise InvalidOptionError(f"{cls.id} has no option {key!r} (options: {known})")
            values[key] = declared[key].coerce(value)
        self.option_values: dict[str, Any] = values
        #: Options that differ from the variant's values (what the user overrode).
        self.overrides: dict[str, Any] = {key: values[key] for key in (options or {})}  # coerced values
        mt = values.get("max_turns", 0)
        self.max_turns: int = mt if mt else cls.default_max_turns
        #: When false, states skip building event-log entries (fast simulation).
        self.record_events: bool = True
        try:
            self.load_content()
        except (TypeError, KeyError, AttributeError, IndexError, ValueError, OverflowError) as exc:
            # a content file of valid JSON but the wrong shape (issue 31's file fuzzer): one clear error
            from .errors import BoardlabError, ContentError

            if isinstance(exc, BoardlabError):
                raise
            raise ContentError(f"{cls.id}: a content file is malformed ({type(exc).__name__}: {exc})") from None
        if edits:
            edits.check_applied()
            # recorded with the exact names, so a save or a worker rebuilds this game without the file
            self.overrides[CONTENT_EDITS] = edits.to_json()

    # -- metadata helpers -------------------------------------------------
    @classmethod
    def player_range(cls) -> str:
        if cls.min_players == cls.max_players:
            return str(cls.min_players)
        return f"{cls.min_players}-{cls.max_players}"

    @classmethod
    def all_options(cls) -> dict[str, Option]:
        return {o.name: o for o in (*COMMON_OPTIONS, *cls.options)}

    @classmethod
    def get_variant(cls, name: str | None) -> Variant:
        if name is None or name == "":
            return cls.variants[0]
        for v in cls.variants:
            if v.name == name:
                return v
        known = ", ".join(v.name for v in cls.variants)
        raise UnknownVariantError(f"{cls.id} has no variant {name!r} (variants: {known})")

    @classmethod
    def split_variant(cls, variant: Any) -> tuple[Any, list[str]]:
        """``"final+without:item:gloves"`` -> ``("final", ["without:item:gloves"])``.

        A variant string is a variant name or variant file, then content edits
        in the short form, ``+``-separated (:mod:`boardlab.engine.content_edits`);
        with no name before the first edit the default variant is meant.
        """
        if not isinstance(variant, str) or ("+" not in variant and ":" not in variant) or variant.endswith(".json"):
            return variant, []
        parts = variant.split("+")
        if ":" in parts[0]:
            return None, parts
        if not parts[0].strip():
            raise UnknownVariantError(f"variant {variant!r} has no variant name before '+' (leave out the '+' for the default)")
        return parts[0], parts[1:]

    @classmethod
    def load_variant_file(cls, path: str | Path, with_content: bool = False) -> tuple[Any, ...]:
        """Read a variant file: ``{"name", "description", "game", "base", "overrides", "content"}``.

        Returns the base variant name, the option overrides (checked) and the
        file's variant name, and with ``with_content`` its content edits (the
        ``content`` section, :mod:`boardlab.engine.content_edits`).  Such files
        are written by ``boardlab tune`` and may be written by hand; a game
        built from one records the overrides and the edits as options, so its
        saved games replay without the file.
        """
        from .errors import ContentError

        doc = load_json_file(path, "variant file")
        if not isinstance(doc, dict) or not isinstance(doc.get("overrides", {}), dict):
            raise ContentError(f"variant file {path} must be a JSON object with an 'overrides' object")
        if doc.get("game", cls.id) != cls.id:
            raise ContentError(f"variant file {path} is for {doc.get('game')!r}, not {cls.id!r}")
        base = doc.get("base") or cls.variants[0].name
        cls.get_variant(base)
        declared = cls.all_options()
        overrides = {}
        for key, value in doc.get("overrides", {}).items():
            if key not in declared:
                raise ContentError(f"variant file {path}: {cls.id} has no option {key!r}")
            overrides[key] = declared[key].coerce(value)
        edits = ContentEdits.parse(doc.get("content"), cls.id, cls.content_kinds, f"variant file {path}: 'content'")
        if edits and not with_content:
            raise ContentError(f"variant file {path} has content edits; build the game from it to apply them")
        name = str(doc.get("name") or Path(path).stem)
        return (base, overrides, name, edits) if with_content else (base, overrides, name)

    @classmethod
    def spec(cls) -> dict[str, Any]:
        """JSON description of the game's metadata."""
        return {
            "id": cls.id,
            "name": cls.name,
            "description": cls.description,
            "min_players": cls.min_players,
            "max_players": cls.max_players,
            "default_players": cls.default_players,
            "variants": [v.to_json() for v in cls.variants],
            "options": [o.to_json() for o in cls.all_options().values()],
            "chance": cls.chance,
            "hidden_information": cls.hidden_information,
            "rules_doc": cls.rules_doc,
            "content_kinds": dict(cls.content_kinds),
        }

    # -- hooks ------------------------------------------------------------
    def load_content(self) -> None:
        """Load data files (maps, decks).  Raise :class:`ContentError` on bad files."""

    #: Game-specific agents: name -> ``"module:Class"`` (e.g. ``{"heuristic": ...}``).
    agents: ClassVar[dict[str, str]] = {}
    #: Playing styles: persona name -> weights over ``State.features()`` keys
    #: (e.g. ``{"aggressive": {"attacks": 2.0, "health": 0.5}}``).
    personas: ClassVar[dict[str, dict[str, float]]] = {}

    #: Heuristic parameters that search playouts may vary: parameter name -> the values
    #: to draw from, one draw per playout and seat (``ismcts:variety=auto``).  Playouts
    #: that follow several plans let the search compare plans, not only next moves.
    playout_variety: ClassVar[dict[str, tuple[Any, ...]]] = {}

    #: A fitted evaluation file (:mod:`boardlab.engine.evaluation`) for search agents, or ``None``.
    evaluation_file: ClassVar[str | Path | None] = None
    #: A distilled policy file (the ``policy`` agent, ``boardlab fit-policy``), or ``None``.
    policy_file: ClassVar[str | Path | None] = None

    @classmethod
    def package_dir(cls) -> Path:
        """The folder of the game's package (where its shipped content lives)."""
        module = sys.modules[cls.__module__]
        return Path(module.__file__).resolve().parent  # type: ignore[arg-type]

    def content_path(self, name: str) -> Path:
        """The file or folder that content option ``name`` selects.

        A preset name gives the shipped file (``Option.presets``); any other
        value is the path of the user's own file, which only a trusted caller
        (the CLI) can have passed: untrusted callers go through
        :meth:`check_untrusted` first.  This is the only place where a content
        option's value becomes a path.
        """
        opt = self.all_options()[name]
        value = self.option_values[name]
        if value in opt.presets and opt.files:
            return self.package_dir() / opt.files[opt.presets.index(value)]
        return Path(value)

    @classmethod
    def check_untrusted(cls, variant: Any, options: Mapping[str, Any]) -> None:
        """Refuse anything in an untrusted configuration that would open a file.

        A content option (``Option.path``) may take only one of its presets,
        and a variant must be a declared name, never a variant file.  Raises
        :class:`UnknownVariantError` or :class:`InvalidOptionError` naming the
        allowed values.  Nothing here opens a file.
        """
        if isinstance(variant, str) and variant not in {v.name for v in cls.variants}:
            names = ", ".join(v.name for v in cls.variants)
            raise UnknownVariantError(f"variant must be one of: {names}")
        declared = cls.all_options()
        for key, value in options.items():
            opt = declared.get(key)
            if opt is not None and opt.path and value not in opt.presets:
                allowed = ", ".join(repr(p) for p in opt.presets)
                raise InvalidOptionError(
                    f"option {key!r} takes a file path, which the web server does not accept; allowed values: {allowed}"
                )

    def fitted_evaluation(self) -> "FittedEvaluation | None":
        """The game's fitted evaluation (read once per file), or ``None`` if it has none."""
        path = self.evaluation_file
        if path is None or not Path(path).exists():
            return None
        key = str(path)
        cached = _EVALUATIONS.get(key)
        if cached is None:
            from .evaluation import FittedEvaluation

            cached = _EVALUATIONS[key] = FittedEvaluation.load(path)
        return cached

    def scene(self, view: dict[str, Any], actions: "Sequence[tuple]" = ()) -> dict[str, Any]:
        """Describe ``view`` as a game-neutral scene (see :mod:`boardlab.engine.scene`).

        ``actions`` are the legal actions when the view's seat is acting
        (targets refer to their indexes), else empty.
        """
        from .scene import generic_scene

        return generic_scene(view, actions)

    def check_state(self, state: "State") -> None:
        """Invariants of a position of this game: raise ``AssertionError`` naming the field if one fails.

        Called by :meth:`State.check_invariants` (after every action in the
        conformance suite and ``scripts/fuzz.py``, and on loading a state
        without a history).  Default: nothing.  See :mod:`boardlab.engine.checks`.
        """

    def core_spec(self) -> str:
        """The JSON document the compiled core builds this configured game from (:mod:`boardlab.engine.core`).

        A game the core accelerates overrides this; it raises :class:`~boardlab.engine.core.EngineUnavailable`
        with one line naming what the core does not support (an option, edited content), so that the
        configuration runs on the Python rules.  Default: the game has no compiled core.
        """
        from .core import EngineUnavailable

        raise EngineUnavailable(f"{self.name} has no compiled core")

    def seat_names(self) -> list[str]:
        """Display names of the seats (before setup decides roles)."""
        return [f"Player {i + 1}" for i in range(self.players)]

    # -- states -----------------------------------------------------------
    def new_state(self, seed: int = 0) -> "State":
        """A new game from an integer seed."""
        return self.state_class.new(self, seed)

    def config(self) -> dict[str, Any]:
        """The JSON configuration that, with a seed, recreates this game."""
        return {
            "game": self.id,
            "players": self.players,
            "variant": self.variant,
            "options": dict(self.overrides),
        }

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id} players={self.players} variant={self.variant}>"


def _check_save(doc: Any) -> dict[str, Any]:
    if not isinstance(doc, dict):
        raise SaveFileError("a saved state must be a JSON object")
    for key in ("game", "players", "variant"):
        if key not in doc:
            raise SaveFileError(f"saved state lacks {key!r}")
    return doc
