"""What every maintenance pass shares: the report, tenant-scoped streaming reads, the plan (written by
:mod:`tasks.maintain.write`).

A pass reads (per tenant or in batches, never whole tables into Python) and yields :class:`Plan`
parts of what to change; :func:`~tasks.maintain.execute.execute` writes each part as it comes, under the store's writer
lock, in a fixed order (:mod:`tasks.maintain.write`): audit → new rows → closures; then purges, the
runs row and version tags.
Memory is bounded by a part, not by the store. Every id a pass writes is derived from what it
changes (never from the run or the clock), so a pass killed between two steps and run again writes
exactly what one uninterrupted run would have: the audit entries and new rows already there merge
onto themselves, and what was not yet closed is found and closed again.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import pyarrow as pa
from pydantic import BaseModel, Field, SerializerFunctionWrapHandler, model_serializer

from tasks.clock import utc
from tasks.models import Action, Relation, stable_id
from tasks.rows import ChangeRow, MemoryRow
from tasks.store.filters import all_of, eq, is_in, scope
from tasks.store.layout import scope_addresses, take_tenants
from tasks.store.tables import EPISODES, MEMORIES, Store

log = logging.getLogger("memory_pipeline.maintain")

PassName = Literal["ttl", "decay", "capacity", "merge", "upkeep"]
PASSES: tuple[PassName, ...] = ("ttl", "decay", "capacity", "merge", "upkeep")
#: Columns the passes filter on (the allow-list of :mod:`tasks.store.filters`).
FILTER_COLUMNS = ("app_name", "user_id", "status", "topic", "row_id", "episode_id", "memory_id")
#: Items listed in a report (counts are always complete).
MAX_ITEMS = 1000
_ID_CHUNK = 2000
#: Planned changes per written part (a part's rows are read whole to be closed: ~2 KB each).
PART_CHANGES = 5000


class PassItem(BaseModel):
    """One change a pass made (or, in a dry run, would make)."""

    action: Action
    table: str
    key: str
    app_name: str
    user_id: str
    reason: str


class PassReport(BaseModel):
    """What a pass changed (or would change): counts per action, the first items, table versions."""

    pass_name: str
    run_id: str
    now: datetime
    dry_run: bool
    app_name: str | None = None
    user_id: str | None = None
    scanned: int = 0
    counts: dict[str, int] = Field(default_factory=dict)
    items: list[PassItem] = Field(default_factory=list)
    details: dict[str, Any] = Field(default_factory=dict)
    versions_before: dict[str, int] = Field(default_factory=dict)
    versions_after: dict[str, int] = Field(default_factory=dict)
    seconds: float = 0.0
    #: A partitioned pass (issue 66): its partitions' outcomes and the runner they ran on; left out of the
    #: report's dump when the pass ran unpartitioned, so that report reads as before.
    partitions: list[dict[str, Any]] = Field(default_factory=list)
    task_runner: str | None = None

    @model_serializer(mode="wrap")
    def _unpartitioned_as_before(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if self.task_runner is None:
            data.pop("partitions", None)
            data.pop("task_runner", None)
        return data

    @property
    def changed(self) -> int:
        return sum(self.counts.values())

    def summary(self) -> str:
        verb = "would change" if self.dry_run else "changed"
        what = ", ".join(f"{n} {a.lower()}" for a, n in sorted(self.counts.items())) or "nothing"
        extra = "".join(f"; {k}: {v}" for k, v in self.details.items())
        return f"{self.pass_name}: scanned {self.scanned}, {verb} {what}{extra}"


@dataclass(frozen=True)
class Closure:
    """Close one row: its new status, when it stopped holding, and why."""

    table: str
    key: str
    memory_id: str
    app_name: str
    user_id: str
    status: str
    valid_to: datetime | None
    reason: str
    action: Action
    relation: Relation
    old_content: str | None
    new_content: str | None = None
    #: Lance row address (``_rowid``) from the read that found it, so closing takes the row directly.
    rowid: int | None = None


@dataclass
class Plan:
    """Everything a pass will write, in the order :func:`execute` writes it."""

    changes: list[ChangeRow] = field(default_factory=list)
    new_rows: dict[str, list[BaseModel | dict[str, Any]]] = field(default_factory=dict)
    closures: list[Closure] = field(default_factory=list)
    purges: list[tuple[str, str]] = field(default_factory=list)  # (table, where) hard deletes

    def __len__(self) -> int:
        return len(self.changes)

    def close(self, closure: Closure, at: datetime) -> None:
        self.closures.append(closure)
        row_id = closure.key if closure.table == MEMORIES else None  # episodes: keyed by their id alone
        self.audit(closure.action, closure.relation, closure.memory_id, row_id, closure.app_name,
                   closure.user_id, closure.old_content, closure.new_content, closure.reason, at)  # fmt: skip

    def audit(self, action: Action, relation: Relation, memory_id: str, row_id: str | None, app: str, user: str,
              old: str | None, new: str | None, reason: str, at: datetime) -> None:  # fmt: skip
        """An audit entry keyed by what it records (a row is closed or purged once), not by the run."""
        change_id = stable_id("maintain", action, memory_id, row_id or "")
        self.changes.append(ChangeRow(
            change_id=change_id, memory_id=memory_id, row_id=row_id, action=action, relation=relation,
            old_content=old, new_content=new, reason=reason, app_name=app, user_id=user, session_id="",
            source_event_ids=[], run_id="", created_at=at + timedelta(microseconds=len(self.changes)),
        ))  # fmt: skip


def pass_run_id(name: str, at: datetime, app: str | None, user: str | None) -> str:
    """The run id: readable, and the same for the same pass, time and scope (a re-run reuses it)."""
    digest = stable_id(name, utc(at).isoformat(), app or "", user or "", length=8)
    return f"maintain-{name}-{utc(at):%Y%m%dT%H%M%S}-{digest}"


#: The users a pass reads: one (``--user``), a partition's (a tuple: the tenants of one (app, bucket),
#: :mod:`tasks.maintain.partitions`), or None for every user.
UserScope = str | tuple[str, ...] | None


def where_scope(app: str | None, user: UserScope, *extra: str | None) -> str | None:
    """Tenant filter (``--app`` / ``--user`` / a partition's users) and the pass's own clauses; None for everything."""
    users = (is_in("user_id", user, FILTER_COLUMNS) if isinstance(user, tuple) else eq("user_id", user, FILTER_COLUMNS)
             ) if user else None  # fmt: skip
    clauses = [eq("app_name", app, FILTER_COLUMNS) if app else None, users, *extra]
    return all_of(*clauses) or None


def active(app: str | None, user: UserScope) -> str | None:
    return where_scope(app, user, eq("status", "active", FILTER_COLUMNS))


def scan(store: Store, table: str, where: str | None, columns: Sequence[str], batch_rows: int) -> Iterator[pa.Table]:
    """Rows of ``table`` matching ``where``, a batch at a time (only ``columns`` are read)."""
    if not store.has(table):
        return
    dataset = store.table(table).to_lance()
    scanner = dataset.scanner(columns=list(columns), filter=where, batch_size=min(batch_rows, 8192), with_row_id=True)
    pending: list[pa.RecordBatch] = []
    size = 0
    for batch in scanner.to_batches():
        pending.append(batch)
        size += batch.num_rows
        if size >= batch_rows:
            yield pa.Table.from_batches(pending)
            pending, size = [], 0
    if pending:
        yield pa.Table.from_batches(pending)


def tenants(store: Store, table: str, where: str | None, batch_rows: int) -> Counter[tuple[str, str]]:
    """Row count per (app, user) matching ``where``, from a scan of the two scope columns only."""
    counts: Counter[tuple[str, str]] = Counter()
    for chunk in scan(store, table, where, ["app_name", "user_id"], batch_rows):
        pairs = chunk.group_by(["app_name", "user_id"]).aggregate([([], "count_all")])
        for app, user, n in zip(*(pairs.column(c).to_pylist() for c in ("app_name", "user_id", "count_all")),
                                strict=True):  # fmt: skip
            counts[(app, user)] += n
    return counts


def tenant_tables(
    store: Store, table: str, counts: Mapping[tuple[str, str], int], extra: str | None, columns: Sequence[str],
    chunk_rows: int,
) -> Iterator[tuple[str, str, pa.Table]]:  # fmt: skip
    """Each listed tenant's rows matching ``extra`` (with ``_rowid``), read a chunk of whole tenants at a
    time, by address (:func:`tasks.store.layout.take_tenants`), from one snapshot."""
    if not store.has(table):
        return
    dataset = store.table(table).to_lance()
    cols = list(dict.fromkeys([c for c in columns if c != "_rowid"] + ["user_id"]))
    places = scope_addresses(dataset, extra, counts)
    for app, part in take_tenants(dataset, places, cols, chunk_rows):
        part = part.sort_by("user_id")
        names = part.column("user_id").to_pylist()
        start = 0
        for k in range(1, len(names) + 1):
            if k == len(names) or names[k] != names[start]:
                yield app, names[start], part.slice(start, k - start)
                start = k


def tenant_rows(store: Store, table: str, app: str, user: str, extra: str | None, columns: Sequence[str]) -> pa.Table:
    """One tenant's rows (found by the scope indexes)."""
    where = all_of(scope(app, user), extra)
    parts = list(scan(store, table, where, columns, 1 << 30))
    return pa.concat_tables(parts) if parts else pa.table({c: [] for c in columns})


def memory(row: dict[str, Any]) -> MemoryRow:
    return MemoryRow.model_validate(row)


def report_part(report: PassReport, plan: Plan) -> None:
    """Add a part's counts and (up to :data:`MAX_ITEMS`) items to the report."""
    counts = Counter(report.counts)
    counts.update(c.action for c in plan.changes)
    report.counts = dict(counts)
    room = MAX_ITEMS - len(report.items)
    report.items += [
        PassItem(action=c.action, table=MEMORIES if c.row_id else EPISODES, key=c.row_id or c.memory_id,
                 app_name=c.app_name, user_id=c.user_id, reason=c.reason)
        for c in plan.changes[: max(room, 0)]
    ]  # fmt: skip


#: The merge pass's rows (with vectors, ~1.6 KB each) taken per read: whole tenants, about this many rows.
#: With parts of :data:`MERGE_PART_CHANGES`, the pass over 1M memories peaked at 653 MB (20k rows and 5,000:
#: 1,005-1,136 MB).
MERGE_READ_ROWS = 5_000
#: Changes per written part of the merge pass (smaller than the other passes': a part also carries the merged rows).
MERGE_PART_CHANGES = 2_000


def unit_rows(vectors: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """Each row scaled to length 1 (a zero row stays zero)."""
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit: npt.NDArray[np.float32] = (vectors / np.where(norms > 0, norms, 1.0)).astype(np.float32)
    return unit
