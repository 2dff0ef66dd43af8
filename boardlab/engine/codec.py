"""Exact JSON encoding and fast copying of plain game data.

Game states keep their data in plain Python values: ``None``, ``bool``,
``int``, ``float``, ``str``, ``list``, ``tuple``, ``dict``, ``set`` and
*records* (``__slots__`` classes registered with :func:`record`).  This module
turns such values into JSON-safe structures and back, exactly: a tuple comes
back as a tuple, an int-keyed dict as an int-keyed dict.

Encoding rules (JSON objects use reserved ``"$"`` keys for non-JSON types):

* list -> JSON array; tuple -> ``{"$t": [...]}``
* dict with only ``str`` keys (none starting with ``$``) -> JSON object;
  any other dict -> ``{"$d": [[k, v], ...]}``
* set / frozenset -> ``{"$s": [...]}`` in sorted order
* record -> ``{"$r": "Name", "v": [field values...]}``

Tuples are treated as immutable values: :func:`copy_value` shares them, so
put only immutable things inside tuples.

>>> doc = encode({"pos": (1, 2), "seen": {3, 1}, 5: [None]})
>>> decode(doc) == {"pos": (1, 2), "seen": {1, 3}, 5: [None]}
True
"""

from __future__ import annotations

from typing import Any, TypeVar

from .errors import SaveFileError

_RECORDS: dict[str, type] = {}
_SCALARS = (type(None), bool, int, float, str)

C = TypeVar("C", bound=type)


def record(cls: C | None = None, *, aliases: tuple[str, ...] = ()) -> Any:
    """Class decorator: register a ``__slots__`` class for :func:`encode` and :func:`copy_value`.

    The class must define ``__slots__`` (all fields) and accept being built
    with ``cls.__new__(cls)`` followed by setting every slot.  Its registered
    name is its ``__qualname__`` prefixed by the module, so it must be unique.
    A class that moved to another module lists its old names in ``aliases``
    (``@record(aliases=("pkg.old_module.Name",))``), so documents saved
    before the move still load; new documents carry the new name.
    """
    if cls is None:
        return lambda klass: record(klass, aliases=aliases)
    slots: list[str] = []
    for klass in reversed(cls.__mro__):
        for name in getattr(klass, "__slots__", ()):
            if name not in slots:
                slots.append(name)
    cls._record_slots = tuple(slots)  # type: ignore[attr-defined]
    key = f"{cls.__module__}.{cls.__qualname__}"
    cls._record_name = key  # type: ignore[attr-defined]
    _RECORDS[key] = cls
    for old in aliases:
        _RECORDS[old] = cls
    return cls


def encode(value: Any) -> Any:
    """Encode a plain value into a JSON-safe structure (see module docs)."""
    t = type(value)
    if t in _SCALARS:
        return value
    if t is list:
        return [encode(v) for v in value]
    if t is tuple:
        return {"$t": [encode(v) for v in value]}
    if t is dict:
        if all(type(k) is str and not k.startswith("$") for k in value):
            return {k: encode(v) for k, v in value.items()}
        return {"$d": [[encode(k), encode(v)] for k, v in value.items()]}
    if t is set or t is frozenset:
        return {"$s": [encode(v) for v in sorted(value)]}
    slots = getattr(t, "_record_slots", None)
    if slots is not None:
        return {"$r": t._record_name, "v": [encode(getattr(value, s)) for s in slots]}
    raise TypeError(f"cannot encode value of type {t.__name__}: {value!r}")


def decode(doc: Any) -> Any:
    """Inverse of :func:`encode`.  Raises :class:`SaveFileError` on malformed input."""
    t = type(doc)
    if t in _SCALARS:
        return doc
    if t is list:
        return [decode(v) for v in doc]
    if t is dict:
        if "$t" in doc:
            return tuple(decode(v) for v in _expect_list(doc["$t"]))
        if "$d" in doc:
            out = {}
            for pair in _expect_list(doc["$d"]):
                if type(pair) is not list or len(pair) != 2:
                    raise SaveFileError(f"malformed dict entry {pair!r}")
                out[_hashable(decode(pair[0]))] = decode(pair[1])
            return out
        if "$s" in doc:
            return {_hashable(decode(v)) for v in _expect_list(doc["$s"])}
        if "$r" in doc:
            cls = _RECORDS.get(doc["$r"])
            if cls is None:
                raise SaveFileError(f"unknown record type {doc['$r']!r}")
            values = _expect_list(doc.get("v"))
            slots = cls._record_slots  # type: ignore[attr-defined]
            if len(values) != len(slots):
                raise SaveFileError(f"record {doc['$r']} needs {len(slots)} fields, got {len(values)}")
            obj = cls.__new__(cls)
            for s, v in zip(slots, values):
                setattr(obj, s, decode(v))
            return obj
        return {k: decode(v) for k, v in doc.items()}
    raise SaveFileError(f"cannot decode value {doc!r}")


def _expect_list(v: Any) -> list:
    if type(v) is not list:
        raise SaveFileError(f"expected a JSON array, got {v!r}")
    return v


def _hashable(v: Any) -> Any:
    try:
        hash(v)
    except TypeError:
        raise SaveFileError(f"unhashable key {v!r}") from None
    return v


def copy_value(value: Any) -> Any:
    """Copy a plain value deeply enough that mutating the copy never affects the original.

    Scalars and tuples are shared (they are immutable); lists, dicts, sets and
    records are copied recursively.  Much faster than :func:`copy.deepcopy`.
    """
    t = type(value)
    if t in _SCALARS or t is tuple or t is frozenset:
        return value
    if t is list:
        return [v if type(v) in _SCALARS else copy_value(v) for v in value]
    if t is dict:
        return {k: v if type(v) in _SCALARS else copy_value(v) for k, v in value.items()}
    if t is set:
        return set(value)
    slots = getattr(t, "_record_slots", None)
    if slots is not None:
        obj = t.__new__(t)
        for s in slots:
            setattr(obj, s, copy_value(getattr(value, s)))
        return obj
    raise TypeError(f"cannot copy value of type {t.__name__}")


