"""One evaluation run: load a dataset, run every system side by side, score, optionally report.

Shared by the CLI and the Prefect flow so both give the same numbers. The pipeline ingests into a
temporary store unless a store URI is given, so an evaluation never touches the production store.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal

from evaluation.baselines import DenseRAG, FullContext, IndexStats, RetrievalSystem
from evaluation.dataset import EvalDataset
from evaluation.extraction import COSINE_THRESHOLD, extraction_metrics
from evaluation.judge import JudgeMetrics, judge_status, judge_system
from evaluation.locomo import load_locomo
from evaluation.matched import CURVE_KS, budget_curve, compare_budgets, score_asked_at_each_k
from evaluation.metrics import mean
from evaluation.pipeline_system import PipelineSystem, RerankedPipelineSystem
from evaluation.results import (
    BUDGETS,
    DEFAULT_SYSTEMS,
    K_VALUES,
    SYSTEM_NAMES,
    EvaluationResult,
    IngestMetrics,
    SystemMetrics,
    WritepathAccuracy,
)
from evaluation.scoring import QuestionRun, context_text, score_system
from evaluation.synthetic import SyntheticConfig, generate
from evaluation.turn_baselines import HybridNeighbours, LanceHybridTurns
from tasks.providers import build_embedder, build_judge
from tasks.settings import Settings
from tasks.tokens import count_tokens

DatasetName = Literal["synthetic", "locomo"]
#: Where the LoCoMo dev conversations sit beside a checkout (``../shared``); never copied in.
DEFAULT_LOCOMO = Path(__file__).resolve().parents[1].parent / "shared" / "datasets" / "locomo-dev"
DEFAULT_ABSTAIN_THRESHOLD = 0.5


def load_dataset(
    dataset: DatasetName, path: Path | None = None, synthetic: SyntheticConfig | None = None
) -> EvalDataset:
    if dataset == "locomo":
        return load_locomo(path or DEFAULT_LOCOMO)
    if dataset == "synthetic":
        return generate(synthetic)
    raise ValueError(f"unknown dataset {dataset!r}")


def llm_judge_status(settings: Settings) -> str:
    """Why no LLM judge ran (settings.judge = "none"): every other number is retrieval-based and LLM-free."""
    if settings.openai_base_url:
        return f"skipped: endpoint {settings.openai_base_url} configured, but settings.judge is 'none'"
    return "not run: no OpenAI-compatible endpoint configured (settings.openai_base_url)"


def _ask(system: RetrievalSystem, dataset: EvalDataset, depth: int) -> list[QuestionRun]:
    runs: list[QuestionRun] = []
    for question in dataset.questions:
        start = time.perf_counter()
        items = system.retrieve(question, depth)
        elapsed = (time.perf_counter() - start) * 1000.0
        # A system that memoises work across the k grid reports what the memo saved (a recall pays it).
        saved: Callable[[], float] | None = getattr(system, "extra_latency_ms", None)
        runs.append(QuestionRun(question, items, elapsed + (saved() if saved is not None else 0.0)))
    return runs


def _full_tokens(full: FullContext, dataset: EvalDataset) -> float:
    """Mean full-context size over the scored questions (one count per scope)."""
    per_scope: dict[tuple[str, str], int] = {}
    sizes: list[float] = []
    for q in dataset.scored_questions():
        scope = (q.app_name, q.user_id)
        if scope not in per_scope:
            per_scope[scope] = count_tokens(context_text(full.retrieve(q, 0)))
        sizes.append(float(per_scope[scope]))
    return mean(sizes)


def run_evaluation(
    dataset: DatasetName,
    *,
    path: Path | None = None,
    k: int = 10,
    out_dir: Path | None = None,
    settings: Settings,
    synthetic: SyntheticConfig | None = None,
    systems: Sequence[str] = DEFAULT_SYSTEMS,
    store_uri: str | None = None,
    abstain_threshold: float = DEFAULT_ABSTAIN_THRESHOLD,
    chunk_size: int = 5,
    chunk_stride: int = 1,
    writepath: bool = True,
    limit: int | None = None,
) -> EvaluationResult:
    """Evaluate ``systems`` on ``dataset`` at ``k`` (and at 1, 5, 10, 20); write a report to ``out_dir``."""
    unknown = set(systems) - set(SYSTEM_NAMES)
    if unknown or k < 1:
        raise ValueError(f"unknown systems {sorted(unknown)} or k < 1 (k={k})")
    data = load_dataset(dataset, path, synthetic)
    if limit:  # issue 64: a subset for a real (slow) model
        from evaluation.llm_local import limit_dataset

        data = limit_dataset(data, limit)
    depth = max(*K_VALUES, k)
    embedder = build_embedder(settings)
    with tempfile.TemporaryDirectory(prefix="memory-eval-") as tmp:
        run_settings = settings.model_copy(update={"store_uri": store_uri or str(Path(tmp) / "store")})
        pipeline = PipelineSystem(run_settings)
        full = FullContext()
        full.index(data)
        full_tokens = _full_tokens(full, data)
        built: dict[str, RetrievalSystem] = {
            "pipeline": pipeline,
            "pipeline_reranked": RerankedPipelineSystem(run_settings, base=pipeline if "pipeline" in systems else None),
            "full_context": full,
            "chunk_rag": DenseRAG("chunk_rag", embedder, window=chunk_size, stride=chunk_stride),
            "turn_rag": DenseRAG("turn_rag", embedder, window=1),
            "lance_hybrid_turns": LanceHybridTurns(embedder, Path(tmp) / "turns"),
            "hybrid_neighbours": HybridNeighbours(embedder),
        }
        results: dict[str, SystemMetrics] = {}
        ingest = IngestMetrics()
        extraction = None
        judge, judged = build_judge(settings), dict[str, JudgeMetrics]()
        for name in [n for n in SYSTEM_NAMES if n in systems]:
            system = built[name]
            stats = system.index(data) if name != "full_context" else IndexStats(items=_turns(data))
            results[name] = _score(system, data, k, depth, stats, full_tokens, abstain_threshold)
            if judge is not None:  # LLM judge (J score): answers from the same top-k context that is scored
                cut = None if system.returns_everything else k
                runs = _ask(system, data, depth if system.returns_everything else k)
                judged[name] = judge_system([(r.question, context_text(r.items[:cut])) for r in runs], judge, settings)
            if isinstance(system, PipelineSystem) and (name == "pipeline" or "pipeline" not in systems):
                ingest = _ingest_metrics(stats, data)
                if data.gold_facts:
                    extraction = extraction_metrics(system.memory_rows(), data.gold_facts, embedder)
    result = EvaluationResult(
        dataset=dataset,
        k=k,
        ks=sorted({*K_VALUES, k}),
        questions=len(data.questions),
        scored_questions=len(data.scored_questions()),
        systems=results,
        ingest=ingest,
        extraction=extraction,
        writepath=_writepath(settings) if writepath and dataset == "synthetic" and "pipeline" in systems else None,
        llm_judge=judge_status(judged, k) if judge is not None else llm_judge_status(settings),
        judge=judged,
        notes=[*data.notes, *_notes(chunk_size, chunk_stride, abstain_threshold, extraction is not None)],
        budgets=list(BUDGETS),
        budget_comparison=compare_budgets(results),
    )
    if out_dir is not None:
        from evaluation.report import write_report

        write_report(result, out_dir)
        result = result.model_copy(update={"report_dir": str(out_dir)})
    return result


def _score(
    system: RetrievalSystem,
    data: EvalDataset,
    k: int,
    depth: int,
    stats: IndexStats,
    full_tokens: float,
    threshold: float,
) -> SystemMetrics:
    """Per-k figures from one answer at ``depth`` cut at each k, or, for a system whose ranking depends
    on k, from asking it at each k; plus the recall-vs-tokens curve from asking at every curve k."""

    verdicts: dict[tuple[str, int], bool] | None = getattr(system, "confident", None)

    def said_at(kk: int) -> dict[str, bool] | None:
        """The system's own abstention verdicts when asked for ``kk``."""
        return None if verdicts is None else {q: c for (q, at), c in verdicts.items() if at == kk}

    def cut_from(runs: list[QuestionRun]) -> SystemMetrics:
        return score_system(
            system.name,
            runs,
            k=k,
            ks=K_VALUES,
            index=stats,
            full_tokens=full_tokens,
            returns_everything=system.returns_everything,
            abstain_threshold=threshold,
            confident=said_at(depth),
        )

    if system.returns_everything:
        return cut_from(_ask(system, data, depth))
    runs_by_k = {kk: _ask(system, data, kk) for kk in sorted({*K_VALUES, k, depth, *CURVE_KS})}
    if getattr(system, "ranking_depends_on_k", False):
        metrics = score_asked_at_each_k(
            system.name, runs_by_k, k=k, ks=K_VALUES, index=stats, full_tokens=full_tokens,
            abstain_threshold=threshold, confident=said_at(k),
        )  # fmt: skip
    else:
        metrics = cut_from(runs_by_k[depth])
    return metrics.model_copy(update={"budget_curve": budget_curve(runs_by_k, BUDGETS)})


