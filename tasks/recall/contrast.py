"""Attribution by contrast: does the question fit someone else better than the person it names?

:func:`tasks.recall.abstain.misattributed` reads words: the memory sharing the most of the question's
words was said by someone else. Words mislead both ways. A person's answer to the other's question
quotes that question ("(Asked by P: "How long have you been creating art?") O: Since I was 17"), and
two friends both run a 5K; yet a question that swaps one person's life for the other's ("What did P
realize after her charity race?" when O ran it) shares its words with O's memories.

With a cross-encoder at hand the check asks the reader instead: the question as asked, against the
named person's memories (the reranker has scored them already), and the same question with the other
person's name in its place, against that person's memories. The misattribution stands only when the
other person's best answer to "their" question beats the named person's best answer to the question.
No threshold is learned: the two logits are of one model on one kind of pair.

Built on LoCoMo-dev (its three conversations all looked at; the rule has no parameter to fit). One full
run, reranked: answerable questions abstained on 7 → 2 of 383, unanswerable ones answered 0.464 → 0.500.
The two left are questions where both people did the thing (both ran a charity 5K); since round 42 the word
check lets them be (:func:`tasks.recall.abstain.said_by_them_too`) and the contrast is not asked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from tasks.models import RecallHit
from tasks.recall.abstain import ROLE_SPEAKERS, looked_at, name_said, named_speakers
from tasks.recall.cross_encoder import CrossEncoderReranker, PairScorer
from tasks.recall.lines import point_text
from tasks.settings import Settings

#: The other person's memories read with the swapped question, best-ranked first: the experiment's depth
#: (the reranker reads 40 candidates of every kind, so ~20 of one person's memories at most).
OTHER_DEPTH = 20


def swapped(query: str, person: str, other: str) -> str:
    """``query`` asked of ``other``: each whole-word ``person`` (possessives too, not a part of a
    hyphenated name) becomes ``other``."""
    return name_said(person).sub(lambda _: other, query)


def other_fits_better(
    query: str, basis: Sequence[RecallHit], pool: Sequence[RecallHit], reranked: Sequence[RecallHit], scorer: PairScorer
) -> bool:
    """True when someone else's memories answer the question, asked of them, better than the named
    person's answer it as asked.

    ``basis`` is what attribution was judged on (its people are the ones compared), ``pool`` the
    candidates in the first stage's order (each other person's best-ranked memories are read from it),
    ``reranked`` the reranker's list, whose ``score_parts["rerank"]`` logits give the named person's best.
    True also when it cannot tell (not exactly one person named, no other person's memory): the word
    check's verdict stands.
    """
    speakers = [h.speaker for h in looked_at(basis) if h.speaker]
    named = named_speakers(query, speakers)
    if len(named) != 1:
        return True
    (person,) = named
    own = max((h.score_parts["rerank"] for h in reranked if h.speaker == person and "rerank" in h.score_parts),
              default=float("-inf"))  # fmt: skip
    best: float | None = None
    for other in dict.fromkeys(s for s in speakers if s != person and s.lower() not in ROLE_SPEAKERS):
        theirs = [point_text(h) for h in pool if h.kind == "memory" and h.speaker == other][:OTHER_DEPTH]
        if theirs:
            score = float(scorer.scores(swapped(query, person, other), theirs).max())
            best = score if best is None else max(best, score)
    return best is None or best > own


def second_opinion(
    settings: Settings, reranker: object, asked: str, basis: list[RecallHit], pool: list[RecallHit],
    reranked: list[RecallHit],
) -> Callable[[], bool] | None:  # fmt: skip
    """:func:`other_fits_better` as a deferred check for :func:`tasks.recall.abstain.judge` (run only when
    the words say misattributed); None when ``settings.recall_attribution_contrast`` is off or the
    reranker is not the cross-encoder."""
    if not settings.recall_attribution_contrast or not isinstance(reranker, CrossEncoderReranker):
        return None
    return partial(other_fits_better, asked, basis, pool, reranked, reranker.encoder)
