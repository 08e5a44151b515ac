"""What a negated clause negates: the words after its negation, and their head.

"Carlos can't drive" is about driving, not every memory naming Carlos; "not a morning person" is about a
person who is or is not a morning one. The change cues read a negation's reach from here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tasks.providers.statements import STRONG_CUE, WEAK_CUE
from tasks.providers.wording import content_words, is_negated

#: Where a clause's negation starts: what it negates follows ("Carlos can't *drive*", "not *in Oslo* any more").
_NEGATION = re.compile(r"\b(?:not|never|no|nobody|nothing|none|neither|nor)\b|n't\b", re.I)

_CLAUSE_BREAK = re.compile(r"[,;:()]|\s-\s|\s(?:so|and|but|because|while)\s")


def negated_spans(text: str) -> list[tuple[str, bool]]:
    """What each negated clause negates: (its words after the negation, True) — "Carlos can't drive" is
    about driving, not every memory naming Carlos — or (the whole clause, False) with no negation word."""
    spans: list[tuple[str, bool]] = []
    for clause in _CLAUSE_BREAK.split(text):
        if is_negated(clause):
            m = _NEGATION.search(clause)
            spans.append((clause[m.end() :], True) if m else (clause, False))
    return spans


#: Where a negated phrase ends once it has a word: "can't drive | since the accident".
_PHRASE_END = re.compile(r"\b(?:since|after|before|until|for|in|at|on|with|from|to|because|when|as)\b", re.I)


def negated_heads(spans: Iterable[str]) -> frozenset[str]:
    """The last content word of each negated phrase, its head ("not a morning person" → person,
    "can't drive since the accident" → drive): what the negation is about, said by a memory it changes."""
    heads: set[str] = set()
    for span in spans:
        words: list[str] = []
        for word in re.findall(r"[\w']+", STRONG_CUE.sub("", WEAK_CUE.sub("", span))):
            if words and _PHRASE_END.fullmatch(word):
                break
            words += [word] if content_words(word) else []
        heads |= content_words(words[-1]) if words else set()
    return frozenset(heads)
