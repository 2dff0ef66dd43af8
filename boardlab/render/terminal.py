"""Draw a scene (see :mod:`boardlab.engine.scene`) in the terminal with rich.

The renderer is generic: it knows boards of kind ``grid`` and ``nodes``,
items, walls, panels, a status line and a prompt, and nothing about any
particular game.  A scene is built from one seat's view, so drawing it can
never reveal more than that seat may know.

>>> scene = {"title": "Demo", "status": "Player 1 to act", "boards": [
...     {"id": "main", "kind": "grid", "cols": 2, "rows": 1,
...      "walls": [{"x": 0, "y": 0, "side": "E"}],
...      "items": [{"id": "a", "x": 1, "y": 0, "text": "P1"}]}]}
>>> print(scene_text(scene))
Demo
    0   1
  +---+---+
0 |   | P1|
  +---+---+
Player 1 to act
"""

from __future__ import annotations

import io
from typing import Any, Iterable, Sequence

from rich.cells import cell_len
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.style import Style
from rich.table import Table
from rich.text import Text

Scene = dict[str, Any]

MIN_CELL = 3
MAX_CELL = 12
#: Widest board drawn (characters); cells narrow to fit it.
BOARD_WIDTH = 100


def render_scene(scene: Scene, actions: Sequence[str] = (), width: int = BOARD_WIDTH) -> RenderableType:
    """A rich renderable of ``scene``; ``actions`` (labels) are listed numbered if given.

    Grid cells narrow so that boards fit in ``width`` characters (pass the console's width).
    """
    parts: list[RenderableType] = []
    if scene.get("title"):
        parts.append(Text(str(scene["title"]), style="bold"))
    for board in scene.get("boards") or ():
        parts.extend(render_board(board, width))
    parts.extend(layout_panels(scene.get("panels") or (), width))
    if scene.get("status"):
        parts.append(Text(str(scene["status"]), style="bold cyan"))
    if scene.get("prompt"):
        parts.append(Text(str(scene["prompt"]), style="bold yellow"))
    if actions:
        parts.append(render_actions(actions))
    return Group(*parts)


def render_actions(labels: Sequence[str], numbers: Sequence[int] | None = None) -> RenderableType:
    """Numbered action labels, one per line (numbers start at 1, or are ``numbers``)."""
    nums = list(numbers) if numbers is not None else list(range(1, len(labels) + 1))
    width = len(str(max(nums, default=1)))
    text = Text()
    for i, label in zip(nums, labels):
        if text:
            text.append("\n")
        text.append(f"{i:>{width}}", style="bold")
        text.append(f". {label}")
    return text


def scene_text(scene: Scene, actions: Sequence[str] = (), width: int = 100) -> str:
    """``scene`` drawn as plain text (no colours), for logs, tests and non-terminals."""
    buf = io.StringIO()
    console = Console(file=buf, width=width, color_system=None, force_terminal=False, highlight=False)
    console.print(render_scene(scene, actions, width))
    return "\n".join(line.rstrip() for line in buf.getvalue().splitlines())


# -- boards ------------------------------------------------------------------
def render_board(board: dict[str, Any], width: int = BOARD_WIDTH) -> list[RenderableType]:
    kind = board.get("kind")
    if kind == "grid":
        return render_grid(board, width)
    if kind == "nodes":
        return render_nodes(board)
    return [Text(f"(board {board.get('id', '?')!s} of unknown kind {kind!r})", style="dim")]


def _style(color: Any, extra: str = "") -> Style:
    """A rich style from a CSS-like colour ("#c00", "#cc0000", "red"); unknown colours are ignored."""
    style = Style.parse(extra) if extra else Style()
    if isinstance(color, str) and color:
        c = color.strip()
        if c.startswith("#") and len(c) == 4:
            c = "#" + "".join(ch * 2 for ch in c[1:])
        try:
            parsed = Style(color=c)
        except Exception:  # an unknown colour name: draw without it
            return style
        rgb = parsed.color.get_truecolor() if parsed.color is not None else None
        # near-black vanishes on a dark terminal and near-white on a light one: such a colour
        # (Armies' black and white armies) is drawn in the terminal's own foreground instead
        if rgb is not None and not 0.22 <= (0.2126 * rgb.red + 0.7152 * rgb.green + 0.0722 * rgb.blue) / 255 <= 0.88:
            return style
        style = style + parsed
    return style


