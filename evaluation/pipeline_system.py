"""The memory pipeline as an evaluated system: ingest every session, then recall per question.

It goes through the same public entry points an application uses (``ingest_sessions`` and
``Recaller``), into the store named by the settings the runner gives it (a temporary one by default).
Access counts are never flushed, so asking the evaluation questions does not change later rankings.
"""

from __future__ import annotations

from typing import Any

from evaluation.baselines import IndexStats, Retrieved
from evaluation.dataset import EvalDataset, EvalQuestion
from tasks.ingest.run import ingest_sessions
from tasks.ingest.stages import IngestSummary
from tasks.models import RecallHit
from tasks.recall.lines import point_text
from tasks.recall.recaller import Recaller
from tasks.settings import Settings
from tasks.store.tables import MEMORIES
from tasks.textrules import fmt_date


def hit_text(hit: RecallHit) -> str:
    """``<date> - <content>``: the prompt line of one recalled item, dated like the baselines' turns."""
    when = hit.stated_at or hit.created_at
    return f"{fmt_date(when)} - {point_text(hit)}"


class PipelineSystem:
    """Extraction + consolidation + hybrid recall, exactly as the application runs them."""

    name = "pipeline"
    returns_everything = False

    def __init__(self, settings: Settings, *, abstain: bool = False) -> None:
        # Forgotten memories keep their (never recalled) rows during an evaluation, so extraction
        # metrics still see what was extracted before a later session forgot it; recall is unaffected.
        self.settings = settings.model_copy(update={"forgotten_retention_days": 36_500.0})
        self._recaller: Recaller | None = None
        #: ``Recaller.recall_result``'s verdict per (question id, k): the report's abstention figures.
        #: With ``abstain``, a recall judged not confident also returns no items (as an agent's context
        #: would say "nothing known"), so every retrieval figure pays for false abstentions.
        self.abstain = abstain
        self.confident: dict[tuple[str, int], bool] = {}
        self.summary: IngestSummary | None = None

    def index(self, dataset: EvalDataset) -> IndexStats:
        summary = self.summary = ingest_sessions(list(dataset.sessions), self.settings)
        self._recaller = Recaller(self.settings)
        return IndexStats(
            seconds=summary.seconds,
            items=summary.memories_written,
            sessions=summary.sessions_processed,
            memories=summary.memories_written,
            extra={
                "embed_seconds": summary.embed_seconds,
                "episodes_written": float(summary.episodes_written),
                "sessions_quarantined": float(summary.sessions_quarantined),
            },
        )

    def retrieve(self, question: EvalQuestion, k: int) -> list[Retrieved]:
        if self._recaller is None:
            raise RuntimeError("index() must run before retrieve()")
        result = self._recaller.recall_result(question.question, question.app_name, question.user_id, k=k)
        self.confident[(question.id, k)] = result.confident
        hits = result.hits if result.confident or not self.abstain else []
        # The cosine part, not the final score, so the abstention threshold means the same for all systems.
        return [
            Retrieved(hit_text(h), tuple(h.source_event_ids), float(h.score_parts.get("cosine", h.score))) for h in hits
        ]

    def memory_rows(self) -> list[dict[str, Any]]:
        """Every stored memory version (any status): what extraction produced, for gold-fact matching."""
        if self._recaller is None:
            return []
        columns = ["memory_id", "version", "user_id", "app_name", "content", "vector", "source_event_ids", "status",
                   "topic"]  # fmt: skip
        return self._recaller.store.rows(MEMORIES, columns=columns)
