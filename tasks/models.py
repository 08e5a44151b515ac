"""Domain types shared by every stage: sessions in, facts and episodes out, memory rows stored.

Pydantic models, so that flows can take and return them as typed parameters and summaries.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Role = Literal["user", "agent", "other"]
#: ROLLBACK and ERASE are written by rollback and erasure; EXPIRE, ARCHIVE, MERGE and PURGE by the maintenance
#: passes (tasks/maintain/); consolidation writes the first four.
Action = Literal["ADD", "UPDATE", "DELETE", "IGNORE", "ROLLBACK", "ERASE", "EXPIRE", "ARCHIVE", "MERGE", "PURGE"]
Relation = Literal["new", "supersedes", "contradicts", "refines", "duplicates", "forgets", "historical"]
Status = Literal["active", "superseded", "deleted", "expired", "archived", "merged"]


def stable_id(*parts: str, length: int = 24) -> str:
    """Deterministic id from its parts, so that re-runs produce the same keys for merge-insert."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()
    return digest[:length]


class Event(BaseModel):
    """One turn of a session. ``author`` is the raw speaker name; ``role`` its normalised kind."""

    model_config = ConfigDict(frozen=True)

    id: str
    author: str
    role: Role
    text: str
    timestamp: datetime


class Session(BaseModel):
    """An ended session as the pipeline sees it, whatever its source format."""

    model_config = ConfigDict(frozen=True)

    app_name: str
    user_id: str
    session_id: str
    started_at: datetime
    ended_at: datetime
    events: tuple[Event, ...]
    compaction_summaries: tuple[str, ...] = ()
    #: Last event time the compaction summaries cover (ADK ``end_timestamp``); None when unknown.
    compacted_until: datetime | None = None
    source: str = ""

    @property
    def key(self) -> str:
        """Ledger key: a session id is only unique within its app and user."""
        return stable_id(self.app_name, self.user_id, self.session_id)

    @property
    def content_hash(self) -> str:
        """Hash of what extraction reads, so that a changed session is processed again."""
        payload = json.dumps(
            {
                "events": [[e.id, e.author, e.text, e.timestamp.isoformat()] for e in self.events],
                "compaction": list(self.compaction_summaries),
            },
            sort_keys=True,
        )
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()


class Fact(BaseModel):
    """A concise third-person statement worth remembering, with where it came from.

    ``slot`` names what the fact is about ("employer", "preference:drink") so that a consolidator
    can tell a contradiction (same slot, other value) from a new fact; ``None`` when unknown.
    """

    model_config = ConfigDict(frozen=True)

    topic: str
    content: str
    source_event_ids: tuple[str, ...]
    stated_at: datetime
    speaker: str = "user"
    importance: float = 0.5
    confidence: float = 0.8
    slot: str | None = None
    value: str | None = None
    #: When the fact stops being true by its own words ("until Friday"); the TTL pass closes it then.
    expires_at: datetime | None = None


class ForgetRequest(BaseModel):
    """A request to forget something: matched against memories, never stored as a fact."""

    model_config = ConfigDict(frozen=True)

    query: str
    source_event_ids: tuple[str, ...]
    stated_at: datetime
    speaker: str = "user"
    #: What the same sentence says to keep ("You can keep that I'm a loan officer, but forget the salary"):
    #: a memory holding both loses only the rest (:mod:`tasks.providers.forget_parts`).
    keep: str = ""


class EpisodeSentence(BaseModel):
    model_config = ConfigDict(frozen=True)

    text: str
    source_event_ids: tuple[str, ...]


class Episode(BaseModel):
    """Episodic memory of one session: what happened, with per-sentence provenance."""

    model_config = ConfigDict(frozen=True)

    app_name: str
    user_id: str
    session_id: str
    summary: str
    topics: tuple[str, ...]
    key_facts: tuple[str, ...]
    sentences: tuple[EpisodeSentence, ...]
    started_at: datetime
    ended_at: datetime

    @property
    def episode_id(self) -> str:
        return stable_id("episode", self.app_name, self.user_id, self.session_id)

    @property
    def source_event_ids(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for sentence in self.sentences:
            for eid in sentence.source_event_ids:
                seen.setdefault(eid, None)
        return tuple(seen)


class Extraction(BaseModel):
    """What an extractor returns for one session."""

    facts: list[Fact] = Field(default_factory=list)
    forgets: list[ForgetRequest] = Field(default_factory=list)


class Decision(BaseModel):
    """A consolidator's verdict for one new fact against the user's related memories."""

    action: Action
    target_memory_id: str | None = None
    new_content: str | None = None
    relation: Relation = "new"
    reason: str = ""
    #: Other memories the fact settles besides the target (the plan "Moved to Warsaw!" carried out, beside the
    #: home it changed): closed as superseded at the fact's time.
    closes: list[str] = Field(default_factory=list)


class QuarantineRecord(BaseModel):
    """A line or session that could not be ingested, kept with the reason (nothing is dropped)."""

    source: str
    line: int
    reason: str
    raw: str


class SessionBatch(BaseModel):
    """One session's extraction with its embeddings, the unit consolidation works on."""

    session: Session
    facts: list[Fact]
    fact_vectors: list[list[float]]
    forgets: list[ForgetRequest]
    forget_vectors: list[list[float]]


class RecallHit(BaseModel):
    """One recalled memory or episode, with the parts of its score."""

    id: str
    #: "evidence": a verbatim turn (or passage of one) from the evidence table.
    kind: Literal["memory", "episode", "evidence"]
    topic: str
    content: str
    score: float
    score_parts: dict[str, float] = Field(default_factory=dict)
    session_id: str
    source_event_ids: list[str] = Field(default_factory=list)
    stated_at: datetime | None = None
    created_at: datetime
    #: Who said it (a memory's ``speaker``; None for episodes): recall's abstention checks attribution.
    speaker: str | None = None
    #: False for an outdated value: a superseded version, a memory a later one of the same slot replaced,
    #: or a verbatim turn whose memories were all replaced since (:mod:`tasks.recall.current`); its
    #: ``content`` then begins "earlier (<date>): ".
    current: bool = True
    #: The memory lineages a verbatim turn gave rise to (evidence hits only).
    memory_ids: list[str] = Field(default_factory=list)
    #: The stored vector (recall-internal: which shown items say the same of one slot).
    vector: list[float] | None = Field(default=None, exclude=True, repr=False)
    #: An episode's cited sentences: recall shows only those that add turns the better hits lack
    #: (recall-internal, so left out of dumps: the content already says them).
    sentences: tuple[EpisodeSentence, ...] = Field(default=(), exclude=True)
