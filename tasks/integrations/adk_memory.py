"""A Google ADK memory service over the pipeline's store (``pip install agent-memory-pipeline[adk]``).

``Runner(..., memory_service=PipelineMemoryService(settings))`` makes ADK's own ``load_memory`` and
``preload_memory`` tools recall from the pipeline. Writes go through the pipeline, never around it:

- ``add_session_to_memory`` / ``add_events_to_memory`` queue the events in the spool
  (:mod:`tasks.integrations.spool`) for the next ingest run, which extracts, consolidates and audits
  them like any session; idempotent; ``process_now=True`` runs that ingest at once for the spool.
- ``add_memory`` writes explicit memories as facts of a small session through ``run_ingest``, so
  consolidation decides ADD / UPDATE / IGNORE and the audit log records it.
- ``delete_memory`` closes the memory's current version as deleted, with a reason and an audit row.

The pipeline's calls are synchronous (Lance, ONNX); they run in a worker thread so the agent's event
loop is never blocked.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from google.adk.memory import BaseMemoryService
from google.adk.memory.base_memory_service import SearchMemoryResponse
from google.adk.memory.memory_entry import MemoryEntry
from google.genai import types
from typing_extensions import override

from tasks.clock import now, utc
from tasks.consolidate.evidence_redact import redact_evidence
from tasks.ingest.run import Stages, run_ingest
from tasks.ingest.stages import Extracted, IngestSummary, new_run_id
from tasks.integrations.spool import SpooledEvent, enqueue
from tasks.models import Event, Extraction, Fact, QuarantineRecord, RecallHit, Session, stable_id
from tasks.providers import build_embedder, build_summarizer
from tasks.recall.evidence import interleaved
from tasks.recall.recaller import Recaller
from tasks.rows import ChangeRow, EpisodeRow, MemoryRow
from tasks.settings import Settings
from tasks.store.filters import all_of, eq, scope
from tasks.store.lock import store_lock
from tasks.store.tables import CHANGES, EPISODES, MEMORIES, open_store, run_scope

if TYPE_CHECKING:
    from google.adk.events.event import Event as AdkEvent
    from google.adk.sessions.session import Session as AdkSession

#: ADK's own placeholder when events are added without a session id.
UNKNOWN_SESSION_ID = "__unknown_session_id__"
EXPLICIT_TOPIC = "key_conversation_details"
_ID_COLS = ("memory_id", "row_id", "episode_id")


class PipelineMemoryService(BaseMemoryService):
    """ADK memory backed by the pipeline: queue sessions, recall memories and episodes."""

    def __init__(self, settings: Settings, *, process_now: bool = False, k: int | None = None) -> None:
        self.settings = settings
        self.process_now = process_now
        self.k = k
        self._recaller: Recaller | None = None
        self._lock = threading.Lock()

    # -- sessions in -------------------------------------------------------------------------

    @override
    async def add_session_to_memory(self, session: AdkSession, *, process_now: bool | None = None) -> None:
        await self.add_events_to_memory(app_name=session.app_name, user_id=session.user_id, events=session.events,
                                        session_id=session.id, process_now=process_now)  # fmt: skip

    @override
    async def add_events_to_memory(
        self,
        *,
        app_name: str,
        user_id: str,
        events: Sequence[AdkEvent],
        session_id: str | None = None,
        custom_metadata: Mapping[str, object] | None = None,
        process_now: bool | None = None,
    ) -> None:
        spooled = [
            SpooledEvent(id=e.id, invocation_id=e.invocation_id or "", timestamp=e.timestamp,
                         data=e.model_dump(mode="json", exclude_none=True))
            for e in events
        ]  # fmt: skip
        await asyncio.to_thread(self._enqueue, app_name, user_id, session_id or UNKNOWN_SESSION_ID, spooled)
        if self.process_now if process_now is None else process_now:
            await asyncio.to_thread(self.ingest_spool)

    def _enqueue(self, app_name: str, user_id: str, session_id: str, events: list[SpooledEvent]) -> int:
        return enqueue(self._spool(), app_name, user_id, session_id, events, self.settings.adk_end_state_key)

    def _spool(self) -> str:
        if not self.settings.adk_spool_url:
            raise ValueError("PipelineMemoryService needs settings.adk_spool_url (e.g. sqlite:///data/adk_spool.db)")
        return self.settings.adk_spool_url

    def ingest_spool(self) -> IngestSummary:
        """Run the ingest for the spool alone, now (what the next scheduled run would do for it)."""
        only = {"session_source": "adk_db", "adk_db_url": self._spool(), "adk_spool_url": None}
        return run_ingest(self.settings.model_copy(update=only))

    # -- recall ------------------------------------------------------------------------------

    @override
    async def search_memory(self, *, app_name: str, user_id: str, query: str) -> SearchMemoryResponse:
        hits = await asyncio.to_thread(self._recall, app_name, user_id, query)
        return SearchMemoryResponse(memories=[memory_entry(h) for h in hits])

    def _recall(self, app_name: str, user_id: str, query: str) -> list[RecallHit]:
        with self._lock:
            if self._recaller is None:
                self._recaller = Recaller(self.settings)
            result = self._recaller.recall_result(query, app_name, user_id, k=self.k)
            return interleaved(result.hits, result.evidence)  # memories and the verbatim turns

    def close(self) -> None:
        """Write the access counts of the recalls so far and release the store handles."""
        with self._lock:
            if self._recaller is not None:
                self._recaller.__exit__(None, None, None)
                self._recaller = None

    # -- explicit writes ---------------------------------------------------------------------

    @override
    async def add_memory(
        self,
        *,
        app_name: str,
        user_id: str,
        memories: Sequence[MemoryEntry],
        custom_metadata: Mapping[str, object] | None = None,
    ) -> None:
        meta = dict(custom_metadata or {})
        session, facts = explicit_session(app_name, user_id, memories, meta, now())
        if facts:
            await asyncio.to_thread(self._ingest_facts, session, facts)

    def _ingest_facts(self, session: Session, facts: list[Fact]) -> IngestSummary:
        def extract(sessions: Sequence[Session], settings: Settings) -> tuple[list[Extracted], list[QuarantineRecord]]:
            summarizer = build_summarizer(settings)
            mine = [s for s in sessions if s.key == session.key]
            return [Extracted(session=s, extraction=Extraction(facts=facts), episode=summarizer.summarize(s, facts))
                    for s in mine], []  # fmt: skip

        return run_ingest(self.settings, sessions=[session], stages=Stages(extract=extract))

    @override
    async def delete_memory(
        self,
        *,
        app_name: str,
        user_id: str,
        memory_id: str | None = None,
        reason: str = "deleted through the ADK memory service",
    ) -> None:
        if memory_id:
            await asyncio.to_thread(close_memory, self.settings, app_name, user_id, memory_id, reason)


def memory_entry(hit: RecallHit) -> MemoryEntry:
    """A recalled memory or episode as ADK's ``MemoryEntry``, with its date and ids."""
    when: datetime = hit.stated_at or hit.created_at
    return MemoryEntry(
        id=hit.id,
        content=types.Content(role="user", parts=[types.Part(text=hit.content)]),
        author=hit.speaker if hit.kind == "evidence" and hit.speaker else hit.kind,
        timestamp=utc(when).isoformat(),
        custom_metadata={"kind": hit.kind, "topic": hit.topic, "score": hit.score, "session_id": hit.session_id,
                         "source_event_ids": list(hit.source_event_ids)},
    )  # fmt: skip


