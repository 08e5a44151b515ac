"""The time a question asks about: "in June", "last week", "two months ago", "before May 2023".

A question that names a time ("Where did I go camping in June?") is about the memories of that time,
and similarity alone cannot tell the June trip from the July one. :func:`window_of` reads the phrase
into spans of absolute time, relative to when the question is asked; :func:`timely` says which
candidates fall in them: said in them (or soon after: things are told a little after they happen),
or stating a date in them (the write path turns "yesterday" into "on 7 May 2023"). Vague words
("recently", "lately") name no time, and a question about plans ("what will I do in June?") none in
the past. Month names count only where they read as dates ("in May", "May 2023", "5 May"), so "may"
the verb and "June" the person are not times.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from tasks.clock import utc
from tasks.dates import DAY_NUMBER, MONTHS, day_span, month_span, stated_spans, year_span

#: How many years back a date without a year may lie.
YEARS_BACK = 30
_MONTH = r"(?P<month>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_YEAR = r"(?P<year>(?:19|20)\d\d)"
_DAY = rf"(?P<day>{DAY_NUMBER})(?:st|nd|rd|th)?"
_UNITS = {"day": 1.0, "night": 1.0, "week": 7.0, "weekend": 7.0, "month": 30.44, "year": 365.25}
_COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "a couple of": 2,
           "a couple": 2, "couple of": 2, "a few": 3, "few": 3, "several": 4, "seven": 7, "eight": 8, "nine": 9,
           "ten": 10, "eleven": 11, "twelve": 12}  # fmt: skip
_COUNT = r"(?P<n>\d{1,3}|" + "|".join(sorted(_COUNTS, key=len, reverse=True)) + r")"
_UNIT = r"(?P<unit>day|night|week|weekend|month|year)s?"
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY = "|".join(_WEEKDAYS)
_WEEKDAY_SHORT = r"mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun"
#: First month of each season (northern hemisphere); a season is three months.
_SEASONS = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}
_EDGE = r"(?P<edge>before|after|since|until|till|by)\s+"
_TIME_PREPOSITIONS = "in|during|around|early|mid|late|in early|in mid|in late"
#: Before a month alone: a preposition of time ("from Jan", "for May", "of June" are as often people).
_MONTH_PREP = rf"(?:{_TIME_PREPOSITIONS})\s+"
#: Before a date with a day or a year, any preposition will do ("on 5 May", "of 2023").
_DATE_PREP = rf"(?:on|of|from|for|{_TIME_PREPOSITIONS})\s+"


@dataclass(frozen=True)
class Window:
    """Spans of absolute time, each ``(start, end)`` with ``end`` exclusive (aware UTC): one, or for
    a month without a year ("in June") that month in every year up to the question."""

    spans: tuple[tuple[datetime, datetime], ...]
    phrase: str
    #: Named by a date rather than relative to the question ("in March 2025", "the winter of 2024").
    dated: bool = False
    #: Whether things told soon after a span count as in it (not for the side of an event, whose
    #: edge is the event's own date).
    lag: bool = True
    #: Nothing but the event that names it lies in it ("after the move", and only the move is told).
    empty: bool = False

    @property
    def start(self) -> datetime:
        return self.spans[-1][0]

    @property
    def end(self) -> datetime:
        return self.spans[-1][1]

    def overlaps(self, start: datetime, end: datetime) -> bool:
        return any(s < end and e > start for s, e in self.spans)

    def told_in(self, when: datetime) -> bool:
        """Said in a span or soon after it: a quarter of its length, 2 to 14 days (without ``lag``, in it)."""
        return any(s <= when < e + self._lag(s, e) for s, e in self.spans)

    def _lag(self, start: datetime, end: datetime) -> timedelta:
        return min(max((end - start) / 4, timedelta(days=2)), timedelta(days=14)) if self.lag else timedelta(0)


def window_of(query: str, now: datetime) -> Window | None:
    """The time the question names (a date before a relative phrase, then the first), or None."""
    now = utc(now)
    found = [(not w.dated, m.start(), w) for rule in _RULES for m in rule[0].finditer(query) if (w := rule[1](m, now))]
    if not found:
        return None
    window = min(found, key=lambda f: f[:2])[2]
    # A question about plans ("what am I doing in June?") is not about what was said in a past June.
    return None if _FUTURE.search(query) and not re.search(r"\d{4}", window.phrase) else window


def timely(window: Window, texts: Sequence[str | None], said: Sequence[datetime | None]) -> list[bool]:
    """Which items are about ``window``: said in it or soon after (:meth:`Window.told_in`), or stating
    a date in it ("on 13 August 2023": the write path's absolute form of "yesterday")."""
    return [
        (when is not None and window.told_in(utc(when)))
        or any(window.overlaps(s, e) for s, e in stated_spans(text or ""))
        for text, when in zip(texts, said, strict=True)
    ]


def _one(start: datetime, end: datetime, phrase: str) -> Window:
    return Window(((start, end),), phrase)


def _midnight(when: datetime) -> datetime:
    return when.replace(hour=0, minute=0, second=0, microsecond=0)


def _absolute(m: re.Match[str], now: datetime) -> list[tuple[datetime, datetime]]:
    """The spans a month / day / year names, latest last; a date without a year is one in each year up
    to ``now`` (people say "in June" of last year's June as well as this year's)."""
    groups = m.groupdict()
    if not groups.get("month"):
        return [year_span(int(groups["year"]))] if groups.get("year") else []
    month = MONTHS[groups["month"].lower()]
    years = [int(groups["year"])] if groups.get("year") else range(now.year - YEARS_BACK, now.year + 1)
    spans = [day_span(y, month, int(groups["day"])) if groups.get("day") else month_span(y, month) for y in years]
    return [s for s in spans if s and (groups.get("year") or s[0] <= now)]


def _dated(m: re.Match[str], now: datetime) -> Window | None:
    """ "in June", "June 2023", "on 5 May", "before April 10, 2023": an absolute date or an edge of one."""
    spans = _absolute(m, now)
    if not spans:
        return None
    start, end = spans[-1]
    edge = (m.groupdict().get("edge") or "").lower()
    if edge in ("before", "until", "till", "by"):
        spans = [(datetime(1900, 1, 1, tzinfo=UTC), start if edge == "before" else end)]
    elif edge in ("after", "since"):
        spans = [(end if edge == "after" else start, now + timedelta(seconds=1))]
    return Window(tuple(spans), m.group(0), dated=True)


def _calendar(m: re.Match[str], now: datetime) -> Window | None:
    """ "this week", "last month", "earlier this year", "yesterday", "last Friday" ("recently" names no time)."""
    word = (m["which"] or m["word"]).lower()
    unit = (m["unit"] or "").lower()
    today = _midnight(now)
    later = now + timedelta(seconds=1)
    if word in ("today", "tonight", "this morning", "this afternoon", "this evening"):
        return _one(today, later, m.group(0))
    if word in ("yesterday", "last night"):
        return _one(today - timedelta(days=1), today, m.group(0))
    if unit in _WEEKDAYS:
        back = (today.weekday() - _WEEKDAYS.index(unit)) % 7 or 7
        day = today - timedelta(days=back)
        return _one(day, day + timedelta(days=1), m.group(0))
    if word == "past":
        return _one(now - timedelta(days=_UNITS[unit]), later, m.group(0))
    if unit == "weekend":
        saturday = today - timedelta(days=(today.weekday() - 5) % 7)  # the latest Saturday, today included
        if word == "last" and now < saturday + timedelta(days=2):
            saturday -= timedelta(days=7)  # said during a weekend, "last weekend" is the one before
        return _one(saturday, saturday + timedelta(days=2), m.group(0))
    start = {"week": today - timedelta(days=today.weekday()), "month": today.replace(day=1),
             "year": today.replace(month=1, day=1)}[unit]  # fmt: skip
    if word == "last":
        previous = {"week": start - timedelta(days=7), "month": (start - timedelta(days=1)).replace(day=1),
                    "year": start.replace(year=start.year - 1)}[unit]  # fmt: skip
        return _one(previous, start, m.group(0))
    return _one(start, later, m.group(0))


def _ago(m: re.Match[str], now: datetime) -> Window | None:
    """ "two weeks ago" (a unit either side), "in the past 3 days", "over the last few months"."""
    raw = (m["n"] or "1").lower()
    n = int(raw) if raw.isdigit() else _COUNTS[raw]
    unit = timedelta(days=_UNITS[m["unit"].lower()])
    later = now + timedelta(seconds=1)
    if m.groupdict().get("ago"):
        return _one(now - unit * (n + 1), min(now - unit * (n - 1), later), m.group(0))
    return _one(now - unit * n, later, m.group(0))


_FUTURE = re.compile(r"\b(?:will|going to|gonna|plan(?:s|ning)? to|next|upcoming|tomorrow|should|shall)\b|'ll\b", re.I)


def _weekday(m: re.Match[str], now: datetime) -> Window | None:
    """ "on Wednesday", "on Wed", "Wednesday evening": the latest such day before today."""
    name = (m["wd"] or m["wd2"]).lower()[:3]
    today = _midnight(now)
    back = (today.weekday() - [d[:3] for d in _WEEKDAYS].index(name)) % 7 or 7
    return _one(today - timedelta(days=back), today - timedelta(days=back - 1), m.group(0))


def _season(m: re.Match[str], now: datetime) -> Window | None:
    """ "this summer", "last spring" (the latest one over), "in / during / over the winter" (any year's),
    "the fall of 2023" / "winter 2024" (that year's; a winter is the one starting in its December)."""
    first = _SEASONS[m["season"].lower()]
    spans = []
    years = [int(m["syear"])] if m["syear"] else range(now.year - YEARS_BACK, now.year + 1)
    for year in years:
        start = datetime(year, first, 1, tzinfo=UTC)
        end = datetime(year + (first + 2) // 12, (first + 2) % 12 + 1, 1, tzinfo=UTC)
        if start <= now or m["syear"]:
            spans.append((start, end))
    which = "" if m["syear"] else (m["sw"] or "").lower()
    if which == "last":
        spans = [s for s in spans if s[1] <= now][-1:]
    elif which == "this":
        spans = spans[-1:]
    return Window(tuple(spans), m.group(0), dated=bool(m["syear"])) if spans else None


_Rule = tuple[re.Pattern[str], Callable[[re.Match[str], datetime], Window | None]]
_UNIT_OR_DAY = rf"(?P<unit>week|weekend|month|year|{_WEEKDAY})"
_WORDS = r"today|tonight|yesterday|last night|this morning|this afternoon|this evening"
_RULES: tuple[_Rule, ...] = (
    # Month names need a date's company: a preposition, a day or a year ("may I", "June said" are not times).
    (re.compile(rf"\b(?:{_EDGE}|{_DATE_PREP})(?:the\s+)?{_DAY}(?:\s+of)?\s+{_MONTH}(?:,?\s+{_YEAR})?\b", re.I), _dated),
    (re.compile(rf"\b(?:{_EDGE}|{_DATE_PREP})?{_MONTH}\s+{_DAY}\b(?:,?\s+{_YEAR}\b)?(?!:)", re.I), _dated),
    (re.compile(rf"\b(?:{_EDGE}|{_DATE_PREP})?{_MONTH},?\s+{_YEAR}\b", re.I), _dated),
    (re.compile(rf"\b(?:{_EDGE}|{_MONTH_PREP}){_MONTH}\b(?!\s+(?:I|we|you|he|she|they|be)\b)", re.I), _dated),
    (re.compile(rf"\b(?:{_EDGE}|in\s+|during\s+|of\s+){_YEAR}\b", re.I), _dated),
    (
        re.compile(
            rf"\b(?P<which>this|last|past|earlier this)\s+{_UNIT_OR_DAY}\b|\b(?P<word>{_WORDS})\b",
            re.I,
        ),
        _calendar,
    ),
    (
        re.compile(
            rf"\bon\s+(?P<wd>{_WEEKDAY}|{_WEEKDAY_SHORT})\b|\b(?P<wd2>{_WEEKDAY})\s+(?:morning|afternoon|evening|night)\b",
            re.I,
        ),
        _weekday,
    ),
    (
        re.compile(
            r"\b(?:(?P<sw>this|last)\s+|(?:in|during|over|through)\s+(?:the\s+)?(?:(?:early|mid|late)[-\s]+)?)"
            r"(?P<season>spring|summer|autumn|fall|winter)\b(?:\s+(?:of\s+)?(?P<syear>(?:19|20)\d\d)\b)?",
            re.I,
        ),
        _season,
    ),
    (re.compile(rf"\b{_COUNT}\s+{_UNIT}\s+(?P<ago>ago)\b", re.I), _ago),
    (re.compile(rf"\b(?:in|over|during|within)\s+the\s+(?:past|last)\s+(?:{_COUNT}\s+)?{_UNIT}\b", re.I), _ago),
)
