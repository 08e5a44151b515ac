"""The suite's one fixed clock: tests pass it as ``now``, so no result depends on the day the suite runs.

Mid-month and mid-day on purpose is no excuse to rely on it: the suite is also run under ``faketime`` on
month ends, a leap day and New Year's Eve, and in a +14:00 time zone (docs/testing.md).
"""

from __future__ import annotations

from datetime import UTC, datetime

NOW = datetime(2026, 3, 14, 12, tzinfo=UTC)
