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
    """One log entry as ``seat`` may see it (see :meth:`State.events`)."""
    idx, decision, turn, text, data, to, ptext, pdata = entry
    ev: dict[str, Any] = {"i": idx, "decision": decision, "turn": turn}
    if to is not None and (omniscient or (seat is not None and seat in to)):
        ev["text"] = ptext if ptext is not None else text
        ev["data"] = pdata if pdata is not None else data
        ev["private"] = True
    else:
        ev["text"] = text
        ev["data"] = data
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
        """The event log as ``seat`` may see it (``omniscient=True``: everything, for debugging)."""
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
          engine's questions (acting seat, legal actions, views, results) and
          pass the game's :meth:`check_invariants`;
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
        """Decode a state without a history: typed fields, then the engine's questions and invariants."""
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
        except SaveFileError:
            raise
        except Exception as exc:
            raise SaveFileError(f"the saved position is inconsistent: {type(exc).__name__}: {_short(str(exc), 200)}") from None
        self._legal = None
        return self

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
