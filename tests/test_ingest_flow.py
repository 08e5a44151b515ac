"""The walking skeleton end to end: the real flow on the shipped sample sessions, a tmp store."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from flows.cli import main as cli_main
from tasks.recall.recaller import Recaller
from tasks.settings import Settings
from tasks.store.tables import CHANGES, EPISODES, LEDGER, MEMORIES, QUARANTINE, RUNS, open_store

pytestmark = pytest.mark.slow  # end to end: `make test-fast` leaves it out

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sessions"
APP = "travel-assistant"


def _run_flow(settings: Settings) -> Any:
    from flows.ingest import IngestParams, ingest_flow

    return ingest_flow(IngestParams(sessions_uri=settings.sessions_uri, store_uri=settings.store_uri))


@pytest.fixture(scope="module")
def ingested(prefect_harness: None, tmp_path_factory: pytest.TempPathFactory) -> tuple[Settings, Any]:
    """One real flow run on the sample, shared by the tests that only read its store."""
    root = tmp_path_factory.mktemp("ingested")
    settings = Settings(store_uri=str(root / "store"), sessions_uri=str(root / "sessions"))
    shutil.copytree(SAMPLE, settings.sessions_uri)
    return settings, _run_flow(settings)


@pytest.fixture
def ingested_copy(ingested: tuple[Settings, Any], tmp_path: Path) -> tuple[Settings, Any]:
    """The shared run's store copied, for a test that runs the flow again (on the same sessions folder:
    a quarantined line is keyed by its file's path)."""
    shared, summary = ingested
    settings = shared.model_copy(update={"store_uri": str(tmp_path / "store")})
    shutil.copytree(shared.store_uri, settings.store_uri)
    return settings, summary


def _snapshot(settings: Settings) -> dict[str, Any]:
    store = open_store(settings)
    return {name: (store.table(name).version, store.table(name).to_arrow().to_pylist()) for name in store.existing()}


def test_parrot_recall_without_word_overlap(ingested: tuple[Settings, Any]) -> None:
    settings, _ = ingested
    hits = Recaller(settings).recall("What bird did I like?", APP, "alice", k=5)
    assert hits, "recall returned nothing"
    assert "parrot" in hits[0].content.lower()
    assert hits[0].session_id == "alice-2025-03-02"


def test_summary_counts_and_quarantine(ingested: tuple[Settings, Any]) -> None:
    settings, summary = ingested
    assert summary.sessions_processed == 5  # 4 JSONL sessions + 1 ADK session
    assert summary.sessions_pending == 1  # the session without ended_at waits for a later run
    assert summary.sessions_quarantined == 2
    rows = open_store(settings).rows(QUARANTINE)
    reasons = {(Path(r["source"]).name, r["line"]): r["reason"] for r in rows}
    assert "invalid JSON" in reasons[("malformed.jsonl", 2)]
    assert "last tuesday" in reasons[("malformed.jsonl", 1)]
    assert all(r["raw"] for r in rows), "the raw line is kept for inspection"


def test_rerun_leaves_every_table_unchanged(ingested_copy: tuple[Settings, Any]) -> None:
    settings, _ = ingested_copy
    before = _snapshot(settings)
    again = _run_flow(settings)
    assert again.sessions_processed == 0 and again.sessions_skipped == 5
    assert _snapshot(settings) == before


def test_provenance_points_at_source_events(ingested: tuple[Settings, Any]) -> None:
    settings, _ = ingested
    rows = open_store(settings).rows(MEMORIES)
    parrot = next(r for r in rows if "parrot" in r["content"].lower())
    assert parrot["source_event_ids"] == ["alice-2025-03-02-e6"]
    assert parrot["source_session_id"] == "alice-2025-03-02"
    assert parrot["app_name"] == APP and parrot["user_id"] == "alice"
    decision = next(r for r in rows if r["content"].startswith("Decision: look at direct flights"))
    assert decision["source_event_ids"] == ["alice-2025-03-02-e4", "alice-2025-03-02-e5"]
    adk = [r for r in rows if r["user_id"] == "carol"]
    assert {e for r in adk for e in r["source_event_ids"]} <= {"evt-1", "evt-2", "evt-3"}


