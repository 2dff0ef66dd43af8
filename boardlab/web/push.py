"""Pushing live updates to WebSocket pages: per-connection send queues and incremental updates.

Every WebSocket gets an :class:`Outbox`: a bounded queue of encoded messages
and its own sender task.  Producers (:meth:`Pusher.broadcast`, the socket's own
replies) only *enqueue*; nothing on the match's path ever awaits a socket.  A
page that does not read lets its queue fill; when a message does not fit,
the socket is dropped (closed with :data:`CLOSE_SLOW`) and never slows a
match or another page.

After the first ``snapshot``, a page receives ``update`` messages::

    {"type": "update", "seat": K, "from": OLD_ID, "state_id": NEW_ID,
     "patch": [...], "events_new": [...]}

``patch`` turns the previous snapshot (without ``events``) into the new one
(see :func:`diff` for the operations); ``events_new`` are the seat's redacted
events since ``from`` (when the seat's earlier events changed, a full
``events`` list is sent instead).  A page whose ``state_id`` is not ``from``
asks for a fresh snapshot (``hello``).  :func:`apply_update` is the reference
implementation; ``static/game.js`` mirrors it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import weakref
from difflib import SequenceMatcher
from typing import Any

log = logging.getLogger("boardlab.web")

#: Messages a socket may have waiting before it is dropped.
DEFAULT_QUEUE = 64
#: WebSocket close code for a page dropped because it did not read its messages.
CLOSE_SLOW = 4008
CLOSE_SLOW_REASON = "too slow: the send queue is full; reconnect for a fresh snapshot"
#: Seconds a dropped socket gets to take its close frame before the connection is aborted.
CLOSE_GRACE = 2.0


_ENCODER = json.JSONEncoder(separators=(",", ":"))  # made once: json.dumps with options builds one per call


def encode(msg: Any) -> str:
    """Compact JSON text of ``msg``."""
    return _ENCODER.encode(msg)


class Outbox:
    """One WebSocket's bounded send queue and the task that drains it."""

    __slots__ = ("ws", "queue", "task", "closed", "seat", "sent_id", "dropped", "_closer", "_finishing", "heard")

    def __init__(self, ws: Any, size: int = DEFAULT_QUEUE) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[str] = asyncio.Queue(maxsize=max(1, size))
        self.closed = asyncio.Event()
        self.seat: int | None = None
        self.sent_id: int | None = None  # state id of the last snapshot/update queued for this page
        self.dropped = False
        self._closer: asyncio.Task | None = None
        self._finishing = False
        #: When the page last said something that keeps its match busy (a hello, a move): ``time.monotonic()``.
        self.heard = time.monotonic()
        self.task = asyncio.get_running_loop().create_task(self._run())

    def push(self, msg: dict[str, Any] | str) -> bool:
        """Queue ``msg`` without waiting; drop the socket when the queue is full.  False if not queued."""
        if self.closed.is_set():
            return False
        try:
            self.queue.put_nowait(msg if isinstance(msg, str) else encode(msg))
            return True
        except asyncio.QueueFull:
            self.drop()
            return False

    def finish(self, code: int, reason: str) -> None:
        """Close the socket with ``code`` once what is queued has been sent (no more messages after)."""
        if self.closed.is_set() or self._finishing:
            return
        try:
            self.queue.put_nowait((code, reason))  # type: ignore[arg-type]
            self._finishing = True
        except asyncio.QueueFull:
            self.drop(code, reason, quiet=True)

    async def _run(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if isinstance(text, tuple):  # finish(): the close comes after the queued messages
                    self.closed.set()
                    self._closer = asyncio.get_running_loop().create_task(self._close(*text))
                    return
                await self.ws.send_text(text)
        except asyncio.CancelledError:
            raise
        except Exception:  # the socket went away: stop sending, the handler notices the disconnect
            self.closed.set()

    def drop(self, code: int = CLOSE_SLOW, reason: str = CLOSE_SLOW_REASON, quiet: bool = False) -> None:
        """Stop sending, discard what is queued and close the socket with ``code`` (in the background)."""
        if self.closed.is_set():
            return
        self.dropped = True
        self.closed.set()
        self.task.cancel()
        while not self.queue.empty():
            self.queue.get_nowait()
        if not quiet:
            log.info("dropping a WebSocket that does not read (seat %s)", self.seat)
        self._closer = asyncio.get_running_loop().create_task(self._close(code, reason))

    async def _close(self, code: int, reason: str) -> None:
        # The close frame goes out once the page's buffers have room.  A page that never reads
        # again would hold its buffers until the connection died: after CLOSE_GRACE seconds the
        # connection is aborted instead, which frees the kernel's and the transport's buffers at once.
        try:
            await asyncio.wait_for(self.ws.close(code=code, reason=reason), CLOSE_GRACE)
        except Exception:
            pass
        transport = transport_of(self.ws)
        if transport is None or transport.is_closing() and transport.get_write_buffer_size() == 0:
            return
        try:
            await asyncio.sleep(CLOSE_GRACE)
        finally:
            if not transport.is_closing() or transport.get_write_buffer_size():
                transport.abort()


    async def aclose(self) -> None:
        """Stop the sender task and wait for a dropped socket's close (the handler is ending)."""
        if self._finishing and not self.task.done():
            try:  # let the last messages and the close frame go out first
                await asyncio.wait_for(asyncio.shield(self.task), CLOSE_GRACE)
            except (asyncio.TimeoutError, asyncio.CancelledError, Exception):
                pass
        self.closed.set()
        self.task.cancel()
        for t in (self.task, self._closer):
            if t is not None:
                try:
                    await t
                except (asyncio.CancelledError, Exception):
                    pass


def transport_of(ws: Any) -> Any:
    """The asyncio transport under a Starlette WebSocket, when served by :mod:`boardlab.web.net`'s protocols."""
    scope = getattr(ws, "scope", None) or {}
    return (scope.get("extensions") or {}).get("boardlab.transport")


# -- incremental updates ------------------------------------------------------
_SCALARS = (str, int, float, bool, type(None))


def _key(x: Any) -> tuple[Any, Any]:
    t = type(x)
    if t is float:
        return (t, repr(x))  # 0.0 == -0.0 in Python, not in JSON text
    return (t, x) if t in _SCALARS else (t, encode(x))


def _diff(old: Any, new: Any, path: list[Any], ops: list[list[Any]]) -> None:
    to, tn = type(old), type(new)
    if to is dict and tn is dict:
        for k in old:
            if k not in new:
                ops.append(["d", path + [k]])
        for k, v in new.items():
            if k in old:
                _diff(old[k], v, path + [k], ops)
            else:
                ops.append(["s", path + [k], v])
    elif to is list and tn is list:
        # Items compared by type and value (in Python 1 == True == 1.0; on the wire they differ),
        # containers by their JSON text.
        if old == new and encode(old) == encode(new):  # the common case, in two calls
            return
        a = [_key(x) for x in old]
        b = [_key(x) for x in new]
        if a == b:  # pragma: no cover - equal text after all (key order); nothing to send
            return
        # Align the items (an inserted card or a removed piece shifts the rest): splice what
        # differs, diff in place what was replaced one for one; from the end, so indices hold.
        sub: list[list[Any]] = []
        for tag, i1, i2, j1, j2 in reversed(SequenceMatcher(None, a, b, autojunk=False).get_opcodes()):
            if tag == "equal":
                continue
            if tag == "replace" and i2 - i1 == j2 - j1:
                for k in range(i2 - i1 - 1, -1, -1):
                    _diff(old[i1 + k], new[j1 + k], path + [i1 + k], sub)
            else:
                sub.append(["p", path, i1, i2 - i1, new[j1:j2]])
        # a list whose items mostly changed is cheaper sent whole
        if len(sub) > 3 and len(encode(sub)) > len(encode(new)) + 8 * len(path) + 16:
            ops.append(["s", path, new])
        else:
            ops.extend(sub)
    elif to is not tn or old != new or (to is float and repr(old) != repr(new)):
        ops.append(["s", path, new])


def diff(old: dict[str, Any], new: dict[str, Any]) -> list[list[Any]]:
    """Operations turning JSON value ``old`` into ``new``.

    Each is ``["s", path, value]`` (set), ``["d", path]`` (delete a key) or
    ``["p", path, start, count, items]`` (splice the list at ``path``: remove
    ``count`` items at ``start`` and insert ``items`` there); a path is a list of
    keys and indices.  Applied in order, each operation's indices refer to the
    list as the operations before it left it.
    """
    ops: list[list[Any]] = []
    _diff(old, new, [], ops)
    return ops


def apply_patch(doc: Any, ops: list[list[Any]]) -> Any:
    """Apply :func:`diff` operations to ``doc`` in place; returns the (possibly new) root."""
    for op in ops:
        kind, path = op[0], op[1]
        if kind == "s" and not path:
            doc = op[2]
            continue
        if kind == "p":
            target = doc
            for p in path:
                target = target[p]
            target[op[2]: op[2] + op[3]] = op[4]
            continue
        parent = doc
        for p in path[:-1]:
            parent = parent[p]
        if kind == "s":
            parent[path[-1]] = op[2]
        elif kind == "d":
            del parent[path[-1]]
        else:
            raise ValueError(f"unknown patch operation {kind!r}")
    return doc


def apply_update(snap: dict[str, Any], update: dict[str, Any]) -> dict[str, Any]:
    """The snapshot after ``update`` (a new dict; ``snap`` is left as it was)."""
    if update["from"] != snap["state_id"] or update["seat"] != snap["seat"]:
        raise ValueError(f"update from {update['from']} does not follow state {snap['state_id']}")
    base = json.loads(json.dumps({k: v for k, v in snap.items() if k != "events"}))
    out = apply_patch(base, update["patch"])
    out["events"] = list(snap["events"]) + update["events_new"] if "events_new" in update else update["events"]
    return out


class Feed:
    """What :class:`Pusher` reads from a live match (``boardlab.web.matches`` provides it).

    ``base(match, seat)``: the seat's snapshot without ``events``; ``mark(match)``: the
    match state's :meth:`~boardlab.engine.State.log_mark`; ``events(match, seat, since)``:
    the seat's events after log mark ``since`` (``None``: all of them), or ``None`` when
    ``since`` is not in the log.
    """

    __slots__ = ("base", "mark", "events")

    def __init__(self, base: Any, mark: Any, events: Any) -> None:
        self.base, self.mark, self.events = base, mark, events


class _Sent:
    """What was last pushed to a seat's pages: the snapshot without its events, the log mark, the update here.

    Only the events logged since the last state are built for an update, and the seat's whole
    log is never kept as objects: a full snapshot (first contact, a page that fell behind) is
    encoded from the state when first needed and kept as text for the pages that ask again
    (issue 30: per move, rebuilding and comparing a 2,000-decision log per seat was the largest
    part of the event loop's work, and its copies per seat the largest part of a match's memory).
    """

    __slots__ = ("snap", "mark", "body", "update", "prev_id")

    def __init__(self, feed: Feed, match: Any, seat: int | None, prev: "_Sent | None" = None) -> None:
        self.snap: dict[str, Any] = feed.base(match, seat)
        self.mark = feed.mark(match)
        self.body: str | None = None  # the encoded full snapshot, made when first needed
        self.update: str | None = None  # the encoded update from ``prev_id`` to here
        self.prev_id: int | None = None
        if prev is not None and prev.snap["state_id"] < self.snap["state_id"]:
            self.prev_id = prev.snap["state_id"]
            new = feed.events(match, seat, prev.mark)
            # None: the log is not the one the pages have, so it is sent whole
            whole = feed.events(match, seat, None) if new is None else None
            self.update = encode(_update(seat, prev.snap, self.snap, new, whole))

    def encoded(self, feed: Feed, match: Any) -> str:
        """The full snapshot as text (the match must still be at this state: callers check ``state_id``)."""
        if self.body is None:
            self.body = encode({**self.snap, "events": feed.events(match, self.snap["seat"], None)})
        return self.body


def _update(seat: int | None, old: dict[str, Any], new: dict[str, Any], events_new: list[Any] | None,
            events: list[Any] | None = None) -> dict[str, Any]:
    """The ``update`` message from snapshot ``old`` to ``new`` (both without ``events``) with the seat's
    ``events_new`` since ``old``, or, when those are ``None``, its whole log ``events``."""
    msg: dict[str, Any] = {
        "type": "update", "seat": seat, "from": old["state_id"], "state_id": new["state_id"], "patch": diff(old, new),
    }
    if events_new is None:
        msg["events"] = events
    else:
        msg["events_new"] = events_new
    return msg


def make_update(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The ``update`` message from full snapshot ``old`` to full snapshot ``new`` of the same seat (the
    reference the pusher's incremental messages are checked against)."""
    oe, ne = old["events"], new["events"]
    extends = len(ne) >= len(oe) and ne[: len(oe)] == oe
    return _update(new["seat"], {k: v for k, v in old.items() if k != "events"},
                   {k: v for k, v in new.items() if k != "events"}, ne[len(oe):] if extends else None, ne)


class Pusher:
    """Per match and seat, the last snapshot pushed, so that pages get updates rather than snapshots."""

    def __init__(self, feed: Feed) -> None:
        self.feed = feed
        self._sent: weakref.WeakKeyDictionary[Any, dict[int | None, _Sent]] = weakref.WeakKeyDictionary()

    def forget(self, match: Any) -> None:
        """Drop what was pushed for ``match`` (its last page has gone)."""
        self._sent.pop(match, None)

    def hello(self, match: Any, box: Outbox, state_id: int) -> None:
        """Queue a full snapshot of the match's current state ``state_id`` for a page (first contact, or after a gap).

        The snapshot is built only when no page of that seat was pushed this state yet (a page
        repeating ``hello`` costs an encoded copy, not a scene build: issue 30's never-reading
        sockets sent 10 a second).
        """
        seats = self._sent.setdefault(match, {})
        cur = seats.get(box.seat)
        if cur is None or cur.snap["state_id"] != state_id:
            cur = seats[box.seat] = _Sent(self.feed, match, box.seat)
        box.push(cur.encoded(self.feed, match))
        box.sent_id = state_id

    def broadcast(self, match: Any, boxes: list[Outbox]) -> None:
        """Queue for each page what changed since the last message it got (never waits)."""
        if not boxes:  # no page: nothing to build, and no entry kept for the match
            return
        seats = self._sent.setdefault(match, {})
        fresh: dict[int | None, _Sent] = {}
        for box in boxes:
            if box.closed.is_set():
                continue
            seat = box.seat
            cur = fresh.get(seat)
            if cur is None:
                cur = fresh[seat] = seats[seat] = _Sent(self.feed, match, seat, seats.get(seat))
            new_id = cur.snap["state_id"]
            if box.sent_id == new_id:
                continue
            if cur.update is not None and box.sent_id == cur.prev_id:
                box.push(cur.update)
            else:
                box.push(cur.encoded(self.feed, match))
            box.sent_id = new_id
