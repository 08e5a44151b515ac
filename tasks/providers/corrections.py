"""A correction told in a later session rewrites the memory it corrects.

Probe 9 (round 22): "Priya and I are moving in together in June!", then a month later "actually it's July
not June, her lease runs longer": the plan was replaced by "User mentioned that it's July not June, her lease
runs longer", so no current memory said they were moving in together. Now the old memory is told again
with its value corrected ("User and Priya are moving in together in July!"). A correction may also admit the
mistake and tell the thing again ("got my dates muddled, Isla's party is Sunday the 22nd"): each value it gives
anew replaces the one of its kind in the memory. Within one session the
write path already does this ("Scratch that, it's Tuesday": :func:`~tasks.providers.statements.retraction`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tasks.dates import MONTH_NAMES
from tasks.models import Fact
from tasks.providers.base import ScoredMemory
from tasks.providers.sameness import TELLING_FRAME
from tasks.providers.wording import content_words, strip_annotation
from tasks.rows import MemoryRow
from tasks.textrules import WEEKDAYS

#: "X, not Y" as a correction says it: "it's October not September", "pottery is on Wednesdays, not
#: Tuesdays", "User meant the 19th not the 9th". Y is what the old memory said.
_NOT = re.compile(r"(?P<before>.*?\S),? not (?P<old>(?:the )?[\w'-]+(?: [\w'-]+)?)(?=[,.;!?]|$)")
#: The frame of a correction: "it's X", "I meant X", "correction:", "sorry". Anything else saying "X, not
#: Y" ("I'm vegetarian, not vegan") is a statement of its own.
_CORRECTING = re.compile(
    rf"{TELLING_FRAME}(?:(?:correction|sorry|oops|my bad)\b|it['’]s |it is |User (?:meant|means?) |they meant )",
    re.I,
)
#: "it's Wednesdays User cycles, not Thursdays": the cleft's own word is the new value.
_CLEFT = re.compile(r"\bit(?:['’]s| is) (?P<new>(?:the )?[\w'-]+)\b")


def correction(text: str) -> tuple[str, str] | None:
    """(new value, old value) of a correction ("it's July not June" → ("July", "June")), else None."""
    said = _NOT.search(text) if " not " in text else None  # the test first: the pattern's lazy prefix is slow
    if said is None:
        return None
    placed = re.search(r"(?:['’]s|\bis|\bare) (?:on|at|in) (?:the )?[\w'-]+$", said["before"])
    if not (_CORRECTING.match(text) or placed):  # "the party's on Sunday not Saturday"
        return None
    old = said["old"]
    cleft = _CLEFT.search(said["before"])
    if cleft is not None and cleft.end() < len(said["before"]):  # "it's Wednesdays User cycles"
        new = cleft["new"]
    else:  # as many words before "not" as after it: "the 19th not the 9th", "October not September"
        words = said["before"].split()
        new = " ".join(words[-len(old.split()) :]).strip(",")
    if new.lower() == old.lower() or not re.search(r"\w", new):
        return None
    return new, old


def corrected(memory: str, new: str, old: str) -> str | None:
    """``memory`` with its ``old`` value told as ``new`` (in the memory's own capitals), or None when it
    does not say ``old``."""
    found = re.search(rf"\b{re.escape(old)}\b", memory, re.I)
    if found is None and old.lower().startswith("the "):
        found = re.search(rf"\b{re.escape(old[4:])}\b", memory, re.I)
        new = new[4:] if new.lower().startswith("the ") else new
    if found is None or re.search(rf"\b{re.escape(new)}\b", memory, re.I):
        return None
    value = new[:1].upper() + new[1:] if found[0][:1].isupper() else new  # "thursdays" told, "Thursdays" kept
    return memory[: found.start()] + value + memory[found.end() :]


#: An admission that something told was wrong, before the right version: "User got User's dates muddled",
#: "got that wrong", "read the ticket wrong", "must correct themselves", "Silly User", "my mistake".
_ADMITS = re.compile(
    r"\b(?:got (?:[\w'’]+ ){0,2}(?:wrong|muddled|mixed up)|reads? (?:[\w'’]+ ){0,3}wrong|correct (?:themselves|"
    r"myself|User)|[Ss]illy (?:me|User)|(?:my|User's) (?:mistake|bad)|(?:was|were) wrong|misspoke|misreads?|"
    r"[Ss]cratch (?:that|what)|[Cc]orrection(?=:)|(?:[Ss]mall|[Qq]uick|[Mm]inor|[Oo]ne) correction|"
    r"[Cc]orrection to (?:earlier|before|what)|wrong (?:date|day|time|name|place|number|year|month|one)"
    r"(?: earlier| before)?|not (?:what|the (?:place|one|date|day|name|time|number)(?: that)?) (?:User|they) said|"
    r"keeps? (?:saying|getting) (?:the old \w+|it wrong|that wrong))\b(?P<rest>.*)"
)
_WEEKDAY = "|".join(day.capitalize() for day in WEEKDAYS)
_MONTH = "|".join(names.split()[0].capitalize() for names in MONTH_NAMES)
#: Values a correction gives anew, by kind: an amount of money, a time, a day of the month, a weekday, a month,
#: a number, a name.
_VALUES = (
    r"[£€$]\d+(?:[,.]\d+)*k?",
    r"\b\d{1,2}[:.]\d{2}(?:\s?[ap]m)?\b|\b\d{1,2}\s?[ap]m\b",
    r"\b\d{1,2}(?:st|nd|rd|th)\b",
    rf"\b(?:{_WEEKDAY})s?\b",
    rf"\b(?:{_MONTH})\b",
    r"(?<![£€$\d.,:])\b\d+(?:[,.]\d+)*\b(?![:.]\d|st|nd|rd|th|\s?[ap]m)",
    rf"(?<=[a-z,] )(?!User\b|{_MONTH}|{_WEEKDAY})[A-Z](?:[a-z]+|[A-Z]+\b)(?: [A-Z][a-z]+)*",
)


#: How similar a memory must be for a value told anew to correct it when no word of it is said again.
_NEAR = 0.4


def _before(value: str, text: str) -> str:
    """The word before ``value`` in ``text`` ("is" in "the vet is Dr Okoye"), lower case."""
    found = re.search(rf"(\w+)\W+{re.escape(value)}(?!\w)", text)
    return found[1].lower() if found else ""


def _told_anew(rest: str, memory: str) -> str | None:
    """``memory`` with each value of a kind that ``rest`` gives anew (one new, one old of that kind) told as
    ``rest`` tells it; None when no value is given anew."""
    out, changed = memory, False
    for kind in _VALUES:
        new = {m for m in re.findall(kind, rest) if not re.search(rf"(?<!\w){re.escape(m)}(?!\w)", memory)}
        old = {m for m in re.findall(kind, memory) if not re.search(rf"(?<!\w){re.escape(m)}(?!\w)", rest)}
        if len(new) == 1 and len(old) > 1:  # "the vet is Dr Okoye" for "vet is Dr Patel at Riverside Vets"
            old = {o for o in old if _before(o, memory) == _before(next(iter(new)), rest)}
        if len(new) == 1 and len(old) == 1:
            out, changed = re.sub(rf"(?<!\w){re.escape(old.pop())}(?!\w)", new.pop(), out, count=1), True
    return out if changed else None


def correcting(fact: Fact, related: Sequence[ScoredMemory]) -> tuple[Fact, MemoryRow, str] | None:
    """The fact as the memory it corrects, told anew, that memory, and why; None when ``fact`` corrects none
    of the speaker's current memories (the most similar one that says the old value)."""
    told, admits = correction(fact.content), _ADMITS.search(fact.content)
    if told is None and admits is None:
        return None
    # the admission before or after what is told again: "I got the date wrong" may come last
    rest = fact.content[: admits.start()] + " " + admits["rest"] if admits else ""
    for scored in sorted(related, key=lambda s: s.similarity, reverse=True):
        memory = scored.memory
        if memory.status != "active" or (memory.speaker or "").lower() != (fact.speaker or "").lower():
            continue
        said = strip_annotation(memory.content)
        if not told and scored.similarity < _NEAR and not content_words(rest) & content_words(said):
            continue  # a far memory, of something the correction does not name
        content = corrected(said, *told) if told else _told_anew(rest, said)
        if content is not None:
            why = f"corrects {told[1]} to {told[0]}" if told else "told again as corrected"
            return fact.model_copy(update={"content": content}), memory, f"{why} (similarity {scored.similarity:.2f})"
    return None
