"""Rules documents: find a game's ``docs/rules/<id>.md``, its summary paragraph, and HTML."""

from __future__ import annotations

import html
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

REPO_ROOT = Path(__file__).resolve().parents[2]


def rules_path(cls: Any) -> Path | None:
    """The rules document of a game class, if the file exists."""
    rel = getattr(cls, "rules_doc", "") or f"docs/rules/{cls.id}.md"
    for base in (REPO_ROOT, Path.cwd()):
        p = base / rel
        if p.is_file():
            return p
    return None


def rules_text(cls: Any) -> str | None:
    p = rules_path(cls)
    if p is None:
        return None
    try:
        return p.read_text(encoding="utf-8")
    except OSError:
        return None


def summary(cls: Any) -> str:
    """The first paragraph of the rules document, else ``Game.description``."""
    text = rules_text(cls)
    if text:
        para: list[str] = []
        for line in text.splitlines():
            s = line.strip()
            if not s:
                if para:
                    break
                continue
            if s.startswith(("#", "---", "|", "```")) and not para:
                continue
            if s.startswith("#"):
                break
            para.append(s)
        if para:
            return _plain(" ".join(para))
    return cls.description or ""


def _plain(md: str) -> str:
    """Markdown inline markup stripped to text."""
    out = md
    for ch in ("**", "__", "`"):
        out = out.replace(ch, "")
    out = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", out)
    return re.sub(r"(?<!\w)[*_]([^*_]+)[*_](?!\w)", r"\1", out)


@lru_cache(maxsize=1)
def _md() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def rules_html(cls: Any) -> str:
    """The rules document as an HTML fragment (raw HTML in the source is escaped)."""
    text = rules_text(cls)
    if text is None:
        body = f"<h1>{html.escape(cls.name)}</h1><p>{html.escape(cls.description or '')}</p>"
        return body + "<p><em>This game has no rules document yet.</em></p>"
    return _md().render(text)
