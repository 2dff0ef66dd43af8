"""A decision that fits on one terminal screen: the board, the prompt and the choices.

``boardlab play`` draws each decision with :func:`compact_frame` when it writes to a terminal: a
frame of at most ``height - 1`` lines (the last row is the input line) and ``width`` columns.
Everything else gives way to the board, the prompt and the choices:

* the board is drawn in full when that fits, else one line per row (no boundary lines; a wall
  between two rows underlines the cells above it, and an empty square where a legal action lands
  shows a ``·``);
* long choice lists are folded: the actions of one piece or card, or of one kind ("place a blank
  on ..."), become one line that names their squares, and the player types a square ("c4") to
  choose; what still does not fit is paged;
* the panels become one line each, the recent events are cut to the last few, and the legend
  lines go last, each only while rows are left.

Squares are named as the board's axes name them (``col_labels`` + ``row_labels``: "c4", "B3"), a
node by its label ("NT"); :class:`Squares` resolves a typed name to the legal actions that land
there.  Like :mod:`boardlab.render.terminal`, this knows nothing about any particular game.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.style import Style
from rich.text import Text

from boardlab.engine.scene import grid_cells

from .terminal import Scene, _item_text, _style, grid_text, render_node_map, render_track

#: Rows the choices may always claim, however tall the board.
MIN_CHOICE_ROWS = 3
#: Rows the choices leave for the seat's panel and the last events, if folding can make room.
SPARE_ROWS = 4
#: Most events shown above the prompt ("Since your last turn").
MAX_EVENTS = 4
#: Characters that separate square names in typed input ("b1 c3", "b1-c3", "b1>c3").
_SPLIT = re.compile(r"[\s,>]+|-(?=[a-z])", re.IGNORECASE)


# -- squares -----------------------------------------------------------------------------------
@dataclass
class Squares:
    """The names of a scene's squares and nodes, and the legal actions' clicks by name."""

    #: typed name (lower case) -> name as drawn ("c4", "B3", "NT")
    shown: dict[str, str] = field(default_factory=dict)
    #: click id -> typed name, for cells, nodes and the items standing on them
    of_click: dict[str, str] = field(default_factory=dict)
    #: per legal action: the named clicks of its first target (empty if it has none)
    clicks: list[list[str]] = field(default_factory=list)
    #: where each named square is on the grid boards: name -> (board id, x, y)
    where: dict[str, tuple[str, int, int]] = field(default_factory=dict)

    @classmethod
    def of(cls, scene: Scene, labels: Sequence[str]) -> "Squares":
        sq = cls()
        for board in scene.get("boards") or ():
            bid = str(board.get("id", ""))
            if board.get("kind") == "grid":
                for x, y, label in grid_cells(board):
                    name = label or f"{x},{y}"
                    sq.shown.setdefault(name.lower(), name)
                    sq.of_click[f"{bid}:{x},{y}"] = name.lower()
                    sq.where.setdefault(name.lower(), (bid, x, y))
                for it in board.get("items") or ():
                    if "x" in it and "y" in it and f"{bid}:{it['x']},{it['y']}" in sq.of_click:
                        sq.of_click[f"item:{it.get('id')}"] = sq.of_click[f"{bid}:{it['x']},{it['y']}"]
            elif board.get("kind") == "nodes":
                for n in board.get("nodes") or ():
                    nid = str(n.get("id"))
                    name = str(n.get("label") or nid)
                    if not name or any(ch.isspace() for ch in name):
                        name = nid
                    sq.shown.setdefault(name.lower(), name)
                    sq.of_click[f"{bid}:{nid}"] = name.lower()
                for it in board.get("items") or ():
                    if "node" in it and f"{bid}:{it['node']}" in sq.of_click:
                        sq.of_click[f"item:{it.get('id')}"] = sq.of_click[f"{bid}:{it['node']}"]
        first: dict[int, list[str]] = {}
        for t in scene.get("targets") or ():
            a = t.get("action")
            if isinstance(a, int) and 0 <= a < len(labels) and a not in first:
                first[a] = [str(c) for c in t.get("clicks") or ()]
        sq.clicks = [first.get(i, []) for i in range(len(labels))]
        # an action without a target is named by the squares its label mentions, if any
        for i, label in enumerate(labels):
            if not sq.clicks[i]:
                named = sq.in_label(label)
                sq.clicks[i] = [f"label:{n}" for n in named]
                for n in named:
                    sq.of_click[f"label:{n}"] = n
        return sq

    def in_label(self, label: str) -> list[str]:
        """The square names (lower case) that ``label`` mentions, in order."""
        return [w.lower() for w in re.findall(r"[A-Za-z0-9,]+", label) if w.lower() in self.shown]

    def names(self, action: int) -> list[str | None]:
        """The name of each click of ``action`` (None for a card or an unnamed click)."""
        return [self.of_click.get(c) for c in self.clicks[action]]

    def last(self, action: int) -> str | None:
        """The square where ``action`` lands, if it has one."""
        names = self.names(action)
        return names[-1] if names else None

    def parse(self, text: str) -> list[str] | None:
        """``text`` as square names ("c4", "b1 c3", "b1-c3"), or None if it is not only squares."""
        tokens = [t for t in _SPLIT.split(text.strip().lower()) if t]
        if tokens and all(t in self.shown for t in tokens):
            return tokens
        return None

    def match(self, tokens: Sequence[str], among: Iterable[int] | None = None) -> list[int]:
        """The actions (indices) that ``tokens`` name.

        One square names the actions that land there and those that start from it (a piece's
        own square lists its moves); several ("b1 c3") name the actions that pass them in order
        and land on the last, or failing that that pass them all."""
        pool = list(range(len(self.clicks))) if among is None else list(among)

        def passes(names: Sequence[str | None], want: Sequence[str]) -> bool:
            it = iter(n for n in names if n)
            return all(any(n == w for n in it) for w in want)

        if len(tokens) == 1:
            return [a for a in pool if tokens[0] in self.names(a)]
        landing = [a for a in pool if self.last(a) == tokens[-1] and passes(self.names(a)[:-1], tokens[:-1])]
        return landing or [a for a in pool if passes(self.names(a), tokens)]

    def why_not(self, typed: str, tokens: Sequence[str], scene: Scene) -> str:
        """One line saying that ``typed`` names no legal action now, and what the scene can tell
        about why: the choice is not made on the board, the square cannot be entered, or which
        squares can be chosen instead."""
        line = f"{typed} is not a legal target now"
        if not self.any_named():
            return line + ": this choice is not made on the board (type a number)"
        square = tokens[-1]
        if square in self.where:
            bid, x, y = self.where[square]
            for board in scene.get("boards") or ():
                if str(board.get("id", "")) == bid:
                    for c in board.get("cells") or ():
                        if c.get("x") == x and c.get("y") == y and c.get("blocked"):
                            return line + ": nothing can enter it"
        options: list[str] = []
        for a in range(len(self.clicks)):
            name = self.last(a)
            if name and self.shown[name] not in options:
                options.append(self.shown[name])
        more = f" and {len(options) - 8} more" if len(options) > 8 else ""
        return line + "; you can choose " + " ".join(options[:8]) + more

    def example(self) -> str | None:
        """A square some legal action lands on, as drawn (for hints), or None."""
        return next((self.shown[n] for n in (self.last(a) for a in range(len(self.clicks))) if n), None)

    def any_named(self) -> bool:
        return any(self.last(a) for a in range(len(self.clicks)))

    def marks(self, board_id: str, among: Iterable[int] | None = None) -> set[tuple[int, int]]:
        """The cells of ``board_id`` where some action (of ``among``) lands."""
        out: set[tuple[int, int]] = set()
        for a in range(len(self.clicks)) if among is None else among:
            name = self.last(a)
            if name and name in self.where and self.where[name][0] == board_id:
                out.add(self.where[name][1:])
        return out


# -- choices -------------------------------------------------------------------------------------
@dataclass
class Entry:
    """One line (or column cell) of the choice list: one action or a folded group."""

    actions: list[int]
    text: Text

    @property
    def width(self) -> int:
        return self.text.cell_len


def _numbers(actions: Sequence[int]) -> str:
    nums = [a + 1 for a in actions]
    if len(nums) == 1:
        return f"{nums[0]}."
    if nums == list(range(nums[0], nums[-1] + 1)):
        return f"{nums[0]}-{nums[-1]}"
    return f"[{len(nums)}]"


def _common_words(labels: Sequence[str]) -> str:
    """The longest run of whole words that starts every label."""
    split = [lab.split(" ") for lab in labels]
    out: list[str] = []
    for words in zip(*split):
        if len(set(words)) != 1:
            break
        out.append(words[0])
    if out and all(len(s) == len(out) for s in split):  # identical labels: keep a word to tell apart
        out = out[:-1]
    return " ".join(out)


def _single(a: int, label: str, strip: str = "") -> Entry:
    t = Text(f"{a + 1}.", style="bold")
    t.append(" " + (label[len(strip):].lstrip() if strip and label.startswith(strip) else label))
    return Entry([a], t)


def _group_key(a: int, label: str, sq: Squares) -> Any:
    names = sq.names(a)
    if not names or not names[-1]:
        return ("one", a)
    if len(names) >= 2:  # piece (or card) then square: one group per piece
        return ("from", tuple(sq.clicks[a][:-1]))
    shown = sq.shown[names[-1]]
    hits = [m for m in re.finditer(rf"(?<![A-Za-z0-9]){re.escape(shown)}(?![A-Za-z0-9])", label, re.IGNORECASE)]
    if not hits:
        return ("one", a)
    m = hits[-1]
    return ("kind", label[: m.start()] + "…" + label[m.end():])


def _folded(actions: list[int], labels: Sequence[str], sq: Squares) -> Entry:
    """A group as one entry: its numbers, what its labels share, and the squares it lands on."""
    labs = [labels[a] for a in actions]
    prefix = _common_words(labs)
    if not prefix:
        key = _group_key(actions[0], labels[actions[0]], sq)
        prefix = key[1].replace("…", "").strip() if key[0] == "kind" else labs[0]
    squares: list[str] = []
    for a in actions:
        name = sq.last(a)
        shown = sq.shown.get(name or "", "?")
        if shown not in squares:
            squares.append(shown)
    t = Text(_numbers(actions), style="bold")
    t.append(f" {prefix}: ".replace(" : ", ": "))
    t.append(" ".join(squares), style="cyan")
    return Entry(actions, t)


def _pack(entries: Sequence[Entry], width: int) -> list[Text]:
    """Entries in as many columns as fit ``width``, numbers running down the columns."""
    if not entries:
        return []
    widest = max(e.width for e in entries)
    ncols = max(1, min(len(entries), (width + 2) // (widest + 2)))
    nrows = math.ceil(len(entries) / ncols)
    ncols = math.ceil(len(entries) / nrows)
    lines: list[Text] = []
    for r in range(nrows):
        line = Text()
        for c in range(ncols):
            i = c * nrows + r
            if i >= len(entries):
                break
            if c:
                line.append(" " * (widest + 2 - entries[i - nrows].width))
            line.append_text(entries[i].text)
        lines.append(_crop(line, width))
    return lines


def _crop(text: Text, width: int) -> Text:
    if text.cell_len > width:
        text = text.copy()
        text.truncate(width - 1)
        text.append("…", style="dim")
    return text


@dataclass
class Choices:
    """The choice list as laid out: its lines, and how many pages it has (1 unless paged)."""

    lines: list[Text]
    pages: int = 1
    folded: bool = False


def fold_choices(labels: Sequence[str], sq: Squares, width: int, rows: int, *, page: int = 0,
                 among: Sequence[int] | None = None, soft: int | None = None) -> Choices:
    """The actions ``among`` (default: all) as at most ``rows`` lines of ``width`` columns.

    All of them, numbered, in columns if they fit; else groups of actions that differ only by
    the square they land on are folded into one line each, biggest groups first, until the list
    fits; what still does not fit is split into pages (``page`` picks one; the last line says
    how to see the next).  Folding goes on while the list is longer than ``soft`` rows (when
    given), to leave room for the rest of the screen, but never pages to get there."""
    rows = max(1, rows)
    soft = rows if soft is None else max(1, min(soft, rows))
    actions = list(range(len(labels))) if among is None else list(among)
    if not actions:
        return Choices([])
    labs = [labels[a] for a in actions]
    strip = _common_words(labs) if len(actions) >= 6 else ""
    if len(strip) < 4:
        strip = ""
    header = [Text(f"{strip}:", style="bold")] if strip else []
    singles = [_single(a, labels[a], strip) for a in actions]
    lines = header + _pack(singles, width)
    if len(lines) <= soft:
        return Choices(lines)

    groups: dict[Any, list[int]] = {}
    for a in actions:
        groups.setdefault(_group_key(a, labels[a], sq), []).append(a)
    foldable = sorted((k for k, g in groups.items() if len(g) >= 2), key=lambda k: -len(groups[k]))
    folded: set[Any] = set()

    def entries() -> list[Entry]:
        out: list[Entry] = []
        done: set[Any] = set()
        for a in actions:
            key = _group_key(a, labels[a], sq)
            if key in folded:
                if key not in done:
                    done.add(key)
                    out.append(_folded(groups[key], labels, sq))
            else:
                out.append(_single(a, labels[a]))
        return out

    def layout(es: list[Entry]) -> list[Text]:
        # folded lines are long: each takes a row; the singles between them share rows
        out: list[Text] = []
        run: list[Entry] = []
        for e in es:
            if len(e.actions) > 1:
                out += _pack(run, width)
                run = []
                out.append(_crop(e.text, width))
            else:
                run.append(e)
        return out + _pack(run, width)

    configs = [(header + _pack(singles, width), False)]  # the least folded first
    for size in sorted({len(groups[k]) for k in foldable}, reverse=True):
        folded.update(k for k in foldable if len(groups[k]) == size)  # groups alike fold alike
        configs.append((layout(entries()), True))
        if len(configs[-1][0]) <= soft:
            break
    for limit in (soft, rows):
        for lines, was_folded in configs:
            if len(lines) <= limit:
                return Choices(lines, folded=was_folded)
    lines = configs[-1][0]
    per = max(1, rows - 1)
    pages = math.ceil(len(lines) / per)
    page %= pages
    shown = lines[page * per:(page + 1) * per]
    shown.append(_crop(Text(f"(page {page + 1} of {pages}: m shows more, a lists every choice)", style="dim"), width))
    return Choices(shown, pages=pages, folded=bool(folded))


# -- the frame -----------------------------------------------------------------------------------
def _lines(renderable: RenderableType, width: int) -> list[Text]:
    """A renderable as cropped lines of at most ``width`` cells."""
    console = Console(width=width, color_system="truecolor", force_terminal=True, highlight=False)
    out: list[Text] = []
    for segs in console.render_lines(renderable, console.options.update(width=width), pad=False):
        t = Text()
        for seg in segs:
            if not seg.control:
                t.append(seg.text, style=seg.style)
        t.rstrip()
        out.append(_crop(t, width))
    return out


def _wrap(text: str, width: int, style: str = "", most: int = 2) -> list[Text]:
    """``text`` wrapped to at most ``most`` lines of ``width`` cells (the last one cut with …)."""
    words = str(text).split()
    lines: list[str] = []
    cur = ""
    for w in words:
        if cur and cell_len(cur) + 1 + cell_len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    if cur:
        lines.append(cur)
    if len(lines) > most:
        lines = lines[: most - 1] + [" ".join(lines[most - 1:])]
    return [_crop(Text(line, style=style), width) for line in lines]


def _flow(pieces: Sequence[Text], width: int, sep: str = "  ") -> list[Text]:
    """Short pieces run together into lines of at most ``width`` cells."""
    lines: list[Text] = []
    cur = Text()
    for p in pieces:
        if cur.cell_len and cur.cell_len + len(sep) + p.cell_len > width:
            lines.append(cur)
            cur = Text()
        if cur.cell_len:
            cur.append(sep)
        cur.append_text(p)
    if cur.cell_len:
        lines.append(cur)
    return [_crop(line, width) for line in lines]


def panel_lines(panel: dict[str, Any], width: int, most: int = 1) -> list[Text]:
    """A side panel in at most ``most`` lines: its title, then ``key value`` pairs and the
    names of its cards (the last line cut with … if they do not fit)."""
    title = str(panel.get("title") or "")
    active = bool(panel.get("active"))
    pieces = [Text(("> " if active else "") + title + ":", style=_style(panel.get("color"), "bold"))]
    for r in panel.get("rows") or ():
        if isinstance(r, (list, tuple)) and r:
            t = Text(str(r[0]), style="dim")
            t.append(" " + " ".join(str(x) for x in r[1:]))
            pieces.append(t)
    cards = panel.get("cards") or ()
    names = [str(c.get("name") or c.get("id") or "?") for c in cards if not c.get("face_down")]
    down = len(cards) - len(names)
    for i, name in enumerate(names):
        pieces.append(Text(("cards: " if i == 0 else "") + name))
    if down:
        pieces.append(Text(f"{down} card(s) face down", style="dim"))
    if len(pieces) > 1:  # "Title: key value · key value"
        pieces[0:2] = [pieces[0] + Text(" ") + pieces[1]]
    lines = _flow(pieces, width, sep=" · ")
    if len(lines) > most:
        rest = Text(" · ").join(lines[most - 1:])
        lines = lines[: most - 1] + [_crop(rest, width)]
    return lines


def _is_empty(panel: dict[str, Any]) -> bool:
    return not panel.get("rows") and not panel.get("cards")


def _is_main(board: dict[str, Any]) -> bool:
    return board.get("kind") in ("grid", "nodes") and not board.get("track") and not board.get("small")


def board_lines(board: dict[str, Any], width: int, *, compact: bool, marks: Iterable[tuple[int, int]] = ()
                ) -> tuple[list[Text], list[Text]]:
    """A board as (its lines, its notes): the notes say what a cell could not hold, and the
    legend of titled pieces, each as a short piece of text to flow into lines."""
    notes: list[Text] = []
    if board.get("kind") == "grid":
        cols, rows = int(board.get("cols", 0)), int(board.get("rows", 0))
        if cols <= 0 or rows <= 0:
            return [Text(f"(empty board {board.get('id', '')})", style="dim")], []
        grid, overflow = grid_text(board, width, compact=compact, marks=marks)
        lines = [_crop(line, width) for line in grid.split("\n")]
        for square, segs in overflow:
            t = Text(f"{square}:", style="bold")
            for s, st in segs:
                t.append(" " if not t.plain.endswith(" ") and s != " " else "")
                t.append(s, style=st)
            notes.append(t)
    elif board.get("track"):  # one line: its caption, then the nodes in order
        line = Text(f"{board['title']} ", style="bold") if board.get("title") else Text()
        track = render_track(board)[-1]
        return [_crop(line + track if (line + track).cell_len <= width else track, width)], []
    else:
        nodes = list(board.get("nodes") or ())
        if not nodes or not all(isinstance(n.get("x"), (int, float)) and isinstance(n.get("y"), (int, float)) for n in nodes):
            return _lines(render_node_list_compact(board), width), []
        nrows = len({round(float(n["y"]), 3) for n in nodes})
        height = nrows  # one line per row of nodes: the blank lines between them say nothing
        parts = render_node_map(board, width=min(width, 96), height=height)
        lines = [_crop(line, width) for line in parts[0].split("\n")]
        at: dict[str, list[dict[str, Any]]] = {}
        for it in board.get("items") or ():
            if "node" in it:
                at.setdefault(str(it["node"]), []).append(it)
        for n in nodes:
            here = at.get(str(n.get("id")))
            if here:
                t = Text(f"{n.get('label') or n.get('id')}:", style="bold")
                for it in here:
                    t.append(" ")
                    t.append(_item_text(it), style=_style(it.get("color"), "bold"))
                notes.append(t)
    if board.get("title"):
        lines.insert(0, _crop(Text(str(board["title"]), style="bold"), width))
    seen: set[tuple[str, str]] = set()
    for it in board.get("items") or ():  # the legend: each titled piece once, "P1 Knight (health 2)"
        if it.get("title") and (_item_text(it), str(it["title"])) not in seen:
            seen.add((_item_text(it), str(it["title"])))
            t = Text(_item_text(it), style=_style(it.get("color"), "bold"))
            t.append(f" {it['title']}")
            notes.append(t)
    return lines, notes


def render_node_list_compact(board: dict[str, Any]) -> Text:
    """A graph board without positions as short lines: each node with its pieces."""
    at: dict[str, list[dict[str, Any]]] = {}
    for it in board.get("items") or ():
        if "node" in it:
            at.setdefault(str(it["node"]), []).append(it)
    out = Text()
    for n in board.get("nodes") or ():
        if out.cell_len:
            out.append("  ")
        out.append(str(n.get("label") or n.get("id")), style="reverse" if n.get("highlight") else "dim")
        for it in at.get(str(n.get("id")), ()):
            out.append(" ")
            out.append(_item_text(it), style=_style(it.get("color"), "bold"))
    return out


@dataclass
class Frame:
    """A decision laid out for a ``width`` x ``height`` terminal (the last row left for input)."""

    lines: list[Text]
    pages: int = 1
    compact_board: bool = False

    def text(self) -> str:
        return "\n".join(line.plain.rstrip() for line in self.lines)


def compact_frame(scene: Scene, labels: Sequence[str], *, width: int, height: int,
                  events: Sequence[str] = (), message: str | None = None, page: int = 0,
                  among: Sequence[int] | None = None, seat: int | None = None,
                  squares: Squares | None = None, message_style: str = "bold red") -> Frame:
    """One decision in at most ``height - 1`` lines of at most ``width`` cells.

    ``labels`` are the legal actions' labels (numbered from 1); ``among`` limits the choices
    shown (a typed square that several actions share); ``events`` are the new log lines, the
    last of which are shown as rows allow; ``message`` is a one-line answer to the last input;
    ``seat`` picks the panel shown first (the seat's own)."""
    width = max(20, width)
    avail = max(6, height - 1)
    sq = squares or Squares.of(scene, labels)
    head = Text(str(scene.get("title") or ""), style="bold")
    if scene.get("status"):
        if head.cell_len:
            head.append(" · ", style="dim")
        head.append(str(scene["status"]), style="bold cyan")
    header = [_crop(head, width)] if head.cell_len else []
    prompt = _wrap(str(scene.get("prompt") or ""), width, "bold yellow") if scene.get("prompt") else []
    msg = _wrap(message, width, message_style) if message else []
    fixed = len(header) + len(prompt) + len(msg)

    boards = list(scene.get("boards") or ())
    main = [b for b in boards if _is_main(b)]
    extra = [b for b in boards if not _is_main(b)]
    marks_among = among

    def draw(compact: bool) -> tuple[list[Text], list[Text]]:
        lines: list[Text] = []
        notes: list[Text] = []
        for b in main:
            bl, bn = board_lines(b, width, compact=compact, marks=sq.marks(str(b.get("id", "")), marks_among))
            lines += bl
            notes += bn
        return lines, notes

    small_lines, small_notes = draw(True)

    def fold(msg_rows: int) -> Choices:
        rows = max(MIN_CHOICE_ROWS, avail - fixed + len(msg) - msg_rows - len(small_lines))
        return fold_choices(labels, sq, width, rows, page=page, among=among,
                            soft=rows - SPARE_ROWS if rows >= 2 * SPARE_ROWS else None)

    choices = fold(len(msg))
    if choices.pages > 1:  # pages keep their size whether or not a message shows: one row is kept for it
        choices = fold(1)
        if len(msg) > 1:
            msg = [_crop(Text(" ").join(msg), width)]
        fixed = len(header) + len(prompt) + len(msg)
    board, notes = small_lines, small_notes
    compact_board = True
    if any(b.get("kind") == "grid" or not b.get("track") for b in main):
        full_lines, full_notes = draw(False)
        spare = avail - fixed - len(choices.lines) - len(full_lines)
        wanted = 1 + (min(2, len(events) + 1) if events else 0)  # a panel line, a couple of events
        if full_lines != small_lines and spare >= wanted:
            board, notes, compact_board = full_lines, full_notes, False
    if len(board) + fixed + len(choices.lines) > avail:  # a board taller than the screen: cut it
        board = board[: max(2, avail - fixed - len(choices.lines))]  # at least the axis and a row
    left = avail - fixed - len(choices.lines) - len(board)

    # what is left, in order of use: the seat's own (or the acting) panel, the last events,
    # the small boards (dials, tracks), the own panel in full, the other panels, the notes,
    # then more events
    panels = [p for p in scene.get("panels") or () if not _is_empty(p)]
    own = [p for p in panels if seat is not None and p.get("seat") == seat] or [p for p in panels if p.get("active")]
    others = [p for p in panels if p is not (own[0] if own else None)]
    top_panel: list[Text] = []
    if own and left > 0:
        top_panel = panel_lines(own[0], width)
        left -= 1
    events = [str(e) for e in events]

    def event_block(n: int) -> list[Text]:
        if n <= 0 or not events:
            return []
        k = min(len(events), n - 1) if n >= 2 else 0
        if k == 0:
            return [_crop(Text("Last: ", style="dim") + Text(events[-1]), width)]
        more = len(events) - k
        title = "Since your last turn:" if not more else f"Since your last turn ({more} earlier; l shows the log):"
        return [_crop(Text(title, style="dim"), width)] + [_crop(Text("  " + e), width) for e in events[-k:]]

    ev_lines = event_block(min(left, MAX_EVENTS + 1, len(events) + 1))
    left -= len(ev_lines)
    small: list[Text] = []
    for b in extra:
        bl, _ = board_lines(b, width, compact=True)
        if len(bl) <= left:
            small += bl
            left -= len(bl)
    if own and top_panel and left > 0:  # the seat's own panel in full (its hand), up to 3 lines
        grown_panel = panel_lines(own[0], width, most=1 + min(left, 2))
        left -= len(grown_panel) - len(top_panel)
        top_panel = grown_panel
    other_lines: list[Text] = []
    for p in others:
        if left <= 0:
            break
        other_lines += panel_lines(p, width)
        left -= 1
    note_lines = _flow(notes, width)[: max(0, left)]
    left -= len(note_lines)
    if events and left > 0 and len(ev_lines) < len(events) + 1:
        grown = event_block(len(ev_lines) + left)
        left -= len(grown) - len(ev_lines)
        ev_lines = grown

    shown = choices.lines
    over = len(header + board + small + note_lines + top_panel + other_lines + ev_lines + prompt + shown + msg) - avail
    if over > 0:  # a tiny terminal: the title goes first, then the prompt's second line, then choices
        cut = min(over, len(header))
        header, over = header[cut:], over - cut
        cut = min(over, len(prompt) - 1)
        prompt, over = prompt[: len(prompt) - cut], over - max(0, cut)
        if over > 0:
            shown = shown[: max(1, len(shown) - over)]
    lines = (header + board + small + note_lines + top_panel + other_lines + ev_lines + prompt
             + shown + msg)
    return Frame(lines[:avail], pages=choices.pages, compact_board=compact_board)


# -- pages of text (the rules, the help, every panel) ---------------------------------------------
def text_lines(renderable: RenderableType, width: int) -> list[Text]:
    """Any renderable (or plain text) as lines of at most ``width`` cells, for :func:`pages`."""
    return _lines(renderable, max(20, width))


def quick_start_lines(title: str, markdown: str, width: int) -> list[Text]:
    """A game's quick start (markdown bullets such as ``- **Goal:** ...``) as plain lines of at
    most ``width`` cells: a bold title, then each bullet wrapped with a hanging indent."""
    width = max(20, width)
    out = [_crop(Text(title, style="bold"), width)]
    paras: list[str] = []
    for raw in markdown.splitlines():
        line = raw.strip()
        if not line:
            paras.append("")
        elif line.startswith(("- ", "* ")) or not paras or not paras[-1]:
            paras.append(line)
        else:
            paras[-1] += " " + line
    for para in paras:
        if not para:
            continue
        bullet = para.startswith(("- ", "* "))
        body = para[2:] if bullet else para
        head = ""
        m = re.match(r"\*\*([^*]+)\*\*\s*", body)
        if m:
            head, body = m.group(1), body[m.end():]
        body = re.sub(r"\*\*([^*]+)\*\*|\*([^*]+)\*|`([^`]+)`", lambda x: next(g for g in x.groups() if g), body)
        indent = "  " if bullet else ""
        words = ([head] if head else []) + body.split()
        lines: list[Text] = []
        cur = Text("• " if bullet else "")
        for i, w in enumerate(words):
            piece = Text(w, style="bold") if (head and i == 0) else Text(w)
            if cur.cell_len > len(indent) and cur.cell_len + 1 + piece.cell_len > width:
                lines.append(cur)
                cur = Text(indent)
            if cur.cell_len > len(indent) or (cur.plain and not cur.plain.isspace() and cur.plain != "• "):
                cur.append(" ")
            cur.append_text(piece)
        if cur.plain.strip():
            lines.append(cur)
        out += [_crop(t, width) for t in lines]
    return out


def pages(lines: Sequence[Text], rows: int) -> list[list[Text]]:
    """``lines`` cut into pages of at most ``rows`` lines each (at least one page)."""
    rows = max(1, rows)
    return [list(lines[i:i + rows]) for i in range(0, len(lines), rows)] or [[]]
