"""Corrections and deletions by the user: a new audited version, never an in-place rewrite."""

from __future__ import annotations

import uuid
from datetime import datetime

from tasks.clock import now
from tasks.consolidate.evidence_redact import redact_evidence
from tasks.consolidate.history import resolve_memory_id
from tasks.errors import PipelineError
from tasks.models import stable_id
from tasks.providers import build_embedder
from tasks.rows import ChangeRow, MemoryRow, RunRow
from tasks.settings import Settings
from tasks.store.filters import eq
from tasks.store.lock import store_lock
from tasks.store.tables import CHANGES, MEMORIES, RUNS, Store, dumps_json, open_existing_store, open_store


class NotActiveError(PipelineError):
    """The memory has no current version to edit or delete (already deleted or superseded)."""


def control_run_id(flow: str) -> str:
    return f"{flow}-{now():%Y%m%dT%H%M%S}-{uuid.uuid4().hex[:6]}"


def record_control_run(store: Store, run_id: str, flow: str, before: dict[str, int], started: datetime,
                       counts: dict[str, object]) -> None:  # fmt: skip
    """A runs row and version tags, so an edit, delete or import can be listed and rolled back."""
    row = RunRow(run_id=run_id, flow=flow, started_at=started, ended_at=now(), status="completed",
                 versions_before=dumps_json(before), versions_after="{}", counts=dumps_json(counts))  # fmt: skip
    store.upsert(RUNS, [row])
    row.versions_after = dumps_json(store.versions())
    store.upsert(RUNS, [row])
    store.tag_versions(run_id)


def _active(store: Store, some_id: str) -> tuple[MemoryRow, int]:
    memory_id = resolve_memory_id(store, some_id)
    rows = [MemoryRow.model_validate(r) for r in store.rows(MEMORIES, eq("memory_id", memory_id, ("memory_id",)))]
    current = next((r for r in rows if r.status == "active"), None)
    if current is None:
        raise NotActiveError(f"memory {memory_id!r} has no current version (it was deleted or erased)")
    return current, max(r.version for r in rows)


def _audit(row: MemoryRow, action: str, old: str, new: str | None, reason: str, run_id: str, at: datetime) -> ChangeRow:
    return ChangeRow.model_validate({
        "change_id": stable_id("control", run_id, row.row_id, action), "memory_id": row.memory_id,
        "row_id": row.row_id, "action": action, "relation": row.relation if action == "UPDATE" else "forgets",
        "old_content": old, "new_content": new, "reason": reason, "app_name": row.app_name,
        "user_id": row.user_id, "session_id": row.source_session_id, "source_event_ids": row.source_event_ids,
        "run_id": run_id, "created_at": at,
    })  # fmt: skip


def edit_memory(settings: Settings, some_id: str, text: str, reason: str = "corrected by the user") -> MemoryRow:
    """Close the current version and add the corrected text as the next one (re-embedded); returns it."""
    text = text.strip()
    if not text:
        raise PipelineError("the corrected text is empty")
    run_id = control_run_id("edit")
    open_existing_store(settings)  # refuse a mistyped --store before the lock creates its folder
    with store_lock(settings, f"edit {run_id}"):
        store = open_store(settings)
        current, last = _active(store, some_id)
        at, before = now(), store.versions()
        vector = build_embedder(settings).embed([text])[0].tolist()
        closed = current.model_copy(update={"status": "superseded", "valid_to": at, "updated_at": at,
                                            "status_reason": reason})  # fmt: skip
        new = current.model_copy(update={
            "row_id": MemoryRow.make_row_id(current.memory_id, last + 1), "version": last + 1, "content": text,
            "vector": vector, "value": None, "source_session_id": run_id, "source_event_ids": [], "stated_at": at,
            "valid_from": at, "valid_to": None, "status": "active", "status_reason": None,
            "supersedes": current.row_id, "relation": "supersedes", "confirmations": 0, "last_confirmed_at": None,
            "access_count": 0, "last_accessed_at": None, "created_at": at, "updated_at": at, "run_id": run_id,
        })  # fmt: skip
        store.upsert(MEMORIES, [closed, new])
        store.insert_new(CHANGES, [_audit(new, "UPDATE", current.content, text, reason, run_id, at)])
        record_control_run(store, run_id, "edit", before, at, {"memory_id": new.memory_id, "row_id": new.row_id})
        return new


def delete_memory(settings: Settings, some_id: str, reason: str = "deleted by the user") -> MemoryRow:
    """Close the current version as deleted (audited); the next ingest run's purge erases its text."""
    run_id = control_run_id("delete")
    open_existing_store(settings)
    with store_lock(settings, f"delete {run_id}"):
        store = open_store(settings)
        current, _ = _active(store, some_id)
        at, before = now(), store.versions()
        closed = current.model_copy(update={"status": "deleted", "valid_to": at, "updated_at": at,
                                            "status_reason": reason})  # fmt: skip
        store.upsert(MEMORIES, [closed])
        store.insert_new(CHANGES, [_audit(closed, "DELETE", current.content, None, reason, run_id, at)])
        said = closed.model_dump(include={"app_name", "user_id", "value", "source_event_ids"})
        redact_evidence(store, build_embedder(settings), [said])  # its turns no longer say it either
        record_control_run(store, run_id, "delete", before, at, {"memory_id": closed.memory_id})
        return closed


def delete_memories(settings: Settings, some_ids: list[str], reason: str = "deleted by the user") -> list[MemoryRow]:
    """Close several memories as deleted under one lock and one run (a page's select-and-delete)."""
    if not some_ids:
        return []
    run_id = control_run_id("delete")
    open_existing_store(settings)
    with store_lock(settings, f"delete {run_id}"):
        store = open_store(settings)
        currents = {}
        for some_id in some_ids:
            current, _ = _active(store, some_id)
            currents[current.memory_id] = current
        at, before = now(), store.versions()
        closed = [c.model_copy(update={"status": "deleted", "valid_to": at, "updated_at": at, "status_reason": reason})
                  for c in currents.values()]  # fmt: skip
        store.upsert(MEMORIES, closed)
        store.insert_new(CHANGES, [_audit(c, "DELETE", currents[c.memory_id].content, None, reason, run_id, at)
                                   for c in closed])  # fmt: skip
        record_control_run(store, run_id, "delete", before, at, {"memory_ids": sorted(currents)})
        return closed
