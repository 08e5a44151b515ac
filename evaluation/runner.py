"""One evaluation run: load a dataset, run every system side by side, score, optionally report.

Shared by the CLI and the Prefect flow so both give the same numbers. The pipeline ingests into a
temporary store unless a store URI is given, so an evaluation never touches the production store.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from evaluation.baselines import DenseRAG, FullContext, IndexStats, RetrievalSystem
from evaluation.dataset import EvalDataset
from evaluation.extraction import COSINE_THRESHOLD, extraction_metrics
from evaluation.locomo import load_locomo
from evaluation.metrics import mean
from evaluation.pipeline_system import PipelineSystem
from evaluation.results import (
    K_VALUES,
    SYSTEM_NAMES,
    EvaluationResult,
    IngestMetrics,
    SystemMetrics,
    WritepathAccuracy,
)
from evaluation.scoring import QuestionRun, context_text, score_system
from evaluation.synthetic import SyntheticConfig, generate
from tasks.providers import build_embedder
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
    """The LLM-judge seam: answer scoring by a model is not implemented, and is never faked.

    With an OpenAI-compatible endpoint configured, a judge would read each system's context and
    grade an answer; until then every reported number is retrieval-based and LLM-free.
    """
    if settings.openai_base_url:
        return f"skipped: endpoint {settings.openai_base_url} configured, but no judge is implemented yet"
    return "not run: no OpenAI-compatible endpoint configured (settings.openai_base_url)"


def _ask(system: RetrievalSystem, dataset: EvalDataset, depth: int) -> list[QuestionRun]:
    runs: list[QuestionRun] = []
    for question in dataset.questions:
        start = time.perf_counter()
        items = system.retrieve(question, depth)
        runs.append(QuestionRun(question, items, (time.perf_counter() - start) * 1000.0))
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
    systems: Sequence[str] = SYSTEM_NAMES,
    store_uri: str | None = None,
    abstain_threshold: float = DEFAULT_ABSTAIN_THRESHOLD,
    chunk_size: int = 5,
    chunk_stride: int = 1,
    writepath: bool = True,
) -> EvaluationResult:
    """Evaluate ``systems`` on ``dataset`` at ``k`` (and at 1, 5, 10, 20); write a report to ``out_dir``."""
    unknown = set(systems) - set(SYSTEM_NAMES)
    if unknown or k < 1:
        raise ValueError(f"unknown systems {sorted(unknown)} or k < 1 (k={k})")
    data = load_dataset(dataset, path, synthetic)
    depth = max(*K_VALUES, k)
    embedder = build_embedder(settings)
    with tempfile.TemporaryDirectory(prefix="memory-eval-") as tmp:
        run_settings = settings.model_copy(update={"store_uri": store_uri or str(Path(tmp) / "store")})
        full = FullContext()
        full.index(data)
        full_tokens = _full_tokens(full, data)
        built: dict[str, RetrievalSystem] = {
            "pipeline": PipelineSystem(run_settings),
            "full_context": full,
            "chunk_rag": DenseRAG("chunk_rag", embedder, window=chunk_size, stride=chunk_stride),
            "turn_rag": DenseRAG("turn_rag", embedder, window=1),
        }
        results: dict[str, SystemMetrics] = {}
        ingest = IngestMetrics()
        extraction = None
        for name in [n for n in SYSTEM_NAMES if n in systems]:
            system = built[name]
            stats = system.index(data) if name != "full_context" else IndexStats(items=_turns(data))
            runs = _ask(system, data, depth)
            results[name] = score_system(
                name,
                runs,
                k=k,
                ks=K_VALUES,
                index=stats,
                full_tokens=full_tokens,
                returns_everything=system.returns_everything,
                abstain_threshold=abstain_threshold,
            )
            if isinstance(system, PipelineSystem):
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
        llm_judge=llm_judge_status(settings),
        notes=[*data.notes, *_notes(chunk_size, chunk_stride, abstain_threshold, extraction is not None)],
    )
    if out_dir is not None:
        from evaluation.report import write_report

        write_report(result, out_dir)
        result = result.model_copy(update={"report_dir": str(out_dir)})
    return result


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
        f"unanswerable questions count as answered when an item's cosine to the question is >= {threshold}",
        "full_context returns the whole history at every k; its rank metrics follow chronological order",
    ]
    if extraction:
        notes.append(
            f"extraction: a memory matches a gold fact by source-event overlap or cosine >= {COSINE_THRESHOLD}"
        )
    return notes
