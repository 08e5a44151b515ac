"""The LoCoMo-style "J" score: an LLM answers each question from a system's context, a judge grades it.

Per system, over the answerable questions, so the report can set the pipeline beside published
LoCoMo J figures. Questions run concurrently within the provider layer's in-flight bound; a question
whose calls fail counts as wrong and is reported in ``errors``, never silently skipped.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Sequence

from pydantic import BaseModel, Field

from evaluation.dataset import EvalQuestion
from tasks.providers.judge import Judge
from tasks.providers.openai_client import map_concurrent
from tasks.settings import Settings

log = logging.getLogger(__name__)


class JudgedAnswer(BaseModel):
    question_id: str
    category: str
    answer: str
    correct: bool
    reason: str


class JudgeMetrics(BaseModel):
    """J of one system: the share of answerable questions answered correctly from its context."""

    model: str
    questions: int
    j_score: float
    per_category: dict[str, float] = Field(default_factory=dict)
    errors: int = 0
    answers: list[JudgedAnswer] = Field(default_factory=list)


def judge_one(judge: Judge, question: EvalQuestion, context: str) -> JudgedAnswer:
    answer = judge.answer(question.question, context)
    verdict = judge.grade(question.question, question.answer, answer)
    return JudgedAnswer(question_id=question.id, category=question.category, answer=answer,
                        correct=verdict.correct, reason=verdict.reason)  # fmt: skip


def judge_system(items: Sequence[tuple[EvalQuestion, str]], judge: Judge, settings: Settings) -> JudgeMetrics:
    """J over ``(question, context)`` pairs; unanswerable questions are left out, as in LoCoMo's J."""
    todo = [(q, c) for q, c in items if q.answerable]
    results = map_concurrent(lambda pair: judge_one(judge, *pair), todo, settings)
    answers: list[JudgedAnswer] = []
    errors = 0
    for (question, _), result in zip(todo, results, strict=True):
        if isinstance(result, BaseException):
            log.warning("judge failed on %s: %s", question.id, type(result).__name__)
            errors += 1
            result = JudgedAnswer(question_id=question.id, category=question.category, answer="",
                                  correct=False, reason=f"judge error: {type(result).__name__}")  # fmt: skip
        answers.append(result)
    by_category: dict[str, list[bool]] = defaultdict(list)
    for a in answers:
        by_category[a.category].append(a.correct)
    return JudgeMetrics(
        model=judge.model, questions=len(answers),
        j_score=sum(a.correct for a in answers) / len(answers) if answers else 0.0,
        per_category={c: sum(v) / len(v) for c, v in sorted(by_category.items())}, errors=errors, answers=answers,
    )  # fmt: skip


def judge_status(scores: dict[str, JudgeMetrics], k: int) -> str:
    """The report's one-line LLM-judge entry."""
    if not scores:
        return "not run: no judge configured (settings.judge = 'openai' and an endpoint)"
    model = next(iter(scores.values())).model
    parts = ", ".join(f"{name} {m.j_score:.3f}" + (f" ({m.errors} errors)" if m.errors else "")
                      for name, m in scores.items())  # fmt: skip
    return f"J (answer and grade by {model}, context = top {k} items): {parts}"
