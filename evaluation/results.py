"""Typed results of an evaluation run: what the CLI prints, the flow returns and the report renders."""

from __future__ import annotations

from pydantic import BaseModel, Field

#: Cut-offs every system is measured at, besides the run's own k.
K_VALUES: tuple[int, ...] = (1, 5, 10, 20)
SYSTEM_NAMES: tuple[str, ...] = ("pipeline", "full_context", "chunk_rag", "turn_rag")


class KMetrics(BaseModel):
    precision: float
    recall: float
    hit: float
    ndcg: float
    answer_recall: float
    mean_context_tokens: float


class CategoryMetrics(BaseModel):
    questions: int
    precision_at_k: float
    recall_at_k: float
    hit_at_k: float
    mrr: float
    ndcg_at_k: float
    answer_recall_at_k: float


class UnanswerableMetrics(BaseModel):
    """Questions whose right answer is "nothing" (LoCoMo category 5, forgotten facts)."""

    questions: int = 0
    threshold: float = 0.0
    retrieved_above_threshold_rate: float = 0.0
    mean_top_score: float = 0.0


class SystemMetrics(BaseModel):
    name: str
    questions: int
    precision_at_k: float
    recall_at_k: float
    hit_at_k: float
    answer_recall_at_k: float
    mrr: float
    ndcg_at_k: float
    mean_sources_per_memory: float
    mean_items_returned: float
    mean_context_tokens: float
    token_savings_vs_full: float
    recall_p50_ms: float
    recall_p95_ms: float
    index_seconds: float
    items_indexed: int
    per_k: dict[str, KMetrics]
    per_category: dict[str, CategoryMetrics]
    unanswerable: UnanswerableMetrics
    #: Synthetic set only: share of updated-fact questions answered first with the old value.
    stale_fact_rate: float | None = None
    #: Synthetic set only: share of forgotten-fact questions whose context still mentions it.
    forgotten_leak_rate: float | None = None


class ExtractionMetrics(BaseModel):
    """Stored memories against gold facts (synthetic set): did extraction keep the right things?"""

    memories: int
    gold_facts: int
    precision: float
    recall: float
    precision_by_source: float
    precision_by_cosine: float
    cosine_threshold: float
    matched_by: str = "source-event overlap or content cosine >= threshold"


class IngestMetrics(BaseModel):
    seconds: float = 0.0
    embed_seconds: float = 0.0
    sessions: int = 0
    events: int = 0
    memories: int = 0
    episodes: int = 0
    sessions_per_second: float = 0.0
    events_per_second: float = 0.0


class WritepathAccuracy(BaseModel):
    """Write-path accuracy (evaluation/writepath): decision right and fact survived, dev vs held-out families."""

    cases: int
    decision: dict[str, float]
    survived: dict[str, float]
    episode: dict[str, float]


class EvaluationResult(BaseModel):
    dataset: str
    k: int
    ks: list[int]
    questions: int
    scored_questions: int
    systems: dict[str, SystemMetrics]
    ingest: IngestMetrics
    extraction: ExtractionMetrics | None = None
    writepath: WritepathAccuracy | None = None
    llm_judge: str = "not run: no OpenAI-compatible endpoint configured"
    notes: list[str] = Field(default_factory=list)
    report_dir: str | None = None
