"""The Summoner's Quest board: a clockwise ring of 32 spaces and a 13-space centre.

Spaces are plain ints.  The ring is ``0..31`` (clockwise), then each gate's
path ``gate, hall I, hall II`` for sections 0..3, then the chamber::

    ring 0..31      temple, focus, focus, focus, PORTAL, focus, focus, focus  (x4)
    32 + 3k         mana gate k (attached to the portal 8k + 4)
    33 + 3k         hall of myth I of gate k
    34 + 3k         hall of myth II of gate k
    44              chamber of victory

The layout is read from ``data/board.json`` (designed content) and validated
with clear :class:`ContentError` messages.  Distances for spell ranges are
precomputed per combination of open gates (16 tables).
"""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Any

from boardlab.engine import ContentError, load_json_file

RING = 32
KINDS_RING = ("temple", "focus", "portal")


def _code(i: int, kind: str, sp: dict) -> str:
    """A space's board code: the first letter of its name and ``T`` (temple), ``P`` (portal) or
    its place in the section (focus points) on the ring (``NT``, ``N1``, ``NP``); ``G1``-``G4`` for
    the mana gates (as "open gate 1" numbers them), ``H1a``/``H1b`` for the halls behind gate 1,
    ``CV`` for the chamber."""
    if i < RING:
        letter = str(sp.get("name", "R"))[:1].upper() or "R"
        return letter + ("T" if kind == "temple" else "P" if kind == "portal" else str(i % 8))
    if kind == "chamber":
        return "CV"
    k, j = divmod(i - RING, 3)
    return f"H{k + 1}{'ab'[j - 1]}" if j else f"G{k + 1}"


