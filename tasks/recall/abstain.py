"""Abstention: a calibrated "nothing relevant is known" signal beside the hit list.

Recall always returns its nearest items, so a question about something never said still gets a
confident-looking context. The signal here is the best hit's cosine to the query (the raw
similarity, independent of the keyword bonus and of the store's recency and importance mix),
compared with a threshold learned on labelled answerable questions by :func:`calibrate`: the highest one
that abstains on at most a given share of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tasks.models import RecallHit

#: What a context block says instead of padding with the nearest memories.
NOTHING_KNOWN = "Nothing relevant is known from past conversations."


@dataclass(frozen=True)
class RecallResult:
    """The ranked hits, and whether the best of them is close enough to trust."""

    hits: list[RecallHit] = field(default_factory=list)
    confident: bool = False
    top_cosine: float = 0.0


def top_cosine(hits: Sequence[RecallHit]) -> float:
    """The best hit's cosine to the query (0 without hits)."""
    return max((float(h.score_parts.get("cosine", 0.0)) for h in hits), default=0.0)


def judge(hits: list[RecallHit], threshold: float) -> RecallResult:
    """Wrap ``hits`` with the abstention verdict at ``threshold``."""
    best = top_cosine(hits)
    return RecallResult(hits=hits, confident=bool(hits) and best >= threshold, top_cosine=best)


def calibrate(answerable: Sequence[float], max_false_abstain: float = 0.05) -> float:
    """The highest threshold that abstains on at most ``max_false_abstain`` of answerable questions.

    ``answerable`` are labelled answerable questions' top cosines. The highest such threshold
    abstains on the most questions that have no answer, whatever they are.
    """
    if not answerable:
        raise ValueError("calibration needs answerable questions")
    if not 0.0 <= max_false_abstain < 1.0:
        raise ValueError("max_false_abstain must be in [0, 1)")
    scores = sorted(answerable)
    # Abstaining below scores[n] gives up on exactly the n answerable questions under it (ties aside).
    return scores[int(max_false_abstain * len(scores))]
