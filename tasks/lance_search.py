"""Hybrid search straight on the Lance datasets under the LanceDB tables.

Per table, two legs run on a small thread pool (Lance releases the GIL while it scans):

* **vector**: exact by default. One scan reads only the tenant's vectors (its rows are found by
  the scalar indexes) and numpy scores them all; Lance's own flat KNN plan over the same rows
  cost about 2 ms more per query. The scan needs no query vector, so it runs while the query is
  being embedded. With ``use_ann`` the IVF-HNSW-SQ index answers instead, after the embedding.
* **full text**: Lance's BM25 index, prefiltered by the same tenant filter, also started before
  the embedding.

Both legs return only row offsets and scores. LanceDB's RRF reranker fuses them, and then one
``take`` reads the candidates' columns: reading every column of every tenant row cost a further
1-8 ms (more with more rows per user), for rows that ranking then mostly discards. All of one
recall's reads use one dataset version, so offsets stay valid between the scans and the take.

Why not LanceDB's query builder: on this 2-core machine each LanceDB query cost about 2 ms more CPU
than the same Lance scan, and its async API added event-loop hand-offs between threads. The
filters are the same Lance SQL, built by :mod:`tasks.sqlfilter`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import pyarrow as pa
from lancedb.rerankers import RRFReranker

if TYPE_CHECKING:
    from lance import LanceDataset

    from tasks.store import Store

Offsets = npt.NDArray[np.uint64]
Scores = npt.NDArray[np.float64]

#: Signal columns appended to each table's candidates (besides the leg's own columns).
COSINE, BM25, FUSED = "_cosine", "_score", "_relevance_score"
_OFFSET = "_rowoffset"


@dataclass(frozen=True)
class Leg:
    """One table to search: its tenant filter, its text column and the columns to return."""

    table: str
    where: str
    text_column: str
    columns: Sequence[str]


@dataclass(frozen=True)
class _Ranked:
    """A leg's answer: row offsets, best first, with their scores."""

    offsets: Offsets
    scores: Scores


class HybridSearcher:
    """Dataset handles that move to the table's latest version at most every ``refresh_seconds``."""

    def __init__(self, store: Store, refresh_seconds: float = 0.0) -> None:
        self._store = store
        self._refresh = refresh_seconds
        self._datasets: dict[str, tuple[float, LanceDataset]] = {}
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="recall")

    def search(
        self,
        legs: Sequence[Leg],
        text: str,
        embed: Callable[[], Sequence[float]],
        limit: int,
        use_ann: bool,
    ) -> list[pa.Table | None]:
        """Per leg, its fused candidates (at most ``limit``, best first), or None without any.

        ``embed`` computes the query vector; it runs in the calling thread while the text legs and
        the reads of the tenants' vectors (neither needs the vector) are already under way. Each
        table's candidates carry the leg's columns plus ``_cosine`` (exact, from the stored
        vector), ``_score`` (BM25, null when the text leg missed the row) and, when both legs found
        rows, ``_relevance_score`` (RRF).
        """
        # One version check per table, shared by its legs and its take.
        datasets = [self.dataset(leg.table) for leg in legs]
        pairs = list(zip(legs, datasets, strict=True))
        # Every task only waits on tasks submitted before it, so no pool size can deadlock.
        texts = [self._pool.submit(_text_leg, ds, leg, text, limit) for leg, ds in pairs]
        scans = [None if use_ann else self._pool.submit(_tenant_vectors, ds, leg) for leg, ds in pairs]
        query = np.asarray(embed(), dtype=np.float32)
        tables = [
            self._pool.submit(_candidates, ds, leg, query, scans[i], texts[i], text, limit)
            for i, (leg, ds) in enumerate(pairs)
        ]
        return [t.result() for t in tables]

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


def _candidates(
    dataset: LanceDataset | None,
    leg: Leg,
    query: npt.NDArray[np.float32],
    scan: Future[pa.Table | None] | None,
    text_leg: Future[_Ranked | None],
    text: str,
    limit: int,
) -> pa.Table | None:
    """Vector leg (exact over ``scan``, else ANN), fused with the text leg, then one take."""
    texts = text_leg.result()
    if dataset is None:
        return None
    if scan is None:
        vectors, every = _ann_leg(dataset, leg, query, limit), None
    else:
        vectors, every = _exact(scan.result(), query, limit)
    offsets, fused = fuse(text, vectors, texts, limit)
    if not len(offsets):
        return None
    # Exact mode scored every tenant row already; ANN distances are approximate, so re-score.
    columns = list(leg.columns) if every is not None else [*leg.columns, "vector"]
    rows = dataset.take(offsets, columns=columns)
    cosine = _lookup(every, offsets) if every is not None else cosines(query, rows.column("vector"))
    if every is None:
        rows = rows.drop_columns(["vector"])
    rows = rows.append_column(COSINE, pa.array(cosine, pa.float64()))
    rows = rows.append_column(BM25, _bm25(texts, offsets))
    return rows if fused is None else rows.append_column(FUSED, pa.array(fused, pa.float32()))


