"""The state protocol every game implements.

The engine owns the public behaviour (validation, turn cap, event log, JSON,
clone, views); a game fills in hooks whose names start with ``_``:

=====================  =====================================================
hook                   what it does
=====================  =====================================================
``_setup()``           build the initial position (may use ``self.rng``)
``_current_seat()``    the seat that decides next (ignored while a prompt
                       is on the stack, see below)
``_legal_actions()``   a list of actions for that seat
``_apply(action)``     carry out a legal action (already validated)
``_is_over()``         has the game ended by its rules?
``_results()``         :class:`Results` of a finished game
``_view(seat)``        JSON dict of what ``seat`` may know (``None``: spectator)
``_determinize(seat,   resample everything ``seat`` cannot see, consistently
rng)``                 with what it can (no-op for perfect information)
``describe(action)``   short human label of an action
=====================  =====================================================

**Actions** are tuples whose first item is a kind string and whose other items
are ``int`` or ``str``: ``("move", 3, 4)``.  They are hashable, cheap, and
serialise as JSON arrays; :meth:`State.apply` also accepts the list form.

**Data.** A game state subclass declares its fields in ``__slots__`` and keeps
plain data in them (see :mod:`boardlab.engine.codec`).  Clone and JSON work
on those fields generically; static data (maps, card tables) lives on the
:class:`~boardlab.engine.game.Game` object, which states share.

**Decisions and interrupts.** A multi-step decision ("choose a target", "the
opponent may respond") is pushed on ``self.stack`` as a :class:`Prompt`.  While
the stack is not empty, the acting seat is the top prompt's seat and the game's
``_legal_actions``/``_apply`` see it via ``self.stack[-1]``; an interrupt is
just another prompt pushed on top (TAG's stacked action sequences).  Passing is
an ordinary action.

**Chance** is resolved inside ``_apply`` from ``self.rng`` (OpenSpiel's
"sampled stochastic" convention), so a saved state resumes identically.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Sequence

from .codec import copy_value, decode, encode, record
from .errors import GameOverError, IllegalActionError, InvalidOptionError, SaveFileError
from .files import parse_json
from .rng import Rng
from .scene import grid_cells

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game

Action = tuple
"""An action: ``(kind, *args)`` with ``str``/``int`` args."""

STATE_FORMAT = "boardlab.state/1"
_new_rng = object.__new__


@record
class Prompt:
    """A pending decision on the stack: who decides, what kind, and its context."""

    __slots__ = ("seat", "kind", "data")

    def __init__(self, seat: int, kind: str, data: Any = None) -> None:
        self.seat = seat
        self.kind = kind
        self.data = data

    def __repr__(self) -> str:
        return f"Prompt(seat={self.seat}, kind={self.kind!r}, data={self.data!r})"


@dataclass(frozen=True, slots=True)
class Results:
    """Outcome of a finished (or truncated) game.

    ``scores`` has one number per seat (1 for a win, 0 for a loss; shared or
    fractional values for draws where a game defines them).  ``winners`` lists
    winning seats (several for team games, none for a truncated game).
    ``truncated`` is true when the turn cap ended the game, which is distinct
    from a finish.  ``reason`` says why the game ended, in words.
    """

    scores: tuple[float, ...]
    winners: tuple[int, ...]
    truncated: bool = False
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "winners": list(self.winners),
            "truncated": self.truncated,
            "reason": self.reason,
        }


def _event(entry: tuple, seat: int | None, omniscient: bool) -> dict[str, Any]:
    """One log entry as ``seat`` may see it (see :meth:`State.events`).

    Its ``data`` is a copy: the log is shared by every clone and sealed by the
    state's digest, so a caller changing what it was given must not change it.
    """
    idx, decision, turn, text, data, to, ptext, pdata = entry
    ev: dict[str, Any] = {"i": idx, "decision": decision, "turn": turn}
    if to is not None and (omniscient or (seat is not None and seat in to)):
        ev["text"] = ptext if ptext is not None else text
        ev["data"] = copy_value(pdata if pdata is not None else data)
        ev["private"] = True
    else:
        ev["text"] = text
        ev["data"] = copy_value(data)
    return ev

def _short(value: Any, limit: int = 120) -> str:
    """``repr(value)`` cut to ``limit`` characters (error messages quote hostile input)."""
    try:
        text = repr(value)
    except RecursionError:  # pragma: no cover - absurdly nested input
        text = f"<deeply nested {type(value).__name__}>"
    except ValueError:  # an integer too long to print
        text = f"<{type(value).__name__} too large to show>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


_NUMBER = (int, float)


def _shape_error(value: Any, ref: Any, depth: int) -> str | None:
    """Where ``value`` has a type the reference value ``ref`` (a fresh state's field) rules out.

    ``None`` on either side and int/float mixes are allowed; containers are
    compared through their items (lists whose reference items share one type
    against the first, dicts key by key, records slot by slot) down to a few
    levels; tuples, small mixed records, only by their own type.
    """
    if value is None or ref is None:
        return None
    tv, tr = type(value), type(ref)
    if tv is not tr:
        if tv in _NUMBER and tr in _NUMBER:
            return None
        return ""
    if depth >= 4:
        return None
    if tv is tuple:  # tuples are small records of mixed types: their type is all we check
        return None
    if tv is list:
        if ref and all(type(r) is type(ref[0]) for r in ref):
            for i, v in enumerate(value):
                where = _shape_error(v, ref[0], depth + 1)
                if where is not None:
                    return f"[{i}]{where}"
        return None
    if tv is dict:
        for k, v in value.items():
            if k in ref:
                where = _shape_error(v, ref[k], depth + 1)
                if where is not None:
                    return f"[{k!r}]{where}"
        return None
    slots = getattr(tv, "_record_slots", None)
    if slots:
        for name in slots:
            where = _shape_error(getattr(value, name, None), getattr(ref, name, None), depth + 1)
            if where is not None:
                return f".{name}{where}"
    return None


def _canonical(doc: Any) -> Any:
    """A stored value re-encoded with today's names (a record saved under an alias gets its current name)."""
    return json.loads(json.dumps(encode(decode(doc))))


def _plain(value: Any) -> Any:
    """``value`` as JSON would give it back (tuples become lists), for comparing configurations."""
    return json.loads(json.dumps(value, sort_keys=True))


def document_digest(doc: dict[str, Any]) -> str:
    """The seal of a state document: SHA-256 of its canonical JSON without ``history`` and ``digest``.

    It is a check against edits, not a signature: anyone can recompute it.
    The history is left out so that dropping it (the typed-decoding path) keeps
    the seal valid.
    """
    body = {k: v for k, v in doc.items() if k not in ("history", "digest")}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def win_results(players: int, winners: Sequence[int], reason: str) -> Results:
    """Results where ``winners`` score 1 and everyone else 0."""
    w = tuple(sorted(set(winners)))
    return Results(tuple(1.0 if s in w else 0.0 for s in range(players)), w, False, reason)


_SANDBOX_PLAYOUTS = 3
"""Random playouts :meth:`State.from_json` tries a position without a history on."""

_SANDBOX_DECISIONS = 150
"""Decisions per such playout."""

_BASE_SLOTS = ("game", "rng", "turn", "decisions", "truncated", "stack", "_log", "_log_len", "_legal", "_seed", "_hist")


def _target_keys(scene: dict[str, Any], target: str, seat: int | None) -> list[str]:
    """The click ids of ``scene`` that ``target`` points at (see :meth:`State.why_not`), in the order
    their reasons are looked up: an item or card first, a square after the items standing on it.

    A cell or node brings the items standing on it, and an item its cell or
    node: they are the same place to a player.  Empty when nothing matches.
    """
    low = target.lower()
    exact: str | None = None
    place: dict[str, list[str]] = {}  # cell/node click id -> item click ids on it
    where: dict[str, str] = {}  # item click id -> cell/node click id
    named: dict[str, str] = {}  # lower-case square/node name -> click id (first board wins)
    for board in scene.get("boards") or ():
        bid = str(board.get("id", ""))
        if board.get("kind") == "grid":
            for x, y, name in grid_cells(board):
                key = f"{bid}:{x},{y}"
                place[key] = []
                if name is not None:
                    named.setdefault(name.lower(), key)
            for it in board.get("items") or ():
                key = f"{bid}:{it.get('x')},{it.get('y')}"
                if key in place:
                    place[key].append(f"item:{it.get('id')}")
                    where[f"item:{it.get('id')}"] = key
        else:
            for n in board.get("nodes") or ():
                key = f"{bid}:{n.get('id')}"
                place[key] = []
                for name in (n.get("label"), n.get("id")):
                    if name not in (None, ""):
                        named.setdefault(str(name).lower(), key)
            for it in board.get("items") or ():
                key = f"{bid}:{it.get('node')}"
                if key in place:
                    place[key].append(f"item:{it.get('id')}")
                    where[f"item:{it.get('id')}"] = key
    cards: dict[str, str] = {}  # card click id -> itself
    card_names: dict[str, str] = {}  # lower-case name of a card in the seat's own hand -> its click id
    twins: dict[str, list[str]] = {}  # a face-up card -> the copies of it in the same panel
    for k, panel in enumerate(scene.get("panels") or ()):
        for c in panel.get("cards") or ():
            key = f"card:{c.get('id')}"
            cards[key] = key
            if c.get("face_down"):
                continue
            name = str(c.get("name", "")).lower()
            if seat is not None and panel.get("seat") == seat:
                card_names.setdefault(name, key)
            twins.setdefault(f"{k}:{name}", []).append(key)
            twins[key] = twins[f"{k}:{name}"]
    if target in place or target in where or target in cards:
        exact = target
    elif low in named:
        exact = named[low]
    elif low in card_names:
        exact = card_names[low]
    if exact is None:
        return []
    if exact in where:
        return [exact, where[exact]]
    if exact in cards:  # copies of one card in a hand or an offer are the same choice
        return [exact, *(k for k in twins.get(exact, ()) if k != exact)]
    return [*place.get(exact, ()), exact]  # what stands on a square is what a player points at


# -- the learned schema of a game's state documents (documents without a history) ------------------------------------

_SCHEMAS: dict[str, "_Schema"] = {}
_NUMBERED = re.compile(r"([A-Za-z_]+)([0-9]{1,6})")
_INT_ROOM = 4096  # an integer above both this and 4 times the largest the samples held at its place is refused
_OPEN = 256  # more distinct strings than this at one place: free text, not a closed set of names
#: Refuse a string that no sampled position held at its place? Off: six random games do not see every
#: name a valid position can hold there (a summoner in a fight, a promotion piece, the heroes' win), and
#: refusing a valid save is worse than accepting a bad one that the sandbox below then tries out.
_CHECK_NAMES = False


def _tagged(value: tuple) -> bool:
    """``value`` (a tuple) starts with a name: a tagged record such as ``("combat", 5, [1])``."""
    return bool(value) and type(value[0]) is str


def _walk(value: Any, path: tuple, visit: Any, depth: int = 0) -> None:
    """Call ``visit(path, value)`` for ``value`` and everything inside it, with list and set items
    (and the keys and values of a dict that is not keyed by names) sharing one place each.

    A tuple's items have a place each, by index; a tagged tuple (its first item a name, such as a queued
    task ``("combat", 5, [1])`` or ``("ask", "key")``) has its items' places under its tag, since what its
    other items are depends on the tag."""
    visit(path, value)
    if depth >= 10:
        return
    t = type(value)
    if t is list or t is set or t is frozenset:
        sub = path + ("[]",)
        for v in value:
            _walk(v, sub, visit, depth + 1)
    elif t is tuple:
        if _tagged(value):
            path = path + (f"<{_short(value[0], 40)}>",)
        for i, v in enumerate(value):
            _walk(v, path + (i,), visit, depth + 1)
    elif t is dict:
        if all(type(k) is str for k in value):
            for k, v in value.items():
                _walk(v, path + ("." + k,), visit, depth + 1)
        else:
            kp, vp = path + ("<k>",), path + ("<v>",)
            for k, v in value.items():
                _walk(k, kp, visit, depth + 1)
                _walk(v, vp, visit, depth + 1)
    else:
        slots = getattr(t, "_record_slots", None)
        if slots:
            for name in slots:
                _walk(getattr(value, name, None), path + ("." + name,), visit, depth + 1)


class _Place:
    """What the sampled positions held at one place of the state: types, signs, names, lengths, keys."""

    __slots__ = ("types", "count", "nstr", "low", "high", "ints", "strs", "shapes", "lengths", "keys", "int_keys")

    def __init__(self) -> None:
        self.types: set[type] = set()
        self.count = 0
        self.nstr = 0  # how many strings were seen here
        self.low: int | None = None  # the smallest integer seen
        self.high: int | None = None  # the largest
        self.ints: set[int] | None = set()  # the integers seen (None: more than a few)
        self.shapes: set[str] | None = None  # prefixes of names such as "r12" or "S4" (None: no such shape)
        self.strs: set[str] | None = set()  # None: free text
        self.lengths: set[int] | None = set()  # lengths of lists and tuples (None: they vary)
        self.keys: set[str] | None = None  # the names every sampled dict here had
        self.int_keys: list[tuple] | None = None  # dict places whose keys every integer here was


def _where(path: tuple) -> str:
    return "".join(p if type(p) is str and p.startswith(".") else f"[{p}]" if type(p) is int else p for p in path)


class _Schema:
    """A game configuration's state schema, learned from fresh states and random games' positions.

    Each place of a state (a field, a record's slot, the items of a list) gets
    the types it held (``None`` only where some position held it), whether its
    integers were ever negative, its names (for a closed set of strings such as
    card names, together with every name in the game's own tables), the lengths
    of its lists when they never vary (seat-indexed lists), the names its dicts
    always had, and which dicts' keys its integers always were (references).
    """

    def __init__(self, game: "Game", klass: type) -> None:
        self.places: dict[tuple, _Place] = {}
        self.singles: dict[tuple, int] = {}  # dict places that occur once per position -> positions seen
        self.names: set[str] = set()
        self.within: list[tuple[str, str]] = []  # (F, G): seat by seat, F's items are always among G's
        self._learn(game, klass)

    def _note(self, path: tuple, value: Any) -> None:
        p = self.places.get(path)
        if p is None:
            p = self.places[path] = _Place()
        t = type(value)
        p.types.add(t)
        p.count += 1
        if t is int:
            if p.low is None or value < p.low:
                p.low = value
            if p.high is None or value > p.high:
                p.high = value
            if p.ints is not None and value not in p.ints:
                p.ints.add(value)
                if len(p.ints) > 64:
                    p.ints = None
        elif t is str:
            p.nstr += 1
            if p.strs is not None:
                p.strs.add(value)
                if len(p.strs) > _OPEN:
                    p.strs = None
        elif t is list or (t is tuple and not _tagged(value)):  # (a tagged tuple's length may follow its tag)
            if p.lengths is not None:
                p.lengths.add(len(value))
                if len(p.lengths) > 1:
                    p.lengths = None
        elif t is dict and all(type(k) is str for k in value):
            p.keys = set(value) if p.keys is None else p.keys & set(value)

    def _learn(self, game: "Game", klass: type) -> None:
        game = _quiet(game)
        # (a quiet copy of the game object: the caller's is never changed, another thread may be playing it)
        positions = [klass.new(game, seed) for seed in range(6)]
        for seed in range(6):
            rng = Rng(0x5EED + seed)
            s = klass.new(game, 1000 + seed)
            every = 1 + seed
            while not s.is_over() and s.decisions < 4000:
                legal = s.legal_actions()
                s.apply(legal[rng.below(len(legal))])
                if s.decisions % every == 0:
                    positions.append(s.clone())
                    every = min(every * 2, 40)
            positions.append(s)
        self.within = _seat_subsets(positions, klass._game_fields, game.players)
        refs: dict[tuple, set[tuple] | None] = {}
        for s in positions:
            seen_dicts: dict[tuple, Any] = {}
            ints: list[tuple[tuple, int]] = []

            def visit(path: tuple, value: Any) -> None:
                self._note(path, value)
                t = type(value)
                if t is dict and value and not all(type(k) is str for k in value):
                    seen_dicts[path] = None if path in seen_dicts else value
                elif t is int:
                    ints.append((path, value))

            for name in klass._game_fields:
                _walk(getattr(s, name), ("data", "." + name), visit)
            for path, d in seen_dicts.items():
                if d is not None and not any(type(p) is str and p in ("[]", "<k>", "<v>") for p in path):
                    self.singles[path] = self.singles.get(path, 0) + 1
            for path, v in ints:
                cands = {q for q, d in seen_dicts.items() if d is not None and v in d}
                refs[path] = cands if path not in refs else (refs[path] & cands if refs[path] is not None else None)
        self.names = _static_names(game)
        for p in self.places.values():
            if p.strs:  # numbered names ("r12", "S4") keep their prefixes
                shapes = {m.group(1) if m else None for m in map(_NUMBERED.fullmatch, p.strs)}
                p.shapes = shapes if None not in shapes else None
            if p.strs is not None and (not p.strs <= self.names or p.nstr < 24):
                p.strs = None  # not a closed set of the game's own names, or seen too seldom to tell
        for path, cands in refs.items():
            ints = self.places[path].ints
            if cands and self.places[path].count >= 12 and (ints is None or len(ints) >= 4):
                self.places[path].int_keys = sorted(q for q in cands if self.singles.get(q) == len(positions))

    def problem(self, state: "State") -> str | None:
        """Where ``state`` holds what no sampled position did, in words; ``None`` when nothing is amiss."""
        dicts: dict[tuple, Any] = {}
        found: list[str] = []
        refs: list[tuple[tuple, int, list]] = []
        places = self.places

        def visit(path: tuple, value: Any) -> None:
            if found:
                return
            p = places.get(path)
            if p is None:
                return
            t = type(value)
            if t is dict and value and not all(type(k) is str for k in value):
                dicts[path] = value
            if t not in p.types and p.types != {type(None)}:
                if not (t is int and float in p.types):
                    have = " or ".join(sorted("null" if k is type(None) else k.__name__ for k in p.types))
                    found.append(f"{_where(path)} is {_short(value, 40)}, where the game keeps {have}")
                return
            if t is int:
                if value < 0 and p.low is not None and p.low >= 0:
                    found.append(f"{_where(path)} is {value}, which is never negative")
                elif p.high is not None and value > max(4 * p.high, _INT_ROOM):
                    found.append(f"{_where(path)} is {value}, far larger than the game keeps there (at most"
                                 f" {p.high} in its sampled positions)")
                elif p.int_keys:
                    refs.append((path, value, p.int_keys))
            elif t is str and _CHECK_NAMES:
                if p.strs is not None and value not in p.strs and value not in self.names:
                    found.append(f"{_where(path)} is {_short(value, 40)}, which names nothing in {state.game.name}")
                elif p.shapes is not None:
                    m = _NUMBERED.fullmatch(value)
                    if m is None or m.group(1) not in p.shapes:
                        found.append(f"{_where(path)} is {_short(value, 40)}, not a name such as {min(p.shapes)}1")
            elif t is list or (t is tuple and not _tagged(value)):
                if p.lengths and p.count >= 24 and len(value) not in p.lengths and min(p.lengths) >= 2:
                    found.append(f"{_where(path)} has {len(value)} items, where the game keeps {min(p.lengths)}")
            elif t is dict and p.keys:
                missing = p.keys - set(value) if all(type(k) is str for k in value) else p.keys
                if missing:
                    found.append(f"{_where(path)} lacks {_short(sorted(missing)[0], 40)}")

        for name in type(state)._game_fields:
            _walk(getattr(state, name), ("data", "." + name), visit)
            if found:
                return found[0]
        for f, g in self.within:
            for seat, (items, among) in enumerate(zip(getattr(state, f), getattr(state, g))):
                extra = Counter(items) - Counter(among)
                if extra:
                    return (f"data.{f}[{seat}] holds {_short(next(iter(extra)), 40)}, which is not in data.{g}[{seat}]"
                            " (every position of the game keeps the one among the other)")
        for path, value, targets in refs:
            for q in targets:
                d = dicts.get(q)
                if d is not None and value not in d:
                    return f"{_where(path)} is {value}, which is not a key of {_where(q)}"
        return None


def _per_seat(value: Any, players: int) -> bool:
    """``value`` is a list of one list of hashable scalars per seat."""
    return (type(value) is list and len(value) == players and players > 0
            and all(type(v) is list and all(type(x) in (str, int) for x in v) for v in value))


def _seat_subsets(positions: list, fields: tuple, players: int) -> list[tuple[str, str]]:
    """The pairs (F, G) of per-seat list fields where, in every sampled position, each seat's F items are among its
    G items (counted), and F held something in some position (revealed cards among the hand)."""
    first = positions[0]
    cands = [f for f in fields if _per_seat(getattr(first, f), players)]
    pairs = {(f, g) for f in cands for g in cands if f != g}
    used: dict[str, int] = {}
    for s in positions:
        for f, g in list(pairs):
            fv, gv = getattr(s, f), getattr(s, g)
            if not (_per_seat(fv, players) and _per_seat(gv, players)) or any(
                    Counter(a) - Counter(b) for a, b in zip(fv, gv)):
                pairs.discard((f, g))
        for f in cands:
            if any(getattr(s, f)[k] for k in range(players)) if _per_seat(getattr(s, f), players) else False:
                used[f] = used.get(f, 0) + 1
    return sorted((f, g) for f, g in pairs if used.get(f, 0) >= 1)


def _quiet(game: "Game") -> "Game":
    """A shallow copy of ``game`` (sharing its tables) that records no events, for the loader's own playouts."""
    import copy

    twin = copy.copy(game)
    twin.record_events = False
    return twin


def _static_names(game: "Game") -> set[str]:
    """Every string in the game object's own tables (card, token and place names), a few levels deep."""
    out: set[str] = set()
    stack: list[tuple[Any, int]] = [(v, 0) for v in vars(game).values()]
    seen: set[int] = set()
    while stack and len(out) < 100_000:
        value, depth = stack.pop()
        t = type(value)
        if t is str:
            out.add(value)
            continue
        if depth > 6 or id(value) in seen or t in (int, float, bool, type(None)):
            continue
        seen.add(id(value))
        if t in (list, tuple, set, frozenset):
            stack.extend((v, depth + 1) for v in value)
        elif isinstance(value, dict):
            stack.extend((k, depth + 1) for k in value)
            stack.extend((v, depth + 1) for v in value.values())
        elif hasattr(value, "__dict__") and not callable(value) and type(value).__module__.startswith("boardlab"):
            stack.extend((v, depth + 1) for v in vars(value).values())
        elif getattr(t, "__slots__", None) and type(value).__module__.startswith("boardlab"):
            stack.extend((getattr(value, s, None), depth + 1) for s in t.__slots__ if isinstance(s, str))
    return out


def _schema(game: "Game", klass: type) -> _Schema:
    key = json.dumps([game.id, klass.__qualname__, game.config()], sort_keys=True, default=str)
    found = _SCHEMAS.get(key)
    if found is None:
        if len(_SCHEMAS) > 64:
            _SCHEMAS.clear()
        found = _SCHEMAS[key] = _Schema(game, klass)
    return found


class State:
    """Base class of a game state.  See the module docstring for the hooks."""

    __slots__ = _BASE_SLOTS
    _game_fields: ClassVar[tuple[str, ...]] = ()

    game: "Game"
    rng: Rng
    turn: int
    decisions: int
    truncated: bool
    stack: list[Prompt]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "__slots__" not in cls.__dict__:
            raise TypeError(f"{cls.__name__} must declare __slots__ (its state fields)")
        fields: list[str] = []
        for klass in reversed(cls.__mro__):
            if klass is State or not issubclass(klass, State):
                continue
            for name in klass.__dict__.get("__slots__", ()):
                if name not in fields:
                    fields.append(name)
        cls._game_fields = tuple(fields)

    # -- construction ----------------------------------------------------
    @classmethod
    def new(cls, game: "Game", seed: int) -> "State":
        """A new game from ``seed`` (use :meth:`Game.new_state`)."""
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidOptionError(f"seed must be an integer, got {seed!r}")
        self = cls.__new__(cls)
        self.game = game
        self.rng = Rng(seed)
        self.turn = 0
        self.decisions = 0
        self.truncated = False
        self.stack = []
        self._log = None
        self._log_len = 0
        self._legal = None
        # a state set up with events off has no log of its setup, so its seed alone cannot
        # re-derive it: like a simulation state after its first action, it has no history
        self._seed = seed if game.record_events else None
        self._hist = None
        self._setup()
        return self

    # -- hooks (override) ------------------------------------------------
    def _setup(self) -> None:
        raise NotImplementedError

    def _current_seat(self) -> int | None:
        raise NotImplementedError

    def _legal_actions(self) -> list[Action]:
        raise NotImplementedError

    def _apply(self, action: Action) -> None:
        raise NotImplementedError

    def _is_over(self) -> bool:
        raise NotImplementedError

    def _results(self) -> Results:
        raise NotImplementedError

    def _view(self, seat: int | None) -> dict[str, Any]:
        raise NotImplementedError

    def _determinize(self, seat: int, rng: Rng) -> None:
        """Resample hidden information ``seat`` cannot see.  Default: nothing is hidden."""

    def describe(self, action: Action) -> str:
        """A short human-readable label of ``action``."""
        return " ".join(str(a) for a in action)

    def roles(self) -> tuple[str, ...]:
        """The role or side of each seat (e.g. ``("wizard", "hero", "hero")``)."""
        return tuple(f"seat {i}" for i in range(self.game.players))

    def evaluate(self, seat: int) -> float:
        """Heuristic value in [0, 1] of the position for ``seat`` (search cut-offs, drama metrics).

        Must use only what ``seat`` may know when called on a determinized state.
        """
        return 0.5

    def features(self, seat: int) -> dict[str, float]:
        """Named numeric features of the position for ``seat`` (personas weight these)."""
        return {}

    def metrics(self) -> dict[str, list[int]]:
        """Per-game usage counters for the playtest lab: ``{"token:pit": [count per seat], ...}``.

        Keys are ``"<category>:<name>"`` (categories such as ``card``, ``token``,
        ``item``, ``rule``, ``attack``); values have one count per seat.
        """
        return {}

    def action_tags(self, action: Action) -> tuple[str, ...]:
        """Tags naming the cards, tokens or rules an action uses (``("card:fireball",)``).

        Restricted-play agents use these ("never play card X").
        """
        return ()

    # -- public API ------------------------------------------------------
    @property
    def players(self) -> int:
        return self.game.players

    def is_over(self) -> bool:
        """True when the game has finished or was truncated by the turn cap."""
        return self.truncated or self._is_over()

    def current_seat(self) -> int | None:
        """The seat that must decide now, or ``None`` when the game is over."""
        if self.truncated or self._is_over():
            return None
        if self.stack:
            return self.stack[-1].seat
        return self._current_seat()

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions of the acting seat (empty when the game is over).  Do not mutate."""
        legal = self._legal
        if legal is None:
            if self.truncated or self._is_over():
                legal = ()
            else:
                legal = tuple(self._legal_actions())
            self._legal = legal
        return legal

    def labeled_actions(self) -> list[dict[str, Any]]:
        """The legal actions as ``{"index", "action", "label"}`` dicts (JSON-safe)."""
        return [
            {"index": i, "action": list(a), "label": self.describe(a)}
            for i, a in enumerate(self.legal_actions())
        ]

    def apply(self, action: Action | list) -> None:
        """Apply a legal action of the acting seat.

        Raises :class:`GameOverError` if the game is over and
        :class:`IllegalActionError` if ``action`` is not legal; in both cases
        the state is unchanged.  Legality is strict: every item must equal
        the item of a legal action *and have its exact type* (``True`` is not
        ``1``, ``35.0`` is not ``35``), and the game's transition receives the
        legal action object itself, never the caller's.

        The call is transactional while the game records events (every
        interactive, saved or served game): should the game's transition
        raise, the state is restored exactly and the caller gets an
        :class:`IllegalActionError` naming the failure.  Simulation loops turn
        ``game.record_events`` off for speed; there actions come from
        :meth:`legal_actions` and no snapshot is taken (a transition failing on
        its own legal action is a rules bug, which the conformance suite and
        ``scripts/fuzz.py`` hunt).
        """
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        if not legal and (self.truncated or self._is_over()):
            # (a non-empty legal list means the game is not over: no need to ask again)
            raise GameOverError(f"the game is over; no action is legal (got {_short(action)})")
        if type(action) is not tuple:
            if not isinstance(action, (list, tuple)):
                raise IllegalActionError(f"an action must be a list or tuple, got {_short(action)}")
            action = tuple(action)
        try:
            found = legal[legal.index(action)]
        except ValueError:
            found = None
        if found is not action:
            if found is None or any(type(a) is not type(b) for a, b in zip(found, action)):
                sample = "; ".join(self.describe(a) for a in legal[:8])
                more = f" (and {len(legal) - 8} more)" if len(legal) > 8 else ""
                raise IllegalActionError(f"illegal action {_short(list(action))}; legal: {sample}{more}")
            action = found
        game = self.game
        if game.record_events:
            snapshot = self.clone()
            try:
                self._legal = None
                self._apply(action)
                self._hist = (self._hist, action)
            except Exception as exc:
                self._restore(snapshot)
                if isinstance(exc, IllegalActionError):
                    raise
                raise IllegalActionError(
                    f"the rules could not carry out {list(action)!r} ({type(exc).__name__}: {exc}); the state is unchanged"
                ) from exc
        else:
            self._legal = None
            self._apply(action)
        self.decisions += 1
        if self.turn > game.max_turns and not self._is_over():
            self.truncated = True
            self.emit(f"The game is stopped by the turn cap ({game.max_turns} turns).")

    def _restore(self, snapshot: "State") -> None:
        """Put every field of ``snapshot`` (a clone of this state) back."""
        for name in _BASE_SLOTS:
            setattr(self, name, getattr(snapshot, name))
        for name in self._game_fields:
            setattr(self, name, getattr(snapshot, name))

    def apply_index(self, index: int) -> Action:
        """Apply the ``index``-th legal action; returns it."""
        legal = self.legal_actions()
        if isinstance(index, bool) or not isinstance(index, int):
            raise IllegalActionError(f"an action index must be an integer, got {_short(index)}")
        if not legal and (self.truncated or self._is_over()):
            raise GameOverError(f"the game is over; no action is legal (got index {index})")
        if not 0 <= index < len(legal):
            raise IllegalActionError(f"action index {index} out of range 0..{len(legal) - 1}")
        action = legal[index]
        self.apply(action)
        return action

    def check_invariants(self) -> None:
        """Raise ``AssertionError`` (or any error) if the position breaks a rule of the game.

        A hook for games: the default asks the game's :meth:`Game.check_state`
        (which checks nothing unless the game overrides it).  The conformance suite,
        ``scripts/fuzz.py`` and :meth:`from_json` call it; it should be cheap
        and must not change the state.
        """
        self.game.check_state(self)

    def results(self) -> Results:
        """Results of the game.  Raises :class:`IllegalActionError` if it is not over."""
        if self.truncated:
            return Results(tuple(0.0 for _ in range(self.game.players)), (), True, "turn cap reached")
        if not self._is_over():
            raise IllegalActionError("the game is not over yet")
        return self._results()

    def winners(self) -> tuple[int, ...]:
        return self.results().winners

    def begin_turn(self) -> None:
        """Games call this when a new turn starts; the turn cap counts these."""
        self.turn += 1

    # -- views -----------------------------------------------------------
    def _check_seat(self, seat: int | None) -> None:
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.game.players):
            raise InvalidOptionError(f"seat must be 0..{self.game.players - 1} or None, got {seat!r}")

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may know, as JSON-safe data (``None``: a spectator)."""
        self._check_seat(seat)
        over = self.is_over()
        return {
            "game": self.game.id,
            "variant": self.game.variant,
            "players": self.game.players,
            "seat": seat,
            "acting": self.current_seat(),
            "turn": self.turn,
            "decisions": self.decisions,
            "over": over,
            "results": self.results().to_json() if over else None,
            "roles": list(self.roles()),
            "prompt": self.stack[-1].kind if self.stack else None,
            "state": self._view(seat),
        }

    def why_not(self, seat: int | None, target: str) -> str | None:
        """Why ``seat`` cannot use ``target`` now, in words; ``None`` when a legal action uses it.

        ``target`` is what a player points at, named as the game's scene names
        it: a click id (``"main:3,2"``, ``"ring:r4"``, ``"item:a7"``,
        ``"card:h2"``), a square or node name as the boards' axes and labels
        spell it (``"c4"``, ``"NT"``, any case) or the name of a card in the
        seat's own hand.  A name the scene does not know raises
        :class:`InvalidOptionError`.

        The answer comes from the scene of ``seat``'s own view (with the legal
        actions only when ``seat`` is acting), so it tells nothing the view
        does not: ``None`` when some legal action's target clicks ``target``
        (an item counts as the square or node it stands on); else the game's
        reason from the scene's ``why_not`` map (see
        :mod:`boardlab.engine.scene`); else "it is not your turn" or the
        generic "not a legal choice now".
        """
        self._check_seat(seat)
        if not isinstance(target, str) or not target.strip():
            raise InvalidOptionError(f"a target must be a square, piece or card name, got {_short(target)}")
        if self.is_over():
            return "the game is over"
        acting = self.current_seat()
        mine = seat is not None and seat == acting
        scene = self.game.scene(self.view(seat), self.legal_actions() if mine else ())
        keys = _target_keys(scene, target.strip(), seat)
        if not keys:
            raise InvalidOptionError(f"{_short(target)} names no square, piece or card of this {self.game.name} position")
        for t in scene.get("targets") or ():
            if any(c in keys for c in t.get("clicks") or ()):
                return None
        reasons = scene.get("why_not") or {}
        for key in keys:
            if key in reasons:
                return str(reasons[key])
        if seat is None:
            return "a spectator does not act"
        if not mine:
            return "it is not your turn"
        return "not a legal choice now"

    # -- event log -------------------------------------------------------
    def emit(
        self,
        text: str,
        data: dict[str, Any] | None = None,
        *,
        to: Sequence[int] | None = None,
        private_text: str | None = None,
        private_data: dict[str, Any] | None = None,
    ) -> None:
        """Append an event to the log.

        ``text``/``data`` are public.  If ``to`` is given, the seats in it see
        ``private_text``/``private_data`` instead (e.g. "you drew Pit" versus
        "Player 2 drew a token").  Data must be JSON-safe.
        """
        if not self.game.record_events:
            return
        entry = (
            self._log_len,
            self.decisions,
            self.turn,
            text,
            data,
            tuple(to) if to is not None else None,
            private_text,
            private_data,
        )
        self._log = (self._log, entry)
        self._log_len += 1

    def _entries(self) -> list[tuple]:
        out = []
        node = self._log
        while node is not None:
            out.append(node[1])
            node = node[0]
        out.reverse()
        return out

    def events(self, seat: int | None = None, *, omniscient: bool = False) -> list[dict[str, Any]]:
        """The event log as ``seat`` may see it (``omniscient=True``: everything, for debugging).

        The events are new dicts with copies of their data: changing them does not change the log.
        """
        self._check_seat(seat)
        return [_event(entry, seat, omniscient) for entry in self._entries()]

    def log_mark(self) -> object:
        """An opaque mark of the event log as it stands now, for :meth:`events_since`."""
        return self._log

    def events_since(self, mark: object, seat: int | None = None) -> list[dict[str, Any]] | None:
        """The events ``seat`` may see that were logged after ``mark``, oldest first.

        ``mark`` is the :meth:`log_mark` of this state or of an earlier state it was
        played from (``None``: the empty log).  Costs only the new events, so a server
        can send a long game's log piece by piece.  Returns ``None`` when ``mark`` is
        not in this state's log (another line of play), where the whole log is needed.
        """
        self._check_seat(seat)
        out = []
        node = self._log
        while node is not mark:
            if node is None:
                return None
            out.append(_event(node[1], seat, False))
            node = node[0]
        out.reverse()
        return out

    # -- copy and search -------------------------------------------------
    def clone(self) -> "State":
        """An independent copy (shares the immutable game object and log)."""
        cls = type(self)
        new = cls.__new__(cls)
        new.game = self.game
        src = self.rng
        if type(src) is Rng:
            rng = _new_rng(Rng)  # Rng(state) without the call overhead (clone is a search hot path)
            rng.state = src.state
            new.rng = rng
        else:  # a test's scripted stand-in for the generator
            import copy

            new.rng = copy.deepcopy(src)
        new.turn = self.turn
        new.decisions = self.decisions
        new.truncated = self.truncated
        stack = self.stack
        new.stack = [copy_value(p) for p in stack] if stack else []
        new._log = self._log
        new._log_len = self._log_len
        new._legal = self._legal
        new._seed = self._seed
        new._hist = self._hist
        self._copy_fields(new)
        return new

    def _copy_fields(self, new: "State") -> None:
        """Copy the game's own fields into ``new``.  Override for speed."""
        for name in self._game_fields:
            setattr(new, name, copy_value(getattr(self, name)))

    def determinize(self, seat: int, rng: Rng | int) -> "State":
        """A copy in which everything ``seat`` cannot see is resampled.

        The copy agrees with ``seat``'s view (``copy.view(seat) == self.view(seat)``
        apart from the log), its future chance outcomes are reseeded, and its
        event log is dropped, so a search agent can play it out without
        learning anything ``seat`` may not know.
        """
        self._check_seat(seat)
        if isinstance(rng, bool) or not isinstance(rng, (int, Rng)):
            raise InvalidOptionError(f"determinize needs an Rng or an integer seed, got {_short(rng)}")
        if isinstance(rng, int):
            rng = Rng(rng)
        new = self.clone()
        new.rng = Rng(rng.next64())
        new._log = None
        new._log_len = 0
        new._seed = None  # a determinization is not what its seed and actions give
        new._hist = None
        new._determinize(seat, rng)
        new._legal = None
        return new

    # -- JSON ------------------------------------------------------------
    def forget_history(self) -> None:
        """Drop the seed-and-actions history: call it after editing a position by hand.

        A hand-built position (a test scenario, an editor) is not what its seed
        and actions give, so its JSON must not claim they do; without a history
        :meth:`from_json` checks the fields' types, the engine's questions and
        the game's invariants instead.
        """
        self._seed = None
        self._hist = None

    def history(self) -> dict[str, Any] | None:
        """``{"seed", "actions"}`` that re-derive this state, or ``None`` if unknown.

        Kept while the game records events (interactive, saved and served
        games); simulation states (``record_events`` off), determinizations
        and states loaded without a history have none.
        """
        if self._seed is None:
            return None
        actions = []
        node = self._hist
        while node is not None:
            actions.append(list(node[1]))
            node = node[0]
        if len(actions) != self.decisions:
            return None
        actions.reverse()
        return {"seed": self._seed, "actions": actions}

    def to_json(self) -> dict[str, Any]:
        """Exact JSON form: ``State.from_json(s.to_json())`` continues identically.

        ``digest`` seals everything but the history (see :func:`document_digest`),
        so :meth:`from_json` refuses a document edited after it was written.
        """
        doc = {
            "format": STATE_FORMAT,
            **self.game.config(),
            "rng": self.rng.state,
            "turn": self.turn,
            "decisions": self.decisions,
            "truncated": self.truncated,
            "stack": encode(self.stack),
            "log": [encode(e) for e in self._entries()],
            "data": {name: encode(getattr(self, name)) for name in self._game_fields},
            "history": self.history(),
        }
        doc["digest"] = document_digest(doc)
        return doc

    def dumps(self) -> str:
        """:meth:`to_json` as a compact, key-sorted JSON string."""
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, doc: dict[str, Any], game: "Game | None" = None) -> "State":
        """Rebuild a state from :meth:`to_json` output, checking it deeply.

        Raises :class:`SaveFileError` (never another exception) when the
        document is malformed or tampered with:

        * with a ``history`` (seed and actions), the state is re-derived by
          replaying the actions from the seed and every stored field must equal
          the derived one; the error names the first field that differs;
        * without one, each field must have the types of a fresh state's field
          (the error names it), and the loaded position must answer the
          engine's questions (acting seat, legal actions, views, results), pass
          the game's :meth:`check_invariants` and its state properties
          (:mod:`boardlab.engine.properties`), match the schema learned from the
          game's own positions (types and ``None`` place by place, signs, names
          from the game's tables, fixed lengths and keys, references between
          fields: :class:`_Schema`), and survive a sandbox (every legal action
          once and short random playouts, on copies: :meth:`_sandbox`);
        * with a ``game``, the document's configuration (``game``, ``players``,
          ``variant``, ``options``) must be that game's;
        * last, a document carrying a ``digest`` must still match it (the
          digest covers everything but the history, which may be dropped): an edit
          that passes every check above (a changed option or variant whose
          replay happens to match, a plausible number in a position without
          history) is refused here.  A document without a digest (written by
          hand, or before digests existed) is judged by the checks above alone.
        """
        try:
            return cls._from_json(doc, game)
        except SaveFileError:
            raise
        except RecursionError:
            raise SaveFileError("state document is nested too deeply") from None
        except Exception as exc:  # anything else is a malformed document, never a crash
            raise SaveFileError(f"malformed state document: {type(exc).__name__}: {_short(str(exc), 200)}") from None

    @classmethod
    def _from_json(cls, doc: Any, game: "Game | None") -> "State":
        from .errors import BoardlabError
        from .registry import make

        if not isinstance(doc, dict) or doc.get("format") != STATE_FORMAT:
            raise SaveFileError(f"not a boardlab state document (format must be {STATE_FORMAT!r})")
        if game is None:
            gid, players, variant, options = doc.get("game"), doc.get("players"), doc.get("variant"), doc.get("options")
            if not isinstance(gid, str):
                raise SaveFileError("state field 'game' must be a game id")
            if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
                raise SaveFileError(f"state field 'players' must be an integer, got {_short(players)}")
            if variant is not None and not isinstance(variant, str):
                raise SaveFileError(f"state field 'variant' must be a string, got {_short(variant)}")
            if options is not None and not isinstance(options, dict):
                raise SaveFileError("state field 'options' must be an object")
            try:
                game = make(gid, players=players, variant=variant, options=options or {})
            except BoardlabError as exc:
                raise SaveFileError(f"the state's game cannot be set up: {exc}") from None
        else:
            if "game" in doc and doc["game"] != game.id:
                raise SaveFileError(f"state field 'game' is {_short(doc['game'])}, not {game.id!r}")
            if "players" in doc and doc["players"] != game.players:
                raise SaveFileError(f"state field 'players' is {_short(doc['players'])}, not {game.players}")
            if "variant" in doc and doc["variant"] != game.variant:
                raise SaveFileError(f"state field 'variant' is {_short(doc['variant'])}, not {game.variant!r} (the game it is loaded into)")
            if "options" in doc and _plain(doc["options"] or {}) != _plain(game.overrides):
                raise SaveFileError(f"state field 'options' is {_short(doc['options'])}, not {_short(_plain(game.overrides))}"
                                    " (the game it is loaded into)")
        klass = game.state_class
        if cls is not State and not issubclass(klass, cls):
            raise SaveFileError(f"state is for {game.id}, not {cls.__name__}")
        for key in ("rng", "turn", "decisions", "truncated", "stack", "log", "data"):
            if key not in doc:
                raise SaveFileError(f"state document lacks the field {key!r}")
        for key, high in (("rng", 1 << 64), ("turn", None), ("decisions", None)):
            v = doc[key]
            if type(v) is not int or v < 0 or (high is not None and v >= high):
                raise SaveFileError(f"state field {key!r} must be a non-negative integer, got {_short(v)}")
        if type(doc["truncated"]) is not bool:
            raise SaveFileError(f"state field 'truncated' must be true or false, got {_short(doc['truncated'])}")
        if not isinstance(doc["stack"], list):
            raise SaveFileError("state field 'stack' must be a list")
        if not isinstance(doc["log"], list):
            raise SaveFileError("state field 'log' must be a list")
        data = doc["data"]
        if not isinstance(data, dict) or set(data) != set(klass._game_fields):
            raise SaveFileError(f"state data fields do not match {game.id}'s")
        sealed = doc.get("digest")
        if sealed is not None and type(sealed) is not str:
            raise SaveFileError(f"state field 'digest' must be a string, got {_short(sealed)}")
        hist = doc.get("history")
        state = klass._rederive(doc, hist, game) if hist is not None else klass._decode_checked(doc, game)
        # the document as given must match its digest, or else what the loaded state writes must (the same
        # document with records under today's names): a record saved under a name that later became an alias loads
        if sealed is not None and document_digest(doc) != sealed and state.to_json()["digest"] != sealed:
            raise SaveFileError("state field 'digest' does not match the document: it was edited after it was written"
                                " (a position edited on purpose must be rebuilt and saved by the engine, see forget_history())")
        return state

    @classmethod
    def _rederive(cls, doc: dict[str, Any], hist: Any, game: "Game") -> "State":
        """Replay ``history`` from its seed; the stored fields must be exactly what it gives."""
        if not isinstance(hist, dict) or set(hist) != {"seed", "actions"}:
            raise SaveFileError("state field 'history' must be an object with 'seed' and 'actions'")
        seed, actions = hist["seed"], hist["actions"]
        if type(seed) is not int:
            raise SaveFileError(f"state field 'history.seed' must be an integer, got {_short(seed)}")
        if not isinstance(actions, list) or len(actions) != doc["decisions"]:
            raise SaveFileError("state field 'history.actions' must list one action per decision")
        recording = game.record_events
        game.record_events = True  # the derived state keeps its log and history, like the saved one
        try:
            state = cls.new(game, seed)
            for i, action in enumerate(actions):
                if not isinstance(action, list):
                    raise SaveFileError(f"state field 'history.actions[{i}]' is not an action")
                try:
                    state.apply(action)
                except IllegalActionError as exc:
                    raise SaveFileError(f"state field 'history.actions[{i}]' is not legal: {_short(str(exc), 200)}") from None
        finally:
            game.record_events = recording
        derived = json.loads(json.dumps(state.to_json()))
        for key in ("rng", "turn", "decisions", "truncated", "stack", "log"):
            if derived[key] != doc[key]:
                raise SaveFileError(f"state field {key!r} does not match what its seed and actions give")
        for name in cls._game_fields:
            if derived["data"][name] != doc["data"][name] and derived["data"][name] != _canonical(doc["data"][name]):
                raise SaveFileError(
                    f"state field 'data.{name}' does not match what its seed and actions give"
                    " (a position edited by hand must call forget_history() before it is saved)"
                )
        return state

    @classmethod
    def _decode_checked(cls, doc: dict[str, Any], game: "Game") -> "State":
        """Decode a state without a history: typed fields, the engine's questions, invariants and properties,
        the learned schema, then the sandbox."""
        self = cls.__new__(cls)
        self.game = game
        self.rng = Rng(doc["rng"])
        self.turn = doc["turn"]
        self.decisions = doc["decisions"]
        self.truncated = doc["truncated"]
        stack = decode(doc["stack"])
        for p in stack:
            if type(p) is not Prompt or type(p.seat) is not int or not 0 <= p.seat < game.players or type(p.kind) is not str:
                raise SaveFileError("state field 'stack' holds a malformed prompt")
        self.stack = stack
        self._log = None
        self._log_len = 0
        for i, entry in enumerate(doc["log"]):
            e = decode(entry)
            if (type(e) is not tuple or len(e) != 8 or e[0] != i or type(e[1]) is not int
                    or type(e[2]) is not int or type(e[3]) is not str):
                raise SaveFileError(f"state field 'log[{i}]' is malformed")
            self._log = (self._log, e)
            self._log_len += 1
        self._seed = None
        self._hist = None
        self._legal = None
        data = doc["data"]
        reference = cls.new(game, 0)
        for name in cls._game_fields:
            value = decode(data[name])
            where = _shape_error(value, getattr(reference, name), 0)
            if where is not None:
                raise SaveFileError(f"state field 'data.{name}'{where} has the wrong type")
            setattr(self, name, value)
        try:
            seat = self.current_seat()
            over = self.is_over()
            legal = self.legal_actions()
            if over:
                self.results()
            elif seat is None or not legal:
                raise ValueError("the game is not over but no seat can act")
            elif not 0 <= seat < game.players:
                raise ValueError(f"the acting seat {seat!r} is not a seat")
            for s in (None, *range(game.players)):
                self.view(s)
            self.check_invariants()
            # the game's state properties (boardlab.engine.properties; read from the game class, as
            # properties.check_state does, since that module may not be imported here: it imports the registry)
            for prop in getattr(type(game), "properties", None) or ():
                if prop.kind == "state":
                    try:
                        prop.check(self)
                    except Exception as exc:
                        raise SaveFileError(f"the saved position breaks the rule property {prop.name!r}: "
                                            f"{_short(str(exc) or type(exc).__name__, 200)}") from None
        except SaveFileError:
            raise
        except Exception as exc:
            raise SaveFileError(f"the saved position is inconsistent: {type(exc).__name__}: {_short(str(exc), 200)}") from None
        problem = _schema(game, cls).problem(self)
        if problem is not None:
            raise SaveFileError(f"state field {problem}")
        self._legal = None
        self._sandbox()
        return self

    def _sandbox(self) -> None:
        """Try the loaded position without changing it: every legal action once, and short random playouts.

        A position that passes the field checks can still hold a value the rules
        trip over later (a name no table has, a number used as an index); this
        plays it on, on copies with events off, and refuses the document
        (:class:`SaveFileError`) when the rules raise anything.
        """
        game = _quiet(self.game)  # copies with events off, on a copy of the game object (never the caller's)
        step = "a legal action"
        try:
            legal = self.legal_actions()
            for action in legal[:64]:
                step = f"the legal action {list(action)!r}"
                child = self.clone()
                child.game = game
                child.apply(action)
                child.current_seat()
                child.legal_actions()
                if child.is_over():
                    child.results()
            rng = Rng(self.rng.state ^ 0x9E3779B97F4A7C15)
            for k in range(_SANDBOX_PLAYOUTS):
                s = self.clone()
                s.game = game
                for n in range(_SANDBOX_DECISIONS):
                    if s.is_over():
                        step = "the results of a playout"
                        s.results()
                        break
                    seat = s.current_seat()
                    step = f"decision {n + 1} of a playout"
                    if n % 8 == 0:
                        for v in (None, *range(game.players)):
                            s.view(v)
                        s.determinize(seat, rng.next64()).legal_actions()
                        s.evaluate(seat)
                    options = s.legal_actions()
                    if not options:
                        raise ValueError("the game is not over but no seat can act")
                    s.apply(options[rng.below(len(options))])
                step = "its state document"
                s.to_json()
        except SaveFileError:
            raise
        except Exception as exc:
            cause = exc.__cause__ if isinstance(exc, IllegalActionError) and exc.__cause__ is not None else exc
            raise SaveFileError(f"the saved position breaks the rules at {step}: {type(cause).__name__}: "
                                f"{_short(str(cause), 160)}") from None
        finally:
            self._legal = None

    @classmethod
    def loads(cls, text: str, game: "Game | None" = None) -> "State":
        """:meth:`from_json` of the JSON ``text``; raises :class:`SaveFileError` (never another exception).

        The text is parsed by :func:`~boardlab.engine.files.parse_json`: strict
        JSON, integers of at most 40 digits, nesting at most 100 levels.
        """
        if not isinstance(text, (str, bytes, bytearray)):
            raise SaveFileError(f"a state must be given as JSON text, got {type(text).__name__}")
        if not isinstance(text, str):
            try:
                text = bytes(text).decode("utf-8")
            except UnicodeDecodeError:
                raise SaveFileError("state is not UTF-8 text") from None
        return cls.from_json(parse_json(text, "state", error=SaveFileError), game)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} turn={self.turn} decisions={self.decisions} acting={self.current_seat()}>"
