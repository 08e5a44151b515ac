"""The values a forget request names verbatim, and which memories state them.

Shared by every consolidator: whatever decides which memories a request is about (rules or a model),
a value the user asked to forget goes from every memory of theirs that states it, deterministically.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tasks.models import ForgetRequest
from tasks.providers.wording import FORGET_WORDS, STOP, content_words, strip_annotation, tokens
from tasks.rows import MemoryRow

#: Words of a forget request that name the request or the user, never the value to forget.
_NOT_VALUE = FORGET_WORDS | STOP | frozenset({"user", "bit", "part", "fact", "detail", "details", "name"})


def forgotten_values(query: str) -> list[str]:
    """What a forget request names verbatim: proper names and identifiers ("I live in Nairobi" → Nairobi).

    A value the user asked to forget goes from every memory of theirs that states it, not only from the
    one most similar to the request: a passing remark ("grey all week here in Nairobi") would bring it back.
    """
    found = re.findall(r"\b[A-Z][\w'-]*(?: [A-Z][\w'-]*)*|\b[\w-]*\d[\w-]*", query)
    names = [re.sub(r"'s$", "", f) for f in found if f.split("'")[0].lower() not in _NOT_VALUE and f != "I"]
    return [n for n in names if len(n) > 1]


def states_value(memory: MemoryRow, request: ForgetRequest, values: Sequence[str]) -> str:
    """The forgotten value a memory of the same speaker states verbatim (whole words), else ""."""
    if not values or (memory.speaker or "").lower() != (request.speaker or "").lower():
        return ""
    text = strip_annotation(memory.content)
    hit = next((v for v in values if re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])", text)), None)
    return f"states the forgotten value {hit!r}" if hit else ""


#: A forget request that names a memory's words in another form ("forget my allergy" for "allergic to
#: cats") must also be this close to it: a shared stem alone is weak evidence for a deletion.
FAMILY_AT = 0.3


def same_family(a: str, b: str) -> bool:
    """Two words of one family, compared unstemmed: both of 5+ letters, sharing a prefix of 4+ letters
    that leaves at most 2 of the shorter one ("allergy" / "allergic", "smoking" / "smoker")."""
    if a == b:
        return True
    short = min(len(a), len(b))
    if short < 5:
        return False
    shared = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), short)
    return shared >= 4 and short - shared <= 2


def family_words(text: str, stems: frozenset[str]) -> set[str]:
    """The unstemmed words of ``text`` whose stems are in ``stems``."""
    return {w for w in tokens(text) if content_words(w) & stems}
