"""Sessions handed in over HTTP, queued for the next ingest run as JSONL files of the files source.

A session is checked with the very parser and pandera schema an ingest run uses before it is kept,
so what is accepted will ingest and what is refused is refused with the same reason a run would
quarantine it with. Each session becomes one file under ``<sessions_uri>/inbox/``, named by its
content, written to a temporary name and renamed: a run pulling meanwhile sees it whole or not at all,
and the same session handed in twice is one file.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tasks.errors import PipelineError, SourceError
from tasks.ingest.validate import validate_batch
from tasks.models import QuarantineRecord
from tasks.settings import Settings
from tasks.sources.files import parse_line

INBOX = "inbox"


class SessionRejected(PipelineError):
    """The session would be quarantined by an ingest run; ``reason`` says why."""


@dataclass(frozen=True)
class AcceptedSession:
    session_id: str
    stored_id: str
    path: str
    duplicate: bool


def accept_session(settings: Settings, payload: dict[str, Any], app_name: str, user_id: str) -> AcceptedSession:
    """Validate one session (our JSONL shape) for this app and user and queue it in the files source.

    ``app_name`` / ``user_id`` come from the caller's scope: a body naming another tenant is refused.
    """
    for key, want in (("app_name", app_name), ("user_id", user_id)):
        if payload.get(key, want) != want:
            raise SessionRejected(f"{key}: the session names {payload.get(key)!r}, the request is for {want!r}")
    body = {**payload, "app_name": app_name, "user_id": user_id}
    line = json.dumps(body, ensure_ascii=False, sort_keys=True)
    parsed = parse_line(line, "api", 1, settings.quarantine_raw_max_chars)
    if isinstance(parsed, QuarantineRecord):
        raise SessionRejected(parsed.reason)
    checked = validate_batch([parsed])
    if checked.quarantined:
        raise SessionRejected(checked.quarantined[0].reason)
    if not checked.sessions:
        raise SessionRejected("ended_at: missing (only ended sessions are accepted)")
    session = checked.sessions[0]
    folder = Path(settings.sessions_uri)
    if folder.is_file():
        raise SourceError(f"sessions_uri {settings.sessions_uri!r} is one file; the inbox needs a folder")
    stored_id = hashlib.sha256(line.encode("utf-8")).hexdigest()[:32]
    tenant = hashlib.sha256(f"{app_name}\x00{user_id}".encode()).hexdigest()[:16]
    target = folder / INBOX / tenant / f"{stored_id}.jsonl"
    if target.is_file():
        return AcceptedSession(session.session_id, stored_id, str(target), duplicate=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(f".{os.getpid()}.part")
    with partial.open("w", encoding="utf-8") as handle:
        handle.write(line + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    partial.replace(target)
    return AcceptedSession(session.session_id, stored_id, str(target), duplicate=False)
