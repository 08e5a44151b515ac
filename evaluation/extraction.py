"""Extraction quality on the synthetic set: stored memories matched against the gold facts.

A memory matches a gold fact of the same user when it was extracted from one of the fact's turns
(source-event overlap) or says the same thing (content cosine at or above a threshold). Both
criteria are reported on their own too, so a provenance bug cannot hide behind paraphrase matching.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from evaluation.dataset import GoldFact
from evaluation.results import ExtractionMetrics
from tasks.providers.base import Embedder

COSINE_THRESHOLD = 0.75


def match_matrix(
    rows: Sequence[dict[str, Any]],
    gold: Sequence[GoldFact],
    embedder: Embedder,
    threshold: float = COSINE_THRESHOLD,
) -> tuple[np.ndarray[Any, np.dtype[np.bool_]], np.ndarray[Any, np.dtype[np.bool_]]]:
    """(by_source, by_cosine) boolean matrices of shape (memories, gold facts), same-scope pairs only."""
    n, g = len(rows), len(gold)
    by_source = np.zeros((n, g), dtype=bool)
    by_cosine = np.zeros((n, g), dtype=bool)
    if not n or not g:
        return by_source, by_cosine
    gold_vecs = embedder.embed([f.content for f in gold])
    mem_vecs = embedder.embed([str(r["content"]) for r in rows])
    sims = mem_vecs @ gold_vecs.T
    for i, row in enumerate(rows):
        sources = set(row.get("source_event_ids") or [])
        for j, fact in enumerate(gold):
            if (row.get("app_name"), row.get("user_id")) != (fact.app_name, fact.user_id):
                continue
            by_source[i, j] = bool(sources.intersection(fact.source_event_ids))
            by_cosine[i, j] = bool(sims[i, j] >= threshold)
    return by_source, by_cosine


def extraction_metrics(
    rows: Sequence[dict[str, Any]],
    gold: Sequence[GoldFact],
    embedder: Embedder,
    threshold: float = COSINE_THRESHOLD,
) -> ExtractionMetrics:
    """Precision over stored memory versions, recall over gold facts (every status: a forgotten or
    superseded fact was still said and should have been extracted before it was retired)."""
    by_source, by_cosine = match_matrix(rows, gold, embedder, threshold)
    either = by_source | by_cosine
    n, g = len(rows), len(gold)

    def share(values: Any, total: int) -> float:
        return float(np.sum(values)) / total if total else 0.0

    return ExtractionMetrics(
        memories=n,
        gold_facts=g,
        precision=share(either.any(axis=1), n),
        recall=share(either.any(axis=0), g),
        precision_by_source=share(by_source.any(axis=1), n),
        precision_by_cosine=share(by_cosine.any(axis=1), n),
        cosine_threshold=threshold,
    )
