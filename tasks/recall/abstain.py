"""Abstention: a calibrated "nothing relevant is known" signal beside the hit list.

Recall always returns its nearest items, so a question about something never said still gets a
confident-looking context. The signal here is the best hit's cosine to the query (the raw
similarity, independent of the keyword bonus and of the store's recency and importance mix),
compared with a threshold learned on labelled answerable questions by :func:`calibrate`: the highest one
that abstains on at most a given share of them.

A close hit can still be about the wrong person: in a conversation between people, "what did P say
about X" is often answered by what someone else said about X. :func:`misattributed` checks who: when
the question names exactly one of the hits' speakers, the hit whose words best match the question's
(names aside) must have been said by that person. Speakers come from the memories' provenance, so no
name is written into the rule; single-user stores (speaker "User") never trigger it.

A close hit can also be a near miss: "what is my hamster's name?" finds the cat the user named (cosine
0.6), so on LongMemEval-dev all five unanswerable questions looked confident. :func:`answers` asks the
shipped cross-encoder, which reads question and item together, whether any of the first items shown
answers it; its threshold is calibrated like the cosine's (``python -m evaluation.abstention``).

A question that names a time ("what did I buy last week?") is not answered by things of other times:
when no candidate lies in it (:mod:`tasks.recall.when`), the result says so (``untimely``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
import numpy.typing as npt

from tasks.dates import MONTHS
from tasks.models import RecallHit
from tasks.noun_senses import noun_lexicon
from tasks.providers.wording import content_words
from tasks.recall.lines import point_text
from tasks.textrules import ASKED, WEEKDAYS

#: What a context block says instead of padding with the nearest memories.
NOTHING_KNOWN = "Nothing relevant is known from past conversations."


@dataclass(frozen=True)
class RecallResult:
    """The ranked hits, and whether the best of them is close enough to trust."""

    hits: list[RecallHit] = field(default_factory=list)
    confident: bool = False
    top_cosine: float = 0.0
    #: The best-matching hit was said by someone other than the one person the question names.
    misattributed: bool = False
    #: The time the question names ("last week") when no candidate lies in it: the hits are of other
    #: times. Said beside them (:func:`nothing_from`), not folded into ``confident``: on LoCoMo-dev,
    #: whose questions say "last year" of the sessions they ask about, it cost 1.6% more abstentions.
    untimely: str | None = None
    #: The question as searched when a word of it was respelt as the memories spell it ("What events
    #: is Maria planning for the fundraiser?" for "funraiser"; :mod:`tasks.recall.spelling`), else None.
    searched_as: str | None = None
    #: The verbatim passages that cover the question beyond ``hits`` (issue 70), best first.
    evidence: list[RecallHit] = field(default_factory=list)
    #: The cross-encoder's best score of the question against the first items shown (:func:`answers`),
    #: when the cosine verdict was confident and the check is on; ``confident`` then also needs it to reach
    #: ``settings.recall_abstain_min_answer_score``. None when not computed.
    answer_score: float | None = None


def top_cosine(hits: Sequence[RecallHit]) -> float:
    """The best hit's cosine to the query (0 without hits)."""
    return max((float(h.score_parts.get("cosine", 0.0)) for h in hits), default=0.0)


def judge(
    hits: list[RecallHit],
    threshold: float,
    query: str | None = None,
    *,
    untimely: str | None = None,
    confirm: Callable[[], bool] | None = None,
) -> RecallResult:
    """Wrap ``hits`` with the abstention verdict at ``threshold`` (and, given the ``query``, attribution);
    ``untimely``: the time the question names, when nothing found lies in it; ``confirm``: a second
    opinion asked only when the words say misattributed (:mod:`tasks.recall.contrast`), False overrules."""
    best = top_cosine(hits)
    wrong = query is not None and misattributed(query, hits) and (confirm is None or confirm())
    return RecallResult(hits=hits, confident=bool(hits) and best >= threshold and not wrong, top_cosine=best,
                        misattributed=wrong, untimely=untimely)  # fmt: skip


_LEADING_PREPOSITION = re.compile(r"^(?:back\s+)?(?:in|during|on|around|over|through|of)\s+", re.I)


def nothing_from(phrase: str) -> str:
    """What a context says when the question's time holds nothing: "Nothing is known from June; ..."."""
    return f"Nothing is known from {_LEADING_PREPOSITION.sub('', phrase)}; the nearest memories are of other times."


