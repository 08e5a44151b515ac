"""History reads, "as of" views, safe filters, rollback and the CLI over a real Lance store."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from flows.cli import main
from tasks.consolidate.history import (
    RollbackError,
    UnknownMemoryError,
    UnknownRunError,
    list_memories,
    memory_history,
    rollback,
)
from tasks.models import Episode
from tasks.providers.base import Embedder
from tasks.providers.local_consolidator import LocalConsolidator
from tasks.rows import MemoryRow
from tasks.store.tables import CHANGES, EPISODES, LEDGER, MEMORIES, RUNS, Store, dumps_json
from tests.test_consolidation import APP, DRINK, USER, Say, batch, day, fact, run
from tests.test_consolidation import say as say


@pytest.fixture
def store(tmp_path, embedder: Embedder) -> Store:
    return Store(str(tmp_path / "store"), embedder.model, embedder.dim)


@pytest.fixture
def consolidator() -> LocalConsolidator:
    return LocalConsolidator(duplicate_threshold=0.92, related_threshold=0.55)


HOSTILE = ["x' OR '1'='1", "alice' --", "'; DROP TABLE memories; --", 'a"b`c\\d', "%", "ali_e", "ålice 🙂"]


def drink_history(store: Store, say: Say) -> str:
    """Coffee (day 0) → tea (day 30) → water (day 60), one run each; returns the lineage id."""
    for i, (drink, when) in enumerate([("coffee", day(0)), ("tea", day(30)), ("water", day(60))]):
        say(f"s{i}", when, fact(f"Alice prefers {drink}", when, slot=DRINK, value=drink))
    (current,) = list_memories(store, APP, USER)
    return current.memory_id


def test_history_lists_versions_and_changes_oldest_first(store: Store, say: Say) -> None:
    history = memory_history(store, drink_history(store, say))

    assert [v.value for v in history.versions] == ["coffee", "tea", "water"]
    assert [v.version for v in history.versions] == [1, 2, 3]
    assert [v.status for v in history.versions] == ["superseded", "superseded", "active"]
    assert history.current is not None and history.current.value == "water"
    runs = [(c.action, c.run_id) for c in history.changes]
    assert runs == [("ADD", "run-s0"), ("UPDATE", "run-s1"), ("UPDATE", "run-s2")]
    assert [v.supersedes for v in history.versions[1:]] == [v.row_id for v in history.versions[:2]]


def test_unknown_memory_raises_a_clear_error(store) -> None:
    with pytest.raises(UnknownMemoryError, match="no memory"):
        memory_history(store, "x' OR '1'='1")


def test_as_of_answers_what_was_believed_then(store: Store, say: Say) -> None:
    drink_history(store, say)

    def believed(when: datetime) -> list[str | None]:
        return [m.value for m in list_memories(store, APP, USER, as_of=when)]

    assert believed(day(-1)) == []
    assert believed(day(0)) == ["coffee"]
    assert believed(day(29)) == ["coffee"]
    assert believed(day(30)) == ["tea"]  # the interval is closed at its start, open at its end
    assert believed(day(45)) == ["tea"]
    assert believed(day(400)) == ["water"]
    assert believed(datetime(2025, 11, 15, 9, 0)) == ["tea"]  # naive times are UTC


def test_topic_and_inactive_filters(store: Store, say: Say) -> None:
    drink_history(store, say)
    say("pets", day(5), fact("Alice has a dog named Rex", day(5), topic="user_personal_info"))

    assert len(list_memories(store, APP, USER)) == 2
    personal = list_memories(store, APP, USER, topic="user_personal_info")
    assert [m.content for m in personal] == ["Alice has a dog named Rex"]
    assert len(list_memories(store, APP, USER, include_inactive=True)) == 4
    assert list_memories(store, APP, USER, topic="no such topic") == []


def test_hostile_user_ids_neither_error_nor_leak(store: Store, say: Say) -> None:
    drink_history(store, say)
    own = "x' OR '1'='1"
    say("h", day(1), fact("Mallory likes chess", day(1)), user=own)

    for user in HOSTILE:
        rows = list_memories(store, APP, user, include_inactive=True)
        assert all(r.user_id == user for r in rows), user
        assert list_memories(store, user, USER) == []  # hostile app name: nothing from alice either
    assert [r.content for r in list_memories(store, APP, own)] == ["Mallory likes chess"]
    assert list_memories(store, APP, USER, topic="x' OR '1'='1") == []


def test_reads_see_writes_made_through_another_store_handle(store: Store, say: Say, embedder: Embedder) -> None:
    reader = Store(store.uri, embedder.model, embedder.dim)
    say("s1", day(0), fact("Alice likes chess", day(0)))
    assert [m.content for m in list_memories(reader, APP, USER)] == ["Alice likes chess"]

    say("s2", day(1), fact("Alice has a dog named Rex", day(1), topic="user_personal_info"))
    assert len(list_memories(reader, APP, USER)) == 2


def test_reads_do_not_create_tables(tmp_path, embedder) -> None:
    empty = Store(str(tmp_path / "empty"), embedder.model, embedder.dim)

    assert list_memories(empty, APP, USER, as_of=day(0)) == []
    assert empty.existing() == []


def snapshot(store: Store, *names: str) -> dict[str, object]:
    return {n: store.table(n).to_arrow().sort_by(store_key(n)) for n in names}


def store_key(name: str) -> str:
    from tasks.store.tables import KEYS

    return KEYS[name]


def record_run(
    store: Store, run_id: str, started: datetime, before: dict[str, int], after: dict[str, int] | None
) -> None:
    """The runs row an ingest run writes: "running" at its start, "completed" with versions after."""
    versions = {"versions_before": dumps_json(before), "versions_after": dumps_json(after) if after else None}
    status = "completed" if after else "running"
    row = {"run_id": run_id, "flow": "ingest", "started_at": started, "status": status, "counts": "{}"}
    store.upsert(RUNS, [row | versions])


def simulated_run(store, consolidator, embedder, run_id: str, when: datetime, drink: str) -> None:
    """What an ingest run leaves behind: versions before/after, memories, audit, ledger."""
    before = store.versions()
    record_run(store, run_id, when, before, None)
    f = fact(f"Alice prefers {drink}", when, slot="preference:drink", value=drink)
    run(store, consolidator, [batch(embedder, run_id, when, [f])], run_id)
    store.upsert(LEDGER, [{"session_key": run_id, "app_name": APP, "user_id": USER, "session_id": run_id}])
    record_run(store, run_id, when, before, store.versions())


def test_rollback_restores_exact_previous_contents(store, consolidator, embedder) -> None:
    simulated_run(store, consolidator, embedder, "run-1", day(0), "coffee")
    expected = snapshot(store, MEMORIES, LEDGER)
    simulated_run(store, consolidator, embedder, "run-2", day(10), "tea")
    audit_before = {r["change_id"] for r in store.rows(CHANGES)}
    assert [m.value for m in list_memories(store, APP, USER)] == ["tea"]

    restored = rollback(store, "run-2")

    assert set(restored) == {MEMORIES, LEDGER}  # the audit log is append-only, never restored
    reopened = Store(store.uri, embedder.model, embedder.dim)
    assert snapshot(reopened, MEMORIES, LEDGER) == expected
    audit = reopened.rows(CHANGES)
    assert audit_before <= {r["change_id"] for r in audit}
    appended = [r for r in audit if r["change_id"] not in audit_before]
    assert {r["action"] for r in appended} == {"ROLLBACK"} and len(appended) == 2  # tea added, coffee reopened
    assert {r["reason"] for r in appended} == {"rolled back run run-2"}
    assert [m.value for m in list_memories(reopened, APP, USER)] == ["coffee"]
    statuses = {r["run_id"]: r["status"] for r in reopened.rows(RUNS)}
    assert statuses == {"run-1": "completed", "run-2": "rolled_back"}
    with pytest.raises(RollbackError, match="already rolled back"):
        rollback(reopened, "run-2")


def test_rollback_empties_tables_created_by_the_run_and_leaves_others(store, consolidator, embedder) -> None:
    simulated_run(store, consolidator, embedder, "run-1", day(0), "coffee")
    before = store.versions()
    ledger_before = snapshot(store, LEDGER)
    episode = Episode(app_name=APP, user_id=USER, session_id="s", summary="chat", topics=(), key_facts=(),
                      sentences=(), started_at=day(1), ended_at=day(1))  # fmt: skip
    vector = [1.0] + [0.0] * (store.dim - 1)
    row = episode.model_dump(exclude={"sentences"}) | {"episode_id": episode.episode_id, "vector": vector}
    store.upsert(EPISODES, [row])
    record_run(store, "run-ep", day(1), before, store.versions())

    restored = rollback(store, "run-ep")

    assert restored == {EPISODES: 0}
    assert store.table(EPISODES).count_rows() == 0
    assert snapshot(store, LEDGER) == ledger_before


def test_rollback_refuses_when_a_later_run_changed_the_same_tables(store, consolidator, embedder) -> None:
    simulated_run(store, consolidator, embedder, "run-1", day(0), "coffee")
    simulated_run(store, consolidator, embedder, "run-2", day(10), "tea")

    with pytest.raises(RollbackError, match="run-2"):
        rollback(store, "run-1")
    rollback(store, "run-2")
    rollback(store, "run-1")
    assert list_memories(store, APP, USER) == []


def test_rollback_of_unknown_run(store) -> None:
    with pytest.raises(UnknownRunError, match="nope"):
        rollback(store, "nope")


def test_cli_memories_history_and_rollback(store, consolidator, embedder, capsys) -> None:
    simulated_run(store, consolidator, embedder, "run-1", day(0), "coffee")
    simulated_run(store, consolidator, embedder, "run-2", day(10), "tea")

    assert main(["memories", "--store", store.uri, "--app", APP, "--user", USER, "--json"]) == 0
    (listed,) = json.loads(capsys.readouterr().out)
    assert listed["value"] == "tea" and "vector" not in listed
    as_of = ["--as-of", "2025-10-05T00:00:00"]
    assert main(["memories", "--store", store.uri, "--app", APP, "--user", USER, *as_of]) == 0
    assert "Alice prefers coffee" in capsys.readouterr().out
    assert main(["history", listed["memory_id"], "--store", store.uri, "--json"]) == 0
    history = json.loads(capsys.readouterr().out)
    assert [v["value"] for v in history["versions"]] == ["coffee", "tea"]
    assert main(["history", listed["memory_id"], "--store", store.uri]) == 0
    assert "2 version(s)" in capsys.readouterr().out
    assert main(["rollback", "run-2", "--store", store.uri]) == 0
    assert "memories: restored to version" in capsys.readouterr().out
    assert main(["rollback", "missing", "--store", store.uri]) == 1  # an unknown run is a failure, not usage
    assert "no run 'missing'" in capsys.readouterr().err
    reopened = Store(store.uri, embedder.model, embedder.dim)
    assert [m.value for m in list_memories(reopened, APP, USER)] == ["coffee"]


def test_memory_rows_round_trip_through_the_store(store: Store, say: Say) -> None:
    memory_id = drink_history(store, say)
    versions = memory_history(store, memory_id).versions

    assert all(isinstance(v, MemoryRow) and v.valid_from.tzinfo is not None for v in versions)
    assert versions[0].valid_to == day(30).astimezone(UTC)
