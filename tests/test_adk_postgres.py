"""The ADK database source on Postgres: ADK's DatabaseSessionService (asyncpg, JSONB, timestamps)
writes, the pipeline reads with a sync driver, read-only, only what changed since the last run.

Starts a throwaway Postgres server in tmp_path (as the ``postgres`` system user when run as root);
skipped with a reason where the server binaries or the psycopg driver are missing.
"""

from __future__ import annotations

import asyncio
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

pytest.importorskip("google.adk")
pytest.importorskip("psycopg", reason="psycopg (the sync Postgres driver) is not installed")

from google.adk.events import Event as AdkEvent
from google.adk.events.event_actions import EventActions
from google.adk.sessions import DatabaseSessionService
from google.genai import types
from sqlalchemy import create_engine, text
from sqlalchemy.exc import DBAPIError

from tasks.ingest.run import Stages, run_ingest
from tasks.settings import Settings
from tasks.sources import pull_at
from tasks.sources.adk_tables import AdkTables
from tasks.store.tables import LEDGER, MEMORIES, open_store

T0 = datetime(2026, 3, 1, 8, 0, tzinfo=UTC)


def _bin(name: str) -> str:
    found = shutil.which(name) or next((str(p) for p in Path("/usr/lib/postgresql").glob(f"*/bin/{name}")), None)
    if not found:
        pytest.skip(f"Postgres server binary {name!r} not found")
    return found


@pytest.fixture
def postgres() -> Iterator[str]:
    initdb, pg_ctl = _bin("initdb"), _bin("pg_ctl")
    home = Path(tempfile.mkdtemp(prefix="adk-pg-"))  # outside pytest's root-only tmp tree
    data = home / "data"
    data.mkdir()
    prefix: list[str] = []
    if os.geteuid() == 0:  # Postgres refuses to run as root
        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root and there is no postgres system user")
        os.chmod(home, 0o755)
        os.chown(data, user.pw_uid, user.pw_gid)
        prefix = ["runuser", "-u", "postgres", "--"]
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    subprocess.run([*prefix, initdb, "-D", str(data), "-A", "trust", "-U", "postgres"], check=True,
                   capture_output=True)  # fmt: skip
    options = f"-p {port} -k {data} -c listen_addresses=127.0.0.1"
    subprocess.run([*prefix, pg_ctl, "-D", str(data), "-o", options, "-w", "-l", str(data / "log"), "start"],
                   check=True, capture_output=True)  # fmt: skip
    try:
        yield f"postgresql+asyncpg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*prefix, pg_ctl, "-D", str(data), "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(home, ignore_errors=True)


def test_sessions_written_by_adk_on_postgres_are_pulled_incrementally(postgres: str, tmp_path: Path) -> None:
    service = DatabaseSessionService(postgres)
    loop = asyncio.new_event_loop()

    def say(session: object, minute: int, words: str, **actions: object) -> None:
        at = (T0 + timedelta(minutes=minute)).timestamp()
        event = AdkEvent(author="user", invocation_id=f"i{minute}", timestamp=at,
                         content=types.Content(role="user", parts=[types.Part(text=words)]),
                         actions=EventActions(**actions))  # fmt: skip
        loop.run_until_complete(service.append_event(session, event))  # type: ignore[arg-type]

    first = loop.run_until_complete(service.create_session(app_name="app", user_id="dana", session_id="p1"))
    say(first, 0, "I love coffee.", state_delta={"session_ended": True})
    settings = Settings(store_uri=str(tmp_path / "store"), session_source="adk_db", adk_db_url=postgres)
    assert run_ingest(settings, stages=Stages(pull=pull_at(T0 + timedelta(minutes=1)))).sessions_processed == 1
    second = loop.run_until_complete(service.create_session(app_name="app", user_id="dana", session_id="p2"))
    say(second, 5, "I prefer aisle seats.", state_delta={"session_ended": True})
    say(first, 6, "I switched to tea.")
    assert run_ingest(settings, stages=Stages(pull=pull_at(T0 + timedelta(minutes=7)))).sessions_processed == 2
    assert {r["session_id"] for r in open_store(settings).rows(LEDGER)} == {"p1", "p1#2", "p2"}
    active = sorted(m["content"] for m in open_store(settings).rows(MEMORIES) if m["status"] == "active")
    assert active[0].startswith("User has switched to tea") and active[1] == "User prefers aisle seats"
    loop.run_until_complete(service.close())
    loop.close()

    tables = AdkTables(postgres)  # the source's connections refuse writes
    with tables.connect() as conn, pytest.raises(DBAPIError, match="read-only"):
        conn.execute(text("DELETE FROM events"))
    tables.close()
    writer = create_engine(tables.url)
    with writer.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM events")).scalar() == 3, "nothing was deleted"
    writer.dispose()
