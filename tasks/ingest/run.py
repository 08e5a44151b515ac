"""The one ingest sequence: pull → validate → select → extract → embed → consolidate and write.

Extraction and embedding can run chunk by chunk, overlapped (``ingest_chunk_sessions``; off by default).

Both entry points run this same function: the Prefect flow passes its task-wrapped stages (with
retries on the I/O ones), plain Python and the CLI pass the stages as they are. Exactly-once comes
from the ledger keyed by session and content hash, written only after the memories.
"""

from __future__ import annotations

import contextvars
import logging
import resource
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from tasks.clock import now
from tasks.ingest.commit import commit_run, consolidate_users
from tasks.ingest.faults import fault_point
from tasks.ingest.partitions import Partition, PartitionMapper, PartitionResult, failed_result, run_partitioned
from tasks.ingest.stages import (
    Embedded,
    Extracted,
    IngestSummary,
    PartitionOutcome,
    embed_extracted,
    extract_sessions,
    new_run_id,
    pull_sessions,
    select_new,
    source_sessions,
)
from tasks.ingest.validate import ValidationResult, validate_batch
from tasks.models import QuarantineRecord, Session, stable_id
from tasks.partition_key import partition_run_id
from tasks.partitioning import buckets, retry_each, worker_name
from tasks.providers import embedder_loads
from tasks.providers.openai_slots import priority_context
from tasks.settings import Settings
from tasks.sources.raw import RawSession
from tasks.store.erase import erase_user, purge_forgotten, record_erasure, resume_erasures
from tasks.store.lock import store_lock
from tasks.store.tables import open_store, run_scope

log = logging.getLogger("memory_pipeline.ingest")
T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True)
class Stages:
    """The stage callables of one ingest; the flow swaps in Prefect tasks wrapping the same functions."""

    pull: Callable[[Settings], tuple[list[RawSession], list[QuarantineRecord]]] = pull_sessions
    validate: Callable[[list[RawSession]], ValidationResult] = validate_batch
    select: Callable[[Sequence[Session], Settings], list[Session]] = select_new
    extract: Callable[[Sequence[Session], Settings], tuple[list[Extracted], list[QuarantineRecord]]] = extract_sessions
    embed: Callable[[Sequence[Extracted], Settings], Embedded] = embed_extracted
    write: Callable[[Embedded, Sequence[QuarantineRecord], Settings, IngestSummary], IngestSummary] = commit_run


def run_ingest(
    settings: Settings,
    *,
    stages: Stages | None = None,
    run_id: str | None = None,
    sessions: Sequence[Session] | None = None,
    logger: logging.Logger | logging.LoggerAdapter[Any] | None = None,
    mapper: PartitionMapper | None = None,
    task_runner: str = "in-process",
) -> IngestSummary:
    """Ingest the configured source (or the given, already validated ``sessions``) into the store.

    Holds the store's writer lock for the whole run, so two ingests (or an ingest and a maintenance
    pass) on one machine never interleave their writes. With ``partition_buckets`` (or the Dask task
    runner) the run is partitioned by tenant (:mod:`tasks.ingest.partitions`); ``mapper`` runs the
    partitions (default: one after another in this process), ``task_runner`` names it in the record.
    """
    run_id = run_id or new_run_id()
    if buckets(settings):
        return run_partitioned(settings, stages=stages or Stages(), run_id=run_id, sessions=sessions, logger=logger,
                               mapper=mapper or map_in_process, task_runner=task_runner)  # fmt: skip
    with store_lock(settings, f"ingest run {run_id}"), run_scope():
        return run_stages(settings, stages or Stages(), run_id, sessions, logger or log)


