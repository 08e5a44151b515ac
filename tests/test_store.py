"""Store guard rails: embedder mismatch refused, merge-insert idempotent, filters escaped."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from tasks.errors import EmbedderMismatchError, InvalidFilterError
from tasks.store.filters import literal, scope, ts_literal
from tasks.store.tables import LEDGER, MEMORIES, Store


def ledger_row(key: str) -> dict[str, object]:
    now = datetime(2025, 1, 1, tzinfo=UTC)
    return {"session_key": key, "app_name": "a", "user_id": "u", "session_id": key, "content_hash": "h",
            "ended_at": now, "processed_at": now, "run_id": "r", "memories_written": 0}  # fmt: skip


def test_mismatched_embedder_is_refused(tmp_path: Path) -> None:
    Store(str(tmp_path), "model-a", 384).table(MEMORIES)
    with pytest.raises(EmbedderMismatchError, match="model-a"):
        Store(str(tmp_path), "model-b", 384).table(MEMORIES)
    with pytest.raises(EmbedderMismatchError, match="dim"):
        Store(str(tmp_path), "model-a", 768).table(MEMORIES)


def test_merge_insert_is_idempotent_and_rows_reads_everything(tmp_path: Path) -> None:
    store = Store(str(tmp_path), "m", 4)
    rows = [ledger_row(f"k{i}") for i in range(25)]
    store.upsert(LEDGER, rows)
    store.upsert(LEDGER, rows)
    assert store.table(LEDGER).count_rows() == 25
    assert len(store.rows(LEDGER)) == 25  # no silent default limit of 10


def test_filters_escape_hostile_values(tmp_path: Path) -> None:
    store = Store(str(tmp_path), "m", 4)
    store.upsert(LEDGER, [ledger_row("k1")])
    hostile = "u' OR '1'='1"
    assert literal(hostile) == "'u'' OR ''1''=''1'"
    assert store.rows(LEDGER, scope("a", hostile)) == []
    assert len(store.rows(LEDGER, scope("a", "u"))) == 1
    with pytest.raises(InvalidFilterError):
        literal("bad\x00value")
    assert "2025-01-01T00:00:00" in ts_literal(datetime(2025, 1, 1))
