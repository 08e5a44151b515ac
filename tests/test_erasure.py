"""Erasure for real: after ``forget`` (or a spoken forget request) the text is in no file of the store."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from flows.cli import main
from tasks.clock import now
from tasks.consolidate.history import RollbackError, list_memories, memory_history, rollback
from tasks.ingest.run import run_ingest
from tasks.settings import Settings
from tasks.store.erase import purge_forgotten
from tasks.store.tables import CHANGES, EPISODES, EVIDENCE, MEMORIES, QUARANTINE, RUNS, open_store

APP = "travel"
MARKER = "Quxlandmarker"  # one word: the full-text index keeps it as one token too
T0 = "2025-03-02T09:0{}:00Z"


def session(user: str, sid: str, day: str, *texts: str) -> dict[str, object]:
    at = f"2025-{day}T09:0{{}}:00Z"
    events = [{"id": f"{sid}-e{i}", "author": "user", "text": t, "timestamp": at.format(i + 1)}
              for i, t in enumerate(texts)]  # fmt: skip
    return {"app_name": APP, "user_id": user, "session_id": sid, "started_at": at.format(0),
            "ended_at": at.format(9), "events": events}  # fmt: skip


def write(path: Path, *sessions: dict[str, object], extra: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(s) + "\n" for s in sessions) + extra, encoding="utf-8")
    return path


def files_with(root: Path, text: str) -> list[str]:
    """Every file under ``root`` whose bytes contain ``text`` (any case)."""
    needle = text.lower().encode()
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() and needle in p.read_bytes().lower())


def ingest(settings: Settings, path: Path) -> str:
    return run_ingest(settings.model_copy(update={"sessions_uri": str(path)})).run_id


@pytest.fixture
def store_dir(settings: Settings) -> Path:
    return Path(settings.store_uri)


def test_forget_user_removes_every_byte_and_keeps_others(settings: Settings, store_dir: Path, tmp_path: Path) -> None:
    amy = session("amy", "a1", "03-01", "I prefer the aisle seat when flying.")
    first = ingest(settings, write(tmp_path / "in" / "a.jsonl", amy))
    zed = session("zed", "z1", "03-02", f"I live in {MARKER} and I love African Grey parrots.")
    bad = json.dumps({"app_name": APP, "user_id": "zed", "session_id": "zq", "events": "oops " + MARKER})
    second = ingest(settings, write(tmp_path / "in" / "z.jsonl", zed, extra=bad + "\n"))
    store = open_store(settings)
    assert store.rows(QUARANTINE) and files_with(store_dir, MARKER)
    first_tags = {n: set(store.table(n).tags.list()) for n in (MEMORIES, EPISODES)}

    assert main(["forget", "--app", APP, "--user", "zed", "--store", settings.store_uri]) == 0

    assert files_with(store_dir, MARKER) == []
    store = open_store(settings)
    assert list_memories(store, APP, "zed", include_inactive=True) == []
    assert store.rows(EPISODES, "user_id = 'zed'") == [] and store.rows(QUARANTINE) == []
    audit = store.rows(CHANGES, "user_id = 'zed'")
    assert audit and all(r["old_content"] is None and r["new_content"] is None for r in audit)
    assert {r["action"] for r in audit} == {"ADD", "ERASE"}  # that it happened, not what it said
    assert [m.content for m in list_memories(store, APP, "amy")] == ["User prefers the aisle seat when flying"]
    for name in (MEMORIES, EPISODES):  # the earlier run's tags stay; the later run's (with the text) are gone
        tags = set(store.table(name).tags.list())
        assert first in tags and second not in tags and first in first_tags[name]
    runs = {r["run_id"]: r for r in store.rows(RUNS)}
    assert runs[second]["rollback_blocked"] is None  # its version before holds no erased text
    erase = next(r for r in runs.values() if r["flow"] == "erase")
    assert erase["rollback_blocked"] and rollback_refused(store, erase["run_id"])
    # Re-running the same source does not bring the erased sessions back (the ledger keeps keys).
    ingest(settings, tmp_path / "in" / "z.jsonl")
    assert list_memories(open_store(settings), APP, "zed") == []


def rollback_refused(store, run_id: str) -> bool:
    with pytest.raises(RollbackError, match="can no longer be rolled back"):
        rollback(store, run_id)
    return True


def test_forget_one_memory_by_row_id(settings: Settings, store_dir: Path, tmp_path: Path, capsys) -> None:
    zed = session("zed", "z1", "03-02", f"I live in {MARKER}.", "I love African Grey parrots.")
    ingest(settings, write(tmp_path / "in" / "z.jsonl", zed))
    store = open_store(settings)
    (home,) = [m for m in list_memories(store, APP, "zed") if MARKER in m.content]
    assert any(MARKER in s["text"] for e in store.rows(EPISODES) for s in e["sentences"])

    code = main(["forget", "--app", APP, "--user", "zed", "--memory", home.row_id, "--store", settings.store_uri])

    assert code == 0 and "1 memories" in capsys.readouterr().out
    assert files_with(store_dir, MARKER) == []
    store = open_store(settings)
    assert [m.content for m in list_memories(store, APP, "zed")] == ["User loves African Grey parrots"]
    history = memory_history(store, home.memory_id)
    assert history.versions == [] and history.changes[-1].action == "ERASE"
    assert all(c.old_content is None and c.new_content is None for c in history.changes)
    # another user's memory id is refused
    assert main(["forget", "--app", APP, "--user", "amy", "--memory", home.memory_id,
                 "--store", settings.store_uri]) == 1  # fmt: skip


def test_spoken_forget_is_purged_after_the_run(settings: Settings, store_dir: Path, tmp_path: Path, capsys) -> None:
    ingest(settings, write(tmp_path / "in" / "1.jsonl", session("zed", "z1", "03-02", f"I live in {MARKER}.")))
    request = session("zed", "z2", "04-02", f"Please forget that I live in {MARKER}.")
    forget_run = ingest(settings, write(tmp_path / "in" / "2.jsonl", request))

    assert files_with(store_dir, MARKER) == []
    as_of = ["--as-of", "2025-03-10", "--store", settings.store_uri]
    assert main(["memories", "--app", APP, "--user", "zed", *as_of]) == 0
    assert MARKER not in capsys.readouterr().out
    store = open_store(settings)
    (purge,) = [r for r in store.rows(RUNS) if r["flow"] == "purge"]
    assert forget_run in json.loads(purge["counts"])["runs_blocked"]
    assert main(["rollback", forget_run, "--store", settings.store_uri]) == 1
    assert "can no longer be rolled back" in capsys.readouterr().err


def test_retention_keeps_forgotten_text_until_due(settings: Settings, store_dir: Path, tmp_path: Path) -> None:
    kept = settings.model_copy(update={"forgotten_retention_days": 30.0})
    ingest(kept, write(tmp_path / "in" / "1.jsonl", session("zed", "z1", "03-02", f"I live in {MARKER}.")))
    ingest(kept, write(tmp_path / "in" / "2.jsonl", session("zed", "z2", "04-02", f"Forget that I live in {MARKER}.")))
    assert files_with(store_dir, MARKER)  # inside the retention period the closed version stays
    assert purge_forgotten(kept, now() + timedelta(days=29)) is None

    report = purge_forgotten(kept, now() + timedelta(days=31))

    assert report is not None and report.memory_rows == 1
    assert files_with(store_dir, MARKER) == []


def test_an_erasure_cut_short_after_its_row_writes_is_finished_by_the_next_purge(
    settings: Settings, store_dir: Path, tmp_path: Path
) -> None:
    from tasks.store.erase import _first_versions, _journal, resume_erasures
    from tasks.store.filters import scope

    ingest(settings, write(tmp_path / "in" / "1.jsonl", session("zed", "z1", "03-02", f"I live in {MARKER}.")))
    store = open_store(settings)
    tenant = scope(APP, "zed")
    # The state a crash leaves: journal written, rows deleted, old versions not yet cleaned up.
    targets = {MEMORIES: tenant, EPISODES: tenant, CHANGES: tenant, EVIDENCE: tenant}
    _journal(store, "erase-cut", _first_versions(store, targets))
    for name in targets:
        store.table(name).delete(tenant)
    assert files_with(store_dir, MARKER)  # deleted rows still sit in the files

    assert purge_forgotten(settings, now()) is None  # nothing new to purge, but the cut erasure is finished
    assert files_with(store_dir, MARKER) == []
    (run,) = [r for r in open_store(settings).rows(RUNS) if r["run_id"] == "erase-cut"]
    assert run["status"] == "completed" and json.loads(run["counts"])["resumed"]
    assert resume_erasures(open_store(settings)) == []
