"""Time in one place: every stored or compared time is an aware UTC datetime."""

from __future__ import annotations

from datetime import UTC, datetime


def utc(value: datetime) -> datetime:
    """Naive datetimes are taken as UTC; aware ones converted."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def now() -> datetime:
    return datetime.now(UTC)
