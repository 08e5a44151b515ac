"""An amount said again with another number: "at 82kg right now", later "down to 79kg".

A user's weight, rent, commute or sleep is one number at a time. Two statements about the same subject
("User", "User's commute") that give an amount in the same unit with different numbers are a change of
that amount, without any change word; something done ("ran 5k in 28 minutes"), someone else's or
something else's amount ("User's dog weighs 30kg", "User's suitcase was 23kg") is not. An amount someone
else changed ("my doctor upped the metformin to 1000mg") is of the thing it names, whoever changed it.
"""

from __future__ import annotations

import re

from tasks.providers.sameness import TELLING_FRAME, TELLING_RE, done
from tasks.providers.wording import content_words
from tasks.textrules import RESOLVED_DATE

#: A number with its unit after it ("82kg", "40 minutes", "800 Korean words") or a currency before it ("€1200").
_AMOUNT = re.compile(r"(?P<cur>[$€£])?\s?\b(?P<n>\d+(?:[.,]\d+)*)\s?(?:[A-Z][a-z]+ )?(?P<unit>%|[a-zA-Z]+\b)?")
#: One unit under its several spellings.
_SAME_UNIT = {
    "kilo": "kg", "kilos": "kg", "kilogram": "kg", "kilograms": "kg", "kgs": "kg",
    "lbs": "lb", "mins": "minute", "min": "minute", "minutes": "minute", "hours": "hour", "hrs": "hour",
    "euro": "€", "euros": "€", "eur": "€", "dollars": "$", "dollar": "$", "usd": "$", "gbp": "£",
    "km": "km", "kms": "km", "kilometres": "km", "kilometers": "km", "miles": "mile", "years": "year",
    "percent": "%", "steps": "step", "days": "day", "weeks": "week",
}  # fmt: skip
#: Words after a number that are not its unit: dates, ordinals, counts of times.
_NOT_UNITS = frozenset(
    """st nd rd th times time am pm of and or to a the january february march april may june july august september
    october november december jan feb mar apr jun jul aug sep sept oct nov dec""".split()  # noqa: SIM905
)
#: Who or what the amount belongs to: "User", "User's commute" (after the telling's own frame).
_SUBJECT = re.compile(rf"{TELLING_FRAME}(\w+(?:['’]s \w+)?)")


def _unit(found: re.Match[str]) -> str:
    unit = found["cur"] or (found["unit"] or "").lower()
    return "" if unit in _NOT_UNITS else _SAME_UNIT.get(unit, unit)


def _amounts(text: str) -> set[tuple[str, str]]:
    """(unit, number) of every amount said, outside the dates the write path resolved."""
    found = _AMOUNT.finditer(RESOLVED_DATE.sub(" ", text))
    return {(_unit(m), m["n"].replace(",", "")) for m in found if _unit(m)}


#: Where the amount that holds now follows, among several: "another 3k this quarter, *so* 15k now".
_NOW_AMOUNT = re.compile(r"\b(?:so|now|total|that's|making it|bringing it to|up to|down to|at)\s+$", re.I)


def _held(fact: str) -> tuple[set[tuple[str, str]], str]:
    """The amount ``fact`` says holds now, and what is said before it: the whole lead for one amount
    ("User ran 5k": done), the clause alone for the last of several ("…, so 15k now": not done)."""
    text = RESOLVED_DATE.sub(" ", fact)
    found = [m for m in _AMOUNT.finditer(text) if _unit(m)]
    if len(found) == 1:
        return {(_unit(found[0]), found[0]["n"].replace(",", ""))}, text[: found[0].start()]
    now = [m for m in found if _NOW_AMOUNT.search(text[: m.start()] + " ")]
    if len(now) != 1:
        return set(), ""
    start = max(text.rfind(",", 0, now[0].start()), text.rfind(";", 0, now[0].start())) + 1
    return {(_unit(now[0]), now[0]["n"].replace(",", ""))}, text[start : now[0].start()]


#: An amount someone changed, and what it is of: "upped *the metformin* to 1000mg", "raised *the rent* to 980".
_CHANGED_TO = re.compile(
    r"\b(?:upped|raised|increased|reduced|lowered|cut|bumped|dropped|doubled|halved|adjusted|changed|put)"
    r"(?P<what>(?: [\w'’]+){0,4}?) (?:up |down )?to\b",
    re.I,
)


