"""Provider failure mid-batch, concurrent ingests on one store, Lance commit conflicts retried."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import lance
import lancedb
import pyarrow as pa
import pytest

from tasks.ingest.run import ingest_sessions
from tasks.ingest.validate import validate_batch
from tasks.models import Session
from tasks.settings import Settings
from tasks.sources.files import read_source
from tasks.sources.raw import RawSession
from tasks.store.tables import LEDGER, RUNS, open_store, retry_conflicts
from tests.reliability.crash import KEEP_FORGOTTEN, SAMPLE, child_report, snapshot, start_ingest


def _sample() -> list[Session]:
    return validate_batch([r for r in read_source(str(SAMPLE)) if isinstance(r, RawSession)]).sessions


def _poison() -> Session:
    """A session the real local extractor fails on ("tomorrow" on the last day of the calendar).

    Validation refuses such dates, so it can only come in through ``ingest_sessions`` (Python callers):
    exactly the kind of provider failure one session can cause.
    """
    late = datetime(9999, 12, 31, 22, 0, tzinfo=UTC)
    base = _sample()[0]
    events = tuple(e.model_copy(update={"timestamp": late + timedelta(minutes=i), "text": "I fly to Paris tomorrow."})
                   for i, e in enumerate(base.events))  # fmt: skip
    return base.model_copy(update={"session_id": "poison", "started_at": late, "ended_at": late + timedelta(hours=1),
                                   "events": events})  # fmt: skip


def test_a_session_the_provider_fails_on_stays_unmarked_and_is_named(tmp_path: Path) -> None:
    settings = Settings(store_uri=str(tmp_path / "store"))
    good = _sample()
    poison = _poison()
    summary = ingest_sessions([good[0], poison, *good[1:]], settings)
    label = f"{poison.app_name}/{poison.user_id}/poison"
    assert list(summary.sessions_failed) == [label] and "OverflowError" in summary.sessions_failed[label]
    assert summary.sessions_processed == len(good)
    ledger = {r["session_id"] for r in open_store(settings).rows(LEDGER)}
    assert ledger == {s.session_id for s in good}, "the failed session must stay out of the ledger"
    again = ingest_sessions([poison, *good], settings)
    assert again.sessions_processed == 0 and list(again.sessions_failed) == [label], "retried, still named"


def test_a_provider_that_is_down_fails_the_run(tmp_path: Path) -> None:
    settings = Settings(store_uri=str(tmp_path / "store"))
    poisons = [_poison().model_copy(update={"session_id": f"poison{i}"}) for i in range(3)]
    with pytest.raises(OverflowError):
        ingest_sessions(poisons, settings)
    assert not open_store(settings).has(LEDGER)


@pytest.mark.slow
@pytest.mark.parametrize("pair", [1, 2])
def test_two_ingests_started_at_once_end_equal_to_one(tmp_path: Path, clean: dict[str, Any], pair: int) -> None:
    both = Settings(store_uri=str(tmp_path / "both"), sessions_uri=str(SAMPLE), **KEEP_FORGOTTEN)
    children = [start_ingest(both), start_ingest(both)]
    outputs = [c.communicate(timeout=600) for c in children]
    assert [c.returncode for c in children] == [0, 0], [err[-2000:] for _, err in outputs]
    assert [child_report(out)["embedder_loads"] for out, _ in outputs] == [0, 0], "the forkserver holds the embedder"
    processed = sorted(_processed(out) for out, _ in outputs)
    assert processed == [0, len(_sample())], "the lock must serialise them: one does the work, one finds none"
    assert snapshot(both) == clean
    assert [r["status"] for r in open_store(both).rows(RUNS) if r["flow"] == "ingest"] == ["completed"]


def _processed(stdout: str) -> int:
    return int(json.loads(stdout.strip().splitlines()[-1])["sessions_processed"])


def test_a_real_retryable_commit_conflict_is_retried(tmp_path: Path) -> None:
    """Two index builds from the same version: Lance refuses the second ("Retryable commit conflict")."""
    db = lancedb.connect(str(tmp_path))
    db.create_table("t", pa.table({"k": [str(i) for i in range(100)]}))
    uri = str(tmp_path / "t.lance")
    stale = lance.dataset(uri)
    lance.dataset(uri).create_scalar_index("k", "BTREE")
    attempts: list[str] = []

    def build() -> None:
        dataset = stale if not attempts else lance.dataset(uri)  # a retry starts from the latest version
        attempts.append(str(dataset.version))
        dataset.create_scalar_index("k", "BTREE", replace=True)

    retry_conflicts(build, "test index")
    assert len(attempts) == 2
    assert [ix["name"] for ix in lance.dataset(uri).list_indices()]


def test_other_errors_are_not_retried() -> None:
    calls: list[int] = []

    def broken() -> None:
        calls.append(1)
        raise ValueError("schema mismatch")

    with pytest.raises(ValueError):
        retry_conflicts(broken)
    assert calls == [1]
