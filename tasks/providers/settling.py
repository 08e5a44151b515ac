"""What else a new statement settles besides the memory it changes (``Decision.closes``).

"Moved to Warsaw!" changes where the user lives, and it also carries out "is moving to Warsaw in June",
which would otherwise stay current beside the new home. Three shapes settle a memory: a plan carried out
or work finished (:func:`~tasks.providers.sameness.carries_out`, :func:`~tasks.providers.statements.finishes`);
an attribute changed to the value a plan was heading to ("User lives in Warsaw"); and something arranged
for a day after it was said, told later as done ("Went to the dentist today" for "has a dentist appointment
on Friday").
"""

from __future__ import annotations

import re

from tasks.dates import stated_spans
from tasks.providers.sameness import carries_out, done, done_object, heading_to
from tasks.providers.statements import PLAN_WORDS, finishes
from tasks.providers.wording import content_words, strip_annotation
from tasks.rows import MemoryRow
from tasks.textrules import RESOLVED_DATE, WEEKDAYS

#: Lowest cosine at which something told as done is what a memory had arranged.
HAPPENED_AT = 0.6
#: A day named for something arranged: "on Friday", "next Thursday", "on 14 March".
_DAY = re.compile(
    rf"\b(?:on|next|this) (?:{'|'.join(WEEKDAYS)})\b|\bon \d{{1,2}}(?:st|nd|rd|th)? [A-Z][a-z]+\b(?! \d{{4}})", re.I
)


def settles(fact: str, memory: MemoryRow, said: str, similarity: float, new_value: str = "") -> bool:
    """``fact`` settles ``memory`` (which says ``said``, its claim): see the module's three shapes."""
    if carries_out(fact, said) is not None or finishes(fact, said):
        return True
    if new_value and heading_to(said, new_value):
        return True
    return similarity >= HAPPENED_AT and _happened(fact, memory, said)


def _happened(fact: str, memory: MemoryRow, said: str) -> bool:
    """``said`` arranged something ahead (a plan's words, or a day after it was said) that ``fact`` tells
    as done, what was done being what was arranged ("went to the dentist", "passed the MRCP")."""
    did = done_object(fact)
    if not did or done(said) or re.search(r"[.!?]\s+\S", said.strip()):  # one arrangement, not a story
        return False
    ahead = any(start.date() > memory.stated_at.date() for start, _ in stated_spans(strip_annotation(memory.content)))
    if not (ahead or _DAY.search(said)):
        return False
    arranged = content_words(PLAN_WORDS.sub(" ", RESOLVED_DATE.sub(" ", said)))
    return did <= arranged  # what was done is what was arranged: "the dentist", "User's driving test"
