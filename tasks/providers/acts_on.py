"""A short first-person clause that does something to a thing ("We foster kittens", round 41).

A clause no rule reads is kept when it has enough words of its own; three were needed, and "We homeschool our
kids" (two: "homeschool", "kids") was lost. A person, a verb and a noun it acts on say enough.
"""

from __future__ import annotations

import re

from tasks.wordnet import index_lemmas

#: "We foster kittens", "I homeschool my kids", "we rent a flat": a person, a verb and what it is done to.
_ACTS_ON = re.compile(
    r"^\W*(?:I|we)\s+(?:\w+\s+)?(?P<verb>[a-z]+)\s+(?:(?:my|our|the|a|an|two|three|own)\s+){0,2}(?P<obj>[a-z]+)\W*$",
    re.I,
)


def acts_on_a_thing(clause: str) -> bool:
    """A short first-person clause whose verb acts on a noun: two words of content say something of the user
    (three were needed, and "We homeschool our kids" was lost); "I mean whatever" names no thing."""
    found = _ACTS_ON.match(clause)
    if found is None:
        return False
    verb, obj = found["verb"].lower(), found["obj"].lower()
    nouns = index_lemmas("noun")
    singular = obj[:-1] if obj.endswith("s") else obj
    return bool(nouns) and (obj in nouns or singular in nouns) and obj not in _NOT_THINGS and verb not in _NOT_THINGS


#: Words that take a noun's place without naming a thing, and verbs of talk that say nothing of the user.
_NOT_THINGS = frozenset({
    "whatever", "something", "anything", "everything", "nothing", "thing", "things", "stuff", "lot", "bit", "way",
    "time", "mean", "guess", "think", "know", "agree", "hope", "bet", "it", "that", "this", "them", "those", "these",
    "one", "so", "too", "all",
})  # fmt: skip
