"""Query-focused excerpts of large items: a lexical index per item, reranked by the project's embedder.

Why two stages: embedding every passage of a 1 MB page takes seconds on a small machine, so the passages
are first ranked by BM25 over an inverted index (built once per item, kept in the cache), and only the
best few are embedded (vectors cached per passage, queries per text) to pick the one that answers.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from tasks.providers.base import Embedder

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_BREAK = re.compile(r"\n\s*\n|(?<=[.!?])\s+")
_SENTENCE = re.compile(r"[^.!?\n<>]+[.!?]?")
#: Passages are about this long (characters); BM25's usual constants.
PASSAGE_CHARS = 600
K1, B = 0.6, 0.75
#: Lexical candidates the embedder rereads, and only when BM25 cannot tell them apart (the runner-up within
#: this share of the best): a rare name or number decides alone, at no model cost.
RERANK_DEPTH = 4
DECISIVE = 0.8


def stem(word: str) -> str:
    """A light suffix strip ("opened" / "opens" / "opening" -> "open"), so a question meets its answer's wording."""
    if len(word) > 4:
        if word.endswith("ing"):
            return word[:-3]
        if word.endswith("ed"):
            return word[:-2]
        if word.endswith("s") and not word.endswith("ss"):
            return word[:-1]
    return word


def words(text: str) -> list[str]:
    return [stem(w.lower()) for w in _WORD.findall(text)]


def passages(text: str, size: int = PASSAGE_CHARS) -> list[tuple[int, int]]:
    """(start, end) spans of about ``size`` characters, cut at paragraph or sentence ends when there are any."""
    spans: list[tuple[int, int]] = []
    start = 0
    n = len(text)
    while start < n:
        end = min(n, start + size)
        if end < n:
            cut = None
            for m in _BREAK.finditer(text, start + size // 2, min(n, start + size + size // 2)):
                cut = m.end()
                if cut >= start + size:
                    break
            end = cut or end
        spans.append((start, end))
        start = end
    return spans


@dataclass
class PassageIndex:
    """BM25 over one item's passages (postings per word as arrays), with the embedder's vectors of the
    sentences read so far."""

    text: str
    spans: list[tuple[int, int]]
    postings: dict[str, tuple[np.ndarray, np.ndarray]]
    lengths: np.ndarray
    vectors: dict[tuple[int, int], np.ndarray] = field(default_factory=dict)

    @classmethod
    def build(cls, text: str) -> PassageIndex:
        spans = passages(text)
        lists: dict[str, tuple[list[int], list[int]]] = {}
        lengths: list[int] = []
        for i, (a, b) in enumerate(spans):
            counts = Counter(words(text[a:b]))
            lengths.append(sum(counts.values()))
            for word, tf in counts.items():
                ids, tfs = lists.setdefault(word, ([], []))
                ids.append(i)
                tfs.append(tf)
        postings = {w: (np.asarray(ids, np.int32), np.asarray(tfs, np.float32)) for w, (ids, tfs) in lists.items()}
        return cls(text=text, spans=spans, postings=postings, lengths=np.asarray(lengths, np.float32))

    def passage(self, i: int) -> str:
        a, b = self.spans[i]
        return self.text[a:b]

    def lexical(self, query: str, k: int) -> list[tuple[int, float]]:
        """The ``k`` best passages by BM25 (ties: the earlier passage), vectorised: a 1 MB item in ~1 ms."""
        n = len(self.spans)
        if not n:
            return []
        avg = max(float(self.lengths.mean()), 1.0)
        scores = np.zeros(n, np.float32)
        for word in dict.fromkeys(words(query)):
            found = self.postings.get(word)
            if found is None:
                continue
            ids, tf = found
            idf = math.log(1 + (n - len(ids) + 0.5) / (len(ids) + 0.5))
            scores[ids] += idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * self.lengths[ids] / avg))
        hit = np.flatnonzero(scores > 0)
        order = hit[np.lexsort((hit, -scores[hit]))][:k]
        return [(int(i), float(scores[i])) for i in order]

    def idf(self, word: str) -> float:
        found = self.postings.get(word)
        n, df = len(self.spans), (len(found[0]) if found is not None else 0)
        return math.log(1 + (n - df + 0.5) / (df + 0.5)) if df else 0.0

    def focus(self, i: int, query: str) -> tuple[int, int]:
        """The span of passage ``i``'s sentence covering the query's rarest words best (ties: the first)."""
        a, b = self.spans[i]
        weights = {w: self.idf(w) for w in set(words(query))}
        best, score = (a, b), -1.0
        for m in _SENTENCE.finditer(self.text, a, b):
            got = sum(weights.get(w, 0.0) for w in set(words(m.group())))
            if got > score:
                best, score = (m.start(), m.end()), got
        return best

    def best(self, query: str, embedder: Embedder | None) -> tuple[int, int] | None:
        """The sentence that best answers ``query``: each BM25 candidate passage's best sentence, reread by
        the embedder when BM25 cannot tell the candidates apart (sentences: a page's title passage is close
        to any question about the page, the sentence holding the answer closer still)."""
        candidates = self.lexical(query, RERANK_DEPTH if embedder is not None else 1)
        if not candidates:
            return None
        spans = [self.focus(i, query) for i, _ in candidates]
        # The same sentence in several passages (a page fetched twice, a repeated footer) is one candidate.
        texts = [" ".join(self.text[a:b].split()) for a, b in spans]
        keep = [k for k in range(len(spans)) if texts[k] not in texts[:k]]
        spans, candidates = [spans[k] for k in keep], [candidates[k] for k in keep]
        if embedder is None or len(candidates) == 1 or candidates[1][1] < DECISIVE * candidates[0][1]:
            return spans[0]
        missing = [sp for sp in spans if sp not in self.vectors]
        if missing:
            for sp, vec in zip(missing, embedder.embed([self.text[a:b] for a, b in missing]), strict=True):
                self.vectors[sp] = vec
        q = query_vector(embedder, query)
        top = candidates[0][1] or 1.0
        # Cosine decides; BM25 (scaled to [0, 1]) weighs in, so an exact-word match is not lost.
        scored = [float(self.vectors[sp] @ q) + 0.5 * c[1] / top for sp, c in zip(spans, candidates, strict=True)]
        return spans[max(range(len(spans)), key=lambda k: (scored[k], -k))]


def excerpt(index: PassageIndex, query: str, max_chars: int, embedder: Embedder | None) -> str:
    """About ``max_chars`` of the item around the sentence best answering ``query`` (its start when none does).

    The window starts a third of its length before that sentence, so what leads up to it is kept.
    """
    best = index.best(query, embedder) if query.strip() else None
    text = index.text
    if best is None:
        return text[:max_chars]
    start = max(0, min(best[0] - max_chars // 3, len(text) - max_chars))
    end = min(len(text), start + max_chars)
    return ("…" if start > 0 else "") + text[start:end].strip() + ("…" if end < len(text) else "")


_QUERY_CACHE: dict[tuple[int, str], np.ndarray] = {}


def query_vector(embedder: Embedder, query: str) -> np.ndarray:
    """The query's vector, computed once per embedder and text (an agent asks the same things again)."""
    key = (id(embedder), query)
    vec = _QUERY_CACHE.get(key)
    if vec is None:
        if len(_QUERY_CACHE) > 1024:
            _QUERY_CACHE.clear()
        vec = _QUERY_CACHE[key] = embedder.embed([query])[0]
    return vec