def _writepath(settings: Settings) -> WritepathAccuracy:
    """Write-path accuracy on the generated phrasing families (about 10 s; its own temporary store)."""
    from evaluation.writepath import run_writepath

    m = run_writepath(settings)
    return WritepathAccuracy(cases=m.cases, decision=m.decision, survived=m.survived, episode=m.episode)


def _turns(data: EvalDataset) -> int:
    return sum(len(s.events) for s in data.sessions)


def _ingest_metrics(stats: IndexStats, data: EvalDataset) -> IngestMetrics:
    seconds = stats.seconds
    events = _turns(data)
    return IngestMetrics(
        seconds=seconds,
        embed_seconds=stats.extra.get("embed_seconds", 0.0),
        sessions=stats.sessions,
        events=events,
        memories=stats.memories,
        episodes=int(stats.extra.get("episodes_written", 0.0)),
        sessions_per_second=len(data.sessions) / seconds if seconds > 0 else 0.0,
        events_per_second=events / seconds if seconds > 0 else 0.0,
    )


def _notes(chunk_size: int, stride: int, threshold: float, extraction: bool) -> list[str]:
    notes = [
        f"chunk_rag: windows of {chunk_size} consecutive turns within a session, stride {stride}",
        f"unanswerable questions count as answered when an item's cosine to the question is >= {threshold}; "
        "the pipeline's by its own abstention verdict (Recaller.recall_result: cosine threshold and attribution)",
        "full_context returns the whole history at every k; its rank metrics follow chronological order",
        "lance_hybrid_turns and hybrid_neighbours fuse each leg's top k, and the pipeline's candidate pool and "
        "list-question members depend on k, so their figures at each k come from asking them for k; the other "
        "systems are asked once at the largest k and cut",
        "budget curve: items in rank order while they fit (item tokens + 1 per line break); each point is the "
        f"k of {sorted({*K_VALUES, *CURVE_KS})} with the best mean evidence recall at that budget",
    ]
    if extraction:
        notes.append(
            f"extraction: a memory matches a gold fact by source-event overlap or cosine >= {COSINE_THRESHOLD}"
        )
    return notes
