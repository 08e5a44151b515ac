"""From each system's answers to the questions to its metrics, the same way for every system."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from evaluation import metrics as m
from evaluation.baselines import IndexStats, Retrieved
from evaluation.dataset import EvalQuestion
from evaluation.results import CategoryMetrics, KMetrics, SystemMetrics, UnanswerableMetrics
from tasks.tokens import count_tokens


@dataclass(frozen=True)
class QuestionRun:
    """What one system returned for one question (up to the largest k), and how long it took."""

    question: EvalQuestion
    items: list[Retrieved]
    ms: float


def context_text(items: Sequence[Retrieved]) -> str:
    """The context a system would put in the prompt: its items' lines, best first."""
    return "\n".join(item.text for item in items)


@dataclass
class _Scored:
    precision: float
    recall: float
    hit: float
    ndcg: float
    answer: float
    tokens: float


def _score_at(run: QuestionRun, k: int, tokens: Callable[[QuestionRun, int], float]) -> _Scored:
    sources = [item.source_event_ids for item in run.items[:k]]
    gold = run.question.gold_event_ids
    return _Scored(
        precision=m.precision_at_k(sources, gold, k),
        recall=m.recall_at_k(sources, gold, k),
        hit=m.hit_at_k(sources, gold, k),
        ndcg=m.ndcg_at_k(sources, gold, k),
        answer=m.answer_token_recall(run.question.answer, context_text(run.items[:k])),
        tokens=tokens(run, k),
    )


def _category(runs: list[QuestionRun], scored: list[_Scored]) -> CategoryMetrics:
    return CategoryMetrics(
        questions=len(runs),
        precision_at_k=m.mean(s.precision for s in scored),
        recall_at_k=m.mean(s.recall for s in scored),
        hit_at_k=m.mean(s.hit for s in scored),
        mrr=m.mean(m.reciprocal_rank([i.source_event_ids for i in r.items], r.question.gold_event_ids) for r in runs),
        ndcg_at_k=m.mean(s.ndcg for s in scored),
        answer_recall_at_k=m.mean(s.answer for s in scored),
    )


def score_system(
    name: str,
    runs: Sequence[QuestionRun],
    *,
    k: int,
    ks: Sequence[int],
    index: IndexStats,
    full_tokens: float,
    returns_everything: bool = False,
    abstain_threshold: float = 0.5,
    confident: Mapping[str, bool] | None = None,
) -> SystemMetrics:
    """Every metric of one system; ``full_tokens`` is the mean full-context size over the same questions.

    A system that returns everything is cut at no k: its items are its whole history at every k.
    ``confident`` is a system's own abstention verdict per question id (True = it would answer); the
    retrieval figures still score its ranked items, and the abstention's cost is reported beside them.
    """
    token_cache: dict[tuple[str, int], float] = {}

    def tokens(run: QuestionRun, cut: int) -> float:
        key = (run.question.id, min(cut, len(run.items)))
        if returns_everything:
            key = (f"{run.question.app_name}\x1f{run.question.user_id}", len(run.items))
        if key not in token_cache:
            token_cache[key] = float(count_tokens(context_text(run.items[:cut])))
        return token_cache[key]

    def cut(kk: int, run: QuestionRun) -> int:
        return max(len(run.items), 1) if returns_everything else kk

    scored_runs = [r for r in runs if r.question.answerable and r.question.gold_event_ids]
    per_k: dict[str, KMetrics] = {}
    per_category_k: dict[str, dict[str, CategoryMetrics]] = {}
    at_k: list[_Scored] = []
    groups: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(scored_runs):
        groups[r.question.category].append(i)
    for kk in sorted({*ks, k}):
        scored = [_score_at(r, cut(kk, r), tokens) for r in scored_runs]
        if kk == k:
            at_k = scored
        per_category_k[str(kk)] = {
            cat: _category([scored_runs[i] for i in idx], [scored[i] for i in idx])
            for cat, idx in sorted(groups.items())
        }
        per_k[str(kk)] = KMetrics(
            precision=m.mean(s.precision for s in scored),
            recall=m.mean(s.recall for s in scored),
            hit=m.mean(s.hit for s in scored),
            ndcg=m.mean(s.ndcg for s in scored),
            answer_recall=m.mean(s.answer for s in scored),
            mean_context_tokens=m.mean(s.tokens for s in scored),
        )
    per_category = per_category_k[str(k)]
    overall = _category(scored_runs, at_k)
    top_items = [item for r in scored_runs for item in r.items[: cut(k, r)]]
    mean_tokens = per_k[str(k)].mean_context_tokens
    latencies = [r.ms for r in runs]
    return SystemMetrics(
        name=name,
        questions=len(scored_runs),
        precision_at_k=overall.precision_at_k,
        recall_at_k=overall.recall_at_k,
        hit_at_k=overall.hit_at_k,
        answer_recall_at_k=overall.answer_recall_at_k,
        mrr=overall.mrr,
        ndcg_at_k=overall.ndcg_at_k,
        mean_sources_per_memory=m.mean(len(i.source_event_ids) for i in top_items),
        mean_items_returned=m.mean(min(len(r.items), cut(k, r)) for r in scored_runs),
        mean_context_tokens=mean_tokens,
        token_savings_vs_full=m.token_savings(mean_tokens, full_tokens),
        recall_p50_ms=m.percentile(latencies, 50),
        recall_p95_ms=m.percentile(latencies, 95),
        index_seconds=index.seconds,
        items_indexed=index.items,
        per_k=per_k,
        per_category=per_category,
        per_category_k=per_category_k,
        unanswerable=_unanswerable(runs, k, abstain_threshold, returns_everything, confident, scored_runs, at_k),
        stale_fact_rate=_rate(runs, k, returns_everything, lambda q: bool(q.stale_values), _is_stale),
        forgotten_leak_rate=_rate(runs, k, returns_everything, lambda q: bool(q.forgotten_values), _is_leak),
    )


