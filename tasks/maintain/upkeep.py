"""Upkeep pass: compaction, cleanup of old versions, re-clustering and index refresh, per table.

Every ingest run and pass adds Lance versions (and small data files); nothing else removes them.

* **Tags decide what cleanup keeps.** Lance never deletes a tagged version. A run can be rolled back
  while its ``runs`` row started within ``settings.version_retention_days``: for those runs the
  version each table had *before* the run is tagged ``before-<run id>`` (the run's own tag marks
  the version after). Tags of runs older than the window (``<run id>``, ``before-<run id>``) are
  deleted, so their versions become collectable; rolling back such a run then fails with a clear
  error (:func:`tasks.consolidate.history.rollback`). Tags that name no run are left alone.
* **Cleanup** removes untagged versions older than the window (``cleanup_old_versions``).
* **Compaction** merges small fragments (``compact_files``), leaving clustered fragments out so the
  layout survives; indexes are remapped by Lance. A table about to be re-clustered is not compacted
  first (the rewrite replaces every fragment anyway).
* **Re-clustering** streams per tenant (:func:`tasks.store.layout.cluster_by_scope`) when the table is large and
  enough rows were written since the last clustering (the ingest thresholds in settings).
* **Indexes**: :func:`tasks.store.indexes.ensure_indexes` folds new rows in, creates missing ones and
  builds the ANN index once a table crosses ``ann_index_min_rows``.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from tasks.clock import now as wall_clock
from tasks.clock import utc
from tasks.maintain.common import PassReport, Plan
from tasks.maintain.execute import execute
from tasks.settings import Settings
from tasks.store.indexes import ensure_indexes
from tasks.store.layout import _clustered_ids, cluster_by_scope, needs_clustering
from tasks.store.tables import KEYS, RUNS, VECTOR_TABLES, Store

BEFORE = "before-"


def disk_bytes(uri: str) -> int | None:
    """Bytes on disk under a local store (None for object stores)."""
    if "://" in uri or not Path(uri).is_dir():
        return None
    return sum(p.stat().st_size for p in Path(uri).rglob("*") if p.is_file())


def _runs(store: Store) -> list[dict[str, Any]]:
    return store.rows(RUNS, columns=["run_id", "started_at", "status", "versions_before"]) if store.has(RUNS) else []


def tag_plan(store: Store, cutoff: datetime) -> tuple[dict[str, dict[str, int]], dict[str, list[str]]]:
    """Per table: ``before-`` tags to create (name -> version) and run tags to delete."""
    runs = _runs(store)
    recent = {r["run_id"] for r in runs if utc(r["started_at"]) >= cutoff and r["status"] != "rolled_back"}
    known = {r["run_id"] for r in runs}
    create: dict[str, dict[str, int]] = {}
    drop: dict[str, list[str]] = {}
    for name in store.versions():
        ds = store.table(name).to_lance()
        tags = ds.tags.list()
        live = {v["version"] for v in ds.versions()}
        create[name] = {}
        for run in runs:
            version = json.loads(run["versions_before"] or "{}").get(name)
            tag = BEFORE + run["run_id"]
            if run["run_id"] in recent and version in live and tag not in tags:
                create[name][tag] = int(version)
        drop[name] = sorted(t for t in tags if t.removeprefix(BEFORE) in known - recent)
    return create, drop


def survey(store: Store, settings: Settings, cutoff: datetime) -> dict[str, Any]:
    """What upkeep would do per table (the dry run's report, and the 'before' figures)."""
    out: dict[str, Any] = {}
    for name in store.versions():
        tbl = store.table(name)
        ds = tbl.to_lance()
        tagged = {t["version"] for t in ds.tags.list().values()}
        versions: list[Any] = ds.versions()
        # cleanup keeps the latest version whatever its age
        old = [v for v in versions if utc(v["timestamp"]) < cutoff and v["version"] not in tagged | {ds.version}]
        clustering = settings.cluster_min_rows > 0 and name in VECTOR_TABLES
        if clustering:
            clustering = needs_clustering(tbl, settings.cluster_min_rows, settings.cluster_max_unclustered_share)
        out[name] = {"versions": len(versions), "old_untagged_versions": len(old), "fragments": len(ds.get_fragments()),
                     "rows": ds.count_rows(), "needs_clustering": clustering}  # fmt: skip
    return out


def plan_upkeep(settings: Settings, store: Store, report: PassReport) -> list[Plan]:
    cutoff = report.now - timedelta(days=settings.version_retention_days)
    create, drop = tag_plan(store, cutoff)
    report.details["tables"] = survey(store, settings, cutoff)
    report.details["tags_to_create"] = sum(len(v) for v in create.values())
    report.details["tags_to_delete"] = sum(len(v) for v in drop.values())
    report.details["bytes_before"] = disk_bytes(store.uri)
    report.scanned = sum(t["rows"] for t in report.details["tables"].values())
    return []


def apply_upkeep(settings: Settings, store: Store, report: PassReport) -> None:
    """Tags, compaction, cleanup, clustering and indexes, in that order (see the module docstring)."""
    cutoff = report.now - timedelta(days=settings.version_retention_days)
    create, drop = tag_plan(store, cutoff)
    done: dict[str, Any] = {}
    for name in sorted(store.versions()):
        tbl = store.table(name)
        ds = tbl.to_lance()
        for tag, version in create[name].items():
            ds.tags.create(tag, version)
        for tag in drop[name]:
            ds.tags.delete(tag)
        clustered = removed = added = 0
        if (
            name in VECTOR_TABLES
            and settings.cluster_min_rows > 0
            and needs_clustering(tbl, settings.cluster_min_rows, settings.cluster_max_unclustered_share)
        ):  # the rewrite replaces every fragment (deletions dropped): compacting first would be wasted work
            clustered = cluster_by_scope(tbl, KEYS[name])
        if not clustered:
            ds = tbl.to_lance()
            metrics = ds.optimize.compact_files(excluded_fragment_ids=sorted(_clustered_ids(ds.config())) or None)
            removed, added = metrics.fragments_removed, metrics.fragments_added
        older = max(wall_clock() - cutoff, timedelta(0))
        stats = tbl.to_lance().cleanup_old_versions(older_than=older, error_if_tagged_old_versions=False)
        tbl.checkout_latest()  # type: ignore[no-untyped-call]
        done[name] = {"fragments_removed": removed, "fragments_added": added, "versions_removed": stats.old_versions,
                      "bytes_removed": stats.bytes_removed, "rows_clustered": clustered}  # fmt: skip
    report.details["done"] = done
    rewritten = [name for name, d in done.items() if d["rows_clustered"]]
    report.details["indexes"] = ensure_indexes(store, settings, rebuild=rewritten)
    report.details["bytes_after"] = disk_bytes(store.uri)
    report.counts = {"COMPACT": sum(1 for d in done.values() if d["fragments_removed"]),
                     "CLEANUP": sum(d["versions_removed"] for d in done.values())}  # fmt: skip


def run_upkeep(
    settings: Settings, *, now: datetime | None = None, app: str | None = None, user: str | None = None,
    dry_run: bool = False,
) -> PassReport:  # fmt: skip
    """Table upkeep for the whole store (``app``/``user`` do not apply: tables are shared by all tenants)."""
    return execute(
        settings, "upkeep", lambda store, report: plan_upkeep(settings, store, report), now=now, app=None, user=None,
        dry_run=dry_run, apply=lambda store, report: apply_upkeep(settings, store, report),
    )  # fmt: skip