#: Speakers that are roles, not people: a question never names them.
ROLE_SPEAKERS = frozenset({"", "user", "agent", "assistant", "system", "model"})
#: Hits looked at for attribution (recall's default k): deeper hits match the words by chance.
ATTRIBUTION_DEPTH = 10
_NAME_WORD = re.compile(r"[\w'’]+")
_POSSESSIVE = re.compile(r"['’]s?$")
_CALENDAR = frozenset([*MONTHS, *WEEKDAYS])
_DATE_WORD = re.compile(r"\b(?:\d+(?:st|nd|rd|th|s)?|[A-Z][a-z]+)\b")


def identifying_words(query: str) -> frozenset[str]:
    """The query's content words less its date: a date places the event, it does not say whose it is,
    and the write path writes absolute dates into memories, so "7 July 2023" matches anything of that
    month. Month and weekday names count only capitalised ("March", not "march")."""
    return content_words(_undated(query))


def _undated(query: str) -> str:
    return _DATE_WORD.sub(lambda m: " " if m[0][0].isdigit() or m[0].lower() in _CALENDAR else m[0], query)


def name_words(text: str) -> Iterator[tuple[int, str]]:
    """(where, word) for each word of ``text`` as a name would be said, without a possessive ("Nora's" → "Nora")."""
    for m in _NAME_WORD.finditer(text):
        yield m.start(), _POSSESSIVE.sub("", m[0])


def named_speakers(query: str, speakers: Iterable[str | None]) -> set[str]:
    """The ``speakers`` (people, not roles) that the query names as a whole name (possessives too): "Mei-Lin"
    and "Anne Marie" too (before round 42, read word by word, they were never found), not "Jean" in "Jean-Luc"."""
    people = {p for p in speakers if p and p.lower() not in ROLE_SPEAKERS}
    return {p for p in people if name_said(p).search(query)}


def name_said(person: str) -> re.Pattern[str]:
    """``person`` as a whole name in a text: not a part of a longer or hyphenated name ("Lin" is not in
    "Mei-Lin"); a possessive may follow ("Mei-Lin's")."""
    return re.compile(rf"(?<![\w'’-]){re.escape(person)}(?!\w|-\w)", re.I)


def looked_at(hits: Sequence[RecallHit]) -> list[RecallHit]:
    """The hits attribution reads: memories with a speaker among the first :data:`ATTRIBUTION_DEPTH`."""
    return [h for h in hits[:ATTRIBUTION_DEPTH] if h.kind == "memory" and h.speaker]


def misattributed(query: str, hits: Sequence[RecallHit]) -> bool:
    """True when the query names exactly one speaker P and the memory sharing the most content words
    with it (names and dates left out; the better-ranked one among equals) was said by someone other than P.

    No shared word at all means no evidence either way (False).
    """
    top = looked_at(hits)
    named = named_speakers(query, (h.speaker for h in top))
    if len(named) != 1:
        return False
    names = frozenset().union(*(content_words(h.speaker or "") for h in top))
    wanted = identifying_words(query) - names
    best, best_overlap = None, 0
    for hit in top:
        overlap = len(wanted & (content_words(hit.content) - names))
        if overlap > best_overlap:
            best, best_overlap = hit, overlap
    return best is not None and best.speaker not in named and not said_by_them_too(query, wanted, top, named)


def said_by_them_too(query: str, wanted: frozenset[str], top: Sequence[RecallHit], named: set[str]) -> bool:
    """True when a memory of the named person holds, in their own words (a quoted question aside), every
    thing the question names (two or more nouns): "When did P take part in the 5K charity run?" is theirs
    to answer when P set that run up, even if someone else's memory shares the verb too. A question
    asked of the wrong person names things that person never spoke of. Without WordNet: False."""
    things = question_things(query, wanted)
    return len(things) >= 2 and any(
        h.speaker in named and things <= content_words(ASKED.sub("", h.content)) for h in top
    )


def question_things(query: str, wanted: frozenset[str]) -> frozenset[str]:
    """Those of ``wanted`` (the query's identifying words, stemmed, names left out) that the query says as
    a noun WordNet knows or as a word with a digit ("5K")."""
    lexicon = noun_lexicon()
    if lexicon is None:
        return frozenset()
    found: set[str] = set()
    for _, word in name_words(_undated(query)):
        stems = content_words(word) & wanted
        if stems and (lexicon.bases(word.lower()) or any(c.isdigit() for c in word)):
            found |= stems
    return frozenset(found)


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


class PairScorer(Protocol):
    def scores(self, query: str, passages: Sequence[str]) -> npt.NDArray[np.float64]: ...


def answers(scorer: PairScorer, query: str, shown: Sequence[RecallHit], depth: int) -> float:
    """The best cross-encoder score of ``query`` against the first ``depth`` items as a prompt shows them
    (-inf without items)."""
    texts = [point_text(h) for h in shown[:depth]]
    return float(np.max(scorer.scores(query, texts))) if texts else float("-inf")
