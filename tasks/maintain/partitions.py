"""Partitioned maintenance passes (issue 66): a pass's tenants split by (app, user-hash bucket), each
partition planned and committed on its own.

Why: one pass in one process holding the file lock does not scale past a machine. A partition holds
whole tenants, the same (app, bucket) and partition id as ingest's (:mod:`tasks.partition_key`): no two
partitions read or write the same user's rows, so each is the ordinary pass (its planner, restricted to
its users, and :func:`tasks.maintain.write.write_plans`) under its own run id ``<pass run id>.<partition
id>``, with its own runs row and version tags. Its writes are kept apart from the others' by Lance's
commit protocol (deterministic ids, merge-insert, commit conflicts retried), not by the machine-local
lock: only the coordinator takes that.

The coordinator (:func:`run_partitioned`) lists the tenants, hands the partitions to a mapper (one after
another in this process, :func:`map_in_process`; mapped Prefect tasks on the flow's task runner in
:mod:`flows.maintain`), then records the whole pass: counts summed over the partitions, and the
partitions with their outcomes and the runner. A partition failing every attempt is recorded failed
(status ``partial``) while the others stay committed; the same pass run again (the same ``now`` and scope,
so the same run id) redoes only the partitions whose runs row is not ``completed``.
"""

from __future__ import annotations

import importlib
import json
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from tasks.clock import now as wall_clock
from tasks.maintain.common import MAX_ITEMS, PassItem, PassName, PassReport, Plan, UserScope, tenants, where_scope
from tasks.maintain.write import record_run, write_plans
from tasks.partition_key import bucket_of, partition_id, partition_run_id
from tasks.partitioning import OutcomeFields, buckets, error_text, retry_each, worker_name
from tasks.settings import Settings
from tasks.store.filters import is_in
from tasks.store.lock import store_lock
from tasks.store.tables import EPISODES, EVIDENCE, MEMORIES, RUNS, Store, open_store, run_scope

#: The tables whose tenants a pass reads (memories, episodes for the rollup, evidence for its TTL and cap).
TENANT_TABLES = (MEMORIES, EPISODES, EVIDENCE)


class TenantPartition(BaseModel):
    """The users of one (app, user-hash bucket): the unit a worker runs a pass over and commits."""

    partition_id: str
    app_name: str
    bucket: int
    users: list[str]


class PassJob(BaseModel):
    """What every partition of one pass shares: which pass, its run id and the time it evaluates at."""

    pass_name: PassName
    run_id: str
    now: datetime


class PassPartitionOutcome(OutcomeFields):
    """One partition of a partitioned pass, as the run record lists it (``runs --json``: ``partitions``)."""

    tenants: int
    scanned: int = 0
    counts: dict[str, int] = Field(default_factory=dict)


class PassPartitionResult(BaseModel):
    """What a partition task hands back: its outcome, and its report's totals and first items (plain data:
    it crosses process boundaries)."""

    outcome: PassPartitionOutcome
    details: dict[str, Any] = Field(default_factory=dict)
    items: list[PassItem] = Field(default_factory=list)


#: Runs the partitions of one pass, one result per partition in order; never raises for a partition.
PassMapper = Callable[[list[TenantPartition], Settings, PassJob], list[PassPartitionResult]]


def split_tenants(store: Store, settings: Settings, app: str | None, user: str | None) -> list[TenantPartition]:
    """The tenants a pass reads (any row of theirs in :data:`TENANT_TABLES`), by (app, bucket), in that order."""
    n_buckets = buckets(settings)
    groups: dict[tuple[str, int], set[str]] = {}
    for table in TENANT_TABLES:
        for a, u in tenants(store, table, where_scope(app, user), settings.maintain_chunk_rows):
            groups.setdefault((a, bucket_of(u, n_buckets)), set()).add(u)
    return [
        TenantPartition(partition_id=partition_id(a, b), app_name=a, bucket=b, users=sorted(users))
        for (a, b), users in sorted(groups.items())
    ]


Planner = Callable[[Settings, Store, PassReport, str | None, UserScope], Iterable[Plan]]


def planner_of(name: PassName) -> Planner:
    """The pass's own planner, ``tasks.maintain.<name>.plan_<name>`` (looked up by name on the worker)."""
    found: Planner = getattr(importlib.import_module(f"tasks.maintain.{name}"), f"plan_{name}")
    return found


def run_pass_partition(
    partition: TenantPartition, settings: Settings, job: PassJob, attempt: int = 1
) -> PassPartitionResult:
    """Plan and write one partition's share of the pass under its own run id; raises on failure (the mapper
    retries). Without the writer lock: the coordinator holds it, and no other partition has these users."""
    own = partition_run_id(job.run_id, partition.partition_id)
    started, clock = wall_clock(), time.perf_counter()
    report = PassReport(pass_name=job.pass_name, run_id=own, now=job.now, dry_run=False, app_name=partition.app_name)
    with run_scope():
        store = open_store(settings)
        before = report.versions_before = store.versions()
        plans = planner_of(job.pass_name)(settings, store, report, partition.app_name, tuple(partition.users))
        write_plans(store, plans, report, job.now)
        outcome = PassPartitionOutcome(
            partition_id=partition.partition_id, app_name=partition.app_name, bucket=partition.bucket, run_id=own,
            outcome="completed", attempts=attempt, seconds=round(time.perf_counter() - clock, 3),
            worker=worker_name(), tenants=len(partition.users), scanned=report.scanned, counts=report.counts,
        )  # fmt: skip
        record_run(store, report, before, started, flow=f"maintain:{job.pass_name}:partition",
                   extra={"partition": outcome.model_dump(mode="json")})  # fmt: skip
    return PassPartitionResult(outcome=outcome, details=report.details, items=report.items)


