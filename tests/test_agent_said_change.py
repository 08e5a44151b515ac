"""A change stated only by the agent changes nothing: "so you moved to Leeds?" left unanswered keeps the
user's home as they said it; a change the user states 200 turns after the old value still supersedes it."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from tasks.ingest.run import ingest_sessions
from tasks.models import Event, Session
from tasks.settings import Settings
from tasks.store.tables import MEMORIES, open_store
from tests.test_forgotten_repeats import T0, session


def _turns(day: int, turns: list[tuple[str, str]]) -> Session:
    at = T0 + timedelta(days=day)
    events = tuple(
        Event(id=f"s{day}-e{i}", author=who, role="agent" if who == "agent" else "user", text=text,
              timestamp=at + timedelta(minutes=i))
        for i, (who, text) in enumerate(turns)
    )  # fmt: skip
    return Session(app_name="a", user_id="u", session_id=f"s{day}", started_at=at,
                   ended_at=events[-1].timestamp, events=events)  # fmt: skip


def test_an_agents_unanswered_guess_changes_nothing_and_a_late_change_still_supersedes(tmp_path: Path) -> None:
    settings = Settings(store_uri=str(tmp_path / "store"))
    ingest_sessions([session(0, "I live in Sheffield.")], settings)
    ingest_sessions([_turns(1, [("user", "Can you suggest a weekend walk?"), ("agent", "So you moved to Leeds?")])],
                    settings)  # fmt: skip
    store = open_store(settings)
    active = [r["content"] for r in store.rows(MEMORIES) if r["status"] == "active"]
    assert any("Sheffield" in c for c in active) and not any("Leeds" in c for c in active), active
    chatter = [("agent" if i % 2 else "user", "Sure." if i % 2 else "ok") for i in range(200)]  # 200 turns between
    ingest_sessions([_turns(2, [*chatter, ("user", "I've moved to York.")])], settings)
    rows = list(open_store(settings).rows(MEMORIES))
    current = [r["content"] for r in rows if r["status"] == "active" and "York" in r["content"]]
    old = [r for r in rows if "Sheffield" in r["content"] and "York" not in r["content"]]
    assert current and old and all(r["status"] == "superseded" and r["valid_to"] is not None for r in old), rows
