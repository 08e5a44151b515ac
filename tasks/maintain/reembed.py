"""Re-embed the store with a new model without downtime: new vectors beside the old, one switching commit.

Per vector table, the rows are streamed (a batch at a time) through the new :class:`Embedder`, and
written as new data files next to the table's current ones; readers keep using the current version
(old vectors, old model) all the while. The switch is one Lance ``Overwrite`` commit per table with
the new fragments and the schema recording the new model and dimension, so a reader sees either the
old table or the new one, never a mix. Old versions stay (rollback via the ``runs`` row, until upkeep
cleans them). After the switch a process still configured with the old embedder is refused by the
store's embedder check (a clear error, never wrong neighbours): point the settings at the new model
(``MEMORY_PIPELINE_EMBEDDER`` / ``..._OPENAI_EMBEDDING_MODEL``) and restart recall.

If a table moved while its vectors were being computed (recall's access-count updates), its rows
are re-read and embedded again (up to three times), so the switch never drops a concurrent write.
Holds the writer lock: ingest and the passes wait.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator

import pyarrow as pa
from pydantic import BaseModel, Field

from tasks.clock import now as wall_clock
from tasks.errors import PipelineError
from tasks.maintain.common import PassReport, pass_run_id
from tasks.maintain.write import record_run
from tasks.providers.base import Embedder
from tasks.settings import Settings
from tasks.store.indexes import ensure_indexes
from tasks.store.lock import store_lock
from tasks.store.schema import SCHEMA_VERSION, schemas
from tasks.store.tables import EPISODES, MEMORIES, Store, open_store, run_scope

log = logging.getLogger("memory_pipeline.maintain")
TEXT_COLUMNS = {MEMORIES: "content", EPISODES: "summary"}
#: Called after each batch with (table, rows done, rows in table).
Progress = Callable[[str, int, int], None]


class ReembedReport(BaseModel):
    run_id: str
    model_before: str
    model_after: str
    dim_after: int
    rows: dict[str, int] = Field(default_factory=dict)
    versions_before: dict[str, int] = Field(default_factory=dict)
    versions_after: dict[str, int] = Field(default_factory=dict)
    seconds: float = 0.0


def _batches(ds: object, table: str, schema: pa.Schema, embedder: Embedder, batch_rows: int, total: int,
             progress: Progress | None) -> Iterator[pa.RecordBatch]:  # fmt: skip
    done = 0
    for batch in ds.scanner(batch_size=batch_rows).to_batches():  # type: ignore[attr-defined]
        if batch.num_rows == 0:
            continue
        texts = [str(t) for t in batch.column(TEXT_COLUMNS[table]).to_pylist()]
        vectors = embedder.embed(texts).astype("float32")
        flat = pa.array(vectors.reshape(-1), type=pa.float32())
        columns = {n: batch.column(n) for n in batch.schema.names if n != "vector"}
        columns["vector"] = pa.FixedSizeListArray.from_arrays(flat, embedder.dim)
        yield pa.RecordBatch.from_arrays([columns[f.name].cast(f.type) for f in schema], schema=schema)
        done += batch.num_rows
        if progress is not None:
            progress(table, done, total)


def _switch(store: Store, table: str, embedder: Embedder, batch_rows: int, progress: Progress | None) -> int:
    """Write the table's rows with new vectors beside the old and switch in one commit; returns rows."""
    import lance
    from lance import LanceOperation

    tbl = store.table(table)
    meta = {"schema_version": str(SCHEMA_VERSION), "embedding_model": embedder.model,
            "embedding_dim": str(embedder.dim)}  # fmt: skip
    schema = schemas(embedder.dim)[table].with_metadata(meta)
    for _ in range(3):
        ds = tbl.to_lance()
        read_version, total = ds.version, ds.count_rows()
        reader = pa.RecordBatchReader.from_batches(schema, _batches(ds, table, schema, embedder, batch_rows, total,
                                                                    progress))  # fmt: skip
        fragments = lance.fragment.write_fragments(reader, ds, schema=schema, mode="overwrite")
        if lance.dataset(ds.uri, storage_options=store.storage_options or None).version != read_version:
            log.info("re-embed %s: the table moved meanwhile; reading it again", table)
            continue
        lance.LanceDataset.commit(ds, LanceOperation.Overwrite(schema, fragments), read_version=read_version)
        return total
    raise PipelineError(f"re-embedding {table}: the table kept changing; try again when it is quieter")


def reembed(
    settings: Settings, embedder: Embedder, *, batch_rows: int = 2048, progress: Progress | None = None
) -> ReembedReport:
    """Re-embed memories and episodes with ``embedder`` (the store's current model comes from ``settings``)."""
    started = wall_clock()
    with store_lock(settings, f"reembed {embedder.model}"), run_scope():
        old = open_store(settings)
        report = ReembedReport(run_id=pass_run_id("reembed", started, embedder.model, None),
                               model_before=old.embedding_model, model_after=embedder.model,
                               dim_after=embedder.dim)  # fmt: skip
        before = report.versions_before = old.versions()
        for table in (MEMORIES, EPISODES):
            if old.has(table):
                report.rows[table] = _switch(old, table, embedder, batch_rows, progress)
        new = Store(settings.store_uri, embedder.model, embedder.dim, old.storage_options)
        ensure_indexes(new, settings)
        pass_report = PassReport(pass_name="reembed", run_id=report.run_id, now=started, dry_run=False,
                                 counts={"REEMBED": sum(report.rows.values())},
                                 details={"model": embedder.model, "dim": embedder.dim})  # fmt: skip
        record_run(new, pass_report, before, started)
        report.versions_after = new.versions()
    report.seconds = (wall_clock() - started).total_seconds()
    return report
