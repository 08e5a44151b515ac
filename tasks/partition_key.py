"""Which partition a tenant falls in: (app, user-hash bucket), the same on every machine and run.

Kept free of heavy imports: the rollback check (``tasks.consolidate.history``) reads partition run ids too.
"""

from __future__ import annotations

import hashlib
import re

#: Between a run id and a partition id in the partition's own run id: ``<run id>.<partition id>``.
PARTITION_SEP = "."

#: Buckets a partitioned run uses when the Dask runner is chosen without ``partition_buckets``.
DEFAULT_BUCKETS = 16


def bucket_of(user_id: str, buckets: int) -> int:
    """The user's bucket: a hash, not Python's ``hash`` (salted per process), so every worker agrees."""
    digest = hashlib.sha256(user_id.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % buckets


def partition_id(app_name: str, bucket: int) -> str:
    """A short id safe in a Lance tag and a file name, whatever characters the app's name holds."""
    return f"p{bucket:03d}-{hashlib.sha256(app_name.encode('utf-8')).hexdigest()[:8]}"


def partition_run_id(run_id: str, partition: str) -> str:
    return f"{run_id}{PARTITION_SEP}{partition}"


def is_partition_of(run_id: str, parent: str) -> bool:
    """Whether ``run_id`` is one of ``parent``'s partitions."""
    return run_id.startswith(parent + PARTITION_SEP)


def partition_suffix(run_id: str) -> str | None:
    """The partition id of a partition's run id; None for a whole run."""
    head, sep, tail = run_id.rpartition(PARTITION_SEP)
    return tail if sep and head and _PARTITION_ID.fullmatch(tail) else None


_PARTITION_ID = re.compile(r"p\d{3,4}-[0-9a-f]{8}")
