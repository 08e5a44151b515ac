"""The ingest flow: the one stage sequence (``tasks.ingest.run``) with each stage a Prefect task.

Tasks take settings and plain models, never clients, and do not cache across runs: the ledger,
not Prefect's cache, decides what was already processed. The I/O stages retry with backoff;
merge-insert writes on deterministic keys make a retried write add nothing.
"""

from __future__ import annotations

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE
from pydantic import BaseModel

from tasks.ingest.commit import commit_run
from tasks.ingest.run import Stages, run_ingest
from tasks.ingest.stages import IngestSummary, embed_extracted, extract_sessions, pull_sessions, select_new
from tasks.ingest.validate import validate_batch
from tasks.settings import load_settings

_IO_RETRIES = {"retries": 3, "retry_delay_seconds": [2, 10, 30], "retry_jitter_factor": 0.5}

FLOW_STAGES = Stages(
    pull=task(pull_sessions, name="pull-sessions", cache_policy=NO_CACHE, **_IO_RETRIES),
    validate=task(validate_batch, name="validate-sessions", cache_policy=NO_CACHE),
    select=task(select_new, name="select-new-sessions", cache_policy=NO_CACHE, **_IO_RETRIES),
    extract=task(extract_sessions, name="extract", cache_policy=NO_CACHE),
    embed=task(embed_extracted, name="embed", cache_policy=NO_CACHE),
    write=task(commit_run, name="consolidate-and-write", cache_policy=NO_CACHE, **_IO_RETRIES),
)


class IngestParams(BaseModel):
    """Flow parameters; unset values come from settings (env vars or the settings file)."""

    sessions_uri: str | None = None
    store_uri: str | None = None


@flow(name="ingest-sessions", log_prints=False)
def ingest_flow(params: IngestParams | None = None) -> IngestSummary:
    params = params or IngestParams()
    settings = load_settings(sessions_uri=params.sessions_uri, store_uri=params.store_uri)
    return run_ingest(settings, stages=FLOW_STAGES, logger=get_run_logger())
