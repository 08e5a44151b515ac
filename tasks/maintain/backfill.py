"""Backfill: ingest the sessions of a time range, oldest first, in batches of ingest runs.

Sessions are pulled from the configured source, validated, kept when they ended inside
``[start, end)`` (and match ``app`` / ``user``), and ordered by when they ended, so consolidation
sees each user's sessions in event time across batches as within one. Each batch is one ordinary
ingest run (:func:`tasks.ingest.run.run_ingest` with ``sessions=``: same lock, ledger, runs row).
A crashed backfill is simply started again: the ledger skips the sessions already done.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from pydantic import BaseModel, Field

from tasks.clock import utc
from tasks.ingest.run import run_ingest
from tasks.ingest.stages import pull_sessions, select_new
from tasks.ingest.validate import validate_batch
from tasks.models import Session
from tasks.settings import Settings

#: Called after each batch with (sessions done, sessions to do).
Progress = Callable[[int, int], None]


class BackfillReport(BaseModel):
    start: datetime
    end: datetime
    dry_run: bool
    sessions_in_range: int = 0
    already_done: int = 0
    to_process: int = 0
    processed: int = 0
    batches: int = 0
    memories_written: int = 0
    run_ids: list[str] = Field(default_factory=list)


def sessions_in_range(settings: Settings, start: datetime, end: datetime, app: str | None = None,
                      user: str | None = None) -> list[Session]:  # fmt: skip
    """Valid sessions that ended in ``[start, end)``, oldest first (ties by start, then key)."""
    raws, _ = pull_sessions(settings)
    lo, hi = utc(start), utc(end)
    chosen = [
        s for s in validate_batch(raws).sessions
        if lo <= utc(s.ended_at) < hi and (app is None or s.app_name == app) and (user is None or s.user_id == user)
    ]  # fmt: skip
    return sorted(chosen, key=lambda s: (utc(s.ended_at), utc(s.started_at), s.key))


def batches(sessions: Sequence[Session], size: int) -> list[list[Session]]:
    return [list(sessions[i : i + size]) for i in range(0, len(sessions), max(size, 1))]


def run_backfill(
    settings: Settings, *, start: datetime, end: datetime, app: str | None = None, user: str | None = None,
    dry_run: bool = False, progress: Progress | None = None,
) -> BackfillReport:  # fmt: skip
    """Ingest the range's sessions not yet in the ledger, in event-time order, batch by batch."""
    report = BackfillReport(start=utc(start), end=utc(end), dry_run=dry_run)
    sessions = sessions_in_range(settings, start, end, app, user)
    todo = select_new(sessions, settings)
    report.sessions_in_range, report.to_process = len(sessions), len(todo)
    report.already_done = len(sessions) - len(todo)
    if progress is not None:
        progress(0, len(todo))
    if dry_run:
        return report
    for batch in batches(todo, settings.backfill_batch_size):
        summary = run_ingest(settings, sessions=batch)
        report.batches += 1
        report.processed += summary.sessions_processed + summary.sessions_skipped
        report.memories_written += summary.memories_written
        report.run_ids.append(summary.run_id)
        if progress is not None:
            progress(report.processed, len(todo))
    return report
