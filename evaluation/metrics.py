"""Retrieval and context metrics as pure functions, so each can be checked on hand-made examples.

An item is *relevant* when its source turns include a gold evidence turn: that is how a memory
(many turns condensed) and a chunk or a turn (raw text) are compared on the same footing.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Iterable, Sequence

#: A small English stop-word list: answer-token recall should count content words only.
_STOP_TEXT = """
a about after again all also am an and any are as at be been before being both but by can could did
do does doing down during each few for from further had has have having he her here hers him his how
i if in into is it its itself just me more most my no nor not now of off on once only or other our
ours out over own same she should so some such than that the their theirs them then there these they
this those through to too under until up very was we were what when where which while who whom why
will with would you your yours yes
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())
_WORD = re.compile(r"[a-z0-9]+")


def content_words(text: str) -> set[str]:
    """Lower-cased words with punctuation stripped and stop words removed."""
    return {w for w in _WORD.findall(text.lower().replace("'", "")) if w not in STOP_WORDS}


def answer_token_recall(answer: str, context: str) -> float:
    """Share of the answer's content words present in the context (LLM-free proxy of answerability).

    An answer made only of stop words (e.g. "No") has nothing to look for and scores 1.
    """
    wanted = content_words(answer)
    if not wanted:
        return 1.0
    return len(wanted & content_words(context)) / len(wanted)


def relevance(sources: Sequence[Collection[str]], gold: Collection[str]) -> list[bool]:
    """Per retrieved item: does it come from at least one gold evidence turn?"""
    gold_set = set(gold)
    return [bool(gold_set.intersection(s)) for s in sources]


def precision_at_k(sources: Sequence[Collection[str]], gold: Collection[str], k: int) -> float:
    """Relevant items among the top k, over the items actually returned (empty slots are not misses)."""
    top = sources[:k]
    return sum(relevance(top, gold)) / len(top) if top else 0.0


def recall_at_k(sources: Sequence[Collection[str]], gold: Collection[str], k: int) -> float:
    """Share of gold evidence turns covered by the union of the top-k items' source turns."""
    gold_set = set(gold)
    if not gold_set:
        return 0.0
    covered: set[str] = set()
    for s in sources[:k]:
        covered.update(s)
    return len(gold_set & covered) / len(gold_set)


def hit_at_k(sources: Sequence[Collection[str]], gold: Collection[str], k: int) -> float:
    """1 when any of the top k items is relevant."""
    return 1.0 if any(relevance(sources[:k], gold)) else 0.0


def reciprocal_rank(sources: Sequence[Collection[str]], gold: Collection[str]) -> float:
    """1 / rank of the first relevant item, 0 when none is (averaged into MRR)."""
    for rank, relevant in enumerate(relevance(sources, gold), start=1):
        if relevant:
            return 1.0 / rank
    return 0.0


def ndcg_at_k(sources: Sequence[Collection[str]], gold: Collection[str], k: int) -> float:
    """Binary-gain nDCG where an item gains only if it covers an evidence turn not covered above it.

    Counting only new coverage keeps duplicates from scoring twice, so the value stays within [0, 1];
    the ideal ranking puts one new evidence turn at each of the first min(k, |gold|) ranks.
    """
    gold_set = set(gold)
    if not gold_set or k <= 0:
        return 0.0
    covered: set[str] = set()
    dcg = 0.0
    for rank, s in enumerate(sources[:k], start=1):
        new = (gold_set & set(s)) - covered
        if new:
            dcg += 1.0 / math.log2(rank + 1)
            covered |= new
    ideal = sum(1.0 / math.log2(rank + 1) for rank in range(1, min(k, len(gold_set)) + 1))
    return dcg / ideal


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile (q in 0..100); 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100.0
    lo, hi = math.floor(pos), math.ceil(pos)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def mean(values: Iterable[float]) -> float:
    items = list(values)
    return sum(items) / len(items) if items else 0.0


def token_savings(tokens: float, full_tokens: float) -> float:
    """1 − tokens / full-context tokens: the share of the prompt a system saves over sending everything."""
    return 1.0 - tokens / full_tokens if full_tokens > 0 else 0.0


def mentions(text: str, value: str) -> bool:
    """Whole-word, case-insensitive mention of a value (multi-word values allowed)."""
    pattern = r"(?<![a-z0-9])" + re.escape(value.lower()) + r"(?![a-z0-9])"
    return re.search(pattern, text.lower()) is not None


def stale_returned(texts: Sequence[str], current: Sequence[str], stale: Sequence[str]) -> bool:
    """An outdated value is *returned as current* when the first item mentioning the fact gives it.

    That first mention is what a model reading the context top-down would take as the answer; an
    old value ranked below the current one (e.g. as history) does not count.
    """
    for text in texts:
        has_stale = any(mentions(text, v) for v in stale)
        has_current = any(mentions(text, v) for v in current)
        if has_stale and not has_current:
            return True
        if has_current:
            return False
    return False


def leaked(texts: Sequence[str], forgotten: Sequence[str]) -> bool:
    """Any retrieved text still mentions something the user asked to forget."""
    return any(mentions(t, v) for t in texts for v in forgotten)
