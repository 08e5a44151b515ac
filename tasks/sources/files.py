"""Session files: JSONL in our format or Google ADK session ``.json``, from a folder or one file.

Every line becomes either a *raw session* (a flat, not yet validated record with its origin) or
a quarantine record with the file, line and reason. Nothing is dropped silently.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from tasks.errors import SourceError
from tasks.models import QuarantineRecord
from tasks.sources.raw import RawEvent, RawSession, parse_time


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _adk_text(event: dict[str, Any]) -> str:
    content = event.get("content") or {}
    parts = content.get("parts") or [] if isinstance(content, dict) else []
    return "\n".join(p["text"] for p in parts if isinstance(p, dict) and isinstance(p.get("text"), str))


def _from_adk(obj: dict[str, Any], source: str, line: int, raw: str) -> RawSession:
    problems: list[str] = []
    events: list[RawEvent] = []
    summaries: list[str] = []
    until: datetime | None = None
    for i, ev in enumerate(obj.get("events") or []):
        if not isinstance(ev, dict):
            problems.append(f"events[{i}]: not an object")
            continue
        compaction = (ev.get("actions") or {}).get("compaction") if isinstance(ev.get("actions"), dict) else None
        if isinstance(compaction, dict):
            summary = _adk_text({"content": compaction.get("compacted_content") or {}})
            if summary:
                summaries.append(summary)
                end = parse_time(compaction.get("end_timestamp"), [], "compaction.end_timestamp")
                until = max(until, end) if until and end else until or end
            continue
        text = _adk_text(ev)
        if not text.strip():
            continue  # tool calls and function responses carry no conversational text
        events.append(
            RawEvent(
                id=_text(ev.get("id")),
                author=_text(ev.get("author")),
                text=text,
                timestamp=parse_time(ev.get("timestamp"), problems, f"events[{i}].timestamp"),
            )
        )
    times = [e.timestamp for e in events if e.timestamp]
    ended = parse_time(obj.get("last_update_time"), problems, "last_update_time")
    return RawSession(
        source=source, line=line, raw=raw, fmt="adk",
        app_name=_text(obj.get("app_name")), user_id=_text(obj.get("user_id")),
        session_id=_text(obj.get("id")), started_at=min(times) if times else ended,
        ended_at=ended or (max(times) if times else None), events=events,
        compaction_summaries=summaries, compacted_until=until, problems=problems,
    )  # fmt: skip


def _from_native(obj: dict[str, Any], source: str, line: int, raw: str) -> RawSession:
    problems: list[str] = []
    events: list[RawEvent] = []
    raw_events = obj.get("events")
    if not isinstance(raw_events, list):
        problems.append("events: missing or not a list")
        raw_events = []
    for i, ev in enumerate(raw_events):
        if not isinstance(ev, dict):
            problems.append(f"events[{i}]: not an object")
            continue
        if ev.get("text") is not None and not isinstance(ev.get("text"), str):
            problems.append(f"events[{i}].text: not a string")
        events.append(
            RawEvent(
                id=None if ev.get("id") is None else str(ev.get("id")),
                author=_text(ev.get("author")),
                text=_text(ev.get("text")),
                timestamp=parse_time(ev.get("timestamp"), problems, f"events[{i}].timestamp"),
            )
        )
    summaries = [s for s in obj.get("compaction_summaries") or [] if isinstance(s, str)]
    return RawSession(
        source=source, line=line, raw=raw, fmt="jsonl",
        app_name=_text(obj.get("app_name")), user_id=_text(obj.get("user_id")),
        session_id=_text(obj.get("session_id")),
        started_at=parse_time(obj.get("started_at"), problems, "started_at"),
        ended_at=parse_time(obj.get("ended_at"), problems, "ended_at"),
        events=events, compaction_summaries=summaries, problems=problems,
    )  # fmt: skip


def parse_line(text: str, source: str, line: int, max_raw: int = 4000) -> RawSession | QuarantineRecord:
    """One JSONL line to a raw session, or a quarantine record saying why it is unreadable."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        return QuarantineRecord(source=source, line=line, reason=f"invalid JSON: {exc.msg}", raw=text[:max_raw])
    if not isinstance(obj, dict):
        return QuarantineRecord(source=source, line=line, reason="a session must be a JSON object", raw=text[:max_raw])
    is_adk = "session_id" not in obj and "id" in obj and "last_update_time" in obj
    return (_from_adk if is_adk else _from_native)(obj, source, line, text[:max_raw])


def session_files(uri: str) -> list[Path]:
    """JSONL (and ADK ``.json``) files under a folder, or the one file named, in a stable order."""
    path = Path(uri)
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise SourceError(f"session source {uri!r} is neither a file nor a folder")
    return sorted(p for p in path.rglob("*") if p.suffix in {".jsonl", ".json"} and p.is_file())


def read_source(uri: str, max_raw: int = 4000) -> Iterator[RawSession | QuarantineRecord]:
    """Every session line of every file under ``uri``; a ``.json`` file holds one ADK session."""
    for path in session_files(uri):
        if path.suffix == ".json":
            yield parse_line(path.read_text(encoding="utf-8"), str(path), 1, max_raw)
            continue
        with path.open(encoding="utf-8", errors="replace") as handle:
            for number, text in enumerate(handle, start=1):
                if text.strip():
                    yield parse_line(text, str(path), number, max_raw)


class FileSource:
    """Session files under a folder (or one file): the default source."""

    def __init__(self, uri: str) -> None:
        self.uri = uri

    def pull(self, max_raw: int) -> Iterator[RawSession | QuarantineRecord]:
        return read_source(self.uri, max_raw)
