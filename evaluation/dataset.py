"""The labelled-dataset types every evaluation source produces and every system is scored on.

Keeping one shape for LoCoMo and the synthetic set lets baselines, the pipeline and the metrics
stay source-agnostic: a source only has to say which turns hold the answer to each question.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from tasks.models import Session

FactStatus = Literal["active", "superseded", "forgotten"]


class GoldFact(BaseModel):
    """A fact a perfect extractor would store, with the turns that state it (synthetic set only)."""

    model_config = ConfigDict(frozen=True)

    id: str
    app_name: str
    user_id: str
    topic: str
    slot: str
    content: str
    value: str
    source_event_ids: tuple[str, ...]
    stated_at: datetime
    status: FactStatus = "active"


class EvalQuestion(BaseModel):
    """One question about one scope (app, user) with its gold provenance.

    ``answerable`` is False when the right answer is "nothing" (LoCoMo category 5, forgotten facts):
    such questions are kept out of retrieval scores and measured apart. ``stale_values`` are the
    outdated answers of an updated fact; ``forgotten_values`` what must not come back after a forget.
    """

    model_config = ConfigDict(frozen=True)

    id: str
    app_name: str
    user_id: str
    question: str
    answer: str
    category: str
    gold_event_ids: tuple[str, ...] = ()
    answerable: bool = True
    stale_values: tuple[str, ...] = ()
    forgotten_values: tuple[str, ...] = ()
    #: When the question is asked (recall's ``now``: "last week" is read against it); None = the clock.
    asked_at: datetime | None = None


class EvalDataset(BaseModel):
    """Sessions to ingest, questions to ask, and (when known) the gold facts behind them."""

    model_config = ConfigDict(frozen=True)

    name: str
    sessions: tuple[Session, ...]
    questions: tuple[EvalQuestion, ...]
    gold_facts: tuple[GoldFact, ...] = ()
    notes: tuple[str, ...] = Field(default=())

    def scored_questions(self) -> list[EvalQuestion]:
        """Questions that have gold evidence and so count in retrieval metrics."""
        return [q for q in self.questions if q.answerable and q.gold_event_ids]
