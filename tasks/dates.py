"""Absolute dates as the write path writes them ("13 August 2023", "August 2023", "in 2022", "around 2021"), read
back as spans of UTC time: recall's time windows and the consolidator's "did this happen on a day"
read them the same way."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

#: Each month's full name, then its abbreviations.
MONTH_NAMES = ("january jan", "february feb", "march mar", "april apr", "may", "june jun", "july jul",
               "august aug", "september sep sept", "october oct", "november nov", "december dec")  # fmt: skip
MONTHS = {m: i + 1 for i, names in enumerate(MONTH_NAMES) for m in names.split()}
DAY_NUMBER = r"[12]\d|3[01]|0?[1-9]"
#: A date a memory states, as the write path writes it ("13 August 2023", "August 2023", "in 2022", "around 2021").
_STATED = re.compile(
    rf"\b(?:(?P<day>{DAY_NUMBER}) )?(?P<month>{'|'.join(n.split()[0].title() for n in MONTH_NAMES)}) "
    r"(?P<year>(?:19|20)\d\d)\b|\b(?:in|around) (?P<only>(?:19|20)\d\d)\b"
)


def stated_spans(text: str) -> list[tuple[datetime, datetime]]:
    """The dates ``text`` states, in the write path's absolute forms, in order."""
    spans = []
    for m in _STATED.finditer(text):
        if m["only"]:
            spans.append(year_span(int(m["only"])))
        elif m["day"]:
            day = day_span(int(m["year"]), MONTHS[m["month"].lower()], int(m["day"]))
            if day:
                spans.append(day)
        else:
            spans.append(month_span(int(m["year"]), MONTHS[m["month"].lower()]))
    return spans


def year_span(year: int) -> tuple[datetime, datetime]:
    return datetime(year, 1, 1, tzinfo=UTC), datetime(year + 1, 1, 1, tzinfo=UTC)


def month_span(year: int, month: int) -> tuple[datetime, datetime]:
    start = datetime(year, month, 1, tzinfo=UTC)
    return start, datetime(year + month // 12, month % 12 + 1, 1, tzinfo=UTC)


def day_span(year: int, month: int, day: int) -> tuple[datetime, datetime] | None:
    try:
        start = datetime(year, month, day, tzinfo=UTC)
    except ValueError:
        return None
    return start, start + timedelta(days=1)
