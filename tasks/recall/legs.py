"""The legs of recall's hybrid search, each on one Lance dataset: the tenant scan and exact vector
ranking, the ANN and BM25 legs, and their RRF fusion (run and combined by :mod:`tasks.recall.search`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import pyarrow as pa

if TYPE_CHECKING:
    from lance import LanceDataset

Offsets = npt.NDArray[np.uint64]
Scores = npt.NDArray[np.float64]

#: Signal columns appended to each table's candidates (besides the leg's own columns).
COSINE, BM25, FUSED = "_cosine", "_score", "_relevance_score"
OFFSET = _OFFSET = "_rowoffset"  # a row's offset in its dataset version (what ``take`` reads)
#: RRF's rank constant, LanceDB's default (Cormack et al.: near-optimal, not critical).
RRF_K = 60


@dataclass(frozen=True)
class Leg:
    """One table to search: its tenant filter, its text column and the columns to return."""

    table: str
    where: str
    text_column: str
    columns: Sequence[str]
    #: Columns the tenant scan always reads besides the vector (evidence: where each turn sits, so
    #: that a found turn's neighbours are located without another filtered read).
    scan_columns: Sequence[str] = ()


@dataclass(frozen=True)
class Ranked:
    """A leg's answer: row offsets, best first, with their scores."""

    offsets: Offsets
    scores: Scores


def scan_tenant(dataset: LanceDataset | None, leg: Leg, whole: bool) -> pa.Table | None:
    """The tenant's rows (found by the scalar indexes): offset and vector, plus with ``whole`` the leg's columns."""
    if dataset is None:
        return None
    columns = list(dict.fromkeys(["vector", _OFFSET, *leg.scan_columns, *(leg.columns if whole else ())]))
    return dataset.to_table(columns=columns, filter=leg.where)


@dataclass(frozen=True)
class Tenant:
    """The tenant's scanned rows with each one's cosine to the query."""

    rows: pa.Table
    offsets: Offsets
    sims: Scores
    by_offset: npt.NDArray[np.intp]  # scan positions in offset order

    @classmethod
    def of(cls, rows: pa.Table | None, query: npt.NDArray[np.float32]) -> Tenant:
        if rows is None or not rows.num_rows:
            return cls(pa.table({}), np.zeros(0, np.uint64), np.zeros(0), np.zeros(0, np.intp))
        offsets = rows.column(_OFFSET).to_numpy().astype(np.uint64)
        return cls(rows, offsets, cosines(query, rows.column("vector")), np.argsort(offsets))

    def nearest(self, limit: int) -> Ranked:
        best = np.argsort(-self.sims, kind="stable")[:limit]
        return Ranked(self.offsets[best], self.sims[best])

    def locate(self, offsets: Offsets) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.bool_]]:
        """Scan positions of ``offsets`` and which were found (both legs read one version with one
        filter, so all should be)."""
        if not len(self.offsets):
            return np.zeros(len(offsets), np.intp), np.zeros(len(offsets), bool)
        sorted_offsets = self.offsets[self.by_offset]
        i = np.minimum(np.searchsorted(sorted_offsets, offsets), len(sorted_offsets) - 1)
        return self.by_offset[i], sorted_offsets[i] == offsets


def ann_leg(dataset: LanceDataset, leg: Leg, query: npt.NDArray[np.float32], limit: int) -> Ranked:
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
    return Ranked(table.column(_OFFSET).to_numpy().astype(np.uint64), 1.0 - distance)


def text_leg(dataset: LanceDataset | None, leg: Leg, text: str, limit: int) -> Ranked | None:
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
    return Ranked(table.column(_OFFSET).to_numpy().astype(np.uint64), scores)


def fuse(text: str, vectors: Ranked, texts: Ranked | None, limit: int) -> tuple[Offsets, Scores | None]:
    """Candidate offsets, best first, and their RRF scores when both legs found rows.

    Reciprocal rank fusion exactly as LanceDB's ``RRFReranker`` computes it (each list adds
    ``1 / (rank + K)``, ranks from 1, the vector leg's first; rows in the order first seen, the vector
    leg's then the text leg's others; float32 scores sorted stably), in numpy on the offsets: the same
    order and scores (tests/test_recall_legs.py checks it against LanceDB's own) for 0.06 ms
    instead of the 0.35 ms of its pyarrow tables. ``text`` is unused, as it is by LanceDB's.
    """
    if texts is None or not len(texts.offsets):
        return vectors.offsets[:limit], None
    if not len(vectors.offsets):
        return texts.offsets[:limit], None
    ids = np.concatenate([vectors.offsets, texts.offsets])
    _, first = np.unique(ids, return_index=True)
    rows = ids[np.sort(first)]  # each row once, in the order first seen
    by_id = np.argsort(rows, kind="stable")
    scores = np.zeros(len(rows))
    for leg in (vectors.offsets, texts.offsets):  # the vector leg's share is added first, as LanceDB adds it
        scores[by_id[np.searchsorted(rows[by_id], leg)]] += 1.0 / (np.arange(1, len(leg) + 1) + RRF_K)
    fused = scores.astype(np.float32)
    best = np.argsort(-fused, kind="stable")[:limit]
    return rows[best], fused[best].astype(np.float64)


def cosines(query: npt.NDArray[np.float32], vectors: pa.ChunkedArray | pa.Array) -> Scores:
    """Exact cosine of each stored vector with the query (zero vectors score 0)."""
    flat = vectors.combine_chunks() if isinstance(vectors, pa.ChunkedArray) else vectors
    matrix = flat.flatten().to_numpy(zero_copy_only=False).reshape(len(flat), -1).astype(np.float32)
    norms = np.linalg.norm(matrix, axis=1) * float(np.linalg.norm(query))
    sims: Scores = ((matrix @ query) / np.where(norms > 0, norms, 1.0)).astype(np.float64)
    return sims


def bm25_column(texts: Ranked | None, offsets: Offsets) -> pa.Array:
    """BM25 per candidate; null for rows the text leg did not return."""
    if texts is None or not len(texts.offsets):
        return pa.nulls(len(offsets), pa.float32())
    found = dict(zip(texts.offsets.tolist(), texts.scores.tolist(), strict=True))
    return pa.array([found.get(o) for o in offsets.tolist()], pa.float32())


#: Possessive and punctuation stripped before comparing a word with the corpus stopwords.
_CORPUS_STOPWORDS = re.compile(r"(['’]s)?[^\w]*$|^[^\w]+")


def fts_text(query: str) -> str:
    """The query for the full-text leg, without words nearly every memory contains.

    Memories are third-person ("User prefers ..."), so "user" matches every row: it adds no
    signal and makes BM25 walk a posting list as long as the table (most of the 1M-row latency).
    """
    words = [w for w in query.split() if _CORPUS_STOPWORDS.sub("", w.lower()) not in {"user", "users"}]
    return " ".join(words).strip()
