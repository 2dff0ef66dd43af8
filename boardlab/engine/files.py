"""Reading the files a user hands boardlab: one bounded reader, so every bad file gets the same one-line error.

Every file a user can give boardlab (a content or variant file, a saved game,
a state, a policy or evaluation file, a playtest or compare manifest, an
arena log) is read through :func:`read_text` and parsed through
:func:`parse_json`:

* only a regular file is read (a directory, FIFO or device is refused without
  being opened, so a FIFO cannot block the reader), and at most
  :data:`MAX_FILE_BYTES` of it;
* it must be UTF-8 (a byte-order mark is allowed);
* its JSON may not nest deeper than :data:`MAX_JSON_DEPTH`, nor hold an
  integer longer than :data:`MAX_INT_DIGITS` digits, nor ``NaN``/``Infinity``
  (which strict JSON does not have).

Each failure raises the caller's error class (by default
:class:`~boardlab.engine.errors.ContentError`) with one line naming the file.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from .errors import ContentError

MAX_FILE_BYTES = 64 * 1024 * 1024
"""The largest file boardlab reads (64 MiB: a long recorded game's state is well under 10 MiB)."""

MAX_JSON_DEPTH = 100
"""The deepest JSON nesting boardlab accepts (its own documents nest fewer than 20 levels)."""

MAX_INT_DIGITS = 40
"""The longest JSON integer boardlab accepts, in digits (a 64-bit RNG state has 20)."""


def read_text(path: str | Path, what: str = "data file", *, error: type[Exception] = ContentError,
              limit: int = MAX_FILE_BYTES) -> str:
    """The text of the regular file ``path``, read as UTF-8 and at most ``limit`` bytes.

    Raises ``error`` (one line naming ``what`` and the path) when the file is
    missing, unreadable, not a regular file, too large or not UTF-8.
    """
    p = Path(path)
    try:
        st = os.stat(p)
    except OSError as exc:
        raise error(f"cannot read {what} {p}: {exc.strerror or exc}") from None
    except ValueError:  # an embedded NUL byte in the path
        raise error(f"cannot read {what} {p!r}: the path is not valid") from None
    if stat.S_ISDIR(st.st_mode):
        raise error(f"cannot read {what} {p}: it is a directory, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise error(f"cannot read {what} {p}: it is not a regular file")
    if st.st_size > limit:
        raise error(f"{what} {p} is too large ({st.st_size:,} bytes; at most {limit:,})")
    try:
        with open(p, "rb") as f:
            data = f.read(limit + 1)
    except OSError as exc:
        raise error(f"cannot read {what} {p}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise error(f"{what} {p} is too large (more than {limit:,} bytes)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(f"{what} {p} is not UTF-8 text (byte {exc.start} is {data[exc.start]:#04x})") from None


class _Refused(ValueError):
    pass


def _parse_int(text: str) -> int:
    if len(text) - (text[0] == "-") > MAX_INT_DIGITS:
        raise _Refused(f"an integer of {len(text) - (text[0] == '-'):,} digits (at most {MAX_INT_DIGITS})")
    return int(text)


def _parse_constant(name: str) -> Any:
    raise _Refused(f"{name} (JSON has no such number)")


def _depth_error(doc: Any, limit: int) -> str | None:
    """``None`` if ``doc`` nests at most ``limit`` containers deep, else the message."""
    stack = [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > limit:
            return f"it nests more than {limit} levels deep"
        if type(value) is list:
            stack.extend((v, depth + 1) for v in value if type(v) in (list, dict))
        elif type(value) is dict:
            stack.extend((v, depth + 1) for v in value.values() if type(v) in (list, dict))
    return None


def parse_json(text: str, what: str = "data file", *, error: type[Exception] = ContentError,
               depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse ``text`` as strict JSON within the limits above, raising ``error`` naming ``what``."""
    try:
        doc = json.loads(text, parse_int=_parse_int, parse_constant=_parse_constant)
    except json.JSONDecodeError as exc:
        raise error(f"{what} is not valid JSON: {exc.msg} at line {exc.lineno}") from None
    except _Refused as exc:
        raise error(f"{what} is refused: it holds {exc}") from None
    except RecursionError:
        raise error(f"{what} is refused: it nests too deeply") from None
    except (ValueError, TypeError) as exc:  # pragma: no cover - json's other refusals, if any
        raise error(f"{what} is not valid JSON: {exc}") from None
    message = _depth_error(doc, depth)
    if message is not None:
        raise error(f"{what} is refused: {message}")
    return doc


def load_json_file(path: str | Path, what: str = "data file", *, error: type[Exception] = ContentError,
                   limit: int = MAX_FILE_BYTES) -> Any:
    """Read and parse the JSON file ``path`` (:func:`read_text`, then :func:`parse_json`).

    Raises ``error`` (by default :class:`~boardlab.engine.errors.ContentError`)
    with one line naming the file on any failure.
    """
    text = read_text(path, what, error=error, limit=limit)
    return parse_json(text, f"{what} {Path(path)}", error=error)
