"""Hostile session input for the reliability suite: builders, fixed cases and id families.

Cases are split into families the fixes were developed on (``DEV``: the kinds issue 14 lists) and
families written afterwards and only measured (``HELD_OUT``), so a rule tuned to its own test
shows up as a held-out failure.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

BASE = datetime(2025, 3, 1, 10, 0, tzinfo=UTC)
TEXTS = ("I live in Berlin.", "That sounds nice.", "I work as a nurse at the city hospital.", "Great!")


def iso(value: datetime) -> str:
    return value.isoformat()


def session(app: str = "app", user: str = "u1", sid: str = "s1", texts: tuple[str, ...] = TEXTS,
            start: datetime = BASE, **changes: Any) -> dict[str, Any]:  # fmt: skip
    """A valid native session (user and assistant turns a minute apart); ``changes`` override fields."""
    events = [
        {"id": f"e{i}", "author": "user" if i % 2 == 0 else "assistant", "text": text,
         "timestamp": iso(start + timedelta(minutes=i))}
        for i, text in enumerate(texts)
    ]  # fmt: skip
    obj: dict[str, Any] = {
        "app_name": app, "user_id": user, "session_id": sid, "started_at": iso(start),
        "ended_at": iso(start + timedelta(minutes=len(texts) + 1)), "events": events,
    }  # fmt: skip
    obj.update(changes)
    return obj


def adk(app: str = "app", user: str = "u1", sid: str = "adk1", texts: tuple[str, ...] = TEXTS) -> dict[str, Any]:
    events = [
        {"id": f"a{i}", "author": "user" if i % 2 == 0 else "helper_agent", "timestamp": BASE.timestamp() + 60 * i,
         "content": {"parts": [{"text": text}]}}
        for i, text in enumerate(texts)
    ]  # fmt: skip
    return {"id": sid, "app_name": app, "user_id": user, "last_update_time": BASE.timestamp() + 600, "events": events}


def line(obj: Any) -> bytes:
    """One JSONL line; ``ensure_ascii`` so lone surrogates travel as ``\\ud800`` escapes, as in the wild."""
    return json.dumps(obj, ensure_ascii=True).encode("ascii") + b"\n"


def with_event(obj: dict[str, Any], index: int, **changes: Any) -> dict[str, Any]:
    events = [dict(e) for e in obj["events"]]
    events[index].update(changes)
    return {**obj, "events": events}


@dataclass(frozen=True)
class Case:
    """One input line and what must become of it: ``ingest`` (in the ledger) or ``quarantine`` with
    ``reason`` in its reason text."""

    name: str
    data: bytes
    expect: str
    reason: str = ""
    family: str = "dev"


def _q(name: str, data: bytes, reason: str, family: str = "dev") -> Case:
    return Case(name, data, "quarantine", reason, family)


def _ok(name: str, data: bytes, family: str = "dev") -> Case:
    return Case(name, data, "ingest", "", family)


def fixed_cases() -> list[Case]:
    """Every kind of bad input issue 14 names (dev) and more written after the fixes (held out)."""
    deep = b'{"a": ' * 100_000 + b"1" + b"}" * 100_000 + b"\n"
    valid = line(session(sid="plain"))
    far = BASE.replace(year=9999, month=12, day=31)
    cases = [
        _q("json nested 100,000 deep", deep, "nested too deeply"),
        _q(
            "lone surrogate in an author",
            line(with_event(session(sid="sur1"), 0, author="us\ud800er")),
            "lone surrogate",
        ),
        _q("lone surrogate in a text", line(with_event(session(sid="sur2"), 1, text="ok \udfff")), "lone surrogate"),
        _q(
            "lone surrogate in a summary", line(session(sid="sur3", compaction_summaries=["a\ud800"])), "lone surrogate"
        ),
        _q("lone surrogate in a user id", line(session(user="u\ud800", sid="sur4")), "lone surrogate"),
        _q("control character in a user id", line(session(user="bob\x01x", sid="cc")), "control characters"),
        _q("user id of 513 characters", line(session(user="u" * 513, sid="long")), "longer than 512"),
        _q(
            "relative dates on 9999-12-31",
            line(session(sid="y9999", start=far - timedelta(hours=1), texts=("I will move to Paris tomorrow.",))),
            "outside 1900..9000",
        ),
        _q(
            "invalid UTF-8 in a JSONL line",
            valid.replace(b'"u1"', b'"\xff(u3"').replace(b'"plain"', b'"utf"'),
            "not valid UTF-8",
        ),
        _q("event id true", line(with_event(session(sid="idbool"), 0, id=True)), "must be a string, got bool"),
        _q("event id an object", line(with_event(session(sid="iddict"), 0, id={"a": 1})), "must be a string, got dict"),
        _q(
            "message of 10 MB", line(with_event(session(sid="huge"), 0, text="x" * 10_000_000)), "more than the 100,000"
        ),
        _q("raw NUL byte in a line", valid.replace(b"Berlin", b"Ber\x00lin"), "invalid JSON"),
        _q("NUL in a session id", line(session(sid="nul\x00id")), "control characters"),
        _q("far-future timestamps", line(session(sid="future", start=BASE.replace(year=9500))), "outside 1900..9000"),
        _q(
            "ended_at before started_at",
            line(session(sid="back", ended_at=iso(BASE - timedelta(days=1)))),
            "ended_at >= started_at",
        ),
        _q("duplicate event ids", line(with_event(session(sid="dupev"), 1, id="e0")), "unique"),
        _q("events not a list", line(session(sid="evstr", events="hello")), "events"),
        _q("app name a number", line(session(app=7, sid="appint")), "must be a string, got int"),  # type: ignore[arg-type]
        _q("no events", line(session(sid="empty", events=[])), "no event with text"),
        _q("truncated JSON", valid[:40] + b"\n", "invalid JSON"),
        _ok("CR inside a line", line(session(sid="cr")).replace(b', "events"', b',\r "events"')),
        _ok("NUL escaped in a text", line(with_event(session(sid="nultext"), 1, text="a\x00b"))),
        _ok(
            "naive timestamps (taken as UTC)",
            line(session(sid="naive", started_at="2025-03-01T10:00:00", ended_at="2025-03-01T10:30:00")),
        ),
        _ok("ids with path separators", line(session(app="../../etc", user="a/b\\c", sid="..\\..\\x/y"))),
        _ok(
            "ids with SQL and quotes",
            line(session(app="o'brien\"; DROP TABLE memories; --", user="' OR 1=1 --", sid="%_'\"\\")),
        ),
        _ok("plain valid session", valid),
        # Held out: written after the fixes above, measured only.
        _q("integer of 5,000 digits", b'{"app_name": ' + b"9" * 5000 + b"}\n", "invalid JSON", "held_out"),
        _q("NaN timestamp", line(session(sid="nan", started_at=float("nan"))), "started_at", "held_out"),
        _q("Infinity epoch", line(with_event(session(sid="inf"), 0, timestamp=float("inf"))), "timestamp", "held_out"),
        _q(
            "year 1 with a +05:00 offset",
            line(session(sid="y1", started_at="0001-01-01T00:00:00+05:00")),
            "started_at",
            "held_out",
        ),
        _q("lone surrogate in an object key", line({**session(sid="key"), "x\udc80": 1}), "lone surrogate", "held_out"),
        _q(
            "compaction summaries a string",
            line(session(sid="cstr", compaction_summaries="abc")),
            "compaction",
            "held_out",
        ),
        _q(
            "author a list",
            line(with_event(session(sid="authl"), 0, author=["user"])),
            "must be a string, got list",
            "held_out",
        ),
        _q("session a JSON array", b"[1, 2, 3]\n", "JSON object", "held_out"),
        _q("timestamps a boolean", line(session(sid="tsb", started_at=True)), "started_at", "held_out"),
        _q(
            "event id with a newline",
            line(with_event(session(sid="evnl"), 0, id="e\n0")),
            "control characters",
            "held_out",
        ),
        _q(
            "event id of 600 characters",
            line(with_event(session(sid="evlong"), 0, id="e" * 600)),
            "longer than 512",
            "held_out",
        ),
        _ok("zero-width and right-to-left ids", line(session(user="\u200bu\u202e1", sid="rtl")), "held_out"),
        _ok(
            "emoji (surrogate pair escapes) in texts",
            line(with_event(session(sid="emoji"), 0, text="I love \U0001f99c parrots.")),
            "held_out",
        ),
        _ok("look-alike Cyrillic user id", line(session(user="u\u04301", sid="cyr")), "held_out"),
    ]
    return cases


def adk_cases() -> list[tuple[str, bytes, str, str]]:
    """ADK ``.json`` files: (file name, bytes, expect, reason)."""
    good = json.dumps(adk(sid="adk-ok")).encode()
    return [
        ("adk_ok.json", good, "ingest", ""),
        ("adk_bad_utf8.json", good.replace(b'"u1"', b'"\xc3(u1"'), "quarantine", "not valid UTF-8"),
        (
            "adk_content_str.json",
            json.dumps(
                {
                    **adk(sid="adk-cs"),
                    "events": [{"id": "x", "author": "user", "timestamp": BASE.timestamp(), "content": "hello"}],
                }
            ).encode(),
            "quarantine",
            "no event with text",
        ),
        ("adk_events_int.json", json.dumps({**adk(sid="adk-ei"), "events": 5}).encode(), "quarantine", "events"),
    ]


#: Tenant ids that must never see each other's rows: quotes, SQL, LIKE wildcards, backslashes,
#: look-alikes, 512 characters. All pass the id rule.
HOSTILE_IDS = (
    "alice", "alice'", "alice''", "' OR 1=1 --", "alice' OR '1'='1", "%", "_", "a%", "a_ice", "al%ce",
    "alice\\", "\\'", "\u0430lice", "ALICE", "alice ", " alice", "a" * 512, "a" * 511 + "%", "\"alice\"", "`alice`",
)  # fmt: skip
