"""The Lance tables under one URI: opening with an embedder guard, merge-insert writes, run versions.

Every table lives under one Lance URI (a local folder or ``s3://…``). Writes are merge-inserts on
deterministic keys, so re-running a failed run never duplicates rows. Reads never create a table:
a missing table reads as empty, and :func:`open_existing_store` refuses a URI with no store at all.
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import lancedb
import pyarrow as pa
from pydantic import BaseModel

from tasks.errors import EmbedderMismatchError, StoreNotFoundError
from tasks.settings import Settings
from tasks.store.schema import (
    CHANGES,
    EPISODES,
    EVIDENCE,
    KEYS,
    LEDGER,
    MEMORIES,
    QUARANTINE,
    RUNS,
    SCHEMA_VERSION,
    STR_LIST,
    TS,
    VECTOR_TABLES,
    addable_fields,
    schemas,
)

__all__ = [
    "CHANGES", "EPISODES", "EVIDENCE", "KEYS", "LEDGER", "MEMORIES", "QUARANTINE", "RUNS", "STR_LIST", "TS",
    "VECTOR_TABLES", "Store", "dumps_json", "open_existing_store", "open_store", "retry_conflicts", "run_scope",
    "storage_options",
]  # fmt: skip

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Attempts and first back-off (doubling, with jitter) for Lance commits preempted by a concurrent one.
CONFLICT_ATTEMPTS = 6
CONFLICT_BACKOFF_SECONDS = 0.05


def is_commit_conflict(exc: BaseException) -> bool:
    """Lance's "Retryable commit conflict" (another writer committed first: e.g. an access-count flush
    while this run builds an index). The writer lock keeps ingests apart, not every writer."""
    text = str(exc).lower()
    return "retryable commit conflict" in text or "too many concurrent writers" in text


def retry_conflicts(action: Callable[[], T], what: str = "commit") -> T:
    """Run ``action``; on a retryable commit conflict run it again with exponential back-off.

    Only for idempotent actions (merge-inserts on keys, index builds, tags): a retry redoes the whole one.
    """
    delay = CONFLICT_BACKOFF_SECONDS
    for attempt in range(1, CONFLICT_ATTEMPTS + 1):
        try:
            return action()
        except Exception as exc:
            if attempt == CONFLICT_ATTEMPTS or not is_commit_conflict(exc):
                raise
            log.warning("%s: commit conflict (attempt %d of %d), retrying: %s", what, attempt, CONFLICT_ATTEMPTS, exc)
            time.sleep(delay * (1 + random.random()))
            delay *= 2
    raise AssertionError("unreachable")


class Store:
    """Handle on the pipeline's tables under one URI; opens each table once and keeps it."""

    def __init__(
        self, uri: str, embedding_model: str, dim: int, storage_options: Mapping[str, str] | None = None
    ) -> None:
        self.uri = uri
        self.embedding_model = embedding_model
        self.dim = dim
        #: Object-store options (credentials, endpoint): every dataset opened from a table inherits them;
        #: code that opens a dataset by URI itself passes these.
        self.storage_options: dict[str, str] = dict(storage_options or {})
        # Readers see commits made through other handles (another Store, another process) at once.
        self.db = lancedb.connect(
            uri, read_consistency_interval=timedelta(0), storage_options=self.storage_options or None
        )
        self.schemas = schemas(dim)
        self._tables: dict[str, lancedb.table.Table] = {}

    def __repr__(self) -> str:  # the options hold credentials: their names only
        return f"Store({self.uri!r}, storage_options={sorted(self.storage_options)})"

    def _metadata(self, name: str) -> dict[str, str]:
        meta = {"schema_version": str(SCHEMA_VERSION)}
        if name in VECTOR_TABLES:
            meta |= {"embedding_model": self.embedding_model, "embedding_dim": str(self.dim)}
        return meta

    def has(self, name: str) -> bool:
        """Whether the table exists (the one existence check; reads of a missing table see no rows)."""
        return name in self._tables or name in self.existing()

    def existing(self) -> list[str]:
        return list(self.db.list_tables().tables)

    def table(self, name: str) -> lancedb.table.Table:
        """The table ``name``, created empty on first write; checked for the embedder and migrated."""
        if name in self._tables:
            return self._tables[name]
        try:
            tbl = self.db.open_table(name)
        except (FileNotFoundError, ValueError):
            schema = self.schemas[name].with_metadata(self._metadata(name))
            tbl = self.db.create_table(name, schema=schema, exist_ok=True)
        if name in VECTOR_TABLES:
            self._check_embedder(name, tbl)
        self._migrate(name, tbl)
        self._tables[name] = tbl
        return tbl

    def _migrate(self, name: str, tbl: lancedb.table.Table) -> None:
        """Add the columns an older schema lacks (null in old rows) and record the schema version."""
        missing = addable_fields(name, tbl.schema, self.dim)
        meta = {k.decode(): v.decode() for k, v in (tbl.schema.metadata or {}).items()}
        if missing:
            tbl.add_columns(missing)
        if missing or meta.get("schema_version") != str(SCHEMA_VERSION):
            tbl.to_lance().update_schema_metadata({"schema_version": str(SCHEMA_VERSION)})
            tbl.checkout_latest()  # type: ignore[no-untyped-call]

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

    def upsert(self, name: str, rows: Sequence[BaseModel | dict[str, Any]]) -> int:
        """Merge-insert rows on the table's key: re-running the same write changes nothing."""
        if not rows:
            return 0
        data = self._arrow(name, rows)
        tbl = self.table(name)
        retry_conflicts(
            lambda: tbl.merge_insert(KEYS[name]).when_matched_update_all().when_not_matched_insert_all().execute(data),
            f"upsert into {name}",
        )
        return int(data.num_rows)

    def insert_new(self, name: str, rows: Sequence[BaseModel | dict[str, Any]]) -> int:
        """Insert rows whose key is not there yet (append-only tables such as the audit log)."""
        if not rows:
            return 0
        data = self._arrow(name, rows)
        tbl = self.table(name)
        retry_conflicts(
            lambda: tbl.merge_insert(KEYS[name]).when_not_matched_insert_all().execute(data), f"insert into {name}"
        )
        return int(data.num_rows)

    def _arrow(self, name: str, rows: Sequence[BaseModel | dict[str, Any]]) -> pa.Table:
        records = [r.model_dump() if isinstance(r, BaseModel) else r for r in rows]
        return pa.Table.from_pylist(records, schema=self.schemas[name])

    def rows(self, name: str, where: str | None = None, columns: list[str] | None = None) -> list[dict[str, Any]]:
        """All rows of a table matching a (safely built) filter; none when the table does not exist."""
        if not self.has(name):
            return []
        tbl = self.table(name)
        query = tbl.search().where(where) if where else tbl.search()
        if columns:
            query = query.select(columns)
        return query.limit(None).to_list()

    def versions(self) -> dict[str, int]:
        """Current version of each existing table (recorded per run, used by rollback)."""
        existing = set(self.existing())
        return {name: self.table(name).version for name in self.schemas if name in existing}

    def tag_versions(self, tag: str) -> None:
        """Tag every table's current version, so a run's output can be checked out or restored."""
        for name in self.versions():
            tbl = self.table(name)
            if tag not in tbl.tags.list():
                retry_conflicts(partial(tbl.tags.create, tag, tbl.version), f"tag {name}")