def _item_text(item: dict[str, Any]) -> str:
    text = item.get("text")
    if text in (None, ""):
        text = "?" if item.get("face_down") else "*"
    text = "".join(str(text).split())  # one line, no spaces: a cell is one line
    if item.get("badge") not in (None, ""):
        text += f"({item['badge']})"
    return text


def render_grid(board: dict[str, Any], width: int = BOARD_WIDTH) -> list[RenderableType]:
    """A square grid as text: column labels on top, row labels on the left (the board's
    ``col_labels``/``row_labels``, else numbers from 0),
    walls as ``|`` and ``---``, items (or else the cell label) inside cells."""
    cols, rows = int(board.get("cols", 0)), int(board.get("rows", 0))
    if cols <= 0 or rows <= 0:
        return [Text(f"(empty board {board.get('id', '')})", style="dim")]
    grid, overflow = grid_text(board, width)
    parts: list[RenderableType] = []
    if board.get("title"):
        parts.append(Text(str(board["title"]), style="bold"))
    parts.append(grid)
    if overflow:  # one line per square whose stack did not fit, keyed by the square's name
        more = Text()
        for i, (square, segs) in enumerate(overflow):
            if i:
                more.append("\n")
            more.append(f"  {square}:", style="bold")
            more.append(" ")
            for text, st in segs:
                more.append(text, style=st)
        parts.append(more)
    legend = _legend(board.get("items") or ())
    if legend is not None:
        parts.append(legend)
    return parts


Overflow = list[tuple[str, list[tuple[str, Style]]]]


