"""Consolidation: fold one user's new facts and forget requests into their versioned memories.

Pure and deterministic (no I/O in :func:`consolidate_user`) so that a re-run of the same input
yields the same keys and merge-insert adds nothing. Nothing is ever removed: a change closes the
old version (``valid_to``, status) and writes a new one in the same lineage (``memory_id``), and
every verdict, IGNORE included, is written to the audit log.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from tasks.clock import utc
from tasks.consolidate.schedule import Item, apply_ahead
from tasks.consolidate.working import Statement, UserMemories
from tasks.models import Fact, ForgetRequest, SessionBatch
from tasks.providers.base import CallingConsolidator, Consolidator
from tasks.rows import ChangeRow, MemoryRow
from tasks.store.filters import scope
from tasks.store.owners import rows_by_owner
from tasks.store.tables import MEMORIES, Store

#: How many statements per worker thread the schedule looks ahead for decisions it can request early.
LOOKAHEAD_PER_WORKER = 4


class ConsolidationOutcome(BaseModel):
    """What to write: changed and new memory rows (full rows) and one audit entry per verdict."""

    upserts: list[MemoryRow] = Field(default_factory=list)
    changes: list[ChangeRow] = Field(default_factory=list)
    #: Row ids of upserts whose vector must be embedded from their text (what a forget request kept).
    reembed: list[str] = Field(default_factory=list)


def load_user_memories(store: Store, app_name: str, user_id: str) -> list[MemoryRow]:
    """Every version of every memory of one user, any status (the working set of consolidation)."""
    return _ordered(store.rows(MEMORIES, where=scope(app_name, user_id)))


def load_users_memories(store: Store, owners: Sequence[tuple[str, str]]) -> dict[tuple[str, str], list[MemoryRow]]:
    """:func:`load_user_memories` of many users, read in a few queries (see :mod:`tasks.store.owners`)."""
    return {owner: _ordered(rows) for owner, rows in rows_by_owner(store, MEMORIES, owners).items()}


def _ordered(rows: Sequence[dict[str, Any]]) -> list[MemoryRow]:
    return sorted((MemoryRow.model_validate(r) for r in rows), key=lambda m: (m.memory_id, m.version))


def batch_time(batch: SessionBatch) -> datetime:
    """When a session happened: its start, or its first event if that is earlier."""
    return min([utc(batch.session.started_at), *(utc(e.timestamp) for e in batch.session.events[:1])])


def consolidate_user(
    existing: list[MemoryRow],
    batches: list[SessionBatch],
    consolidator: Consolidator,
    *,
    run_id: str,
    now: datetime,
    related_k: int = 10,
    concurrency: int = 1,
) -> ConsolidationOutcome:
    """Apply one user's sessions in event-time order; return the rows and audit entries to write.

    With ``concurrency`` > 1 and a consolidator that calls a service, decisions that no earlier
    statement can change are requested ahead on that many threads (:mod:`tasks.consolidate.schedule`);
    the result is the sequential one. A local consolidator always runs the plain sequential loop.
    """
    work = UserMemories(existing, consolidator, run_id, utc(now), related_k)
    items = statements(batches)
    if concurrency > 1 and isinstance(consolidator, CallingConsolidator):
        apply_ahead(work, consolidator, items, concurrency, lookahead=LOOKAHEAD_PER_WORKER * concurrency)
    else:
        for item in items:
            if isinstance(item.statement, Fact):
                work.apply_fact(item.src, item.statement, item.vector)
            else:
                work.apply_forget(item.src, item.statement, item.vector)
    return ConsolidationOutcome(upserts=[work.rows[k] for k in work.dirty], changes=work.changes, reembed=work.reembed)


def statements(batches: list[SessionBatch]) -> list[Item]:
    """A user's facts and forget requests in the order they apply: by session time, then statement time."""
    out: list[Item] = []
    for batch in sorted(batches, key=lambda b: (batch_time(b), b.session.session_id)):
        items: list[tuple[Fact | ForgetRequest, list[float]]] = [
            *zip(batch.facts, batch.fact_vectors, strict=True),
            *zip(batch.forgets, batch.forget_vectors, strict=True),
        ]
        # Stable sort: same-time statements keep their order (a fact, then its correction).
        for item, vector in sorted(items, key=lambda pair: utc(pair[0].stated_at)):
            out.append(Item(Statement(batch.session, item.source_event_ids, _text(item), utc(item.stated_at)), item,
                            vector))  # fmt: skip
    return out


def _text(item: Fact | ForgetRequest) -> str:
    return item.content if isinstance(item, Fact) else item.query
