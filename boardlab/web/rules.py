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


#: Sections (by their ``## `` heading) written for developers, not players: drawn under a fold.
DEVELOPER_SECTIONS = ("interpretation ledger", "designed content", "balance", "agents", "benchmarks",
                      "simulated", "implementation", "tests", "concordance")
_PATH = re.compile(r"`/?((?:[\w.-]+/)+)([\w.-]*)((?:::[\w\[\]-]+)?)`")
_LINKED_PATH = re.compile(r"\[([^\]]+)\]\((?:\.\./|\./)*(?:boardlab|tests|docs|scripts)/[^)]*\)")


def split_for_players(text: str) -> tuple[str, str]:
    """A rules document split into the part for players (the overview, the rules, cards, variants)
    and the developers' notes (interpretation ledger, designed content, balance...), both without
    source file paths: ```tests/x/test_y.py::test_z``` becomes ```test_z``` and
    ```boardlab/games/g/castle.txt``` becomes ```castle.txt```."""
    players: list[str] = []
    devs: list[str] = []
    target = players
    fence = False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        if not fence and line.startswith("## "):
            heading = line[3:].strip().lower()
            target = devs if heading.startswith(DEVELOPER_SECTIONS) else players
        target.append(line)
    # an overview paragraph about the code ("Code: `boardlab/games/...`") goes with the notes
    head, rest = _intro(players)
    code = [p for p in head if "Code:" in p or "`boardlab/" in p or "`tests/" in p]
    if code:
        players = [p for p in head if p not in code] + rest
        devs = ["## About the code", "", *[x for p in code for x in (p, "")], *devs]
    return _no_paths("\n".join(players)), _no_paths("\n".join(devs))


def _short_path(m: re.Match) -> str:
    dirs, name, test = m.group(1), m.group(2), m.group(3)
    return f"`{test[2:] or name or dirs.rstrip('/').rsplit('/', 1)[-1] + '/'}`"


def _intro(lines: list[str]) -> tuple[list[str], list[str]]:
    """The paragraphs before the first ``## `` heading (each joined to one string) and the rest."""
    cut = next((i for i, line in enumerate(lines) if line.startswith("## ")), len(lines))
    paras: list[str] = []
    cur: list[str] = []
    for line in lines[:cut]:
        if line.strip():
            cur.append(line)
        elif cur:
            paras.append("\n".join(cur))
            cur = []
    if cur:
        paras.append("\n".join(cur))
    return paras, lines[cut:]


def _no_paths(md: str) -> str:
    md = _PATH.sub(_short_path, md)
    md = re.sub(r"`(?:[\w.-]+\.py)?::(\w[\w\[\]-]*)`", r"`\1`", md)  # `::test_x`, `file.py::test_x`
    md = _LINKED_PATH.sub(r"\1", md)
    # a bare path in prose ("see docs/agents.md") keeps its file name
    return re.sub(r"(?<![\w/`(\[])(?:boardlab|tests|docs|scripts)/(?:[\w.-]+/)*([\w.-]+\.\w+)", r"\1", md)


#: Rendered rules by (game class, file, modification time): markdown was rendered on every request,
#: 50-160 ms each on the event loop (issue 45).  A few entries per game at most.
_HTML_CACHE: dict[Any, str] = {}


def _stamp(cls: Any) -> Any:
    p = rules_path(cls)
    try:
        return (cls, str(p), p.stat().st_mtime_ns if p is not None else None)
    except OSError:
        return (cls, str(p), None)


def rules_html(cls: Any) -> str:
    """The rules document as an HTML fragment (raw HTML in the source is escaped): the rules for
    players first, the developers' notes folded in a ``<details class="dev-notes">`` at the end.

    Rendered once per version of the file (:data:`_HTML_CACHE`); :func:`cached_html` says
    whether a call would render."""
    key = _stamp(cls)
    out = _HTML_CACHE.get(key)
    if out is None:
        out = _render_html(cls)
        if len(_HTML_CACHE) > 256:
            _HTML_CACHE.clear()
        _HTML_CACHE[key] = out
    return out


def cached_html(cls: Any) -> str | None:
    """The rendered rules if they are cached for the file as it is now, else None."""
    return _HTML_CACHE.get(_stamp(cls))


def _render_html(cls: Any) -> str:
    text = rules_text(cls)
    if text is None:
        body = f"<h1>{html.escape(cls.name)}</h1><p>{html.escape(cls.description or '')}</p>"
        return body + "<p><em>This game has no rules document yet.</em></p>"
    players, devs = split_for_players(re.sub(r"<!--.*?-->", "", text, flags=re.S))  # generated-block markers
    # the developers' preface (source file, game id, "seat 0 = white", code paths) opened the drawer
    # (issue 44): it joins the developers' notes
    paras = re.split(r"\n\s*\n", players)
    preface = [p for p in paras if re.match(r"\s*(Source:|Game id)", p)]
    if preface:
        players = "\n\n".join(p for p in paras if p not in preface)
        devs = "\n\n".join(preface) + "\n\n" + devs
    out = _md().render(players)
    if devs.strip():
        out += ("<details class=\"dev-notes\"><summary>Notes for developers: how the rules were read "
                "from the design document, designed content, balance</summary>" + _md().render(devs) + "</details>")
    return out


def quick_start(cls: Any) -> str | None:
    """The ``## Quick start`` section of the rules document (markdown, heading left out), if any:
    the goal, what a turn is and how to win, in under 150 words (issue 32).  It sits in the players'
    part near the top, so the rules drawer shows it first; the game page shows it at a first game."""
    text = rules_text(cls)
    if not text:
        return None
    m = re.search(r"^## Quick start[ \t]*\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    return _no_paths(m.group(1).strip()) if m else None


def quick_start_html(cls: Any) -> str | None:
    md = quick_start(cls)
    return _md().render(md) if md else None
