"""Reading memory history (lineages, "as of" views) and rolling a run back.

Memories are never rewritten in place, so history is a query: a lineage's versions with their
validity intervals, plus the audit log. Rollback uses Lance table versions recorded per run, which
restores the data tables exactly; the audit log is never restored (it is append-only): rollback
appends one ``ROLLBACK`` entry per memory row it reverted instead.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel, Field

from tasks.clock import now, utc
from tasks.errors import PipelineError
from tasks.models import stable_id
from tasks.partition_key import is_partition_of
from tasks.rows import ChangeRow, MemoryRow
from tasks.store.filters import all_of, eq, scope, ts_literal
from tasks.store.schema import AGENT_TABLES
from tasks.store.tables import CHANGES, MEMORIES, RUNS, Store

_MEMORY_COLUMNS = ("memory_id", "row_id", "topic", "status", "valid_from", "valid_to")
_RUN_COLUMNS = ("run_id",)


class UnknownMemoryError(PipelineError):
    """No memory with that id exists in the store."""


class UnknownRunError(PipelineError):
    """No run with that id is recorded in the runs table."""


class RollbackError(PipelineError):
    """A run cannot be rolled back (already rolled back, later runs on top, versions cleaned up)."""


class MemoryHistory(BaseModel):
    """All versions of one memory (by validity, oldest first) and its audit entries (oldest first)."""

    memory_id: str
    versions: list[MemoryRow] = Field(default_factory=list)
    changes: list[ChangeRow] = Field(default_factory=list)

    @property
    def current(self) -> MemoryRow | None:
        return next((v for v in self.versions if v.status == "active"), None)


def resolve_memory_id(store: Store, some_id: str) -> str:
    """The lineage id for a memory id or a row id (``…-v2``, as recall prints); raises if neither exists."""
    if store.rows(MEMORIES, eq("memory_id", some_id, _MEMORY_COLUMNS), ["memory_id"]):
        return some_id
    for table in (MEMORIES, CHANGES):
        rows = store.rows(table, eq("row_id", some_id, _MEMORY_COLUMNS), ["memory_id"])
        if rows:
            return str(rows[0]["memory_id"])
    if store.rows(CHANGES, eq("memory_id", some_id, _MEMORY_COLUMNS), ["memory_id"]):
        return some_id  # erased: only its audit entries are left
    raise UnknownMemoryError(f"no memory with id {some_id!r} in {store.uri}")


def memory_history(store: Store, memory_id: str) -> MemoryHistory:
    """Every version of a memory (by memory or row id) and every audit entry about it.

    An erased memory has no versions left, only audit entries that say what happened, not what it said.
    """
    memory_id = resolve_memory_id(store, memory_id)
    where = eq("memory_id", memory_id, _MEMORY_COLUMNS)
    rows = store.rows(MEMORIES, where=where)
    versions = sorted((MemoryRow.model_validate(r) for r in rows), key=lambda m: (utc(m.valid_from), m.version))
    changes = [ChangeRow.model_validate(r) for r in store.rows(CHANGES, where=where)]
    changes.sort(key=lambda c: (utc(c.created_at), c.change_id))
    return MemoryHistory(memory_id=memory_id, versions=versions, changes=changes)


def list_memories(
    store: Store,
    app_name: str,
    user_id: str,
    *,
    topic: str | None = None,
    include_inactive: bool = False,
    as_of: datetime | None = None,
) -> list[MemoryRow]:
    """A user's memories: current ones, all versions, or what was held true at ``as_of``.

    ``as_of`` uses validity intervals only (``valid_from <= T < valid_to``, open end), whatever the
    status now: a memory since superseded or forgotten was still believed before it was closed.
    """
    clauses = [scope(app_name, user_id), eq("topic", topic, _MEMORY_COLUMNS) if topic is not None else None]
    if as_of is not None:
        t = ts_literal(as_of)
        clauses += [f"`valid_from` <= {t}", f"(`valid_to` IS NULL OR `valid_to` > {t})"]
    elif not include_inactive:
        clauses.append(eq("status", "active", _MEMORY_COLUMNS))
    rows = [MemoryRow.model_validate(r) for r in store.rows(MEMORIES, where=all_of(*clauses))]
    return sorted(rows, key=lambda m: (m.topic, utc(m.valid_from), m.memory_id, m.version))


def _run_row(store: Store, run_id: str) -> dict[str, Any]:
    rows = store.rows(RUNS, where=eq("run_id", run_id, _RUN_COLUMNS))
    if not rows:
        raise UnknownRunError(f"no run {run_id!r} recorded in {store.uri}")
    return rows[0]


def _versions(raw: str | None) -> dict[str, int]:
    return {str(k): int(v) for k, v in json.loads(raw).items()} if raw else {}


def run_versions(run: dict[str, Any]) -> tuple[dict[str, int], dict[str, int]]:
    """A runs row's table versions before and after it."""
    return _versions(run.get("versions_before")), _versions(run.get("versions_after"))


