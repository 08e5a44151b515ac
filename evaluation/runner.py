"""One evaluation run: load a dataset, run every system side by side, score, optionally report.

Shared by the CLI and the Prefect flow so both give the same numbers. The pipeline ingests into a
temporary store unless a store URI is given, so an evaluation never touches the production store.
"""

from __future__ import annotations

import resource
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from multiprocessing import get_context
from multiprocessing.context import BaseContext
from pathlib import Path
from typing import Any, Literal

from evaluation.baselines import FullContext, IndexStats, Retrieved
from evaluation.dataset import EvalDataset
from evaluation.extraction import COSINE_THRESHOLD, extraction_metrics
from evaluation.judge import JudgeMetrics, judge_status, judge_system
from evaluation.locomo import load_locomo
from evaluation.longmemeval import load_longmemeval
from evaluation.matched import CURVE_KS, budget_curve, compare_budgets, score_asked_at_each_k
from evaluation.metrics import mean
from evaluation.results import (
    BUDGETS,
    DEFAULT_SYSTEMS,
    K_VALUES,
    SYSTEM_NAMES,
    EvaluationResult,
    IngestMetrics,
    RunInfo,
    SystemCost,
    SystemMetrics,
    WritepathAccuracy,
)
from evaluation.scoring import QuestionRun, context_text, score_system
from evaluation.subset import stratified_subset
from evaluation.synthetic import SyntheticConfig, generate
from evaluation.units import (
    CachedAnswers,
    RunPlan,
    Task,
    TaskDone,
    Unit,
    cache_path,
    group_systems,
    plan_units,
    read_answers,
    run_task,
)
from tasks.providers import build_embedder, build_judge
from tasks.settings import Settings
from tasks.tokens import count_tokens

DatasetName = Literal["synthetic", "locomo", "longmemeval"]
#: Where the LoCoMo dev conversations sit beside a checkout (``../shared``); never copied in.
DEFAULT_LOCOMO = Path(__file__).resolve().parents[1].parent / "shared" / "datasets" / "locomo-dev"
#: LongMemEval's dev split (S variant: evidence hidden among ~48 sessions per question), also in ../shared.
DEFAULT_LONGMEMEVAL = DEFAULT_LOCOMO.parent / "longmemeval-dev" / "s"
DEFAULT_ABSTAIN_THRESHOLD = 0.5


def load_dataset(
    dataset: DatasetName, path: Path | None = None, synthetic: SyntheticConfig | None = None
) -> EvalDataset:
    if dataset == "locomo":
        return load_locomo(path or DEFAULT_LOCOMO)
    if dataset == "longmemeval":
        return load_longmemeval(path or DEFAULT_LONGMEMEVAL)
    if dataset == "synthetic":
        return generate(synthetic)
    raise ValueError(f"unknown dataset {dataset!r}")


