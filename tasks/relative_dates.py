"""Relative time said in chat ("yesterday", "next Friday", "3 years ago") as absolute dates.

Dates are resolved against the time the sentence was said, so a memory states "on 7 May 2023" where the
speaker said "yesterday", and "18 June 2023 was rough" where "Yesterday was rough" named the day itself.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
            "seven": 7, "eight": 8, "nine": 9, "ten": 10, "a couple of": 2, "a few": 3, "several": 3}  # fmt: skip
#: Hedges before "N units ago" that put the time further back than N units.
_BEFORE_HEDGES = frozenset({"over", "more than", "at least", "just over"})


def fmt_date(value: datetime) -> str:
    return f"{value.day} {value:%B %Y}"


def _month(value: datetime, delta: int) -> str:
    index = value.year * 12 + value.month - 1 + delta
    return datetime(index // 12, index % 12 + 1, 1).strftime("%B %Y")


def _weekday(anchor: datetime, name: str, direction: int) -> datetime:
    target = WEEKDAYS.index(name)
    days = (anchor.weekday() - target) % 7 or 7
    return (
        anchor - timedelta(days=days)
        if direction < 0
        else anchor + timedelta(days=(target - anchor.weekday()) % 7 or 7)
    )


def resolve_dates(text: str, when: datetime) -> str:
    """Rewrite relative time expressions as absolute dates, keeping the original words in brackets."""

    def sub(pattern: str, fn: Callable[[re.Match[str]], str]) -> None:
        nonlocal text
        text = re.sub(pattern, lambda m: _cased(m, fn(m)), text, flags=re.IGNORECASE)

    sub(r"\b(the day before yesterday)\b", lambda m: f"on {fmt_date(when - timedelta(days=2))}")
    sub(r"\b(yesterday|last night)\b", lambda m: f"on {fmt_date(when - timedelta(days=1))}")
    sub(r"\b(today|tonight|this morning|this afternoon|this evening)\b", lambda m: f"{m.group(1)} ({fmt_date(when)})")
    sub(r"\b(tomorrow)\b", lambda m: f"on {fmt_date(when + timedelta(days=1))}")
    sub(r"\blast (week|weekend)\b", lambda m: f"the {m.group(1)} before {fmt_date(when)}")
    sub(r"\bnext (week|weekend)\b", lambda m: f"the {m.group(1)} after {fmt_date(when)}")
    sub(r"\blast month\b", lambda m: f"in {_month(when, -1)}")
    sub(r"\bnext month\b", lambda m: f"in {_month(when, 1)}")
    sub(r"\bthis month\b", lambda m: f"in {_month(when, 0)}")
    sub(r"\blast year\b", lambda m: f"in {when.year - 1}")
    sub(r"\bnext year\b", lambda m: f"in {when.year + 1}")
    sub(r"\bthis year\b", lambda m: f"in {when.year}")
    sub(r"\blast (" + "|".join(WEEKDAYS) + r")\b", lambda m: f"on {fmt_date(_weekday(when, m.group(1).lower(), -1))}")
    sub(r"\bnext (" + "|".join(WEEKDAYS) + r")\b", lambda m: f"on {fmt_date(_weekday(when, m.group(1).lower(), 1))}")

    def ago(m: re.Match[str]) -> str:
        # As precise as what was said: "5 years ago" is around a year, not a day; a hedge said before
        # it ("about 5 years ago") is the "around" itself, and "more than 10 years ago" is "in or before 2016".
        n = _NUMBERS.get(m["n"].lower()) or int(m["n"])
        unit = m["unit"].lower().rstrip("s")
        then = when - timedelta(days={"day": 1, "week": 7, "month": 30, "year": 365}[unit] * n)
        said = {"day": fmt_date(then), "week": fmt_date(then), "month": f"{then:%B %Y}", "year": str(then.year)}[unit]
        hedge, dated = (m["hedge"] or "").lower(), unit in ("day", "week")
        if hedge in _BEFORE_HEDGES:
            return f"{'on' if dated else 'in'} or before {said}"
        return f"on {said}" if unit == "day" and not hedge else f"around {said}"

    sub(r"\b(?:(?P<hedge>about|around|roughly|approximately|approx\.?|like|maybe|almost|nearly|over|more than|"
        r"less than|under|at least|just over|just under) )?(?P<n>\d+|a|an|one|two|three|four|five|six|seven|eight|"
        r"nine|ten|a couple of|a few|several) (?P<unit>days?|weeks?|months?|years?) ago\b", ago)  # fmt: skip
    # "from next month" is "from June 2023", not "from in June 2023"
    text = re.sub(
        rf"\b(from|until|till|by|since|starting|through|before|after) (?:in|on) (?={_DATE}\b)",
        r"\1 ",
        text,
        flags=re.IGNORECASE,
    )
    return _AS_SUBJECT.sub(_as_subject, text)


#: A date as the write path writes it ("20 June 2023", "July 2023", "2022").
_DATE = r"(?:\d{1,2} )?[A-Z][a-z]+ \d{4}|\d{4}"
#: The day itself as a clause's subject ("Yesterday was rough", "I think tomorrow will be sunny", "Tomorrow's
#: meeting"): a clause opens before it (the text's start, a punctuation mark, a conjunction, a verb of saying or
#: thinking) and a verb or "'s" follows. "What I did yesterday was amazing" keeps its "on": a verb comes before.
_AS_SUBJECT = re.compile(
    r"(?P<lead>^|[,;:.!?-] |\b(?:and|but|so|because|cause|since|think|thought|hope|know|knew|guess|bet|feel|felt|"
    r"said|says|say|believe|reckon|figure) )(?:[Ii]n|[Oo]n) (?P<date>" + _DATE + r")"
    r"(?P<after>'s\b| (?:is|was|will|would|has|had|have|gonna|went|looks|looked|seems|seemed|felt|feels|marks|"
    r"marked|means|meant|became|turned|could|should|might|must|can|did|does|isn't|wasn't|won't|wouldn't|hasn't|didn't|doesn't)\b)"
)
#: What follows a day's "'s" when it is "is" ("tomorrow's the big day", "tomorrow's gonna be"), not a possessive.
_IS_NEXT = re.compile(
    r" (?:gonna|going|a|an|the|my|our|your|his|her|their|been|so|really|not|when|supposed|another|all|just|"
    r"finally|here|over|almost|coming|looking)\b"
)


def _cased(said: re.Match[str], written: str) -> str:
    """``written`` opening with a capital when what was said did ("Last week I ..." → "The week before 3 July
    2023 I ..."): a sentence keeps its capital (round 43; before, "... happened. the week before ...")."""
    return written[:1].upper() + written[1:] if said[0][:1].isupper() else written


def _as_subject(m: re.Match[str]) -> str:
    after = m["after"]
    if after == "'s" and _IS_NEXT.match(m.string, m.end()):
        after = " is"
    return f"{m['lead']}{m['date']}{after}"
