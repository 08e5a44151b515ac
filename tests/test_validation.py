"""Session source and pandera validation: bad input is quarantined with its reason, never dropped."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tasks.ingest.validate import validate_batch
from tasks.models import QuarantineRecord
from tasks.sources.files import parse_line, read_source
from tasks.sources.raw import RawSession


def native(sid: str = "s1", **changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "app_name": "app", "user_id": "u", "session_id": sid,
        "started_at": "2025-01-01T10:00:00Z", "ended_at": "2025-01-01T10:10:00Z",
        "events": [{"id": "e1", "author": "user", "text": "I love parrots", "timestamp": "2025-01-01T10:01:00Z"},
                   {"id": "e2", "author": "Maria", "text": "Me too", "timestamp": "2025-01-01T10:02:00+00:00"}],
    }  # fmt: skip
    base.update(changes)
    return base


def raw(obj: dict[str, Any]) -> RawSession:
    parsed = parse_line(json.dumps(obj), "src.jsonl", 1)
    assert isinstance(parsed, RawSession)
    return parsed


def test_good_session_becomes_typed_with_roles() -> None:
    result = validate_batch([raw(native())])
    assert not result.quarantined
    (s,) = result.sessions
    assert [e.role for e in s.events] == ["user", "other"]
    assert s.events[0].timestamp.tzinfo is not None


def test_each_bad_session_quarantined_with_reason_rest_proceed() -> None:
    dup = native("dup", events=[native()["events"][0], native()["events"][0]])
    backwards = native("back", ended_at="2024-01-01T00:00:00Z")
    blank = native("   ")
    outside = native("out", events=[dict(native()["events"][0], timestamp="2026-01-01T00:00:00Z")])
    result = validate_batch([raw(native("ok")), raw(dup), raw(backwards), raw(blank), raw(outside)])
    assert [s.session_id for s in result.sessions] == ["ok"]
    reasons = [q.reason for q in result.quarantined]
    assert "unique" in reasons[0]
    assert "ended_at >= started_at" in reasons[1]
    assert "not blank" in reasons[2]
    assert "within the session" in reasons[3]


def test_unreadable_line_is_a_quarantine_record() -> None:
    item = parse_line("{not json", "f.jsonl", 7)
    assert isinstance(item, QuarantineRecord)
    assert (item.line, item.raw) == (7, "{not json") and "invalid JSON" in item.reason
    assert isinstance(parse_line("[1, 2]", "f.jsonl", 8), QuarantineRecord)


def test_unended_session_is_pending_not_quarantined() -> None:
    result = validate_batch([raw(native(ended_at=None))])
    assert result.pending == 1 and not result.sessions and not result.quarantined


def test_adk_session_with_compaction(tmp_path: Path) -> None:
    adk = {
        "id": "adk-1", "app_name": "app", "user_id": "u", "last_update_time": 1747040400.0,
        "events": [
            {"id": "x1", "author": "user", "timestamp": 1747040000.0,
             "content": {"parts": [{"text": "My name is Bob"}]}},
            {"id": "x2", "author": "helper", "timestamp": 1747040100.0, "content": {"parts": [{"text": "Hi Bob"}]}},
            {"id": "x3", "author": "helper", "timestamp": 1747040200.0, "content": {"parts": [{"function_call": {}}]}},
            {"id": "x4", "author": "helper", "timestamp": 1747040300.0,
             "actions": {"compaction": {"compacted_content": {"parts": [{"text": "Bob said hello"}]}}}},
        ],
    }  # fmt: skip
    (tmp_path / "one.json").write_text(json.dumps(adk))
    items = list(read_source(str(tmp_path)))
    result = validate_batch([i for i in items if isinstance(i, RawSession)])
    (s,) = result.sessions
    assert s.session_id == "adk-1"
    assert [(e.id, e.role) for e in s.events] == [("x1", "user"), ("x2", "agent")]
    assert s.compaction_summaries == ("Bob said hello",)


def test_content_hash_changes_with_text() -> None:
    a = validate_batch([raw(native())]).sessions[0]
    changed = native()
    changed["events"][0]["text"] = "I love macaws"
    b = validate_batch([raw(changed)]).sessions[0]
    assert a.key == b.key and a.content_hash != b.content_hash
