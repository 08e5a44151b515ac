"""From fused rows to ranked hits: one table's candidates as column-wise signals, then the top k.

Kept apart from :mod:`tasks.recall.recaller` (which plans and runs the searches) so that ranking
reads Arrow columns into numpy without per-row Python objects, and only the chosen rows become hits.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from tasks.models import EpisodeSentence, RecallHit
from tasks.recall.legs import BM25, COSINE, FUSED
from tasks.recall.ranking import EPISODE_IMPORTANCE, FloatArray, Signals, half_life, order, score
from tasks.recall.when import Window, timely
from tasks.settings import Settings
from tasks.store.tables import KEYS, TS

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class TablePlan:
    """One table to search: its filter, text column, columns to read and what they mean for a hit."""

    table: str
    kind: Literal["memory", "episode"]
    where: str
    text_col: str
    columns: Sequence[str]
    session_col: str
    when_col: str  # when the fact was stated (memories) or the session started (episodes)


@dataclass(frozen=True)
class Candidates:
    """One table's fused rows with their signals."""

    plan: TablePlan
    rows: pa.Table
    ids: list[str]
    signals: Signals
    said_us: npt.NDArray[np.float64]  # when each was said (memories) or its session began, in UTC microseconds


def candidates_of(
    plan: TablePlan, rows: pa.Table, now: datetime, settings: Settings, window: Window | None = None
) -> Candidates:
    """Signals of one table's fused rows, read column-wise (no per-row Python objects but for the
    dates of a question that names a time: ``window``)."""
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
        timely=None if window is None else timely_marks(window, rows.column(plan.text_col).to_pylist(), micros),
    )
    return Candidates(plan, rows, [str(i) for i in rows.column(KEYS[plan.table]).to_pylist()], signals, micros)


def said_at(micros: float) -> datetime:
    return _EPOCH + timedelta(microseconds=float(micros))


def timely_marks(window: Window, texts: list[str | None], micros: npt.NDArray[np.float64]) -> FloatArray:
    """1 where a candidate lies in ``window`` (:func:`tasks.recall.when.timely`), else 0."""
    return np.asarray(timely(window, texts, [said_at(us) for us in micros]), dtype=np.float64)


def _floats(rows: pa.Table, name: str, fill: float) -> FloatArray:
    if name not in rows.column_names:
        return np.full(rows.num_rows, fill, dtype=np.float64)
    values = rows.column(name)
    if values.null_count:
        values = pc.fill_null(values, fill)
    return np.asarray(values.to_numpy(zero_copy_only=False), dtype=np.float64)


def top_hits(found: Sequence[Candidates], settings: Settings, k: int | None) -> list[RecallHit]:
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


def _materialise(found: Candidates, positions: list[int]) -> dict[int, dict[str, Any]]:
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


def _hit(found: Candidates, row: dict[str, Any], total: float, parts: dict[str, float]) -> RecallHit:
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
        speaker=row.get("speaker"),
        vector=row.get("vector"),
        sentences=tuple(
            EpisodeSentence(text=s["text"], source_event_ids=tuple(s["source_event_ids"] or ()))
            for s in row.get("sentences") or ()
        ),
    )


def candidate_texts(results: Sequence[pa.Table | None], plans: Sequence[TablePlan], kind: str) -> Iterator[str]:
    """The text of the candidates of one ``kind`` a search found (what respelling reads spellings from)."""
    for rows, plan in zip(results, plans, strict=True):
        if plan.kind == kind and rows is not None and plan.text_col in rows.column_names:
            yield from (t for t in rows.column(plan.text_col).to_pylist() if t)
