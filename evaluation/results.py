"""Typed results of an evaluation run: what the CLI prints, the flow returns and the report renders."""

from __future__ import annotations

from pydantic import BaseModel, Field

from evaluation.judge import JudgeMetrics

#: Cut-offs every system is measured at, besides the run's own k.
K_VALUES: tuple[int, ...] = (1, 5, 10, 20)
SYSTEM_NAMES: tuple[str, ...] = (
    "pipeline", "pipeline_reranked", "full_context", "chunk_rag", "turn_rag", "lance_hybrid_turns",
    "hybrid_neighbours",
)  # fmt: skip
#: What a run evaluates unless told otherwise: the opt-in cross-encoder mode ("pipeline_reranked") costs
#: a model pass per candidate (minutes on LoCoMo-dev), so it is asked for by name (make evaluate does).
DEFAULT_SYSTEMS: tuple[str, ...] = tuple(n for n in SYSTEM_NAMES if n != "pipeline_reranked")
#: The baselines the pipeline must beat at every matched token budget (issue 16).
BUDGET_RIVALS: tuple[str, ...] = ("lance_hybrid_turns", "hybrid_neighbours")
#: Context budgets (cl100k tokens) of the recall-vs-tokens curve.
BUDGETS: tuple[int, ...] = tuple(range(200, 1501, 100))


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


class BudgetPoint(BaseModel):
    """A system at one context budget: its items in rank order while they fit, asked at the best ``k``."""

    budget: int
    k: int
    recall: float
    answer_recall: float
    mean_context_tokens: float
    mean_items: float


class BudgetVerdict(BaseModel):
    """Does the pipeline's curve lie above every rival's at this budget (evidence and answer-token recall)?"""

    budget: int
    pipeline_recall: float
    rivals_recall: dict[str, float]
    recall_above: bool
    pipeline_answer_recall: float
    rivals_answer_recall: dict[str, float]
    answer_recall_above: bool


class UnanswerableMetrics(BaseModel):
    """Questions whose right answer is "nothing" (LoCoMo category 5, forgotten facts)."""

    questions: int = 0
    threshold: float = 0.0
    #: Share answered anyway: by the system's own abstention verdict when it has one, else by threshold.
    retrieved_above_threshold_rate: float = 0.0
    mean_top_score: float = 0.0
    #: "system" (its own verdict, e.g. the pipeline's ``recall_result``) or "threshold" (top cosine).
    signal: str = "threshold"
    #: With a system verdict: share of scored answerable questions it abstained on, and recall@k
    #: counting those as empty contexts (what an agent honouring the verdict would get).
    answerable_abstained_rate: float | None = None
    recall_at_k_with_abstention: float | None = None


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
    #: The same per-category figures at every measured k (keys are k as a string).
    per_category_k: dict[str, dict[str, CategoryMetrics]] = Field(default_factory=dict)
    #: Recall-vs-tokens curve at the run's budgets (empty for a system that returns everything).
    budget_curve: list[BudgetPoint] = Field(default_factory=list)
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


class SystemCost(BaseModel):
    """What one system cost over the run's tasks: summed wall and CPU seconds of its tasks (index and
    asking; with parallel workers the wall sum exceeds the run's elapsed time), and the highest peak
    resident memory of a worker process while one of its tasks ran (the loaded models included)."""

    wall_seconds: float = 0.0
    cpu_seconds: float = 0.0
    peak_rss_mb: float = 0.0
    tasks: int = 0
    #: Tasks read from the output folder's cache (an earlier, interrupted run did them).
    tasks_resumed: int = 0


class RunInfo(BaseModel):
    """How the run went: elapsed wall time, CPU seconds of this process and its workers, the units."""

    wall_seconds: float = 0.0
    cpu_seconds: float = 0.0
    workers: int = 1
    units: int = 0
    tasks_run: int = 0
    tasks_resumed: int = 0
    #: Texts embedded, and texts served by the shared content-hash embedding cache instead.
    embedded_texts: int = 0
    embedding_cache_hits: int = 0
    #: (question, system) pairs asked in this run; fewer than all when it resumed a killed run.
    questions_asked: int = 0
    limit: int | None = None
    seed: int = 0


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
    #: J score per system when an LLM judge ran (settings.judge).
    judge: dict[str, JudgeMetrics] = Field(default_factory=dict)
    notes: list[str] = Field(default_factory=list)
    budgets: list[int] = Field(default_factory=list)
    #: Per budget: is the pipeline above both turn-level baselines? (empty when one of them was not run)
    budget_comparison: list[BudgetVerdict] = Field(default_factory=list)
    report_dir: str | None = None
    #: Per system: wall time, CPU time and peak memory (issue 68).
    costs: dict[str, SystemCost] = Field(default_factory=dict)
    run: RunInfo = Field(default_factory=RunInfo)
