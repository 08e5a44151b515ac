"""Hostile input never aborts a batch: each bad line is quarantined with a plain reason, the rest land.

One folder holds every fixed case of :mod:`tests.reliability.hostile` (JSONL lines, ADK files, a
file whose name is not UTF-8); one real ingest runs over it, then again (adds nothing), then once
more with a new session (nothing wedged).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tasks.consolidate.history import list_memories
from tasks.ingest.run import run_ingest
from tasks.ingest.stages import IngestSummary
from tasks.models import stable_id
from tasks.settings import Settings
from tasks.store.tables import LEDGER, MEMORIES, QUARANTINE, open_store
from tests.reliability.hostile import adk_cases, fixed_cases, line, session

Ingested = tuple[Settings, Path, list[IngestSummary]]


def _key(data: bytes) -> str:
    obj = json.loads(data.decode("utf-8"))
    return stable_id(obj["app_name"], obj["user_id"], obj["session_id"])


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Ingested:
    root = tmp_path_factory.mktemp("hostile")
    sessions = root / "sessions"
    sessions.mkdir()
    (sessions / "batch.jsonl").write_bytes(b"".join(case.data for case in fixed_cases()))
    for name, data, _, _ in adk_cases():
        (sessions / name).write_bytes(data)
    odd_name = os.fsencode(sessions) + b"/odd-\xff-name.jsonl"
    Path(os.fsdecode(odd_name)).write_bytes(line(session(sid="odd-file")))
    settings = Settings(store_uri=str(root / "store"), sessions_uri=str(sessions))
    summaries = [run_ingest(settings), run_ingest(settings)]
    return settings, sessions, summaries


def _quarantine(settings: Settings) -> dict[tuple[str, int], str]:
    return {(Path(r["source"]).name, r["line"]): r["reason"] for r in open_store(settings).rows(QUARANTINE)}


@pytest.mark.parametrize("number", range(1, len(fixed_cases()) + 1))
def test_each_fixed_case_lands_or_is_quarantined_with_its_reason(ingested: Ingested, number: int) -> None:
    settings, _, _ = ingested
    case = fixed_cases()[number - 1]
    quarantined = _quarantine(settings)
    ledger = {r["session_key"] for r in open_store(settings).rows(LEDGER, columns=["session_key"])}
    if case.expect == "ingest":
        assert _key(case.data) in ledger, f"{case.name}: not ingested"
        assert ("batch.jsonl", number) not in quarantined
    else:
        reason = quarantined.get(("batch.jsonl", number))
        assert reason is not None, f"{case.name}: not quarantined at line {number}"
        assert case.reason in reason, f"{case.name}: reason {reason!r}"


def test_adk_files_and_odd_file_names(ingested: Ingested) -> None:
    settings, _, _ = ingested
    quarantined = _quarantine(settings)
    ledger = {(r["app_name"], r["session_id"]) for r in open_store(settings).rows(LEDGER)}
    for name, _, expect, reason in adk_cases():
        if expect == "ingest":
            assert ("app", "adk-ok") in ledger
        else:
            assert reason in quarantined[(name, 1)], name
    assert ("app", "odd-file") in ledger
    sources = {r["source"] for r in open_store(settings).rows(QUARANTINE)}
    assert all(s.encode("utf-8") for s in sources)


def test_second_run_adds_nothing_and_nothing_is_wedged(ingested: Ingested) -> None:
    settings, sessions, (first, second) = ingested
    assert first.sessions_processed > 0 and first.sessions_quarantined > 0
    assert second.sessions_processed == 0 and second.sessions_quarantined == 0
    store = open_store(settings)
    before = {t: store.table(t).count_rows() for t in (MEMORIES, LEDGER, QUARANTINE)}
    (sessions / "later.jsonl").write_bytes(line(session(user="late", sid="late")))
    third = run_ingest(settings)
    assert third.sessions_processed == 1, "a new session after the hostile batch must still be processed"
    assert store.table(QUARANTINE).count_rows() == before[QUARANTINE]


@pytest.mark.parametrize(
    ("app", "user"),
    [("../../etc", "a/b\\c"), ("o'brien\"; DROP TABLE memories; --", "' OR 1=1 --"), ("app", "u\u04301")],
)
def test_odd_ids_are_stored_and_read_back_exactly(ingested: Ingested, app: str, user: str) -> None:
    settings, _, _ = ingested
    rows = list_memories(open_store(settings), app, user, include_inactive=True)
    assert rows, f"nothing stored for {(app, user)!r}"
    assert {(r.app_name, r.user_id) for r in rows} == {(app, user)}


def test_session_repeated_with_other_content_keeps_the_later_line(tmp_path: Path) -> None:
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    first = line(session(sid="same", texts=("I live in Berlin.",)))
    later = line(session(sid="same", texts=("I live in Rome.",)))
    (sessions / "a.jsonl").write_bytes(first + later)
    settings = Settings(store_uri=str(tmp_path / "store"), sessions_uri=str(sessions))
    summary = run_ingest(settings)
    assert summary.sessions_processed == 1
    (reason,) = _quarantine(settings).values()
    assert "appears again at" in reason and "a.jsonl:2" in reason
    contents = [m.content for m in list_memories(open_store(settings), "app", "u1")]
    assert any("Rome" in c for c in contents) and not any("Berlin" in c for c in contents)


@pytest.mark.slow
def test_session_of_10000_events_is_ingested(tmp_path: Path) -> None:
    texts = tuple(f"I visited museum number {i} today." if i % 50 == 0 else "ok" for i in range(10_000))
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    (sessions / "big.jsonl").write_bytes(line(session(sid="big", texts=texts)))
    settings = Settings(store_uri=str(tmp_path / "store"), sessions_uri=str(sessions))
    assert run_ingest(settings).sessions_processed == 1
    assert open_store(settings).table(MEMORIES).count_rows() > 0