def _unanswerable(
    runs: Sequence[QuestionRun],
    k: int,
    threshold: float,
    everything: bool,
    confident: Mapping[str, bool] | None,
    scored_runs: Sequence[QuestionRun],
    scored: Sequence[_Scored],
) -> UnanswerableMetrics:
    """How often a question about something never said (or forgotten) still gets a confident item."""
    chosen = [r for r in runs if not r.question.answerable]
    tops = [max((i.score for i in (r.items if everything else r.items[:k])), default=0.0) for r in chosen]
    metrics = UnanswerableMetrics(
        questions=len(chosen),
        threshold=threshold,
        retrieved_above_threshold_rate=m.mean(1.0 if t >= threshold else 0.0 for t in tops),
        mean_top_score=m.mean(tops),
    )
    if confident is None:
        return metrics
    kept = [confident.get(r.question.id, True) for r in scored_runs]
    return metrics.model_copy(
        update={
            "signal": "system",
            "retrieved_above_threshold_rate": m.mean(
                1.0 if confident.get(r.question.id, True) else 0.0 for r in chosen
            ),
            "answerable_abstained_rate": m.mean(0.0 if c else 1.0 for c in kept),
            "recall_at_k_with_abstention": m.mean(s.recall if c else 0.0 for s, c in zip(scored, kept, strict=True)),
        }
    )


def _is_stale(run: QuestionRun, items: Sequence[Retrieved]) -> bool:
    q = run.question
    return m.stale_returned([i.text for i in items], (q.answer,), q.stale_values)


def _is_leak(run: QuestionRun, items: Sequence[Retrieved]) -> bool:
    return m.leaked([i.text for i in items], run.question.forgotten_values)


def _rate(
    runs: Sequence[QuestionRun],
    k: int,
    everything: bool,
    applies: Callable[[EvalQuestion], bool],
    check: Callable[[QuestionRun, Sequence[Retrieved]], bool],
) -> float | None:
    chosen = [r for r in runs if applies(r.question)]
    if not chosen:
        return None
    return m.mean(1.0 if check(r, r.items if everything else r.items[:k]) else 0.0 for r in chosen)
