"""When a stated fact stops being true by its own words: "I'm in Lisbon until Friday" → Friday, end of day.

Pure text and time rules, shared by the extractor (which stamps ``expires_at`` on a fact) and the
TTL maintenance pass (which closes the memory once that time has passed).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from tasks.clock import utc

_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_DAY = r"(mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|sday|urday|rsday)?"
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*"
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10, "couple of": 2, "few": 3}  # fmt: skip
_UNTIL = r"\b(?:until|till|til|through|thru|up to|up until)\s+"
_UNIT_DAYS = {"day": 1, "night": 1, "week": 7, "month": 30}


def _end_of(day: datetime) -> datetime:
    """The first instant after ``day`` (a fact true "until Friday" holds all of Friday)."""
    return day.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=1)


def _weekday(stated: datetime, name: str, following: bool) -> datetime:
    target = next(i for i, d in enumerate(_DAYS) if d.startswith(name[:3]))
    ahead = (target - stated.weekday()) % 7
    if following:
        ahead += 7
    return _end_of(stated + timedelta(days=ahead))


def _date(stated: datetime, month: int, day: int) -> datetime | None:
    try:
        when = stated.replace(month=month, day=day)
    except ValueError:
        return None
    if _end_of(when) <= stated:
        try:
            when = when.replace(year=when.year + 1)
        except ValueError:
            return None
    return _end_of(when)


def expiry_from_text(text: str, stated_at: datetime) -> datetime | None:
    """When a statement stops holding, if it says so ("until Friday", "for two weeks"); else None.

    Relative phrases are read against ``stated_at`` (UTC days); the expiry is the end of the named day.
    """
    stated = utc(stated_at)
    low = " ".join(text.lower().split())
    iso = re.search(r"\b(\d{4})-(\d{2})-(\d{2})\b", low)
    if iso and re.search(r"\b(?:till|until|til|through|thru|before|by)\b", low):
        try:
            return _end_of(datetime(int(iso[1]), int(iso[2]), int(iso[3]), tzinfo=stated.tzinfo))
        except ValueError:
            return None
    if m := re.search(_UNTIL + r"(?:(this|next|coming)\s+)?" + _DAY + r"\b", low):
        return _weekday(stated, m[2], m[1] == "next")
    if re.search(_UNTIL + r"tomorrow\b", low):
        return _end_of(stated + timedelta(days=1))
    if re.search(_UNTIL + r"(?:tonight|today|the end of (?:the|to)day)\b", low) or re.search(
        r"\b(?:for|just|only) (?:today|tonight)\b|\btoday only\b", low
    ):
        return _end_of(stated)
    week = _UNTIL + r"(?:the end of (?:the|this) week|the weekend)\b|\b(?:for|during) (?:this|the) (?:week|weekend)\b"
    if re.search(week, low):
        return _end_of(stated + timedelta(days=6 - stated.weekday()))
    if re.search(_UNTIL + r"next week\b", low):
        return stated.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=7 - stated.weekday())
    if re.search(_UNTIL + r"the end of (?:the|this) month\b|\bfor (?:the rest of )?this month\b", low):
        first = stated.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
        return (first + timedelta(days=32)).replace(day=1)
    if m := re.search(_UNTIL + r"(?:the )?(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH + r"\b", low):
        return _date(stated, _month(m[2]), int(m[1]))
    if m := re.search(_UNTIL + _MONTH + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b", low):
        return _date(stated, _month(m[1]), int(m[2]))
    if m := re.search(_UNTIL + r"the (\d{1,2})(?:st|nd|rd|th)\b", low):
        month = stated.month
        when = _date(stated, month, int(m[1]))
        return when
    number = r"(\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|couple of|few)"
    if m := re.search(r"\b(?:for|during) (?:the )?(?:next |coming )?" + number + r" (day|night|week|month)s?\b", low):
        count = int(m[1]) if m[1].isdigit() else _NUMBERS[m[1]]
        return _end_of(stated + timedelta(days=count * _UNIT_DAYS[m[2]] - 1))
    return None


def _month(name: str) -> int:
    return _MONTHS.index(name[:3]) + 1
