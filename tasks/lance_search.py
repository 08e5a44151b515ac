"""Hybrid search legs run straight on the Lance datasets under the LanceDB tables.

Why not LanceDB's query builder: on this 2-core machine each LanceDB query (sync or async) cost
about 2 ms more CPU than the same Lance scan, and the async API added event-loop hand-offs between
threads; recall issues up to four queries per call. Lance releases the GIL while it scans, so the
legs (vector and full-text, on memories and episodes) simply run together on a small thread pool.
The filters are the same Lance SQL, built by :mod:`tasks.sqlfilter`; fusion is still LanceDB's own
RRF reranker.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
from lancedb.rerankers import RRFReranker

if TYPE_CHECKING:
    from lance import LanceDataset

    from tasks.store import Store


@dataclass(frozen=True)
class Leg:
    """One table to search: its tenant filter, its text column and the columns to return."""

    table: str
    where: str
    text_column: str
    columns: Sequence[str]


@dataclass(frozen=True)
class LegResults:
    vectors: pa.Table | None
    texts: pa.Table | None


class HybridSearcher:
    """Dataset handles that move to the table's latest version at most every ``refresh_seconds``."""

    def __init__(self, store: Store, refresh_seconds: float = 0.0) -> None:
        self._store = store
        self._refresh = refresh_seconds
        self._datasets: dict[str, tuple[float, LanceDataset]] = {}
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="recall")

    def search(
        self, legs: Sequence[Leg], text: str, vector: Sequence[float], limit: int, use_ann: bool
    ) -> list[LegResults]:
        """Per leg, its vector and full-text results (``limit`` rows each), all legs at once."""
        query = np.asarray(vector, dtype=np.float32)
        # One version check per table, shared by its two legs (which then read the same version).
        datasets = [self.dataset(leg.table) for leg in legs]
        futures = [
            (
                self._pool.submit(_vector_leg, dataset, leg, query, limit, use_ann),
                self._pool.submit(_text_leg, dataset, leg, text, limit),
            )
            for leg, dataset in zip(legs, datasets, strict=True)
        ]
        return [LegResults(v.result(), t.result()) for v, t in futures]

    def close(self) -> None:
        self._pool.shutdown(wait=False)

    def dataset(self, name: str) -> LanceDataset | None:
        """The table's dataset, or None while the table does not exist (reads never create it)."""
        now = time.monotonic()
        with self._lock:
            cached = self._datasets.get(name)
        if cached is not None and now - cached[0] < self._refresh:
            return cached[1]
        if cached is not None:
            dataset = cached[1]
            latest = dataset.latest_version
            if latest != dataset.version:
                dataset = dataset.checkout_version(latest)
        elif name in self._store.existing():
            dataset = self._store.table(name).to_lance()
        else:
            return None
        with self._lock:
            self._datasets[name] = (now, dataset)
        return dataset


def _vector_leg(
    dataset: LanceDataset | None, leg: Leg, query: np.ndarray, limit: int, use_ann: bool
) -> pa.Table | None:
    """Cosine nearest rows; an exact scan of the filtered rows unless ``use_ann``; None without a table."""
    if dataset is None:
        return None
    nearest = {"column": "vector", "q": query, "k": limit, "metric": "cosine", "use_index": use_ann}
    return dataset.to_table(
        columns=[*leg.columns, "_distance"], filter=leg.where, prefilter=True, with_row_id=True, nearest=nearest
    )


def _text_leg(dataset: LanceDataset | None, leg: Leg, text: str, limit: int) -> pa.Table | None:
    """BM25 over the text column; None without a table, for an empty query, or with no FTS index yet."""
    if dataset is None or not text:
        return None
    try:
        return dataset.to_table(
            columns=[*leg.columns, "_score"],
            filter=leg.where,
            prefilter=True,
            with_row_id=True,
            full_text_query={"columns": [leg.text_column], "query": text},
            limit=limit,
        )
    except (ValueError, RuntimeError, OSError):  # no FTS index yet: the vector leg suffices
        return None


def fuse(text: str, legs: LegResults, limit: int) -> pa.Table | None:
    """Reciprocal-rank fusion of the two legs by LanceDB's RRFReranker (best first, top ``limit``)."""
    vectors, texts = legs.vectors, legs.texts
    if texts is None or texts.num_rows == 0:
        return vectors.slice(0, limit) if vectors is not None else None
    if vectors is None or vectors.num_rows == 0:
        return texts.slice(0, limit)
    fused: pa.Table = RRFReranker(return_score="all").rerank_hybrid(text, vectors, texts).slice(0, limit)
    # A row found by both legs keeps the vector leg's copy: give it back its BM25 score.
    bm25 = dict(zip(texts["_rowid"].to_pylist(), texts["_score"].to_pylist(), strict=True))
    scores = pa.array([bm25.get(rid) for rid in fused["_rowid"].to_pylist()], pa.float32())
    if "_score" in fused.column_names:
        fused = fused.drop_columns(["_score"])
    return fused.append_column("_score", scores)
