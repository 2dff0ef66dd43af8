"""Rule properties: what a game's rules make always true, checked after every transition.

An example test checks one situation someone thought of; a *property* states what must hold in
**every** reachable position (a *state* property) or across **every** transition of some kind (a
*step* property, given the position before, the action and the position after).  Each property names
the concordance rows (``docs/rules/<game>.concordance.csv``) whose sentence it checks, so the
concordance report shows which rule rows have one.

A game declares its properties in ``boardlab/games/<game>/properties.py``:

>>> from boardlab.engine.properties import PropertySet
>>> PROPERTIES = PropertySet()
>>> @PROPERTIES.state("turn is counted", rows=("3.1",))
... def turn_counted(s):
...     assert s.turn >= 0, s.turn
>>> [p.name for p in PROPERTIES]
['turn is counted']

and its :class:`~boardlab.engine.game.Game` class names the set (``properties = PROPERTIES``).
A property raises :class:`AssertionError` (with a message saying what broke) when it fails, and must
not change the states it is given.  The conformance suite (``tests/conformance``), ``scripts/fuzz.py``
and ``scripts/properties.py`` (random, heuristic and short-search playouts, at length) call
:func:`check_transition` after every action; a failure is a :class:`PropertyViolation` that carries
the game's configuration, seed and action list, so it replays exactly.

Step properties see ``before`` and ``after`` with events on or off, whichever the caller plays with:
they read the state's fields, not its log, unless they say otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from .state import Action, State

StateCheck = Callable[["State"], None]
StepCheck = Callable[["State", "Action", "State"], None]


@dataclass(frozen=True, slots=True)
class RuleProperty:
    """One property: its name, the concordance rows it checks, and its check.

    ``kind`` is ``"state"`` (``check(state)``, after every transition and at the start) or
    ``"step"`` (``check(before, action, after)``, across every transition).
    """

    name: str
    rows: tuple[str, ...]
    kind: str
    check: Callable[..., None]
    doc: str = ""


@dataclass
class PropertySet:
    """A game's rule properties, in declaration order (see the module docstring)."""

    items: list[RuleProperty] = field(default_factory=list)

    def _add(self, kind: str, name: str, rows: Sequence[str]) -> Callable[[Callable[..., None]], Callable[..., None]]:
        if any(p.name == name for p in self.items):
            raise ValueError(f"a property named {name!r} is already declared")
        if not rows or any(not isinstance(r, str) or not r for r in rows):
            raise ValueError(f"property {name!r} must name the concordance rows it checks")

        def deco(fn: Callable[..., None]) -> Callable[..., None]:
            self.items.append(RuleProperty(name, tuple(rows), kind, fn, (fn.__doc__ or "").strip()))
            return fn

        return deco

    def state(self, name: str, rows: Sequence[str]) -> Callable[[StateCheck], StateCheck]:
        """Declare a property of every reachable position."""
        return self._add("state", name, rows)

    def step(self, name: str, rows: Sequence[str]) -> Callable[[StepCheck], StepCheck]:
        """Declare a property of every transition ``(before, action, after)``."""
        return self._add("step", name, rows)

    def __iter__(self) -> Iterator[RuleProperty]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def rows(self) -> dict[str, list[str]]:
        """Concordance row id -> names of the properties that check it."""
        out: dict[str, list[str]] = {}
        for p in self.items:
            for r in p.rows:
                out.setdefault(r, []).append(p.name)
        return out

    @property
    def has_step(self) -> bool:
        return any(p.kind == "step" for p in self.items)


class PropertyViolation(AssertionError):
    """A rule property failed: which one, the rows it checks, and how to replay the game."""

    def __init__(self, prop: RuleProperty, game_id: str, detail: str, *, config: dict[str, Any] | None = None,
                 seed: int | None = None, actions: Sequence[Any] | None = None, decision: int | None = None,
                 how: str = "") -> None:
        self.prop = prop
        self.game_id = game_id
        self.detail = detail
        self.config = config
        self.seed = seed
        self.actions = [list(a) for a in actions] if actions is not None else None
        self.decision = decision
        self.how = how
        super().__init__(self.describe())

    def describe(self) -> str:
        rows = ", ".join(f"{self.game_id}:{r}" for r in self.prop.rows)
        lines = [f"rule property {self.prop.name!r} ({rows}) failed"
                 + (f" at decision {self.decision}" if self.decision is not None else "")
                 + f": {self.detail}"]
        if self.config is not None:
            lines.append(f"replay: config={self.config} seed={self.seed}" + (f" ({self.how})" if self.how else ""))
        if self.actions is not None:
            lines.append(f"actions={self.actions}")
        return "\n".join(lines)

    def replay_doc(self) -> dict[str, Any]:
        """A JSON document that :func:`replay` turns back into the failing transition."""
        return {"property": self.prop.name, "rows": list(self.prop.rows), "config": self.config,
                "seed": self.seed, "actions": self.actions, "decision": self.decision, "how": self.how,
                "detail": self.detail}


def properties_of(game: Any) -> PropertySet | None:
    """The game's :class:`PropertySet`, or ``None`` when it declares none."""
    return getattr(type(game), "properties", None)


def check_state(state: "State", props: PropertySet | None = None) -> None:
    """Run every state property on ``state``; raise :class:`PropertyViolation` on the first failure."""
    props = props if props is not None else properties_of(state.game)
    if not props:
        return
    for p in props.items:
        if p.kind == "state":
            _run(p, state.game, p.check, state)


def check_transition(before: "State", action: "Action", after: "State", props: PropertySet | None = None) -> None:
    """Run every step property on ``(before, action, after)`` and every state property on ``after``."""
    props = props if props is not None else properties_of(after.game)
    if not props:
        return
    for p in props.items:
        if p.kind == "step":
            _run(p, after.game, p.check, before, tuple(action), after)
        else:
            _run(p, after.game, p.check, after)


def _run(p: RuleProperty, game: Any, fn: Callable[..., None], *args: Any) -> None:
    try:
        fn(*args)
    except PropertyViolation:
        raise
    except Exception as exc:  # noqa: BLE001 - a crash inside a property is a failure of that property
        detail = str(exc) or type(exc).__name__
        if not isinstance(exc, AssertionError):
            detail = f"{type(exc).__name__}: {detail}"
        raise PropertyViolation(p, game.id, detail) from exc


def replay(doc: dict[str, Any]) -> tuple["State", "Action", "State"]:
    """Rebuild the failing transition of a :meth:`PropertyViolation.replay_doc`: ``(before, action, after)``."""
    from .registry import make

    cfg = doc["config"]
    game = make(cfg["game"], players=cfg["players"], variant=cfg["variant"], options=cfg.get("options") or {})
    state = game.new_state(doc["seed"])
    actions = [tuple(a) for a in doc["actions"]]
    for a in actions[:-1]:
        state.apply(a)
    before = state.clone()
    state.apply(actions[-1])
    return before, actions[-1], state
