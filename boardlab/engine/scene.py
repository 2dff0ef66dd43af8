"""Scenes: a game-neutral description of what a seat sees, for every renderer.

Each game turns a seat's *view* (never the full state) plus the legal actions
into a **scene**, a JSON dict that one renderer draws in the browser (SVG),
in the terminal (rich) and in replays.  Adding a game adds a scene builder,
not a new front end.  Because scenes are built from views, they cannot leak.

Format (all keys optional unless marked)::

    {
      "title": "The Dungeon's Jewel",
      "status": "Player 2 to move",               # one line: whose turn, phase
      "prompt": "Choose a square to move to",      # what the acting seat is asked
      "boards": [                                  # zero or more boards
        {                                          # a square grid
          "id": "main", "kind": "grid", "cols": 7, "rows": 7,   # required
          "col_labels": ["a", ...], "row_labels": ["1", ...],  # optional: square names as the actions use them
          "cells": [{"x": 0, "y": 0, "fill": "#ccc", "label": "S1",
                     "title": "hover text", "blocked": false, "highlight": false}],
          "walls": [{"x": 0, "y": 0, "side": "E", "color": "#000"}],  # side N/E/S/W
          "items": [{"id": "p1", "x": 0, "y": 0, "text": "P1", "color": "#c00",
                     "shape": "circle|square|token|card", "face_down": false,
                     "badge": "2", "title": "hover text"}]
        },
        {                                          # a graph of spaces (rings, tracks)
          "id": "ring", "kind": "nodes", "title": "caption",
          "track": false,    # true: a short ring or path a text renderer draws as one line, in node order
          "small": false,    # true: a secondary board (a dial, a track) drawn small beside the main one
          "nodes": [{"id": "r0", "x": 0.5, "y": 0.1, "label": "Temple", "fill": "#fd0",
                     "title": "...", "highlight": false}],   # x, y in [0, 1]
          "edges": [["r0", "r1"]],
          "items": [{"id": "s1", "node": "r0", "text": "S1", "color": "#06c", "badge": "10"}]
        }
      ],
      "panels": [                                  # side panels: players, hands, decks
        {"title": "Player 1", "seat": 0, "active": true, "color": "#c00",
         "rows": [["Health", "2"], ["Items", "Rope"]],
         "cards": [{"id": "c3", "name": "Rope", "text": "Survive a pit", "face_down": false}]}
      ],
      "targets": [                                 # clickable ways to act
        {"action": 4, "clicks": ["main:3,2"], "label": "Move north"},
        {"action": 7, "clicks": ["main:0,0", "main:0,2"], "label": "Archer to a3"}
      ],
      "why_not": {"card:h3": "it costs 2 Gnar and your pieces hold 1 Gnar"},  # click id -> why it cannot
                                                   # be used now (acting seat only; State.why_not reads it)
      "hint": "You can only end the turn: ...",    # one line explaining the decision
      "action_labels": {"3": "Long Sword to Hero 2 (plus two ...)"},  # action index -> this seat's own
                                                   # label, where its view knows more than describe()'s
                                                   # shared text (which the history shows every seat)
      "key_notes": ["+2/-1 on a room: ..."],       # lines the Key adds for what the board shows now
      "out": "Your summoner is defeated: ...",     # this seat is out while the game goes on
      "over_note": "why the game ended",           # shown with the result
      "log_fold": ["Attack \\d+ against ..."]       # regexes: log lines shown folded, detail on demand
    }

A card in a panel may carry ``"why_not"`` too: why it cannot be played now
(the same reason as in the scene's map, for showing beside the card).  Reasons
are built from the view and the legal actions only, like everything else here.

**Click ids.**  A grid cell is ``"<board>:<x>,<y>"``, a node is
``"<board>:<node id>"``, an item or card is ``"item:<id>"`` / ``"card:<id>"``.
A target's ``action`` is an index into the legal-action list the scene was
built with, and ``clicks`` is the sequence of elements the user clicks to
choose it (one click for most actions, two for "piece then square").  A
renderer keeps the clicks made so far, highlights the elements that extend
them, and applies the action once exactly one target matches all clicks.
Actions without a target are still offered in the list of legal actions.
"""

from __future__ import annotations

from typing import Any, Iterator, Sequence

Scene = dict[str, Any]


def cell_id(board: str, x: int, y: int) -> str:
    """The click id of grid cell ``(x, y)`` on ``board``."""
    return f"{board}:{x},{y}"


def grid_cells(board: dict[str, Any]) -> Iterator[tuple[int, int, str | None]]:
    """Each cell ``(x, y, name)`` of a grid board, row by row; ``name`` is column label + row label
    (``"c4"``) where the board's labels cover the cell, else None."""
    cols, rows = int(board.get("cols", 0)), int(board.get("rows", 0))
    cl, rl = board.get("col_labels"), board.get("row_labels")
    for y in range(rows):
        for x in range(cols):
            yield x, y, (f"{cl[x]}{rl[y]}" if cl and rl and x < len(cl) and y < len(rl) else None)


