"""Browsing one user's memories page by page, and a memory's sources: what the HTTP API and web page read.

A page is sorted newest first by ``(stated_at, row_id)`` and continued by a keyset cursor (the last
row's key), not an offset: a memory written between two page requests lands before the cursor or
after it, and no row that existed throughout is shown twice or skipped. Text search is a
case-insensitive substring match done here on the tenant's rows (never pasted into a Lance filter).
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from tasks.clock import utc
from tasks.consolidate.history import UnknownMemoryError, resolve_memory_id
from tasks.errors import InvalidFilterError
from tasks.store.filters import all_of, eq, is_in, scope, ts_literal
from tasks.store.tables import CHANGES, EPISODES, MEMORIES, Store

#: The columns a listing shows (no vector: 384 floats a row help nobody and cost the read).
LIST_COLUMNS = [
    "row_id", "memory_id", "version", "app_name", "user_id", "topic", "content", "speaker",
    "source_session_id", "source_event_ids", "stated_at", "valid_from", "valid_to", "status",
    "status_reason", "supersedes", "relation", "confirmations", "created_at", "updated_at",
]  # fmt: skip
_COLS = ("memory_id", "row_id", "topic", "status", "session_id")
STATUSES = ("active", "superseded", "deleted", "expired", "archived", "merged", "all")
MAX_LIMIT = 500


@dataclass
class MemoryQuery:
    """What a listing asks for; ``status`` "all" shows every version, ``as_of`` what was held true then."""

    topic: str | None = None
    text: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    as_of: datetime | None = None
    status: str = "active"
    limit: int = 50
    offset: int = 0
    cursor: str | None = None


@dataclass
class MemoryPage:
    items: list[dict[str, Any]] = field(default_factory=list)
    next_cursor: str | None = None
    total: int = 0


def encode_cursor(row: dict[str, Any]) -> str:
    key = [utc(row["stated_at"]).isoformat(), row["row_id"]]
    return base64.urlsafe_b64encode(json.dumps(key).encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    """The (stated_at, row_id) a cursor continues after; a cursor not made here is a clear error."""
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        stamp, row_id = json.loads(base64.urlsafe_b64decode(padded.encode("ascii")))
        return utc(datetime.fromisoformat(stamp)), str(row_id)
    except (ValueError, TypeError, UnicodeError) as exc:
        raise InvalidFilterError("cursor is not one this service returned") from exc


def _where(app_name: str, user_id: str, q: MemoryQuery) -> str:
    if q.status not in STATUSES:
        raise InvalidFilterError(f"status must be one of {', '.join(STATUSES)}")
    clauses = [scope(app_name, user_id), eq("topic", q.topic, _COLS) if q.topic else None]
    if q.as_of is not None:
        t = ts_literal(q.as_of)
        clauses += [f"`valid_from` <= {t}", f"(`valid_to` IS NULL OR `valid_to` > {t})"]
    elif q.status != "all":
        clauses.append(eq("status", q.status, _COLS))
    if q.since is not None:
        clauses.append(f"`stated_at` >= {ts_literal(q.since)}")
    if q.until is not None:
        clauses.append(f"`stated_at` <= {ts_literal(q.until)}")
    return all_of(*clauses)


def memory_page(store: Store, app_name: str, user_id: str, q: MemoryQuery) -> MemoryPage:
    """One page of a user's memories, newest first, with the cursor of the next page (None at the end).

    Only the sort key (and the text, when searching) of the tenant's rows is read and sorted, in Arrow;
    the page's own rows are then read whole by row id, so a page of 10,000 costs little more than of 50.
    """
    if not 1 <= q.limit <= MAX_LIMIT:
        raise InvalidFilterError(f"limit must be between 1 and {MAX_LIMIT}")
    if q.offset < 0:
        raise InvalidFilterError("offset must not be negative")
    where = _where(app_name, user_id, q)
    if not store.has(MEMORIES):
        return MemoryPage()
    cols = ["row_id", "stated_at", *(["content"] if q.text else [])]
    keys = store.table(MEMORIES).search().where(where).select(cols).limit(None).to_arrow()
    if q.text:
        found = pc.match_substring(pc.utf8_lower(keys["content"]), q.text.lower())
        keys = keys.filter(found)
    total = keys.num_rows
    if q.cursor:
        stamp, row_id = decode_cursor(q.cursor)
        at = pa.scalar(stamp, keys.schema.field("stated_at").type)
        before = pc.or_(pc.less(keys["stated_at"], at),
                        pc.and_(pc.equal(keys["stated_at"], at), pc.less(keys["row_id"], row_id)))  # fmt: skip
        keys = keys.filter(before)
    order = pc.sort_indices(keys, sort_keys=[("stated_at", "descending"), ("row_id", "descending")])
    chosen = keys.take(order[q.offset : q.offset + q.limit])["row_id"].to_pylist()
    more = keys.num_rows > q.offset + q.limit
    if not chosen:
        return MemoryPage(total=total)
    by_id = {r["row_id"]: r for r in store.rows(MEMORIES, is_in("row_id", chosen, _COLS), LIST_COLUMNS)}
    items = [by_id[r] for r in chosen if r in by_id]
    return MemoryPage(items=items, next_cursor=encode_cursor(items[-1]) if more and items else None, total=total)


def topics_of(store: Store, app_name: str, user_id: str) -> list[str]:
    """The topics a user's current memories are filed under (the page's topic filter)."""
    if not store.has(MEMORIES):
        return []
    where = all_of(scope(app_name, user_id), eq("status", "active", _COLS))
    topics = store.table(MEMORIES).search().where(where).select(["topic"]).limit(None).to_arrow()["topic"]
    return sorted(str(t) for t in pc.unique(topics).to_pylist())


def owned_memory_id(store: Store, app_name: str, user_id: str, some_id: str) -> str:
    """The lineage id of a memory or row id, only if it belongs to this app and user.

    Another tenant's memory answers as unknown, exactly like a missing one, so ids cannot be probed.
    """
    memory_id = resolve_memory_id(store, some_id)
    where = all_of(scope(app_name, user_id), eq("memory_id", memory_id, _COLS))
    if not store.rows(MEMORIES, where, ["memory_id"]) and not _audited(store, app_name, user_id, memory_id):
        raise UnknownMemoryError(f"no memory with id {some_id!r} for this user")
    return memory_id


def _audited(store: Store, app_name: str, user_id: str, memory_id: str) -> bool:
    where = all_of(scope(app_name, user_id), eq("memory_id", memory_id, _COLS))
    return bool(store.rows(CHANGES, where, ["memory_id"]))


def source_turns(store: Store, app_name: str, user_id: str, session_ids: list[str]) -> list[dict[str, Any]]:
    """What the store keeps of the sessions behind a memory: each session's episode summary and its
    sentences with the event ids they cite (the verbatim turns stay in the session source)."""
    if not session_ids:
        return []
    where = all_of(scope(app_name, user_id), is_in("session_id", sorted(set(session_ids)), _COLS))
    cols = ["session_id", "summary", "sentences", "started_at", "ended_at"]
    return sorted(store.rows(EPISODES, where, cols), key=lambda r: (utc(r["started_at"]), r["session_id"]))
