"""One writer at a time per store: an exclusive lock held by ingest runs and maintenance passes.

Lance commits are atomic, but two writers interleaving a run's steps (memories, audit, ledger)
would each consolidate against a state the other is changing. The lock is an OS file lock, so it
holds for plain CLI runs and Prefect runs alike and is released by the kernel if a process dies.
For a local store it lives in the store folder; for object-store URIs in ``settings.lock_dir``
(one host); across hosts, Prefect deployments add a concurrency limit on top.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tasks.errors import StoreBusyError
from tasks.settings import Settings

LOCK_NAME = ".memory-pipeline.lock"


def lock_path(settings: Settings) -> Path:
    """Where the store's lock file lives (created with its folder when missing)."""
    uri = settings.store_uri
    if "://" in uri:
        folder = Path(settings.lock_dir)
        name = hashlib.sha256(uri.encode("utf-8")).hexdigest()[:16] + ".lock"
    else:
        folder, name = Path(uri), LOCK_NAME
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name


@contextmanager
def store_lock(settings: Settings, holder: str, timeout: float | None = None) -> Iterator[None]:
    """Hold the store's writer lock while the block runs; waits up to ``timeout`` seconds for it.

    Raises :class:`StoreBusyError` (naming the holder) when another writer keeps it longer.
    """
    wait = settings.lock_timeout_seconds if timeout is None else timeout
    path = lock_path(settings)
    with path.open("a+", encoding="utf-8") as handle:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    handle.seek(0)
                    raise StoreBusyError(
                        f"store {settings.store_uri!r} is being written by {handle.read().strip() or 'another run'}; "
                        f"gave up after {wait:.0f} s"
                    ) from None
                time.sleep(0.2)
        handle.seek(0)
        handle.truncate()
        handle.write(f"{holder} (pid {os.getpid()})")
        handle.flush()
        try:
            yield
        finally:
            handle.seek(0)
            handle.truncate()
            handle.flush()
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