def run_stages(
    settings: Settings,
    stages: Stages,
    run_id: str,
    sessions: Sequence[Session] | None,
    logger: logging.Logger | logging.LoggerAdapter[Any],
    partition: str | None = None,
) -> IngestSummary:
    """The sequence itself, without the writer lock: :func:`run_ingest` holds it, and a partition of a
    partitioned run (``partition``, :mod:`tasks.ingest.partitions`) is kept apart from the others by its
    tenants (no two partitions share a user) and from reruns by Lance's commit protocol."""
    started = time.perf_counter()
    summary = IngestSummary(run_id=run_id, partition=partition)
    sessions, quarantined = source_sessions(stages.pull, stages.validate, settings, sessions, summary)
    todo = stages.select(sessions, settings)
    summary.sessions_skipped = len(sessions) - len(todo)
    extracted, bad_replies, embedded = _extract_and_embed(stages, todo, settings, summary)
    quarantined = [*quarantined, *bad_replies]
    summary.count_extracted(extracted)
    summary.embed_seconds = embedded.seconds
    summary = stages.write(embedded, quarantined, settings, summary)
    erase_requested(settings, summary)
    if partition is None:  # a partitioned run purges once, after its partitions
        purge_forgotten(settings, now())  # forgotten text leaves the table files after its retention period
    summary.seconds = time.perf_counter() - started
    for record in quarantined:
        logger.warning("quarantined %s:%s: %s", record.source, record.line, record.reason)
    for name, error in summary.sessions_failed.items():
        logger.error("session %s failed and stays unprocessed (the next run retries it): %s", name, error)
    logger.info(
        "run %s: %d seen, %d processed, %d skipped, %d quarantined, %d memory rows written (%s)",
        summary.run_id, summary.sessions_seen, summary.sessions_processed, summary.sessions_skipped,
        summary.sessions_quarantined, summary.memories_written, summary.actions,
    )  # fmt: skip
    return summary


def erase_requested(settings: Settings, summary: IngestSummary) -> None:
    """Erase every user who asked to forget everything about them, by the audited path of ``erase-user``
    (every row of the user, bytes and old versions included; a ``runs`` row per erasure)."""
    if not summary.erased_on_request:
        return
    store = open_store(settings)
    resume_erasures(store)
    for app_name, user_id in summary.erased_on_request:
        started, before = now(), store.versions()
        run_id = f"erase-{summary.run_id}-{stable_id(app_name, user_id)[:8]}"
        report = erase_user(store, app_name, user_id, run_id=run_id, reason="erased on request (asked in a session)")
        record_erasure(store, run_id, "erase", before, report, started)


def _extract_and_embed(
    stages: Stages, todo: list[Session], settings: Settings, summary: IngestSummary
) -> tuple[list[Extracted], list[QuarantineRecord], Embedded]:
    """Extraction chunk by chunk, each chunk embedded on a second thread while the next one is extracted.

    Why: embedding (onnxruntime, which releases the GIL) is most of a local ingest and extraction is
    pure Python, so the two overlap on two cores. The vectors are the same as from one call: each text
    is embedded on its own (padding never changes a text's vector) and a session's texts stay in one
    chunk, so a fact and the episode sentence that repeats it are still embedded once. The embedding
    thread runs in a copy of the caller's context, so task-wrapped (Prefect) stages see their flow run.
    Off by default (``ingest_chunk_sessions`` 0, one chunk): on this 2-core machine the extraction thread
    and onnxruntime's workers contend, and a whole run's texts batch better by length than a chunk's.
    """
    local = settings.extractor == "local" and settings.summarizer == "local"
    groups = pipelines(todo) if not local and settings.consolidator == "openai" else []
    if len(groups) > 1:
        return _pipelined(stages, groups, settings, summary)
    per_chunk = settings.ingest_chunk_sessions
    size = per_chunk if local and per_chunk else max(len(todo), 1)  # LLM calls: one concurrent batch
    chunks = [todo[i : i + size] for i in range(0, len(todo), size)] or [[]]
    extracted: list[Extracted] = []
    bad: list[QuarantineRecord] = []
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="ingest-embed") as pool:
        pending: list[Future[Embedded]] = []
        for chunk in chunks:
            part, part_bad = _extract_isolated(stages, chunk, settings, summary)
            extracted += part
            bad += part_bad
            context = contextvars.copy_context()
            pending.append(pool.submit(context.run, _embed_isolated, stages, part, settings, summary))
        fault_point("after_extract")
        parts = [p.result() for p in pending]
    return extracted, bad, _joined(parts)


