"""Raw sessions: what a source read, flat and not yet validated, with where it came from."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from tasks.clock import utc

AGENT_AUTHORS = frozenset({"agent", "model", "assistant", "bot", "ai"})
USER_AUTHORS = frozenset({"user", "human"})


@dataclass
class RawEvent:
    id: str | None
    author: str | None
    text: str | None
    timestamp: datetime | None


@dataclass
class RawSession:
    """A parsed line, kept flat so that pandera can validate a whole batch in one frame."""

    source: str
    line: int
    raw: str
    app_name: str | None
    user_id: str | None
    session_id: str | None
    started_at: datetime | None
    ended_at: datetime | None
    events: list[RawEvent]
    fmt: str
    compaction_summaries: list[str] = field(default_factory=list)
    compacted_until: datetime | None = None
    problems: list[str] = field(default_factory=list)


def parse_time(value: Any, problems: list[str], where: str) -> datetime | None:
    """ISO-8601 strings or epoch floats to aware UTC datetimes; a problem is noted on failure."""
    if value is None:
        return None
    try:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return datetime.fromtimestamp(float(value), tz=UTC)
        if isinstance(value, str):
            parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
            return utc(parsed)
    except (ValueError, OverflowError, OSError):
        pass
    problems.append(f"{where}: not an ISO-8601 time or epoch seconds: {str(value)[:60]!r}")
    return None


