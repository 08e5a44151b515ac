"""Clustering by scope: rows end up grouped by user, nothing is lost, indexes come back, races are safe."""

from __future__ import annotations

from typing import Any

import lance
import numpy as np
import pytest

from tasks.providers.base import Embedder
from tasks.recall.recaller import Recaller
from tasks.settings import Settings
from tasks.store import layout
from tasks.store.indexes import ensure_indexes
from tasks.store.layout import cluster_by_scope, layout_stats, needs_clustering
from tasks.store.tables import MEMORIES, Store
from tests.test_recall import APP, NOW, memory

USERS = ("u0", "u1", "u2", "u3")


def fill(store: Store, embedder: Embedder, runs: int = 3) -> list[str]:
    """``runs`` appends, each with a row per user: every user's rows end up in every fragment."""
    base = memory(embedder, "User plays the cello")
    rng = np.random.default_rng(3)
    ids = []
    for run in range(runs):
        rows = []
        for user in USERS:
            vec = rng.normal(size=embedder.dim).astype(np.float32)
            row_id = f"{user}-{run}"
            rows.append(base.model_copy(update={"row_id": row_id, "memory_id": row_id, "user_id": user,
                                                "content": f"{user} note {run}",
                                                "vector": (vec / np.linalg.norm(vec)).tolist()}))  # fmt: skip
            ids.append(row_id)
        store.upsert(MEMORIES, rows)
    return ids


def physical_users(store: Store) -> list[str]:
    """User ids in storage order (fragment by fragment, row by row)."""
    dataset = store.table(MEMORIES).to_lance()
    return [u for f in dataset.get_fragments() for u in f.to_table(columns=["user_id"])["user_id"].to_pylist()]


def is_grouped(users: list[str]) -> bool:
    runs = [u for i, u in enumerate(users) if i == 0 or users[i - 1] != u]
    return len(runs) == len(set(runs))


def test_cluster_groups_each_users_rows_and_keeps_every_row(settings: Settings, embedder: Embedder) -> None:
    store = Store(settings.store_uri, embedder.model, embedder.dim)
    ids = fill(store, embedder)
    tbl = store.table(MEMORIES)
    tbl.delete("row_id = 'u1-0'")
    assert not is_grouped(physical_users(store))
    assert needs_clustering(tbl, min_rows=5, max_unclustered_share=0.2)
    assert not needs_clustering(tbl, min_rows=1000, max_unclustered_share=0.2)

    assert cluster_by_scope(tbl, "row_id")

    assert is_grouped(physical_users(store))
    assert sorted(r["row_id"] for r in store.rows(MEMORIES)) == sorted(set(ids) - {"u1-0"})
    assert layout_stats(tbl).unclustered_rows == 0
    assert not needs_clustering(tbl, min_rows=5, max_unclustered_share=0.2)
    assert tbl.schema.metadata[b"embedding_model"] == embedder.model.encode()  # the embedder guard survives


def test_rows_appended_during_clustering_survive(
    settings: Settings, embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(settings.store_uri, embedder.model, embedder.dim)
    fill(store, embedder)
    late = memory(embedder, "User's locker code is QV-9913", user="u2")
    real_write = lance.fragment.write_fragments

    def write_then_race(*args: Any, **kwargs: Any) -> Any:
        written = real_write(*args, **kwargs)
        store.upsert(MEMORIES, [late])  # another writer commits between our read and our commit
        return written

    monkeypatch.setattr(lance.fragment, "write_fragments", write_then_race)
    assert cluster_by_scope(store.table(MEMORIES), "row_id")
    assert store.rows(MEMORIES, "row_id = '%s'" % late.row_id)  # noqa: UP031 - fixed test id
    stats = layout_stats(store.table(MEMORIES))
    assert stats.unclustered_rows == 1 and stats.clustered_rows == len(USERS) * 3


def test_update_during_clustering_makes_it_back_off(
    settings: Settings, embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(settings.store_uri, embedder.model, embedder.dim)
    fill(store, embedder)
    real_write = lance.fragment.write_fragments

    def write_then_delete(*args: Any, **kwargs: Any) -> Any:
        written = real_write(*args, **kwargs)
        store.table(MEMORIES).delete("row_id = 'u0-1'")  # a forget request lands meanwhile
        return written

    monkeypatch.setattr(lance.fragment, "write_fragments", write_then_delete)
    assert not cluster_by_scope(store.table(MEMORIES), "row_id")
    assert not store.rows(MEMORIES, "row_id = 'u0-1'")  # the delete is not undone by our rewrite
    assert len(store.rows(MEMORIES)) == len(USERS) * 3 - 1


def test_ensure_indexes_clusters_large_tables_and_rebuilds_indexes(settings: Settings, embedder: Embedder) -> None:
    store = Store(settings.store_uri, embedder.model, embedder.dim)
    fill(store, embedder)
    off = settings.model_copy(update={"cluster_min_rows": 0})
    assert "memories:clustered" not in ensure_indexes(store, off)
    small = settings.model_copy(update={"cluster_min_rows": 5})
    done = ensure_indexes(store, small)
    assert "memories:clustered" in done and "memories.user_id:created" in done
    tbl = store.table(MEMORIES)
    assert all(tbl.index_stats(ix.name).num_unindexed_rows == 0 for ix in tbl.list_indices())
    assert ensure_indexes(store, small) == []  # clustered and indexed: nothing to do
    late = memory(embedder, "User's locker code is QV-9913", user="u2", app=APP)
    store.upsert(MEMORIES, [late])
    hits = Recaller(small, store=store, embedder=embedder).recall("QV-9913", APP, "u2", k=1, now=NOW)
    assert [h.id for h in hits] == [late.row_id]
    assert layout.layout_stats(tbl).unclustered_rows == 1
