"""What every partitioned run shares, ingest and the maintenance passes alike (issue 66, docs/scaling.md).

A partition is the tenants of one (app, user-hash bucket) (:mod:`tasks.partition_key`): it is run and
committed on its own under ``<run id>.<partition id>``, retried alone, and listed with its outcome in the
whole run's record. This module holds the pieces that do not depend on what a partition does: the bucket
count of a configuration, the common fields of a partition's outcome, the in-process retry loop, the
re-run of a whole-store step that raced another writer, and the check of a Dask scheduler's address.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Sequence
from typing import Literal, Protocol, TypeVar

from pydantic import BaseModel

from tasks.errors import ClusterUnreachableError
from tasks.partition_key import DEFAULT_BUCKETS
from tasks.settings import Settings
from tasks.store.tables import is_commit_conflict

log = logging.getLogger("memory_pipeline.partitions")


def buckets(settings: Settings) -> int:
    """Buckets per app of this configuration: 0 means an unpartitioned run."""
    if settings.partition_buckets:
        return settings.partition_buckets
    return DEFAULT_BUCKETS if settings.task_runner == "dask" else 0


def worker_name() -> str:
    return f"{socket.gethostname()}/{os.getpid()}"


class OutcomeFields(BaseModel):
    """The fields every partition's outcome has, whatever the partition did (``runs --json``: ``partitions``)."""

    partition_id: str
    app_name: str
    bucket: int
    #: The partition's own run id (its runs row, version tags and rollback): ``<run id>.<partition id>``.
    run_id: str
    outcome: Literal["completed", "failed"]
    attempts: int = 1
    #: The last attempt's error (type and message) when it failed.
    error: str | None = None
    seconds: float = 0.0
    #: Who ran the last attempt ("host/pid").
    worker: str = ""


def error_text(error: BaseException | str) -> str:
    """A failed partition's error as its record keeps it: type and message, at most 300 characters."""
    text = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
    return text[:300]


class HasPartitionId(Protocol):
    @property
    def partition_id(self) -> str: ...


P = TypeVar("P", bound=HasPartitionId)
R = TypeVar("R")


def retry_each(
    partitions: Sequence[P], run_one: Callable[[P, int], R], failed: Callable[[P, int, BaseException], R],
    attempts: int,
) -> list[R]:  # fmt: skip
    """One partition after another in this process, each tried up to ``attempts`` times; a partition
    failing every attempt gives ``failed(partition, attempts, error)`` and the others go on."""
    results: list[R] = []
    for partition in partitions:
        for attempt in range(1, attempts + 1):
            try:
                results.append(run_one(partition, attempt))
                break
            except Exception as exc:
                log.warning("partition %s attempt %d failed: %s", partition.partition_id, attempt, exc, exc_info=True)
                if attempt == attempts:
                    results.append(failed(partition, attempt, exc))
    return results


#: Attempts of a whole-store step after the partitions (index refresh, purge) racing another run's.
SETTLE_ATTEMPTS = 4


def settled(action: Callable[[], object], what: str) -> None:
    """Run a whole-store step again when another writer's same step overtook it (no lock spans machines).

    Why: two runs finishing at once both refresh the indexes and purge forgotten text; the loser sees a
    commit conflict, or a version or tag the winner's purge just removed. Each step is idempotent and
    resumable (the purge resumes an interrupted erasure first), so it is simply run again.
    """
    for attempt in range(1, SETTLE_ATTEMPTS + 1):
        try:
            action()
            return
        except (OSError, ValueError, RuntimeError) as exc:
            text = str(exc).lower()
            raced = is_commit_conflict(exc) or "not found" in text or "does not exist" in text
            if not raced or attempt == SETTLE_ATTEMPTS:
                raise
            log.warning("%s raced another writer (attempt %d of %d), again: %s", what, attempt, SETTLE_ATTEMPTS, exc)
            time.sleep(0.2 * attempt)


def check_cluster_address(address: str, timeout: float) -> None:
    """Fail before anything is written when the Dask scheduler at ``address`` does not answer a connect.

    Why: Dask's client would otherwise retry for its own (longer) timeout inside the flow and fail
    with a generic ``OSError`` after the run's record was started.
    """
    _, _, rest = address.rpartition("://")
    host, sep, port = rest.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise ClusterUnreachableError(f"dask_address {address!r} is not [scheme://]host:port")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        raise ClusterUnreachableError(
            f"the Dask scheduler at {address!r} is unreachable ({exc}); nothing was ingested or written"
        ) from exc
