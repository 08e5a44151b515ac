"""What stays of a memory when a forget request says what to keep.

"You can keep that I'm a loan officer, but forget the salary number" matched "User works at Meridian Bank as
a loan officer and makes $85k" by its money words, and the whole memory went: the job the user asked to keep
too. A memory is read clause by clause (", ", " and ", "; "): the clauses holding a word of what is kept stay,
as a memory of their own, when the first clause (the one that says who) is among them; the rest goes. A
memory all of whose clauses hold it, and that says at most one word more, is what the user keeps and stays as
it is. Otherwise (the kept words only after the first clause, or in no clause) the whole memory goes: a
request to forget errs on the side of forgetting. Pure: no I/O.
"""

from __future__ import annotations

import re

from tasks.providers.wording import content_words, strip_annotation

CLAUSE = re.compile(r",\s+(?:and\s+|but\s+)?|\s+and\s+|\s*;\s+")
#: Words of a keep phrase that do not say what is kept ("I'm a loan officer", "the sober part").
_NOT_WHAT = frozenset(content_words("i'm i am my the part bit fact that stuff thing new"))
_SPEAKER = frozenset(content_words("user"))


def kept_of(content: str, keep: str) -> tuple[str | None, bool]:
    """(what stays of ``content``, whether that is all of it) for a request that keeps ``keep``: (None, False)
    when the whole memory goes."""
    wanted = content_words(keep) - _NOT_WHAT
    clauses = [c.strip() for c in CLAUSE.split(strip_annotation(content).rstrip(" .!")) if c.strip()]
    if not wanted or not clauses:
        return None, False
    kept = [c for c in clauses if wanted & content_words(c)]
    if len(kept) == len(clauses):  # all of it is what is kept, unless it says more ("earns 85k as a loan officer")
        said_more = content_words(strip_annotation(content)) - wanted - _SPEAKER
        return (content, True) if len(said_more) <= 1 else (None, False)
    if not kept or kept[0] != clauses[0]:
        return None, False
    return " and ".join(kept) + ".", False
