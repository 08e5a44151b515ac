"""A clean, uninterrupted ingest of the sample sessions: what every crash and concurrency case must equal."""

from __future__ import annotations

from typing import Any

import pytest

from tasks.settings import Settings
from tests.reliability.crash import KEEP_FORGOTTEN, SAMPLE, child_report, snapshot, start_ingest


@pytest.fixture(scope="session")
def clean_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The tables of a clean run, and the CPU seconds it took: run in a child like every killed run, so that
    a kill "on a timer" (at a share of that CPU time) lands in the middle of a run on any machine."""
    settings = Settings(
        store_uri=str(tmp_path_factory.mktemp("clean") / "store"), sessions_uri=str(SAMPLE), **KEEP_FORGOTTEN
    )
    child = start_ingest(settings)
    out, err = child.communicate(timeout=300)
    assert child.returncode == 0, err[-2000:]
    report = child_report(out)
    assert report["embedder_loads"] == 0, "the child loaded the embedder: the forkserver should hold it"
    return {"tables": snapshot(settings), "cpu_seconds": report["cpu_seconds"]}


@pytest.fixture(scope="session")
def clean(clean_run: dict[str, Any]) -> dict[str, list[tuple[Any, ...]]]:
    tables: dict[str, list[tuple[Any, ...]]] = clean_run["tables"]
    return tables
