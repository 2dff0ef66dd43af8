"""Content edits: a variant that removes, adds or replaces a game's designed content.

A designer asks "what if the gloves were not in the game?".  A *content edit*
answers it without a new data file: it is part of a game's configuration,
recorded in ``Game.config()["options"]["content_edits"]`` (so saves, run
folders and workers rebuild the same game without any file), and applied by
the game in one place, while it loads its content (:meth:`Game.load_content`),
so the edited content is validated like the shipped files.

Each game declares the kinds of content an edit may name
(``Game.content_kinds``, e.g. ``{"item": ..., "token": ...}``); an edit names
one entry as ``KIND:NAME``.  Names match the entry's identifier exactly, else
ignoring case, else ignoring case and punctuation (``card:mind-fog`` is
Armies' ``Mind Fog``); the recorded edit uses the exact identifier.

The JSON form (a variant file's ``content`` section, or the option's value)::

    {"remove":  ["item:gloves", "card:Mind Fog"],          # every copy leaves the game
     "add":     {"item:shield": 2,                          # 2 more copies of an entry
                 "item:ring": {"effect": "attack", "copies": 1}},  # a new entry: its fields
     "replace": {"item:broadsword": {"count": 1},           # change an entry's fields
                 "token:death": "speed"}}                   # every copy becomes another entry

The short form (in a variant string after ``+``, or the option's value as
text), one edit per ``+``-separated token::

    without:KIND:NAME          remove
    with:KIND:NAME[*N]         add N copies (default 1)
    replace:KIND:OLD=NEW       every copy of OLD becomes NEW

so ``--variant final+without:item:gloves`` is the ``final`` variant without
the gloves, and ``--variant without:item:gloves`` the default variant without
them.  (A comma still separates variants to compare: ``playtest --variant
final,final+without:item:gloves``.)

A game applies the edits with :meth:`ContentEdits.apply_entries` (a list of
entry objects from a data file, before validation), or with
:meth:`ContentEdits.apply_definitions` plus :meth:`ContentEdits.apply_pool`
(a table of definitions and separate lists of copies, e.g. Armies' deck
lists).  After loading, :meth:`ContentEdits.check_applied` refuses an edit the
configuration did not use or a removal that removed nothing.  Every problem is
a :class:`ContentEditError`, one line naming the edit and what is allowed.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from .errors import ContentError

#: The option key under which a game's configuration records its content edits.
OPTION_KEY = "content_edits"
#: The most copies one edit may add, and the most edits a configuration may hold.
MAX_COPIES = 100
MAX_EDITS = 200
SECTIONS = ("remove", "add", "replace")
SHORT_FORMS = "without:KIND:NAME, with:KIND:NAME[*N] or replace:KIND:OLD=NEW"


class ContentEditError(ContentError):
    """A content edit is malformed, names unknown content, or cannot apply to this game."""


def slug(text: str) -> str:
    """``"Non-aggression Order"`` -> ``"non-aggression-order"`` (case and punctuation ignored)."""
    return re.sub(r"[^0-9a-z]+", "-", text.casefold()).strip("-")


@dataclass(slots=True)
class Edit:
    """One edit of one entry: ``op`` is ``remove``, ``add`` or ``replace``."""

    op: str
    kind: str
    name: str
    #: ``add``: more copies of an existing entry (``fields`` is then ``None``).
    copies: int = 0
    #: ``add``: a new entry's fields; ``replace``: the fields to change.
    fields: dict[str, Any] | None = None
    #: ``replace``: the entry every copy becomes.
    target: str | None = None
    applied: bool = field(default=False, compare=False)
    hits: int = field(default=0, compare=False)

    def label(self) -> str:
        if self.op == "remove":
            return f"without:{self.kind}:{self.name}"
        if self.op == "add":
            return f"with:{self.kind}:{self.name}" + (f"*{self.copies}" if self.fields is None and self.copies != 1 else "")
        if self.target is not None:
            return f"replace:{self.kind}:{self.name}={self.target}"
        return f"replace:{self.kind}:{self.name}"


def _copies(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_COPIES:
        raise ContentEditError(f"{where}: the number of copies must be a whole number from 1 to {MAX_COPIES}, got {value!r}")
    return value


class ContentEdits:
    """An ordered list of :class:`Edit` for one game, checked against its content kinds."""

    __slots__ = ("edits", "game_id", "kinds")

    def __init__(self, edits: Iterable[Edit] = (), game_id: str = "", kinds: Mapping[str, str] | None = None) -> None:
        self.edits: list[Edit] = list(edits)
        self.game_id = game_id
        self.kinds: dict[str, str] = dict(kinds or {})
        if len(self.edits) > MAX_EDITS:
            raise ContentEditError(f"{game_id}: {len(self.edits)} content edits; at most {MAX_EDITS}")
        seen: dict[tuple[str, str], Edit] = {}
        for e in self.edits:
            if e.kind not in self.kinds:
                raise ContentEditError(f"{game_id} has no content kind {e.kind!r} in {e.label()!r} ({self._kind_list()})")
            k = (e.kind, e.name.casefold())
            if k in seen:
                raise ContentEditError(f"{game_id}: {e.kind}:{e.name} is edited twice ({seen[k].label()!r} and {e.label()!r})")
            seen[k] = e

    def _kind_list(self) -> str:
        return "kinds: " + ", ".join(self.kinds) if self.kinds else "it has no editable content"

    # -- building -----------------------------------------------------------
    @classmethod
    def parse(cls, value: Any, game_id: str, kinds: Mapping[str, str], where: str = "content edits") -> "ContentEdits":
        """Edits from the JSON form (a mapping), its text, or the short form (``without:item:gloves+...``)."""
        if value is None or value == "" or value == {}:
            return cls((), game_id, kinds)
        if isinstance(value, ContentEdits):
            return cls(value.edits, game_id, kinds)
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("{"):
                try:
                    value = json.loads(text)
                except ValueError as exc:
                    raise ContentEditError(f"{where}: not valid JSON ({exc.msg} at character {exc.pos})") from None
            else:
                return cls.from_tokens([t for t in text.split("+")], game_id, kinds, where)
        if not isinstance(value, Mapping):
            raise ContentEditError(f"{where} must be an object with 'remove', 'add' and/or 'replace', got {type(value).__name__}")
        extra = sorted(set(value) - set(SECTIONS))
        if extra:
            raise ContentEditError(f"{where}: unknown section {extra[0]!r} (sections: {', '.join(SECTIONS)})")
        edits: list[Edit] = []
        remove = value.get("remove", [])
        if not isinstance(remove, list) or not all(isinstance(r, str) for r in remove):
            raise ContentEditError(f"{where}: 'remove' must be a list of \"KIND:NAME\" strings")
        for ref in remove:
            edits.append(Edit("remove", *_ref(ref, where)))
        for section in ("add", "replace"):
            part = value.get(section, {})
            if not isinstance(part, Mapping) or not all(isinstance(k, str) for k in part):
                raise ContentEditError(f"{where}: {section!r} must be an object keyed by \"KIND:NAME\"")
            for ref, spec in part.items():
                kind, name = _ref(ref, where)
                here = f"{where}: {section} {ref!r}"
                if isinstance(spec, Mapping):
                    fields = _plain_fields(spec, here)
                    if section == "add" and "copies" in fields:
                        _copies(fields["copies"], here)
                    edits.append(Edit(section, kind, name, fields=fields))
                elif section == "add":
                    edits.append(Edit("add", kind, name, copies=_copies(spec, here)))
                elif isinstance(spec, str) and spec.strip():
                    tkind, _, tname = spec.strip().rpartition(":")
                    if tkind and tkind != kind:
                        raise ContentEditError(f"{here}: an entry is replaced by one of the same kind, not {spec!r}")
                    edits.append(Edit("replace", kind, name, target=tname.strip()))
                else:
                    raise ContentEditError(f"{here}: give the fields to change (an object) or the name of the entry that replaces it")
        return cls(edits, game_id, kinds)

    @classmethod
    def from_tokens(cls, tokens: Iterable[str], game_id: str, kinds: Mapping[str, str], where: str = "variant") -> "ContentEdits":
        """Edits from short-form tokens (``without:item:gloves``, ``with:item:shield*2``, ``replace:token:death=speed``)."""
        edits = []
        for raw in tokens:
            tok = raw.strip()
            op, sep, rest = tok.partition(":")
            if not sep or op not in ("without", "with", "replace"):
                raise ContentEditError(f"{where}: {tok!r} is not a content edit ({SHORT_FORMS})")
            if op == "without":
                edits.append(Edit("remove", *_ref(rest, where, tok)))
            elif op == "with":
                ref, star, count = rest.rpartition("*") if "*" in rest else (rest, "", "")
                n = 1
                if star:
                    if not count.strip().isdigit():
                        raise ContentEditError(f"{where}: {tok!r}: the number after '*' must be a whole number")
                    n = _copies(int(count), f"{where}: {tok!r}")
                edits.append(Edit("add", *_ref(ref, where, tok), copies=n))
            else:
                ref, eq, target = rest.partition("=")
                if not eq or not target.strip():
                    raise ContentEditError(f"{where}: {tok!r} needs the form replace:KIND:OLD=NEW")
                edits.append(Edit("replace", *_ref(ref, where, tok), target=target.strip()))
        return cls(edits, game_id, kinds)

    def merged(self, other: "ContentEdits") -> "ContentEdits":
        """These edits then ``other``'s (an entry edited by both is refused)."""
        if not other.edits:
            return self
        if not self.edits:
            return other
        return ContentEdits([*self.edits, *other.edits], self.game_id or other.game_id, self.kinds or other.kinds)

    def __bool__(self) -> bool:
        return bool(self.edits)

    def __len__(self) -> int:
        return len(self.edits)

    def of(self, kind: str) -> list[Edit]:
        """The edits of one content kind, in order."""
        return [e for e in self.edits if e.kind == kind]

    def to_json(self) -> dict[str, Any]:
        """The JSON form (what the configuration records); empty sections are left out."""
        doc: dict[str, Any] = {"remove": [], "add": {}, "replace": {}}
        for e in self.edits:
            ref = f"{e.kind}:{e.name}"
            if e.op == "remove":
                doc["remove"].append(ref)
            elif e.op == "add":
                doc["add"][ref] = dict(e.fields) if e.fields is not None else e.copies
            else:
                doc["replace"][ref] = dict(e.fields) if e.fields is not None else f"{e.kind}:{e.target}"
        return {k: v for k, v in doc.items() if v}

    def short(self) -> str:
        """A label: the short form where each edit has one (``without:item:gloves+...``)."""
        return "+".join(e.label() for e in self.edits)

    # -- applying ------------------------------------------------------------
    def _fail(self, e: Edit, problem: str) -> ContentEditError:
        return ContentEditError(f"{self.game_id}: {e.label()!r}: {problem}")

    def resolve(self, e: Edit, name: str, names: Iterable[str]) -> str:
        """The identifier among ``names`` that ``name`` names (exactly, else ignoring case, else punctuation)."""
        known = list(dict.fromkeys(names))
        if name in known:
            return name
        for test in (str.casefold, slug):
            hits = [n for n in known if test(n) == test(name)]
            if len(hits) == 1:
                return hits[0]
        close = difflib.get_close_matches(name, known, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        shown = ", ".join(known[:20]) + (f", ... ({len(known)} in all)" if len(known) > 20 else "")
        raise ContentEditError(f"{self.game_id} has no {e.kind} {name!r}{hint} (known: {shown or 'none'})")

    def apply_entries(
        self,
        kind: str,
        entries: list[Any],
        *,
        key: str,
        count: str | None = None,
        count_default: int = 1,
        name_of: Any = None,
    ) -> list[Any]:
        """Apply ``kind``'s edits to a data file's list of entry objects; returns the edited copy.

        ``key`` is the field holding an entry's identifier (``name_of(entry)``
        computes it instead, for entries without one); ``count`` is the field
        holding its number of copies (absent: ``count_default``), or ``None``
        when each entry is one copy (then a removed entry is dropped).  The
        caller validates the result as it validates its shipped file.
        """
        edits = self.of(kind)
        if not edits:
            return entries
        out = [dict(x) if isinstance(x, dict) else x for x in entries]

        def ident(x: Any) -> str:
            if name_of is not None:
                return name_of(x)
            return x.get(key) if isinstance(x, dict) and isinstance(x.get(key), str) else ""

        def n_of(x: dict) -> int:
            v = x.get(count, count_default)  # type: ignore[arg-type]
            return v if isinstance(v, int) and not isinstance(v, bool) else 0

        for e in edits:
            names = [ident(x) for x in out]
            if e.op == "add" and e.fields is not None:
                if any(e.name.casefold() == n.casefold() for n in names if n):
                    raise self._fail(e, f"{e.kind} {e.name!r} exists; add copies of it (a number) or replace its fields")
                new = {key: e.name, **e.fields} if name_of is None else dict(e.fields)
                if name_of is not None and name_of(new) != e.name:
                    raise self._fail(e, f"a new {e.kind}'s fields make it {name_of(new)!r}, not {e.name!r}")
                if count is None:
                    if new.pop("copies", 1) != 1:
                        raise self._fail(e, f"{self.game_id} holds one copy of each {e.kind}")
                elif count != "copies" and "copies" in new:
                    new[count] = new.pop("copies")
                elif count not in new:
                    new[count] = 1
                out.append(new)
                e.applied = True
                continue
            e.name = self.resolve(e, e.name, [n for n in names if n])
            idx = [i for i, n in enumerate(names) if n == e.name]
            if e.op == "remove":
                if count is None:
                    out = [x for i, x in enumerate(out) if i not in idx]
                    e.hits += len(idx)
                else:
                    for i in idx:
                        e.hits += n_of(out[i])
                        out[i][count] = 0
            elif e.op == "add":
                if count is None:
                    raise self._fail(e, f"{self.game_id} holds one copy of each {e.kind}; add a new {e.kind} with its fields instead")
                out[idx[0]][count] = n_of(out[idx[0]]) + e.copies
            elif e.fields is not None:
                if key in e.fields and e.fields[key] != e.name:
                    raise self._fail(e, f"a replacement keeps the {e.kind}'s {key!r}; remove it and add a new one instead")
                for i in idx:
                    out[i].update(e.fields)
            else:
                if count is None:
                    raise self._fail(e, f"{self.game_id} holds one copy of each {e.kind}; remove it, or replace its fields")
                e.target = self.resolve(e, e.target or "", [n for n in names if n])
                if e.target == e.name:
                    raise self._fail(e, f"an entry cannot replace itself")
                moved = sum(n_of(out[i]) for i in idx)
                for i in idx:
                    out[i][count] = 0
                t = names.index(e.target)
                out[t][count] = n_of(out[t]) + moved
                e.hits += moved
            e.applied = True
        return out

    def apply_definitions(self, kind: str, entries: list[Any], *, key: str) -> list[Any]:
        """Apply ``kind``'s new entries (``add`` with fields) and field changes (``replace`` with fields)
        to a table of definitions; copies are applied separately (:meth:`apply_pool`)."""
        edits = [e for e in self.of(kind) if e.fields is not None]
        if not edits:
            return entries
        out = [dict(x) if isinstance(x, dict) else x for x in entries]
        for e in edits:
            names = [x.get(key) for x in out if isinstance(x, dict) and isinstance(x.get(key), str)]
            fields = {k: v for k, v in e.fields.items() if k != "copies"}  # type: ignore[union-attr]
            if e.op == "add":
                if any(e.name.casefold() == n.casefold() for n in names):
                    raise self._fail(e, f"{e.kind} {e.name!r} exists; add copies of it (a number) or replace its fields")
                out.append({key: e.name, **fields})
            else:
                e.name = self.resolve(e, e.name, names)
                if key in fields and fields[key] != e.name:
                    raise self._fail(e, f"a replacement keeps the {e.kind}'s {key!r}; remove it and add a new one instead")
                for x in out:
                    if isinstance(x, dict) and x.get(key) == e.name:
                        x.update(fields)
            e.applied = True
        return out

    def apply_pool(self, kind: str, pool: Iterable[str], known: Iterable[str], *, definitions: bool = True) -> list[str]:
        """Apply ``kind``'s copy edits to a list of copies (a deck, a bag); returns the edited list.

        ``known`` are the names an edit may use.  ``definitions=False`` says
        the kind's entries are fixed by the rules (no new entries or fields).
        """
        out = list(pool)
        edits = self.of(kind)
        if not edits:
            return out
        known = list(known)
        for e in edits:
            if e.fields is not None and not definitions:
                raise self._fail(e, f"{self.game_id}'s {e.kind}s are defined by its rules, not data: "
                                    f"edit their copies (a number) or replace one by another")
            if e.op == "replace" and e.fields is not None:
                continue  # a field change, applied to the definitions
            e.name = self.resolve(e, e.name, known)
            if e.op == "remove":
                e.hits += sum(1 for c in out if c == e.name)
                out = [c for c in out if c != e.name]
            elif e.op == "add":
                out += [e.name] * (e.fields.get("copies", 1) if e.fields is not None else e.copies)
            else:
                e.target = self.resolve(e, e.target or "", known)
                if e.target == e.name:
                    raise self._fail(e, "an entry cannot replace itself")
                e.hits += sum(1 for c in out if c == e.name)
                out = [e.target if c == e.name else c for c in out]
            e.applied = True
        return out

    def check_applied(self) -> None:
        """Refuse an edit the configuration did not use, or a removal or replacement that changed nothing."""
        for e in self.edits:
            if not e.applied:
                raise self._fail(e, f"this configuration plays without {e.kind}s")
            if e.op == "remove" and e.hits == 0 or e.op == "replace" and e.target is not None and e.hits == 0:
                raise self._fail(e, f"changes nothing: no copy of {e.kind} {e.name!r} is in play")


def _ref(text: Any, where: str, token: str | None = None) -> tuple[str, str]:
    kind, sep, name = str(text).partition(":")
    kind, name = kind.strip(), name.strip()
    if not sep or not kind or not name:
        raise ContentEditError(f"{where}: {token or text!r} must name content as KIND:NAME (e.g. item:gloves)")
    return kind, name


def _plain_fields(spec: Mapping[str, Any], where: str) -> dict[str, Any]:
    try:
        doc = json.loads(json.dumps(dict(spec)))
    except (TypeError, ValueError):
        raise ContentEditError(f"{where}: the fields must be plain JSON values") from None
    if not doc:
        raise ContentEditError(f"{where}: give at least one field")
    return doc
