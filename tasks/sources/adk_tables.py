"""Read-only access to the tables of ADK's session services, with SQLAlchemy (no ADK import).

ADK 2.x stores sessions in two tables that ``SqliteSessionService`` and ``DatabaseSessionService``
(schema v1) share by name: ``sessions(app_name, user_id, id, state, create_time, update_time)`` and
``events(id, app_name, user_id, session_id, invocation_id, timestamp, event_data)``. They differ in
column types only: the SQLite service keeps epoch seconds (REAL) and JSON text; the database service
keeps naive UTC datetimes, and JSONB on Postgres. The tables are reflected, so both read the same.
Connections are set read-only (``PRAGMA query_only`` on SQLite, a read-only transaction on Postgres).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import Column, MetaData, Table, and_, create_engine, event, or_, select
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.exc import NoSuchTableError
from sqlalchemy.types import DateTime

from tasks.clock import utc
from tasks.errors import SourceError
from tasks.sources.triggers import PulledEvent

#: Async drivers ADK is configured with, and the sync driver the batch source reads with instead.
_SYNC_DRIVERS = {"sqlite+aiosqlite": "sqlite", "postgresql+asyncpg": "postgresql+psycopg"}


@dataclass(frozen=True)
class SessionRow:
    app_name: str
    user_id: str
    session_id: str
    state: dict[str, Any]
    update_time: datetime


def sync_url(url: str) -> URL:
    parsed = make_url(url)
    return parsed.set(drivername=_SYNC_DRIVERS.get(parsed.drivername, parsed.drivername))


def identity(url: str) -> str:
    """The database as recorded in the source state: its URL without the password."""
    return sync_url(url).render_as_string(hide_password=True)


def to_utc(value: Any) -> datetime:
    """Epoch seconds, naive UTC datetimes (ADK's convention) or aware ones, as aware UTC."""
    if isinstance(value, int | float):
        return datetime.fromtimestamp(float(value), tz=UTC)
    if isinstance(value, str):
        return utc(datetime.fromisoformat(value))
    if isinstance(value, datetime):
        return utc(value)
    raise SourceError(f"not a time in the ADK session database: {value!r}")


def _json(value: Any) -> dict[str, Any]:
    decoded = json.loads(value) if isinstance(value, str | bytes) else value
    return decoded if isinstance(decoded, dict) else {}


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _text(content: Any) -> str:
    """The text parts of an ADK ``Content`` (thoughts left out), one per line."""
    parts = _dict(content).get("parts")
    texts = [p.get("text") for p in parts if isinstance(p, dict) and not p.get("thought")] if isinstance(
        parts, list) else []  # fmt: skip
    return "\n".join(t for t in texts if isinstance(t, str))


def parse_event(event_id: str, column_time: Any, data: Any) -> PulledEvent | None:
    """An ADK event from its ``event_data`` JSON; None for partial (streamed) chunks."""
    body = _json(data)
    if body.get("partial"):
        return None
    stamp = body.get("timestamp")
    when = to_utc(stamp if isinstance(stamp, int | float) else column_time)
    text, summary = _text(body.get("content")), None
    compaction = _dict(body.get("actions")).get("compaction")
    if isinstance(compaction, dict):
        summary = _text(compaction.get("compacted_content") or compaction.get("compactedContent"))
        text = ""  # a summary of earlier turns, not a new message
    author = body.get("author")
    return PulledEvent(id=event_id, author=author if isinstance(author, str) else "user", timestamp=when, text=text,
                       compaction=summary)  # fmt: skip


class AdkTables:
    """The two tables of one ADK session database, opened read-only."""

    def __init__(self, url: str) -> None:
        self.url = sync_url(url)
        self.engine: Engine = create_engine(self.url)
        event.listen(self.engine, "connect", self._read_only)
        meta = MetaData()
        try:
            self.sessions = Table("sessions", meta, autoload_with=self.engine)
            self.events = Table("events", meta, autoload_with=self.engine)
        except NoSuchTableError as exc:
            self.engine.dispose()
            raise SourceError(f"{identity(url)} has no ADK session tables ({exc})") from exc
        if "event_data" not in self.events.c:
            self.engine.dispose()
            raise SourceError(
                f"{identity(url)} uses ADK's old (v0, pickled) session schema; migrate it with "
                "python -m google.adk.sessions.migration.migration_runner first"
            )

    @staticmethod
    def exists(url: str) -> bool:
        """False for a SQLite file that is not there (reading must not create it)."""
        parsed = sync_url(url)
        if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
            return True
        path = parsed.database.removeprefix("file:").split("?")[0]
        return Path(path).is_file()

    def _read_only(self, dbapi_conn: Any, _record: Any) -> None:
        cursor = dbapi_conn.cursor()
        if self.url.get_backend_name() == "sqlite":
            cursor.execute("PRAGMA query_only = ON")
        elif self.url.get_backend_name() == "postgresql":
            cursor.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
            dbapi_conn.commit()  # a SET inside the driver's open transaction would be rolled back
        cursor.close()

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def connect(self) -> Iterator[Connection]:
        with self.engine.connect() as conn:
            yield conn

    def _bind(self, col: Column[Any], when: datetime) -> Any:
        """A time as the column stores it: a naive UTC datetime, or epoch seconds."""
        return utc(when).replace(tzinfo=None) if isinstance(col.type, DateTime) else utc(when).timestamp()

    def _session(self, row: Any) -> SessionRow:
        return SessionRow(app_name=row.app_name, user_id=row.user_id, session_id=row.id,
                          state=_json(row.state), update_time=to_utc(row.update_time))  # fmt: skip

    def changed_since(self, conn: Connection, since: datetime | None) -> list[SessionRow]:
        """Sessions updated at or after ``since`` (all of them without a watermark), oldest first."""
        s = self.sessions
        query = select(s.c.app_name, s.c.user_id, s.c.id, s.c.state, s.c.update_time).order_by(s.c.update_time)
        if since is not None:
            query = query.where(s.c.update_time >= self._bind(s.c.update_time, since))
        return [self._session(r) for r in conn.execute(query)]

    def by_keys(self, conn: Connection, keys: Sequence[tuple[str, str, str]]) -> list[SessionRow]:
        """The sessions with these (app, user, id) keys that still exist."""
        s, out = self.sessions, []
        for start in range(0, len(keys), 200):
            match = [and_(s.c.app_name == a, s.c.user_id == u, s.c.id == i) for a, u, i in keys[start : start + 200]]
            query = select(s.c.app_name, s.c.user_id, s.c.id, s.c.state, s.c.update_time).where(or_(*match))
            out += [self._session(r) for r in conn.execute(query)]
        return out

    def events_after(self, conn: Connection, session: SessionRow, after: datetime | None) -> list[PulledEvent]:
        """The session's events from ``after`` on (one second of slack for the column's precision)."""
        e = self.events
        where = [e.c.app_name == session.app_name, e.c.user_id == session.user_id, e.c.session_id == session.session_id]
        if after is not None:
            where.append(e.c.timestamp >= self._bind(e.c.timestamp, after - timedelta(seconds=1)))
        query = select(e.c.id, e.c.timestamp, e.c.event_data).where(*where)
        events = (parse_event(r.id, r.timestamp, r.event_data) for r in conn.execute(query))
        return sorted((ev for ev in events if ev is not None), key=lambda ev: (ev.timestamp, ev.id))


def after_cut(events: Iterable[PulledEvent], cut: datetime | None, cut_ids: Iterable[str]) -> list[PulledEvent]:
    """Events not taken yet: later than the cut, or at the cut's very time but not among its events."""
    if cut is None:
        return list(events)
    taken = set(cut_ids)
    return [e for e in events if e.timestamp > cut or (e.timestamp == cut and e.id not in taken)]


def up_to_cut(events: Iterable[PulledEvent], cut: datetime, cut_ids: Iterable[str]) -> list[PulledEvent]:
    """Events a cut included: earlier than its time, or at its time and among its events."""
    taken = set(cut_ids)
    return [e for e in events if e.timestamp < cut or (e.timestamp == cut and e.id in taken)]