def grid_text(board: dict[str, Any], width: int = BOARD_WIDTH, *, compact: bool = False,
              marks: Iterable[tuple[int, int]] = ()) -> tuple[Text, Overflow]:
    """The grid of ``board`` (a non-empty grid) as one Text, and the squares whose stack or
    covered label did not fit in a cell (each as its name and styled pieces).

    ``compact`` draws one line per row, without the boundary lines between rows: a wall
    between two rows underlines the cells above it, and each empty square in ``marks`` (cells
    as ``(x, y)``: where a legal action lands) shows a ``·``."""
    cols, rows = int(board.get("cols", 0)), int(board.get("rows", 0))
    marked = set(marks) if compact else set()
    cells: dict[tuple[int, int], dict[str, Any]] = {}
    for c in board.get("cells") or ():
        cells[(int(c.get("x", -1)), int(c.get("y", -1)))] = c
    items: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for it in board.get("items") or ():
        if "x" in it and "y" in it:
            items.setdefault((int(it["x"]), int(it["y"])), []).append(it)
    # wall segments: h[(x, y)] lies above row y; v[(x, y)] lies left of column x
    h: dict[tuple[int, int], Style] = {}
    v: dict[tuple[int, int], Style] = {}
    for w in board.get("walls") or ():
        x, y, side = int(w.get("x", 0)), int(w.get("y", 0)), str(w.get("side", "")).upper()
        # a wall is drawn bold in the terminal's own foreground: a scene colour meant for a
        # light SVG board (near-black) would vanish on a dark terminal, and a light one on a light terminal
        st = Style(bold=True)
        if side == "N":
            h[(x, y)] = st
        elif side == "S":
            h[(x, y + 1)] = st
        elif side == "W":
            v[(x, y)] = st
        elif side == "E":
            v[(x + 1, y)] = st

    contents: dict[tuple[int, int], list[tuple[str, Style]]] = {}
    hidden: dict[tuple[int, int], str] = {}  # a cell's label covered by its pieces: said in the legend
    longest = 0
    for y in range(rows):
        for x in range(cols):
            cell = cells.get((x, y), {})
            here = items.get((x, y))
            if cell.get("blocked"):
                segs: list[tuple[str, Style]] = []
            elif here:
                segs = []
                if cell.get("label") not in (None, ""):
                    hidden[(x, y)] = str(cell["label"])
                for it in here:
                    if segs:
                        segs.append((" ", Style()))
                    segs.append((_item_text(it), _style(it.get("color"), "bold")))
            elif cell.get("label") not in (None, ""):
                segs = [(str(cell["label"]), Style(dim=True))]
            else:
                segs = []
            contents[(x, y)] = segs
            longest = max(longest, sum(cell_len(s) for s, _ in segs))
    widest = max(MIN_CELL, min(MAX_CELL, (width - 4 - len(str(rows))) // cols - 1))
    col_labels = [str(c) for c in board.get("col_labels") or range(cols)][:cols]
    col_labels += [str(x) for x in range(len(col_labels), cols)]
    row_labels = [str(r) for r in board.get("row_labels") or range(rows)][:rows]
    row_labels += [str(y) for y in range(len(row_labels), rows)]
    cw = max(MIN_CELL, min(widest, longest + 1), max(len(c) for c in col_labels))
    label_w = max(len(r) for r in row_labels) + 1
    labelled = bool(board.get("col_labels")) and bool(board.get("row_labels"))
    overflow: list[tuple[str, list[tuple[str, Style]]]] = []
    wall_h = "-" * cw

    out = Text(no_wrap=True, overflow="crop")
    out.append(" " * (label_w + 1))
    for x in range(cols):
        out.append(f"{col_labels[x]:^{cw}}", style="dim")
        out.append(" ")
    out.append("\n")
    for y in range(rows + 1):
        if not compact:  # compact: no boundary lines (walls between rows underline the cells above)
            # the boundary above row y
            out.append(" " * label_w)
            for x in range(cols + 1):
                touching = (
                    y in (0, rows) or x in (0, cols)
                    or (x - 1, y) in h or (x, y) in h or (x, y - 1) in v or (x, y) in v
                )
                out.append("+" if touching else ".", style="dim" if not touching else "")
                if x < cols:
                    if y in (0, rows):
                        out.append(wall_h)
                    elif (x, y) in h:
                        out.append(wall_h, style=h[(x, y)])
                    else:
                        out.append(" " * cw)
            out.append("\n")
        if y == rows:
            break
        out.append(f"{row_labels[y]:>{label_w - 1}} ", style="dim")
        for x in range(cols + 1):
            if x in (0, cols):
                out.append("|")
            elif (x, y) in v:
                out.append("|", style=v[(x, y)])
            else:
                out.append(" ")
            if x == cols:
                break
            cell = cells.get((x, y), {})
            st_extra = Style(reverse=True) if cell.get("highlight") else Style()
            if compact and y + 1 < rows and (x, y + 1) in h:
                st_extra += Style(underline=True)
            if cell.get("blocked"):
                out.append("#" * cw, style=Style(dim=True) + st_extra)
                continue
            segs = contents[(x, y)]
            if not segs and (x, y) in marked:
                segs = [("·", Style(bold=True))]
            total = sum(cell_len(s) for s, _ in segs)
            square = f"{col_labels[x]}{row_labels[y]}" if labelled else f"{x},{y}"
            if (x, y) in hidden:  # the room's own label ("START", "+1/-1") is under the pieces
                overflow.append((square, [(hidden[(x, y)], Style(dim=True)), (" ", Style()), *segs]))
            if total > cw:  # too much for the cell: a shorter form, the whole stack in the legend
                if (x, y) not in hidden:
                    overflow.append((square, segs))
                here = items.get((x, y)) or ()
                bare: list[tuple[str, Style]] = []  # the pieces without their badges, marked "+"
                for it in here:
                    if bare:
                        bare.append((" ", Style()))
                    bare.append((_item_text({**it, "badge": None}), _style(it.get("color"), "bold")))
                if bare:
                    bare.append(("+", Style(bold=True)))
                if bare and sum(cell_len(t) for t, _ in bare) <= cw:
                    segs = bare
                else:
                    n = len(here) or 1
                    marker = f"[{n}]" if cw >= len(f"[{n}]") else str(n)[:cw]
                    segs = [(marker, Style(bold=True))]
                total = sum(cell_len(t) for t, _ in segs)
            pad_left = (cw - total + 1) // 2 if total < cw else 0
            out.append(" " * pad_left, style=st_extra)
            for s, st in segs:
                out.append(s, style=st + st_extra)
            out.append(" " * (cw - total - pad_left), style=st_extra)
        out.append("\n")
    out.rstrip()
    return out, overflow


def _legend(items: Iterable[dict[str, Any]]) -> Text | None:
    """One line per distinct item that has a hover title: ``P1  Knight (health 2)``."""
    seen: list[tuple[str, str, Style]] = []
    keys = set()
    for it in items:
        title = it.get("title")
        if not title:
            continue
        text = _item_text(it)
        key = (text, str(title))
        if key in keys:
            continue
        keys.add(key)
        seen.append((text, str(title), _style(it.get("color"), "bold")))
    if not seen:
        return None
    out = Text()
    for i, (text, title, st) in enumerate(seen):
        if i:
            out.append("\n")
        out.append(f"  {text}", style=st)
        out.append(f"  {title}")
    return out


def render_nodes(board: dict[str, Any]) -> list[RenderableType]:
    """A graph board: a map from the nodes' x/y positions when they all have one, else a list."""
    nodes = list(board.get("nodes") or ())
    if board.get("track") and nodes:
        return render_track(board)
    if nodes and all(isinstance(n.get("x"), (int, float)) and isinstance(n.get("y"), (int, float)) for n in nodes):
        return render_node_map(board)
    return render_node_list(board)


def render_track(board: dict[str, Any]) -> list[RenderableType]:
    """A short ring or path (a dial, a score track) as one line in node order, under its title:
    each node's label, the occupied ones in brackets with their pieces' colour, e.g.
    ``0  1 [2] 3  4``; then one line per piece that has a hover title."""
    at: dict[str, list[dict[str, Any]]] = {}
    for it in board.get("items") or ():
        if "node" in it:
            at.setdefault(str(it["node"]), []).append(it)
    line = Text("  ")
    for i, n in enumerate(board.get("nodes") or ()):
        label = str(n.get("label") or n.get("id"))
        here = at.get(str(n.get("id")))
        if i:
            line.append(" ")
        if here:
            line.append(f"[{label}]", style=_style(here[0].get("color"), "bold"))
        else:
            line.append(f" {label} ", style="dim")
    parts: list[RenderableType] = []
    if board.get("title"):
        parts.append(Text(str(board["title"]), style="bold"))
    parts.append(line)
    return parts


def render_node_map(board: dict[str, Any], width: int = 76, height: int | None = None) -> list[RenderableType]:
    """Nodes drawn where their x/y put them (each as up to 4 characters: its items, else its label),
    followed by the list of occupied nodes."""
    nodes = list(board.get("nodes") or ())
    if height is None:
        rows = len({round(float(n["y"]), 3) for n in nodes})
        height = max(3, min(23, 2 * rows - 1))
    at: dict[str, list[dict[str, Any]]] = {}
    for it in board.get("items") or ():
        if "node" in it:
            at.setdefault(str(it["node"]), []).append(it)
    canvas: list[list[tuple[str, Style]]] = [[(" ", Style())] * width for _ in range(height)]
    xs = [float(n["x"]) for n in nodes]
    ys = [float(n["y"]) for n in nodes]
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    for n in nodes:
        nid = str(n.get("id"))
        col = int(round((float(n["x"]) - x0) / ((x1 - x0) or 1) * (width - 5)))
        row = int(round((float(n["y"]) - y0) / ((y1 - y0) or 1) * (height - 1)))
        items = at.get(nid, ())
        if items:
            # the whole stack is listed below the map; here it must fit 4 characters uncut
            text = _item_text({**items[0], "badge": None}) if len(items) == 1 else f"[{len(items)}]"
            if cell_len(text) > 4:
                text = f"[{len(items)}]"
            style = _style(items[0].get("color"), "bold")
        else:
            text = str(n.get("label") or nid)[:4]
            style = Style(reverse=True) if n.get("highlight") else _style(n.get("fill"), "dim")
        for k, ch in enumerate(text.ljust(4)[:4]):
            if col + k < width:
                canvas[row][col + k] = (ch, style)
    out = Text()
    for r, line in enumerate(canvas):
        for ch, st in line:
            out.append(ch, style=st)
        if r < height - 1:
            out.append("\n")
    rendered: list[RenderableType] = [out]
    occupied = [n for n in nodes if str(n.get("id")) in at]
    if occupied:
        rendered += render_node_list({**board, "nodes": occupied, "edges": []})
    return rendered


def render_node_list(board: dict[str, Any]) -> list[RenderableType]:
    """A graph board as a list: one line per node with its items and neighbours."""
    nodes = list(board.get("nodes") or ())
    labels = {str(n.get("id")): str(n.get("label") or n.get("id")) for n in nodes}
    nbrs: dict[str, list[str]] = {k: [] for k in labels}
    for edge in board.get("edges") or ():
        if isinstance(edge, (list, tuple)) and len(edge) >= 2:
            a, b = str(edge[0]), str(edge[1])
            nbrs.setdefault(a, []).append(b)
            nbrs.setdefault(b, []).append(a)
    at: dict[str, list[dict[str, Any]]] = {}
    for it in board.get("items") or ():
        if "node" in it:
            at.setdefault(str(it["node"]), []).append(it)
    table = Table(box=None, show_header=False, padding=(0, 1), title=board.get("title"))
    table.add_column(style="dim", no_wrap=True)
    table.add_column(no_wrap=True)
    table.add_column()
    table.add_column(style="dim")
    for n in nodes:
        nid = str(n.get("id"))
        # a node with a hover title is named by its label (the name drawn on the board) and title
        first = labels[nid] if n.get("title") else nid
        label = Text(str(n.get("title") or labels[nid]), style="reverse" if n.get("highlight") else _style(n.get("fill")))
        here = Text()
        for it in at.get(nid, ()):
            if here:
                here.append(" ")
            here.append(_item_text(it), style=_style(it.get("color"), "bold"))
        near = ", ".join(labels.get(m, m) for m in nbrs.get(nid, ()))
        table.add_row(first, label, here, f"-> {near}" if near else "")
    return [table]


# -- panels ------------------------------------------------------------------
#: Widest panel (characters); wider content wraps.
PANEL_WIDTH = 60
#: Narrowest useful panel: below this a panel takes a row of its own.
PANEL_MIN = 22


def layout_panels(panels: Sequence[dict[str, Any]], width: int = BOARD_WIDTH) -> list[RenderableType]:
    """Panels packed left to right into rows that fit ``width``: each panel is as wide as its
    content (at most :data:`PANEL_WIDTH`, and never wider than the screen), and a panel that does
    not fit beside the others starts a new row, so no panel is squeezed until its values vanish."""
    if not panels:
        return []
    width = max(PANEL_MIN, width)
    sized = [(p, min(panel_width(p), width)) for p in panels]
    rows: list[list[tuple[dict[str, Any], int]]] = [[]]
    used = 0
    for p, w in sized:
        if rows[-1] and used + 1 + w > width:
            rows.append([])
            used = 0
        used += (1 if rows[-1] else 0) + w
        rows[-1].append((p, w))
    out: list[RenderableType] = []
    for row in rows:
        if len(row) == 1 and row[0][1] < width and _wants_more(row[0][0], row[0][1]):
            row = [(row[0][0], min(width, PANEL_WIDTH * 2))]
        table = Table.grid(padding=(0, 1))
        for _, w in row:
            table.add_column(vertical="top", width=w)
        table.add_row(*(render_panel(p, w) for p, w in row))
        out.append(table)
    return out


def _wants_more(panel: dict[str, Any], width: int) -> bool:
    """A panel alone on its row with card text that wraps may use the whole row."""
    return any(len(_card_line(c)) > width - 4 for c in panel.get("cards") or ())


def _card_line(card: dict[str, Any]) -> str:
    if card.get("face_down"):
        return "(face down)"
    name = str(card.get("name") or card.get("id") or "?")
    return f"{name}: {card['text']}" if card.get("text") else name


def panel_width(panel: dict[str, Any]) -> int:
    """The width ``panel`` would like: its widest row or card line and its title, plus the border."""
    keys = [len(str(r[0])) for r in panel.get("rows") or () if isinstance(r, (list, tuple)) and r]
    vals = [cell_len(" ".join(str(x) for x in r[1:])) for r in panel.get("rows") or () if isinstance(r, (list, tuple)) and r]
    cards = panel.get("cards") or ()
    packed = "  ".join(_card_line(c) for c in cards if not c.get("face_down") and not c.get("text"))  # one line if it fits
    content = max((max(keys, default=0) + 1 + max(vals, default=0)) if keys else 0,
                  max((cell_len(_card_line(c)) + 2 for c in cards), default=0), cell_len(packed) + 2 if packed else 0)
    title = len(str(panel.get("title") or "")) + (2 if panel.get("active") else 0) + 2
    return max(PANEL_MIN, min(PANEL_WIDTH, max(content, title) + 4))


def _packed(names: list[str], inner: int) -> list[Text]:
    """Card names side by side, two spaces apart, in lines of at most ``inner`` cells (a name is never
    split): a hand of 13 numbered cards is one line, not 13 (issue 46)."""
    lines: list[Text] = []
    line = ""
    for name in names:
        if line and cell_len(line) + 2 + cell_len(name) > inner:
            lines.append(Text(line, style="bold"))
            line = ""
        line = f"{line}  {name}" if line else name
    if line:
        lines.append(Text(line, style="bold"))
    return lines


def render_panel(panel: dict[str, Any], width: int = PANEL_WIDTH) -> RenderableType:
    """A side panel ``width`` characters wide: key/value rows, then its cards.

    When space is short the keys wrap (they are at most a third of the panel) and the values keep
    the rest, so a value is never cut; each card is its name in bold and its text, wrapped across
    the whole panel rather than in a narrow column."""
    width = max(12, width)
    inner = width - 4
    rows = [r for r in panel.get("rows") or () if isinstance(r, (list, tuple)) and r]
    parts: list[RenderableType] = []
    if rows:
        longest_key = max(cell_len(str(r[0])) for r in rows)
        longest_val = max(cell_len(" ".join(str(x) for x in r[1:])) for r in rows)
        key_w = min(longest_key, max(inner - longest_val - 1, inner // 3, 6))
        grid = Table.grid(padding=(0, 1))
        grid.add_column(style="dim", width=key_w, overflow="fold")
        grid.add_column(overflow="fold")
        for row in rows:
            grid.add_row(str(row[0]), " ".join(str(r) for r in row[1:]))
        parts.append(grid)
    names: list[str] = []  # a run of cards that are a name alone (a hand of numbers): packed across the panel
    for card in panel.get("cards") or ():
        if not card.get("face_down") and not card.get("text"):
            names.append(str(card.get("name") or card.get("id") or "?"))
            continue
        parts.extend(_packed(names, inner))
        names = []
        if card.get("face_down"):
            parts.append(Text("card (face down)", style="dim"))
            continue
        line = Text(str(card.get("name") or card.get("id") or "?"), style="bold")
        line.append(f": {card['text']}", style="")
        parts.append(line)
    parts.extend(_packed(names, inner))
    active = bool(panel.get("active"))
    title = str(panel.get("title") or "")
    if active:
        title = "> " + title
    border = _style(panel.get("color"), "bold" if active else "")
    return Panel(Group(*parts), title=title, title_align="left", border_style=border, expand=True, width=width)
