"""Hybrid search legs on LanceDB's async API, from synchronous callers.

Why: the synchronous hybrid query starts a thread pool per call and runs one table at a time;
recall needs four legs (vector and full-text, on memories and episodes). Here they all run at
once on one private event loop, and the text legs start before the query is even embedded.
Fusion is LanceDB's own RRF reranker, not ours.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine, Sequence
from concurrent.futures import Future
from datetime import timedelta
from typing import Any, TypeVar

import lancedb
import pyarrow as pa
from lancedb.rerankers import RRFReranker

T = TypeVar("T")


class HybridSearcher:
    """Owns an event loop thread and async table handles that refresh every ``refresh_seconds``."""

    def __init__(self, uri: str, refresh_seconds: float = 0.0) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="recall-lance", daemon=True)
        self._thread.start()
        interval = timedelta(seconds=refresh_seconds)
        self._db = self._run(lancedb.connect_async(uri, read_consistency_interval=interval)).result()
        self._tables: dict[str, Any] = {}

    def _run(self, coro: Coroutine[Any, Any, T]) -> Future[T]:
        return asyncio.run_coroutine_threadsafe(coro, self._loop)

    async def _table(self, name: str) -> Any | None:
        """The async handle of ``name``, or None while the table does not exist (reads never create)."""
        if name not in self._tables:
            try:
                self._tables[name] = await self._db.open_table(name)
            except (FileNotFoundError, ValueError, RuntimeError):
                return None
        return self._tables[name]

    def text_leg(
        self, table: str, text: str, column: str, where: str, columns: Sequence[str], limit: int
    ) -> Future[pa.Table | None]:
        """BM25 over ``column``; None when the table is missing or has no full-text index yet."""

        async def leg() -> pa.Table | None:
            tbl = await self._table(table)
            if tbl is None or not text:
                return None
            try:
                query = tbl.query().nearest_to_text(text, columns=[column]).where(where)
                result: pa.Table = await query.select(list(columns)).with_row_id().limit(limit).to_arrow()
                return result
            except (ValueError, RuntimeError, OSError):  # no FTS index yet: the vector leg suffices
                return None

        return self._run(leg())

    def vector_leg(
        self, table: str, vector: Sequence[float], where: str, columns: Sequence[str], limit: int, use_ann: bool
    ) -> Future[pa.Table | None]:
        """Cosine nearest rows; an exact scan of the filtered rows unless ``use_ann``."""

        async def leg() -> pa.Table | None:
            tbl = await self._table(table)
            if tbl is None:
                return None
            query = tbl.query().nearest_to(list(vector)).distance_type("cosine").where(where)
            if not use_ann:
                query = query.bypass_vector_index()
            result: pa.Table = await query.select(list(columns)).with_row_id().limit(limit).to_arrow()
            return result

        return self._run(leg())

    def close(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)


def fuse(text: str, vectors: pa.Table | None, texts: pa.Table | None, limit: int) -> pa.Table | None:
    """Reciprocal-rank fusion of the two legs by LanceDB's RRFReranker (best first, top ``limit``)."""
    if texts is None or texts.num_rows == 0:
        return vectors.slice(0, limit) if vectors is not None else None
    if vectors is None or vectors.num_rows == 0:
        return texts.slice(0, limit)
    vectors = vectors.drop_columns([c for c in ("_score",) if c in vectors.column_names])
    texts = texts.drop_columns([c for c in ("_distance",) if c in texts.column_names])
    fused: pa.Table = RRFReranker(return_score="all").rerank_hybrid(text, vectors, texts).slice(0, limit)
    # A row found by both legs keeps the vector leg's copy: give it back its BM25 score.
    bm25 = dict(zip(texts["_rowid"].to_pylist(), texts["_score"].to_pylist(), strict=True))
    scores = pa.array([bm25.get(rid) for rid in fused["_rowid"].to_pylist()], pa.float32())
    if "_score" in fused.column_names:
        fused = fused.drop_columns(["_score"])
    return fused.append_column("_score", scores)
