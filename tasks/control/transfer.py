"""Export one app's (or user's) memories, episodes and audit log, and import such an export.

An export is a folder: one file per table (Parquet or JSON Lines) and ``manifest.json`` naming the
format, the scope and the embedder the vectors came from. Rows keep their ids, versions and run
ids, and import merge-inserts them on the tables' keys, so importing into an empty store
reproduces the exported rows exactly and importing twice changes nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

import pyarrow as pa
import pyarrow.parquet as pq

from tasks.clock import now
from tasks.control.edit import control_run_id, record_control_run
from tasks.errors import EmbedderMismatchError, PipelineError
from tasks.settings import Settings
from tasks.store.filters import eq, scope
from tasks.store.lock import store_lock
from tasks.store.schema import ROW_MODELS, SCHEMA_VERSION
from tasks.store.tables import CHANGES, EPISODES, MEMORIES, Store, open_store

Format = Literal["parquet", "jsonl"]
TABLES = (MEMORIES, EPISODES, CHANGES)
MANIFEST = "manifest.json"


def export_store(store: Store, out: Path, app_name: str, user_id: str | None = None,
                 fmt: Format = "parquet") -> dict[str, int]:  # fmt: skip
    """Write the scope's rows of every exported table under ``out``; returns rows per table."""
    where = scope(app_name, user_id) if user_id is not None else eq("app_name", app_name, ("app_name",))
    out.mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = {}
    for name in TABLES:
        fields = list(ROW_MODELS[name].model_fields)
        rows = [{k: r[k] for k in fields} for r in store.rows(name, where)]
        rows.sort(key=lambda r: str(r[fields[0]]))
        if fmt == "parquet":
            pq.write_table(pa.Table.from_pylist(rows, schema=store.schemas[name]), out / f"{name}.parquet")
        else:
            with (out / f"{name}.jsonl").open("w", encoding="utf-8") as handle:
                for row in rows:
                    data = ROW_MODELS[name].model_validate(row).model_dump(mode="json")
                    handle.write(json.dumps(data, ensure_ascii=False) + "\n")
        counts[name] = len(rows)
    manifest = {"format": fmt, "app_name": app_name, "user_id": user_id, "embedding_model": store.embedding_model,
                "embedding_dim": store.dim, "schema_version": SCHEMA_VERSION, "exported_at": now().isoformat(),
                "counts": counts}  # fmt: skip
    (out / MANIFEST).write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    return counts


def read_export(path: Path) -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]]]:
    """The manifest and the rows of each table of an export folder (validated by the row models)."""
    if not (path / MANIFEST).is_file():
        raise PipelineError(f"{str(path)!r} is not an export (no {MANIFEST})")
    manifest = json.loads((path / MANIFEST).read_text(encoding="utf-8"))
    fmt = manifest.get("format")
    tables: dict[str, list[dict[str, Any]]] = {}
    for name in TABLES:
        file = path / f"{name}.{fmt}"
        if not file.is_file():
            raise PipelineError(f"export {str(path)!r} lacks {file.name}")
        if fmt == "parquet":
            raw = pq.read_table(file).to_pylist()
        else:
            with file.open(encoding="utf-8") as handle:
                raw = [json.loads(line) for line in handle if line.strip()]
        tables[name] = [ROW_MODELS[name].model_validate(r).model_dump() for r in raw]
    return manifest, tables


def import_export(settings: Settings, path: Path) -> dict[str, int]:
    """Merge an export into the configured store (same ids); refuses vectors of another embedder."""
    manifest, tables = read_export(path)
    run_id = control_run_id("import")
    with store_lock(settings, f"import {run_id}"):
        store = open_store(settings)
        if (manifest.get("embedding_model"), manifest.get("embedding_dim")) != (store.embedding_model, store.dim):
            raise EmbedderMismatchError(
                f"export {str(path)!r} holds vectors of {manifest.get('embedding_model')!r} "
                f"(dim {manifest.get('embedding_dim')}); this store uses {store.embedding_model!r} (dim {store.dim})"
            )
        started, before = now(), store.versions()
        counts = {name: store.upsert(name, rows) for name, rows in tables.items()}
        record_control_run(store, run_id, "import", before, started, {"source": str(path), **counts})
        return counts
