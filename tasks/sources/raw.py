"""Raw sessions: what a source read, flat and not yet validated, with where it came from."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tasks.clock import utc

#: Times outside these years are refused: nothing real happens there, and date arithmetic on them
#: ("tomorrow" on 9999-12-31) overflows in later stages.
MIN_YEAR, MAX_YEAR = 1900, 9000

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
    """ISO-8601 strings or epoch floats to aware UTC datetimes; a problem is noted on failure.

    Naive times are taken as UTC (:func:`tasks.clock.utc`); years outside ``MIN_YEAR..MAX_YEAR`` are refused.
    """
    if value is None:
        return None
    parsed: datetime | None = None
    try:
        if isinstance(value, int | float) and not isinstance(value, bool):
            parsed = datetime.fromtimestamp(float(value), tz=UTC)
        elif isinstance(value, str):
            parsed = utc(datetime.fromisoformat(value.replace("Z", "+00:00")))
    except (ValueError, OverflowError, OSError):
        parsed = None
    if parsed is None:
        problems.append(f"{where}: not an ISO-8601 time or epoch seconds: {str(value)[:60]!r}")
        return None
    if not MIN_YEAR <= parsed.year <= MAX_YEAR:
        problems.append(f"{where}: year {parsed.year} is outside {MIN_YEAR}..{MAX_YEAR}: {str(value)[:60]!r}")
        return None
    return parsed


def lone_surrogate_path(obj: Any) -> str | None:
    """Where in a parsed JSON value a string (or key) holds a lone surrogate, e.g. ``events[2].author``.

    JSON may escape one (``"\\ud800"``); Python keeps it, but it cannot be encoded as UTF-8, so Arrow,
    Lance and polars would fail on it later. Iterative, so any nesting depth is fine.
    """
    stack: list[tuple[str, Any]] = [("", obj)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, str):
            if _has_surrogate(value):
                return path or "value"
        elif isinstance(value, dict):
            for key, item in value.items():
                name = f"{path}.{key}" if path else str(key)
                if _has_surrogate(key):
                    return f"{path or 'object'} key"
                stack.append((name, item))
        elif isinstance(value, list):
            stack += [(f"{path}[{i}]", item) for i, item in enumerate(value)]
    return None


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def printable_path(path: Path) -> str:
    """A file name as valid UTF-8 text: undecodable bytes in names are shown as ``\\xNN``, not kept as
    surrogates that could not be stored."""
    return os.fsencode(path).decode("utf-8", errors="backslashreplace")
