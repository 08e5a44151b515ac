"""Final recall score: how well a memory matches, how fresh, how important, how often it mattered.

LanceDB's hybrid search (vector + BM25, fused by RRF) chooses the candidates; this module orders
them. RRF alone is rank-based and lets a single common word ("like") outrank a clearly closer
meaning, so the score is anchored on absolute cosine similarity, with BM25 as a bounded bonus that
lets rare exact tokens (order ids, names) surface when embeddings blur them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from tasks.models import RecallHit
from tasks.settings import Settings

#: Half-life for topics missing from ``settings.half_life_days`` (custom topics).
DEFAULT_HALF_LIFE_DAYS = 365.0
#: BM25 score at which the keyword part reaches 0.5; BM25 is unbounded, so it is saturated.
BM25_HALF_SATURATION = 3.0
#: How much a full keyword match adds to cosine inside the similarity part (read from
#: ``settings.ranking.keyword`` when that field exists).
DEFAULT_KEYWORD_WEIGHT = 0.3
#: confirmations + access_count at which the frequency part saturates at 1.0.
FREQUENCY_SATURATION = 50
#: Importance given to episodes, which carry none of their own.
EPISODE_IMPORTANCE = 0.5

#: Optional hook run on the ranked hits (e.g. a cross-encoder); gets the query, returns the new order.
Reranker = Callable[[str, list[RecallHit]], list[RecallHit]]


@dataclass(frozen=True)
class Candidate:
    """One row from the hybrid search, with the raw signals the score is made of."""

    id: str
    kind: str
    topic: str
    content: str
    cosine: float
    bm25: float | None
    stated_at: datetime | None
    created_at: datetime
    session_id: str
    importance: float = EPISODE_IMPORTANCE
    confirmations: int = 0
    access_count: int = 0
    source_event_ids: list[str] = field(default_factory=list)
    fused: float = 0.0


def recency(age_days: float, half_life_days: float) -> float:
    """Exponential decay: 1.0 now, 0.5 after one half-life; future dates count as now."""
    if half_life_days <= 0:
        return 1.0
    return float(0.5 ** (max(age_days, 0.0) / half_life_days))


def frequency(count: int) -> float:
    """Log-scaled use count in [0, 1], so the tenth confirmation matters less than the first."""
    if count <= 0:
        return 0.0
    return min(1.0, math.log1p(count) / math.log1p(FREQUENCY_SATURATION))


def keyword(bm25: float | None) -> float:
    """BM25 squashed to [0, 1): absolute, so a weak match on a common word stays small."""
    if bm25 is None or bm25 <= 0:
        return 0.0
    return bm25 / (bm25 + BM25_HALF_SATURATION)


def half_life(topic: str, settings: Settings) -> float:
    return settings.half_life_days.get(topic, DEFAULT_HALF_LIFE_DAYS)


def score(candidate: Candidate, now: datetime, settings: Settings) -> tuple[float, dict[str, float]]:
    """The weighted score and its parts (each part in [0, 1] before weighting)."""
    weights = settings.ranking
    kw_weight = float(getattr(weights, "keyword", DEFAULT_KEYWORD_WEIGHT))
    cos = max(0.0, min(1.0, candidate.cosine))
    kw = keyword(candidate.bm25)
    when = candidate.stated_at or candidate.created_at
    age_days = (_utc(now) - _utc(when)).total_seconds() / 86400.0
    parts = {
        "cosine": cos,
        "keyword": kw,
        "similarity": min(1.0, cos + kw_weight * kw),
        "recency": recency(age_days, half_life(candidate.topic, settings)),
        "importance": max(0.0, min(1.0, candidate.importance)),
        "frequency": frequency(candidate.confirmations + candidate.access_count),
        "fused": candidate.fused,
    }
    total = (
        weights.similarity * parts["similarity"]
        + weights.recency * parts["recency"]
        + weights.importance * parts["importance"]
        + weights.frequency * parts["frequency"]
    )
    return total, parts


def rank(candidates: Sequence[Candidate], now: datetime, settings: Settings) -> list[RecallHit]:
    """Hits best first; ties broken by id so that results are deterministic."""
    hits: list[RecallHit] = []
    for cand in candidates:
        total, parts = score(cand, now, settings)
        hits.append(
            RecallHit(
                id=cand.id,
                kind="episode" if cand.kind == "episode" else "memory",
                topic=cand.topic,
                content=cand.content,
                score=total,
                score_parts=parts,
                session_id=cand.session_id,
                source_event_ids=list(cand.source_event_ids),
                stated_at=cand.stated_at,
                created_at=cand.created_at,
            )
        )
    hits.sort(key=lambda h: (-h.score, h.id))
    return hits


def _utc(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value