def _touched(before: dict[str, int], after: dict[str, int], current: dict[str, int]) -> set[str]:
    """Tables a run changed; without ``versions_after`` (a crashed run) whatever moved since."""
    if after:
        return {t for t in before.keys() | after.keys() if before.get(t) != after.get(t)}
    return {t for t in current if current[t] != before.get(t)}


def rollback(store: Store, run_id: str, *, force: bool = False) -> dict[str, int]:
    """Restore every data table the run changed to its version before the run; mark it rolled back.

    Returns ``{table: version restored to}`` (0 for a table the run created, now emptied). The runs
    table and the audit log are never restored: the run log keeps this run (as "rolled_back") and
    the audit log gains one ``ROLLBACK`` entry per memory row reverted. Refuses, unless ``force``,
    when a later run that is not rolled back changed the same tables: restoring would silently
    discard that later run's writes too.
    """
    run = _run_row(store, run_id)
    if run.get("status") == "rolled_back":
        raise RollbackError(f"run {run_id!r} is already rolled back")
    if run.get("rollback_blocked"):
        raise RollbackError(f"run {run_id!r} can no longer be rolled back: {run['rollback_blocked']}")
    before, after = run_versions(run)
    touched = _touched(before, after, store.versions()) - {RUNS, CHANGES, *AGENT_TABLES}
    if not force:
        _check_later_runs(store, run, touched)
    restored: dict[str, int] = {}
    reverted_from = {r["row_id"]: r for r in store.rows(MEMORIES)} if MEMORIES in touched else {}
    for name in sorted(touched):
        if not store.has(name):
            continue
        table = store.table(name)
        target = before.get(name)
        try:
            if target is None:
                table.delete("true")  # created during the run: back to empty
            elif table.version != target:
                table.restore(target)
        except (OSError, ValueError, RuntimeError) as exc:
            raise RollbackError(f"cannot restore table {name!r} to version {target} for run {run_id!r}: {exc}") from exc
        restored[name] = target or 0
    if reverted_from:
        _audit_rollback(store, run_id, reverted_from)
    parts = [r for r in store.rows(RUNS) if is_partition_of(r["run_id"], run_id)]  # a partitioned run's own
    store.upsert(RUNS, [{**r, "status": "rolled_back"} for r in [run, *parts]])
    return restored


def _audit_rollback(store: Store, run_id: str, before: dict[str, dict[str, Any]]) -> None:
    """Append a ``ROLLBACK`` entry for every memory row the restore removed or changed."""
    after = {r["row_id"]: r for r in store.rows(MEMORIES)}
    stamp, entries = now(), list[ChangeRow]()
    for row_id, row in sorted(before.items()):
        restored = after.get(row_id)
        if restored is not None and (restored["status"], restored["valid_to"]) == (row["status"], row["valid_to"]):
            continue
        entries.append(ChangeRow(
            change_id=stable_id("rollback", run_id, row_id, str(len(entries))), memory_id=row["memory_id"],
            row_id=row_id, action="ROLLBACK", relation=row["relation"], old_content=row["content"],
            new_content=restored["content"] if restored else None, reason=f"rolled back run {run_id}",
            app_name=row["app_name"], user_id=row["user_id"], session_id=row["source_session_id"],
            source_event_ids=list(row["source_event_ids"]), run_id=run_id,
            created_at=stamp + timedelta(microseconds=len(entries)),
        ))  # fmt: skip
    store.insert_new(CHANGES, entries)


def _check_later_runs(store: Store, run: dict[str, Any], touched: set[str]) -> None:
    started = run.get("started_at")
    if started is None:
        return
    for other in store.rows(RUNS):
        later = other.get("started_at") is not None and utc(other["started_at"]) > utc(started)
        if not later or other["run_id"] == run["run_id"] or other.get("status") == "rolled_back":
            continue
        if is_partition_of(other["run_id"], run["run_id"]):
            continue  # the run's own partitions: its versions_before is from before every one of them
        o_before, o_after = _versions(other.get("versions_before")), _versions(other.get("versions_after"))
        overlap = (_touched(o_before, o_after, {}) if o_after else set(o_before)) & touched
        if overlap:
            raise RollbackError(
                f"run {other['run_id']!r} started later and also changed {sorted(overlap)}; roll it back "
                f"first, or force to discard its writes too"
            )