def llm_judge_status(settings: Settings) -> str:
    """Why no LLM judge ran (settings.judge = "none"): every other number is retrieval-based and LLM-free."""
    if settings.openai_base_url:
        return f"skipped: endpoint {settings.openai_base_url} configured, but settings.judge is 'none'"
    return "not run: no OpenAI-compatible endpoint configured (settings.openai_base_url)"


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
    workers: int = 1,
    limit: int | None = None,
    seed: int = 0,
    progress: bool = False,
    executor: Executor | None = None,
) -> EvaluationResult:
    """Evaluate ``systems`` on ``dataset`` at ``k`` (and at 1, 5, 10, 20); write a report to ``out_dir``.

    Work is split into units (a scope each, see :mod:`evaluation.units`) run by ``workers`` processes
    (or by ``executor``); with ``out_dir`` each unit's answers are cached under ``out_dir/cache``, so a
    run that was interrupted resumes where it stopped and gives the same figures.
    """
    unknown = set(systems) - set(SYSTEM_NAMES)
    if unknown or k < 1:
        raise ValueError(f"unknown systems {sorted(unknown)} or k < 1 (k={k})")
    if workers < 1:
        raise ValueError(f"workers must be at least 1 (got {workers})")
    if store_uri is not None and (workers > 1 or executor is not None):
        raise ValueError("a given --store is written by one process: use --workers 1 with it")
    began, cpu_began, children_began = time.perf_counter(), time.process_time(), _children_cpu()
    data = load_dataset(dataset, path, synthetic)
    if limit is not None:
        data = stratified_subset(data, limit, seed)
    depth = max(*K_VALUES, k)
    grid = tuple(sorted({*K_VALUES, k, depth, *CURVE_KS}))
    ordered = [n for n in SYSTEM_NAMES if n in systems]
    with tempfile.TemporaryDirectory(prefix="memory-eval-") as tmp:
        cache_dir = (out_dir / "cache") if out_dir is not None else Path(tmp) / "cache"
        plan = RunPlan(settings, k, grid, cache_dir, chunk_size, chunk_stride, store_uri)
        units = plan_units(data, plan, per_scope=dataset != "synthetic")
        tally = execute(plan, units, ordered, workers=workers, executor=executor, progress=progress)
        full = FullContext()
        full.index(data)
        full_tokens = _full_tokens(full, data)
        results: dict[str, SystemMetrics] = {}
        costs: dict[str, SystemCost] = {}
        ingest = IngestMetrics()
        extraction = None
        judge, judged = build_judge(settings), dict[str, JudgeMetrics]()
        embedder = build_embedder(settings) if data.gold_facts else None
        for name in ordered:
            parts = [_answers(plan, unit, name) for unit in units]
            stats = _sum_stats([p.stats for p in parts])
            runs_by_k, confident, everything = _runs_by_k(parts, data, grid)
            results[name] = score_answers(
                name, runs_by_k, everything=everything, depends=len(parts[0].asked) > 1 if parts else False,
                k=k, depth=depth, stats=stats, full_tokens=full_tokens, threshold=abstain_threshold,
                confident=confident,
            )  # fmt: skip
            costs[name] = SystemCost(
                wall_seconds=sum(p.resources.wall_seconds for p in parts),
                cpu_seconds=sum(p.resources.cpu_seconds for p in parts),
                peak_rss_mb=max((p.resources.peak_rss_mb for p in parts), default=0.0),
                tasks=len(parts),
                tasks_resumed=tally.resumed.get(name, 0),
            )
            if judge is not None:  # LLM judge (J score): answers from the same top-k context that is scored
                cut = None if everything else k
                runs = runs_by_k[depth if everything else k]
                judged[name] = judge_system([(r.question, context_text(r.items[:cut])) for r in runs], judge, settings)
            if name == "pipeline" or (name == "pipeline_reranked" and "pipeline" not in ordered):
                ingest = _ingest_metrics(stats, data)
                rows = [row for p in parts for row in (p.memory_rows or [])]
                if data.gold_facts and embedder is not None:
                    extraction = extraction_metrics(rows, data.gold_facts, embedder)
    run = RunInfo(
        wall_seconds=time.perf_counter() - began,
        cpu_seconds=time.process_time() - cpu_began + _children_cpu() - children_began,
        workers=workers,
        units=len(units),
        tasks_run=tally.run,
        tasks_resumed=sum(tally.resumed.values()),
        embedded_texts=tally.embedded,
        embedding_cache_hits=tally.cache_hits,
        questions_asked=tally.asked,
        limit=limit,
        seed=seed,
    )
    result = EvaluationResult(
        dataset=dataset,
        k=k,
        ks=sorted({*K_VALUES, k}),
        questions=len(data.questions),
        scored_questions=len(data.scored_questions()),
        systems=results,
        ingest=ingest,
        extraction=extraction,
        writepath=_writepath(settings, limit)
        if writepath and dataset == "synthetic" and "pipeline" in systems
        else None,
        llm_judge=judge_status(judged, k) if judge is not None else llm_judge_status(settings),
        judge=judged,
        notes=[*data.notes, *_notes(chunk_size, chunk_stride, abstain_threshold, extraction is not None)],
        budgets=list(BUDGETS),
        budget_comparison=compare_budgets(results),
        costs=costs,
        run=run,
    )
    if out_dir is not None:
        from evaluation.report import write_report

        write_report(result, out_dir)
        result = result.model_copy(update={"report_dir": str(out_dir)})
    return result