class Board:
    """Static board geometry shared by every state of a game."""

    __slots__ = ("ids", "names", "kinds", "fwd", "back", "gate_of_portal", "portal_of_gate",
                 "gate_of_space", "codes", "temples", "portals", "chamber", "size", "_dist", "index")

    def __init__(self, doc: Any, path: str) -> None:
        def bad(msg: str) -> ContentError:
            return ContentError(f"board file {path}: {msg}")

        if not isinstance(doc, dict):
            raise bad("must be a JSON object with 'ring' and 'centre'")
        ring, centre = doc.get("ring"), doc.get("centre")
        if not isinstance(ring, list) or len(ring) != RING:
            raise bad(f"'ring' must list exactly {RING} spaces")
        if not isinstance(centre, list) or len(centre) != 13:
            raise bad("'centre' must list exactly 13 spaces (4 gates, 8 halls, 1 chamber)")
        for i, sp in enumerate(ring + centre):
            if not isinstance(sp, dict) or not isinstance(sp.get("id"), str) or not isinstance(sp.get("kind"), str):
                raise bad(f"space #{i} needs a string 'id' and 'kind'")
        ids = [sp["id"] for sp in ring] + [sp["id"] for sp in centre]
        if len(set(ids)) != len(ids):
            raise bad("space ids must be unique")
        for s in range(4):
            kinds = [sp["kind"] for sp in ring[8 * s: 8 * s + 8]]
            if sorted(kinds) != sorted(["temple", "portal"] + ["focus"] * 6):
                raise bad(f"section {s} must hold 6 focus points, 1 portal and 1 temple, got {kinds}")
        index = {sp["id"]: i for i, sp in enumerate(ring)}
        gates = [sp for sp in centre if sp["kind"] == "gate"]
        halls = [sp for sp in centre if sp["kind"] == "hall"]
        chambers = [sp for sp in centre if sp["kind"] == "chamber"]
        if len(gates) != 4 or len(halls) != 8 or len(chambers) != 1:
            raise bad("the centre needs 4 gates, 8 halls and 1 chamber")
        by_id = {sp["id"]: sp for sp in centre}
        order: list[dict] = []
        portals_seen = []
        for g in sorted(gates, key=lambda sp: index.get(sp.get("portal"), 99)):
            portal = g.get("portal")
            if portal not in index or ring[index[portal]]["kind"] != "portal":
                raise bad(f"gate {g['id']} must name a ring portal in 'portal', got {portal!r}")
            if portal in portals_seen:
                raise bad(f"two gates are attached to portal {portal}")
            portals_seen.append(portal)
            path = [g]
            cur = g
            for _ in range(2):
                nxt = by_id.get(cur.get("next"))
                if nxt is None or nxt["kind"] != "hall":
                    raise bad(f"{cur['id']}: 'next' must lead to a hall (gate, hall, hall, chamber)")
                path.append(nxt)
                cur = nxt
            if by_id.get(cur.get("next")) is not chambers[0]:
                raise bad(f"{cur['id']}: the second hall must lead to the chamber")
            order.extend(path)
        if len({sp["id"] for sp in order}) != 12:
            raise bad("each hall must belong to exactly one gate path")
        spaces = ring + order + chambers
        self.ids = [sp["id"] for sp in spaces]
        self.kinds = [sp["kind"] for sp in spaces]
        # the short names drawn on the board; every action and log line names a space by its
        # full name followed by this code, e.g. "North temple (NT)"
        self.codes = [str(sp["code"]) if isinstance(sp.get("code"), str) else _code(i, self.kinds[i], sp)
                      for i, sp in enumerate(spaces)]
        if len(set(self.codes)) != len(self.codes):
            raise bad("space codes must be unique")
        self.names = [f"{sp.get('name', sp['id'])} ({code})" for sp, code in zip(spaces, self.codes)]
        self.size = len(spaces)
        self.index = {sid: i for i, sid in enumerate(self.ids)}
        self.chamber = self.size - 1
        self.temples = [i for i in range(RING) if self.kinds[i] == "temple"]
        self.portals = [i for i in range(RING) if self.kinds[i] == "portal"]
        self.gate_of_portal = {}
        self.portal_of_gate = {}
        self.gate_of_space = {}
        fwd = [(i + 1) % RING for i in range(RING)] + [0] * 13
        back = [(i - 1) % RING for i in range(RING)] + [0] * 13
        for k in range(4):
            g = RING + 3 * k
            p = index[order[3 * k]["portal"]]
            self.gate_of_portal[p] = k
            self.portal_of_gate[k] = p
            for j in range(3):
                self.gate_of_space[g + j] = k
            fwd[g], fwd[g + 1], fwd[g + 2] = g + 1, g + 2, self.chamber
            back[g], back[g + 1], back[g + 2] = p, g, g + 1
        fwd[self.chamber] = -1
        back[self.chamber] = -1
        self.fwd = fwd
        self.back = back
        self._dist: dict[int, list[list[int]]] = {}

    @classmethod
    def load(cls, path: str | Path) -> "Board":
        return cls(load_json_file(path, "board file"), str(path))

    def gate_space(self, k: int) -> int:
        return RING + 3 * k

    def in_centre(self, p: int) -> bool:
        return p >= RING

    def distances(self, open_mask: int) -> list[list[int]]:
        """All-pairs step distances (either direction) with the gates in ``open_mask`` open."""
        table = self._dist.get(open_mask)
        if table is None:
            adj: list[list[int]] = [[] for _ in range(self.size)]

            def link(a: int, b: int) -> None:
                adj[a].append(b)
                adj[b].append(a)

            for i in range(RING):
                link(i, (i + 1) % RING)
            for k in range(4):
                g = RING + 3 * k
                if open_mask >> k & 1:
                    link(self.portal_of_gate[k], g)
                link(g, g + 1)
                link(g + 1, g + 2)
                link(g + 2, self.chamber)
            table = []
            for src in range(self.size):
                d = [99] * self.size
                d[src] = 0
                q = deque([src])
                while q:
                    u = q.popleft()
                    for v in adj[u]:
                        if d[v] == 99:
                            d[v] = d[u] + 1
                            q.append(v)
                table.append(d)
            self._dist[open_mask] = table
        return table

    def forward(self, p: int, n: int) -> list[tuple[int, int, tuple[int, ...]]]:
        """Clockwise destinations ``n`` steps from ``p``: ``(dest, gate entered or -1, ring spaces passed)``.

        At every portal on the way (the start included) the path may turn into
        that portal's gate.  Reaching the chamber ends the move early.
        """
        out: list[tuple[int, int, tuple[int, ...]]] = []
        self._walk(p, n, -1, (), out)
        return out

    def _walk(self, p: int, n: int, gate: int, passed: tuple[int, ...], out: list) -> None:
        if n == 0 or p == self.chamber:
            out.append((p, gate, passed))
            return
        if p < RING:
            k = self.gate_of_portal.get(p)
            if k is not None:
                self._walk(RING + 3 * k, n - 1, k, passed, out)
            nxt = (p + 1) % RING
            self._walk(nxt, n - 1, gate, passed + (nxt,), out)
        else:
            self._walk(self.fwd[p], n - 1, gate, passed, out)

    def backward(self, p: int, n: int) -> int:
        """The space ``n`` steps counter-clockwise (out of the halls toward the ring)."""
        for _ in range(n):
            if p == self.chamber:
                break
            p = self.back[p]
        return p


def default_board_path() -> Path:
    return Path(__file__).with_name("data") / "board.json"
