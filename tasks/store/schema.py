"""Arrow schemas derived from the row models in :mod:`tasks.rows`, and the migration of old tables.

One declaration per table: the pydantic row model. Its annotations map to Arrow types here, so
the model that validates a row and the schema that stores it cannot drift apart. Stores written
by an older schema gain the new (nullable) columns when first opened for writing.
"""

from __future__ import annotations

import types
from datetime import datetime
from typing import Annotated, Any, Literal, Union, get_args, get_origin, get_type_hints

import pyarrow as pa
from pydantic import BaseModel

from tasks.procedures.rows import ProcedureRow, ProcedureRunRow
from tasks.rows import ChangeRow, EpisodeRow, EvidenceRow, LedgerRow, MemoryRow, QuarantineRow, RunRow, SourceStateRow
from tasks.working.rows import WorkingItemRow

#: Bumped whenever a row model gains a column; recorded in every table's schema metadata.
SCHEMA_VERSION = 5
TS = pa.timestamp("us", tz="UTC")
STR_LIST = pa.list_(pa.string())

MEMORIES, EPISODES, CHANGES, LEDGER, QUARANTINE, RUNS = (
    "memories", "episodes", "memory_changes", "ledger", "quarantine", "runs",
)  # fmt: skip
#: Per-session progress of pulled sources (tasks/sources/adk_db.py).
SOURCE_STATE = "source_state"
#: The agent layers: an agent run's action results; recorded runs and the procedures built from them.
WORKING_ITEMS, PROCEDURE_RUNS, PROCEDURES = "working_items", "procedure_runs", "procedures"
#: Written by agents as they run, not by pipeline runs: a run's rollback never restores them (an agent's
#: writes made while an ingest ran are not that ingest's).
AGENT_TABLES = (WORKING_ITEMS, PROCEDURE_RUNS, PROCEDURES)
#: Verbatim turns under the memories.
EVIDENCE = "evidence"
ROW_MODELS: dict[str, type[BaseModel]] = {
    MEMORIES: MemoryRow,
    EPISODES: EpisodeRow,
    CHANGES: ChangeRow,
    LEDGER: LedgerRow,
    QUARANTINE: QuarantineRow,
    RUNS: RunRow,
    SOURCE_STATE: SourceStateRow,
    WORKING_ITEMS: WorkingItemRow,
    PROCEDURE_RUNS: ProcedureRunRow,
    PROCEDURES: ProcedureRow,
    EVIDENCE: EvidenceRow,
}
#: Primary key of each table, used for merge-insert.
KEYS = {
    MEMORIES: "row_id",
    EPISODES: "episode_id",
    CHANGES: "change_id",
    LEDGER: "session_key",
    QUARANTINE: "quarantine_id",
    RUNS: "run_id",
    SOURCE_STATE: "state_key",
    WORKING_ITEMS: "row_key",
    PROCEDURE_RUNS: "run_key",
    PROCEDURES: "procedure_id",
    EVIDENCE: "evidence_id",
}
#: Tables that carry vectors and so record (and check) the embedding model.
VECTOR_TABLES = (MEMORIES, EPISODES, EVIDENCE)

_SCALARS: dict[Any, pa.DataType] = {str: pa.string(), int: pa.int32(), float: pa.float32(), bool: pa.bool_(),
                                    datetime: TS}  # fmt: skip


def arrow_type(annotation: Any, dim: int) -> pa.DataType:
    """The Arrow type of one annotation (every column is nullable in Arrow, as Lance stores them)."""
    origin = get_origin(annotation)
    if origin is Annotated:
        base, *extras = get_args(annotation)
        if "vector" in extras:
            return pa.list_(pa.float32(), dim)
        return arrow_type(base, dim)
    if origin in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        if len(args) != 1:
            raise TypeError(f"unsupported union {annotation!r}")
        return arrow_type(args[0], dim)
    if origin is Literal:
        return pa.string()
    if origin is list:
        (item,) = get_args(annotation)
        return pa.list_(arrow_type(item, dim))
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return pa.struct(fields_of(annotation, dim))
    if annotation in _SCALARS:
        return _SCALARS[annotation]
    raise TypeError(f"no Arrow type for {annotation!r}")


def fields_of(model: type[BaseModel], dim: int) -> list[pa.Field]:
    hints = get_type_hints(model, include_extras=True)
    return [pa.field(name, arrow_type(hints[name], dim)) for name in model.model_fields]


#: Lance's declaration of a merge key as the table's primary key (issue 66). Why: with it a merge-insert
#: records the keys it inserts, so two writers (two workers, two machines) inserting the same new key
#: at once conflict at commit, and the loser's retry finds the row; without it both insert (Lance
#: detects only conflicts on rows that already existed). Lance requires the column to be non-null.
PRIMARY_KEY = "lance-schema:unenforced-primary-key"


def schemas(dim: int) -> dict[str, pa.Schema]:
    """Every table's Arrow schema for an embedder of dimension ``dim``; its key declared the primary key
    (tables created before keep a plain nullable key: data in either schema writes to both)."""
    out = {}
    for name, model in ROW_MODELS.items():
        fields = [
            f.with_nullable(False).with_metadata({PRIMARY_KEY: "true"}) if f.name == KEYS[name] else f
            for f in fields_of(model, dim)
        ]
        out[name] = pa.schema(fields)
    return out


def _optional(annotation: Any) -> bool:
    if get_origin(annotation) is Annotated:
        return _optional(get_args(annotation)[0])
    return get_origin(annotation) in (Union, types.UnionType) and type(None) in get_args(annotation)


def addable_fields(name: str, actual: pa.Schema, dim: int) -> list[pa.Field]:
    """Declared columns a stored table lacks that can be added as nulls (those declared optional).

    A new column must be declared ``X | None`` so old rows stay valid; a missing required column is
    not papered over: the write that needs it fails with Lance's error.
    """
    model = ROW_MODELS[name]
    hints = get_type_hints(model, include_extras=True)
    return [f for f in fields_of(model, dim) if f.name not in actual.names and _optional(hints[f.name])]
