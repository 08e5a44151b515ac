"""User control end to end on a real store: edit, delete, export/import, runs, quarantine, access counts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from flows.cli import main
from tasks.consolidate.history import list_memories, memory_history
from tasks.providers.base import Embedder
from tasks.settings import Settings
from tasks.store.tables import CHANGES, EPISODES, KEYS, MEMORIES, QUARANTINE, RUNS, Store, open_store
from tests.conftest import REPO
from tests.test_erasure import APP, ingest, session, write


@pytest.fixture
def filled(settings: Settings, tmp_path: Path) -> Settings:
    zed = session("zed", "z1", "03-02", "I live in Berlin.", "I love African Grey parrots.")
    amy = session("amy", "a1", "03-03", "I prefer the aisle seat when flying.")
    ingest(settings, write(tmp_path / "in" / "s.jsonl", zed, amy))
    return settings


def recalled_row_id(settings: Settings, capsys: pytest.CaptureFixture[str], query: str) -> str:
    assert main(["recall", "--app", APP, "--user", "zed", "--json", "--no-episodes", "--store", settings.store_uri,
                 query]) == 0  # fmt: skip
    return str(json.loads(capsys.readouterr().out)[0]["id"])


def test_edit_is_a_new_audited_reembedded_version(filled: Settings, embedder: Embedder, capsys) -> None:
    row_id = recalled_row_id(filled, capsys, "where do I live")
    assert row_id.endswith("-v1")
    assert main(["history", row_id, "--store", filled.store_uri]) == 0  # recall's row id is accepted
    assert "1 version(s)" in capsys.readouterr().out

    assert main(["edit", row_id, "User lives in Munich", "--store", filled.store_uri]) == 0

    printed = capsys.readouterr().out.split(":")[0]
    history = memory_history(open_store(filled), printed)  # the printed id is accepted too
    old, new = history.versions
    assert (old.status, new.status, new.version, new.content) == ("superseded", "active", 2, "User lives in Munich")
    assert new.supersedes == old.row_id and old.valid_to == new.valid_from
    assert np.allclose(new.vector, embedder.embed(["User lives in Munich"])[0], atol=1e-6)
    assert history.changes[-1].action == "UPDATE" and history.changes[-1].old_content == old.content
    assert recalled_row_id(filled, capsys, "where do I live") == new.row_id


def test_delete_closes_with_reason_and_is_audited(filled: Settings, capsys) -> None:
    row_id = recalled_row_id(filled, capsys, "parrots")

    assert main(["delete", row_id, "--reason", "not true any more", "--store", filled.store_uri]) == 0

    store = open_store(filled)
    assert "parrots" not in " ".join(m.content for m in list_memories(store, APP, "zed"))
    history = memory_history(store, row_id)
    assert history.versions[-1].status == "deleted" and history.versions[-1].status_reason == "not true any more"
    assert history.changes[-1].action == "DELETE" and history.changes[-1].reason == "not true any more"
    assert main(["delete", row_id, "--store", filled.store_uri]) == 1  # nothing current to delete
    assert "no current version" in capsys.readouterr().err


def table_rows(store: Store, name: str) -> list[dict[str, object]]:
    rows = store.rows(name)
    plain = ({k: v for k, v in r.items() if not k.startswith("_")} for r in rows)
    return sorted(plain, key=lambda r: str(r[KEYS[name]]))


@pytest.mark.parametrize("fmt", ["parquet", "jsonl"])
def test_export_then_import_into_an_empty_store_reproduces_it(filled: Settings, tmp_path: Path, fmt: str,
                                                              capsys) -> None:  # fmt: skip
    row_id = recalled_row_id(filled, capsys, "where do I live")
    assert main(["edit", row_id, "User lives in Munich", "--store", filled.store_uri]) == 0
    out = tmp_path / "export"
    assert main(["export", "--app", APP, "--format", fmt, "--out", str(out), "--store", filled.store_uri]) == 0
    fresh = str(tmp_path / "fresh")

    assert main(["import", str(out), "--store", fresh]) == 0

    source, target = open_store(filled), open_store(filled.model_copy(update={"store_uri": fresh}))
    for name in (MEMORIES, EPISODES, CHANGES):
        assert table_rows(target, name) == table_rows(source, name), name
    history = memory_history(target, row_id)
    assert [v.version for v in history.versions] == [1, 2]
    assert main(["import", str(out), "--store", fresh]) == 0  # twice changes nothing
    assert table_rows(target, MEMORIES) == table_rows(source, MEMORIES)


def test_export_of_one_user_holds_only_that_user(filled: Settings, tmp_path: Path) -> None:
    out = tmp_path / "amy"
    assert main(["export", "--app", APP, "--user", "amy", "--format", "jsonl", "--out", str(out),
                 "--store", filled.store_uri]) == 0  # fmt: skip
    lines = [json.loads(x) for n in ("memories", "episodes", "memory_changes")
             for x in (out / f"{n}.jsonl").read_text().splitlines()]  # fmt: skip
    assert lines and {x["user_id"] for x in lines} == {"amy"}


def test_runs_lists_counts_and_rollbacks(filled: Settings, capsys) -> None:
    row_id = recalled_row_id(filled, capsys, "parrots")
    assert main(["delete", row_id, "--store", filled.store_uri]) == 0
    capsys.readouterr()
    delete_run = next(r["run_id"] for r in open_store(filled).rows(RUNS) if r["flow"] == "delete")
    assert main(["rollback", delete_run, "--store", filled.store_uri]) == 0
    capsys.readouterr()

    assert main(["runs", "--json", "--store", filled.store_uri]) == 0

    runs = {r["flow"]: r for r in json.loads(capsys.readouterr().out)}
    assert runs["ingest"]["counts"]["sessions_processed"] == 2 and not runs["ingest"]["rolled_back"]
    assert runs["delete"]["rolled_back"]
    assert "parrots" in " ".join(m.content for m in list_memories(open_store(filled), APP, "zed"))
    audit = open_store(filled).rows(CHANGES)
    assert [r["action"] for r in audit].count("ROLLBACK") == 1 and "DELETE" in [r["action"] for r in audit]


def test_quarantine_lists_reasons_and_retry_ingests_fixed_lines(settings: Settings, tmp_path: Path, capsys) -> None:
    good = session("zed", "z1", "03-02", "I love African Grey parrots.")
    broken = session("zed", "z2", "03-05", "I live in Berlin.")
    broken_line = json.dumps(broken).replace('"2025-03-05T09:01:00Z"', '"last tuesday"')
    source = write(tmp_path / "in" / "s.jsonl", good, extra=broken_line + "\n")
    ingest(settings, source)
    assert main(["quarantine", "--store", settings.store_uri]) == 0
    listing = capsys.readouterr().out
    assert f"{source}:2" in listing and "1 quarantined" in listing

    write(source, good, broken)  # the operator fixed the line
    assert main(["quarantine", "--retry", "--store", settings.store_uri]) == 0

    assert "resolved: 1" in capsys.readouterr().out
    store = open_store(settings)
    assert store.rows(QUARANTINE) == []
    assert any("lives in Berlin" in m.content for m in list_memories(store, APP, "zed"))


_FLUSHER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from tasks.settings import Settings
    from tasks.recall.recaller import Recaller
    settings = Settings(store_uri=sys.argv[1])
    recaller = Recaller(settings)
    for _ in range(int(sys.argv[2])):
        recaller.recall("parrots", "travel", "zed", include_episodes=False)
    Path(sys.argv[3]).touch()
    while not all(Path(p).exists() for p in sys.argv[4:]):
        time.sleep(0.01)
    recaller.flush_access()
    """
)


@pytest.mark.slow
def test_two_processes_flushing_at_once_keep_every_count(filled: Settings, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    ready = [str(tmp_path / f"ready{i}") for i in range(2)]
    procs = [
        subprocess.Popen([sys.executable, "-c", _FLUSHER, filled.store_uri, str(n), ready[i], *ready], env=env)
        for i, n in enumerate((7, 5))
    ]
    assert [p.wait(timeout=300) for p in procs] == [0, 0]

    counts = {r["content"]: r["access_count"] for r in open_store(filled).rows(MEMORIES, "user_id = 'zed'")}
    assert counts["User loves African Grey parrots"] == 12  # 7 + 5: neither flush lost the other's
