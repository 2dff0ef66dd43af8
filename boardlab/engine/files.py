"""Reading data files: one helper, so every malformed file gets the same kind of error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import ContentError


def load_json_file(path: str | Path, what: str = "data file") -> Any:
    """Read a JSON data file, raising :class:`~boardlab.engine.errors.ContentError` with the path on failure."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ContentError(f"cannot read {what} {p}: {exc.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ContentError(f"{what} {p} is not valid JSON: {exc.msg} at line {exc.lineno}") from None