def _children_cpu() -> float:
    """CPU seconds of this process's finished worker processes (counted once they exit)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@dataclass
class Tally:
    run: int = 0
    resumed: dict[str, int] = field(default_factory=dict)
    embedded: int = 0
    cache_hits: int = 0
    asked: int = 0


def execute(
    plan: RunPlan,
    units: Sequence[Unit],
    systems: Sequence[str],
    *,
    workers: int = 1,
    executor: Executor | None = None,
    progress: bool = False,
) -> Tally:
    """Run every (unit, system group) task whose answers are not cached yet; a bar per system with an ETA."""
    tally = Tally()
    todo: list[Task] = []
    done_questions: dict[str, int] = dict.fromkeys(systems, 0)
    for unit in units:
        for group in group_systems(systems):
            cached = [n for n in group if cache_path(plan, unit, n).is_file()]
            if len(cached) == len(group):
                for n in group:
                    tally.resumed[n] = tally.resumed.get(n, 0) + 1
                    done_questions[n] += len(unit.data.questions)
            else:
                todo.append(Task(unit, group))
    total = sum(len(u.data.questions) for u in units)
    with _Bars(progress, systems, total, done_questions) as bars:

        def finished(task: Task, done: TaskDone) -> None:
            tally.run += 1
            tally.embedded += done.embedded
            tally.cache_hits += done.cache_hits
            tally.asked += done.asked
            bars.advance(task.systems, len(task.unit.data.questions))

        if executor is not None:
            _run_on(executor, plan, todo, finished)
        elif workers > 1 and len(todo) > 1:
            with ProcessPoolExecutor(max_workers=workers, mp_context=_worker_context()) as pool:
                _run_on(pool, plan, todo, finished)
        else:
            for task in todo:
                finished(task, run_task(plan, task))
    return tally


def _worker_context() -> BaseContext:
    """Workers fork from a server process that imported the evaluation once (a fresh interpreter per
    worker spends seconds importing LanceDB, ONNX Runtime and the rest); only modules are loaded there
    (no model, connection or pool; LanceDB restarts its event loop in a fork), so forks share nothing live."""
    context = get_context("forkserver")
    context.set_forkserver_preload(["evaluation.units"])
    return context


def _run_on(
    executor: Executor, plan: RunPlan, todo: Sequence[Task], finished: Callable[[Task, TaskDone], None]
) -> None:
    futures = {executor.submit(run_task, plan, task): task for task in todo}
    for future in as_completed(futures):
        finished(futures[future], future.result())  # a failed task raises here; finished ones stay cached


class _Bars:
    """Per-system progress bars (rich) with an ETA; nothing at all when progress is off."""

    def __init__(self, enabled: bool, systems: Sequence[str], total: int, done: dict[str, int]) -> None:
        self._progress: Any = None
        self._ids: dict[str, Any] = {}
        if enabled:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn, TimeRemainingColumn

            self._progress = Progress(
                "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                TimeElapsedColumn(), "ETA", TimeRemainingColumn(),
            )  # fmt: skip
            self._ids = {n: self._progress.add_task(n, total=total, completed=done.get(n, 0)) for n in systems}

    def __enter__(self) -> _Bars:
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()

    def advance(self, systems: Sequence[str], questions: int) -> None:
        if self._progress is not None:
            for n in systems:
                self._progress.advance(self._ids[n], questions)


def _answers(plan: RunPlan, unit: Unit, name: str) -> CachedAnswers:
    """A unit's cached answers; a file that cannot be read (damaged) is redone here, in this process."""
    answers = read_answers(cache_path(plan, unit, name))
    if answers is None:
        group = next(g for g in group_systems([name]) if name in g)
        run_task(plan, Task(unit, group))
        answers = read_answers(cache_path(plan, unit, name))
    if answers is None:
        raise RuntimeError(f"no answers cached for {name} on {unit.id} in {plan.cache_dir}")
    return answers


