"""The one ingest sequence: pull → validate → select → extract → embed → consolidate and write.

Both entry points run this same function: the Prefect flow passes its task-wrapped stages (with
retries on the I/O ones), plain Python and the CLI pass the stages as they are. Exactly-once comes
from the ledger keyed by session and content hash, written only after the memories.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tasks.clock import now
from tasks.ingest.commit import commit_run
from tasks.ingest.stages import (
    Embedded,
    Extracted,
    IngestSummary,
    embed_extracted,
    extract_sessions,
    new_run_id,
    pull_sessions,
    select_new,
)
from tasks.ingest.validate import ValidationResult, validate_batch
from tasks.models import QuarantineRecord, Session
from tasks.settings import Settings
from tasks.sources.raw import RawSession
from tasks.store.erase import purge_forgotten
from tasks.store.lock import store_lock
from tasks.store.tables import run_scope

log = logging.getLogger("memory_pipeline.ingest")


@dataclass(frozen=True)
class Stages:
    """The stage callables of one ingest; the flow swaps in Prefect tasks wrapping the same functions."""

    pull: Callable[[Settings], tuple[list[RawSession], list[QuarantineRecord]]] = pull_sessions
    validate: Callable[[list[RawSession]], ValidationResult] = validate_batch
    select: Callable[[Sequence[Session], Settings], list[Session]] = select_new
    extract: Callable[[Sequence[Session], Settings], tuple[list[Extracted], list[QuarantineRecord]]] = (
        extract_sessions
    )
    embed: Callable[[Sequence[Extracted], Settings], Embedded] = embed_extracted
    write: Callable[[Embedded, Sequence[QuarantineRecord], Settings, IngestSummary], IngestSummary] = commit_run


def run_ingest(
    settings: Settings,
    *,
    stages: Stages | None = None,
    run_id: str | None = None,
    sessions: Sequence[Session] | None = None,
    logger: logging.Logger | logging.LoggerAdapter[Any] | None = None,
) -> IngestSummary:
    """Ingest the configured source (or the given, already validated ``sessions``) into the store.

    Holds the store's writer lock for the whole run, so two ingests (or an ingest and a maintenance
    pass) never interleave their writes.
    """
    run_id = run_id or new_run_id()
    with store_lock(settings, f"ingest run {run_id}"), run_scope():
        return _run(settings, stages or Stages(), run_id, sessions, logger or log)


def _run(
    settings: Settings,
    stages: Stages,
    run_id: str,
    sessions: Sequence[Session] | None,
    logger: logging.Logger | logging.LoggerAdapter[Any],
) -> IngestSummary:
    started = time.perf_counter()
    summary = IngestSummary(run_id=run_id)
    quarantined: list[QuarantineRecord] = []
    if sessions is None:
        raws, unreadable = stages.pull(settings)
        validated = stages.validate(raws)
        quarantined = unreadable + validated.quarantined
        sessions = validated.sessions
        summary.sessions_seen = len(raws) + len(unreadable)
        summary.sessions_pending = validated.pending
    else:
        summary.sessions_seen = len(sessions)
    todo = stages.select(sessions, settings)
    summary.sessions_skipped = len(sessions) - len(todo)
    extracted, bad_replies = stages.extract(todo, settings)
    quarantined = [*quarantined, *bad_replies]
    summary.count_extracted(extracted)
    embedded = stages.embed(extracted, settings)
    summary.embed_seconds = embedded.seconds
    summary = stages.write(embedded, quarantined, settings, summary)
    purge_forgotten(settings, now())  # forgotten text leaves the table files after its retention period
    summary.seconds = time.perf_counter() - started
    for record in quarantined:
        logger.warning("quarantined %s:%s: %s", record.source, record.line, record.reason)
    logger.info(
        "run %s: %d seen, %d processed, %d skipped, %d quarantined, %d memory rows written (%s)",
        summary.run_id, summary.sessions_seen, summary.sessions_processed, summary.sessions_skipped,
        summary.sessions_quarantined, summary.memories_written, summary.actions,
    )  # fmt: skip
    return summary


def ingest_sessions(sessions: Sequence[Session], settings: Settings, *, run_id: str | None = None) -> IngestSummary:
    """Ingest already-validated sessions (evaluation, Python backfills): the same sequence, no pull."""
    return run_ingest(settings, sessions=sessions, run_id=run_id)
