"""Whether a memory is of an area of a life, read from what its nouns are in WordNet, not from a word list.

"Forget all my health stuff" must reach "User's doctor put User on blood thinners" and "User is recovering
from pneumonia"; the area lexicon of :mod:`tasks.providers.forget_areas` lists the words its authors thought
of and misses the rest (on the forget probe's HELD-OUT halves, the memory meant was no member of the area
named in 24 of 55 request-memory pairs). WordNet knows that pneumonia is an illness, sertraline a medicine,
a mortgage an asset, shoplifting a crime and a greyhound a domestic animal: a memory is of an area when one of
its nouns, in its first sense (WordNet orders senses by frequency), lies below one of the area's anchors.

Anchors are WordNet synsets named by (lemma, sense number); only areas whose things WordNet files under a few
clear classes have any. Nouns only, first sense only: "the bank" is a slope first and stays out of money;
"User works as a nurse" is not health (a health professional is a job, not an illness).
"""

from __future__ import annotations

import re
from functools import cache
from itertools import pairwise

from tasks.noun_senses import NounLexicon, noun_lexicon

#: Per area (the names of :data:`tasks.providers.forget_areas.AREAS`), the synsets whose narrower ones are of it.
ANCHORS: dict[str, tuple[tuple[str, int], ...]] = {
    "health": (("ill_health", 1), ("symptom", 1), ("medicine", 2), ("drug", 1), ("medical_science", 1),
               ("injury", 1), ("disorder", 1), ("medical_care", 1), ("medical_procedure", 1)),
    "money": (("possession", 2), ("financial_obligation", 1)),
    "legal": (("crime", 1), ("proceeding", 1), ("penal_institution", 1), ("punishment", 1)),
    "work": (("occupation", 1), ("workplace", 1), ("employee", 1), ("employer", 1)),
    "religion": (("religion", 1), ("religion", 2), ("religious_person", 1), ("clergyman", 1),
                 ("place_of_worship", 1), ("worship", 1), ("religious_ceremony", 1)),
    "dating": (("lover", 1), ("love_affair", 1)),
    "pets": (("domestic_animal", 1),),
    "vehicle": (("vehicle", 1),),
}  # fmt: skip
_WORD = re.compile(r"[a-z][a-z'-]*")


def of_area(area: str, text: str) -> bool:
    """True when a noun of ``text`` (one word or two, in its first sense) lies below one of ``area``'s anchors;
    False for an area without anchors or without WordNet."""
    lex = noun_lexicon()
    anchors = _anchors(area) if lex is not None else frozenset()
    if lex is None or not anchors:
        return False
    words = [w.strip("'-") for w in _WORD.findall(text.lower())]
    grams = words + [f"{a}_{b}" for a, b in pairwise(words)]  # "credit_card", "blood_thinner"
    return any(_first_sense_above(lex, gram) & anchors for gram in grams)


def _first_sense_above(lex: NounLexicon, word: str) -> set[int]:
    """What lies above the first sense of the noun ``word`` may be (empty when it is no noun)."""
    for base in lex.bases(word)[:1]:
        senses = lex.senses.get(base, ())
        if senses:
            return _above(senses[0])
    return set()


@cache
def _above(synset: int) -> set[int]:
    lex = noun_lexicon()
    return lex.above(synset) if lex is not None else set()


@cache
def _anchors(area: str) -> frozenset[int]:
    lex = noun_lexicon()
    if lex is None:
        return frozenset()
    return frozenset(
        lex.senses[lemma][n - 1] for lemma, n in ANCHORS.get(area, ()) if len(lex.senses.get(lemma, ())) >= n
    )