def _sum_stats(parts: Sequence[IndexStats]) -> IndexStats:
    extra: dict[str, float] = {}
    for p in parts:
        for key, value in p.extra.items():
            extra[key] = extra.get(key, 0.0) + value
    return IndexStats(
        seconds=sum(p.seconds for p in parts),
        items=sum(p.items for p in parts),
        sessions=sum(p.sessions for p in parts),
        memories=sum(p.memories for p in parts),
        extra=extra,
    )


def _runs_by_k(
    parts: Sequence[CachedAnswers], data: EvalDataset, grid: Sequence[int]
) -> tuple[dict[int, list[QuestionRun]], dict[tuple[str, int], bool] | None, bool]:
    """Every k's runs in the dataset's question order: asked at that k, or cut from the one deep answer."""
    asked: dict[str, dict[int, tuple[list[Retrieved], float]]] = {}
    confident: dict[tuple[str, int], bool] | None = None
    for p in parts:
        asked.update(p.runs)
        if p.confident is not None:
            confident = confident or {}
            confident.update({(q, kk): v for q, by_k in p.confident.items() for kk, v in by_k.items()})
    everything = bool(parts) and parts[0].returns_everything
    runs_by_k: dict[int, list[QuestionRun]] = {}
    for kk in grid:
        runs: list[QuestionRun] = []
        for q in data.questions:
            by_k = asked[q.id]
            items, ms = by_k[kk] if kk in by_k else by_k[max(by_k)]
            runs.append(QuestionRun(q, items if everything or kk in by_k else items[:kk], ms))
        runs_by_k[kk] = runs
    return runs_by_k, confident, everything


def score_answers(
    name: str,
    runs_by_k: Mapping[int, Sequence[QuestionRun]],
    *,
    everything: bool,
    depends: bool,
    k: int,
    depth: int,
    stats: IndexStats,
    full_tokens: float,
    threshold: float,
    confident: Mapping[tuple[str, int], bool] | None = None,
) -> SystemMetrics:
    """Per-k figures: cut from one deep answer, or, for a system whose ranking depends on k (``depends``),
    each from asking it at that k; plus the recall-vs-tokens curve over every k of the grid."""

    def said_at(kk: int) -> dict[str, bool] | None:
        """The system's own abstention verdicts when asked for ``kk`` (its one ask when cut)."""
        if confident is None:
            return None
        at = kk if depends else max((at for _, at in confident), default=kk)
        return {q: c for (q, asked), c in confident.items() if asked == at}

    options: dict[str, Any] = {"index": stats, "full_tokens": full_tokens, "abstain_threshold": threshold}
    if everything:
        return score_system(name, runs_by_k[depth], k=k, ks=K_VALUES, returns_everything=True,
                            confident=said_at(depth), **options)  # fmt: skip
    if depends:
        metrics = score_asked_at_each_k(name, runs_by_k, k=k, ks=K_VALUES, confident=said_at(k), **options)
    else:
        metrics = score_system(name, runs_by_k[depth], k=k, ks=K_VALUES, confident=said_at(depth), **options)
    return metrics.model_copy(update={"budget_curve": budget_curve(runs_by_k, BUDGETS)})


def _writepath(settings: Settings, limit: int | None) -> WritepathAccuracy:
    """Write-path accuracy on the generated phrasing families (about 25 s of CPU; its own temporary store).
    A run with ``--limit`` is a quick look: one case of every family, not twelve."""
    from evaluation.writepath import run_writepath
    from evaluation.writepath.cases import build_cases

    m = run_writepath(settings, cases=build_cases(per_family=1) if limit is not None else None)
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
        "systems are asked once at the deepest k of the grid and every k and budget is cut from that answer",
        "each scope (LoCoMo conversation, LongMemEval question) is indexed on its own, so full-text statistics "
        "are per user; identical texts are embedded once for all systems (content-hash cache)",
        "budget curve: items in rank order while they fit (item tokens + 1 per line break); each point is the "
        f"k of {sorted({*K_VALUES, *CURVE_KS})} with the best mean evidence recall at that budget",
    ]
    if extraction:
        notes.append(
            f"extraction: a memory matches a gold fact by source-event overlap or cosine >= {COSINE_THRESHOLD}"
        )
    return notes
