"""Partitioned ingest: a run's sessions split by tenant, each partition run and committed on its own.

Why: one run in one process does not scale past a machine, and the file lock does not hold across
machines. A partition is (app, user-hash bucket) (:mod:`tasks.partition_key`), so no two
partitions share a user: each consolidates against memories only it writes, and its commit is the
ordinary one (:func:`tasks.ingest.commit.commit_run`: deterministic ids, merge-insert, Lance's
optimistic commits retried on conflict) under its own run id ``<run id>.<partition id>``. A
partition that keeps failing is recorded as failed and its sessions stay out of the ledger, so a
re-run redoes that partition alone (the others' sessions are in the ledger and skipped).

The coordinator (:func:`run_partitioned`) pulls and validates once, hands the partitions to a mapper
(one after another in-process, :func:`tasks.ingest.run.map_in_process`; mapped Prefect tasks on the
flow's task runner, e.g. Dask, in :mod:`flows.ingest`; each runs :func:`tasks.ingest.run.run_partition`),
then refreshes the indexes and purges once and writes the whole run's record, which lists the
partitions with their outcomes and names the runner.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from pydantic import BaseModel

from tasks.clock import now
from tasks.ingest.commit import finish_interrupted_runs, record_run, write_quarantine
from tasks.ingest.stages import IngestSummary, PartitionOutcome, source_sessions
from tasks.models import Session
from tasks.partition_key import bucket_of, partition_id, partition_run_id
from tasks.partitioning import buckets, error_text, settled
from tasks.settings import Settings
from tasks.store.erase import purge_forgotten
from tasks.store.indexes import ensure_indexes
from tasks.store.lock import store_lock
from tasks.store.tables import open_store, run_scope

log = logging.getLogger("memory_pipeline.ingest")


class Partition(BaseModel):
    """The sessions of one (app, user-hash bucket): the unit a worker ingests and commits."""

    partition_id: str
    app_name: str
    bucket: int
    sessions: list[Session]


class PartitionResult(BaseModel):
    """What a partition task hands back: its outcome and its summary's counts (a plain dict: it crosses
    process boundaries, and the summary's usage meter does not pickle)."""

    outcome: PartitionOutcome
    counts: dict[str, Any]


#: Runs the partitions of one run and returns one result per partition, in order; never raises for a
#: partition's failure (that partition's result says ``failed``).
PartitionMapper = Callable[[list[Partition], Settings, str], list[PartitionResult]]


def split(sessions: Sequence[Session], n_buckets: int) -> list[Partition]:
    """The sessions by (app, user bucket), in a fixed order (app, bucket); a session's order is kept."""
    groups: dict[tuple[str, int], list[Session]] = {}
    for session in sessions:
        groups.setdefault((session.app_name, bucket_of(session.user_id, n_buckets)), []).append(session)
    return [
        Partition(partition_id=partition_id(app, bucket), app_name=app, bucket=bucket, sessions=group)
        for (app, bucket), group in sorted(groups.items())
    ]


def failed_result(partition: Partition, run_id: str, attempts: int, error: BaseException | str) -> PartitionResult:
    outcome = PartitionOutcome(
        partition_id=partition.partition_id, app_name=partition.app_name, bucket=partition.bucket,
        run_id=partition_run_id(run_id, partition.partition_id), sessions=len(partition.sessions),
        outcome="failed", attempts=attempts, error=error_text(error),
    )  # fmt: skip
    return PartitionResult(outcome=outcome, counts={})


_SUMMED = ("sessions_processed", "sessions_skipped", "sessions_quarantined", "facts_extracted", "forget_requests",
           "memories_written", "changes_written", "episodes_written", "evidence_written")  # fmt: skip


def _fold(summary: IngestSummary, partitions: list[Partition], results: list[PartitionResult]) -> None:
    """The partitions' counts added into the whole run's summary; a failed partition's sessions named."""
    actions: Counter[str] = Counter()
    for partition, result in zip(partitions, results, strict=True):
        summary.partitions.append(result.outcome)
        if result.outcome.outcome == "failed":
            for s in partition.sessions:
                key = f"{s.app_name}/{s.user_id}/{s.session_id}"
                summary.sessions_failed[key] = f"partition {partition.partition_id} failed: {result.outcome.error}"
            continue
        part = IngestSummary.model_validate(result.counts)
        for name in _SUMMED:
            setattr(summary, name, getattr(summary, name) + getattr(part, name))
        summary.embed_seconds += part.embed_seconds
        summary.sessions_failed.update(part.sessions_failed)
        actions.update(part.actions)
    summary.actions = dict(actions)


def run_partitioned(
    settings: Settings,
    *,
    stages: Any,
    run_id: str,
    sessions: Sequence[Session] | None,
    logger: logging.Logger | logging.LoggerAdapter[Any] | None,
    mapper: PartitionMapper,
    task_runner: str = "in-process",
) -> IngestSummary:
    """The whole partitioned run: pull and validate once, map the partitions, then one index refresh,
    one purge and the run's record (``completed``, or ``partial`` when a partition failed)."""
    logger = logger or log
    started_clock = time.perf_counter()
    with store_lock(settings, f"ingest run {run_id}"), run_scope():
        store = open_store(settings)
        started = now()
        summary = IngestSummary(run_id=run_id, task_runner=task_runner)
        sessions, quarantined = source_sessions(stages.pull, stages.validate, settings, sessions, summary)
        finish_interrupted_runs(store, run_id)
        before = store.versions()
        partitions = split(sessions, buckets(settings))
        record_run(store, summary, before, started, status="running")
        summary.sessions_quarantined += write_quarantine(store, quarantined, run_id)
        results = mapper(partitions, settings, run_id)
        _fold(summary, partitions, results)
        if summary.sessions_processed:
            settled(partial(ensure_indexes, store, settings), "index refresh")
        settled(lambda: purge_forgotten(settings, now()), "purge of forgotten text")
        failed = [r.outcome.partition_id for r in results if r.outcome.outcome == "failed"]
        summary.seconds = time.perf_counter() - started_clock
        record_run(store, summary, before, started, status="partial" if failed else "completed")
    for record in quarantined:
        logger.warning("quarantined %s:%s: %s", record.source, record.line, record.reason)
    if failed:
        logger.error("run %s: partitions %s failed; a re-run redoes them alone", run_id, ", ".join(failed))
    logger.info(
        "run %s: %d partitions on %s, %d seen, %d processed, %d skipped, %d memory rows written",
        run_id, len(partitions), task_runner, summary.sessions_seen, summary.sessions_processed,
        summary.sessions_skipped, summary.memories_written,
    )  # fmt: skip
    return summary