def explicit_session(app_name: str, user_id: str, memories: Sequence[MemoryEntry], meta: Mapping[str, object],
                     at: datetime) -> tuple[Session, list[Fact]]:  # fmt: skip
    """A session of one event per explicit memory, and its facts; its id is derived from its content,
    so the same memories added twice are one session in the ledger.

    Each entry's ``custom_metadata`` (over the call's) may name its ``topic``, the ``slot`` and ``value``
    it fills (what lets consolidation tell an update, "now prefers aisle seats", from a second fact),
    and its ``importance``.
    """
    events: list[Event] = []
    facts: list[Fact] = []
    for entry in memories:
        text = " ".join(p.text for p in entry.content.parts or [] if p.text).strip()
        if not text:
            continue
        when = _when(entry.timestamp, at)
        author = entry.author or "user"
        eid = entry.id or stable_id("explicit", text, when.isoformat())
        events.append(Event(id=eid, author=author, role="user" if author == "user" else "agent", text=text,
                            timestamp=when))  # fmt: skip
        facts.append(_fact(text, eid, when, author, {**meta, **entry.custom_metadata}))
    sid = "adk-memory-" + stable_id(app_name, user_id, *(f"{e.id}\x1e{e.text}" for e in events))
    times = [e.timestamp for e in events] or [at]
    session = Session(app_name=app_name, user_id=user_id, session_id=sid, started_at=min(times),
                      ended_at=max(times), events=tuple(events), source="adk:add_memory")  # fmt: skip
    return session, facts


