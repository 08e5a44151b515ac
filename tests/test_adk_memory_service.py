"""The ADK memory service over a real store: queueing (idempotent), recall as MemoryEntry, explicit
memories through consolidation, deletion with an audit row; and the core never importing ADK."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("google.adk")

from google.adk.events import Event as AdkEvent
from google.adk.memory import BaseMemoryService
from google.adk.memory.memory_entry import MemoryEntry
from google.adk.sessions.session import Session as AdkSession
from google.genai import types

from tasks.ingest.run import run_ingest
from tasks.integrations.adk_memory import PipelineMemoryService
from tasks.settings import Settings
from tasks.store.tables import CHANGES, EPISODES, LEDGER, MEMORIES, open_store

REPO = Path(__file__).resolve().parents[1]
APP, USER = "travel-assistant", "carol"
T0 = datetime(2026, 2, 1, 10, 0, tzinfo=UTC)


@pytest.fixture
def mem_settings(tmp_path: Path) -> Settings:
    (tmp_path / "sessions").mkdir()
    return Settings(store_uri=str(tmp_path / "store"), sessions_uri=str(tmp_path / "sessions"),
                    adk_spool_url=f"sqlite:///{tmp_path}/spool.db")  # fmt: skip


def _event(minute: int, text: str, author: str = "user") -> AdkEvent:
    role = "user" if author == "user" else "model"
    at = (T0 + timedelta(minutes=minute)).timestamp()
    return AdkEvent(author=author, invocation_id=f"inv-{minute}", timestamp=at,
                    content=types.Content(role=role, parts=[types.Part(text=text)]))  # fmt: skip


def _session(sid: str, events: list[AdkEvent]) -> AdkSession:
    return AdkSession(id=sid, app_name=APP, user_id=USER, events=events, last_update_time=events[-1].timestamp)


def _rows(settings: Settings, table: str) -> list[dict[str, Any]]:
    return open_store(settings).rows(table)


def test_the_service_is_an_adk_memory_service(mem_settings: Settings) -> None:
    assert isinstance(PipelineMemoryService(mem_settings), BaseMemoryService)


def test_a_session_added_five_times_is_one_session_and_growth_adds_only_new_events(mem_settings: Settings) -> None:
    memory = PipelineMemoryService(mem_settings)
    events = [_event(0, "I love coffee."), _event(1, "Coffee it is.", "helper")]
    for _ in range(5):
        asyncio.run(memory.add_session_to_memory(_session("s1", events)))
    first = run_ingest(mem_settings)  # the scheduled run: files source (empty) plus the spool
    assert first.sessions_processed == 1
    assert run_ingest(mem_settings).sessions_processed == 0
    events.append(_event(30, "I switched to tea."))
    asyncio.run(memory.add_session_to_memory(_session("s1", events)))
    asyncio.run(memory.add_session_to_memory(_session("s1", events)))
    assert memory.ingest_spool().sessions_processed == 1
    ledger = {r["session_id"] for r in _rows(mem_settings, LEDGER)}
    assert ledger == {"s1", "s1#2"}
    episodes = {r["session_id"]: r["source_event_ids"] for r in _rows(mem_settings, EPISODES)}
    assert events[0].id not in episodes["s1#2"], "the continuation holds only the new event"


def test_events_delta_and_process_now_make_memory_searchable_at_once(mem_settings: Settings) -> None:
    memory = PipelineMemoryService(mem_settings, process_now=True)
    delta = [_event(0, "I work as a nurse at Mercy Hospital.")]
    asyncio.run(memory.add_events_to_memory(app_name=APP, user_id=USER, events=delta, session_id="s2"))
    found = asyncio.run(memory.search_memory(app_name=APP, user_id=USER, query="where does she work"))
    texts = [p.text for m in found.memories for p in m.content.parts or []]
    assert "User works as a nurse at Mercy Hospital" in texts
    hit = next(m for m in found.memories if m.custom_metadata["kind"] == "memory")
    assert hit.id and hit.custom_metadata["session_id"] == "s2"
    assert hit.timestamp == T0.isoformat(), "the date the fact was stated"
    assert {m.custom_metadata["kind"] for m in found.memories} == {"memory", "episode"}
    other = asyncio.run(memory.search_memory(app_name=APP, user_id="someone-else", query="where does she work"))
    assert other.memories == []
    memory.close()


def _entry(text: str, at: datetime, **meta: str) -> MemoryEntry:
    content = types.Content(parts=[types.Part(text=text)])
    return MemoryEntry(content=content, timestamp=at.isoformat(), custom_metadata=meta)


def test_add_memory_goes_through_consolidation_and_is_idempotent(mem_settings: Settings) -> None:
    memory = PipelineMemoryService(mem_settings)
    prefs = {"topic": "user_preferences"}
    window = _entry("User prefers window seats", T0, slot="preference:seat", value="window")
    for _ in range(2):
        asyncio.run(memory.add_memory(app_name=APP, user_id=USER, memories=[window], custom_metadata=prefs))
    (row,) = _rows(mem_settings, MEMORIES)
    assert (row["content"], row["topic"], row["status"]) == ("User prefers window seats", "user_preferences", "active")
    assert [c["action"] for c in _rows(mem_settings, CHANGES)] == ["ADD"], "the repeat was skipped by the ledger"
    aisle = _entry("User prefers aisle seats", T0 + timedelta(days=1), slot="preference:seat", value="aisle")
    asyncio.run(memory.add_memory(app_name=APP, user_id=USER, memories=[aisle], custom_metadata=prefs))
    active = [r["content"] for r in _rows(mem_settings, MEMORIES) if r["status"] == "active"]
    assert len(active) == 1 and active[0].startswith("User prefers aisle seats"), "an UPDATE of the same slot"
    assert sorted(c["action"] for c in _rows(mem_settings, CHANGES)) == ["ADD", "UPDATE"]
    same = _entry("User prefers aisle seats.", T0 + timedelta(days=2))
    asyncio.run(memory.add_memory(app_name=APP, user_id=USER, memories=[same], custom_metadata=prefs))
    assert sorted(c["action"] for c in _rows(mem_settings, CHANGES)) == ["ADD", "IGNORE", "UPDATE"], "a duplicate"


def test_delete_memory_closes_it_with_a_reason_and_an_audit_row(mem_settings: Settings) -> None:
    memory = PipelineMemoryService(mem_settings, process_now=True)
    asyncio.run(memory.add_session_to_memory(_session("s3", [_event(0, "I am allergic to peanuts.")])))
    found = asyncio.run(memory.search_memory(app_name=APP, user_id=USER, query="allergies"))
    target = next(m for m in found.memories if m.custom_metadata["kind"] == "memory")
    asyncio.run(memory.delete_memory(app_name="other-app", user_id=USER, memory_id=target.id))
    assert all(r["status"] == "active" for r in _rows(mem_settings, MEMORIES)), "another tenant cannot delete it"
    asyncio.run(memory.delete_memory(app_name=APP, user_id=USER, memory_id=target.id, reason="user asked"))
    (row,) = _rows(mem_settings, MEMORIES)
    assert (row["status"], row["status_reason"]) == ("deleted", "user asked") and row["valid_to"] is not None
    deletes = [c for c in _rows(mem_settings, CHANGES) if c["action"] == "DELETE"]
    assert [(c["memory_id"], c["reason"], c["old_content"]) for c in deletes] == [
        (row["memory_id"], "user asked", "User is allergic to peanuts")
    ]
    again = asyncio.run(memory.search_memory(app_name=APP, user_id=USER, query="allergies"))
    assert target.id not in {m.id for m in again.memories}
    episode = next(m for m in again.memories if m.custom_metadata["kind"] == "episode")
    asyncio.run(memory.delete_memory(app_name=APP, user_id=USER, memory_id=episode.id))
    assert [r["status"] for r in _rows(mem_settings, EPISODES)] == ["deleted"]
    assert asyncio.run(memory.search_memory(app_name=APP, user_id=USER, query="allergies")).memories == []
    assert sorted(c["memory_id"] for c in _rows(mem_settings, CHANGES) if c["action"] == "DELETE") == sorted(
        [row["memory_id"], episode.id]
    )
    memory.close()


def test_search_before_anything_was_ingested_is_empty(mem_settings: Settings) -> None:
    found = asyncio.run(PipelineMemoryService(mem_settings).search_memory(app_name=APP, user_id=USER, query="x"))
    assert found.memories == []


@pytest.mark.slow
def test_the_core_never_imports_google_adk() -> None:
    code = (
        "import sys, flows.cli, flows.ingest, tasks.ingest.run, tasks.sources.adk_db, tasks.integrations.spool;"
        "bad = sorted(m for m in sys.modules if m.startswith('google.adk'));"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], cwd=REPO, check=True)
