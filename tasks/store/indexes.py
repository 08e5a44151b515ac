"""Indexes and layout recall relies on: scope indexes, full-text, clustering by user, ANN once big.

Scope filters are answered from indexes alone: a BTree on ``user_id`` and bitmaps on the
low-cardinality columns (``app_name``, ``status``, ``topic``), so no filter column is read row by row
(at 1M memories this halved the user-filtered vector scan). Large tables are also kept clustered by
(app, user) (:mod:`tasks.store.layout`); a clustering rewrite rebuilds the table's indexes.

Called by the ingest pipeline after each run's writes. Cheap when nothing changed: indexes that
exist are only brought up to date (new rows appended to them), never rebuilt from scratch, and the
ANN index waits until a table has ``settings.ann_index_min_rows`` rows: below that a flat,
prefiltered scan is both exact and fast (recall scans the tenant's rows exactly by default; the ANN
index serves unscoped or opt-in ANN queries). Rows not yet indexed are still searched by LanceDB
(flat), so a stale index costs speed, never results.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from functools import partial

import lancedb
from lancedb.index import FTS, Bitmap, BTree, IvfHnswSq

from tasks.settings import Settings
from tasks.store.layout import cluster_by_scope, needs_clustering
from tasks.store.tables import EPISODES, EVIDENCE, KEYS, MEMORIES, Store, retry_conflicts

log = logging.getLogger(__name__)

#: Rebuild the ANN index once this share of rows is outside it (new rows are flat-scanned).
ANN_REBUILD_UNINDEXED_RATIO = 0.2


@dataclass(frozen=True)
class _Spec:
    table: str
    text_column: str
    #: Low-cardinality filter columns: a bitmap per value, intersected with the user's BTree hits.
    bitmap_columns: tuple[str, ...]
    btree_columns: tuple[str, ...] = ("user_id",)
    vector_column: str = "vector"


SPECS = (
    _Spec(MEMORIES, "content", ("app_name", "status", "topic")),
    _Spec(EPISODES, "summary", ("app_name", "status")),
    # Verbatim turns: scoped like memories; sessions by BTree, for a found turn's neighbours.
    _Spec(EVIDENCE, "text", ("app_name", "role"), ("user_id", "session_id")),
)


def ensure_indexes(store: Store, settings: Settings, rebuild: Collection[str] = ()) -> list[str]:
    """Create missing indexes and fold new rows into existing ones; idempotent.

    Tables in ``rebuild`` (just rewritten by the caller, e.g. clustered by upkeep) get every index
    built afresh: folding a whole table's rows into the old indexes costs more memory than a build.
    Returns ``"<table>.<column>:<action>"`` for each index created, refreshed or rebuilt, and
    ``"<table>:clustered"`` when the table was rewritten clustered by scope.
    """
    done: list[str] = []
    for spec in SPECS:
        if not store.has(spec.table):
            continue
        tbl = store.table(spec.table)
        rows = tbl.count_rows()
        if rows == 0:
            continue
        indexed = {tuple(ix.columns): ix for ix in tbl.list_indices()}
        if _cluster(tbl, spec, settings):
            done.append(f"{spec.table}:clustered")
            indexed = {}  # the rewritten fragments are in no index: build each one afresh
        elif spec.table in rebuild:
            indexed = {}
        stale: dict[str, str] = {}  # index name -> column
        for col in spec.btree_columns:
            _create_or_mark(tbl, col, BTree(), indexed, done, stale)
        for col in spec.bitmap_columns:
            _create_or_mark(tbl, col, Bitmap(), indexed, done, stale)
        _create_or_mark(tbl, spec.text_column, FTS(), indexed, done, stale)
        done += _ensure_ann(tbl, spec, rows, indexed, settings)
        if stale:
            _refresh(tbl, stale)
            done += [f"{spec.table}.{col}:refreshed" for col in stale.values()]
    return done


def _cluster(tbl: lancedb.table.Table, spec: _Spec, settings: Settings) -> bool:
    if settings.cluster_min_rows <= 0:
        return False
    if not needs_clustering(tbl, settings.cluster_min_rows, settings.cluster_max_unclustered_share):
        return False
    return cluster_by_scope(tbl, KEYS[spec.table]) > 0


def _create_or_mark(
    tbl: lancedb.table.Table,
    col: str,
    config: BTree | Bitmap | FTS,
    indexed: dict[tuple[str, ...], lancedb.index.IndexConfig],
    done: list[str],
    stale: dict[str, str],
) -> None:
    ix = indexed.get((col,))
    if ix is None:
        retry_conflicts(lambda: tbl.create_index(col, config=config, replace=True), f"index {tbl.name}.{col}")
        done.append(f"{tbl.name}.{col}:created")
    elif _unindexed(tbl, ix.name) > 0:
        stale[ix.name] = col


def _ensure_ann(
    tbl: lancedb.table.Table,
    spec: _Spec,
    rows: int,
    indexed: dict[tuple[str, ...], lancedb.index.IndexConfig],
    settings: Settings,
) -> list[str]:
    """IVF-HNSW-SQ (cosine) once the table is large; rebuilt when too much is outside it."""
    if rows < settings.ann_index_min_rows:
        return []
    ix = indexed.get((spec.vector_column,))
    if ix is not None:
        missing = _unindexed(tbl, ix.name)
        if missing <= ANN_REBUILD_UNINDEXED_RATIO * (rows - missing):
            return []
    config = IvfHnswSq(distance_type="cosine")
    retry_conflicts(lambda: tbl.create_index(spec.vector_column, config=config, replace=True), f"ANN index {tbl.name}")
    action = "created" if ix is None else "rebuilt"
    return [f"{spec.table}.{spec.vector_column}:{action}"]


def _unindexed(tbl: lancedb.table.Table, index_name: str) -> int:
    stats = tbl.index_stats(index_name)
    return 0 if stats is None else int(stats.num_unindexed_rows)


def _refresh(tbl: lancedb.table.Table, index_names: Iterable[str]) -> None:
    """Append new rows to existing indexes without compaction or pruning of old versions.

    ``Table.optimize()`` would also compact files and delete versions older than a week, which
    run rollback may still need; pylance's ``optimize_indices`` does only the index part. Without
    pylance, the indexes are rebuilt in full.
    """
    names = list(index_names)
    try:
        dataset = tbl.to_lance()
    except ImportError:
        dataset = None
    if dataset is not None:
        # A fresh dataset per attempt: after a conflict the old one is behind the latest version.
        retry_conflicts(
            lambda: tbl.to_lance().optimize.optimize_indices(index_names=names), f"index refresh {tbl.name}"
        )
        return
    by_name = {ix.name: ix for ix in tbl.list_indices()}
    for name in names:
        ix = by_name[name]
        kind = ix.index_type
        config: BTree | Bitmap | FTS = FTS() if kind == "FTS" else Bitmap() if kind == "Bitmap" else BTree()
        retry_conflicts(partial(tbl.create_index, ix.columns[0], config=config, replace=True), f"index {name}")
