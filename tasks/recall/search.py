"""Hybrid search straight on the Lance datasets under the LanceDB tables.

Per table, two legs run on a small thread pool (Lance releases the GIL while it scans):

* **vector**: exact by default. One scan reads only the tenant's vectors (its rows are found by
  the scalar indexes) and numpy scores them all; Lance's own flat KNN plan over the same rows
  cost about 2 ms more per query. The scan needs no query vector, so it runs while the query is
  being embedded. With ``use_ann`` the IVF-HNSW-SQ index answers instead, after the embedding.
* **full text**: Lance's BM25 index, prefiltered by the same tenant filter, also started before
  the embedding.

Both legs return row offsets and scores, fused by RRF as LanceDB's reranker does it. The candidates'
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
from functools import partial
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from tasks.recall.legs import (
    BM25,
    COSINE,
    FUSED,
    Leg,
    Ranked,
    Tenant,
    ann_leg,
    bm25_column,
    cosines,
    fuse,
    scan_tenant,
    text_leg,
)

if TYPE_CHECKING:
    from lance import LanceDataset

    from tasks.store.tables import Store

__all__ = ["BM25", "COSINE", "FUSED", "HybridSearcher", "Leg", "Searched"]


@dataclass(frozen=True)
class _VectorSide:
    """One table's vector leg: the query vector, its ranking, and the tenant scan it came from (exact)."""

    query: npt.NDArray[np.float32]
    vectors: Ranked
    tenant: Tenant | None


@dataclass(frozen=True)
class Searched:
    """One search's candidates per leg (:attr:`tables`), with what :meth:`HybridSearcher.search_words`
    reuses: the legs, the dataset versions read and each table's vector leg."""

    tables: list[pa.Table | None]
    legs: Sequence[Leg]
    datasets: list[LanceDataset | None]
    vectors: list[_VectorSide | None]


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
    ) -> Searched:
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
        texts = [self._pool.submit(text_leg, ds, leg, text, limit) for leg, ds in pairs]
        scans = [
            None if use_ann else self._pool.submit(scan_tenant, ds, leg, self._whole(leg.table)) for leg, ds in pairs
        ]
        query = np.asarray(embed(), dtype=np.float32)
        sides = [
            partial(_vector_side, ds, leg, query, scans[i], limit) if ds is not None else None
            for i, (leg, ds) in enumerate(pairs)
        ]
        found = self._fused(pairs, sides, texts, text, limit)
        for leg, scan in zip(legs, scans, strict=True):
            if scan is not None and (scanned := scan.result()) is not None:
                self._learn(leg.table, scanned.num_rows)
        return Searched([f[0] for f in found], legs, datasets, [f[1] for f in found])

    def search_words(self, prior: Searched, text: str, limit: int) -> list[pa.Table | None]:
        """:meth:`search` for other words with the query vector of ``prior``: only the text legs run
        again; each is fused with ``prior``'s vector leg, on the dataset versions it read (a list
        question's second search for the kind's members cost a whole second search before)."""
        pairs = list(zip(prior.legs, prior.datasets, strict=True))
        texts = [self._pool.submit(text_leg, ds, leg, text, limit) for leg, ds in pairs]
        return [f[0] for f in self._fused(pairs, prior.vectors, texts, text, limit)]

    def _fused(
        self,
        pairs: Sequence[tuple[Leg, LanceDataset | None]],
        sides: Sequence[Callable[[], _VectorSide] | _VectorSide | None],
        texts: Sequence[Future[Ranked | None]],
        text: str,
        limit: int,
    ) -> list[tuple[pa.Table | None, _VectorSide | None]]:
        tables = [
            self._pool.submit(_candidates, ds, leg, sides[i], texts[i], text, limit)
            for i, (leg, ds) in enumerate(pairs)
        ]
        return [t.result() for t in tables]

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


def _vector_side(
    dataset: LanceDataset, leg: Leg, query: npt.NDArray[np.float32], scan: Future[pa.Table | None] | None, limit: int
) -> _VectorSide:
    """The vector leg: exact over the tenant ``scan``, else by the ANN index."""
    tenant = None if scan is None else Tenant.of(scan.result(), query)
    vectors = ann_leg(dataset, leg, query, limit) if tenant is None else tenant.nearest(limit)
    return _VectorSide(query, vectors, tenant)


def _candidates(
    dataset: LanceDataset | None,
    leg: Leg,
    vector_side: Callable[[], _VectorSide] | _VectorSide | None,
    text_leg: Future[Ranked | None],
    text: str,
    limit: int,
) -> tuple[pa.Table | None, _VectorSide | None]:
    """The vector leg fused with the text leg, with columns; and the vector leg, for a second search."""
    texts = text_leg.result()
    if dataset is None or vector_side is None:
        return None, None
    side = vector_side if isinstance(vector_side, _VectorSide) else vector_side()
    query, tenant = side.query, side.tenant
    offsets, fused = fuse(text, side.vectors, texts, limit)
    if not len(offsets):
        return None, side
    if tenant is None:  # ANN distances are approximate: re-score from the stored vectors
        rows = dataset.take(offsets, columns=list(dict.fromkeys([*leg.columns, "vector"])))
        cosine = cosines(query, rows.column("vector"))
        rows = rows if "vector" in leg.columns else rows.drop_columns(["vector"])
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
    rows = rows.append_column(BM25, bm25_column(texts, offsets))
    return (rows if fused is None else rows.append_column(FUSED, pa.array(fused, pa.float32()))), side
