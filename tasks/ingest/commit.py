"""The write stage of an ingest run: consolidate per user, then write in a crash-safe order.

Order: runs row ("running") → quarantine → audit log → memories → episodes → indexes → ledger →
runs row ("completed") and version tags. A run that dies before the ledger is re-run in full;
deterministic ids and merge-insert make that add nothing. The audit log goes before the memories:
a re-run recomputes the same verdicts with the same change ids, so a log written first keeps the
real reasons, whereas memories written first would be re-logged as "applied by an earlier run".
A run that died after its ledger write is finished by the next one (:func:`finish_interrupted_runs`):
its runs row is completed and its versions tagged, so it can still be rolled back.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from datetime import datetime

from tasks.clock import now
from tasks.consolidate.engine import ConsolidationOutcome, consolidate_user, load_user_memories, load_users_memories
from tasks.consolidate.evidence_redact import forgotten_in_store, redact_evidence
from tasks.consolidate.forgetting import scrub_episodes
from tasks.consolidate.matches import ERASE_USER, UNMATCHED_FORGET
from tasks.ingest.evidence import cite, evidence_rows, passages_of
from tasks.ingest.faults import fault_point
from tasks.ingest.stages import Embedded, IngestSummary
from tasks.models import QuarantineRecord, SessionBatch, stable_id
from tasks.partition_key import partition_suffix
from tasks.providers import build_consolidator, build_embedder
from tasks.providers.base import Embedder
from tasks.providers.openai_client import map_concurrent
from tasks.rows import EpisodeRow, EvidenceRow, LedgerRow, MemoryRow, QuarantineRow, RunRow
from tasks.settings import Settings
from tasks.store.filters import all_of, eq, is_in
from tasks.store.indexes import ensure_indexes
from tasks.store.owners import USERS_PER_QUERY, rows_by_owner
from tasks.store.tables import (
    CHANGES,
    EPISODES,
    EVIDENCE,
    LEDGER,
    MEMORIES,
    QUARANTINE,
    RUNS,
    Store,
    dumps_json,
    open_store,
)


def write_quarantine(store: Store, records: Sequence[QuarantineRecord], run_id: str) -> int:
    """Record bad input once: a line quarantined by an earlier run is not written again."""
    stamp = now()
    rows = [
        QuarantineRow(quarantine_id=stable_id(r.source, str(r.line), r.raw), source=r.source, line=r.line,
                      reason=r.reason, raw=r.raw, run_id=run_id, created_at=stamp)
        for r in records
    ]  # fmt: skip
    if not rows:
        return 0
    ids = [r.quarantine_id for r in rows]
    where = is_in("quarantine_id", ids, ("quarantine_id",))
    known = {r["quarantine_id"] for r in store.rows(QUARANTINE, where, ["quarantine_id"])}
    return store.insert_new(QUARANTINE, [r for r in rows if r.quarantine_id not in known])


def group_by_user(batches: Sequence[SessionBatch]) -> dict[tuple[str, str], list[SessionBatch]]:
    groups: dict[tuple[str, str], list[SessionBatch]] = defaultdict(list)
    for batch in batches:
        groups[(batch.session.app_name, batch.session.user_id)].append(batch)
    return dict(groups)


def consolidate_users(
    embedded: Embedded, settings: Settings, run_id: str, at: datetime
) -> dict[tuple[str, str], ConsolidationOutcome]:
    """Each user's consolidation outcome by (app_name, user_id), in the order of their first batch.

    Users consolidated ahead (``embedded.consolidated``, see :mod:`tasks.ingest.run`) are taken as they
    are: the writer lock is held for the whole run, so their memories cannot have changed since.
    """
    consolidator = build_consolidator(settings)
    store = open_store(settings)

    groups = list(group_by_user(embedded.batches).items())
    loaded: dict[tuple[str, str], list[MemoryRow]] = {}

    def one_user(group: tuple[tuple[str, str], list[SessionBatch]]) -> ConsolidationOutcome:
        (app, user), batches = group
        done = embedded.consolidated.get((app, user))
        if done is not None:
            return done
        existing = loaded.pop((app, user), None)
        return consolidate_user(
            load_user_memories(store, app, user) if existing is None else existing, batches, consolidator,
            run_id=run_id, now=at, related_k=settings.related_k,
            concurrency=settings.openai_max_in_flight if settings.consolidator == "openai" else 1,
        )  # fmt: skip

    # Users are independent: with an LLM consolidator their calls overlap (and a user's own, where they can).
    if settings.consolidator != "openai":
        outcomes_local: dict[tuple[str, str], ConsolidationOutcome] = {}
        for start in range(0, len(groups), USERS_PER_QUERY):  # a chunk's memories read at once, then dropped
            chunk = groups[start : start + USERS_PER_QUERY]
            loaded.update(load_users_memories(store, [k for k, _ in chunk if k not in embedded.consolidated]))
            outcomes_local.update((key, one_user((key, batches))) for key, batches in chunk)
        return outcomes_local
    outcomes: dict[tuple[str, str], ConsolidationOutcome] = {}
    for (key, _), outcome in zip(groups, map_concurrent(one_user, groups, settings), strict=True):
        if isinstance(outcome, BaseException):
            raise outcome
        outcomes[key] = outcome
    return outcomes


def embedded_anew(rows: list[MemoryRow], row_ids: set[str], embedder: Embedder) -> list[MemoryRow]:
    """``rows``, those named in ``row_ids`` with a vector embedded from their own text (what a forget kept)."""
    redo = [r for r in rows if r.row_id in row_ids]
    if not redo:
        return rows
    vectors = dict(zip((r.row_id for r in redo), embedder.embed([r.content for r in redo]), strict=True))
    return [r.model_copy(update={"vector": vectors[r.row_id].tolist()}) if r.row_id in vectors else r for r in rows]


def commit_run(
    embedded: Embedded,
    quarantined: Sequence[QuarantineRecord],
    settings: Settings,
    summary: IngestSummary,
) -> IngestSummary:
    """Consolidate and write one run's sessions; returns a copy of the summary with the write counts.

    The input summary is not changed, so a retried write (Prefect retries this task) counts once.
    """
    summary = summary.model_copy(deep=True)
    if embedded.evidence_vectors:  # turns too long to keep whole: the rest is quarantined with the reason
        quarantined = [*quarantined, *(q for b in embedded.batches for q in passages_of(b.session)[1])]
    store = open_store(settings)
    started = now()
    finish_interrupted_runs(store, summary.run_id, partition=summary.partition)
    before = store.versions()
    if embedded.batches:
        record_run(store, summary, before, started, status="running")
        fault_point("after_run_started")
    summary.sessions_quarantined += write_quarantine(store, quarantined, summary.run_id)
    fault_point("after_quarantine")
    if not embedded.batches:
        summary.read_usage(final=True)  # calls made for sessions that all failed or were quarantined
        return summary
    upserts, changes, reembed = [], [], set()
    for outcome in consolidate_users(embedded, settings, summary.run_id, started).values():
        upserts += outcome.upserts
        changes += outcome.changes
        reembed.update(outcome.reembed)
    embedder = build_embedder(settings)
    upserts = embedded_anew(upserts, reembed, embedder)
    summary.changes_written = store.insert_new(CHANGES, changes)
    fault_point("after_audit")
    summary.memories_written = store.upsert(MEMORIES, upserts)
    fault_point("after_memories")
    summary.evidence_written = write_evidence(store, embedded, summary.run_id, started)
    owners = [(b.session.app_name, b.session.user_id) for b in embedded.batches]
    forgotten, asked = forgotten_in_store(store, owners, [b.session.session_id for b in embedded.batches])
    redact_evidence(store, embedder, forgotten, asked)  # a spoken forget reaches the verbatim turns
    fault_point("after_evidence")
    summary.actions = dict(Counter(c.action for c in changes))
    summary.forgets_unmatched = [c.reason for c in changes if c.reason.startswith(UNMATCHED_FORGET)]
    erase = sorted({(c.app_name, c.user_id) for c in changes if c.reason.startswith(ERASE_USER)})
    summary.erased_on_request = [list(pair) for pair in erase]
    rows = [
        EpisodeRow.of(e, v, summary.run_id, started).model_dump()
        for e, v in zip(embedded.episodes, embedded.episode_vectors, strict=True)
    ]
    rows, scrubbed = scrub_episodes(store, embedder, changes, rows)
    summary.episodes_written = store.upsert(EPISODES, rows) + scrubbed
    fault_point("after_episodes")
    if summary.partition is None:  # a partitioned run refreshes the indexes once, after its partitions
        ensure_indexes(store, settings)
    fault_point("after_indexes")
    written = Counter(c.session_id for c in changes if c.action != "IGNORE")
    ledger = [
        LedgerRow(session_key=b.session.key, app_name=b.session.app_name, user_id=b.session.user_id,
                  session_id=b.session.session_id, content_hash=b.session.content_hash,
                  ended_at=b.session.ended_at, processed_at=now(), run_id=summary.run_id,
                  memories_written=written[b.session.session_id])
        for b in embedded.batches
    ]  # fmt: skip
    summary.sessions_processed = len(ledger)
    record_run(store, summary, before, started, status="running")  # the counts, should the run die now
    store.upsert(LEDGER, ledger)
    fault_point("after_ledger")
    record_run(store, summary, before, started)
    return summary


def write_evidence(store: Store, embedded: Embedded, run_id: str, at: datetime) -> int:
    """The run's turns, verbatim, citing the memories written from them (merge-insert: once per turn).

    Written after the memories and before the ledger, so a run killed in between is re-run whole and
    its rollback restores both tables to the versions before it."""
    if not embedded.evidence_vectors:
        return 0
    rows: list[EvidenceRow] = []
    for batch, vectors in zip(embedded.batches, embedded.evidence_vectors, strict=True):
        passages, _ = passages_of(batch.session)
        rows += evidence_rows(batch.session, passages, vectors, run_id, at)
    # A row a forget already redacted (this run, killed after it, or an earlier one) keeps its redaction.
    kept = redacted_ids(store, [r.evidence_id for r in rows])
    # Cited from the stored memories, not this run's upserts: a re-run after a kill writes none of them.
    owners = sorted({(b.session.app_name, b.session.user_id) for b in embedded.batches})
    columns = ["memory_id", "app_name", "user_id", "source_event_ids"]
    memories = [m for rows in rows_by_owner(store, MEMORIES, owners, columns=columns).values() for m in rows]
    return store.upsert(EVIDENCE, cite([r for r in rows if r.evidence_id not in kept], memories))


def redacted_ids(store: Store, ids: Sequence[str]) -> set[str]:
    """Which of these evidence rows are stored redacted."""
    if not store.has(EVIDENCE):
        return set()
    found: set[str] = set()
    for start in range(0, len(ids), 500):
        where = all_of(is_in("evidence_id", ids[start : start + 500], ("evidence_id",)), "redacted = true")
        found.update(r["evidence_id"] for r in store.rows(EVIDENCE, where, ["evidence_id"]))
    return found


def record_run(
    store: Store, summary: IngestSummary, before: dict[str, int], started: datetime, status: str = "completed"
) -> None:
    """The runs row (versions before/after, for rollback); a completed run first tags every table's version.

    A ``running`` row marks a run in progress: if the process dies, the next run finishes or closes it.
    Tags go before the ``completed`` row, so a completed row always has its tags.
    """
    final = status in ("completed", "partial")
    summary.read_usage(final=final)
    flow = "ingest" if summary.partition is None else "ingest-partition"
    # The partition fields only where they say something: an unpartitioned run's record is as before.
    unset = {k for k in ("partition", "partitions", "task_runner") if not getattr(summary, k)}
    row = RunRow(run_id=summary.run_id, flow=flow, started_at=started, ended_at=now(), status=status,
                 versions_before=dumps_json(before), versions_after="{}",
                 counts=dumps_json(summary.model_dump(exclude={"run_id", *unset})))  # fmt: skip
    if final:
        row.versions_after = dumps_json(store.versions())
        store.tag_versions(summary.run_id)
        fault_point("after_tags")
    store.upsert(RUNS, [row])


def finish_interrupted_runs(store: Store, current_run: str, partition: str | None = None) -> list[str]:
    """Close the ``running`` rows of runs that died (the writer lock is held, so none is still going).

    A partition (``partition`` set) closes only earlier attempts of that same partition: its sibling
    partitions may be running on other workers, which no lock keeps apart. A whole run leaves every
    partition's rows alone for the same reason.

    A run whose ledger write landed is complete: its row becomes ``completed`` with today's versions
    as its ``versions_after`` and tags (nothing was written since: the lock), so it can be rolled
    back. A run that died before its ledger becomes ``interrupted``; its sessions are being re-run.
    """
    if not store.has(RUNS):
        return []
    done = []
    for run in store.rows(RUNS, eq("status", "running", ("status",))):
        run_id = run["run_id"]
        if run_id == current_run:
            continue  # a retried write of this very run
        if partition_suffix(run_id) != partition:
            continue  # a whole run closes whole runs; a partition, earlier attempts of itself
        landed = store.has(LEDGER) and store.table(LEDGER).count_rows(eq("run_id", run_id, ("run_id",))) > 0
        versions = store.versions()
        if landed:
            store.tag_versions(run_id)
        status = "completed" if landed else "interrupted"
        store.upsert(RUNS, [{**run, "status": status, "ended_at": now(), "versions_after": dumps_json(versions)}])
        done.append(run_id)
    return done
