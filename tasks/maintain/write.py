"""Writing a pass (:func:`tasks.maintain.execute.execute`, or one partition of it): each part in a fixed order.

audit (insert-only, keyed by what it records) → new rows (merge-insert) → closures (rows read whole
by address, re-statused, merge-inserted) → purges → the runs row and version tags.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import datetime
from functools import partial
from typing import Any

import pyarrow as pa

from tasks.clock import now as wall_clock
from tasks.maintain.common import (
    _ID_CHUNK,
    FILTER_COLUMNS,
    Closure,
    PassReport,
    Plan,
    report_part,
)
from tasks.rows import RunRow
from tasks.store.filters import is_in
from tasks.store.tables import CHANGES, EPISODES, KEYS, MEMORIES, RUNS, Store, dumps_json, retry_conflicts


def write_changes(store: Store, plan: Plan, run_id: str) -> None:
    rows = [c.model_copy(update={"run_id": run_id}) for c in plan.changes]
    for start in range(0, len(rows), _ID_CHUNK * 10):
        store.insert_new(CHANGES, rows[start : start + _ID_CHUNK * 10])


def write_new_rows(store: Store, plan: Plan) -> None:
    for table, rows in plan.new_rows.items():
        store.upsert(table, rows)


def _whole_rows(tbl: Any, key: str, mine: Mapping[str, Closure]) -> Iterator[pa.Table]:
    """The rows to close, read whole: taken by row address (the rows are untouched since they were read:
    the pass holds the writer lock and each row is closed once), by key for any address that moved."""
    dataset = tbl.to_lance()
    by_address = sorted(c.rowid for c in mine.values() if c.rowid is not None)
    missing = {k for k, c in mine.items() if c.rowid is None}
    for start in range(0, len(by_address), _ID_CHUNK):
        rows = dataset._take_rows(by_address[start : start + _ID_CHUNK])
        keys = rows.column(key).to_pylist()
        good = [i for i, k in enumerate(keys) if k in mine and mine[k].rowid == by_address[start + i]]
        missing |= {c.key for c in mine.values() if c.rowid in set(by_address[start : start + _ID_CHUNK])} - {
            keys[i] for i in good
        }
        yield rows.take(good) if len(good) < rows.num_rows else rows
    todo = sorted(missing)
    for start in range(0, len(todo), _ID_CHUNK):
        yield dataset.to_table(filter=is_in(key, todo[start : start + _ID_CHUNK], FILTER_COLUMNS))


def write_closures(store: Store, plan: Plan, at: datetime) -> None:
    """Close rows: each is read whole, given its new status (and reason, validity for memories) and
    merge-inserted back, a part at a time. Lance's partial-column merge-insert would spare the read but
    cost ~3x the memory (measured: +520 MB against +155 MB for 16k rows)."""
    for table in (MEMORIES, EPISODES):
        mine = {c.key: c for c in plan.closures if c.table == table}
        if not mine:
            continue
        key, tbl = KEYS[table], store.table(table)
        parts = [p for p in _whole_rows(tbl, key, mine) if p.num_rows]
        if not parts:
            continue
        rows = pa.concat_tables(parts)
        found = [mine[k] for k in rows.column(key).to_pylist()]
        values: dict[str, list[Any]] = {"status": [c.status for c in found]}
        if table == MEMORIES:
            values |= {"status_reason": [c.reason for c in found], "valid_to": [c.valid_to for c in found],
                       "updated_at": [at] * len(found)}  # fmt: skip
        for name, column in values.items():
            index = rows.schema.get_field_index(name)
            rows = rows.set_column(index, rows.schema.field(index), pa.array(column, rows.schema.field(index).type))
        # Retried on a commit conflict: a partition's closures race other partitions' writes (issue 66).
        retry_conflicts(partial(_update_rows, tbl, key, rows), f"close {table}")


def _update_rows(tbl: Any, key: str, rows: pa.Table) -> None:
    tbl.merge_insert(key).when_matched_update_all().execute(rows)


def write_purges(store: Store, plan: Plan) -> None:
    for table, where in plan.purges:
        retry_conflicts(partial(store.table(table).delete, where), f"purge {table}")


def write_plans(store: Store, plans: Iterable[Plan], report: PassReport, at: datetime) -> None:
    """Each part as it comes (audit, new rows, closures), then every part's purges: the order of the module
    docstring, the same for a whole pass and for one partition of it."""
    purges: list[tuple[str, str]] = []
    for part in plans:
        report_part(report, part)
        write_changes(store, part, report.run_id)
        write_new_rows(store, part)
        write_closures(store, part, at)
        purges += part.purges
    write_purges(store, Plan(purges=purges))


def record_run(
    store: Store, report: PassReport, before: dict[str, int], started: datetime, *, flow: str | None = None,
    status: str = "completed", extra: Mapping[str, Any] | None = None,
) -> None:  # fmt: skip
    """The runs row (versions before/after, for rollback) and the run id as a tag on every table's version;
    ``extra`` adds keys to the row's counts (a partitioned pass: its partitions and task runner)."""
    counts = {"counts": report.counts, "scanned": report.scanned, "details": report.details, **(extra or {})}
    row = RunRow(run_id=report.run_id, flow=flow or f"maintain:{report.pass_name}", started_at=started,
                 ended_at=wall_clock(), status=status, versions_before=dumps_json(before), versions_after="{}",
                 counts=dumps_json(counts))  # fmt: skip
    store.upsert(RUNS, [row])
    row.versions_after = dumps_json(store.versions())
    store.upsert(RUNS, [row])
    store.tag_versions(report.run_id)


Planner = Callable[[Store, PassReport], Iterable[Plan]]
#: A pass's own writes after the plan's (upkeep: compaction, cleanup, clustering, indexes).
Applier = Callable[[Store, PassReport], None]
