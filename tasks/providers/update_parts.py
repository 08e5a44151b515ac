"""What of a memory a new value does not replace: "User is vegetarian and allergic to peanuts", then "vegan".

A sentence of two facts is often one memory, filed under the slot of the first ("User lives in Leeds and work
at Monzo."). When a later value of that slot supersedes it, the clauses that say neither the old value nor
anything of the new statement are not what changed: they are returned, each said with the memory's subject,
to be kept as a memory of their own. A clause is a piece between ", ", " and " and "; " (as
:mod:`tasks.providers.forget_parts` reads one). Pure: no I/O.
"""

from __future__ import annotations

import re

from tasks.providers.amounts import amount_changed
from tasks.providers.forget_parts import CLAUSE
from tasks.providers.wording import content_words, strip_annotation
from tasks.third_person import third_person
from tasks.wordnet import index_lemmas, verb_base

#: The subject a clause opens with: "User", "User's sister", a name ("Nora").
_SUBJECT = re.compile(r"^((?:User|[A-Z][\w-]+)(?:'s [\w-]+)?)\s+(\S+)")
#: A clause that says more of the clause before it, not a fact of its own: "near the station", "mostly on
#: search", "since 2019" (it goes with what changed).
_DETAIL = re.compile(
    r"^(?:near|in|on|at|with|since|for|from|by|around|about|close|next|right|mostly|mainly|usually|often|just"
    r"|only|which|who|where|when|so|because|though|although|while|as|until|like|including|especially)\b",
    re.I,
)
_BE = frozenset({"is", "was", "has", "had", "will", "can", "'s"})
_OWN_SUBJECT = re.compile(r"^(?:User|[A-Z][\w-]+)\b")
_FIRST_PERSON = re.compile(r"^(?:my|I|I'm|I've|our|we|we're)\b", re.I)


def same_attribute(new_slot: str | None, old_slot: str | None) -> bool:
    """Two facts give values of one attribute: the same lexicon slot ("location", "preference:diet"), not the
    same generic frame ("about:live"), which only says how a sentence was put."""
    return bool(new_slot) and new_slot == old_slot and not (new_slot or "").startswith("about:")


def unchanged_part(old: str, old_value: str | None, new: str) -> str | None:
    """The clauses of ``old`` a new statement ``new`` replacing ``old_value`` leaves as they were, as one
    sentence with the memory's subject; None when every clause is about the change (or there is one clause)."""
    clauses = [c.strip() for c in CLAUSE.split(strip_annotation(old).rstrip(" .!")) if c.strip()]
    if len(clauses) < 2 or (subject := _SUBJECT.match(clauses[0])) is None:
        return None
    said = content_words(subject[1])
    # what changed: the old value, and what the new statement says that the old first clause did not
    changed = content_words(old_value or "") | (content_words(strip_annotation(new)) - content_words(clauses[0]))
    rest = [
        c for c in clauses[1:]
        if not (content_words(c) - said) & changed and _is_fact(c, said)
        and amount_changed(strip_annotation(new), c) is None  # "at 82kg" after "down to 79kg": what changed
    ]  # fmt: skip
    if not rest or not (content_words(clauses[0]) - said) & changed:  # the first clause is what changed
        return None
    return " and ".join(_with_subject(c, subject[1], subject[2]) for c in rest) + "."


def _is_fact(clause: str, subject_words: frozenset[str]) -> bool:
    """A clause that says a fact of its own: two content words at least, opening with a subject, a verb or an
    adjective ("allergic to peanuts", "work at Monzo"); not a detail of the clause before ("near the
    station") nor an aside to the listener ("don't judge")."""
    first = clause.split(maxsplit=1)[0].lower()
    said = _OWN_SUBJECT.match(clause) or _FIRST_PERSON.match(clause)
    opens = said is not None or verb_base(first) is not None or first in index_lemmas("adj")
    return len(content_words(clause) - subject_words) >= 2 and opens and not _DETAIL.match(clause)


def _with_subject(clause: str, subject: str, verb: str) -> str:
    """``clause`` said by ``subject``: as it is when it has its own ("User works at X"); "work at X" →
    "User works at X"; "allergic to peanuts" → "User is allergic to peanuts" (the first clause's "is")."""
    if _OWN_SUBJECT.match(clause):
        return clause
    if _FIRST_PERSON.match(clause):  # "my favourite food is sushi", left as said by the rule that read the first
        return third_person(clause, "User")
    first = clause.split(maxsplit=1)[0]
    if verb_base(first) is not None and subject == "User":
        return third_person(f"I {clause}", "User")
    if verb_base(first) is not None:
        return f"{subject} {clause}"
    return f"{subject} {verb if verb in _BE else 'is'} {clause}"
