"""Persistence: every match is its configuration, seed, seats and action log.

SQLite in the data directory by default; any SQLAlchemy URL works (set
``BOARDLAB_DATABASE_URL``, e.g. ``postgresql+psycopg://user:pw@host/boardlab``).
A match's state is never stored: it is rebuilt by replaying the action log
from the seed, so a restart resumes every game exactly.  Each accepted action
is committed in its own transaction before the server acknowledges it.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    delete,
    event,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker


class Base(DeclarativeBase):
    pass


class MatchRow(Base):
    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    variant: Mapped[str] = mapped_column(String(64))
    options: Mapped[str] = mapped_column(Text)  # JSON object of option overrides
    seed: Mapped[int] = mapped_column(BigInteger)
    seats: Mapped[str] = mapped_column(Text)  # JSON list of seat records (token hashes, not tokens)
    host_hash: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), default="playing")  # playing | over
    results: Mapped[str | None] = mapped_column(Text, nullable=True)
    decisions: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[float] = mapped_column(Float)


class ActionRow(Base):
    __tablename__ = "actions"

    match_id: Mapped[str] = mapped_column(String(32), ForeignKey("matches.id"), primary_key=True)
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)  # JSON array
    at: Mapped[float] = mapped_column(Float)


@dataclass(slots=True)
class StoredMatch:
    """A match as stored: everything needed to rebuild it."""

    id: str
    game: str
    players: int
    variant: str
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    host_hash: str
    status: str
    results: dict[str, Any] | None
    created_at: float
    updated_at: float
    actions: list[list[Any]] = field(default_factory=list)
    #: When each action was stored (wall-clock seconds): the clocks are rebuilt from them.
    times: list[float] = field(default_factory=list)


def database_url(data_dir: str | Path | None, url: str | None = None) -> str:
    """The database URL: ``url``, else a SQLite file ``boardlab.sqlite3`` in ``data_dir``."""
    if url:
        return url
    base = Path(data_dir) if data_dir else Path.cwd() / "data"
    base.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{(base / 'boardlab.sqlite3').resolve()}"


def open_store(url: str) -> "Store":
    """A :class:`Store` on ``url``, or a one-line :class:`BoardlabError` saying why it cannot be opened.

    The message names the URL's scheme (``sqlite``, ``postgresql+psycopg``, ...) and the
    database's own first line of complaint, never the password (issue 30, finding 10).
    """
    from sqlalchemy.engine import make_url

    from boardlab.engine.errors import BoardlabError

    try:
        scheme = make_url(url).drivername
    except Exception:
        raise BoardlabError("BOARDLAB_DATABASE_URL is not a database URL (e.g. postgresql+psycopg://user:pw@host/db)") from None
    try:
        return Store(url)
    except Exception as exc:
        first = (str(getattr(exc, "orig", None) or exc).strip().splitlines() or [""])[0]
        first = first.replace(url, "<url>")[:200]
        raise BoardlabError(f"cannot open the database ({scheme}): {type(exc).__name__}: {first}") from None


class Store:
    """Reads and writes matches through SQLAlchemy 2.x."""

    def __init__(self, url: str) -> None:
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            # Wait up to 30 s for another writer's lock (the default 5 s gave
            # "database is locked" under the load benchmark's concurrent writes).
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        self.url = url
        self.engine: Engine = create_engine(url, **kwargs)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        Base.metadata.create_all(self.engine)
        self._session = sessionmaker(self.engine, expire_on_commit=False)

    def close(self) -> None:
        self.engine.dispose()

    # -- writes ------------------------------------------------------------
    def create(self, m: StoredMatch) -> None:
        with self._session.begin() as s:
            s.add(
                MatchRow(
                    id=m.id, game=m.game, players=m.players, variant=m.variant,
                    options=json.dumps(m.options), seed=m.seed, seats=json.dumps(m.seats),
                    host_hash=m.host_hash, status=m.status, results=None, decisions=0,
                    created_at=m.created_at, updated_at=m.updated_at,
                )
            )

    def append_action(
        self, match_id: str, idx: int, seat: int, action: list[Any], results: dict[str, Any] | None
    ) -> None:
        """Commit one accepted action (and the result if it ended the game) atomically."""
        now = time.time()
        with self._session.begin() as s:
            s.add(ActionRow(match_id=match_id, idx=idx, seat=seat, action=json.dumps(action), at=now))
            values: dict[str, Any] = {"decisions": idx + 1, "updated_at": now}
            if results is not None:
                values["status"] = "over"
                values["results"] = json.dumps(results)
            s.execute(update(MatchRow).where(MatchRow.id == match_id).values(**values))

    def truncate(self, match_id: str, keep: int) -> None:
        """Take back every action from index ``keep`` on (a take-back, issue 44), atomically."""
        now = time.time()
        with self._session.begin() as s:
            s.execute(delete(ActionRow).where(ActionRow.match_id == match_id, ActionRow.idx >= keep))
            s.execute(update(MatchRow).where(MatchRow.id == match_id).values(decisions=keep, updated_at=now))

    def finish(self, match_id: str, results: dict[str, Any]) -> None:
        """End a match without an action (a resignation, a loss on time: issue 44) with ``results``."""
        now = time.time()
        with self._session.begin() as s:
            s.execute(update(MatchRow).where(MatchRow.id == match_id).values(
                status="over", results=json.dumps(results), updated_at=now))

    # -- reads -------------------------------------------------------------
    def load(self, match_id: str) -> StoredMatch | None:
        with self._session() as s:
            row = s.get(MatchRow, match_id)
            if row is None:
                return None
            acts = s.execute(
                select(ActionRow.action, ActionRow.at).where(ActionRow.match_id == match_id).order_by(ActionRow.idx)
            ).all()
            m = _stored(row)
            m.actions = [json.loads(a) for a, _at in acts]
            m.times = [at for _a, at in acts]
            return m

    def exists(self, match_id: str) -> bool:
        """Whether a match is stored (its row only: nothing is read or rebuilt)."""
        with self._session() as s:
            return s.execute(select(MatchRow.id).where(MatchRow.id == match_id)).first() is not None

    def ids(self, status: str | None = None, with_bots: bool = False) -> list[str]:
        """Match ids, oldest first; ``with_bots``: only matches with a bot seat (those a restart resumes)."""
        with self._session() as s:
            q = select(MatchRow.id, MatchRow.seats)
            if status is not None:
                q = q.where(MatchRow.status == status)
            rows = s.execute(q.order_by(MatchRow.created_at)).all()
            if with_bots:
                return [mid for mid, seats in rows if any(x.get("kind") == "bot" for x in json.loads(seats))]
            return [mid for mid, _seats in rows]

    def expire(self, before: float, keep: set[str] | frozenset[str] = frozenset()) -> int:
        """Delete unfinished matches last updated before ``before`` (wall-clock seconds), except ``keep``;
        returns how many (issue 45: abandoned matches were kept, and replayed at start-up, for ever)."""
        with self._session.begin() as s:
            old = [mid for mid in s.execute(
                select(MatchRow.id).where(MatchRow.status == "playing", MatchRow.updated_at < before)
            ).scalars() if mid not in keep]
            for i in range(0, len(old), 500):
                part = old[i: i + 500]
                s.execute(delete(ActionRow).where(ActionRow.match_id.in_(part)))
                s.execute(delete(MatchRow).where(MatchRow.id.in_(part)))
            return len(old)

    def recent(self, limit: int = 30) -> list[StoredMatch]:
        with self._session() as s:
            rows = s.execute(select(MatchRow).order_by(MatchRow.updated_at.desc()).limit(limit)).scalars()
            return [_stored(r) for r in rows]


def _stored(row: MatchRow) -> StoredMatch:
    return StoredMatch(
        id=row.id, game=row.game, players=row.players, variant=row.variant,
        options=json.loads(row.options), seed=row.seed, seats=json.loads(row.seats),
        host_hash=row.host_hash, status=row.status,
        results=json.loads(row.results) if row.results else None,
        created_at=row.created_at, updated_at=row.updated_at,
    )


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
