"""The evaluation at benchmark scale (issue 68): ask once and cut, resume from the cache, subsets, workers."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from evaluation.baselines import DenseRAG, FullContext, IndexStats
from evaluation.embed_cache import CachedEmbedder, LazyEmbedder, holds_vectors
from evaluation.matched import CURVE_KS, budget_curve
from evaluation.report import render_markdown
from evaluation.results import BUDGETS, K_VALUES, EvaluationResult
from evaluation.runner import run_evaluation
from evaluation.scoring import QuestionRun, score_system
from evaluation.subset import stratified_subset
from evaluation.synthetic import SyntheticConfig, generate
from evaluation.units import read_answers
from tasks.providers.base import Embedder, FloatMatrix
from tasks.settings import Settings

#: Two users (one unit, a scope filter per question), every question category, one distractor per session.
SMALL = SyntheticConfig(users=2, sessions_per_user=3, seed=11, small_talk_per_session=1)
LONGMEMEVAL = Path(__file__).parent / "data" / "longmemeval"
#: Timing fields: the only ones two runs of the same answers may disagree on.
TIMINGS = {"recall_p50_ms", "recall_p95_ms", "index_seconds"}
QUICK = ("full_context", "chunk_rag", "turn_rag", "lance_hybrid_turns", "hybrid_neighbours")


def _figures(result: EvaluationResult) -> dict[str, dict[str, Any]]:
    return {name: s.model_dump(exclude=TIMINGS) for name, s in result.systems.items()}


@pytest.fixture(scope="module", autouse=True)
def _no_plots() -> Iterator[None]:
    """The report's plots are not drawn here (about 0.6 s of CPU per run, 1.5 s for the first): this module
    is about what is asked, cached and resumed. report.md and metrics.json are still written; the plots
    are tested in tests/test_evaluation.py and tests/test_turn_baselines.py."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("evaluation.report._plots", lambda result, out_dir: None)
        yield


@pytest.fixture(scope="module")
def settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    root = tmp_path_factory.mktemp("scale")
    return Settings(store_uri=str(root / "unused"), sessions_uri=str(root / "sessions"))


