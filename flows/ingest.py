"""The ingest flow: pull ended sessions → validate → extract → embed → consolidate and write."""

from __future__ import annotations

import time

from prefect import flow, get_run_logger
from pydantic import BaseModel

from tasks.ingest_tasks import embed_task, extract_task, pull_task, select_task, validate_task, write_task
from tasks.pipeline import IngestSummary, new_run_id
from tasks.settings import load_settings


class IngestParams(BaseModel):
    """Flow parameters; unset values come from settings (env vars or the settings file)."""

    sessions_uri: str | None = None
    store_uri: str | None = None


@flow(name="ingest-sessions", log_prints=False)
def ingest_flow(params: IngestParams | None = None) -> IngestSummary:
    params = params or IngestParams()
    settings = load_settings(sessions_uri=params.sessions_uri, store_uri=params.store_uri)
    logger = get_run_logger()
    started = time.perf_counter()
    summary = IngestSummary(run_id=new_run_id())
    raws, unreadable = pull_task(settings.sessions_uri, settings.quarantine_raw_max_chars)
    validated = validate_task(raws)
    quarantined = unreadable + validated.quarantined
    summary.sessions_seen = len(raws) + len(unreadable)
    summary.sessions_pending = validated.pending
    todo = select_task(validated.sessions, settings)
    summary.sessions_skipped = len(validated.sessions) - len(todo)
    extracted, bad_replies = extract_task(todo, settings)
    quarantined += bad_replies
    summary.count_extracted(extracted)
    embedded = embed_task(extracted, settings)
    summary.embed_seconds = embedded.seconds
    summary = write_task(embedded, quarantined, settings, summary)
    summary.seconds = time.perf_counter() - started
    for record in quarantined:
        logger.warning("quarantined %s:%s: %s", record.source, record.line, record.reason)
    logger.info(
        "run %s: %d seen, %d processed, %d skipped, %d quarantined, %d memory rows written (%s)",
        summary.run_id, summary.sessions_seen, summary.sessions_processed, summary.sessions_skipped,
        summary.sessions_quarantined, summary.memories_written, summary.actions,
    )  # fmt: skip
    return summary