def pipelines(todo: Sequence[Session]) -> list[list[Session]]:
    """The sessions of each user with at least :data:`OWN_PIPELINE_SHARE` of the run's turns (the most
    first), then the rest together (their chains are short, and together their calls batch better)."""
    users: dict[tuple[str, str], list[Session]] = {}
    for session in todo:
        users.setdefault((session.app_name, session.user_id), []).append(session)
    turns = {key: sum(len(s.events) for s in sessions) for key, sessions in users.items()}
    total = sum(turns.values())
    big = sorted((k for k in users if turns[k] >= OWN_PIPELINE_SHARE * total), key=lambda k: -turns[k])
    rest = [s for k, sessions in users.items() if k not in big for s in sessions]
    return [users[k] for k in big] + ([rest] if rest else [])


def _pipelined(
    stages: Stages, groups: list[list[Session]], settings: Settings, summary: IngestSummary
) -> tuple[list[Extracted], list[QuarantineRecord], Embedded]:
    """LLM runs: each user's sessions extracted, embedded and consolidated as soon as they can be.

    Why: a user's consolidation is a chain of decision round trips, and it needs only that user's
    facts; waiting for every session of the run to be extracted first put the whole extraction in
    front of the longest chain. The big users go in order of size (the most turns first: the longest
    chain), each on its own thread, and the others together last (:func:`pipelines`); the HTTP calls
    stay bounded by the process-wide in-flight slots, served by priority: a group's extraction starts
    when the one before it is done (else, at the start, the groups race for the slots and the biggest
    gets no head start) and waits behind every consolidation decision (whose priorities are below
    :data:`USER_PRIORITY_STEP`), so the chains it would delay go first. The outcomes are the ones the
    write stage would compute (the writer lock is held, so the memories they read cannot change); the
    write stage takes them as they are.
    """
    started = now()

    extracted = [threading.Event() for _ in groups]

    def one(rank: int) -> tuple[list[Extracted], list[QuarantineRecord], Embedded]:
        if rank:
            extracted[rank - 1].wait()
        try:
            part, part_bad = _extract_isolated(stages, groups[rank], settings, summary)
        finally:
            extracted[rank].set()
        embedded = _embed_isolated(stages, part, settings, summary)
        try:
            if embedded.batches:
                embedded.consolidated = consolidate_users(embedded, settings, summary.run_id, started)
        except Exception:  # left to the write stage, which decides again (and is retried as a whole)
            log.warning("consolidation ahead of the write failed; the write stage redoes it", exc_info=True)
        return part, part_bad, embedded

    with ThreadPoolExecutor(max_workers=len(groups), thread_name_prefix="ingest-user") as pool:
        futures = [
            pool.submit(priority_context(rank * USER_PRIORITY_STEP).run, one, rank) for rank in range(len(groups))
        ]
        fault_point("after_extract")
        results = [f.result() for f in futures]
    return [e for r in results for e in r[0]], [q for r in results for q in r[1]], _joined([r[2] for r in results])


def _joined(parts: Sequence[Embedded]) -> Embedded:
    return Embedded(
        batches=[b for p in parts for b in p.batches], episodes=[e for p in parts for e in p.episodes],
        episode_vectors=[v for p in parts for v in p.episode_vectors], seconds=sum(p.seconds for p in parts),
        consolidated={k: o for p in parts for k, o in p.consolidated.items()},
        evidence_vectors=[v for p in parts for v in p.evidence_vectors],
    )  # fmt: skip


def _label(session: Session) -> str:
    return f"{session.app_name}/{session.user_id}/{session.session_id}"


#: Priority distance between the extraction of consecutive users in an LLM run (see :func:`_pipelined`).
USER_PRIORITY_STEP = 1000

