"""The store's writer lock: one writer at a time, for CLI and Prefect runs alike."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tasks.errors import StoreBusyError
from tasks.ingest.run import run_ingest
from tasks.settings import Settings
from tasks.store.lock import lock_path, store_lock

REPO = Path(__file__).resolve().parents[1]


def test_a_second_writer_waits_then_fails_naming_the_holder(settings: Settings) -> None:
    with store_lock(settings, "maintenance pass ttl"), pytest.raises(StoreBusyError, match="maintenance pass ttl"):
        run_ingest(settings.model_copy(update={"lock_timeout_seconds": 0.3}))
    with store_lock(settings, "after release", timeout=0):
        pass


def test_the_lock_of_a_killed_process_is_released(settings: Settings) -> None:
    holder = textwrap.dedent(f"""
        import os, sys
        from tasks.settings import Settings
        from tasks.store.lock import store_lock
        with store_lock(Settings(store_uri={settings.store_uri!r}), "doomed"):
            print("held", flush=True)
            os._exit(9)  # dies holding the lock, like a SIGKILL
    """)
    done = subprocess.run([sys.executable, "-c", holder], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert "held" in done.stdout and done.returncode == 9
    with store_lock(settings, "next run", timeout=1):
        assert "next run" in lock_path(settings).read_text()


def test_object_store_locks_live_in_the_lock_dir(tmp_path: Path) -> None:
    remote = Settings(store_uri="s3://bucket/memories", lock_dir=str(tmp_path / "locks"))
    assert lock_path(remote).parent == tmp_path / "locks"
