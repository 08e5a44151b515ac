"""Recall: one user's memories and episodes for a query, hybrid-searched in LanceDB, then ranked.

LanceDB runs the vector (cosine) and full-text legs and fuses them with its RRF reranker; this
module only builds tenant-safe filters, turns rows into candidates and hands them to
:mod:`tasks.ranking`. Access counts are kept in memory and written in one merge-insert per table
per flush, so a busy agent does not create a table version per query.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import lancedb
import numpy as np
import numpy.typing as npt
import pyarrow as pa

from tasks.lance_search import HybridSearcher, fuse
from tasks.models import RecallHit
from tasks.providers import build_embedder
from tasks.providers.base import Embedder
from tasks.ranking import EPISODE_IMPORTANCE, Candidate, Reranker, rank
from tasks.settings import Settings
from tasks.sqlfilter import all_of, column, eq, is_in, scope, ts_literal
from tasks.store import EPISODES, KEYS, MEMORIES, TS, Store

log = logging.getLogger(__name__)

#: Candidates fetched per leg and table, as a multiple of k: ranking re-orders them.
POOL_FACTOR = 4
MIN_POOL = 20
_MEMORY_COLS = (
    "row_id", "topic", "content", "vector", "importance", "confirmations", "access_count",
    "source_session_id", "source_event_ids", "stated_at", "created_at",
)  # fmt: skip
_EPISODE_COLS = (
    "episode_id", "summary", "vector", "access_count", "session_id", "source_event_ids",
    "started_at", "created_at",
)  # fmt: skip
_FILTER_COLS = (
    "status", "topic", "stated_at", "valid_from", "valid_to", "started_at", "ended_at",
    "row_id", "episode_id",
)  # fmt: skip


#: Possessive and punctuation stripped before comparing a word with the corpus stopwords.
_CORPUS_STOPWORDS = re.compile(r"(['’]s)?[^\w]*$|^[^\w]+")


@dataclass(frozen=True)
class _Plan:
    """One table to search: its filter, text column, columns to read and row → candidate."""

    table: str
    where: str
    text_col: str
    columns: Sequence[str]
    build: Callable[[dict[str, Any], float], Candidate]


class Recaller:
    """Opens the store and embedder once; answers many recalls; batches access tracking."""

    def __init__(
        self,
        settings: Settings,
        *,
        store: Store | None = None,
        embedder: Embedder | None = None,
        reranker: Reranker | None = None,
        refresh_seconds: float = 0.0,
        use_ann: bool = False,
    ) -> None:
        self.settings = settings
        self.use_ann = use_ann
        self.refresh_seconds = refresh_seconds
        self.embedder = embedder if embedder is not None else build_embedder(settings)
        self.store = store if store is not None else Store(settings.store_uri, self.embedder.model, self.embedder.dim)
        self.reranker = reranker
        self._pending: dict[str, Counter[str]] = {MEMORIES: Counter(), EPISODES: Counter()}
        self._last_access: datetime | None = None
        self._search = HybridSearcher(settings.store_uri if store is None else store.uri, refresh_seconds)

    def __enter__(self) -> Recaller:
        return self

    def __exit__(self, *exc: object) -> None:
        self.flush_access()
        self._search.close()

    def recall(
        self,
        query: str,
        app_name: str,
        user_id: str,
        *,
        k: int | None = None,
        topics: Sequence[str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        as_of: datetime | None = None,
        include_episodes: bool | None = None,
    ) -> list[RecallHit]:
        """Best ``k`` hits for ``query`` in this app and user's scope, best first.

        Current memories by default; with ``as_of`` the versions valid at that time, whatever
        their status now. Episodes join unless disabled or a topic filter leaves them out
        (``"episode"`` in ``topics`` keeps them).
        """
        k = self.settings.recall_k if k is None else k
        if k <= 0:
            return []
        tenant = scope(app_name, user_id)  # validates ids before any work
        now = as_of or datetime.now(UTC)
        text, limit = _fts_text(query), max(k * POOL_FACTOR, MIN_POOL)
        episodes = self.settings.include_episodes if include_episodes is None else include_episodes
        plans = self._plans(tenant, topics, since, until, as_of, episodes)
        # Text legs need no vector: they run while the query is embedded; then the vector legs.
        text_legs = [self._search.text_leg(p.table, text, p.text_col, p.where, p.columns, limit) for p in plans]
        vector = [float(x) for x in self.embedder.embed([query])[0]]
        vector_legs = [self._search.vector_leg(p.table, vector, p.where, p.columns, limit, self.use_ann) for p in plans]
        candidates: list[Candidate] = []
        for plan, text_leg, vector_leg in zip(plans, text_legs, vector_legs, strict=True):
            fused = fuse(text, vector_leg.result(), text_leg.result(), limit)
            candidates += [plan.build(row, cos) for row, cos in _rows(fused, vector, plan.columns)]
        hits = [h for h in rank(candidates, now, self.settings) if h.score >= self.settings.recall_min_score]
        if self.reranker is not None:
            hits = self.reranker(query, hits)
        hits = hits[:k]
        self._track(hits)
        return hits

    def flush_access(self) -> int:
        """Write pending access counts: one read and one merge-insert per table; rows updated."""
        updated = 0
        stamp = self._last_access or datetime.now(UTC)
        for name, counts in self._pending.items():
            if not counts:
                continue
            key = KEYS[name]
            tbl = self._table(name)
            if tbl is None:
                counts.clear()
                continue
            where = is_in(key, sorted(counts), _FILTER_COLS)
            current = tbl.search().where(where).select([key, "access_count"]).limit(None).to_list()
            ids = [row[key] for row in current]
            totals = [int(row["access_count"] or 0) + counts[row[key]] for row in current]
            if ids:
                data = pa.table(
                    {
                        key: pa.array(ids, pa.string()),
                        "access_count": pa.array(totals, pa.int32()),
                        "last_accessed_at": pa.array([stamp] * len(ids), TS),
                    }
                )
                result = tbl.merge_insert(key).when_matched_update_all().execute(data)
                updated += int(result.num_updated_rows)
            counts.clear()
        self._last_access = None
        return updated

    @property
    def pending_access(self) -> int:
        return sum(sum(c.values()) for c in self._pending.values())

    def _track(self, hits: Sequence[RecallHit]) -> None:
        for hit in hits:
            self._pending[MEMORIES if hit.kind == "memory" else EPISODES][hit.id] += 1
        if hits:
            self._last_access = datetime.now(UTC)

    def _table(self, name: str) -> lancedb.table.Table | None:
        """The table if it exists, never created by a read (the store may be read-only).

        The store's connection is read-consistent, so the handle sees other writers' commits.
        """
        return self.store.table(name) if name in self.store.existing() else None

    def _plans(
        self,
        tenant: str,
        topics: Sequence[str] | None,
        since: datetime | None,
        until: datetime | None,
        as_of: datetime | None,
        include_episodes: bool,
    ) -> list[_Plan]:
        """What to search: current (or as-of) memories, and episodes unless left out."""
        memories = all_of(
            tenant,
            _valid_at(as_of) if as_of else eq("status", "active", _FILTER_COLS),
            is_in("topic", topics, _FILTER_COLS) if topics else None,
            _cmp("stated_at", ">=", since),
            _cmp("stated_at", "<=", until),
        )
        plans = [_Plan(MEMORIES, memories, "content", _MEMORY_COLS, _memory_candidate)]
        if include_episodes and (not topics or "episode" in topics):
            episodes = all_of(
                tenant,
                eq("status", "active", _FILTER_COLS),
                _cmp("ended_at", "<=", as_of),
                _cmp("ended_at", ">=", since),
                _cmp("started_at", "<=", until),
            )
            plans.append(_Plan(EPISODES, episodes, "summary", _EPISODE_COLS, _episode_candidate))
        return plans


def _memory_candidate(r: dict[str, Any], cos: float) -> Candidate:
    return Candidate(
        id=r["row_id"],
        kind="memory",
        topic=r["topic"],
        content=r["content"],
        cosine=cos,
        bm25=r.get("_score"),
        stated_at=r["stated_at"],
        created_at=r["created_at"],
        session_id=r["source_session_id"],
        importance=float(r["importance"] if r["importance"] is not None else 0.5),
        confirmations=int(r["confirmations"] or 0),
        access_count=int(r["access_count"] or 0),
        source_event_ids=list(r["source_event_ids"] or []),
        fused=float(r.get("_relevance_score") or 0.0),
    )


def _episode_candidate(r: dict[str, Any], cos: float) -> Candidate:
    return Candidate(
        id=r["episode_id"],
        kind="episode",
        topic="episode",
        content=r["summary"],
        cosine=cos,
        bm25=r.get("_score"),
        stated_at=r["started_at"],
        created_at=r["created_at"],
        session_id=r["session_id"],
        importance=EPISODE_IMPORTANCE,
        access_count=int(r["access_count"] or 0),
        source_event_ids=list(r["source_event_ids"] or []),
        fused=float(r.get("_relevance_score") or 0.0),
    )


def recall(
    query: str,
    app_name: str,
    user_id: str,
    *,
    settings: Settings,
    k: int | None = None,
    topics: Sequence[str] | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    as_of: datetime | None = None,
) -> list[RecallHit]:
    """One-shot recall (opens, recalls, flushes access); long-lived callers should keep a Recaller."""
    recaller = Recaller(settings)
    hits = recaller.recall(query, app_name, user_id, k=k, topics=topics, since=since, until=until, as_of=as_of)
    recaller.flush_access()
    return hits


def _rows(
    result: pa.Table | None, vector: Sequence[float], columns: Sequence[str]
) -> list[tuple[dict[str, Any], float]]:
    """Fused rows with their exact cosine to the query (also right for text-only hits)."""
    if result is None or result.num_rows == 0:
        return []
    cosines = _cosines(np.asarray(vector, dtype=np.float32), result.column("vector"))
    keep = [c for c in (*columns, "_score", "_relevance_score") if c in result.column_names and c != "vector"]
    return list(zip(result.select(keep).to_pylist(), cosines, strict=True))


def _cosines(query: npt.NDArray[np.float32], vectors: pa.ChunkedArray) -> list[float]:
    """Exact cosine from the stored vectors: also right for FTS-only hits and approximate ANN legs."""
    flat = vectors.combine_chunks()
    matrix = flat.flatten().to_numpy(zero_copy_only=False).reshape(len(flat), -1).astype(np.float32)
    norms = np.linalg.norm(matrix, axis=1) * float(np.linalg.norm(query))
    sims = (matrix @ query) / np.where(norms > 0, norms, 1.0)
    return [float(x) for x in sims]


def _fts_text(query: str) -> str:
    """The query for the full-text leg, without words nearly every memory contains.

    Memories are third-person ("User prefers ..."), so "user" matches every row: it adds no
    signal and makes BM25 walk a posting list as long as the table (most of the 1M-row latency).
    """
    words = [w for w in query.split() if _CORPUS_STOPWORDS.sub("", w.lower()) not in {"user", "users"}]
    return " ".join(words).strip()


def _cmp(name: str, op: str, value: datetime | None) -> str | None:
    return None if value is None else f"{column(name, _FILTER_COLS)} {op} {ts_literal(value)}"


def _valid_at(when: datetime) -> str:
    """Versions valid at ``when``: valid_from <= T and (valid_to open or > T).

    A memory the user asked to forget never comes back through recall, not even for a time before
    the request; the audit trail (``history``) still shows it to an operator.
    """
    t = ts_literal(when)
    start, end = column("valid_from", _FILTER_COLS), column("valid_to", _FILTER_COLS)
    status = column("status", _FILTER_COLS)
    return f"{start} <= {t} AND ({end} IS NULL OR {end} > {t}) AND {status} != 'deleted'"
