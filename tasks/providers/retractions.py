"""A correction said later in the same session rewrites the fact it takes back.

"Scratch that, it's Tuesday" has long rewritten the fact before it. Session probe 15 showed how else people
correct themselves, each stored beside the fact it corrects (or not at all):
- "oh and correction, lease ends in july": a clause told again with one word changed; that word is
  replaced where the earlier fact says the rest ("their lease ends in august" → "in july").
- "wait it's 10mg, they lowered it": an amount with its unit replaces the amount of that unit.
- "sorry, PwC not Deloitte": the old value is named, so the fact that holds it is the one corrected.
- "oops she's 14 actually": a slip owned without "I meant"; it corrects only a fact with a value of the
  same shape (a number for a number), else it is read as said.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tasks.models import Event, Fact
from tasks.providers.statements import frame_of
from tasks.textrules import RESOLVED_DATE

#: A retraction of what was said before: "Scratch that, it's Tuesday", "Sorry, I meant 42", "oh and
#: correction, ...".
RETRACT = re.compile(
    r"^\W*(?:and\s+)?(?:(?:actually|oh|oops|hmm|ah|um|wait)[,!.]?\s+(?:and\s+)?)?"
    r"(?:scratch that|sorry,? I meant|I meant|correction|wait,? no|actually,? no|no,? wait|my mistake|"
    r"I misspoke)\b[\s,:;.!-]*(?:(?:it's|it is|it was|that's|that is|that was|make (?:that|it)|it should be)\s+)?",
    re.I,
)
_SLIP_OPENER = r"(?:(?:oops|whoops|my bad|wait|sorry|oh wait|actually|oh actually)[,!.]?\s+)"
_PRONOUN_IS = r"(?:she|he|it|they|that)(?:['’]s|['’]re| is| are| was)\s+"
#: A slip owned: "oops she's 14 actually", "wait it's 10mg", "it's 14 actually", "make that 1000".
_SLIP = re.compile(
    rf"^\W*(?:{_SLIP_OPENER}?make (?:that|it) (?P<m>[^,;.!?]+?)"
    rf"|{_SLIP_OPENER}{_PRONOUN_IS}(?P<v>[^,;.!?]+?)(?:\s+actually)?"
    rf"|{_PRONOUN_IS}(?P<w>[^,;.!?]+?)\s+actually)\s*(?=[,;.!?]|$)",
    re.I,
)
_VALUE = r"[\w'’&.-]+(?: [\w'’&.-]+){0,2}"
#: "X not Y" said as a correction: "sorry, PwC not Deloitte", "oh and I meant Saturday, not Friday". The
#: old value must be in a fact of the session for it to correct anything (:func:`corrected`).
_SWAP = re.compile(
    rf"^\W*(?:(?:sorry|oops|whoops|my bad|wait|correction|actually|no|oh|and)[,!.:]?\s+)*(?:(?:it['’]s|I meant)\s+)?"
    rf"(?!(?:I|I['’]m|we|we['’]re|he|she|they|you)\b)(?P<new>{_VALUE}),? not (?P<old>{_VALUE})(?=\s*(?:[,;.!?]|$))",
    re.I,
)
#: The end of the corrected value: a clause of its own follows ("10mg, they lowered it last month").
_TAIL = re.compile(r",\s+(?=(?:they|she|he|I|we|it|that)\b)", re.I)


@dataclass(frozen=True)
class Retraction:
    """The corrected value; the old one when named; ``sure`` when said as a correction, so that it applies
    even where the earlier fact has no value of its shape."""

    value: str
    old: str | None = None
    sure: bool = True


def retraction(sentence: str) -> Retraction | None:
    """What a correction says, else None."""
    if (swap := _SWAP.match(sentence)) is not None:
        return Retraction(swap["new"].strip(), swap["old"].strip())
    if (slip := _SLIP.match(sentence)) is not None:
        return Retraction((slip["m"] or slip["v"] or slip["w"]).strip(), sure=False)
    m = RETRACT.match(sentence)
    if not m or m.end() == 0:
        return None
    value = _TAIL.split(sentence[m.end() :], maxsplit=1)[0].strip(" .!?")
    return Retraction(value) if value else None


def corrected(previous: str, said: Retraction) -> str | None:
    """``previous`` as the correction says it, or None when it does not hold what is corrected."""
    if said.old is not None:
        named = re.compile(rf"\b{re.escape(said.old)}\b", re.I)
        return named.sub(said.value, previous, count=1) if named.search(previous) else None
    if (realigned := _realigned(previous, said.value)) is not None:
        return realigned
    return apply_retraction(previous, said.value, sure=said.sure)


def _realigned(previous: str, value: str) -> str | None:
    """A clause told again with its last words changed ("lease ends in july"): those words replaced where
    ``previous`` says the rest ("their lease ends in august" → "their lease ends in july")."""
    words = value.split(",")[0].split()
    for keep in range(len(words) - 1, 1, -1):
        head, rest = words[:keep], words[keep:]
        said = r"\s+".join(re.escape(w) for w in head) + r"\s+" + r"\s+".join([r"[\w'’-]+"] * len(rest))
        if m := re.search(rf"\b{said}\b", previous, re.I):
            return previous[: m.start()] + " ".join([previous[m.start() : m.end()].rsplit(maxsplit=len(rest))[0],
                                                      *rest]) + previous[m.end() :]  # fmt: skip
    return None


def apply_retraction(previous: str, value: str, *, sure: bool = True) -> str | None:
    """The previous statement with its value replaced by the corrected one: the last span of the value's
    shape (an identifier, a number, an amount with its unit, a name). Without one, a sure retraction
    replaces what follows the last "is"/"on"/"at", or is appended; an unsure one corrects nothing."""
    flags = 0
    if m := re.fullmatch(r"(?:the )?(\d{1,2}(?:st|nd|rd|th))(?: of [A-Z][a-z]+)?", value):  # "the 15th"
        shape, value = r"\b\d{1,2}(?:st|nd|rd|th)\b", m[1]
    elif m := re.fullmatch(r"\d[\d.,]*\s?([a-z%]+)", value, re.I):  # "10mg", "80 kg"
        shape, flags = rf"\d[\d.,]*\s?{re.escape(m[1])}\b", re.I
    elif re.search(r"\d", value) and re.search(r"[A-Za-z]", value):
        shape = r"[A-Z]{1,4}-?\d[\w-]*"
    else:
        shape = r"\d[\d.,:]*" if re.fullmatch(r"[\d.,:]+", value) else r"[A-Z][\w'-]*(?: [A-Z][\w'-]*)*"
    if not sure and re.fullmatch(shape, value, flags) is None:
        return None  # "Sorry it's late": no value of a kind the earlier fact could hold
    # Not inside the date resolve_dates appended ("80.5 kg this morning (1 April 2026)": 80.5 is the value).
    masked = RESOLVED_DATE.sub(lambda m: " " * len(m[0]), previous)
    spans = [s for s in re.finditer(shape, masked, flags) if s.start() > 0 or sure]  # not the speaker's name
    if spans:
        last = spans[-1]
        return previous[: last.start()] + value + previous[last.end() :]
    if not sure:
        return None
    if m := re.search(r"\b(is|are|was|on|at)\s+[^,;]+$", previous):
        return previous[: m.end(1)] + " " + value
    return f"{previous.rstrip('. ')}: {value}"


def retract(facts: list[Fact], who: str, said: Retraction, event: Event) -> bool:
    """Replace ``who``'s last fact of this session (the last one holding the old value, when named) by its
    corrected version, citing ``event`` too; False if there is none to correct."""
    mine = [i for i in range(len(facts) - 1, -1, -1) if facts[i].speaker == who]
    found = next(((i, c) for i in mine if (c := corrected(facts[i].content, said)) is not None), None)
    if found is None:
        return False
    index, content = found
    old, frame = facts[index], frame_of(content)
    sources = tuple(dict.fromkeys((*old.source_event_ids, event.id)))
    update: dict[str, object] = {"content": content, "source_event_ids": sources, "stated_at": event.timestamp}
    if old.slot is None or old.slot.startswith("about:"):
        update |= {"slot": f"about:{frame.name}" if frame else old.slot, "value": frame.value if frame else said.value}
    facts[index] = Fact.model_validate(old.model_dump() | update)
    return True
