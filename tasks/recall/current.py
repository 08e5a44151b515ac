"""Questions about the present: among candidates that match about equally well, the one said last first.

"Where am I working now?" is matched as well by "User works at OhioHealth" (told in May) as by
"User starts at Nationwide on the 3rd" (told in October), and similarity cannot tell which is so
today. The write path closes the older memory when it reads the newer one as a change; when it does
not (a change told in words no rule knows), recall is the last place where time can still decide.
So a question in the present tense about the user ("now", "still", "these days", or "what's my …" /
"where do I …" without a past word) adds a bonus to the candidates that lie within a narrow band of
the best score, by how late they were said among all candidates. Outside the band nothing moves: a
newer memory that matches clearly worse is not pulled above the right one, and questions about the
past ("when did I …", "what did I use to …") or in the third person are left alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from tasks.recall.ranking import FloatArray

#: Words that ask about the present outright.
_NOW = re.compile(
    r"\b(?:now|nowadays|these days|at the moment|at present|currently|current|still|any ?more|latest)\b", re.I
)
#: The user asking about their own life.
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|im|i've|my|me|we|we're|our|us)\b", re.I)
#: Words that turn a question to the past (or to a first time): left to similarity and time windows.
_PAST = re.compile(
    r"\b(?:did|was|were|had|used to|ago|last|before|ever|originally|previous|previously|earlier|back then)\b",
    re.I,
)


def asks_now(query: str) -> bool:
    """Whether ``query`` asks what is so now: a word of the present, or the user's own present tense."""
    if _PAST.search(query):
        return False
    return bool(_NOW.search(query) or _FIRST_PERSON.search(query))


def lateness(said_us: Sequence[FloatArray]) -> list[FloatArray]:
    """Per table, each candidate's place in time among all candidates: 0 the earliest, 1 the latest."""
    every = np.concatenate(list(said_us)) if said_us else np.zeros(0)
    if every.size < 2 or not every.max() > every.min():
        return [np.zeros_like(s) for s in said_us]
    low, span = float(every.min()), float(every.max() - every.min())
    return [(s - low) / span for s in said_us]


def current_bonus(totals: Sequence[FloatArray], late: Sequence[FloatArray], weight: float, band: float) -> list[FloatArray]:
    """The bonus per candidate: ``weight`` × lateness, for candidates within ``band`` of the best total."""
    every = [t for t in totals if t.size]
    if not every or weight <= 0:
        return [np.zeros_like(t) for t in totals]
    best = max(float(t.max()) for t in every)
    return [np.where(t >= best - band, weight * lt, 0.0) for t, lt in zip(totals, late, strict=True)]
