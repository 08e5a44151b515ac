"""``forget``: erase a user, or one memory, for real (see :mod:`tasks.store.erase`)."""

from __future__ import annotations

from tasks.clock import now
from tasks.consolidate.history import resolve_memory_id
from tasks.control.edit import control_run_id
from tasks.errors import PipelineError
from tasks.providers import build_embedder
from tasks.settings import Settings
from tasks.store.erase import ErasureReport, erase_memories, erase_user, record_erasure, resume_erasures
from tasks.store.filters import scope
from tasks.store.lock import store_lock
from tasks.store.tables import MEMORIES, open_existing_store


def forget(settings: Settings, app_name: str, user_id: str, memory_id: str | None = None) -> ErasureReport:
    """Erase one memory (by memory or row id, checked to belong to this app and user) or the whole user."""
    run_id = control_run_id("erase")
    open_existing_store(settings)  # refuse a mistyped --store before the lock creates its folder
    with store_lock(settings, f"erasure {run_id}"):
        store = open_existing_store(settings)
        resume_erasures(store)
        started, before = now(), store.versions()
        if memory_id is None:
            report = erase_user(store, app_name, user_id, run_id=run_id, reason="erased on request (whole user)")
        else:
            mid = resolve_memory_id(store, memory_id)
            owned = store.rows(MEMORIES, scope(app_name, user_id), ["memory_id"])
            if mid not in {r["memory_id"] for r in owned}:
                raise PipelineError(f"memory {memory_id!r} has no rows of app {app_name!r} user {user_id!r}")
            report = erase_memories(store, [mid], run_id=run_id, reason="erased on request",
                                    embedder=lambda: build_embedder(settings))  # fmt: skip
        record_erasure(store, run_id, "erase", before, report, started)
        return report
