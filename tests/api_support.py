"""What the API and page tests share: a store ingested from a few sessions at a fixed time, a real
uvicorn server on 127.0.0.1 (port 0) in a thread, and the keys file."""

from __future__ import annotations

import json
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import uvicorn

from tasks.api.app import create_app
from tasks.api.keys import load_keys
from tasks.ingest.run import run_ingest
from tasks.settings import Settings

#: The page's and the tests' "now": relative dates are read against it, never against the wall clock.
NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
ACME_KEY, OTHER_KEY, ADMIN_KEY = "acme-key-0123456789", "other-key-0123456789", "admin-key-0123456789"
#: (days before NOW, what the user said): each becomes a memory stated that day.
SAID = (
    (0, "I live in Zurich now."),
    (1, "I love African Grey parrots."),
    (3, "I prefer the aisle seat when flying."),
    (30, "I work at Google as a software engineer."),
    (40, "My sister Nora plays the violin."),
)
_SEEDED: dict[str, Path] = {}


def session_line(app: str, user: str, sid: str, text: str, at: datetime) -> dict[str, object]:
    end = at + timedelta(minutes=2)
    events = [
        {"id": f"{sid}-e1", "author": "user", "text": text, "timestamp": at.isoformat()},
        {"id": f"{sid}-e2", "author": "agent", "text": "Noted, thanks!", "timestamp": end.isoformat()},
    ]
    return {"app_name": app, "user_id": user, "session_id": sid, "started_at": at.isoformat(),
            "ended_at": end.isoformat(), "events": events}  # fmt: skip


def seeded_settings(root: Path, **extra: object) -> Settings:
    """A store with alice's five memories (acme) and bob's one (other): ingested once per test run,
    copied for each module after the first, so every module owns its store."""
    store, sessions = root / "store", root / "sessions"
    sessions.mkdir(parents=True)
    if "store" not in _SEEDED:  # ingested once into a template no test writes to
        template, seed = root / "seed-store", root / "seed-sessions"
        seed.mkdir()
        lines = [
            session_line("acme", "alice", f"s{i}", text, NOW - timedelta(days=d, hours=1))
            for i, (d, text) in enumerate(SAID)
        ]
        lines.append(session_line("other", "bob", "b0", "I drink oat milk.", NOW - timedelta(days=2)))
        (seed / "seed.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
        run_ingest(Settings(store_uri=str(template), sessions_uri=str(seed)))
        _SEEDED["store"] = template
    shutil.copytree(_SEEDED["store"], store)
    keys = root / "keys.json"
    keys.write_text(json.dumps({"keys": [{"key": ACME_KEY, "app": "acme"}, {"key": OTHER_KEY, "app": "other"},
                                         {"key": ADMIN_KEY, "admin": True}]}), encoding="utf-8")  # fmt: skip
    return Settings(store_uri=str(store), sessions_uri=str(sessions), api_keys_file=str(keys), **extra)  # type: ignore[arg-type]


@contextmanager
def serve(settings: Settings) -> Iterator[str]:
    """The real app on a real socket; yields its base URL."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(create_app(settings, load_keys(settings), clock=lambda: NOW), log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the API server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
