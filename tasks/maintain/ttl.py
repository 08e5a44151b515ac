"""TTL pass: expire memories past their time, and hard-delete rows closed longer than the retention.

A memory expires at the earliest of its explicit ``expires_at`` ("in Lisbon until Friday") and its
topic's rule (``settings.ttl_rules``: N days after it was stated, last confirmed or last recalled).
It is closed, not removed: status ``expired``, ``valid_to`` the moment it lapsed (so "as of" views
stay true and a re-run at a later time closes it identically), audited as EXPIRE. Rows closed by
maintenance (``settings.purge_statuses``) longer than ``closed_retention_days`` ago (``updated_at``,
which closing sets) are then deleted, each audited as PURGE.

:func:`expiry_from_text` turns "until Friday"-style phrases into a time; the extractor should call
it for each fact (``expires_at=expiry_from_text(fact.content or the sentence, fact.stated_at)``) —
the extractor's owner wires it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

from tasks.clock import utc
from tasks.maintain.common import (
    FILTER_COLUMNS,
    PART_CHANGES,
    Closure,
    PassReport,
    Plan,
    active,
    scan,
    where_scope,
)
from tasks.maintain.write import execute
from tasks.settings import Settings, TtlRule
from tasks.store.filters import is_in, ts_literal
from tasks.store.tables import MEMORIES, Store

_COLUMNS = ["row_id", "memory_id", "app_name", "user_id", "topic", "content", "stated_at", "valid_from",
            "last_confirmed_at", "last_accessed_at", "expires_at"]  # fmt: skip
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


def rule_expiry(rule: TtlRule, row: dict[str, Any]) -> datetime:
    """When a memory lapses under ``rule``: N days after its reference time."""
    times = [row["stated_at"]]
    if rule.since in ("confirmed", "recalled") and row.get("last_confirmed_at"):
        times.append(row["last_confirmed_at"])
    if rule.since == "recalled" and row.get("last_accessed_at"):
        times.append(row["last_accessed_at"])
    return max(utc(t) for t in times) + timedelta(days=rule.days)


def expiry_of(row: dict[str, Any], rules: dict[str, TtlRule]) -> tuple[datetime, str] | None:
    """The earliest expiry of a memory with its reason, or None if nothing ever expires it."""
    found: list[tuple[datetime, str]] = []
    if row.get("expires_at") is not None:
        at = utc(row["expires_at"])
        found.append((at, f"expired: explicit expiry {at.isoformat()}"))
    rule = rules.get(row["topic"])
    if rule is not None:
        why = f"expired: {row['topic']} older than {rule.days:g} days since {rule.since}"
        found.append((rule_expiry(rule, row), why))
    return min(found) if found else None


def plan_ttl(settings: Settings, store: Store, report: PassReport, app: str | None, user: str | None) -> Iterator[Plan]:
    """Expiries, a part at a time; then the purge of long-closed rows (closed = ``updated_at``, set on closing)."""
    plan, at = Plan(), report.now
    rules = {r.topic: r for r in settings.ttl_rules}
    for chunk in scan(store, MEMORIES, active(app, user), _COLUMNS, settings.maintain_chunk_rows):
        report.scanned += chunk.num_rows
        for row in chunk.to_pylist():
            if len(plan) >= PART_CHANGES:
                yield plan
                plan = Plan()
            found = expiry_of(row, rules)
            if found is None or found[0] > at:
                continue
            valid_to = max(found[0], utc(row["valid_from"]))
            plan.close(Closure(MEMORIES, row["row_id"], row["memory_id"], row["app_name"], row["user_id"], "expired",
                               valid_to, found[1], "EXPIRE", "historical", row["content"], None,
                               row["_rowid"]), at)  # fmt: skip
    if settings.closed_retention_days > 0 and settings.purge_statuses:
        cutoff = at - timedelta(days=settings.closed_retention_days)
        closed = where_scope(app, user, is_in("status", settings.purge_statuses, FILTER_COLUMNS),
                             f"`updated_at` < {ts_literal(cutoff)}")  # fmt: skip
        for chunk in scan(store, MEMORIES, closed, ["row_id", "memory_id", "app_name", "user_id", "content", "status"],
                          settings.maintain_chunk_rows):  # fmt: skip
            for row in chunk.to_pylist():
                reason = f"purged: {row['status']} for more than {settings.closed_retention_days:g} days"
                plan.audit("PURGE", "forgets", row["memory_id"], row["row_id"], row["app_name"], row["user_id"],
                           row["content"], None, reason, at)  # fmt: skip
                if len(plan) >= PART_CHANGES:
                    yield plan
                    plan = Plan()
                plan.purges = [(MEMORIES, closed or "true")]
    yield plan


def run_ttl(
    settings: Settings, *, now: datetime | None = None, app: str | None = None, user: str | None = None,
    dry_run: bool = False,
) -> PassReport:  # fmt: skip
    """Expire lapsed memories and purge long-closed rows (see the module docstring)."""
    return execute(settings, "ttl", lambda store, report: plan_ttl(settings, store, report, app, user),
                   now=now, app=app, user=user, dry_run=dry_run)  # fmt: skip
