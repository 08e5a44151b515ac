"""What an operator looks at: the runs log and the quarantine, and re-trying fixed sources."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tasks.ingest.commit import write_quarantine
from tasks.ingest.run import run_ingest
from tasks.ingest.stages import pull_sessions
from tasks.ingest.validate import validate_batch
from tasks.models import stable_id
from tasks.settings import Settings
from tasks.store.filters import eq, is_in
from tasks.store.lock import store_lock
from tasks.store.tables import QUARANTINE, RUNS, Store, open_store

_COLS = ("source", "quarantine_id")


def list_runs(store: Store) -> list[dict[str, Any]]:
    """Every run, oldest first, with its counts parsed and whether it was (or can be) rolled back."""
    runs = sorted(store.rows(RUNS), key=lambda r: (r["started_at"] is None, r["started_at"], r["run_id"]))
    for run in runs:
        run["counts"] = json.loads(run["counts"]) if run.get("counts") else {}
        # A partitioned ingest (issue 66) names its partitions and task runner at the top of its record.
        run["partitions"] = run["counts"].get("partitions", [])
        run["task_runner"] = run["counts"].get("task_runner")
        run["rolled_back"] = run.get("status") == "rolled_back"
    return runs


def list_quarantine(store: Store) -> list[dict[str, Any]]:
    return sorted(store.rows(QUARANTINE), key=lambda r: (r["source"], r["line"], r["quarantine_id"]))


def retry_quarantine(settings: Settings) -> dict[str, int]:
    """Re-read the source files of quarantined lines, ingest what now validates, drop fixed entries.

    A source file that no longer exists is left as it is (its entries stay, to be looked at).
    """
    store = open_store(settings)
    sources = sorted({r["source"] for r in store.rows(QUARANTINE, None, ["source"])})
    totals = {"sources": 0, "missing_sources": 0, "sessions_processed": 0, "resolved": 0, "still_quarantined": 0}
    for source in sources:
        if not Path(source).is_file():
            totals["missing_sources"] += 1
            continue
        scoped = settings.model_copy(update={"sessions_uri": source})
        summary = run_ingest(scoped)
        raws, unreadable = pull_sessions(scoped)
        still = unreadable + validate_batch(raws).quarantined
        still_ids = {stable_id(r.source, str(r.line), r.raw) for r in still}
        with store_lock(settings, f"quarantine retry of {source}"):
            old = store.rows(QUARANTINE, eq("source", source, _COLS), ["quarantine_id"])
            fixed = [r["quarantine_id"] for r in old if r["quarantine_id"] not in still_ids]
            if fixed:
                store.table(QUARANTINE).delete(is_in("quarantine_id", fixed, _COLS))
            write_quarantine(store, still, summary.run_id)
        totals["sources"] += 1
        totals["sessions_processed"] += summary.sessions_processed
        totals["resolved"] += len(fixed)
        totals["still_quarantined"] += len(still_ids)
    return totals
