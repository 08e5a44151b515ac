"""The memory a forget request points at when its words name none: the one that stands out.

People rarely repeat what they said when they take it back: "that thing about my brother's run-in with
the cops" means "User's brother Anselm was arrested for shoplifting in Reno"; "the dropout thing" means
"User dropped out of community college". No rule on words ties the two, and no absolute cosine does
either (0.2-0.6 for the memory meant, while unrelated memories reach 0.3). What does tie them is rank:
among the user's memories, the one meant is the nearest to the request by a clear margin, as a person
would pick the one thing the user can be talking about. When two memories are about as near, the
request is ambiguous and nothing is deleted on rank (the other rules still apply).

Measured on the forget probe's DEV halves (sets 1-3, the request's target against the statements said
before): the nearest statement was the one meant in 82 of 82 requests whose margin was at least 0.1;
on the HELD-OUT halves, counted only, 53 of 55.
"""

from __future__ import annotations

from collections.abc import Sequence

from tasks.providers.base import ScoredMemory
from tasks.providers.forget_values import same_family
from tasks.providers.wording import FORGET_WORDS, GENERIC_HEADS, STOP, content_words, strip_annotation, tokens
from tasks.wordnet import index_lemmas

#: The nearest memory must be at least this near (cosine) to be the one meant ...
POINTED_FLOOR = 0.25
#: ... and nearer than every other memory by this much.
POINTED_MARGIN = 0.12


#: Words of a request that name neither the thing nor its kind ("the bit about", "that whole thing").
_FILLER = FORGET_WORDS | STOP | GENERIC_HEADS | frozenset({"part", "bit", "bits", "whole", "pls", "please", "fr"})


def pointed_at(related: Sequence[ScoredMemory], target: str) -> tuple[ScoredMemory, float] | None:
    """The memory ``related`` (a request's candidates with their cosine to it) singles out, and its margin
    over the next; None when none stands out, or when it is another thing of the kind ``target`` names."""
    ranked = sorted(related, key=lambda s: -s.similarity)
    if not ranked or ranked[0].similarity < POINTED_FLOOR:
        return None
    margin = ranked[0].similarity - (ranked[1].similarity if len(ranked) > 1 else 0.0)
    if margin < POINTED_MARGIN or another_of_its_kind(target, ranked[0].memory.content):
        return None
    return ranked[0], margin


def another_of_its_kind(target: str, memory: str) -> bool:
    """True when the memory has the kind the request names but not the noun that sets it apart: "my cat
    allergy" against "User is allergic to peanuts" (the user never said the one they take back); "the weekly
    meeting" is still "an AA meeting every Tuesday" (a describing word, not another kind)."""
    words = [w for w in tokens(target) if content_words(w) and w not in _FILLER]
    said = [w for w in tokens(strip_annotation(memory)) if content_words(w)]
    if len(words) < 2 or not any(same_family(words[-1], m) for m in said):
        return False
    nouns, adjectives = index_lemmas("noun"), index_lemmas("adj")
    kinds = [w for w in words[:-1] if w in nouns and w not in adjectives]
    return any(not any(same_family(w, m) for m in said) for w in kinds)
