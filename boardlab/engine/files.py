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
  (which strict JSON does not have), nor text that is not valid Unicode (a
  lone surrogate such as ``"\\ud800"``, which would crash whatever prints it).

Each failure raises the caller's error class (by default
:class:`~boardlab.engine.errors.ContentError`) with one line naming the file.

Every file boardlab *writes* goes through :func:`atomic_write` (text and JSON),
:func:`atomic_write_with` (a writer that wants a path, such as pyarrow's) or
:func:`append_line` (the arena's log, a line at a time): written beside the
target, fsynced and renamed over it, so a full disk, an interrupt or a kill
leaves the old file intact.  Commands check each output with
:func:`check_output` (or :func:`check_output_folder`) before their work
starts, so a FIFO, device, folder, unwritable file or a name that is not UTF-8
is refused in one line instead of blocking or failing at the end.
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


def _unicode_error(text: str) -> str | None:
    """``None`` if ``text`` is valid Unicode, else the message naming its first lone surrogate."""
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        bad = text[exc.start]
        return f"it holds text that is not valid Unicode (a lone surrogate \\u{ord(bad):04x} at character {exc.start})"
    return None


def _depth_error(doc: Any, limit: int) -> str | None:
    """``None`` if ``doc`` nests at most ``limit`` containers deep and all its text is valid Unicode,
    else the message (JSON's ``"\\ud800"`` escape gives a lone surrogate, which no file, terminal or
    page can show: printing it would crash)."""
    stack = [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > limit:
            return f"it nests more than {limit} levels deep"
        t = type(value)
        if t is str:
            message = _unicode_error(value)
            if message is not None:
                return message
        elif t is list:
            stack.extend((v, depth + 1) for v in value if type(v) in (list, dict, str))
        elif t is dict:
            for k in value:
                message = _unicode_error(k)
                if message is not None:
                    return message
            stack.extend((v, depth + 1) for v in value.values() if type(v) in (list, dict, str))
    if type(doc) is str:
        return _unicode_error(doc)
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


# -- writing ----------------------------------------------------------------------------------------------------------
#
# Every file boardlab writes goes through :func:`atomic_write` (or :func:`append_line` for the arena's log): a
# temporary file beside the target, written, flushed and fsynced, then renamed over the target and the folder
# fsynced.  A failure (a full disk, an interrupt, a kill) leaves the old file as it was and no temporary file
# behind (a kill can leave one, named ``.<name>.<pid>.tmp``; it is never read).  Outputs are checked with
# :func:`check_output` before the work that makes them starts.


class OutputError(ContentError):
    """A file cannot be written: the target is not a writable regular file, or the write failed."""


def _why_not_writable(p: Path, what: str) -> str | None:
    """Why ``p`` cannot be an output file, in one line; ``None`` when it can."""
    try:
        text = os.fsdecode(os.fsencode(p))
        text.encode("utf-8")
    except (UnicodeError, ValueError):
        return f"cannot write {what} {p!r}: the name is not valid UTF-8"
    if "\x00" in str(p):
        return f"cannot write {what} {p!r}: the path is not valid"
    try:
        st = os.stat(p)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        return f"cannot write {what} {p}: {exc.strerror or exc}"
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            return f"cannot write {what} {p}: it is a directory, not a file"
        if stat.S_ISFIFO(st.st_mode):
            return f"cannot write {what} {p}: it is a FIFO (named pipe), not a file"
        if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode):
            return f"cannot write {what} {p}: it is a device, not a file"
        if not stat.S_ISREG(st.st_mode):
            return f"cannot write {what} {p}: it is not a regular file"
        if not os.access(p, os.W_OK):
            return f"cannot write {what} {p}: permission denied"
    parent = p.parent if str(p.parent) else Path(".")
    try:
        pst = os.stat(parent)
    except FileNotFoundError:
        return None if _creatable(parent) else f"cannot write {what} {p}: its folder {parent} cannot be made"
    except OSError as exc:
        return f"cannot write {what} {p}: {exc.strerror or exc}"
    if not stat.S_ISDIR(pst.st_mode):
        return f"cannot write {what} {p}: {parent} is not a folder"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"cannot write {what} {p}: its folder {parent} is not writable"
    return None


def _creatable(folder: Path) -> bool:
    """Can ``folder`` (missing) be made: its nearest existing ancestor is a writable folder."""
    for up in folder.parents:
        try:
            st = os.stat(up)
        except FileNotFoundError:
            continue
        except OSError:
            return False
        return stat.S_ISDIR(st.st_mode) and os.access(up, os.W_OK | os.X_OK)
    return False


def check_output(path: str | Path, what: str = "output file", *, error: type[Exception] = OutputError) -> Path:
    """Refuse ``path`` as an output before any work: a FIFO, device, directory or unwritable target.

    Also refuses a name that is not UTF-8 (a byte that cannot be decoded, which
    Python keeps as a lone surrogate).  Returns ``path`` as a :class:`Path`;
    raises ``error`` with one line otherwise.  A missing file is fine when its
    folder exists and is writable, or can be made.
    """
    p = Path(path)
    message = _why_not_writable(p, what)
    if message is not None:
        raise error(message)
    return p


def check_output_folder(path: str | Path, what: str = "output folder", *, error: type[Exception] = OutputError) -> Path:
    """Refuse ``path`` as an output folder before any work: not a folder, not writable, or a non-UTF-8 name."""
    p = Path(path)
    try:
        os.fsdecode(os.fsencode(p)).encode("utf-8")
    except (UnicodeError, ValueError):
        raise error(f"cannot write {what} {p!r}: the name is not valid UTF-8") from None
    if "\x00" in str(p):
        raise error(f"cannot write {what} {p!r}: the path is not valid")
    try:
        st = os.stat(p)
    except FileNotFoundError:
        if not _creatable(p):
            raise error(f"cannot write {what} {p}: it cannot be made here") from None
        return p
    except OSError as exc:
        raise error(f"cannot write {what} {p}: {exc.strerror or exc}") from None
    if not stat.S_ISDIR(st.st_mode):
        raise error(f"cannot write {what} {p}: it is not a folder")
    if not os.access(p, os.W_OK | os.X_OK):
        raise error(f"cannot write {what} {p}: the folder is not writable")
    return p


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:  # pragma: no cover - a platform without folder handles
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - some file systems refuse to sync a folder
        pass
    finally:
        os.close(fd)


def atomic_write(path: str | Path, data: str | bytes, what: str = "file", *,
                 error: type[Exception] = OutputError) -> Path:
    """Write ``data`` (text is written as UTF-8) to ``path`` so that it is either all there or not changed.

    The data goes to a temporary file beside ``path`` (same folder, so the
    rename is atomic), which is flushed and fsynced and then renamed over
    ``path``; the folder is fsynced last, so the new name survives a crash.
    On any failure (a full disk, a permission, an interrupt) the temporary
    file is removed, the old ``path`` is left exactly as it was, and ``error``
    is raised with one line naming ``what``, the path and the cause, ending
    "the old file is unchanged" when there was one.  Missing folders are made.
    """
    p = Path(path)
    message = _why_not_writable(p, what)
    if message is not None:
        raise error(message)
    payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    existed = p.exists()
    tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            view = memoryview(payload)
            while view:
                n = os.write(fd, view)
                view = view[n:]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, p)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if not isinstance(exc, OSError):
            raise  # an interrupt: the old file is unchanged and the caller stops
        kept = "; the old file is unchanged" if existed else ""
        raise error(f"cannot write {what} {p}: {exc.strerror or exc}{kept}") from None
    _fsync_folder(p.parent)
    return p


def atomic_write_with(path: str | Path, write: Any, what: str = "file", *,
                      error: type[Exception] = OutputError) -> Path:
    """Like :func:`atomic_write`, for a writer that wants a path: ``write(tmp_path)`` makes the temporary file.

    Used for Parquet parts (pyarrow writes to a path).  The temporary file is
    fsynced, renamed over ``path`` and the folder fsynced; on failure it is
    removed and the old ``path`` left as it was.
    """
    p = Path(path)
    message = _why_not_writable(p, what)
    if message is not None:
        raise error(message)
    existed = p.exists()
    tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        write(tmp)
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, p)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if not isinstance(exc, OSError):
            raise
        kept = "; the old file is unchanged" if existed else ""
        raise error(f"cannot write {what} {p}: {exc.strerror or exc}{kept}") from None
    _fsync_folder(p.parent)
    return p


