"""Systems compared at matched context budgets, not only at equal k.

Equal k flatters a system whose items are long (a 5-turn chunk counts as one item), so each
system also gets a recall-vs-tokens curve: at a budget of B tokens its items are taken in rank
order while they fit, and the first that does not fit ends the context. A system's ranking may
depend on the k it is asked for (the pipeline's candidate pool grows with k; the turn baselines
fuse each leg's top k), so it is asked at every k of a grid and each budget reports the k with the
best mean evidence recall there: the k a developer would configure for that budget, chosen the
same way for every system.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from evaluation.metrics import content_words, mean
from evaluation.results import BUDGET_RIVALS, BudgetPoint, BudgetVerdict, CategoryMetrics, KMetrics, SystemMetrics
from evaluation.scoring import QuestionRun, score_system
from tasks.tokens import count_tokens

#: The k values every ranked system is asked at for the curve (besides the report's own k values).
CURVE_KS: tuple[int, ...] = (5, 10, 15, 20, 30, 40, 60, 80)
#: A line break between two items costs one token in this accounting.
SEPARATOR_TOKENS = 1

RunsByK = Mapping[int, Sequence[QuestionRun]]


def _curve_at(k: int, runs: Sequence[QuestionRun], budgets: Sequence[int], cache: dict[str, int]) -> list[BudgetPoint]:
    """Mean recall, answer-token recall, tokens and items at each (ascending) budget, for runs asked at ``k``."""
    scored = [r for r in runs if r.question.answerable and r.question.gold_event_ids]
    columns: list[list[tuple[float, float, float, float]]] = [[] for _ in budgets]
    for run in scored:
        gold = set(run.question.gold_event_ids)
        wanted = content_words(run.question.answer)
        covered: set[str] = set()
        words: set[str] = set()
        used = taken = 0
        for j, budget in enumerate(budgets):
            while taken < len(run.items):
                text = run.items[taken].text
                if text not in cache:
                    cache[text] = count_tokens(text)
                cost = cache[text] + (SEPARATOR_TOKENS if taken else 0)
                if used + cost > budget:
                    break
                used += cost
                covered.update(run.items[taken].source_event_ids)
                words |= content_words(text)
                taken += 1
            answer = len(wanted & words) / len(wanted) if wanted else 1.0
            columns[j].append((len(gold & covered) / len(gold), answer, float(used), float(taken)))
    return [
        BudgetPoint(
            budget=budget,
            k=k,
            recall=mean(c[0] for c in col),
            answer_recall=mean(c[1] for c in col),
            mean_context_tokens=mean(c[2] for c in col),
            mean_items=mean(c[3] for c in col),
        )
        for budget, col in zip(budgets, columns, strict=True)
    ]


def budget_curve(runs_by_k: RunsByK, budgets: Sequence[int]) -> list[BudgetPoint]:
    """Per budget, the point of the k with the best mean evidence recall (ties: answer recall, then smaller k).

    A maximum over k of curves that never fall is itself non-decreasing in the budget.
    """
    ordered = sorted(set(budgets))
    cache: dict[str, int] = {}
    curves = {kk: _curve_at(kk, runs, ordered, cache) for kk, runs in runs_by_k.items()}
    if not curves:
        return []
    return [
        max((c[j] for c in curves.values()), key=lambda p: (p.recall, p.answer_recall, -p.k))
        for j in range(len(ordered))
    ]


def score_asked_at_each_k(name: str, runs_by_k: RunsByK, *, k: int, ks: Sequence[int], **options: Any) -> SystemMetrics:
    """Metrics of a system whose ranking depends on k: each k's figures come from asking it for k."""
    base = score_system(name, runs_by_k[k], k=k, ks=[k], **options)
    per_k: dict[str, KMetrics] = {}
    per_category_k: dict[str, dict[str, CategoryMetrics]] = {}
    for kk in sorted({*ks, k}):
        one = base if kk == k else score_system(name, runs_by_k[kk], k=kk, ks=[kk], **options)
        per_k[str(kk)] = one.per_k[str(kk)]
        per_category_k[str(kk)] = one.per_category
    return base.model_copy(update={"per_k": per_k, "per_category_k": per_category_k})


def compare_budgets(systems: Mapping[str, SystemMetrics], rivals: Sequence[str] = BUDGET_RIVALS) -> list[BudgetVerdict]:
    """Per budget, whether the pipeline is strictly above every rival; empty unless all were run."""
    pipeline = systems.get("pipeline")
    if pipeline is None or not pipeline.budget_curve or any(not systems.get(r) for r in rivals):
        return []
    verdicts: list[BudgetVerdict] = []
    for j, point in enumerate(pipeline.budget_curve):
        recall = {r: systems[r].budget_curve[j].recall for r in rivals}
        answer = {r: systems[r].budget_curve[j].answer_recall for r in rivals}
        verdicts.append(
            BudgetVerdict(
                budget=point.budget,
                pipeline_recall=point.recall,
                rivals_recall=recall,
                recall_above=all(point.recall > v for v in recall.values()),
                pipeline_answer_recall=point.answer_recall,
                rivals_answer_recall=answer,
                answer_recall_above=all(point.answer_recall > v for v in answer.values()),
            )
        )
    return verdicts
