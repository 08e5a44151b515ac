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
from tasks.sources.raw import RawEvent, RawSession, lone_surrogate_path, parse_time, printable_path


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _string(obj: dict[str, Any], key: str, problems: list[str], where: str) -> str | None:
    """``obj[key]`` when it is a string; a problem naming its type when it is something else."""
    value = obj.get(key)
    if value is None or isinstance(value, str):
        return value
    problems.append(f"{where}: must be a string, got {type(value).__name__}")
    return None


def _strings(value: Any, problems: list[str], where: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        problems.append(f"{where}: must be a list of strings")
        return []
    return list(value)


def _adk_text(event: dict[str, Any]) -> str:
    content = event.get("content")
    parts = content.get("parts") if isinstance(content, dict) else None
    if not isinstance(parts, list):
        return ""
    return "\n".join(p["text"] for p in parts if isinstance(p, dict) and isinstance(p.get("text"), str))


def _from_adk(obj: dict[str, Any], source: str, line: int, raw: str) -> RawSession:
    problems: list[str] = []
    events: list[RawEvent] = []
    summaries: list[str] = []
    until: datetime | None = None
    raw_events = obj.get("events") or []
    if not isinstance(raw_events, list):
        problems.append("events: must be a list")
        raw_events = []
    for i, ev in enumerate(raw_events):
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
                id=_string(ev, "id", problems, f"events[{i}].id"),
                author=_string(ev, "author", problems, f"events[{i}].author"),
                text=text,
                timestamp=parse_time(ev.get("timestamp"), problems, f"events[{i}].timestamp"),
            )
        )
    times = [e.timestamp for e in events if e.timestamp]
    ended = parse_time(obj.get("last_update_time"), problems, "last_update_time")
    return RawSession(
        source=source, line=line, raw=raw, fmt="adk",
        app_name=_string(obj, "app_name", problems, "app_name"),
        user_id=_string(obj, "user_id", problems, "user_id"),
        session_id=_string(obj, "id", problems, "id"), started_at=min(times) if times else ended,
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
                id=_string(ev, "id", problems, f"events[{i}].id"),
                author=_string(ev, "author", problems, f"events[{i}].author"),
                text=_text(ev.get("text")),
                timestamp=parse_time(ev.get("timestamp"), problems, f"events[{i}].timestamp"),
            )
        )
    summaries = _strings(obj.get("compaction_summaries"), problems, "compaction_summaries")
    return RawSession(
        source=source, line=line, raw=raw, fmt="jsonl",
        app_name=_string(obj, "app_name", problems, "app_name"),
        user_id=_string(obj, "user_id", problems, "user_id"),
        session_id=_string(obj, "session_id", problems, "session_id"),
        started_at=parse_time(obj.get("started_at"), problems, "started_at"),
        ended_at=parse_time(obj.get("ended_at"), problems, "ended_at"),
        events=events, compaction_summaries=summaries, problems=problems,
    )  # fmt: skip


def parse_line(text: str, source: str, line: int, max_raw: int = 4000) -> RawSession | QuarantineRecord:
    """One JSONL line to a raw session, or a quarantine record saying why it is unreadable.

    Never raises for any input: JSON nested too deep, numbers too long and lone surrogates from
    ``\\ud800`` escapes are reasons like any other, so one hostile line cannot abort its batch.
    """
    raw = text[:max_raw]
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        return QuarantineRecord(source=source, line=line, reason=f"invalid JSON: {exc.msg}", raw=raw)
    except RecursionError:
        return QuarantineRecord(source=source, line=line, reason="invalid JSON: nested too deeply", raw=raw)
    except ValueError as exc:  # e.g. an integer longer than Python's digit limit
        return QuarantineRecord(source=source, line=line, reason=f"invalid JSON: {str(exc)[:120]}", raw=raw)
    if not isinstance(obj, dict):
        return QuarantineRecord(source=source, line=line, reason="a session must be a JSON object", raw=raw)
    bad = lone_surrogate_path(obj) if "\\u" in text else None
    if bad is not None:
        reason = f"{bad[:200]}: is not valid UTF-8 (a lone surrogate escape such as \\ud800)"
        return QuarantineRecord(source=source, line=line, reason=reason, raw=raw)
    is_adk = "session_id" not in obj and "id" in obj and "last_update_time" in obj
    try:
        return (_from_adk if is_adk else _from_native)(obj, source, line, raw)
    except Exception as exc:  # last line of defence: a shape no check foresaw
        return QuarantineRecord(source=source, line=line, reason=f"unreadable session: {type(exc).__name__}", raw=raw)


def _undecodable(data: bytes, source: str, line: int, max_raw: int, exc: UnicodeDecodeError) -> QuarantineRecord:
    """A line (or ADK file) that is not UTF-8: quarantined, never guessed at (U+FFFD would make new ids)."""
    reason = f"not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})"
    raw = data[: max_raw * 4].decode("utf-8", errors="backslashreplace")[:max_raw]
    return QuarantineRecord(source=source, line=line, reason=reason, raw=raw)


def session_files(uri: str) -> list[Path]:
    """JSONL (and ADK ``.json``) files under a folder, or the one file named, in a stable order."""
    path = Path(uri)
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise SourceError(f"session source {uri!r} is neither a file nor a folder")
    return sorted(p for p in path.rglob("*") if p.suffix in {".jsonl", ".json"} and p.is_file())


def read_source(uri: str, max_raw: int = 4000) -> Iterator[RawSession | QuarantineRecord]:
    """Every session line of every file under ``uri``; a ``.json`` file holds one ADK session.

    Files are read as bytes and split on ``\\n`` only, so a raw CR inside a line neither splits it
    nor shifts later line numbers; each line is decoded strictly as UTF-8.
    """
    for path in session_files(uri):
        source = printable_path(path)
        if path.suffix == ".json":
            data = path.read_bytes()
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError as exc:
                yield _undecodable(data, source, 1, max_raw, exc)
                continue
            yield parse_line(text.removeprefix("\ufeff"), source, 1, max_raw)
            continue
        with path.open("rb") as handle:
            for number, chunk in enumerate(handle, start=1):
                try:
                    text = chunk.decode("utf-8")
                except UnicodeDecodeError as exc:
                    yield _undecodable(chunk, source, number, max_raw, exc)
                    continue
                if number == 1:
                    text = text.removeprefix("\ufeff")  # a byte-order mark is not content
                if text.strip():
                    yield parse_line(text, source, number, max_raw)


class FileSource:
    """Session files under a folder (or one file): the default source."""

    def __init__(self, uri: str) -> None:
        self.uri = uri

    def pull(self, max_raw: int) -> Iterator[RawSession | QuarantineRecord]:
        return read_source(self.uri, max_raw)