def node_id(board: str, node: str | int) -> str:
    """The click id of node ``node`` on ``board``."""
    return f"{board}:{node}"


def chess_axes(cols: int, rows: int, *, upper: bool = False, rank_up: bool = False) -> dict[str, list[str]]:
    """Axis labels in chess style for a grid board: files ``a, b, c...`` left to right (``A, B,
    C...`` with ``upper``) and ranks ``1, 2, 3...`` from the top row down (from the bottom row up
    with ``rank_up``).  A grid board carries them as ``col_labels``/``row_labels`` so that every
    renderer names squares the way the actions and the log do."""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if upper else "abcdefghijklmnopqrstuvwxyz"
    ranks = [str(rows - y) if rank_up else str(y + 1) for y in range(rows)]
    return {"col_labels": [letters[x] for x in range(cols)], "row_labels": ranks}


def generic_scene(view: dict[str, Any], actions: Sequence[tuple] = ()) -> Scene:
    """A fallback scene: the view's top-level fields as a panel, no board."""
    state = view.get("state", {})
    rows = [[str(k), _short(v)] for k, v in state.items()] if isinstance(state, dict) else []
    return {
        "title": view.get("game", ""),
        "status": _status(view),
        "boards": [],
        "panels": [{"title": "State", "rows": rows}],
        "targets": [],
    }


def _status(view: dict[str, Any]) -> str:
    if view.get("over"):
        res = view.get("results") or {}
        return "Game over: " + (res.get("reason") or "finished")
    acting = view.get("acting")
    return f"Player {acting + 1} to act" if acting is not None else ""


def _short(v: Any) -> str:
    s = str(v)
    return s if len(s) <= 80 else s[:77] + "..."


def status_line(view: dict[str, Any], seat_names: Sequence[str] | None = None) -> str:
    """A standard status line: whose turn it is, or how the game ended."""
    if view.get("over"):
        res = view.get("results") or {}
        winners = res.get("winners") or []
        names = [seat_names[w] if seat_names else f"Player {w + 1}" for w in winners]
        if res.get("truncated"):
            return "Game stopped by the turn cap"
        who = ", ".join(names) if names else "nobody"
        return f"Game over: {who} won ({res.get('reason', '')})"
    acting = view.get("acting")
    if acting is None:
        return ""
    name = seat_names[acting] if seat_names else f"Player {acting + 1}"
    return f"{name} to act"


#: Keys whose strings are ids, never shown: left alone when seats are renamed.
_ID_KEYS = frozenset({"id", "clicks", "node", "seat", "action", "kind", "shape", "color", "fill", "side", "data", "index"})


def rename_seats(obj: Any, defaults: Sequence[str], names: Sequence[str]) -> Any:
    """``obj`` (a scene, an event list, action labels) with the names players chose for their seats.

    Scenes and logs name seats "Player 2" (or "Hero 2", the game's own numbered seat name).  For
    each seat whose ``names[s]`` differs from the game's default ``defaults[s]``, every such
    mention becomes the chosen name ("Ada to act"; "Bob (Hero 2) moves to B3" keeps the role), and
    a panel that belongs to the seat gets the name in its title.  Ids are left alone.  Returns a
    new object; ``obj`` is not changed."""
    import re

    repl: dict[str, str] = {}
    titles: dict[int, str] = {}
    roles: dict[str, str] = {}  # an unnumbered role ("Wizard") is renamed where it starts the status line
    for s, (default, name) in enumerate(zip(defaults, names)):
        name = str(name).strip()
        if not name or name == default:
            continue
        titles[s] = name
        repl[f"Player {s + 1}"] = name
        if re.fullmatch(r"[A-Z][a-z]+ \d+", default) and not default.startswith("Player "):
            repl[default] = f"{name} ({default})"
        elif not default.startswith("Player "):
            roles[default] = f"{name} ({default})"
    if not repl and not roles:
        return obj
    pattern = re.compile(r"\b(" + "|".join(re.escape(k) for k in sorted(repl, key=len, reverse=True)) + r")(?!\d)") if repl else None

    def text(s: str) -> str:
        return pattern.sub(lambda m: repl[m.group(1)], s) if pattern else s

    def walk(x: Any, key: str = "") -> Any:
        if key in _ID_KEYS:
            return x
        if isinstance(x, str):
            if key == "status":
                for role, named in roles.items():
                    if x.startswith(role + " "):
                        x = named + x[len(role):]
                        break
            return text(x)
        if isinstance(x, list):
            return [walk(v, key) for v in x]
        if isinstance(x, tuple):
            return tuple(walk(v, key) for v in x)
        if isinstance(x, dict):
            out = {k: walk(v, k) for k, v in x.items()}
            seat = x.get("seat")
            if "rows" in x and isinstance(seat, int) and not isinstance(seat, bool) and seat in titles:
                title = str(out.get("title") or "")
                if titles[seat] not in title:  # a panel titled by role ("Wizard", "Green (Marius)")
                    out["title"] = f"{titles[seat]} · {title}" if title else titles[seat]
            return out
        return x

    return walk(obj)
