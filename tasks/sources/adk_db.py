"""Session source over the database behind ADK's ``SqliteSessionService`` / ``DatabaseSessionService``.

Each run reads only the sessions updated since the last run (the ``update_time`` watermark, with a
look-back for writers that commit out of order) plus those left pending, and takes a session when
a trigger fires (:mod:`tasks.sources.triggers`). What it yields is a **segment**: the events after
the previous cut, as a raw session of its own, so a session taken again adds only what is new.

Segments and exactly-once: segment 1 keeps ADK's session id; later ones are ``<id>#<n>`` (and every
segment of an id that itself ends in ``#<digits>``, so no two ids collide). Each is its own ledger
key, content hash and episode. The cut is recorded in the ``source_state`` table when the segment is
pulled; the ledger (or the quarantine) says whether its run committed. A segment whose run died is
yielded again with the very same events, so the ledger and the deterministic ids make it count once,
and a session grows by one segment at a time, in order.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from tasks.clock import now as clock_now
from tasks.errors import SourceError
from tasks.models import QuarantineRecord, stable_id
from tasks.rows import SourceStateRow
from tasks.settings import Settings
from tasks.sources.adk_tables import AdkTables, SessionRow, after_cut, identity, up_to_cut
from tasks.sources.raw import RawEvent, RawSession
from tasks.sources.triggers import PulledEvent, Triggers, take_reason
from tasks.store.filters import all_of, eq, is_in
from tasks.store.schema import LEDGER, QUARANTINE, SOURCE_STATE
from tasks.store.tables import Store, open_store

_COLS = ("state_key", "source", "session_key", "quarantine_id")
_SUFFIXED = re.compile(r"#\d+$")


def _rows_in(store: Store, table: str, key: str, values: Sequence[str]) -> list[dict[str, Any]]:
    """Rows whose ``key`` is one of ``values`` (in chunks, so a big first run stays a few queries)."""
    out: list[dict[str, Any]] = []
    for start in range(0, len(values), 500):
        out += store.rows(table, is_in(key, values[start : start + 500], _COLS))
    return out


def segment_session_id(session_id: str, segment: int) -> str:
    """The session id a segment is stored under (injective: see the module docstring)."""
    if segment == 1 and not _SUFFIXED.search(session_id):
        return session_id
    return f"{session_id}#{segment}"


def state_key(app_name: str, user_id: str, session_id: str) -> str:
    """One progress row per ADK session, shared by every database that holds it (no double take)."""
    return stable_id("adk-session", app_name, user_id, session_id)


@dataclass
class _Pulled:
    raws: list[RawSession]
    states: list[SourceStateRow]


class AdkDbSource:
    """Pulls segments of ADK sessions from one session database; ``now`` is injectable for tests."""

    def __init__(self, url: str, settings: Settings, *, now: datetime | None = None, missing_ok: bool = False):
        self.url, self.settings, self.now, self.missing_ok = url, settings, now, missing_ok
        self.source = identity(url)
        self.triggers = Triggers.from_settings(settings)

    def pull(self, max_raw: int) -> Iterator[RawSession | QuarantineRecord]:
        """Every segment due now; the progress is written before the segments are handed on."""
        if not AdkTables.exists(self.url):  # reading must not create an empty SQLite file
            if self.missing_ok:
                return iter(())
            raise SourceError(f"no ADK session database at {self.source}")
        store = open_store(self.settings)
        tables = AdkTables(self.url)
        try:
            pulled = self._pull(store, tables, max_raw)
        finally:
            tables.close()
        store.upsert(SOURCE_STATE, pulled.states)
        return iter(pulled.raws)

    def _pull(self, store: Store, tables: AdkTables, max_raw: int) -> _Pulled:
        at = self.now or clock_now()
        mark_key = stable_id("adk-watermark", self.source)
        marks = store.rows(SOURCE_STATE, eq("state_key", mark_key, _COLS))
        watermark = marks[0]["seen_update_time"] if marks else None
        open_rows = store.rows(
            SOURCE_STATE, all_of(eq("source", self.source, _COLS), "`pending` = true OR `settled` = false")
        )
        with tables.connect() as conn:
            lookback = timedelta(seconds=self.settings.adk_db_lookback_seconds)
            changed = tables.changed_since(conn, None if watermark is None else watermark - lookback)
            seen = {(s.app_name, s.user_id, s.session_id) for s in changed}
            waiting = [(r["app_name"], r["user_id"], r["session_id"]) for r in open_rows]
            sessions = changed + tables.by_keys(conn, [k for k in waiting if k not in seen])
            states = self._states(store, sessions)
            settled = self._settled(store, list(states.values()))
            raws: list[RawSession] = []
            out: list[SourceStateRow] = []
            for session in sessions:
                row = states.get(state_key(session.app_name, session.user_id, session.session_id))
                if row is not None and row.seen_update_time == session.update_time and not row.pending:
                    if not row.settled and row.state_key in settled:  # its run committed: record that
                        out.append(row.model_copy(update={"settled": True, "updated_at": at}))
                    if row.settled or row.state_key in settled:
                        continue  # nothing new since it was last read
                redo = row is not None and not row.settled and row.state_key not in settled
                start = None if row is None else row.prev_cut_time if redo else row.cut_time
                events = tables.events_after(conn, session, start)
                new_row, raw = self._advance(session, row, settled, events, at, max_raw)
                out.append(new_row)
                if raw is not None:
                    raws.append(raw)
        gone = set(waiting) - {(s.app_name, s.user_id, s.session_id) for s in sessions}
        for row_dict in open_rows:  # a session deleted in ADK waits for nothing any more
            if (row_dict["app_name"], row_dict["user_id"], row_dict["session_id"]) in gone:
                done = {"pending": False, "settled": True, "updated_at": at}
                out.append(SourceStateRow.model_validate(row_dict | done))
        times = [s.update_time for s in changed] + ([watermark] if watermark else [])
        if times:
            out.append(self._mark(mark_key, max(times), at))
        return _Pulled(raws=raws, states=out)

    def _states(self, store: Store, sessions: Sequence[SessionRow]) -> dict[str, SourceStateRow]:
        keys = sorted({state_key(s.app_name, s.user_id, s.session_id) for s in sessions})
        rows = _rows_in(store, SOURCE_STATE, "state_key", keys)
        return {r["state_key"]: SourceStateRow.model_validate(r) for r in rows}

    def _settled(self, store: Store, rows: Sequence[SourceStateRow]) -> set[str]:
        """State keys whose last segment reached the ledger (committed) or the quarantine (refused)."""
        open_ = [r for r in rows if not r.settled and r.segment_key]
        keys = [r.segment_key for r in open_ if r.segment_key]
        ids = [r.segment_quarantine_id for r in open_ if r.segment_quarantine_id]
        ledger = {x["session_key"] for x in _rows_in(store, LEDGER, "session_key", keys)}
        refused = {x["quarantine_id"] for x in _rows_in(store, QUARANTINE, "quarantine_id", ids)}
        return {r.state_key for r in open_ if r.segment_key in ledger or r.segment_quarantine_id in refused}

    def _advance(
        self,
        session: SessionRow,
        row: SourceStateRow | None,
        settled: set[str],
        events: list[PulledEvent],
        at: datetime,
        max_raw: int,
    ) -> tuple[SourceStateRow, RawSession | None]:
        """The session's next progress row, and the segment to yield (if any)."""
        row = row or self._new_row(session, at)
        row = row.model_copy(update={"seen_update_time": session.update_time, "source": self.source, "updated_at": at})
        if row.segment and not row.settled and row.state_key not in settled and row.cut_time is not None:
            # The last segment's run did not commit: yield exactly the same events again.
            again = up_to_cut(after_cut(events, row.prev_cut_time, row.prev_cut_event_ids), row.cut_time,
                              row.cut_event_ids)  # fmt: skip
            pending = bool(after_cut(events, row.cut_time, row.cut_event_ids))
            return row.model_copy(update={"pending": pending}), self._segment(session, row.segment, again, max_raw)
        row = row.model_copy(update={"settled": True})
        new = after_cut(events, row.cut_time, row.cut_event_ids)
        reason = take_reason(new, session.state, session.update_time, at, self.triggers)
        if reason is None:
            return row.model_copy(update={"pending": bool(new)}), None
        last = new[-1].timestamp
        cut = {"cut_time": last, "cut_event_ids": [e.id for e in new if e.timestamp == last], "pending": False}
        if not any(e.text.strip() for e in new):  # tool traffic or a compaction only: nothing to extract
            return row.model_copy(update=cut), None
        segment = row.segment + 1
        raw = self._segment(session, segment, new, max_raw)
        assert raw.session_id is not None
        update = cut | {
            "segment": segment, "settled": False, "prev_cut_time": row.cut_time,
            "prev_cut_event_ids": row.cut_event_ids,
            "segment_key": stable_id(session.app_name, session.user_id, raw.session_id),
            "segment_quarantine_id": stable_id(raw.source, str(raw.line), raw.raw),
        }  # fmt: skip
        return row.model_copy(update=update), raw

    def _new_row(self, session: SessionRow, at: datetime) -> SourceStateRow:
        return SourceStateRow(
            state_key=state_key(session.app_name, session.user_id, session.session_id), source=self.source,
            app_name=session.app_name, user_id=session.user_id, session_id=session.session_id,
            seen_update_time=None, segment=0, segment_key=None, segment_quarantine_id=None, settled=True,
            cut_time=None, cut_event_ids=[], prev_cut_time=None, prev_cut_event_ids=[], pending=False, updated_at=at,
        )  # fmt: skip

    def _mark(self, key: str, watermark: datetime, at: datetime) -> SourceStateRow:
        row = self._new_row(SessionRow("", "", "", {}, watermark), at)
        return row.model_copy(update={"state_key": key, "seen_update_time": watermark})

    def _segment(self, session: SessionRow, segment: int, events: list[PulledEvent], max_raw: int) -> RawSession:
        """A raw session of the given events; its raw text is deterministic (quarantine ids rely on it)."""
        sid = segment_session_id(session.session_id, segment)
        said = [e for e in events if e.text.strip()]
        raw = json.dumps(
            {"app_name": session.app_name, "user_id": session.user_id, "session_id": sid,
             "events": [{"id": e.id, "author": e.author, "timestamp": e.timestamp.isoformat(), "text": e.text}
                        for e in said]},
            ensure_ascii=False,
        )[:max_raw]  # fmt: skip
        times = [e.timestamp for e in events]
        return RawSession(
            source=f"adk:{session.app_name}/{session.user_id}/{session.session_id}", line=segment, raw=raw,
            app_name=session.app_name, user_id=session.user_id, session_id=sid,
            started_at=min(times), ended_at=max(times), fmt="adk",
            events=[RawEvent(id=e.id, author=e.author, text=e.text, timestamp=e.timestamp) for e in said],
            compaction_summaries=[e.compaction for e in events if e.compaction],
        )  # fmt: skip