#: A user with at least this share of an LLM run's turns is extracted and consolidated on its own
#: (at most 1/share users can be): see :func:`pipelines`.
OWN_PIPELINE_SHARE = 0.125

#: In the per-session retry after a batch failure, this many failures before any success mean the
#: provider is down, not one session bad: the run fails as a whole instead of trying every session.
PROVIDER_DOWN_AFTER = 3


def _one_by_one(
    items: Sequence[T], call: Callable[[list[T]], R], label: Callable[[T], str], what: str, summary: IngestSummary
) -> list[R]:
    """``call`` on each item alone; failures are named in ``summary.sessions_failed`` and left out."""
    out: list[R] = []
    failed = 0
    for item in items:
        try:
            out.append(call([item]))
        except Exception as exc:
            summary.sessions_failed[label(item)] = f"{what} failed: {type(exc).__name__}: {exc}"[:300]
            failed += 1
            if not out and failed >= PROVIDER_DOWN_AFTER:
                raise
    return out


def _extract_isolated(
    stages: Stages, todo: list[Session], settings: Settings, summary: IngestSummary
) -> tuple[list[Extracted], list[QuarantineRecord]]:
    """Extraction of the batch; if the provider fails, each session alone, so a session that fails is left
    out (unmarked in the ledger, so the next run retries it; named in the summary) instead of the run."""
    try:
        return stages.extract(todo, settings)
    except Exception:
        log.warning("extraction of %d sessions failed; retrying them one by one", len(todo), exc_info=True)
    parts = _one_by_one(todo, lambda one: stages.extract(one, settings), _label, "extraction", summary)
    return [e for part in parts for e in part[0]], [q for part in parts for q in part[1]]


def _embed_isolated(stages: Stages, items: list[Extracted], settings: Settings, summary: IngestSummary) -> Embedded:
    """One batched embedding; on failure, per session (as :func:`_extract_isolated`)."""
    try:
        return stages.embed(items, settings)
    except Exception:
        log.warning("embedding of %d sessions failed; retrying them one by one", len(items), exc_info=True)
    parts = _one_by_one(items, lambda one: stages.embed(one, settings), lambda i: _label(i.session), "embedding",
                        summary)  # fmt: skip
    return _joined(parts)


def ingest_sessions(sessions: Sequence[Session], settings: Settings, *, run_id: str | None = None) -> IngestSummary:
    """Ingest already-validated sessions (evaluation, Python backfills): the same sequence, no pull."""
    return run_ingest(settings, sessions=sessions, run_id=run_id)


def run_partition(partition: Partition, settings: Settings, run_id: str, attempt: int = 1) -> PartitionResult:
    """Ingest one partition's sessions and commit them under the partition's run id; raises on failure
    (the mapper retries). Without the writer lock: the coordinator holds it for the whole run."""
    own = partition_run_id(run_id, partition.partition_id)
    started = time.perf_counter()
    with run_scope():
        summary = run_stages(settings, Stages(), own, partition.sessions, log, partition=partition.partition_id)
    outcome = PartitionOutcome(
        partition_id=partition.partition_id, app_name=partition.app_name, bucket=partition.bucket, run_id=own,
        sessions=len(partition.sessions), outcome="completed", attempts=attempt,
        sessions_processed=summary.sessions_processed, memories_written=summary.memories_written,
        evidence_written=summary.evidence_written, seconds=round(time.perf_counter() - started, 3),
        worker=worker_name(), embedder_loads=embedder_loads(),
        worker_peak_mb=round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    )  # fmt: skip
    return PartitionResult(outcome=outcome, counts=summary.model_dump())


def map_in_process(partitions: list[Partition], settings: Settings, run_id: str) -> list[PartitionResult]:
    """One partition after another in this process, each tried up to ``partition_attempts`` times."""
    return retry_each(partitions, lambda p, attempt: run_partition(p, settings, run_id, attempt),
                      lambda p, attempt, exc: failed_result(p, run_id, attempt, exc),
                      settings.partition_attempts)  # fmt: skip