@pytest.fixture(scope="module")
def small(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> EvaluationResult:
    """A whole run of the dense baselines on SMALL (its embedding cache is reused by later tests)."""
    systems = ("full_context", "chunk_rag", "turn_rag")
    return run_evaluation("synthetic", settings=settings, synthetic=SMALL, systems=systems, writepath=False,
                          out_dir=tmp_path_factory.mktemp("small") / "report")  # fmt: skip


def test_asked_once_and_cut_gives_todays_figures(small: EvaluationResult, embedder: Embedder) -> None:
    """A prefix-consistent system is asked once at the deepest k; every k and budget is cut from it, and
    the figures equal those of asking it at every k (the runner's old way)."""
    result = small
    assert result.report_dir is not None
    data = generate(SMALL)
    grid = sorted({*K_VALUES, *CURVE_KS})
    full = FullContext()
    full.index(data)
    # The run's own vectors (its on-disk cache): the old way is asked the same texts, none embedded again.
    once = CachedEmbedder(embedder, Path(result.report_dir) / "cache" / "embeddings.sqlite")
    for system in (DenseRAG("chunk_rag", once, window=5, stride=1), DenseRAG("turn_rag", once, window=1)):
        stats = system.index(data)
        runs_by_k = {kk: [QuestionRun(q, system.retrieve(q, kk), 0.0) for q in data.questions] for kk in grid}
        today = score_system(system.name, runs_by_k[20], k=10, ks=K_VALUES, index=stats,
                             full_tokens=result.systems["full_context"].mean_context_tokens)  # fmt: skip
        today = today.model_copy(update={"budget_curve": budget_curve(runs_by_k, BUDGETS)})
        assert result.systems[system.name].model_dump(exclude=TIMINGS) == today.model_dump(exclude=TIMINGS)
    stats = IndexStats(items=sum(len(s.events) for s in data.sessions))
    runs = [QuestionRun(q, full.retrieve(q, 20), 0.0) for q in data.questions]
    everything = score_system("full_context", runs, k=10, ks=K_VALUES, index=stats, returns_everything=True,
                              full_tokens=result.systems["full_context"].mean_context_tokens)  # fmt: skip
    assert result.systems["full_context"].model_dump(exclude=TIMINGS) == everything.model_dump(exclude=TIMINGS)
    assert result.costs["turn_rag"].tasks == 1 and result.costs["turn_rag"].cpu_seconds > 0
    assert result.run.embedding_cache_hits > 0  # the questions were embedded once for both dense systems
    assert once.misses == 0


class _StopAfter(Executor):
    """Runs tasks in this process and stops the run (as a kill would) once ``n`` of them are done."""

    def __init__(self, n: int) -> None:
        self.left = n

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        if self.left <= 0:
            future.set_exception(KeyboardInterrupt())
            return future
        self.left -= 1
        future.set_result(fn(*args, **kwargs))
        return future


@pytest.fixture(scope="module")
def uninterrupted(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> EvaluationResult:
    out = tmp_path_factory.mktemp("whole")
    systems = ("pipeline", *QUICK)
    return run_evaluation("longmemeval", path=LONGMEMEVAL, settings=settings, systems=systems, out_dir=out)


def _seeded(done: EvaluationResult, tmp_path: Path, *, answers: bool = False, name: str = "report") -> Path:
    """A fresh output folder holding ``done``'s embedding cache (and, with ``answers``, its cached answers)."""
    assert done.report_dir is not None
    source, out = Path(done.report_dir) / "cache", tmp_path / name
    (out / "cache").mkdir(parents=True)
    for file in source.iterdir():
        if file.is_file() and (answers or file.name.startswith("embeddings")):
            shutil.copy2(file, out / "cache" / file.name)
    return out


def test_an_interrupted_run_resumes_to_the_same_figures(
    settings: Settings, uninterrupted: EvaluationResult, tmp_path: Path
) -> None:
    systems = ("pipeline", *QUICK)
    out = _seeded(uninterrupted, tmp_path)
    with pytest.raises(KeyboardInterrupt):
        run_evaluation("longmemeval", path=LONGMEMEVAL, settings=settings, systems=systems, out_dir=out,
                       executor=_StopAfter(7))  # fmt: skip
    assert len(list((out / "cache").glob("*.json.gz"))) == 7 and not list((out / "cache").glob(".*tmp"))
    assert not (out / "report.md").exists()
    resumed = run_evaluation("longmemeval", path=LONGMEMEVAL, settings=settings, systems=systems, out_dir=out)
    assert (resumed.run.tasks_resumed, resumed.run.tasks_run) == (7, 3 * len(systems) - 7)
    assert _figures(resumed) == _figures(uninterrupted)
    again = run_evaluation("longmemeval", path=LONGMEMEVAL, settings=settings, systems=systems, out_dir=out)
    assert again.run.tasks_run == 0 and _figures(again) == _figures(uninterrupted)
    report = render_markdown(again)
    assert "## What each system cost" in report and "| pipeline |" in report
    # Per type: the two answerable questions' types; the _abs question is scored apart as unanswerable.
    assert set(again.systems["turn_rag"].per_category) == {"knowledge-update", "single-session-user"}
    assert again.systems["pipeline"].unanswerable.questions == 1


def test_a_task_killed_half_way_asks_only_the_rest(settings: Settings, small: EvaluationResult, tmp_path: Path) -> None:
    whole_dir = _seeded(small, tmp_path, name="whole")  # the vectors of the same texts, embedded once
    whole = run_evaluation("synthetic", settings=settings, synthetic=SMALL, systems=("turn_rag",),
                           out_dir=whole_dir, writepath=False)  # fmt: skip
    assert whole.run.tasks_run == 1 and whole.run.embedded_texts == 0
    final = next((tmp_path / "whole" / "cache").glob("*__turn_rag.json.gz"))
    done = read_answers(final)
    assert done is not None and whole.run.questions_asked == len(done.runs)
    # What a kill after three questions leaves: the index stats and three answers, one line each.
    out = _seeded(whole, tmp_path)
    partial = out / "cache" / "partial" / final.name.replace(".json.gz", ".jsonl")
    partial.parent.mkdir()
    lines: list[dict[str, Any]] = [{"stats": asdict(done.stats)}]
    for qid, by_k in list(done.runs.items())[:3]:
        runs = {str(kk): [[[i.text, list(i.source_event_ids), i.score] for i in items], ms]
                for kk, (items, ms) in by_k.items()}  # fmt: skip
        lines.append({"q": qid, "runs": runs})
    partial.write_text("".join(json.dumps(line) + "\n" for line in lines) + '{"q": "torn', encoding="utf-8")
    resumed = run_evaluation("synthetic", settings=settings, synthetic=SMALL, systems=("turn_rag",), out_dir=out,
                             writepath=False)  # fmt: skip
    assert resumed.run.questions_asked == len(done.runs) - 3 and not partial.exists()
    assert _figures(resumed) == _figures(whole)


def test_a_damaged_cache_file_is_redone(settings: Settings, uninterrupted: EvaluationResult, tmp_path: Path) -> None:
    out = _seeded(uninterrupted, tmp_path, answers=True)
    victim = sorted((out / "cache").glob("*__turn_rag.json.gz"))[0]
    victim.write_bytes(b"\x1f\x8b truncated")
    again = run_evaluation("longmemeval", path=LONGMEMEVAL, settings=settings, systems=("turn_rag",), out_dir=out)
    assert again.run.tasks_run == 0 and _figures(again)["turn_rag"] == _figures(uninterrupted)["turn_rag"]


def test_workers_give_the_same_figures(settings: Settings, uninterrupted: EvaluationResult, tmp_path: Path) -> None:
    out = _seeded(uninterrupted, tmp_path)  # the workers share the embeddings already computed
    parallel = run_evaluation("longmemeval", path=LONGMEMEVAL, settings=settings, systems=QUICK, workers=2,
                              out_dir=out)  # fmt: skip
    assert parallel.run.embedded_texts == 0 and parallel.run.embedding_cache_hits > 0
    assert parallel.run.workers == 2 and parallel.run.tasks_run == 3 * len(QUICK)
    assert _figures(parallel) == {n: f for n, f in _figures(uninterrupted).items() if n in QUICK}
    with pytest.raises(ValueError, match="--workers 1"):
        run_evaluation("longmemeval", path=LONGMEMEVAL, settings=settings, workers=2, store_uri=str(tmp_path))


def test_limit_is_stratified_and_seeded() -> None:
    data = generate(SyntheticConfig(users=4, sessions_per_user=6, seed=3))
    sizes = Counter(q.category for q in data.questions)
    subset = stratified_subset(data, 12, seed=1)
    assert len(subset.questions) == 12
    assert stratified_subset(data, 12, seed=1).questions == subset.questions
    assert stratified_subset(data, 12, seed=2).questions != subset.questions
    chosen = Counter(q.category for q in subset.questions)
    assert set(chosen) == set(sizes)  # every category is represented
    for category, n in chosen.items():  # and keeps its share (rounded, at least one each)
        assert abs(n - 12 * sizes[category] / len(data.questions)) < 2.0
    order = [q.id for q in data.questions]
    assert [q.id for q in subset.questions] == sorted((q.id for q in subset.questions), key=order.index)
    assert {(s.app_name, s.user_id) for s in subset.sessions} == {(q.app_name, q.user_id) for q in subset.questions}
    assert stratified_subset(data, 10_000).questions == data.questions
    with pytest.raises(ValueError, match="at least 1"):
        stratified_subset(data, 0)


class _Counting:
    """An embedder outside the project's concern here: counts the texts it is asked to embed."""

    model = "counting"
    dim = 4

    def __init__(self) -> None:
        self.seen: list[str] = []

    def embed(self, texts: Any) -> FloatMatrix:
        self.seen.extend(texts)
        return np.array([[len(t), 1.0, 0.0, 0.0] for t in texts], dtype=np.float32)


def test_embedding_cache_shares_identical_texts_across_instances(tmp_path: Path) -> None:
    inner = _Counting()
    first = CachedEmbedder(inner, tmp_path / "e.sqlite")
    a = first.embed(["one", "three"])
    assert np.array_equal(first.embed(["three", "one"]), a[::-1]) and inner.seen == ["one", "three"]
    second = CachedEmbedder(inner, tmp_path / "e.sqlite")  # another worker, or a resumed run
    assert np.array_equal(second.embed(["one"]), a[:1]) and inner.seen == ["one", "three"]
    second.embed(["one", "new"])  # a call with a miss is embedded whole, as without the cache
    assert inner.seen == ["one", "three", "one", "new"] and (second.hits, second.misses) == (2, 1)
    assert first.embed([]).shape == (0, 4)


def test_a_lazy_model_loads_on_the_first_miss_only(tmp_path: Path) -> None:
    """What a worker whose texts are all cached does: it never loads the model (units.task_embedder)."""
    path = tmp_path / "e.sqlite"
    assert not holds_vectors(path)
    earlier = CachedEmbedder(_Counting(), path).embed(["one"])  # another run's, or this run's before a kill
    assert holds_vectors(path)
    built: list[_Counting] = []

    def build() -> _Counting:
        built.append(_Counting())
        return built[-1]

    cached = CachedEmbedder(LazyEmbedder("counting", 4, build), path)
    assert np.array_equal(cached.embed(["one"]), earlier) and not built
    cached.embed(["two"])
    cached.embed(["one", "three"])
    assert len(built) == 1 and built[0].seen == ["two", "one", "three"]
    with pytest.raises(ValueError, match="announced"):
        LazyEmbedder("other", 4, build).embed(["x"])
