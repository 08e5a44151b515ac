"""What each Lance table stores, declared once: these models are the tables' schemas.

:mod:`tasks.store.schema` derives each Arrow schema from the model's annotations (``int`` is
int32, ``float`` float32, ``datetime`` a UTC timestamp, ``Vector`` the embedder's fixed-size list),
so adding a column means adding one field here (nullable, for the migration of existing stores).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel

from tasks.models import Action, Episode, Relation, Status

#: The embedding column: a fixed-size float32 list whose size is the configured embedder's.
Vector = Annotated[list[float], "vector"]


class MemoryRow(BaseModel):
    """One version of a memory, exactly as stored in the ``memories`` table.

    ``memory_id`` is the lineage (stable across versions); ``row_id`` is memory_id + version.
    Current truth is ``status == 'active'``; "as of T" is ``valid_from <= T < valid_to`` (open end).
    """

    row_id: str
    memory_id: str
    version: int
    app_name: str
    user_id: str
    topic: str
    content: str
    vector: Vector
    importance: float
    confidence: float
    speaker: str
    slot: str | None
    value: str | None
    source_session_id: str
    source_event_ids: list[str]
    stated_at: datetime
    valid_from: datetime
    valid_to: datetime | None
    status: Status
    status_reason: str | None
    supersedes: str | None
    relation: Relation
    confirmations: int
    last_confirmed_at: datetime | None
    access_count: int
    last_accessed_at: datetime | None
    created_at: datetime
    updated_at: datetime
    run_id: str
    #: An explicit end the fact carries ("in Lisbon until Friday"); the TTL pass expires it then.
    expires_at: datetime | None = None

    @staticmethod
    def make_row_id(memory_id: str, version: int) -> str:
        return f"{memory_id}-v{version}"


class ChangeRow(BaseModel):
    """One entry of the append-only audit log ``memory_changes``."""

    change_id: str
    memory_id: str
    row_id: str | None
    action: Action
    relation: Relation
    old_content: str | None
    new_content: str | None
    reason: str
    app_name: str
    user_id: str
    session_id: str
    source_event_ids: list[str]
    run_id: str
    created_at: datetime


class StoredSentence(BaseModel):
    """One episode sentence with the turns it came from."""

    text: str
    source_event_ids: list[str]


class EpisodeRow(BaseModel):
    """One session's episode as stored in the ``episodes`` table."""

    episode_id: str
    app_name: str
    user_id: str
    session_id: str
    summary: str
    topics: list[str]
    key_facts: list[str]
    sentences: list[StoredSentence]
    source_event_ids: list[str]
    vector: Vector
    started_at: datetime
    ended_at: datetime
    status: str
    access_count: int
    last_accessed_at: datetime | None
    created_at: datetime
    run_id: str

    @classmethod
    def of(cls, episode: Episode, vector: list[float], run_id: str, now: datetime) -> EpisodeRow:
        return cls(
            **episode.model_dump(),
            episode_id=episode.episode_id,
            source_event_ids=list(episode.source_event_ids),
            vector=vector, status="active", access_count=0, last_accessed_at=None, created_at=now, run_id=run_id,
        )  # fmt: skip


class EvidenceRow(BaseModel):
    """One verbatim turn (or a passage of a long one) in the ``evidence`` table (issue 70).

    The lossless layer under the memories: what extraction did not keep is still here, the agent's
    words included. ``evidence_id`` is deterministic (scope, session, event, passage), so a re-run
    merge-inserts the same rows. ``memory_ids`` are the memories that cite the turn; a spoken forget
    redacts ``text`` in place (``redacted`` says so) and the row stays cited.
    """

    evidence_id: str
    app_name: str
    user_id: str
    session_id: str
    event_id: str
    #: Position of the turn in its session and of the passage in its turn (neighbours are found by them).
    turn: int
    passage: int
    author: str
    role: str
    text: str
    vector: Vector
    timestamp: datetime
    memory_ids: list[str]
    redacted: bool
    run_id: str
    created_at: datetime


class LedgerRow(BaseModel):
    """A session processed (by content hash): the ledger that makes ingest exactly-once."""

    session_key: str
    app_name: str
    user_id: str
    session_id: str
    content_hash: str
    ended_at: datetime
    processed_at: datetime
    run_id: str
    memories_written: int


class QuarantineRow(BaseModel):
    """A line or session that could not be ingested, with the reason and (bounded) raw text."""

    quarantine_id: str
    source: str
    line: int
    reason: str
    raw: str
    run_id: str
    created_at: datetime


class RunRow(BaseModel):
    """One run of a flow: table versions before and after (JSON) drive rollback and reports."""

    run_id: str
    flow: str
    started_at: datetime
    ended_at: datetime
    status: str
    versions_before: str
    versions_after: str
    counts: str
    #: Why this run can no longer be rolled back (an erasure removed the table versions it needs).
    rollback_blocked: str | None = None


class SourceStateRow(BaseModel):
    """How far a pulled session source has been taken (issue 15: ADK session database source).

    One row per source session (``session_id`` set) with the last cut segment and its end, so a
    session taken again yields only what is new; one row per database (``session_id`` empty) whose
    ``seen_update_time`` is the watermark: only sessions updated since then are read again.
    """

    state_key: str
    source: str
    app_name: str
    user_id: str
    session_id: str
    seen_update_time: datetime | None
    segment: int
    segment_key: str | None
    segment_quarantine_id: str | None
    settled: bool
    cut_time: datetime | None
    cut_event_ids: list[str]
    prev_cut_time: datetime | None
    prev_cut_event_ids: list[str]
    pending: bool
    updated_at: datetime