def append_line(path: str | Path, line: str, what: str = "log", *, error: type[Exception] = OutputError) -> None:
    """Append one whole line to ``path`` (see :func:`append_lines`)."""
    append_lines(path, [line], what, error=error)


def append_lines(path: str | Path, lines: Any, what: str = "log", *, error: type[Exception] = OutputError) -> None:
    """Append whole lines to ``path`` (created if missing), so a reader never sees half of one.

    The lines (each gets its newline) are written with one ``write`` on a
    descriptor opened with ``O_APPEND`` and then fsynced: a kill leaves the file
    ending at the previous line or after these.  Should a write be cut short (a
    full disk), the part is cut off again and ``error`` is raised with one line.
    A reader of such a log still ignores a last line without its newline.
    """
    p = Path(path)
    payload = "".join(line.rstrip("\n") + "\n" for line in lines).encode("utf-8")
    if not payload:
        return
    try:
        fd = os.open(p, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    except OSError as exc:
        raise error(f"cannot write {what} {p}: {exc.strerror or exc}") from None
    try:
        start = os.fstat(fd).st_size
        try:
            n = os.write(fd, payload)
            if n != len(payload):
                raise OSError(28, "No space left on device")
            os.fsync(fd)
        except OSError as exc:
            try:
                os.ftruncate(fd, start)
            except OSError:
                pass
            raise error(f"cannot write {what} {p}: {exc.strerror or exc}; its earlier lines are unchanged") from None
    finally:
        os.close(fd)
