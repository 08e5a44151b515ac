"""Partitions as mapped Prefect tasks on the flow's task runner, for every partitioned flow (issue 66).

The ingest flow and the maintenance flows map their partitions the same way: Prefect's in-process pool
or prefect-dask's ``DaskTaskRunner`` (``settings.task_runner``), Prefect task retries as the partition's
attempts, and a partition failing every attempt handed back as a failed result while the others go on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from prefect import Task, get_run_logger, unmapped
from prefect.task_runners import TaskRunner, ThreadPoolTaskRunner

from tasks.settings import Settings

P = TypeVar("P")
R = TypeVar("R")


def task_runner(settings: Settings) -> TaskRunner[Any]:
    """The runner the partitions map on: Prefect's thread pool, or Dask (a cluster's address, else a
    LocalCluster of ``dask_workers`` single-threaded processes: the embedder releases the GIL, the
    extraction does not)."""
    if settings.task_runner == "default":
        return ThreadPoolTaskRunner(max_workers=1)  # in-process, one partition at a time, as without Prefect
    from prefect_dask.task_runners import DaskTaskRunner

    if settings.dask_address:
        return DaskTaskRunner(address=settings.dask_address)
    return DaskTaskRunner(cluster_class="distributed.LocalCluster", cluster_kwargs={
        "n_workers": settings.dask_workers, "threads_per_worker": 1, "processes": True, "dashboard_address": None,
    })  # fmt: skip


def map_partitions(
    task_: Task[..., R], partitions: list[P], settings: Settings, job: Any,
    failed: Callable[[P, int, BaseException | str], R],
) -> list[R]:  # fmt: skip
    """``task_(partition, settings, job)`` mapped over the partitions on the flow's runner, retried
    ``partition_attempts`` times; a partition failing every attempt is ``failed(partition, attempts, error)``."""
    wait_for_local_workers(settings)
    retries = settings.partition_attempts - 1
    mapped = task_.with_options(retries=retries, retry_delay_seconds=1)
    futures = mapped.map(partitions, unmapped(settings), unmapped(job))
    results: list[R] = []
    for partition, future in zip(partitions, futures, strict=True):
        future.wait()
        state = future.state
        if state.is_completed():
            results.append(future.result())
        else:
            error = state.result(raise_on_failure=False)
            results.append(failed(partition, retries + 1, error if isinstance(error, BaseException)
                                  else str(state.message)))  # fmt: skip
    return results


def wait_for_local_workers(settings: Settings) -> None:
    """On a LocalCluster, wait until every worker is up before mapping. Why: a worker still starting gets
    no task, and Dask does not move a long task once it runs: measured, 3 partitions on 2 workers all ran
    on the first one. A cluster's address is taken as it is (its workers may come and go)."""
    from prefect.context import FlowRunContext

    context = FlowRunContext.get()
    runner = context.task_runner if context else None
    client = getattr(runner, "client", None)
    if settings.task_runner == "dask" and not settings.dask_address and client is not None:
        try:
            client.wait_for_workers(settings.dask_workers, timeout=60)
        except (TimeoutError, OSError) as exc:  # a slow start: map on the workers that are up
            get_run_logger().warning("not all %d Dask workers started in 60 s (%s); mapping on those up",
                                     settings.dask_workers, exc)  # fmt: skip
