"""SIGKILL the ingest at every stage boundary (and on CPU timers), re-run, and compare with a clean run.

The child is killed by :func:`tasks.ingest.faults.fault_point` (``MEMORY_PIPELINE_FAULT_AT``), so
no ``finally`` runs: the store is left exactly as a power cut would leave it. The re-run must end
with the same tables as an uninterrupted run: rows, versions, the audit log with its real reasons,
no duplicates; every run in the ledger has a completed runs row and tags, so it can be rolled back.
"""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import pytest

from tasks.consolidate.history import rollback
from tasks.ingest.faults import POINTS
from tasks.ingest.run import run_ingest
from tasks.settings import Settings
from tasks.store.filters import eq
from tasks.store.tables import CHANGES, LEDGER, MEMORIES, RUNS, open_store
from tests.reliability.crash import KEEP_FORGOTTEN, SAMPLE, duplicate_keys, snapshot, start_ingest


def _check_recovered(settings: Settings, clean: dict[str, list[tuple[object, ...]]]) -> None:
    assert duplicate_keys(settings) == dict.fromkeys(clean, 0)
    assert snapshot(settings) == clean, "tables differ from an uninterrupted run"
    store = open_store(settings)
    reasons = [r["reason"] for r in store.rows(CHANGES)]
    assert not any("earlier run" in r for r in reasons), "audit reasons replaced on the re-run"
    runs = {r["run_id"]: r for r in store.rows(RUNS)}
    assert not [r for r in runs.values() if r["status"] == "running"], "a run left in progress"
    for run_id in {r["run_id"] for r in store.rows(LEDGER)}:
        assert runs[run_id]["status"] == "completed"
        assert run_id in store.table(MEMORIES).tags.list(), f"run {run_id} has no version tag"
    assert run_ingest(settings).sessions_processed == 0, "a third run still found work"


@pytest.mark.slow
@pytest.mark.parametrize("point", POINTS)
def test_kill_at_boundary_then_rerun_equals_clean_run(
    tmp_path: Path, clean: dict[str, list[tuple[object, ...]]], point: str
) -> None:
    settings = Settings(store_uri=str(tmp_path / "store"), sessions_uri=str(SAMPLE), **KEEP_FORGOTTEN)
    child = start_ingest(settings, fault_at=point)
    _, err = child.communicate(timeout=300)
    assert child.returncode == -signal.SIGKILL, f"not killed at {point}: {err[-2000:]}"
    if point in ("after_ledger", "after_tags"):
        # Even before any re-run, the killed run has a runs row: rollback knows it.
        assert open_store(settings).rows(RUNS, eq("status", "running", ("status",))), "no runs row"
    run_ingest(settings)
    _check_recovered(settings, clean)
    if point in ("after_ledger", "after_tags"):  # the killed run itself can be rolled back
        store = open_store(settings)
        (run_id,) = {r["run_id"] for r in store.rows(LEDGER)}
        assert MEMORIES in rollback(store, run_id) and store.table(MEMORIES).count_rows() == 0
        assert run_ingest(settings).sessions_processed > 0, "rolled-back sessions are processed again"


@pytest.mark.parametrize("share", [0.3, 0.5, 0.7])
def test_kill_on_a_timer_then_rerun_equals_clean_run(tmp_path: Path, clean_run: dict[str, Any], share: float) -> None:
    """SIGKILLed between boundaries, once the child has used ``share`` of a clean run's CPU time: in the
    extraction, the embedding, the first writes (of a child's ~1.3-1.6 s, the writes start at ~0.9 s).

    A CPU timer, not a wall-clock one: on a busy machine a child may get no CPU for seconds, so a wall-clock
    delay fell anywhere from before the run to after its end (and the test did not notice). The shares stay
    well below 1: a run's CPU time varies by ~20% with the load.
    """
    settings = Settings(store_uri=str(tmp_path / "store"), sessions_uri=str(SAMPLE), **KEEP_FORGOTTEN)
    child = start_ingest(settings)
    child.kill_after_cpu(share * clean_run["cpu_seconds"])
    _, err = child.communicate(timeout=300)
    assert child.returncode == -signal.SIGKILL, f"the run ended before the kill: {err[-2000:]}"
    run_ingest(settings)
    _check_recovered(settings, clean_run["tables"])
