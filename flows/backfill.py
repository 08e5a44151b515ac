"""The backfill flow: a time range's sessions in event-time order, batch by batch, with Prefect progress.

The work is :func:`tasks.maintain.backfill.run_backfill` (the CLI runs it directly); the flow adds a
progress artifact updated after each batch. Re-running it after a crash resumes: the ledger skips
what earlier batches finished.
"""

from __future__ import annotations

from datetime import datetime
from typing import cast
from uuid import UUID

from prefect import flow, get_run_logger
from prefect.artifacts import create_progress_artifact, update_progress_artifact
from pydantic import BaseModel

from tasks.maintain.backfill import BackfillReport, run_backfill
from tasks.settings import load_settings


class BackfillParams(BaseModel):
    start: datetime
    end: datetime
    app: str | None = None
    user: str | None = None
    dry_run: bool = False
    sessions_uri: str | None = None
    store_uri: str | None = None
    batch_size: int | None = None


@flow(name="backfill-sessions")
def backfill_flow(params: BackfillParams) -> BackfillReport:
    settings = load_settings(sessions_uri=params.sessions_uri, store_uri=params.store_uri,
                             backfill_batch_size=params.batch_size)  # fmt: skip
    logger = get_run_logger()
    artifact: list[UUID] = []

    def progress(done: int, total: int) -> None:
        pct = 100.0 * done / total if total else 100.0
        text = f"{done}/{total} sessions"
        if not artifact:
            created = create_progress_artifact(pct, key="backfill-progress", description=text)
            artifact.append(cast(UUID, created))
        else:
            update_progress_artifact(artifact[0], pct, description=text)
        logger.info("backfill: %s", text)

    return run_backfill(settings, start=params.start, end=params.end, app=params.app, user=params.user,
                        dry_run=params.dry_run, progress=progress)  # fmt: skip
