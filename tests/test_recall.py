"""Recall on a real LanceDB store: hybrid search, ranking, filters, tenancy, indexes, access tracking."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

import pytest

from flows import cli_recall
from tasks.models import RecallHit, stable_id
from tasks.providers.base import Embedder
from tasks.recall.recaller import Recaller, recall
from tasks.rows import MemoryRow
from tasks.settings import Settings
from tasks.store.indexes import ensure_indexes
from tasks.store.tables import EPISODES, MEMORIES, Store
from tests.clock import NOW

APP = "app"
USER = "alice"


def memory(
    embedder: Embedder,
    content: str,
    *,
    user: str = USER,
    app: str = APP,
    topic: str = "user_preferences",
    days_ago: float = 10,
    status: str = "active",
    valid_from: datetime | None = None,
    valid_to: datetime | None = None,
    key: str | None = None,
    importance: float = 0.5,
) -> MemoryRow:
    stated = NOW - timedelta(days=days_ago)
    memory_id = stable_id(app, user, key or content, str(days_ago))
    return MemoryRow(
        row_id=MemoryRow.make_row_id(memory_id, 1),
        memory_id=memory_id,
        version=1,
        app_name=app,
        user_id=user,
        topic=topic,
        content=content,
        vector=[float(x) for x in embedder.embed([content])[0]],
        importance=importance,
        confidence=0.9,
        speaker="user",
        slot=None,
        value=None,
        source_session_id=f"s-{memory_id[:6]}",
        source_event_ids=[f"e-{memory_id[:6]}"],
        stated_at=stated,
        valid_from=valid_from or stated,
        valid_to=valid_to,
        status=status,  # type: ignore[arg-type]
        status_reason=None,
        supersedes=None,
        relation="new",
        confirmations=0,
        last_confirmed_at=None,
        access_count=0,
        last_accessed_at=None,
        created_at=stated,
        updated_at=stated,
        run_id="test",
    )


def episode(embedder: Embedder, summary: str, *, user: str = USER, days_ago: float = 5) -> dict[str, Any]:
    start = NOW - timedelta(days=days_ago)
    session_id = stable_id("session", user, summary)[:10]
    return {
        "episode_id": stable_id("episode", APP, user, session_id),
        "app_name": APP,
        "user_id": user,
        "session_id": session_id,
        "summary": summary,
        "topics": ["travel"],
        "key_facts": [],
        "sentences": [{"text": summary, "source_event_ids": ["ev1", "ev2"]}],
        "source_event_ids": ["ev1", "ev2"],
        "vector": [float(x) for x in embedder.embed([summary])[0]],
        "started_at": start,
        "ended_at": start + timedelta(hours=1),
        "status": "active",
        "access_count": 0,
        "last_accessed_at": None,
        "created_at": start + timedelta(hours=2),
        "run_id": "test",
    }


def make_store(settings: Settings, embedder: Embedder) -> Store:
    return Store(settings.store_uri, embedder.model, embedder.dim)


def contents(hits: Sequence[RecallHit]) -> list[str]:
    return [h.content for h in hits]


DISTRACTORS = (
    "User likes pizza with extra cheese",
    "User works as a nurse in Lisbon",
    "User has a sister called Maria",
    "User prefers tea over coffee",
    "User is training for a marathon",
)


@pytest.fixture
def store(settings: Settings, embedder: Embedder) -> Store:
    return make_store(settings, embedder)


def test_semantic_recall_ranks_closest_meaning_first(settings: Settings, embedder: Embedder, store: Store) -> None:
    store.upsert(MEMORIES, [memory(embedder, c) for c in (*DISTRACTORS, "User loves African Grey parrots")])
    ensure_indexes(store, settings)
    hits = Recaller(settings, store=store, embedder=embedder).recall("What bird did I like?", APP, USER, k=3, now=NOW)
    assert hits[0].content == "User loves African Grey parrots"
    assert hits[0].kind == "memory"
    assert set(hits[0].score_parts) >= {"similarity", "recency", "importance", "frequency"}
    assert hits[0].session_id.startswith("s-") and hits[0].source_event_ids


def test_keyword_recall_finds_rare_id_that_vectors_miss(settings: Settings, embedder: Embedder, store: Store) -> None:
    target = "Reference ZX-4471 belongs to the blue desk lamp"
    orders = [f"User's order ZX-{n}71 is on its way" for n in range(50, 70)]
    store.upsert(MEMORIES, [memory(embedder, c, key=c) for c in (*orders, target)])
    ensure_indexes(store, settings)
    query = "ZX-4471"
    qv = embedder.embed([query])[0]
    vector_only = store.table(MEMORIES).search(qv).distance_type("cosine").limit(3).to_list()
    assert target not in [r["content"] for r in vector_only]  # the premise: embeddings blur the id
    hits = Recaller(settings, store=store, embedder=embedder).recall(query, APP, USER, k=3, now=NOW)
    assert hits[0].content == target
    assert hits[0].score_parts["keyword"] > 0


def test_topic_and_time_filters(settings: Settings, embedder: Embedder, store: Store) -> None:
    store.upsert(
        MEMORIES,
        [
            memory(embedder, "User lives in Porto", topic="user_personal_info", days_ago=100),
            memory(embedder, "User prefers window seats on flights", topic="user_preferences", days_ago=3),
            memory(embedder, "User's flight to Oslo is on Friday", topic="key_conversation_details", days_ago=1),
        ],
    )
    recaller = Recaller(settings, store=store, embedder=embedder)
    q = "Tell me about the user"
    only = recaller.recall(q, APP, USER, topics=["user_personal_info"], now=NOW)
    assert contents(only) == ["User lives in Porto"]
    recent = recaller.recall(q, APP, USER, since=NOW - timedelta(days=10), now=NOW)
    assert sorted(contents(recent)) == [
        "User prefers window seats on flights",
        "User's flight to Oslo is on Friday",
    ]
    old = recaller.recall(q, APP, USER, until=NOW - timedelta(days=50), now=NOW)
    assert contents(old) == ["User lives in Porto"]
    both = recaller.recall(
        q, APP, USER, topics=["user_preferences", "key_conversation_details"], until=NOW - timedelta(days=2), now=NOW
    )
    assert contents(both) == ["User prefers window seats on flights"]


def test_status_and_as_of(settings: Settings, embedder: Embedder, store: Store) -> None:
    switch = NOW - timedelta(days=30)
    old = memory(
        embedder,
        "Works at Acme",
        topic="user_personal_info",
        days_ago=200,
        status="superseded",
        valid_to=switch,
    )
    new = memory(embedder, "User works at Globex", topic="user_personal_info", days_ago=30, valid_from=switch)
    store.upsert(MEMORIES, [old, new])
    recaller = Recaller(settings, store=store, embedder=embedder)
    assert contents(recaller.recall("Where does the user work?", APP, USER, now=NOW)) == ["User works at Globex"]
    then = recaller.recall("Where does the user work?", APP, USER, as_of=NOW - timedelta(days=60))
    assert contents(then) == ["Works at Acme"]
    assert contents(recaller.recall("Where does the user work?", APP, USER, as_of=NOW)) == ["User works at Globex"]


def test_recent_memory_ranks_first_when_equally_similar(settings: Settings, embedder: Embedder, store: Store) -> None:
    text = "User's favourite colour is green"
    old = memory(embedder, text, days_ago=900, key="old")
    recent = memory(embedder, text, days_ago=2, key="recent")
    store.upsert(MEMORIES, [old, recent])
    ensure_indexes(store, settings)
    hits = Recaller(settings, store=store, embedder=embedder).recall("favourite colour", APP, USER, now=NOW)
    assert [h.id for h in hits] == [recent.row_id, old.row_id]
    assert hits[0].score_parts["similarity"] == pytest.approx(hits[1].score_parts["similarity"], abs=1e-6)
    assert hits[0].score_parts["recency"] > hits[1].score_parts["recency"]


HOSTILE_IDS = (
    "x' OR '1'='1",
    "alice' --",
    "' OR user_id IS NOT NULL OR '",
    'al"ice',
    "alice\\",
    "%",
    "a`lice",
)


@pytest.mark.parametrize("hostile", HOSTILE_IDS)
def test_hostile_user_ids_neither_error_nor_leak(
    settings: Settings, embedder: Embedder, store: Store, hostile: str
) -> None:
    store.upsert(MEMORIES, [memory(embedder, "User's bank PIN is 4242", user=USER)])
    store.upsert(EPISODES, [episode(embedder, "Alice discussed her bank account")])
    ensure_indexes(store, settings)
    recaller = Recaller(settings, store=store, embedder=embedder)
    assert recaller.recall("bank PIN", APP, hostile, now=NOW) == []
    assert recaller.recall("bank PIN", hostile, USER, now=NOW) == []
    # The hostile id is also a legitimate tenant of its own.
    store.upsert(MEMORIES, [memory(embedder, "Hostile user owns a cat", user=hostile)])
    own = recaller.recall("bank PIN cat", APP, hostile, now=NOW)
    assert contents(own) == ["Hostile user owns a cat"]


def test_rows_added_after_indexes_are_found(settings: Settings, embedder: Embedder, store: Store) -> None:
    store.upsert(MEMORIES, [memory(embedder, c) for c in DISTRACTORS])
    store.upsert(EPISODES, [episode(embedder, "Planned a trip to Japan")])
    built = ensure_indexes(store, settings)
    assert set(built) == {
        *(f"memories.{c}:created" for c in ("user_id", "app_name", "status", "topic", "content")),
        *(f"episodes.{c}:created" for c in ("user_id", "app_name", "status", "summary")),
    }
    assert ensure_indexes(store, settings) == []  # idempotent
    late = memory(embedder, "User's locker code is QV-9913")
    store.upsert(MEMORIES, [late])
    hits = Recaller(settings, store=store, embedder=embedder).recall("QV-9913", APP, USER, k=2, now=NOW)
    assert hits[0].id == late.row_id and hits[0].score_parts["keyword"] > 0
    refreshed = ensure_indexes(store, settings)
    assert "memories.content:refreshed" in refreshed
    assert (
        Recaller(settings, store=store, embedder=embedder).recall("QV-9913", APP, USER, k=1, now=NOW)[0].id
        == late.row_id
    )


def test_ann_index_built_only_past_threshold(settings: Settings, embedder: Embedder, store: Store) -> None:
    import numpy as np

    rng = np.random.default_rng(7)
    base = memory(embedder, "User plays the cello")
    rows = []
    for i in range(600):
        vec = rng.normal(size=embedder.dim).astype(np.float32)
        rows.append(base.model_copy(update={"row_id": f"r{i}", "memory_id": f"m{i}", "content": f"noise {i}",
                                            "vector": (vec / np.linalg.norm(vec)).tolist()}))  # fmt: skip
    store.upsert(MEMORIES, [*rows, base])
    small = settings.model_copy(update={"ann_index_min_rows": 10_000})
    assert "memories.vector:created" not in ensure_indexes(store, small)
    big = settings.model_copy(update={"ann_index_min_rows": 500})
    assert "memories.vector:created" in ensure_indexes(store, big)
    assert "memories.vector:created" not in ensure_indexes(store, big)
    for use_ann in (True, False):
        recaller = Recaller(big, store=store, embedder=embedder, use_ann=use_ann)
        hits = recaller.recall("Which instrument does the user play?", APP, USER, k=1, now=NOW)
        assert contents(hits) == ["User plays the cello"]


def test_access_counts_are_batched_and_flushed_once(settings: Settings, embedder: Embedder, store: Store) -> None:
    parrot = memory(embedder, "User loves African Grey parrots")
    store.upsert(MEMORIES, [parrot, *(memory(embedder, c) for c in DISTRACTORS)])
    store.upsert(EPISODES, [episode(embedder, "Talked about adopting a parrot")])
    recaller = Recaller(settings, store=store, embedder=embedder)
    before = store.versions()
    for _ in range(3):
        recaller.recall("parrot", APP, USER, k=2, now=NOW)
    assert store.versions() == before  # nothing written per query
    assert recaller.flush_access() == 2
    after = store.versions()
    assert after[MEMORIES] == before[MEMORIES] + 1 and after[EPISODES] == before[EPISODES] + 1
    row = store.rows(MEMORIES, f"row_id = '{parrot.row_id}'")[0]
    assert row["access_count"] == 3 and row["last_accessed_at"] is not None
    assert store.rows(EPISODES)[0]["access_count"] == 3
    assert recaller.flush_access() == 0
    one_shot = recall("parrot", APP, USER, settings=settings, k=2, now=NOW)  # opens, recalls, flushes, closes
    assert parrot.row_id in [h.id for h in one_shot]
    assert store.rows(MEMORIES, f"row_id = '{parrot.row_id}'")[0]["access_count"] == 4


def test_episodes_join_unless_disabled(settings: Settings, embedder: Embedder, store: Store) -> None:
    store.upsert(MEMORIES, [memory(embedder, "User prefers aisle seats")])
    ep = episode(embedder, "User planned a two-week trip to Japan and booked flights to Tokyo")
    store.upsert(EPISODES, [ep])
    recaller = Recaller(settings, store=store, embedder=embedder)
    hits = recaller.recall("trip to Japan", APP, USER, now=NOW)
    assert hits[0].kind == "episode" and hits[0].topic == "episode"
    assert hits[0].id == ep["episode_id"] and hits[0].source_event_ids == ["ev1", "ev2"]
    assert hits[0].stated_at == ep["started_at"]
    assert all(h.kind == "memory" for h in recaller.recall("trip to Japan", APP, USER, include_episodes=False, now=NOW))
    assert all(h.kind == "memory" for h in recaller.recall("trip", APP, USER, topics=["user_preferences"], now=NOW))
    no_eps = settings.model_copy(update={"include_episodes": False})
    assert all(
        h.kind == "memory" for h in Recaller(no_eps, store=store, embedder=embedder).recall("Japan", APP, USER, now=NOW)
    )


def test_empty_store_and_odd_queries(settings: Settings, embedder: Embedder, store: Store) -> None:
    recaller = Recaller(settings, store=store, embedder=embedder)
    assert recaller.recall("anything", APP, USER, now=NOW) == []
    assert MEMORIES not in store.existing()  # reads never create tables
    store.upsert(MEMORIES, [memory(embedder, "User likes jazz")])
    ensure_indexes(store, settings)
    for odd in ("", "   ", "the a of", 'AND OR NOT "unbalanced (', "user_id:* OR 1=1"):
        assert len(recaller.recall(odd, APP, USER, now=NOW)) <= 1


def test_reranker_hook_reorders(settings: Settings, embedder: Embedder, store: Store) -> None:
    store.upsert(MEMORIES, [memory(embedder, c) for c in DISTRACTORS])
    recaller = Recaller(settings, store=store, embedder=embedder, reranker=lambda q, hits: hits[::-1])
    plain = Recaller(settings, store=store, embedder=embedder).recall("tea", APP, USER, now=NOW)
    assert [h.id for h in recaller.recall("tea", APP, USER, now=NOW)] == [h.id for h in plain[::-1]]


def test_cli_recall_json(
    settings: Settings, embedder: Embedder, store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    store.upsert(MEMORIES, [memory(embedder, "User loves African Grey parrots")])
    parser = argparse.ArgumentParser()
    cli_recall.register(parser.add_subparsers())
    args = parser.parse_args(["recall", "--app", APP, "--user", USER, "--json", "--store", settings.store_uri, "bird"])
    assert args.handler(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out[0]["content"] == "User loves African Grey parrots"
    assert {"id", "topic", "content", "score", "session_id", "created_at", "kind", "score_parts"} <= set(out[0])
    args = parser.parse_args(["recall", "--app", APP, "--user", USER, "--context", "--max-tokens", "50",
                              "--store", settings.store_uri, "bird"])  # fmt: skip
    assert args.handler(args) == 0
    assert "Known facts:" in capsys.readouterr().out


def test_long_lived_recaller_sees_other_writers(settings: Settings, embedder: Embedder, store: Store) -> None:
    store.upsert(MEMORIES, [memory(embedder, "User likes jazz")])
    recaller = Recaller(settings, store=store, embedder=embedder, refresh_seconds=0)
    assert contents(recaller.recall("jazz", APP, USER, now=NOW)) == ["User likes jazz"]
    other = make_store(settings, embedder)  # e.g. an ingest run in another process
    other.upsert(MEMORIES, [memory(embedder, "User plays jazz piano on Sundays")])
    assert len(recaller.recall("jazz", APP, USER, now=NOW)) == 2


@pytest.mark.parametrize(("use_ann", "whole_max"), [(False, 400), (False, 0), (True, 400)])
def test_hits_keep_their_own_rows_after_deletes_and_updates(
    settings: Settings, embedder: Embedder, store: Store, use_ann: bool, whole_max: int
) -> None:
    """Legs pass row offsets to the column reads (whole tenant scan or take): deletions and rewrites
    must not shift a hit onto another row."""
    import numpy as np

    texts = [f"User note {i}: {DISTRACTORS[i % len(DISTRACTORS)]} (ref QX-{i})" for i in range(60)]
    rows = [memory(embedder, t, key=f"k{i}", user=("bob" if i % 3 == 0 else USER)) for i, t in enumerate(texts)]
    for start in range(0, len(rows), 15):  # four appends: four fragments
        store.upsert(MEMORIES, rows[start : start + 15])
    table = store.table(MEMORIES)
    table.delete("row_id IN ('" + "', '".join(r.row_id for r in rows[1:40:4]) + "')")
    store.upsert(MEMORIES, [r.model_copy(update={"status": "superseded"}) for r in rows[2:40:5]])
    big = settings.model_copy(update={"ann_index_min_rows": 10, "recall_whole_tenant_max_rows": whole_max})
    ensure_indexes(store, big)
    live = {r["row_id"]: r for r in store.rows(MEMORIES, columns=["row_id", "content", "vector", "status", "user_id"])}
    recaller = Recaller(big, store=store, embedder=embedder, use_ann=use_ann)
    for query in ("QX-17", "User note about coffee", "marathon training", "QX-44 sister"):
        hits = recaller.recall(query, APP, USER, k=8, include_episodes=False, now=NOW)
        assert hits
        q = embedder.embed([query])[0]
        for hit in hits:
            row = live[hit.id]
            assert (row["content"], row["status"], row["user_id"]) == (hit.content, "active", USER)
            assert hit.score_parts["cosine"] == pytest.approx(float(np.dot(q, row["vector"])), abs=1e-5)


def test_searcher_stops_reading_large_tenants_whole(settings: Settings, embedder: Embedder, store: Store) -> None:
    store.upsert(MEMORIES, [memory(embedder, f"{c} ({i})", key=f"k{i}") for i, c in enumerate(DISTRACTORS * 4)])
    small = settings.model_copy(update={"recall_whole_tenant_max_rows": 5})
    recaller = Recaller(small, store=store, embedder=embedder)
    assert recaller._search._whole(MEMORIES)  # nothing seen yet: optimistic
    whole = recaller.recall("marathon", APP, USER, include_episodes=False, now=NOW)
    assert not recaller._search._whole(MEMORIES)  # 20 rows per tenant seen, over 5
    taken = recaller.recall("marathon", APP, USER, include_episodes=False, now=NOW)
    assert [h.id for h in taken] == [h.id for h in whole] and len(whole) == 10
