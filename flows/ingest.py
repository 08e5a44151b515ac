"""The ingest flow: the one stage sequence (``tasks.ingest.run``) with each stage a Prefect task.

Tasks take settings and plain models, never clients, and do not cache across runs: the ledger,
not Prefect's cache, decides what was already processed. The I/O stages retry with backoff;
merge-insert writes on deterministic keys make a retried write add nothing.
"""

from __future__ import annotations

from typing import Any

from prefect import Task, flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE
from prefect.client.schemas.objects import State, TaskRun
from pydantic import BaseModel

from flows.partitions import map_partitions, task_runner
from tasks.ingest.commit import commit_run
from tasks.ingest.partitions import Partition, PartitionResult, failed_result
from tasks.ingest.run import Stages, run_ingest, run_partition
from tasks.ingest.stages import IngestSummary, embed_extracted, extract_sessions, pull_sessions, select_new
from tasks.ingest.validate import validate_batch
from tasks.partitioning import buckets, check_cluster_address
from tasks.settings import Settings, load_settings


def _transient(task_: Task[..., Any], run: TaskRun, state: State[Any]) -> bool:
    """Retry storage hiccups (I/O errors, Lance commit conflicts), never a bad input or a bug."""
    exc = state.result(raise_on_failure=False)
    return isinstance(exc, OSError | TimeoutError) or "conflict" in str(exc).lower()


def _io(name: str) -> Any:
    """Task options of the I/O stages: retried with backoff and jitter on transient failures."""
    return task(name=name, cache_policy=NO_CACHE, retries=3, retry_delay_seconds=[2, 10, 30],
                retry_jitter_factor=0.5, retry_condition_fn=_transient)  # fmt: skip


def _cpu(name: str) -> Any:
    return task(name=name, cache_policy=NO_CACHE)


FLOW_STAGES = Stages(
    pull=_io("pull-sessions")(pull_sessions),
    validate=_cpu("validate-sessions")(validate_batch),
    select=_io("select-new-sessions")(select_new),
    extract=_cpu("extract")(extract_sessions),
    embed=_cpu("embed")(embed_extracted),
    write=_io("consolidate-and-write")(commit_run),
)


class IngestParams(BaseModel):
    """Flow parameters; unset values come from settings (env vars or the settings file)."""

    sessions_uri: str | None = None
    store_uri: str | None = None


@flow(name="ingest-sessions", log_prints=False)
def ingest_flow(params: IngestParams | None = None) -> IngestSummary:
    params = params or IngestParams()
    settings = load_settings(sessions_uri=params.sessions_uri, store_uri=params.store_uri)
    if not buckets(settings):
        return run_ingest(settings, stages=FLOW_STAGES, logger=get_run_logger())
    if settings.task_runner == "dask" and settings.dask_address:
        check_cluster_address(settings.dask_address, settings.dask_connect_timeout_seconds)
    return partitioned_flow.with_options(task_runner=task_runner(settings))(params)


# -- issue 66: partitions as mapped tasks on the configured task runner (docs/scaling.md) ------------


@task(name="ingest-partition", cache_policy=NO_CACHE)
def partition_task(partition: Partition, settings: Settings, run_id: str) -> PartitionResult:
    """One partition on a worker; its retries are Prefect's (a worker that died is another attempt)."""
    from prefect.runtime import task_run

    return run_partition(partition, settings, run_id, attempt=int(task_run.run_count or 1))


def map_on_task_runner(partitions: list[Partition], settings: Settings, run_id: str) -> list[PartitionResult]:
    """The partitions as mapped tasks on the flow's runner; a partition failing every attempt is a
    failed result, the others go on."""
    return map_partitions(partition_task, partitions, settings, run_id,
                          lambda p, attempts, error: failed_result(p, run_id, attempts, error))  # fmt: skip


@flow(name="ingest-partitions", log_prints=False)
def partitioned_flow(params: IngestParams) -> IngestSummary:
    """A partitioned ingest: the coordinator here, its partitions on this flow's task runner."""
    settings = load_settings(sessions_uri=params.sessions_uri, store_uri=params.store_uri)
    return run_ingest(settings, stages=FLOW_STAGES, logger=get_run_logger(), mapper=map_on_task_runner,
                      task_runner=settings.task_runner)  # fmt: skip