def _when(stamp: str | None, default: datetime) -> datetime:
    """An entry's ISO-8601 timestamp (ADK's preferred format); anything else counts as now."""
    try:
        return utc(datetime.fromisoformat(stamp)) if stamp else default
    except ValueError:
        return default


def _fact(text: str, event_id: str, when: datetime, author: str, meta: Mapping[str, object]) -> Fact:
    importance, slot, value = meta.get("importance"), meta.get("slot"), meta.get("value")
    return Fact(
        topic=str(meta.get("topic") or EXPLICIT_TOPIC), content=text, source_event_ids=(event_id,), stated_at=when,
        speaker=author, importance=float(importance) if isinstance(importance, int | float) else 0.8,
        confidence=1.0, slot=str(slot) if slot else None, value=str(value) if value else None,
    )  # fmt: skip


def close_memory(settings: Settings, app_name: str, user_id: str, memory_id: str, reason: str) -> str | None:
    """Close what ``memory_id`` names in this tenant, with an audit row: the current version of a memory
    (by lineage or row id) becomes ``deleted``, or an episode (by id) leaves recall. Returns the kind."""
    with store_lock(settings, f"delete memory {memory_id}"), run_scope():
        store = open_store(settings)
        match = f"{eq('memory_id', memory_id, _ID_COLS)} OR {eq('row_id', memory_id, _ID_COLS)}"
        rows = [MemoryRow.model_validate(r) for r in store.rows(MEMORIES, all_of(scope(app_name, user_id), match))]
        current = next((r for r in rows if r.status == "active"), None)
        episodes = store.rows(EPISODES, all_of(scope(app_name, user_id), eq("episode_id", memory_id, _ID_COLS)))
        episode = next((EpisodeRow.model_validate(r) for r in episodes if r["status"] == "active"), None)
        at, run_id = now(), new_run_id()
        if current is not None:
            closed = {"status": "deleted", "valid_to": at, "status_reason": reason, "updated_at": at}
            store.upsert(MEMORIES, [current.model_copy(update=closed)])
            said = current.model_dump(include={"app_name", "user_id", "value", "source_event_ids"})
            redact_evidence(store, build_embedder(settings), [said])  # its turns no longer say it either
            lineage, row_id, old, kind = current.memory_id, current.row_id, current.content, "memory"
        elif episode is not None:
            store.upsert(EPISODES, [episode.model_copy(update={"status": "deleted"})])
            lineage, row_id, old, kind = episode.episode_id, None, episode.summary, "episode"
        else:
            return None
        change = ChangeRow(
            change_id=stable_id("change", lineage, row_id or "", "DELETE", app_name, user_id, run_id),
            memory_id=lineage, row_id=row_id, action="DELETE", relation="forgets", old_content=old, new_content=None,
            reason=reason, app_name=app_name, user_id=user_id, session_id="adk:delete_memory", source_event_ids=[],
            run_id=run_id, created_at=at,
        )  # fmt: skip
        store.insert_new(CHANGES, [change])
        return kind
