"""Upkeep on a real store: what cleanup keeps (runs still in the window can roll back), streaming clustering."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tasks.clock import now as wall_clock
from tasks.clock import utc
from tasks.consolidate.history import rollback
from tasks.maintain import run_pass
from tasks.rows import RunRow
from tasks.settings import Settings
from tasks.store import layout
from tasks.store.layout import layout_stats
from tasks.store.tables import MEMORIES, RUNS, dumps_json, open_store
from tests.maintain_fixtures import NOW, mem, seed


def test_cleanup_keeps_what_recent_runs_roll_back_to(settings: Settings) -> None:
    store = seed(settings, [mem("u", f"k{i}", f"fact {i}", days_ago=10) for i in range(3)])
    for i in range(3):  # more versions before the run
        store.upsert(MEMORIES, [mem("u", f"later{i}", f"later {i}", days_ago=5)])
    old_run = RunRow(run_id="old-run", flow="ingest", started_at=wall_clock() - timedelta(days=30),
                     ended_at=wall_clock() - timedelta(days=30), status="completed",
                     versions_before=dumps_json({MEMORIES: 1}), versions_after=dumps_json({MEMORIES: 2}),
                     counts="{}")  # fmt: skip
    store.upsert(RUNS, [old_run])
    store.table(MEMORIES).tags.create("old-run", 2)
    ttl = run_pass(settings, "ttl", now=NOW + timedelta(days=400))  # expires everything: a run to roll back
    started = min(utc(r["started_at"]) for r in open_store(settings).rows(RUNS) if r["run_id"] == ttl.run_id)
    at = wall_clock()
    window = (at - started).total_seconds() + 0.001  # the ttl run is inside the window, everything else older
    s = settings.model_copy(update={"version_retention_days": window / 86400})
    versions_before = len(open_store(s).table(MEMORIES).to_lance().versions())
    report = run_pass(s, "upkeep", now=at)
    tbl = open_store(s).table(MEMORIES)
    tags = tbl.tags.list()
    assert "old-run" not in tags and ttl.run_id in tags and f"before-{ttl.run_id}" in tags
    assert report.details["done"][MEMORIES]["versions_removed"] > 0
    live = {v["version"] for v in tbl.to_lance().versions()}
    assert 2 not in live and ttl.versions_before[MEMORIES] in live  # old run's version collected; the window's kept
    assert len(live & set(range(1, versions_before + 1))) < versions_before
    rollback(open_store(s), report.run_id)  # the later run first (it rewrote files, not content)
    restored = rollback(open_store(s), ttl.run_id)
    assert restored[MEMORIES] == ttl.versions_before[MEMORIES]
    assert {r["status"] for r in open_store(s).rows(MEMORIES)} == {"active"}


def test_upkeep_clusters_by_tenant_streaming_and_keeps_rows(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(layout, "WRITE_ROWS", 10)  # several fragment writes, one commit
    monkeypatch.setattr(layout, "CLUSTER_CHUNK_ROWS", 7)
    s = settings.model_copy(update={"cluster_min_rows": 10, "maintain_chunk_rows": 7})
    store = seed(s, [])
    for batch in range(4):  # users interleaved across appends
        store.upsert(MEMORIES, [mem(u, f"{u}{batch}{i}", f"{u} fact {batch} {i}") for u in "cab" for i in range(3)])
    before = sorted(r["row_id"] for r in store.rows(MEMORIES))
    report = run_pass(s, "upkeep", now=wall_clock())
    tbl = open_store(s).table(MEMORIES)
    users = tbl.to_arrow().column("user_id").to_pylist()
    assert users == sorted(users) and sorted(tbl.to_arrow().column("row_id").to_pylist()) == before
    assert report.details["done"][MEMORIES]["rows_clustered"] == 36
    assert layout_stats(tbl).unclustered_rows == 0 and len(tbl.to_lance().get_fragments()) == 3
    assert any(i.startswith("memories.") for i in report.details["indexes"])
