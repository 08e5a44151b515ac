"""Recall's RRF fusion in numpy gives LanceDB's ``RRFReranker`` order and scores, case for case."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from lancedb.rerankers import RRFReranker

from tasks.recall.legs import BM25, FUSED, RRF_K, Ranked, fuse


def lancedb_fused(vectors: Ranked, texts: Ranked, limit: int) -> tuple[list[int], list[float]]:
    """What LanceDB's own reranker makes of the same two lists (its ``_rowid`` key fed the offsets)."""
    table = RRFReranker(K=RRF_K, return_score="relevance").rerank_hybrid(
        "q",
        pa.table({"_rowid": vectors.offsets, "_distance": 1.0 - vectors.scores}),
        pa.table({"_rowid": texts.offsets, BM25: texts.scores}),
    )
    table = table.slice(0, limit)
    return table.column("_rowid").to_pylist(), table.column(FUSED).to_pylist()


def ranked(rng: np.random.Generator, universe: int, n: int) -> Ranked:
    return Ranked(rng.permutation(universe)[:n].astype(np.uint64), np.sort(rng.random(n))[::-1])


@pytest.mark.parametrize("seed", range(6))
def test_fuse_matches_lancedb_rrf(seed: int) -> None:
    """Overlapping, disjoint and equal lists, ties in score (rows at mirrored ranks) and every cut."""
    rng = np.random.default_rng(seed)
    for _ in range(150):
        universe = int(rng.integers(1, 80))
        vectors = ranked(rng, universe, int(rng.integers(1, min(universe, 40) + 1)))
        texts = ranked(rng, universe, int(rng.integers(1, min(universe, 40) + 1)))
        limit = int(rng.integers(1, 90))
        offsets, scores = fuse("q", vectors, texts, limit)
        want_ids, want_scores = lancedb_fused(vectors, texts, limit)
        assert offsets.tolist() == want_ids
        assert scores is not None and scores.tolist() == want_scores


def test_fuse_ties_keep_first_seen_order() -> None:
    """Rows at mirrored ranks score alike: the vector leg's row comes first, as in LanceDB."""
    vectors = Ranked(np.array([1, 2], np.uint64), np.array([0.9, 0.8]))
    texts = Ranked(np.array([2, 1], np.uint64), np.array([5.0, 4.0]))
    offsets, scores = fuse("q", vectors, texts, 10)
    assert offsets.tolist() == [1, 2] == lancedb_fused(vectors, texts, 10)[0]
    assert scores is not None and scores[0] == scores[1] == pytest.approx(1 / 61 + 1 / 62, rel=1e-6)


def test_fuse_with_one_leg_empty_keeps_the_other() -> None:
    vectors = Ranked(np.array([3, 1, 2], np.uint64), np.array([0.9, 0.5, 0.1]))
    none = Ranked(np.zeros(0, np.uint64), np.zeros(0))
    assert fuse("q", vectors, None, 2)[0].tolist() == [3, 1]
    assert fuse("q", vectors, none, 5)[1] is None
    assert fuse("q", none, vectors, 5)[0].tolist() == [3, 1, 2]
