"""A small Okapi BM25 with a suffix-stripping stemmer, for the "hybrid + neighbours" baseline.

It stands for the keyword leg a developer would add in an afternoon (rank_bm25 plus a stemmer),
without a new dependency: the corpus of one evaluated scope is a few hundred turns, so plain
postings in dicts are fast enough.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

from evaluation.metrics import STOP_WORDS

_WORD = re.compile(r"[a-z0-9]+")
#: Suffixes stripped longest-first; a stem keeps at least three characters.
_SUFFIXES = (
    "ational", "ization", "fulness", "iveness", "ement", "ments", "ation", "ness", "ment", "ings",
    "ing", "edly", "ies", "ied", "ers", "est", "ed", "er", "ly", "es", "s",
)  # fmt: skip
_KEEP_S = ("ss", "us", "is")
MIN_STEM = 3


def stem(word: str) -> str:
    """Strip one common English suffix ("hiking" → "hik", "hikes" → "hik", "parties" → "party").

    Deliberately crude (no Porter measure): it only has to make inflected forms meet.
    """
    if word.isdigit():
        return word
    for suffix in _SUFFIXES:
        if not word.endswith(suffix) or len(word) - len(suffix) < MIN_STEM:
            continue
        if suffix == "s" and word.endswith(_KEEP_S):
            return word
        base = word[: -len(suffix)]
        if suffix in ("ies", "ied"):
            return base + "y"
        if len(base) > MIN_STEM and base[-1] == base[-2] and base[-1] not in "lsz":
            base = base[:-1]  # "running" → "runn" → "run"
        return base
    return word.removesuffix("e") if len(word) > MIN_STEM else word


def terms(text: str) -> list[str]:
    """Lower-cased, apostrophes dropped, stop words removed, stemmed."""
    return [stem(w) for w in _WORD.findall(text.lower().replace("'", "")) if w not in STOP_WORDS]


class BM25:
    """Okapi BM25 (k1 = 1.2, b = 0.75, Lucene's non-negative idf) over a fixed list of documents."""

    def __init__(self, documents: Sequence[str], *, k1: float = 1.2, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        docs = [Counter(terms(d)) for d in documents]
        self._lengths = [sum(d.values()) for d in docs]
        self._avg = (sum(self._lengths) / len(docs)) if docs else 0.0
        self._postings: dict[str, list[tuple[int, int]]] = {}
        for i, doc in enumerate(docs):
            for term, tf in doc.items():
                self._postings.setdefault(term, []).append((i, tf))
        n = len(docs)
        self._idf = {t: math.log(1.0 + (n - len(p) + 0.5) / (len(p) + 0.5)) for t, p in self._postings.items()}
        self.size = n

    def scores(self, query: str) -> list[float]:
        """One BM25 score per document (0 for documents sharing no term with the query)."""
        out = [0.0] * self.size
        avg = self._avg or 1.0
        for term in set(terms(query)):
            idf = self._idf.get(term)
            if idf is None:
                continue
            for i, tf in self._postings[term]:
                norm = self.k1 * (1.0 - self.b + self.b * self._lengths[i] / avg)
                out[i] += idf * tf * (self.k1 + 1.0) / (tf + norm)
        return out
