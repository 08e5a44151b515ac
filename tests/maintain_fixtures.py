"""Small stores with known ages, confirmations and recall counts for the maintenance tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from tasks.models import Status, stable_id
from tasks.rows import EpisodeRow, MemoryRow, StoredSentence
from tasks.settings import Settings
from tasks.store.tables import CHANGES, EPISODES, MEMORIES, RUNS, Store, open_store

NOW = datetime(2026, 6, 1, 12, tzinfo=UTC)
APP = "app"
DIM = 384


def unit(seed: int, near: np.ndarray | None = None, noise: float = 0.0) -> list[float]:
    """A random unit vector (or one close to ``near``)."""
    rng = np.random.default_rng(seed)
    v = rng.normal(size=DIM) if near is None else near + noise * rng.normal(size=DIM)
    return [float(x) for x in v / np.linalg.norm(v)]


def mem(user: str, key: str, content: str, *, topic: str = "key_conversation_details", days_ago: float = 1.0,
        vector: list[float] | None = None, confirmations: int = 0, access: int = 0, importance: float = 0.5,
        slot: str | None = None, value: str | None = None, expires_at: datetime | None = None,
        accessed_days_ago: float | None = None, status: Status = "active", closed_days_ago: float | None = None,
        app: str = APP) -> MemoryRow:  # fmt: skip
    memory_id = stable_id("test", app, user, key)
    stated = NOW - timedelta(days=days_ago)
    return MemoryRow(
        row_id=MemoryRow.make_row_id(memory_id, 1), memory_id=memory_id, version=1, app_name=app, user_id=user,
        topic=topic, content=content, vector=vector or unit(hash(key) % 10_000), importance=importance,
        confidence=0.8, speaker="user", slot=slot, value=value, source_session_id=f"s-{key}",
        source_event_ids=[f"e-{key}"], stated_at=stated, valid_from=stated,
        valid_to=None if closed_days_ago is None else NOW - timedelta(days=closed_days_ago), status=status,
        status_reason=None, supersedes=None, relation="new", confirmations=confirmations,
        last_confirmed_at=None, access_count=access,
        last_accessed_at=None if accessed_days_ago is None else NOW - timedelta(days=accessed_days_ago),
        created_at=stated, updated_at=stated if closed_days_ago is None else NOW - timedelta(days=closed_days_ago),
        run_id="seed", expires_at=expires_at,
    )  # fmt: skip


def episode(user: str, session: str, started: datetime, vector: list[float] | None = None) -> EpisodeRow:
    return EpisodeRow(
        episode_id=stable_id("episode", APP, user, session), app_name=APP, user_id=user, session_id=session,
        summary=f"Talked about {session}.", topics=["travel"], key_facts=[f"fact {session}"],
        sentences=[StoredSentence(text=f"Talked about {session}.", source_event_ids=[f"{session}-e1"])],
        source_event_ids=[f"{session}-e1"], vector=vector or unit(hash(session) % 10_000), started_at=started,
        ended_at=started + timedelta(hours=1), status="active", access_count=1, last_accessed_at=None,
        created_at=started, run_id="seed",
    )  # fmt: skip


def seed(settings: Settings, memories: list[MemoryRow], episodes: list[EpisodeRow] | None = None) -> Store:
    store = open_store(settings)
    store.upsert(MEMORIES, memories)
    if episodes:
        store.upsert(EPISODES, episodes)
    return store


def snapshot(settings: Settings, tables: tuple[str, ...] = (MEMORIES, CHANGES, EPISODES)) -> dict[str, Any]:
    """Table contents by key (runs rows without wall-clock times, versions and counts: a re-run's own
    counts say what *it* did, e.g. closing what the killed run left open)."""
    store = open_store(settings)
    out: dict[str, Any] = {}
    for name in (*tables, RUNS):
        rows = store.rows(name) if store.has(name) else []
        if name == RUNS:
            rows = [{k: v for k, v in r.items() if k not in ("started_at", "ended_at", "versions_before",
                                                            "versions_after", "counts")} for r in rows]  # fmt: skip
        out[name] = sorted(rows, key=lambda r: str(sorted(r.items())))
    return out


def by_id(settings: Settings) -> dict[str, dict[str, Any]]:
    return {r["row_id"]: r for r in open_store(settings).rows(MEMORIES)}