def failed_result(
    partition: TenantPartition, job: PassJob, attempts: int, error: BaseException | str
) -> PassPartitionResult:
    outcome = PassPartitionOutcome(
        partition_id=partition.partition_id, app_name=partition.app_name, bucket=partition.bucket,
        run_id=partition_run_id(job.run_id, partition.partition_id), outcome="failed", attempts=attempts,
        error=error_text(error), tenants=len(partition.users),
    )  # fmt: skip
    return PassPartitionResult(outcome=outcome)


def map_in_process(partitions: list[TenantPartition], settings: Settings, job: PassJob) -> list[PassPartitionResult]:
    """One partition after another in this process, each tried up to ``partition_attempts`` times."""
    return retry_each(partitions, lambda p, attempt: run_pass_partition(p, settings, job, attempt),
                      lambda p, attempt, exc: failed_result(p, job, attempt, exc),
                      settings.partition_attempts)  # fmt: skip


_MAPPER: ContextVar[tuple[PassMapper, str] | None] = ContextVar("maintain_partition_mapper", default=None)


@contextmanager
def mapped_on(mapper: PassMapper, task_runner: str) -> Iterator[None]:
    """Partitioned passes run inside this block map their partitions with ``mapper`` (named ``task_runner``
    in the record): the maintenance flows set their task runner's mapper here."""
    token = _MAPPER.set((mapper, task_runner))
    try:
        yield
    finally:
        _MAPPER.reset(token)


def _completed(store: Store, job: PassJob, partitions: list[TenantPartition]) -> dict[str, PassPartitionResult]:
    """The partitions of this same run that already committed (a re-run after a failure leaves them alone)."""
    if not partitions or not store.has(RUNS):
        return {}
    ids = [partition_run_id(job.run_id, p.partition_id) for p in partitions]
    done: dict[str, PassPartitionResult] = {}
    for row in store.rows(RUNS, where=is_in("run_id", ids, ("run_id",))):
        counts = json.loads(row["counts"] or "{}")
        if row["status"] == "completed" and "partition" in counts:
            outcome = PassPartitionOutcome.model_validate(counts["partition"])
            done[outcome.partition_id] = PassPartitionResult(outcome=outcome, details=counts.get("details", {}))
    return done


def fold(report: PassReport, results: list[PassPartitionResult]) -> None:
    """The partitions' reports added into the whole pass's: counts and scanned summed, items in partition
    order (up to :data:`MAX_ITEMS`), numeric details summed (a float, e.g. decay's weakest strength, is the
    least), partitions listed."""
    counts: dict[str, int] = {}
    details: dict[str, Any] = {}
    for result in results:
        report.partitions.append(result.outcome.model_dump(mode="json"))
        if result.outcome.outcome == "failed":
            continue
        report.scanned += result.outcome.scanned
        for action, n in result.outcome.counts.items():
            counts[action] = counts.get(action, 0) + n
        report.items += result.items[: max(MAX_ITEMS - len(report.items), 0)]
        for key, value in result.details.items():
            known = details.get(key)
            if isinstance(value, float) and not isinstance(value, bool):
                details[key] = value if known is None else min(known, value)
            elif isinstance(value, int) and not isinstance(value, bool):
                details[key] = (known or 0) + value
            else:
                details.setdefault(key, value)
    report.counts, report.details = counts, details


def run_partitioned(settings: Settings, report: PassReport, started: datetime) -> None:
    """The whole partitioned pass, into ``report``: under the writer lock, list the partitions, map those not
    yet committed under this run id, and record the pass (``completed``, or ``partial`` when one failed)."""
    mapper, runner = _MAPPER.get() or (map_in_process, "in-process")
    job = PassJob(pass_name=report.pass_name, run_id=report.run_id, now=report.now)  # type: ignore[arg-type]
    with store_lock(settings, f"maintain {report.pass_name} {report.run_id}"), run_scope():
        store = open_store(settings)
        if not store.existing():
            return
        previous = store.rows(RUNS, where=is_in("run_id", [report.run_id], ("run_id",))) if store.has(RUNS) else []
        # A re-run of the same pass keeps the versions from before its first attempt: rollback undoes it all.
        before = json.loads(previous[0]["versions_before"]) if previous else store.versions()
        report.versions_before = before
        partitions = split_tenants(store, settings, report.app_name, report.user_id)
        done = _completed(store, job, partitions)
        todo = [p for p in partitions if p.partition_id not in done]
        fresh = iter(mapper(todo, settings, job) if todo else [])
        results = [done[p.partition_id] if p.partition_id in done else next(fresh) for p in partitions]
        report.task_runner = runner
        fold(report, results)
        failed = [r.outcome.partition_id for r in results if r.outcome.outcome == "failed"]
        record_run(store, report, before, previous[0]["started_at"] if previous else started,
                   status="partial" if failed else "completed",
                   extra={"partitions": report.partitions, "task_runner": runner})  # fmt: skip
        report.versions_after = store.versions()
