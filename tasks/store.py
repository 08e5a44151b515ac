"""The Lance tables: schemas, opening with an embedder guard, merge-insert writes, run versions.

Every table lives under one Lance URI (a local folder or ``s3://…``). Writes are merge-inserts on
deterministic keys, so re-running a failed run never duplicates rows.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

import lancedb
import pyarrow as pa
from pydantic import BaseModel

from tasks.errors import EmbedderMismatchError
from tasks.settings import Settings

TS = pa.timestamp("us", tz="UTC")
STR_LIST = pa.list_(pa.string())

MEMORIES, EPISODES, CHANGES, LEDGER, QUARANTINE, RUNS = (
    "memories",
    "episodes",
    "memory_changes",
    "ledger",
    "quarantine",
    "runs",
)
#: Tables that carry vectors and so record (and check) the embedding model.
VECTOR_TABLES = (MEMORIES, EPISODES)
#: Primary key of each table, used for merge-insert.
KEYS = {
    MEMORIES: "row_id",
    EPISODES: "episode_id",
    CHANGES: "change_id",
    LEDGER: "session_key",
    QUARANTINE: "quarantine_id",
    RUNS: "run_id",
}


def _schemas(dim: int) -> dict[str, pa.Schema]:
    vec = pa.list_(pa.float32(), dim)
    return {
        MEMORIES: pa.schema(
            [
                ("row_id", pa.string()),
                ("memory_id", pa.string()),
                ("version", pa.int32()),
                ("app_name", pa.string()),
                ("user_id", pa.string()),
                ("topic", pa.string()),
                ("content", pa.string()),
                ("vector", vec),
                ("importance", pa.float32()),
                ("confidence", pa.float32()),
                ("speaker", pa.string()),
                ("slot", pa.string()),
                ("value", pa.string()),
                ("source_session_id", pa.string()),
                ("source_event_ids", STR_LIST),
                ("stated_at", TS),
                ("valid_from", TS),
                ("valid_to", TS),
                ("status", pa.string()),
                ("status_reason", pa.string()),
                ("supersedes", pa.string()),
                ("relation", pa.string()),
                ("confirmations", pa.int32()),
                ("last_confirmed_at", TS),
                ("access_count", pa.int32()),
                ("last_accessed_at", TS),
                ("created_at", TS),
                ("updated_at", TS),
                ("run_id", pa.string()),
            ]
        ),
        EPISODES: pa.schema(
            [
                ("episode_id", pa.string()),
                ("app_name", pa.string()),
                ("user_id", pa.string()),
                ("session_id", pa.string()),
                ("summary", pa.string()),
                ("topics", STR_LIST),
                ("key_facts", STR_LIST),
                ("sentences", pa.list_(pa.struct([("text", pa.string()), ("source_event_ids", STR_LIST)]))),
                ("source_event_ids", STR_LIST),
                ("vector", vec),
                ("started_at", TS),
                ("ended_at", TS),
                ("status", pa.string()),
                ("access_count", pa.int32()),
                ("last_accessed_at", TS),
                ("created_at", TS),
                ("run_id", pa.string()),
            ]
        ),
        CHANGES: pa.schema(
            [
                ("change_id", pa.string()),
                ("memory_id", pa.string()),
                ("row_id", pa.string()),
                ("action", pa.string()),
                ("relation", pa.string()),
                ("old_content", pa.string()),
                ("new_content", pa.string()),
                ("reason", pa.string()),
                ("app_name", pa.string()),
                ("user_id", pa.string()),
                ("session_id", pa.string()),
                ("source_event_ids", STR_LIST),
                ("run_id", pa.string()),
                ("created_at", TS),
            ]
        ),
        LEDGER: pa.schema(
            [
                ("session_key", pa.string()),
                ("app_name", pa.string()),
                ("user_id", pa.string()),
                ("session_id", pa.string()),
                ("content_hash", pa.string()),
                ("ended_at", TS),
                ("processed_at", TS),
                ("run_id", pa.string()),
                ("memories_written", pa.int32()),
            ]
        ),
        QUARANTINE: pa.schema(
            [
                ("quarantine_id", pa.string()),
                ("source", pa.string()),
                ("line", pa.int32()),
                ("reason", pa.string()),
                ("raw", pa.string()),
                ("run_id", pa.string()),
                ("created_at", TS),
            ]
        ),
        RUNS: pa.schema(
            [
                ("run_id", pa.string()),
                ("flow", pa.string()),
                ("started_at", TS),
                ("ended_at", TS),
                ("status", pa.string()),
                ("versions_before", pa.string()),
                ("versions_after", pa.string()),
                ("counts", pa.string()),
            ]
        ),
    }


class Store:
    """Handle on the pipeline's tables under one URI; opens each table once and keeps it."""

    def __init__(self, uri: str, embedding_model: str, dim: int) -> None:
        self.uri = uri
        self.embedding_model = embedding_model
        self.dim = dim
        # Readers see commits made through other handles (another Store, another process) at once.
        self.db = lancedb.connect(uri, read_consistency_interval=timedelta(0))
        self._schemas = _schemas(dim)
        self._tables: dict[str, lancedb.table.Table] = {}

    def table(self, name: str) -> lancedb.table.Table:
        """The table ``name``, created empty on first use; vector tables are checked for the model."""
        if name in self._tables:
            return self._tables[name]
        schema = self._schemas[name]
        if name in VECTOR_TABLES:
            schema = schema.with_metadata({"embedding_model": self.embedding_model, "embedding_dim": str(self.dim)})
        try:
            tbl = self.db.open_table(name)
        except (FileNotFoundError, ValueError):
            tbl = self.db.create_table(name, schema=schema, exist_ok=True)
        if name in VECTOR_TABLES:
            self._check_embedder(name, tbl)
        self._tables[name] = tbl
        return tbl

    def _check_embedder(self, name: str, tbl: lancedb.table.Table) -> None:
        meta = {k.decode(): v.decode() for k, v in (tbl.schema.metadata or {}).items()}
        model, dim = meta.get("embedding_model"), meta.get("embedding_dim")
        if model != self.embedding_model or dim != str(self.dim):
            raise EmbedderMismatchError(
                f"table {name!r} at {self.uri} was built with embedding model {model!r} (dim {dim}); "
                f"the configured embedder is {self.embedding_model!r} (dim {self.dim}). "
                "Use the embedder the store was built with, or re-embed: ingest the sessions again with the "
                "new embedder into a new store URI (--store), which re-embeds every memory and episode."
            )

    def existing(self) -> list[str]:
        return list(self.db.list_tables().tables)

    def upsert(self, name: str, rows: Sequence[BaseModel | dict[str, Any]]) -> int:
        """Merge-insert rows on the table's key: re-running the same write changes nothing."""
        if not rows:
            return 0
        records = [r.model_dump() if isinstance(r, BaseModel) else r for r in rows]
        tbl = self.table(name)
        data = pa.Table.from_pylist(records, schema=self._schemas[name])
        key = KEYS[name]
        tbl.merge_insert(key).when_matched_update_all().when_not_matched_insert_all().execute(data)
        return len(records)

    def insert_new(self, name: str, rows: Sequence[BaseModel | dict[str, Any]]) -> int:
        """Insert rows whose key is not there yet (append-only tables such as the audit log)."""
        if not rows:
            return 0
        records = [r.model_dump() if isinstance(r, BaseModel) else r for r in rows]
        data = pa.Table.from_pylist(records, schema=self._schemas[name])
        self.table(name).merge_insert(KEYS[name]).when_not_matched_insert_all().execute(data)
        return len(records)

    def rows(self, name: str, where: str | None = None, columns: list[str] | None = None) -> list[dict[str, Any]]:
        """All rows of a table matching a (safely built) filter."""
        tbl = self.table(name)
        query = tbl.search().where(where) if where else tbl.search()
        if columns:
            query = query.select(columns)
        return query.limit(None).to_list()

    def versions(self) -> dict[str, int]:
        """Current version of each existing table (recorded per run, used by rollback)."""
        existing = set(self.existing())
        return {name: self.table(name).version for name in self._schemas if name in existing}

    def tag_versions(self, tag: str) -> None:
        """Tag every table's current version, so a run's output can be checked out or restored."""
        for name in self.versions():
            tbl = self.table(name)
            if tag not in tbl.tags.list():
                tbl.tags.create(tag, tbl.version)


def dumps_json(value: dict[str, Any]) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def open_store(settings: Settings) -> Store:
    """The configured store, checked against the embedder's name and dimension.

    The local model's name and dimension are constants, so readers need not load the model.
    """
    if settings.embedder == "local":
        from tasks.providers.onnx_embedder import DIM, MODEL_NAME

        return Store(settings.store_uri, MODEL_NAME, DIM)
    from tasks.providers import build_embedder

    embedder = build_embedder(settings)
    return Store(settings.store_uri, embedder.model, embedder.dim)


def utc(value: datetime) -> datetime:
    """Naive datetimes are taken as UTC; aware ones converted."""
    from datetime import UTC

    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
