"""Hybrid search straight on the Lance datasets under the LanceDB tables.

Per table, two legs run on a small thread pool (Lance releases the GIL while it scans):

* **vector**: exact by default. One scan reads only the tenant's vectors (its rows are found by
  the scalar indexes) and numpy scores them all; Lance's own flat KNN plan over the same rows
  cost about 2 ms more per query. The scan needs no query vector, so it runs while the query is
  being embedded. With ``use_ann`` the IVF-HNSW-SQ index answers instead, after the embedding.
* **full text**: Lance's BM25 index, prefiltered by the same tenant filter, also started before
  the embedding.

Both legs return row offsets and scores, and LanceDB's RRF reranker fuses them. The candidates'
columns then come from the tenant scan itself while a table's tenants are small (reading ~100 rows
whole cost less than a separate ``take``: 2 ms less p50 at 100k memories), or else from one
``take`` of the fused candidates (at ~1,000 rows per user, reading them whole cost 4 ms more).
The searcher learns which applies from the row counts its scans return. All of one recall's reads
use one dataset version, so offsets stay valid between the scans and the take.

Why not LanceDB's query builder: on this 2-core machine each LanceDB query cost about 2 ms more CPU
than the same Lance scan, and its async API added event-loop hand-offs between threads. The
filters are the same Lance SQL, built by :mod:`tasks.store.filters`.
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

    from tasks.store.tables import Store

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
    """Runs recall's legs. Keeps dataset handles, moved to the table's latest version at most every
    ``refresh_seconds``, and learns per table whether its tenants are small enough to read whole."""

    def __init__(self, store: Store, refresh_seconds: float = 0.0, whole_tenant_max_rows: int = 400) -> None:
        self._store = store
        self._refresh = refresh_seconds
        self._whole_max = whole_tenant_max_rows
        self._tenant_rows: dict[str, float] = {}  # per table, a moving average of rows per tenant scan
        self._datasets: dict[str, tuple[float, LanceDataset]] = {}
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="recall")

    def search(
        self,
        legs: Sequence[Leg],
        text: str,
        embed: Callable[[], npt.NDArray[np.float32]],
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
        scans = [None if use_ann else self._pool.submit(_scan, ds, leg, self._whole(leg.table)) for leg, ds in pairs]
        query = np.asarray(embed(), dtype=np.float32)
        tables = [
            self._pool.submit(_candidates, ds, leg, query, scans[i], texts[i], text, limit)
            for i, (leg, ds) in enumerate(pairs)
        ]
        found = [t.result() for t in tables]
        for leg, scan in zip(legs, scans, strict=True):
            if scan is not None and (scanned := scan.result()) is not None:
                self._learn(leg.table, scanned.num_rows)
        return found

    def _whole(self, table: str) -> bool:
        """Whether to read the tenant's rows whole (optimistic for a table not seen yet; never with 0)."""
        with self._lock:
            return self._whole_max > 0 and self._tenant_rows.get(table, 0.0) <= self._whole_max

    def _learn(self, table: str, rows: int) -> None:
        with self._lock:
            seen = self._tenant_rows.get(table)
            self._tenant_rows[table] = float(rows) if seen is None else 0.8 * seen + 0.2 * rows

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
        elif self._store.has(name):
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
    """Vector leg (exact over the tenant ``scan``, else ANN) fused with the text leg, with columns."""
    texts = text_leg.result()
    if dataset is None:
        return None
    tenant = None if scan is None else _Tenant.of(scan.result(), query)
    vectors = _ann_leg(dataset, leg, query, limit) if tenant is None else tenant.nearest(limit)
    offsets, fused = fuse(text, vectors, texts, limit)
    if not len(offsets):
        return None
    if tenant is None:  # ANN distances are approximate: re-score from the stored vectors
        rows = dataset.take(offsets, columns=[*leg.columns, "vector"])
        cosine = cosines(query, rows.column("vector"))
        rows = rows.drop_columns(["vector"])
    else:
        at, known = tenant.locate(offsets)
        cosine = np.where(known, tenant.sims[at], 0.0)
        whole = known.all() and set(leg.columns) <= set(tenant.rows.column_names)
        rows = (
            tenant.rows.take(pa.array(at)).select(list(leg.columns))
            if whole
            else dataset.take(offsets, columns=list(leg.columns))
        )
    rows = rows.append_column(COSINE, pa.array(cosine, pa.float64()))
    rows = rows.append_column(BM25, _bm25(texts, offsets))
    return rows if fused is None else rows.append_column(FUSED, pa.array(fused, pa.float32()))


def _scan(dataset: LanceDataset | None, leg: Leg, whole: bool) -> pa.Table | None:
    """The tenant's rows (found by the scalar indexes): offset and vector, plus with ``whole`` the leg's columns."""
    if dataset is None:
        return None
    columns = ["vector", _OFFSET, *(leg.columns if whole else ())]
    return dataset.to_table(columns=columns, filter=leg.where)


@dataclass(frozen=True)
class _Tenant:
    """The tenant's scanned rows with each one's cosine to the query."""

    rows: pa.Table
    offsets: Offsets
    sims: Scores
    by_offset: npt.NDArray[np.intp]  # scan positions in offset order

    @classmethod
    def of(cls, rows: pa.Table | None, query: npt.NDArray[np.float32]) -> _Tenant:
        if rows is None or not rows.num_rows:
            return cls(pa.table({}), np.zeros(0, np.uint64), np.zeros(0), np.zeros(0, np.intp))
        offsets = rows.column(_OFFSET).to_numpy().astype(np.uint64)
        return cls(rows, offsets, cosines(query, rows.column("vector")), np.argsort(offsets))

    def nearest(self, limit: int) -> _Ranked:
        best = np.argsort(-self.sims, kind="stable")[:limit]
        return _Ranked(self.offsets[best], self.sims[best])

    def locate(self, offsets: Offsets) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.bool_]]:
        """Scan positions of ``offsets`` and which were found (both legs read one version with one
        filter, so all should be)."""
        if not len(self.offsets):
            return np.zeros(len(offsets), np.intp), np.zeros(len(offsets), bool)
        sorted_offsets = self.offsets[self.by_offset]
        i = np.minimum(np.searchsorted(sorted_offsets, offsets), len(sorted_offsets) - 1)
        return self.by_offset[i], sorted_offsets[i] == offsets


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


def _bm25(texts: _Ranked | None, offsets: Offsets) -> pa.Array:
    """BM25 per candidate; null for rows the text leg did not return."""
    if texts is None or not len(texts.offsets):
        return pa.nulls(len(offsets), pa.float32())
    found = dict(zip(texts.offsets.tolist(), texts.scores.tolist(), strict=True))
    return pa.array([found.get(o) for o in offsets.tolist()], pa.float32())
