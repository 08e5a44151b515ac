"""The spool: where the ADK memory service queues sessions for the next ingest run.

It is a database with the schema of ADK's ``SqliteSessionService`` (``sessions`` and ``events``,
epoch seconds, JSON text), so the ADK database source reads it like any ADK session database, with
the same segments and exactly-once bookkeeping. Queueing inserts the events not there yet and marks
the session ended, so it is taken by the next run: a session queued five times is one session, and
one queued again after it grew yields only its new events. Plain SQLAlchemy, no ADK import.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Column, Float, MetaData, String, Table, Text, and_, create_engine, insert, select, update

from tasks.clock import now
from tasks.sources.adk_tables import sync_url

_META = MetaData()
SESSIONS = Table(
    "sessions", _META,
    Column("app_name", String(128), primary_key=True), Column("user_id", String(128), primary_key=True),
    Column("id", String(128), primary_key=True), Column("state", Text, nullable=False),
    Column("create_time", Float, nullable=False), Column("update_time", Float, nullable=False),
)  # fmt: skip
EVENTS = Table(
    "events", _META,
    Column("id", String(128), primary_key=True), Column("app_name", String(128), primary_key=True),
    Column("user_id", String(128), primary_key=True), Column("session_id", String(128), primary_key=True),
    Column("invocation_id", String(256), nullable=False), Column("timestamp", Float, nullable=False),
    Column("event_data", Text, nullable=False),
)  # fmt: skip


@dataclass(frozen=True)
class SpooledEvent:
    """An event as ADK serialises it (``Event.model_dump(mode="json", exclude_none=True)``)."""

    id: str
    invocation_id: str
    timestamp: float
    data: Mapping[str, Any]


def enqueue(url: str, app_name: str, user_id: str, session_id: str, events: Sequence[SpooledEvent],
            end_key: str) -> int:  # fmt: skip
    """Queue a session's events (those not queued yet) and mark it ended; returns how many were new.

    The session's ``update_time`` moves only when an event is new, so queueing the same session
    again changes nothing and the next run finds nothing new.
    """
    target = sync_url(url)
    if target.get_backend_name() == "sqlite" and target.database and target.database != ":memory:":
        Path(target.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(target)
    try:
        _META.create_all(engine)
        with engine.begin() as conn:
            key = and_(SESSIONS.c.app_name == app_name, SESSIONS.c.user_id == user_id, SESSIONS.c.id == session_id)
            known = conn.execute(select(SESSIONS.c.state).where(key)).first()
            of_session = and_(EVENTS.c.app_name == app_name, EVENTS.c.user_id == user_id,
                              EVENTS.c.session_id == session_id)  # fmt: skip
            have = set(conn.execute(select(EVENTS.c.id).where(of_session)).scalars())
            fresh = {e.id: e for e in events if e.id not in have}
            stamp = now().timestamp()
            if known is None:
                state = json.dumps({end_key: True})
                conn.execute(insert(SESSIONS).values(app_name=app_name, user_id=user_id, id=session_id, state=state,
                                                     create_time=stamp, update_time=stamp))  # fmt: skip
            elif fresh or not json.loads(known.state).get(end_key):
                state = json.dumps(json.loads(known.state) | {end_key: True})
                conn.execute(update(SESSIONS).where(key).values(state=state, update_time=stamp))
            for event in fresh.values():
                conn.execute(insert(EVENTS).values(
                    id=event.id, app_name=app_name, user_id=user_id, session_id=session_id,
                    invocation_id=event.invocation_id, timestamp=event.timestamp,
                    event_data=json.dumps(dict(event.data), ensure_ascii=False),
                ))  # fmt: skip
        return len(fresh)
    finally:
        engine.dispose()
