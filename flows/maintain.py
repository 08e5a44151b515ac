"""Maintenance flows: one thin flow per pass, and the nightly flow running them in order.

The passes are the plain functions of :mod:`tasks.maintain` (the CLI runs the same ones without
Prefect). A pass is idempotent for a given ``now`` and safe to re-run after a crash, so the flows
retry once. Writers never overlap: every pass holds the store's file lock, and the flows also take
the Prefect global concurrency limit ``memory-store-writer`` when the server has one (create it
with ``prefect gcl create memory-store-writer --limit 1``; without it the lock alone serialises).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

from prefect import flow, get_run_logger, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE
from pydantic import BaseModel, Field

from flows.partitions import map_partitions, task_runner
from tasks.maintain import PASSES, PassName, PassReport, run_pass
from tasks.maintain.partitions import (
    PassJob,
    PassPartitionResult,
    TenantPartition,
    failed_result,
    mapped_on,
    run_pass_partition,
)
from tasks.partitioning import buckets, check_cluster_address
from tasks.settings import Settings, load_settings

#: The Prefect global concurrency limit shared by the store's writers.
WRITER_LIMIT = "memory-store-writer"


class MaintainParams(BaseModel):
    """Parameters of every maintenance flow; unset values come from settings."""

    app: str | None = None
    user: str | None = None
    dry_run: bool = False
    #: Evaluate TTL and decay at this time (default: now).
    now: datetime | None = None
    store_uri: str | None = None
    passes: list[PassName] = Field(default_factory=lambda: list(PASSES))


@contextmanager
def _writer_slot(dry_run: bool) -> Iterator[None]:
    if dry_run:
        yield
        return
    from prefect.concurrency.sync import concurrency

    with concurrency(WRITER_LIMIT, occupy=1, strict=False):
        yield


def _run(name: PassName, params: MaintainParams | None) -> PassReport:
    params = params or MaintainParams()
    settings = load_settings(store_uri=params.store_uri)
    if buckets(settings) and name != "upkeep" and not params.dry_run:
        if settings.task_runner == "dask" and settings.dask_address:
            check_cluster_address(settings.dask_address, settings.dask_connect_timeout_seconds)
        return partitioned_pass_flow.with_options(task_runner=task_runner(settings))(name, params)
    with _writer_slot(params.dry_run):
        report = run_pass(settings, name, now=params.now, app=params.app, user=params.user, dry_run=params.dry_run)
    get_run_logger().info("%s", report.summary())
    return report


# -- issue 66: a pass's partitions as mapped tasks on the configured task runner (docs/scaling.md) ----


@task(name="maintain-partition", cache_policy=NO_CACHE)
def partition_task(partition: TenantPartition, settings: Settings, job: PassJob) -> PassPartitionResult:
    """One partition of a pass on a worker; its retries are Prefect's (a worker that died is another attempt)."""
    from prefect.runtime import task_run

    return run_pass_partition(partition, settings, job, attempt=int(task_run.run_count or 1))


def map_on_task_runner(
    partitions: list[TenantPartition], settings: Settings, job: PassJob
) -> list[PassPartitionResult]:
    return map_partitions(partition_task, partitions, settings, job,
                          lambda p, attempts, error: failed_result(p, job, attempts, error))  # fmt: skip


@flow(name="maintain-partitions")
def partitioned_pass_flow(name: PassName, params: MaintainParams) -> PassReport:
    """A partitioned pass: the coordinator here, its partitions on this flow's task runner."""
    settings = load_settings(store_uri=params.store_uri)
    with _writer_slot(False), mapped_on(map_on_task_runner, settings.task_runner):
        report = run_pass(settings, name, now=params.now, app=params.app, user=params.user)
    get_run_logger().info("%s", report.summary())
    return report


@flow(name="maintain-ttl", retries=1, retry_delay_seconds=60)
def ttl_flow(params: MaintainParams | None = None) -> PassReport:
    return _run("ttl", params)


@flow(name="maintain-decay", retries=1, retry_delay_seconds=60)
def decay_flow(params: MaintainParams | None = None) -> PassReport:
    return _run("decay", params)


@flow(name="maintain-capacity", retries=1, retry_delay_seconds=60)
def capacity_flow(params: MaintainParams | None = None) -> PassReport:
    return _run("capacity", params)


@flow(name="maintain-merge", retries=1, retry_delay_seconds=60)
def merge_flow(params: MaintainParams | None = None) -> PassReport:
    return _run("merge", params)


@flow(name="maintain-upkeep", retries=1, retry_delay_seconds=60)
def upkeep_flow(params: MaintainParams | None = None) -> PassReport:
    return _run("upkeep", params)


PASS_FLOWS = {"ttl": ttl_flow, "decay": decay_flow, "capacity": capacity_flow, "merge": merge_flow,
              "upkeep": upkeep_flow}  # fmt: skip


@flow(name="maintain-memory")
def maintain_flow(params: MaintainParams | None = None) -> list[PassReport]:
    """The nightly sequence ttl → decay → capacity → merge → upkeep (or ``params.passes``), one subflow each."""
    params = params or MaintainParams()
    reports = [PASS_FLOWS[name](params) for name in PASSES if name in params.passes]
    lines = ["| pass | scanned | changes | run |", "|---|---|---|---|"]
    lines += [f"| {r.pass_name} | {r.scanned} | {r.counts} | {r.run_id} |" for r in reports]
    create_markdown_artifact("\n".join(lines), key="maintenance", description="What the maintenance passes changed")
    return reports
