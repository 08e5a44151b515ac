"""Thin Prefect task wrappers over the ingest stages (the logic lives in plain functions).

Tasks take URIs, settings and plain models, never clients. They do not cache across runs:
the ledger, not Prefect's cache, decides what was already processed.
"""

from __future__ import annotations

from collections.abc import Sequence

from prefect import task
from prefect.cache_policies import NO_CACHE

from tasks.models import QuarantineRecord, Session
from tasks.pipeline import Embedded, Extracted, IngestSummary, embed_extracted, extract_sessions, select_new
from tasks.sessions import RawSession, read_source
from tasks.settings import Settings
from tasks.validation import ValidationResult, validate_batch
from tasks.writer import commit_run


@task(name="pull-sessions", cache_policy=NO_CACHE)
def pull_task(sessions_uri: str, max_raw: int) -> tuple[list[RawSession], list[QuarantineRecord]]:
    raws: list[RawSession] = []
    bad: list[QuarantineRecord] = []
    for item in read_source(sessions_uri, max_raw):
        (bad if isinstance(item, QuarantineRecord) else raws).append(item)  # type: ignore[arg-type]
    return raws, bad


@task(name="validate-sessions", cache_policy=NO_CACHE)
def validate_task(raws: list[RawSession]) -> ValidationResult:
    return validate_batch(raws)


@task(name="select-new-sessions", cache_policy=NO_CACHE)
def select_task(sessions: Sequence[Session], settings: Settings) -> list[Session]:
    return select_new(sessions, settings)


@task(name="extract", cache_policy=NO_CACHE)
def extract_task(sessions: Sequence[Session], settings: Settings) -> tuple[list[Extracted], list[QuarantineRecord]]:
    """The extractions, and the sessions whose LLM replies stayed invalid (quarantined, not ledgered)."""
    bad: list[QuarantineRecord] = []
    return extract_sessions(sessions, settings, quarantine=bad), bad


@task(name="embed", cache_policy=NO_CACHE)
def embed_task(items: Sequence[Extracted], settings: Settings) -> Embedded:
    return embed_extracted(items, settings)


@task(name="consolidate-and-write", cache_policy=NO_CACHE)
def write_task(
    embedded: Embedded, quarantined: Sequence[QuarantineRecord], settings: Settings, summary: IngestSummary
) -> IngestSummary:
    return commit_run(embedded, quarantined, settings, summary)
