"""The memory pipeline as an evaluated system: ingest every session, then recall per question.

It goes through the same public entry points an application uses (``ingest_sessions`` and
``Recaller``), into the store named by the settings the runner gives it (a temporary one by default).
Access counts are never flushed, so asking the evaluation questions does not change later rankings.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from evaluation.baselines import IndexStats, Retrieved
from evaluation.dataset import EvalDataset, EvalQuestion
from tasks.ingest.run import ingest_sessions
from tasks.ingest.stages import IngestSummary
from tasks.models import RecallHit
from tasks.providers.base import Embedder
from tasks.recall.cross_encoder import CrossEncoderReranker, PairScorer, build_reranker
from tasks.recall.evidence import interleaved
from tasks.recall.lines import point_text
from tasks.recall.recaller import Recaller
from tasks.settings import Settings
from tasks.store.tables import MEMORIES
from tasks.textrules import fmt_date


def hit_text(hit: RecallHit) -> str:
    """``<date> - <content>``: the prompt line of one recalled item, dated like the baselines' turns (an
    earlier value's own label, "earlier (<date>): …", is its date)."""
    when = hit.stated_at or hit.created_at
    point = point_text(hit)
    return point if not hit.current and point.startswith("earlier (") else f"{fmt_date(when)} - {point}"


class PipelineSystem:
    """Extraction + consolidation + hybrid recall, exactly as the application runs them."""

    name = "pipeline"
    returns_everything = False
    #: A list question's members take the last places of the k asked for (tasks.recall.kinds), so the
    #: top 10 of a recall at k = 20 is not a recall at k = 10: the runner asks at every k.
    ranking_depends_on_k = True

    def __init__(self, settings: Settings, *, abstain: bool = False, embedder: Embedder | None = None) -> None:
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
        #: The recall's query embedder (the runner's shared cache); None builds the configured one.
        self.embedder = embedder

    def index(self, dataset: EvalDataset) -> IndexStats:
        summary = self.summary = ingest_sessions(list(dataset.sessions), self.settings)
        self._recaller = self._make_recaller()
        return self._stats(summary)

    def _make_recaller(self) -> Recaller:
        return Recaller(self.settings, embedder=self.embedder)

    @staticmethod
    def _stats(summary: IngestSummary) -> IndexStats:
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
        result = self._recaller.recall_result(
            question.question, question.app_name, question.user_id, k=k, now=question.asked_at
        )
        self.confident[(question.id, k)] = result.confident
        hits = interleaved(result.hits, result.evidence) if result.confident or not self.abstain else []
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


class _MemoScorer:
    """The cross-encoder's scores remembered per (question, passage): the evaluation asks every
    question at a dozen k values, and each would otherwise pay the same model passes again.

    A remembered score is charged the time it first cost (its batch's time over its size), so that the
    latency the report gives is that of a recall without the memo."""

    def __init__(self, encoder: PairScorer) -> None:
        self.encoder = encoder
        self._memo: dict[tuple[str, str], tuple[float, float]] = {}  # -> (score, ms it cost)
        self.charged_ms = 0.0

    def scores(self, query: str, passages: Sequence[str]) -> npt.NDArray[np.float64]:
        unique = list(dict.fromkeys(passages))
        new = [p for p in unique if (query, p) not in self._memo]
        self.charged_ms += sum(self._memo[(query, p)][1] for p in unique if (query, p) in self._memo)
        if new:
            start = time.perf_counter()
            values = self.encoder.scores(query, new)
            each = (time.perf_counter() - start) * 1000.0 / len(new)
            for passage, value in zip(new, values, strict=True):
                self._memo[(query, passage)] = (float(value), each)
        return np.array([self._memo[(query, p)][0] for p in passages], dtype=np.float64)

    def take_charged_ms(self) -> float:
        charged, self.charged_ms = self.charged_ms, 0.0
        return charged


class RerankedPipelineSystem(PipelineSystem):
    """The pipeline with the opt-in cross-encoder reranker, on the plain pipeline's store when that one
    was indexed in the same run (one ingest, two recall modes compared on the same memories)."""

    name = "pipeline_reranked"

    def __init__(
        self,
        settings: Settings,
        *,
        base: PipelineSystem | None = None,
        abstain: bool = False,
        embedder: Embedder | None = None,
    ) -> None:
        reranked = settings.model_copy(update={"recall_reranker": "cross-encoder"})
        super().__init__(reranked, abstain=abstain, embedder=embedder)
        self.base = base
        self._memo: _MemoScorer | None = None

    def index(self, dataset: EvalDataset) -> IndexStats:
        if self.base is None or self.base.summary is None:
            return super().index(dataset)
        self.summary = self.base.summary
        self._recaller = self._make_recaller()
        return self._stats(self.summary)

    def _make_recaller(self) -> Recaller:
        reranker = build_reranker(self.settings)
        if isinstance(reranker, CrossEncoderReranker):
            self._memo = _MemoScorer(reranker.encoder)
            reranker = CrossEncoderReranker(
                self._memo, reranker.depth, reranker.episode_sentences, focus=reranker.focus
            )
        return Recaller(self.settings, reranker=reranker, embedder=self.embedder)

    def extra_latency_ms(self) -> float:
        """Model time the memo saved since the last call: added to the measured latency by the runner."""
        return self._memo.take_charged_ms() if self._memo is not None else 0.0