def _subject(text: str) -> str:
    """Whose the amount is: "user", "user's commute"; "they" and "we" told by the user are the user's household."""
    found = _SUBJECT.match(text)
    said = found[1].lower().replace("’", "'") if found else ""
    return "user" if said in {"they", "we"} else said


#: Where a memory's next clause about the user starts ("User is saving for a car, User has 4000 euros").
_USER_CLAUSE = re.compile(r"[,;]\s+(?:so |and |but )?(?=(?:User|they|we)\b)")


Held = tuple[set[tuple[str, str]], str]


#: A reading with no unit, the measure named before it: "User's cholesterol is 6.2", "User's credit score went
#: up to 710", "User's golf handicap is down to 14". The number ends the reading ("5.1 after three months").
_READING = re.compile(
    r"(?P<owner>\b[\w’']+['’]s )?(?:[a-z][\w-]* ){0,2}?(?P<measure>[A-Za-z][\w-]*) (?:is|was|are|were|went|has "
    r"gone|came back|stands)(?: (?:now|currently|still|at|back|down|up|to|about|around|roughly))* (?P<n>\d+(?:\.\d+)?)"
    r"(?=\s*(?:[^\w\s]|$)|\s+(?:after|this|these|now|today|since|for|which|and|but|so|then|again|already)\b)"
)


def _reading(text: str) -> tuple[str, str] | None:
    """(measure, number) of the user's one reading with no unit in ``text``; someone else's ("User's dad's
    cholesterol") is None."""
    found = list(_READING.finditer(RESOLVED_DATE.sub(" ", TELLING_RE.sub("", text, count=1))))
    if len(found) != 1 or (found[0]["owner"] and found[0]["owner"].lower() not in ("user's ", "user’s ")):
        return None
    return found[0]["measure"].lower(), found[0]["n"]


def _changes(fact: str, held: Held, clause: str, changed: re.Match[str] | None) -> str | None:
    """The unit of the amount ``fact`` (whose amount that holds is ``held``) gives anew for ``clause``; for a
    reading with no unit, its measure ("cholesterol")."""
    new_reading, old_reading = _reading(fact), _reading(clause)
    if new_reading and old_reading and new_reading[0] == old_reading[0]:
        return new_reading[0] if new_reading[1] != old_reading[1] else None
    new, lead = held
    if changed and content_words(changed["what"]):  # someone changed it: what it is of decides, not who
        if not content_words(changed["what"]) & content_words(clause):
            return None
    elif done(lead) or done(_held(clause)[1]) or _subject(fact) != _subject(clause):
        return None  # something done ("did 12km on Sunday") is no amount that holds now
    old = _amounts(clause)
    if len(new) != 1 or len(old) != 1:
        return None
    (unit, number), (old_unit, old_number) = next(iter(new)), next(iter(old))
    return unit if unit == old_unit and number != old_number else None


def _by_clause(fact: str, memory: str) -> list[tuple[str, str | None]]:
    """Each clause of ``memory`` about the user, with the unit of the amount ``fact`` gives anew for it."""
    changed, held = _CHANGED_TO.search(fact), _held(fact)
    return [(clause, _changes(fact, held, clause, changed)) for clause in _USER_CLAUSE.split(memory)]


def amount_changed(fact: str, memory: str) -> str | None:
    """The unit of an amount ``fact`` gives anew for the subject of ``memory``, or of one of its clauses
    ("User's long run is 18 miles" in "User is training for a marathon, User's long run is 18 miles"), or None."""
    return next((unit for _, unit in _by_clause(fact, memory) if unit), None)


def beside_amount(fact: str, memory: str) -> str:
    """What else ``memory`` said besides the amount ``fact`` gives anew ("User is trying to lose weight" beside
    "User is at 82kg"): the new amount replaces its clause only. Empty when nothing else, or no amount changed."""
    clauses = _by_clause(fact, memory)
    if len(clauses) < 2 or not any(unit for _, unit in clauses):
        return ""
    return "; ".join(clause.strip(" .") for clause, unit in clauses if not unit and not _amounts(clause))
