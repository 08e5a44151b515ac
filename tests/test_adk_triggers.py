"""Pull triggers over ADK's own session databases, with an injected clock.

Sessions are written by ADK's ``SqliteSessionService`` and ``DatabaseSessionService`` (every test
runs against both schemas); the ingest pulls them with ``session_source="adk_db"``. A spy around the
real extract stage records which events were extracted, to show that none is extracted twice.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("google.adk")

from google.adk.events import Event as AdkEvent
from google.adk.events.event_actions import EventActions, EventCompaction
from google.adk.sessions import DatabaseSessionService
from google.adk.sessions.session import Session as AdkSession
from google.adk.sessions.sqlite_session_service import SqliteSessionService
from google.genai import types
from sqlalchemy import text as sql
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from tasks.errors import SourceError
from tasks.ingest.run import Stages, run_ingest
from tasks.ingest.stages import Embedded, Extracted, IngestSummary, extract_sessions
from tasks.models import QuarantineRecord, Session
from tasks.settings import Settings
from tasks.sources import pull_at
from tasks.sources.adk_tables import AdkTables
from tasks.store.schema import SOURCE_STATE
from tasks.store.tables import CHANGES, EPISODES, LEDGER, MEMORIES, QUARANTINE, open_store

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
APP, USER = "travel-assistant", "bob"


class Adk:
    """An ADK session service on a file database, one event loop, and the pipeline pulling from it."""

    def __init__(self, kind: str, tmp_path: Path) -> None:
        db = tmp_path / "sessions.db"
        self.loop = asyncio.new_event_loop()
        if kind == "sqlite":
            self.service: Any = SqliteSessionService(str(db))
            url = f"sqlite:///{db}"
        else:
            url = f"sqlite+aiosqlite:///{db}"
            self.service = DatabaseSessionService(url)
        self.settings = Settings(store_uri=str(tmp_path / "store"), session_source="adk_db", adk_db_url=url,
                                 trigger_idle_minutes=30, trigger_new_messages=4)  # fmt: skip
        self.extracted: Counter[tuple[str, str]] = Counter()
        self.hashes: list[str] = []

    def session(self, session_id: str) -> AdkSession:
        made: AdkSession = self.loop.run_until_complete(
            self.service.create_session(app_name=APP, user_id=USER, session_id=session_id)
        )
        return made

    def say(self, session: AdkSession, minute: float, text: str | None, author: str = "user", **actions: Any) -> str:
        content = types.Content(role="user" if author == "user" else "model", parts=[types.Part(text=text)])
        at = (T0 + timedelta(minutes=minute)).timestamp()
        event = AdkEvent(author=author, invocation_id=f"inv-{minute}", content=content if text else None,
                         timestamp=at, actions=EventActions(**actions))  # fmt: skip
        self.loop.run_until_complete(self.service.append_event(session, event))
        return event.id

    def ingest(self, minute: float, **stages: Any) -> IngestSummary:
        """One ingest run at T0 + minute, extraction spied on."""

        def extract(sessions: Sequence[Session], settings: Settings) -> list[Extracted]:
            for s in sessions:
                self.hashes.append(s.content_hash)
                self.extracted.update((s.session_id, e.id) for e in s.events)
            return extract_sessions(sessions, settings)

        pull = pull_at(T0 + timedelta(minutes=minute))
        return run_ingest(self.settings, stages=Stages(pull=pull, extract=extract, **stages))

    def rows(self, table: str) -> list[dict[str, Any]]:
        return open_store(self.settings).rows(table)


@pytest.fixture(params=["sqlite", "database"])
def adk(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Adk]:
    env = Adk(request.param, tmp_path)
    yield env
    if hasattr(env.service, "close"):
        env.loop.run_until_complete(env.service.close())
    env.loop.close()


def _ledger(adk: Adk) -> set[str]:
    return {r["session_id"] for r in adk.rows(LEDGER)}


def test_idle_session_is_taken_after_the_timeout(adk: Adk) -> None:
    s = adk.session("idle")
    said = [adk.say(s, 0, "I love coffee."), adk.say(s, 1, "Noted!", author="helper")]
    assert adk.ingest(10).sessions_processed == 0, "active 9 minutes ago: not idle yet"
    assert _ledger(adk) == set()
    assert adk.ingest(31).sessions_processed == 1
    assert _ledger(adk) == {"idle"}
    assert adk.ingest(90).sessions_processed == 0
    assert adk.extracted == Counter({("idle", e): 1 for e in said})


def test_message_count_takes_a_busy_session_before_it_is_idle(adk: Adk) -> None:
    busy, quiet = adk.session("busy"), adk.session("quiet")
    for minute, text in enumerate(["I love coffee.", "Great.", "I prefer aisle seats.", "Sure."]):
        adk.say(busy, minute, text, author="user" if minute % 2 == 0 else "helper")
    for minute, text in enumerate(["I am allergic to peanuts.", "Good to know.", "Thanks."]):
        adk.say(quiet, minute, text)
    assert adk.ingest(5).sessions_processed == 1
    assert _ledger(adk) == {"busy"}
    assert adk.ingest(40).sessions_processed == 1, "the quiet one is idle by now"
    assert _ledger(adk) == {"busy", "quiet"}


def test_compaction_event_takes_the_session(adk: Adk) -> None:
    s = adk.session("compacted")
    adk.say(s, 0, "I work as a nurse at Mercy Hospital.")
    adk.say(s, 1, "That sounds demanding.", author="helper")
    summary = types.Content(role="model", parts=[types.Part(text="The user is a nurse at Mercy Hospital.")])
    compaction = EventCompaction(start_timestamp=T0.timestamp(), end_timestamp=(T0 + timedelta(minutes=1)).timestamp(),
                                 compacted_content=summary)  # fmt: skip
    adk.say(s, 2, None, compaction=compaction)
    assert adk.ingest(3).sessions_processed == 1
    (episode,) = adk.rows(EPISODES)
    assert "The user is a nurse at Mercy Hospital." in episode["summary"]
    assert len(adk.extracted) == 2, "the compaction is a summary, not a message"


def test_explicit_end_marker_takes_the_session(adk: Adk) -> None:
    ended, open_ = adk.session("ended"), adk.session("open")
    adk.say(ended, 0, "I prefer aisle seats.")
    adk.say(ended, 1, None, author="helper", state_delta={"session_ended": True})
    adk.say(open_, 0, "I love coffee.")
    assert adk.ingest(2).sessions_processed == 1
    assert _ledger(adk) == {"ended"}


def test_a_growing_session_is_extracted_once_per_event_and_consolidated_in_order(adk: Adk) -> None:
    s = adk.session("grow")
    said = [adk.say(s, 0, "I love coffee."), adk.say(s, 1, "Coffee it is.", author="helper")]
    assert adk.ingest(40).sessions_processed == 1
    said += [adk.say(s, 60, "I switched to tea."), adk.say(s, 61, "Tea, then.", author="helper")]
    assert adk.ingest(100).sessions_processed == 1
    said += [adk.say(s, 120, "I prefer aisle seats."), adk.say(s, 121, "Aisle it is.", author="helper")]
    assert adk.ingest(125).sessions_processed == 0, "pending: neither idle nor enough new messages"
    assert adk.ingest(160).sessions_processed == 1
    assert adk.ingest(300).sessions_processed == 0
    assert Counter(e for _, e in adk.extracted) == Counter(said), "every event extracted exactly once"
    assert _ledger(adk) == {"grow", "grow#2", "grow#3"}
    segments = {sid: sorted(e for s2, e in adk.extracted if s2 == sid) for sid in ("grow", "grow#2", "grow#3")}
    assert segments == {"grow": sorted(said[:2]), "grow#2": sorted(said[2:4]), "grow#3": sorted(said[4:])}
    updates = [(c["old_content"], c["new_content"]) for c in adk.rows(CHANGES) if c["action"] == "UPDATE"]
    assert next(new for old, new in updates if old == "User loves coffee").startswith("User has switched to tea"), (
        "the later segment updates the earlier memory"
    )
    active = sorted(m["content"] for m in adk.rows(MEMORIES) if m["status"] == "active")
    assert (
        len(active) == 2
        and active[0].startswith("User has switched to tea")
        and active[1] == "User prefers aisle seats"
    )
    assert len(adk.rows(EPISODES)) == 3


def test_a_run_that_dies_yields_the_same_segment_again(adk: Adk) -> None:
    s = adk.session("crash")
    adk.say(s, 0, "I love coffee.")
    adk.ingest(40)
    adk.say(s, 60, "I switched to tea.")

    def die(embedded: Embedded, quarantined: Sequence[QuarantineRecord], settings: Settings,
            summary: IngestSummary) -> IngestSummary:  # fmt: skip
        raise OSError("disk vanished mid-write")

    with pytest.raises(OSError):
        adk.ingest(100, write=die)
    adk.say(s, 101, "I prefer aisle seats.")  # arrives before the retry: it waits for the next segment
    assert adk.ingest(102).sessions_processed == 1
    assert adk.hashes[1] == adk.hashes[2], "the retried segment has the same events, so the same hash"
    assert _ledger(adk) == {"crash", "crash#2"}
    assert adk.ingest(140).sessions_processed == 1
    assert _ledger(adk) == {"crash", "crash#2", "crash#3"}
    tea = [m for m in adk.rows(MEMORIES) if m["content"].startswith("User has switched to tea")]
    assert len(tea) == 1


def test_the_source_reads_only(adk: Adk) -> None:
    s = adk.session("kept")
    adk.say(s, 0, "I love coffee.")
    assert adk.settings.adk_db_url
    tables = AdkTables(adk.settings.adk_db_url)
    with tables.connect() as conn, pytest.raises(DBAPIError, match="readonly"):
        conn.execute(sql("DELETE FROM events"))
    tables.close()
    missing = adk.settings.model_copy(update={"adk_db_url": adk.settings.adk_db_url.replace("sessions.db", "nope.db")})
    with pytest.raises(SourceError, match="no ADK session database"):
        run_ingest(missing)
    assert not Path(str(make_url(missing.adk_db_url).database)).exists(), "the failed read created no file"


def test_a_segment_refused_by_validation_is_settled_and_the_session_goes_on(adk: Adk) -> None:
    s = adk.session("huge")
    adk.say(s, 0, "I love coffee. " + "x" * 100_001)  # over the validation limit for one event's text
    assert adk.ingest(40).sessions_quarantined == 1
    later = adk.say(s, 60, "I prefer aisle seats.")
    assert adk.ingest(100).sessions_processed == 1
    assert _ledger(adk) == {"huge#2"}
    assert adk.extracted == Counter({("huge#2", later): 1})
    assert (quarantined := adk.rows(QUARANTINE)) and quarantined[0]["line"] == 1


def test_a_run_reads_only_sessions_changed_since_the_watermark(adk: Adk) -> None:
    a, b = adk.session("a"), adk.session("b")
    adk.say(a, 0, "I love coffee.", state_delta={"session_ended": True})
    adk.say(b, 1, "I prefer aisle seats.", state_delta={"session_ended": True})
    adk.ingest(10)
    adk.ingest(15)  # nothing new: records that both segments were committed
    adk.say(b, 20, "I switched to tea.")
    adk.ingest(60)
    touched = {r["session_id"]: r["updated_at"] for r in adk.rows(SOURCE_STATE) if r["session_id"]}
    assert touched == {"a": T0 + timedelta(minutes=15), "b": T0 + timedelta(minutes=60)}, "a was not read again"
    (mark,) = [r for r in adk.rows(SOURCE_STATE) if not r["session_id"]]
    assert mark["seen_update_time"] == T0 + timedelta(minutes=20)
    assert _ledger(adk) == {"a", "b", "b#2"}
