"""Helpers for the crash and concurrency tests: an ingest in a child process, table snapshots."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tasks.ingest.faults import FAULT_ENV
from tasks.ingest.run import run_ingest
from tasks.models import Session
from tasks.settings import Settings
from tasks.store.tables import CHANGES, EPISODES, EVIDENCE, KEYS, LEDGER, MEMORIES, QUARANTINE, open_store

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "data" / "sessions"
DATA_TABLES = (MEMORIES, CHANGES, EPISODES, LEDGER, QUARANTINE, EVIDENCE)
#: Columns that differ between runs by nature (who wrote the row, when); everything else must match.
VOLATILE = {"run_id", "created_at", "updated_at", "processed_at", "vector"}
CHILD = (
    "import sys; from tasks.ingest.run import run_ingest; from tasks.settings import Settings; "
    "print(run_ingest(Settings(store_uri=sys.argv[1], sessions_uri=sys.argv[2])).model_dump_json())"
)


#: Crash tests keep forgotten rows (the purge after a run has its own crash test in test_erasure.py):
#: with immediate purging, the sample's forget request would remove the tags these tests check.
KEEP_FORGOTTEN: dict[str, float] = {"forgotten_retention_days": 36_500.0}


def start_ingest(settings: Settings, fault_at: str | None = None) -> subprocess.Popen[str]:
    """``run_ingest`` in a child process (optionally SIGKILLed at a kill point)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_PIPELINE_")}
    env["PYTHONPATH"] = str(REPO)
    env["MEMORY_PIPELINE_FORGOTTEN_RETENTION_DAYS"] = str(settings.forgotten_retention_days)
    if fault_at:
        env[FAULT_ENV] = fault_at
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, settings.store_uri, settings.sessions_uri],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def snapshot(settings: Settings) -> dict[str, list[tuple[Any, ...]]]:
    """Every data table as sorted rows without the volatile columns."""
    store = open_store(settings)
    out = {}
    for table in DATA_TABLES:
        rows = store.rows(table)
        out[table] = sorted(tuple((k, repr(v)) for k, v in sorted(r.items()) if k not in VOLATILE) for r in rows)
    return out


def duplicate_keys(settings: Settings) -> dict[str, int]:
    store = open_store(settings)
    out = {}
    for table in DATA_TABLES:
        key = KEYS[table]
        columns = [key] if isinstance(key, str) else list(key)
        keys = [tuple(r[k] for k in columns) for r in store.rows(table)]
        out[table] = len(keys) - len(set(keys))
    return out


def killed_like_clean(sessions: Sequence[Session], tmp_path: Path, fault_at: str = "after_memories") -> None:
    """``sessions`` ingested once cleanly and once killed at ``fault_at`` then run again: the same tables, no
    duplicate keys."""
    path = tmp_path / "sessions.jsonl"
    path.write_text("".join(s.model_dump_json() + "\n" for s in sessions))
    clean = Settings(store_uri=str(tmp_path / "clean"), sessions_uri=str(path), **KEEP_FORGOTTEN)
    run_ingest(clean)
    killed = clean.model_copy(update={"store_uri": str(tmp_path / "killed")})
    child = start_ingest(killed, fault_at=fault_at)
    _, err = child.communicate(timeout=300)
    assert child.returncode == -signal.SIGKILL, err[-2000:]
    run_ingest(killed)
    assert duplicate_keys(killed) == dict.fromkeys(duplicate_keys(clean), 0)
    assert snapshot(killed) == snapshot(clean)
