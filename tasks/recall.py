"""Recall: one user's memories and episodes for a query, hybrid-searched in LanceDB, then ranked.

:mod:`tasks.lance_search` runs the vector (cosine) and full-text legs on the Lance datasets and
fuses them with LanceDB's RRF reranker; this module builds tenant-safe filters, reads the fused
rows column-wise into signals for :mod:`tasks.ranking`, and materialises only the top k as hits.
Access counts are kept in memory and written in one merge-insert per table per flush, so a busy
agent does not create a table version per query.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

import lancedb
import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from tasks.lance_search import BM25, COSINE, FUSED, HybridSearcher, Leg
from tasks.models import RecallHit
from tasks.providers import build_embedder
from tasks.providers.base import Embedder
from tasks.ranking import EPISODE_IMPORTANCE, FloatArray, Reranker, Signals, half_life, order, score
from tasks.settings import Settings
from tasks.sqlfilter import all_of, column, eq, is_in, scope, ts_literal
from tasks.store import EPISODES, KEYS, MEMORIES, TS, Store

log = logging.getLogger(__name__)

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
#: Candidates fetched per leg and table, as a multiple of k: ranking re-orders them.
POOL_FACTOR = 4
MIN_POOL = 20
_MEMORY_COLS = (
    "row_id", "topic", "content", "importance", "confirmations", "access_count",
    "source_session_id", "source_event_ids", "stated_at", "created_at",
)  # fmt: skip
_EPISODE_COLS = (
    "episode_id", "summary", "access_count", "session_id", "source_event_ids",
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
    """One table to search: its filter, text column, columns to read and what they mean for a hit."""

    table: str
    kind: Literal["memory", "episode"]
    where: str
    text_col: str
    columns: Sequence[str]
    session_col: str
    when_col: str  # when the fact was stated (memories) or the session started (episodes)


@dataclass(frozen=True)
class _Found:
    """One table's fused rows with their signals."""

    plan: _Plan
    rows: pa.Table
    ids: list[str]
    signals: Signals


class Recaller:
    """Opens the store and embedder once; answers many recalls; batches access tracking."""

    def __init__(
        self,
        settings: Settings,
        *,
        store: Store | None = None,
        embedder: Embedder | None = None,
        reranker: Reranker | None = None,
        refresh_seconds: float | None = None,
        use_ann: bool = False,
    ) -> None:
        self.settings = settings
        self.use_ann = use_ann
        self.refresh_seconds = settings.recall_refresh_seconds if refresh_seconds is None else refresh_seconds
        self.embedder = embedder if embedder is not None else build_embedder(settings)
        self.store = store if store is not None else Store(settings.store_uri, self.embedder.model, self.embedder.dim)
        self.reranker = reranker
        self._pending: dict[str, Counter[str]] = {MEMORIES: Counter(), EPISODES: Counter()}
        self._last_access: datetime | None = None
        self._search = HybridSearcher(self.store, self.refresh_seconds, settings.recall_whole_tenant_max_rows)

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
        # The query is embedded while the text legs and the reads of the tenant's vectors run:
        # with legs that read only offsets, scores and vectors, this overlap saved 2-4 ms p95 on
        # two cores (with heavier legs it had only slowed both down).
        legs = [Leg(p.table, p.where, p.text_col, p.columns) for p in plans]
        results = self._search.search(legs, text, lambda: self._embed(query), limit, self.use_ann)
        found = [
            _found(plan, rows, now, self.settings)
            for plan, rows in zip(plans, results, strict=True)
            if rows is not None and rows.num_rows
        ]
        hits = _top_hits(found, self.settings, k if self.reranker is None else None)
        if self.reranker is not None:
            hits = self.reranker(query, hits)[:k]
        self._track(hits)
        return hits

    def _embed(self, query: str) -> npt.NDArray[np.float32]:
        return np.asarray(self.embedder.embed([query])[0], dtype=np.float32)

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
        plans = [_Plan(MEMORIES, "memory", memories, "content", _MEMORY_COLS, "source_session_id", "stated_at")]
        if include_episodes and (not topics or "episode" in topics):
            episodes = all_of(
                tenant,
                eq("status", "active", _FILTER_COLS),
                _cmp("ended_at", "<=", as_of),
                _cmp("ended_at", ">=", since),
                _cmp("started_at", "<=", until),
            )
            plans.append(_Plan(EPISODES, "episode", episodes, "summary", _EPISODE_COLS, "session_id", "started_at"))
        return plans


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
    with Recaller(settings) as recaller:
        return recaller.recall(query, app_name, user_id, k=k, topics=topics, since=since, until=until, as_of=as_of)


