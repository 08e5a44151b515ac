"""A question said as the memories say things: "What do I do for a living?" → "User do for a living".

Memories are third-person statements ("User works as a nurse ..."); a question is in the second
grammar of the two ("what", "do I", "my"). A small embedding model puts a question and the statement
that answers it further apart than two statements on the same thing, so the query vector is the mean
of the question's and of this statement form's (:meth:`tasks.recall.recaller.Recaller`). Only the
grammar changes (the question word and its auxiliary go, the speaker's pronouns become "User"); the
words that carry the meaning are the asker's own, so nothing here knows any topic.
"""

from __future__ import annotations

import re

import numpy as np
import numpy.typing as npt

from tasks.providers.base import Embedder
from tasks.settings import Settings

_AUX = (
    r"(?:(?:is|are|was|were|do|does|did|have|has|had|could|would|should|must)n['’]t|can['’]t|won['’]t|"
    r"is|are|was|were|am|do|does|did|have|has|had|can|could|will|would|should|shall|may|might|must)(?![\w'’])"
)
_WH = r"(?:what|which|where|when|who|whom|whose|why|how)"
#: A question word, the words it governs ("which city", "how many children"), then its auxiliary.
_WH_AUX = re.compile(rf"^{_WH}(?P<head>(?:\s+(?!{_AUX})[\w'’-]+){{0,3}}?)\s+{_AUX}\s*", re.I)
_QUESTION = re.compile(rf"^(?:{_WH}|{_AUX})\b|\?\s*$", re.I)
_WH_IS = re.compile(rf"^{_WH}['’]s\s+", re.I)
_AUX_FIRST = re.compile(rf"^{_AUX}\s+", re.I)
_WH_SUBJECT = re.compile(rf"^{_WH}\s+", re.I)
#: How a question opens, tried in turn: "Which city did ...", "What's ...", "Do I ...", and a question
#: word that is its own subject ("Who taught me to swim").
_OPENINGS = (_WH_AUX, _WH_IS, _AUX_FIRST, _WH_SUBJECT)
#: The asker's own words, said of the user (the memories' subject).
_PERSON = (
    (re.compile(r"\b(?:[Mm]y|[Mm]ine)\b"), "User's"),
    (re.compile(r"\bI['’]m\b"), "User is"),
    (re.compile(r"\bI['’](?:ve|d|ll)\b"), "User"),
    (re.compile(r"\b(?:I|me|myself)\b"), "User"),
    (re.compile(r"\b[Aa]m\b"), "is"),
    (re.compile(r"\b[Oo]urs?\b"), "their"),
    (re.compile(r"\b[Ww]e\b"), "they"),
    (re.compile(r"\bus\b"), "them"),  # lower case: "US" is a country
)
_SPACE = re.compile(r"\s+")
#: Only the asker's own questions are rewritten: on questions about someone by name (LoCoMo-dev's) the
#: statement form cost recall@10 0.806 -> 0.797; the gap it closes is the person ("my" vs "User's").
_FIRST_PERSON = re.compile(r"\b(?:I|[Mm]e|[Mm]y|[Mm]ine|myself|[Ww]e|us|[Oo]urs?)\b|\bI['’]")


def as_statement(query: str) -> str | None:
    """The question's statement form, or None when it reads the same (not a question, nothing to change)."""
    if not _QUESTION.search(query.strip()) or not _FIRST_PERSON.search(query):
        return None
    text = query.strip().rstrip("?!. ").strip()
    stripped = text
    for opening in _OPENINGS:  # the first that fits
        if (stripped := opening.sub(lambda m: (m.groupdict().get("head") or "").strip() + " ", text, count=1)) != text:
            break
    for pattern, said in _PERSON:
        stripped = pattern.sub(said, stripped)
    stripped = _SPACE.sub(" ", stripped).strip()
    return stripped if stripped and stripped != text else None


def query_vector(embedder: Embedder, query: str, with_statement: bool) -> npt.NDArray[np.float32]:
    """The query's vector; ``with_statement``, the unit mean of the question's and its statement form's
    (one embedder call for both)."""
    said = as_statement(query) if with_statement else None
    if said is None:
        return np.asarray(embedder.embed([query])[0], dtype=np.float32)
    both = np.asarray(embedder.embed([query, said]), dtype=np.float32)
    mean = both[0] + both[1]
    return np.asarray(mean / max(float(np.linalg.norm(mean)), 1e-12), dtype=np.float32)


def abstain_threshold(query: str, settings: Settings) -> float:
    """The abstention threshold for ``query``'s vector: a rewritten question's cosines are of the mean."""
    if settings.recall_statement_query and as_statement(query) is not None:
        return settings.recall_abstain_min_cosine_statement
    return settings.recall_abstain_min_cosine
