"""Word-level helpers every rule provider shares: content words, negation, change cues, annotations.

Kept apart from the consolidator and the change-cue rules so that each imports them without a cycle.
"""

from __future__ import annotations

import re
from functools import lru_cache

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def words(text: str) -> frozenset[str]:
    return frozenset(text.split())


STOP = words(
    """a an the and or but of to in on at for with by from as is are was were be been being am do does
    did has have had it its this that these those there here i me my mine we our you your he she they
    them his her their user who whom which what when where why how so very really just also too than
    then about into over up out some any all each every other s please"""
)
NEGATIONS = words("not no never nor none nobody nothing neither cannot dislikes dislike hates hate")
_CHANGE_CUES = (
    "no longer", "not anymore", "anymore", "any more", "switched to", "switched from", "instead of",
    "changed from", "changed to", "moved to", "now prefers", "now works", "now lives", "these days",
    "nowadays", "used to", "stopped", "quit",
)  # fmt: skip
#: Words that say "forget" rather than what to forget.
FORGET_WORDS = words(
    """forget forgot forgotten delete remove erase drop ignore remember don't dont mention anything
    everything stuff thing things said told mentioned info information know old previous former current"""
)
#: Head nouns that say what kind of thing is meant, not which ("my photography job", "my travel plans"):
#: a forget request's other words identify the memory, so these need not appear in it.
GENERIC_HEADS = words(
    """job jobs plan plans situation situations condition conditions issue issues problem problems habit
    habits history story news business matter matters life status detail details journey"""
)
#: Words whose "'s" is "is", "has" or "us", not a possessive ("it's great", "let's go").
_NOT_POSSESSORS = words("let here there what who where how that it he she everyone everything someone nobody somebody")
#: Verbs too common to identify a memory on their own ("forget that I like X": X identifies it).
LIGHT_VERBS = words(
    """like love prefer enjoy want use get go make think feel getting gets got gotten going goes went gone making
    made thinking thought feeling felt wanting wanted using used"""
)
_ANNOTATION = re.compile(r"\s*\((?:changed from|previously:|refined on)[^()]*\)\s*$")


def _stem(word: str) -> str:
    if len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    elif len(word) > 4 and word.endswith("ed"):
        word = word[:-2]
    elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    return word[:-1] if len(word) > 3 and word.endswith("e") else word


def tokens(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("’", "'"))


@lru_cache(maxsize=1 << 16)  # consolidation compares each memory's text with many facts: ~120k calls a LoCoMo-dev run
def content_words(text: str) -> frozenset[str]:
    """Stemmed words that carry meaning (no stop words, no negations, no contractions).

    A possessive counts as its noun ("my brother's job" names the brother); "it's", "let's" and other
    contractions do not."""
    found = (possessor(w) if "'" in w else w for w in tokens(text))
    return frozenset(_stem(w) for w in found if w and w not in STOP and w not in NEGATIONS)


def possessor(token: str) -> str:
    """``brother's`` -> ``brother``, ``parents'`` -> ``parents``; empty for contractions."""
    base = token[:-2] if token.endswith("'s") else token[:-1] if token.endswith("s'") else ""
    return "" if "'" in base or base in _NOT_POSSESSORS else base


def is_negated(text: str) -> bool:
    """Odd number of negations: "does not like" vs "likes"; double negation cancels out."""
    count = sum(1 for w in tokens(text) if w in NEGATIONS or w.endswith("n't"))
    return count % 2 == 1


def has_change_cue(text: str) -> bool:
    lowered = f" {text.lower()} "
    return any(f" {cue} " in lowered or f" {cue}," in lowered or f" {cue}." in lowered for cue in _CHANGE_CUES)


def strip_annotation(content: str) -> str:
    """Drop a previous "(changed from …)" note so that notes never nest."""
    return _ANNOTATION.sub("", content).strip()


#: Capitalised only because they open the sentence: never a name.
OPENERS = words(
    """around about maybe perhaps sure yes yeah nope also still almost just only even soon later tomorrow today
    tonight yesterday anyway every most some many lots plenty nothing everything something somewhere nobody none
    not no never always often sometimes once twice after before since until during except"""
)