def test_forget_request_is_not_a_fact(ingested: tuple[Settings, Any]) -> None:
    settings, _ = ingested
    store = open_store(settings)
    rows = store.rows(MEMORIES)
    assert not any("forget" in r["content"].lower() for r in rows)
    # Forgotten text is erased after the run (retention 0): no version left, the audit keeps that it happened.
    assert not any("Google" in r["content"] for r in rows)
    deletes = [c for c in store.rows(CHANGES) if c["action"] == "DELETE"]
    assert deletes and deletes[0]["source_event_ids"] == ["alice-2025-05-20-e3"]
    assert deletes[0]["old_content"] is None and "ERASE" in {c["action"] for c in store.rows(CHANGES)}
    recaller = Recaller(settings)
    assert not any("Google" in h.content for h in recaller.recall("Where do I work?", APP, "alice", k=10))
    before_forget = datetime(2025, 4, 1, tzinfo=UTC)  # a time at which the memory was still valid
    hits = recaller.recall("Where do I work?", APP, "alice", k=10, as_of=before_forget)
    assert hits and not any("Google" in h.content for h in hits), "a forgotten memory came back via as_of"


def test_every_table_written_and_run_recorded(ingested: tuple[Settings, Any]) -> None:
    settings, summary = ingested
    store = open_store(settings)
    assert {MEMORIES, EPISODES, CHANGES, LEDGER, QUARANTINE, RUNS} <= set(store.existing())
    run = next(r for r in store.rows(RUNS) if r["flow"] == "ingest")
    assert run["run_id"] == summary.run_id and run["status"] == "completed"
    assert json.loads(run["versions_after"])[LEDGER] == store.table(LEDGER).version
    assert summary.run_id in store.table(LEDGER).tags.list()
    # The sample forgets a memory: the purge after the run removed every version holding its text,
    # with this run's tags on those tables (rollback still works: the run created the tables).
    assert run["rollback_blocked"] is None and summary.run_id not in store.table(MEMORIES).tags.list()
    episodes = store.rows(EPISODES)
    assert len(episodes) == 5 and all(e["summary"] and e["source_event_ids"] for e in episodes)


def test_changed_session_is_processed_again(ingested_copy: tuple[Settings, Any], tmp_path: Path) -> None:
    settings, _ = ingested_copy
    settings = settings.model_copy(update={"sessions_uri": str(tmp_path / "sessions")})  # edited below
    shutil.copytree(SAMPLE, settings.sessions_uri)
    path = Path(settings.sessions_uri) / "sample.jsonl"
    lines = path.read_text().splitlines()
    first = json.loads(lines[3])  # bob's session
    first["events"][2]["text"] = "I'm vegetarian and I love Thai curry."
    lines[3] = json.dumps(first)
    path.write_text("\n".join(lines) + "\n")
    again = _run_flow(settings)
    assert again.sessions_processed == 1 and again.sessions_skipped == 4
    contents = [r["content"] for r in open_store(settings).rows(MEMORIES) if r["user_id"] == "bob"]
    assert any("Thai curry" in c for c in contents)


def test_cli_ingest_then_recall_json(prefect_harness: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = str(tmp_path / "cli-store")
    assert cli_main(["ingest", "--sessions", str(SAMPLE), "--store", store]) == 0
    capsys.readouterr()
    assert (
        cli_main(
            ["recall", "--app", APP, "--user", "alice", "--k", "3", "--json", "--store", store, "What bird did I like?"]
        )
        == 0
    )
    hits = json.loads(capsys.readouterr().out)
    memories = [h for h in hits if h["kind"] != "evidence"]  # k memories, then up to k verbatim passages
    assert len(memories) == 3 and hits[:3] == memories
    assert 0 < len(hits) - 3 <= 3 and all(h["kind"] == "evidence" for h in hits[3:])
    assert {"id", "topic", "content", "score", "session_id", "created_at"} <= set(hits[0])
    assert "parrot" in hits[0]["content"].lower()
