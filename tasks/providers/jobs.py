"""Where the user works: a job told as taken or started is a new employer, and the employer is read the
same from "works at X" (the employer slot) and "works as a nurse at X" (the occupation slot).

Round 21's probe: "Started at the Royal Free as a ward sister this week!" left "works as a nurse at St
Mary's hospital" current, because the start was not read as a job at all, and an occupation memory has
another slot than an employer fact. Kept apart from the extraction rules, which are at their line budget.
"""

from __future__ import annotations

import re

from tasks.models import Fact
from tasks.providers.wording import strip_annotation
from tasks.rows import MemoryRow

#: The slots a job is told under: "works at X" and "works as a nurse at X".
JOB_SLOTS = frozenset({"employer", "occupation"})
#: Occupations the extraction rules name after "I'm a" and "work as".
JOBS = (
    "engineer", "developer", "teacher", "nurse", "doctor", "designer", "lawyer", "student", "manager",
    "accountant", "scientist", "writer", "artist", "chef", "architect", "consultant", "analyst",
    "researcher", "programmer", "photographer", "musician", "counselor", "therapist", "pilot",
    "firefighter", "dentist", "pharmacist", "journalist", "professor", "mechanic", "electrician",
    "baker", "barista", "plumber", "carpenter", "paramedic", "veterinarian", "physician", "surgeon",
    "physiotherapist", "psychologist", "librarian", "cashier", "driver", "translator", "editor",
    "entrepreneur", "freelancer", "intern", "data scientist", "product manager", "social worker",
)  # fmt: skip
#: More heads of a role after an explicit "as a" ("joined X as a ward sister"): words that name a job
#: only there ("I'm a big sister" is no job).
_ROLE_HEADS = (
    "sister", "officer", "assistant", "director", "technician", "coordinator", "specialist", "supervisor",
    "administrator", "adviser", "advisor", "associate", "clerk", "receptionist", "carer", "tutor", "lecturer",
    "midwife", "vet", "waiter", "waitress", "bartender", "cook", "recruiter", "lead", "head", "partner",
)  # fmt: skip
_EMPLOYER = r"(?:the )?([A-Z][\w'&-]*(?: [A-Z][\w'&-]*){0,3})"
_ROLE = rf"(?: as (?:an? )?((?:[\w-]+ ){{0,2}}(?:{'|'.join(JOBS + _ROLE_HEADS)})s?)\b)?"
_I = r"\bI(?:'ve| have)? (?:just |recently |finally |officially )?"
#: A job taken or begun: "started (work / my new job) at X", "joined X as a …" (a role is what makes
#: "joined" a job: "joined a running club" is not), "accepted the job at X", "accepted the X offer" (an offer
#: only got is no job yet, nor is a university's).
_STARTS = (
    re.compile(rf"{_I}(?:started|began) (?:(?:a |my )?(?:new )?(?:job|position|role) |work(?:ing)? )?(?:at|with) "
               rf"{_EMPLOYER}{_ROLE}"),
    re.compile(rf"{_I}joined {_EMPLOYER}(?= as an? ){_ROLE}"),
    re.compile(rf"{_I}(?:got|accepted|took|landed) (?:the |a |an |my )?(?:new )?(?:job|position|role) "
               rf"(?:at|with) {_EMPLOYER}{_ROLE}"),
    re.compile(rf"{_I}(?:accepted|took) (?:the |an |their )?(?:job )?offer (?:from|at|with) {_EMPLOYER}{_ROLE}"),
    re.compile(rf"{_I}(?:accepted|took) the {_EMPLOYER} (?:job )?offer{_ROLE}"),
)  # fmt: skip
_AT = re.compile(rf"\b(?:at|for) {_EMPLOYER}")


def started_job(said: str) -> re.Match[str] | None:
    """The employer (group 1) and role (group 2, optional) of a job the speaker says they took or began."""
    return next((m for form in _STARTS if (m := form.search(said))), None)


def with_article(role: str) -> str:
    """ "an accountant", "a nurse", "a UX designer", "an MP", "a university lecturer": the article a role
    takes, by the sound it starts with (an acronym is said letter by letter)."""
    first = role.split()[0] if role.split() else role
    if len(first) > 1 and first.isupper():
        vowel = first[0] in "AEFHILMNORSX"
    else:
        low = first.lower()
        vowel = low[:1] in "aeiou" and not low.startswith(("uni", "use", "usu", "ure", "eu", "one"))
        vowel = vowel or low.startswith(("hour", "honest", "honour", "heir"))
    return f"{'an' if vowel else 'a'} {role}"


def employer_of(slot: str | None, value: str | None, content: str) -> str | None:
    """The employer a job memory names: the employer slot's value, or the "at X" of an occupation."""
    if slot == "employer":
        return value
    if slot == "occupation" and (m := _AT.search(content)):
        return m[1]
    return None


def _norm(name: str) -> str:
    return re.sub(r"^the |[^\w ]|\b(?:hospital|ltd|inc|plc)\b", "", name.lower()).strip()


def job_changed(fact: Fact, memory: MemoryRow) -> tuple[str, str] | None:
    """(old, new) employer when a job fact names another employer than a job memory, across the employer
    and occupation slots; None when either names none or both name the same ("St Mary's hospital"), and
    between two employer facts, whose change the slot itself tells ("changed from Google")."""
    if fact.slot == memory.slot == "employer":
        return None
    new = employer_of(fact.slot, fact.value, fact.content)
    old = employer_of(memory.slot, memory.value, strip_annotation(memory.content))
    if new is None or old is None:
        return None
    a, b = _norm(new), _norm(old)
    return None if a == b or a.startswith(b) or b.startswith(a) else (old, new)