def dumps_json(value: dict[str, Any]) -> str:
    return json.dumps(value, sort_keys=True, default=str)


#: Handles shared by the stages of the runs in progress in this process (see :func:`run_scope`).
_RUN_STORES: dict[tuple[str, str, int, tuple[tuple[str, str], ...]], Store] = {}
_RUNS_OPEN = 0
_LOCK = threading.Lock()


def _embedder_identity(settings: Settings) -> tuple[str, int]:
    """The configured embedder's model name and dimension; the local model's are constants."""
    if settings.embedder == "local":
        from tasks.providers.onnx_embedder import DIM, MODEL_NAME

        return MODEL_NAME, DIM
    from tasks.providers import build_embedder

    embedder = build_embedder(settings)
    return embedder.model, embedder.dim


@contextmanager
def run_scope() -> Iterator[None]:
    """While a run is in progress, :func:`open_store` hands every stage the same handle per store.

    Handles are dropped when the last run ends, so a long-lived worker never keeps table handles
    across runs (an operator may have restored or rewritten a table in between).
    """
    global _RUNS_OPEN
    with _LOCK:
        _RUNS_OPEN += 1
    try:
        yield
    finally:
        with _LOCK:
            _RUNS_OPEN -= 1
            if _RUNS_OPEN == 0:
                _RUN_STORES.clear()


def storage_options(settings: Settings) -> dict[str, str]:
    """The object-store options of ``settings`` as plain strings, for a connection (never for a log)."""
    return {name: value.get_secret_value() for name, value in settings.storage_options.items()}


def open_store(settings: Settings) -> Store:
    """The configured store: inside a run the run's one handle, otherwise a new one.

    Sharing within a run is safe: the connection is read-consistent, so reads see the latest commit.
    """
    model, dim = _embedder_identity(settings)
    options = storage_options(settings)
    key = (settings.store_uri, model, dim, tuple(sorted(options.items())))
    with _LOCK:
        if not _RUNS_OPEN:
            return Store(settings.store_uri, model, dim, options)
        if key not in _RUN_STORES:
            _RUN_STORES[key] = Store(settings.store_uri, model, dim, options)
        return _RUN_STORES[key]


def open_existing_store(settings: Settings) -> Store:
    """The store for reading (recall, history, export): refuses a URI where no store was ever written,
    so a mistyped ``--store`` is an error instead of an empty answer."""
    uri = settings.store_uri
    if "://" not in uri and not Path(uri).is_dir():
        raise StoreNotFoundError(f"no memory store at {uri!r} (nothing has been ingested there)")
    store = open_store(settings)
    if not store.existing():
        raise StoreNotFoundError(f"no memory store at {uri!r} (it has no tables)")
    return store
