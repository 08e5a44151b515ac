"""A run that dies after writing memories but before the ledger is re-run without duplicates."""

from __future__ import annotations

from pathlib import Path

import lancedb
import pyarrow as pa
import pytest

from tasks.ingest.run import ingest_sessions
from tasks.models import Session
from tasks.settings import Settings
from tasks.sources.files import read_source
from tasks.sources.raw import RawSession
from tasks.store.tables import CHANGES, EPISODES, LEDGER, MEMORIES, open_store

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sessions"


def sample_sessions() -> list[Session]:
    from tasks.ingest.validate import validate_batch

    return validate_batch([r for r in read_source(str(SAMPLE)) if isinstance(r, RawSession)]).sessions


def contents(settings: Settings, table: str) -> list[tuple[object, ...]]:
    rows = open_store(settings).rows(table)
    drop = {"run_id", "created_at", "updated_at", "processed_at", "vector"}
    return sorted(tuple(v for k, v in sorted(r.items()) if k not in drop) for r in rows) if rows else []


def test_failed_run_is_rerun_without_duplicates(tmp_path: Path) -> None:
    sessions = sample_sessions()
    clean = Settings(store_uri=str(tmp_path / "clean"))
    ingest_sessions(sessions, clean)

    broken = Settings(store_uri=str(tmp_path / "broken"))
    # A real storage failure: the ledger table has only the columns the read needs, so the ledger
    # write fails after memories, audit log and episodes were written.
    schema = pa.schema([("session_key", pa.string()), ("content_hash", pa.string())])
    lancedb.connect(broken.store_uri).create_table(LEDGER, schema=schema)
    with pytest.raises(Exception):  # noqa: B017 - whatever Lance raises, the run must stop
        ingest_sessions(sessions, broken)
    assert open_store(broken).table(MEMORIES).count_rows() > 0, "the failure came after the memory write"

    lancedb.connect(broken.store_uri).drop_table(LEDGER)
    rerun = ingest_sessions(sessions, broken)
    assert rerun.sessions_processed == len(sessions)
    for table, key in ((MEMORIES, "row_id"), (CHANGES, "change_id"), (EPISODES, "episode_id")):
        rows = open_store(broken).rows(table)
        assert len({r[key] for r in rows}) == len(rows), f"duplicate keys in {table}"
        assert contents(broken, table) == contents(clean, table), f"{table} differs from a clean run"
    assert ingest_sessions(sessions, broken).sessions_processed == 0
