"""A user's sentence said without its subject means "I": chat drops it ("Grabbed lunch with Priya",
"Worried about the exam", "No time for breakfast these days"). The rewrite about the speaker needs it
back, or the memory reads "User mentioned that Grabbed lunch with Priya".

The past forms are the English irregular verbs as a whole (:data:`tasks.third_person.IRREGULAR_PAST`)
and any regular "-ed" word but an "-eed" base form (:func:`tasks.third_person.base_form`: "Speed",
"Indeed"), less what opens a sentence as something else: a present or imperative form ("Set a
reminder", "Let me know"), a noun, a name or a day ("Rose", "Ground beef", "Sat"), a name ending in
"-ed" ("Fred is coming over": a name is followed by its verb).
"""

from __future__ import annotations

import re
from collections.abc import Collection

from tasks.textrules import content_words
from tasks.third_person import IRREGULAR_PAST, base_form

#: Past forms that open a sentence as a present or imperative form, a noun, a name or a day.
_NOT_OPENING_PAST_TEXT = (
    "bet bid bit bore bound burst cast cost cut dove fed ground hit hurt lent let lit put read rose sat set shed "
    "shut slit split spread thrust upset wed wound bade"
)
_NOT_OPENING_PAST = frozenset(_NOT_OPENING_PAST_TEXT.split())
#: Participles that say how the speaker is ("Worried about the exam" is "I'm worried"), before a
#: preposition, "that" or the sentence's end; before an object they are verbs ("Married Sam in 2019").
_STATES = (
    "worried|excited|bored|tired|stressed|thrilled|scared|terrified|pleased|obsessed|exhausted|interested|"
    "annoyed|frustrated|disappointed|surprised|shocked|amazed|relieved|confused|overwhelmed|depressed|"
    "motivated|inspired|impressed|embarrassed|satisfied|married|engaged|divorced|retired|stuck|upset|done|"
    "based|located|supposed|allowed|convinced|determined|prepared|qualified|addicted|hooked|involved"
)
_AM = re.compile(
    r"(?:(?:so|really|super|very|pretty|quite|a bit|kinda|totally|still|now|finally|just) )?"
    rf"(?:{_STATES})(?=\s*(?:$|[,.!;:-]|(?:about|for|with|by|of|to|at|in|on|that|from|after|because|since|"
    r"now|today|lately|again|already)\b))",
    re.I,
)
#: Verbs the subjectless sentence starts with before anything ("Had Thai again", "Can't stand X").
_ALWAYS = (
    r"can't|cannot|couldn't|won't|wasn't|haven't|had|was|been|got|went|loved?|hated?|needed|spent|finished|started|"
    r"bought|moved|switched|changed|sold|quit|stopped|gave up|upgraded|downgraded|migrated|relocated|traded"
)
_PAST = "|".join(sorted(IRREGULAR_PAST - _NOT_OPENING_PAST, key=len, reverse=True))
#: What follows a name, not a verb: "Fred is coming", "Ahmed said", "Hung and I".
_NAME_NEXT = r"(?:is|was|are|were|has|had|have|will|would|can|could|and|or|says|said|told|asked|'s)\b"
_I = re.compile(
    rf"(?:(?:just|recently|finally|also|since) )?(?:{_ALWAYS}"
    r"|\w+ed(?= (?:the|a|an|my|our|it|that|this|those|these|some)\b)"  # "Upgraded the plan"
    rf"|(?:{_PAST})(?= (?!{_NAME_NEXT})[\w$£€])"  # "Caught up with Marco", "Ran 10k"
    rf"|[a-z]{{3,}}ed(?= (?!{_NAME_NEXT}|\w+ed\b)[\w$£€]))\s",  # "Grabbed lunch", not "Fred called"
    re.I,
)
#: "No car at the moment": what the user has none of ("no worries", "no prob", "no idea" are not about them).
_HAVE_NO = re.compile(r"no (?!more\b|longer\b|worries\b|problems?\b|prob\b|biggie\b|idea\b|way\b|thanks\b)\w+", re.I)


def with_subject(body: str, names: Collection[str] = ()) -> str | None:
    """``body`` (a statement, filler removed) with the "I" it leaves out, or None when it has a subject.

    ``names`` are people the user has named before: a sentence that opens with one has its subject.
    """
    if body.endswith("?") or not body:
        return None
    first = body.split(maxsplit=1)[0].strip(",.!;:").lower()
    if first in {n.lower() for n in names}:
        return None
    lowered = body[:1].lower() + body[1:]
    if _AM.match(body):
        return f"I'm {lowered}"
    if (m := _I.match(body)) and not base_form(m[0].split()[-1].lower()):  # "Speed dating", "Indeed"
        return f"I {lowered}"
    if _HAVE_NO.match(body) and len(content_words(body)) >= 2:
        return f"I have {lowered}"  # "No time for breakfast these days"
    return None