def _found(plan: _Plan, rows: pa.Table, now: datetime, settings: Settings) -> _Found:
    """Signals of one table's fused rows, read column-wise (no per-row Python objects)."""
    n = rows.num_rows
    when = pc.coalesce(rows.column(plan.when_col), rows.column("created_at"))
    micros = pc.cast(when, pa.int64()).to_numpy(zero_copy_only=False).astype(np.float64)
    now_us = now.astimezone(UTC).timestamp() * 1_000_000
    if plan.kind == "memory":
        topics = rows.column("topic").to_pylist()
        importance = _floats(rows, "importance", 0.5)
        uses = _floats(rows, "confirmations", 0.0) + _floats(rows, "access_count", 0.0)
    else:
        topics = ["episode"] * n
        importance = np.full(n, EPISODE_IMPORTANCE)
        uses = _floats(rows, "access_count", 0.0)
    signals = Signals(
        cosine=_floats(rows, COSINE, 0.0),
        bm25=_floats(rows, BM25, 0.0),
        age_days=(now_us - micros) / 86_400_000_000.0,
        half_life_days=np.array([half_life(str(t), settings) for t in topics], dtype=np.float64),
        importance=importance,
        uses=uses,
        fused=_floats(rows, FUSED, 0.0),
    )
    return _Found(plan, rows, [str(i) for i in rows.column(KEYS[plan.table]).to_pylist()], signals)


def _floats(rows: pa.Table, name: str, fill: float) -> FloatArray:
    if name not in rows.column_names:
        return np.full(rows.num_rows, fill, dtype=np.float64)
    values = rows.column(name)
    if values.null_count:
        values = pc.fill_null(values, fill)
    return np.asarray(values.to_numpy(zero_copy_only=False), dtype=np.float64)


def _top_hits(found: Sequence[_Found], settings: Settings, k: int | None) -> list[RecallHit]:
    """Score every candidate, then build hits for the best ``k`` only (all when ``k`` is None)."""
    scored = [score(f.signals, settings) for f in found]
    slots = [(fi, i) for fi, f in enumerate(found) for i in range(len(f.ids))]  # (table, row) per candidate
    totals = np.concatenate([total for total, _ in scored]) if scored else np.zeros(0)
    ranked = [p for p in order(totals, [found[fi].ids[i] for fi, i in slots]) if totals[p] >= settings.recall_min_score]
    chosen = [slots[p] for p in (ranked if k is None else ranked[:k])]
    wanted: dict[int, list[int]] = {}
    for fi, i in chosen:
        wanted.setdefault(fi, []).append(i)
    rows = {fi: _materialise(found[fi], positions) for fi, positions in wanted.items()}
    hits: list[RecallHit] = []
    for fi, i in chosen:
        total, parts = scored[fi]
        hits.append(_hit(found[fi], rows[fi][i], float(total[i]), {name: float(v[i]) for name, v in parts.items()}))
    return hits


def _materialise(found: _Found, positions: list[int]) -> dict[int, dict[str, Any]]:
    """The chosen rows as Python dicts."""
    picked = found.rows.take(pa.array(positions, pa.int64()))
    columns = {name: _values(picked.column(name)) for name in found.plan.columns}
    return {p: {name: values[i] for name, values in columns.items()} for i, p in enumerate(positions)}


def _values(column: pa.ChunkedArray) -> list[Any]:
    """Python values; UTC timestamps built directly (pyarrow's own path costs ~15 us per value)."""
    if column.type == TS:
        micros = column.cast(pa.int64()).to_pylist()
        return [None if us is None else _EPOCH + timedelta(microseconds=us) for us in micros]
    values: list[Any] = column.to_pylist()
    return values


def _hit(found: _Found, row: dict[str, Any], total: float, parts: dict[str, float]) -> RecallHit:
    plan = found.plan
    return RecallHit(
        id=str(row[KEYS[plan.table]]),
        kind=plan.kind,
        topic=row["topic"] if plan.kind == "memory" else "episode",
        content=row[plan.text_col],
        score=total,
        score_parts=parts,
        session_id=row[plan.session_col],
        source_event_ids=list(row["source_event_ids"] or []),
        stated_at=row[plan.when_col],
        created_at=row["created_at"],
    )


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