def _tenant_vectors(dataset: LanceDataset | None, leg: Leg) -> pa.Table | None:
    """Every vector in the tenant's filter, with its row offset (the scalar indexes find the rows)."""
    return None if dataset is None else dataset.to_table(columns=["vector", _OFFSET], filter=leg.where)


def _exact(table: pa.Table | None, query: npt.NDArray[np.float32], limit: int) -> tuple[_Ranked, _Ranked]:
    """The ``limit`` nearest of the tenant's rows, and the cosine of every one of them by offset."""
    if table is None or not table.num_rows:
        empty = _Ranked(np.zeros(0, np.uint64), np.zeros(0))
        return empty, empty
    offsets = table.column(_OFFSET).to_numpy().astype(np.uint64)
    sims = cosines(query, table.column("vector"))
    best = np.argsort(-sims, kind="stable")[:limit]
    order = np.argsort(offsets)
    return _Ranked(offsets[best], sims[best]), _Ranked(offsets[order], sims[order])


def _ann_leg(dataset: LanceDataset, leg: Leg, query: npt.NDArray[np.float32], limit: int) -> _Ranked:
    """Nearest rows by the ANN index where one exists (Lance scans the rest exactly)."""
    nearest = {"column": "vector", "q": query, "k": limit, "metric": "cosine", "use_index": True}
    table = dataset.to_table(
        columns=[_OFFSET, "_distance"],
        filter=leg.where,
        prefilter=True,
        nearest=nearest,
        disable_scoring_autoprojection=True,
    )
    distance = table.column("_distance").to_numpy(zero_copy_only=False).astype(np.float64)
    return _Ranked(table.column(_OFFSET).to_numpy().astype(np.uint64), 1.0 - distance)


def _text_leg(dataset: LanceDataset | None, leg: Leg, text: str, limit: int) -> _Ranked | None:
    """BM25 over the text column; None without a table, for an empty query, or with no FTS index yet."""
    if dataset is None or not text:
        return None
    try:
        table = dataset.to_table(
            columns=[_OFFSET, BM25],
            filter=leg.where,
            prefilter=True,
            full_text_query={"columns": [leg.text_column], "query": text},
            limit=limit,
            disable_scoring_autoprojection=True,
        )
    except (ValueError, RuntimeError, OSError):  # no FTS index yet: the vector leg suffices
        return None
    scores = table.column(BM25).to_numpy(zero_copy_only=False).astype(np.float64)
    return _Ranked(table.column(_OFFSET).to_numpy().astype(np.uint64), scores)


def fuse(text: str, vectors: _Ranked, texts: _Ranked | None, limit: int) -> tuple[Offsets, Scores | None]:
    """Candidate offsets, best first, and their RRF scores when both legs found rows.

    Fusion is LanceDB's ``RRFReranker``, fed the legs' offsets as its ``_rowid`` key (they are
    unique within one dataset version, which is all it needs).
    """
    if texts is None or not len(texts.offsets):
        return vectors.offsets[:limit], None
    if not len(vectors.offsets):
        return texts.offsets[:limit], None
    fused = RRFReranker(return_score="relevance").rerank_hybrid(
        text,
        pa.table({"_rowid": vectors.offsets, "_distance": 1.0 - vectors.scores}),
        pa.table({"_rowid": texts.offsets, BM25: texts.scores}),
    )
    fused = fused.slice(0, limit)
    return fused.column("_rowid").to_numpy().astype(np.uint64), fused.column(FUSED).to_numpy().astype(np.float64)


def cosines(query: npt.NDArray[np.float32], vectors: pa.ChunkedArray | pa.Array) -> Scores:
    """Exact cosine of each stored vector with the query (zero vectors score 0)."""
    flat = vectors.combine_chunks() if isinstance(vectors, pa.ChunkedArray) else vectors
    matrix = flat.flatten().to_numpy(zero_copy_only=False).reshape(len(flat), -1).astype(np.float32)
    norms = np.linalg.norm(matrix, axis=1) * float(np.linalg.norm(query))
    sims: Scores = ((matrix @ query) / np.where(norms > 0, norms, 1.0)).astype(np.float64)
    return sims


def _lookup(every: _Ranked, offsets: Offsets) -> Scores:
    """Scores of ``offsets`` in ``every`` (sorted by offset); 0 for a row it lacks.

    Both legs read the same version with the same filter, so every candidate should be there.
    """
    if not len(every.offsets):
        return np.zeros(len(offsets))
    at = np.minimum(np.searchsorted(every.offsets, offsets), len(every.offsets) - 1)
    return np.where(every.offsets[at] == offsets, every.scores[at], 0.0)


def _bm25(texts: _Ranked | None, offsets: Offsets) -> pa.Array:
    """BM25 per candidate; null for rows the text leg did not return."""
    if texts is None or not len(texts.offsets):
        return pa.nulls(len(offsets), pa.float32())
    found = dict(zip(texts.offsets.tolist(), texts.scores.tolist(), strict=True))
    return pa.array([found.get(o) for o in offsets.tolist()], pa.float32())
