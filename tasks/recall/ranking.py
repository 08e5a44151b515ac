"""Final recall score: how well a memory matches, how fresh, how important, how often it mattered.

LanceDB's hybrid search (vector + BM25, fused by RRF) chooses the candidates; this module orders
them. RRF alone is rank-based and lets a single common word ("like") outrank a clearly closer
meaning, so the score is anchored on absolute cosine similarity, with BM25 as a bounded bonus that
lets rare exact tokens (order ids, names) surface when embeddings blur them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from tasks.models import RecallHit
from tasks.settings import Settings

FloatArray = npt.NDArray[np.float64]

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
class Signals:
    """The raw signals of a batch of candidates, one array entry per candidate.

    Arrays, not objects: recall scores every fused candidate but materialises only the top k, so
    scoring runs on whole columns straight from the Arrow results.
    """

    cosine: FloatArray
    bm25: FloatArray  # 0 where the text leg did not find the row
    age_days: FloatArray  # since the fact was stated (or the row created); negative means future
    half_life_days: FloatArray  # of the candidate's topic
    importance: FloatArray
    uses: FloatArray  # confirmations + times recalled
    fused: FloatArray  # LanceDB's RRF score, exposed but not weighted
    timely: FloatArray | None = None  # 1 where the candidate lies in the time the question names


def recency(age_days: FloatArray, half_life_days: FloatArray) -> FloatArray:
    """Exponential decay: 1.0 now, 0.5 after one half-life; future dates count as now."""
    safe = np.where(half_life_days > 0, half_life_days, 1.0)
    decayed: FloatArray = np.power(0.5, np.maximum(age_days, 0.0) / safe)
    return np.where(half_life_days > 0, decayed, 1.0)


def frequency(uses: FloatArray) -> FloatArray:
    """Log-scaled use count in [0, 1], so the tenth confirmation matters less than the first."""
    scaled: FloatArray = np.log1p(np.maximum(uses, 0.0)) / np.log1p(FREQUENCY_SATURATION)
    return np.minimum(1.0, scaled)


def keyword(bm25: FloatArray) -> FloatArray:
    """BM25 squashed to [0, 1): absolute, so a weak match on a common word stays small."""
    positive = np.maximum(np.nan_to_num(bm25), 0.0)
    squashed: FloatArray = positive / (positive + BM25_HALF_SATURATION)
    return squashed


def half_life(topic: str, settings: Settings) -> float:
    return settings.half_life_days.get(topic, DEFAULT_HALF_LIFE_DAYS)


def score(signals: Signals, settings: Settings) -> tuple[FloatArray, dict[str, FloatArray]]:
    """Weighted scores and their parts (each in [0, 1] before weighting, but similarity: cosine + keyword bonus)."""
    weights = settings.ranking
    kw_weight = float(getattr(weights, "keyword", DEFAULT_KEYWORD_WEIGHT))
    cos = np.clip(signals.cosine, 0.0, 1.0)
    kw = keyword(signals.bm25)
    parts = {
        "cosine": cos,
        "keyword": kw,
        # Not capped at 1: a cap ties every strong name match at 1.0 and lets the long episodes win the tie.
        "similarity": cos + kw_weight * kw,
        "recency": recency(signals.age_days, signals.half_life_days),
        "importance": np.clip(signals.importance, 0.0, 1.0),
        "frequency": frequency(signals.uses),
        "fused": signals.fused,
        "timely": np.zeros_like(cos) if signals.timely is None else signals.timely,
    }
    total: FloatArray = (
        weights.similarity * parts["similarity"]
        + weights.recency * parts["recency"]
        + weights.importance * parts["importance"]
        + weights.frequency * parts["frequency"]
        + weights.timely * parts["timely"]
    )
    return total, parts


def timely_first(hits: list[RecallHit]) -> list[RecallHit]:
    """``hits`` with those in the question's time first, each group in its order (after a reranker,
    which reads the words, not the dates)."""
    return sorted(hits, key=lambda h: -h.score_parts.get("timely", 0.0))


def order(total: FloatArray, ids: list[str]) -> list[int]:
    """Positions best first; ties broken by id so that results are deterministic."""
    return sorted(range(len(ids)), key=lambda i: (-float(total[i]), ids[i]))
