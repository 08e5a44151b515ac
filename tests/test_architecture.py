"""The house rules: one id rule, tables declared once (with a migration path), imports one way."""

from __future__ import annotations

import ast
import json
from datetime import UTC, datetime
from pathlib import Path

import lancedb
import pyarrow as pa
import pytest

from flows.cli import main as cli_main
from tasks.errors import InvalidFilterError
from tasks.ids import MAX_ID_CHARS, id_problem
from tasks.ingest.run import run_ingest
from tasks.rows import MemoryRow
from tasks.settings import Settings
from tasks.store.filters import literal, scope
from tasks.store.schema import KEYS, ROW_MODELS, SCHEMA_VERSION, schemas
from tasks.store.tables import LEDGER, MEMORIES, QUARANTINE, RUNS, Store, open_store

REPO = Path(__file__).resolve().parents[1]
BAD_IDS = ["bob\x01x", "tab\tid", "x" * (MAX_ID_CHARS + 1), "   ", "\ud800lone", "del\x7f"]


def session_line(user: str, session_id: str, text: str) -> str:
    at = "2025-03-01T10:00:00Z"
    return json.dumps(
        {"app_name": "app", "user_id": user, "session_id": session_id, "started_at": at, "ended_at": at,
         "events": [{"id": "e1", "author": "user", "text": text, "timestamp": at}]},
        ensure_ascii=True,
    )  # fmt: skip


@pytest.mark.parametrize("bad", BAD_IDS)
def test_the_id_rule_is_the_same_for_validation_and_filters(bad: str) -> None:
    assert id_problem(bad) is not None
    with pytest.raises(InvalidFilterError):
        scope("app", bad) if bad.strip() else literal(bad + "\x00")
    assert id_problem("bob") is None and literal("o'brien") == "'o''brien'"


def test_a_bad_id_is_quarantined_and_no_later_run_is_wedged(tmp_path: Path) -> None:
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    lines = [session_line("alice", "s1", "My member number is ZK-4410.")]
    lines += [session_line(bad, f"bad{i}", "I live in Lisbon.") for i, bad in enumerate(BAD_IDS)]
    (sessions / "batch.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    settings = Settings(store_uri=str(tmp_path / "store"), sessions_uri=str(sessions))

    first = run_ingest(settings)
    assert first.sessions_processed == 1 and first.sessions_quarantined == len(BAD_IDS)
    reasons = [r["reason"] for r in open_store(settings).rows(QUARANTINE)]
    assert any("user_id: contains control characters" in r for r in reasons)
    assert any(f"longer than {MAX_ID_CHARS}" in r for r in reasons)

    (sessions / "later.jsonl").write_text(session_line("carol", "s2", "I work as a nurse in Porto.") + "\n")
    second = run_ingest(settings)
    assert second.sessions_processed == 1 and second.sessions_skipped == 1
    users = {r["user_id"] for r in open_store(settings).rows(LEDGER)}
    assert users == {"alice", "carol"}


def test_every_table_is_declared_once_and_derived() -> None:
    assert set(ROW_MODELS) == set(KEYS)
    derived = schemas(8)
    for name, model in ROW_MODELS.items():
        assert derived[name].names == list(model.model_fields), name
        assert KEYS[name] in derived[name].names
    assert derived[MEMORIES].field("vector").type == pa.list_(pa.float32(), 8)
    assert derived[MEMORIES].field("version").type == pa.int32()


def test_an_old_store_gains_new_optional_columns_when_opened(tmp_path: Path) -> None:
    """A store written before a column existed: the column is added (null in old rows), data kept."""
    declared = schemas(4)[MEMORIES]
    old = pa.schema([f for f in declared if f.name != "status_reason"]).with_metadata(
        {"embedding_model": "m", "embedding_dim": "4"}
    )
    now = datetime(2025, 1, 1, tzinfo=UTC)
    row = MemoryRow(
        row_id="m1-v1", memory_id="m1", version=1, app_name="a", user_id="u", topic="t", content="User likes tea",
        vector=[1.0, 0.0, 0.0, 0.0], importance=0.5, confidence=0.8, speaker="user", slot=None, value=None,
        source_session_id="s", source_event_ids=["e"], stated_at=now, valid_from=now, valid_to=None, status="active",
        status_reason=None, supersedes=None, relation="new", confirmations=0, last_confirmed_at=None, access_count=0,
        last_accessed_at=None, created_at=now, updated_at=now, run_id="r",
    )  # fmt: skip
    record = {k: v for k, v in row.model_dump().items() if k != "status_reason"}
    lancedb.connect(str(tmp_path)).create_table(MEMORIES, data=pa.Table.from_pylist([record], schema=old))

    store = Store(str(tmp_path), "m", 4)
    table = store.table(MEMORIES)
    assert table.schema.field("status_reason").type == pa.string()
    meta = {k.decode(): v.decode() for k, v in (table.schema.metadata or {}).items()}
    assert meta["schema_version"] == str(SCHEMA_VERSION) and meta["embedding_model"] == "m"
    assert store.rows(MEMORIES)[0]["status_reason"] is None
    store.upsert(MEMORIES, [row.model_copy(update={"status_reason": "checked"})])
    assert [r["status_reason"] for r in store.rows(MEMORIES)] == ["checked"]


def test_reads_never_create_a_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "typo"
    assert cli_main(["recall", "--store", str(missing), "--app", "a", "--user", "u", "tea"]) != 0
    assert cli_main(["memories", "--store", str(missing), "--app", "a", "--user", "u"]) != 0
    assert "no memory store" in capsys.readouterr().err
    assert not missing.exists()
    assert Store(str(tmp_path / "fresh"), "m", 4).rows(MEMORIES) == []


def test_cli_ingest_records_the_run(tmp_path: Path) -> None:
    store = tmp_path / "store"
    assert cli_main(["ingest", "--sessions", str(REPO / "data" / "sessions"), "--store", str(store)]) == 0
    runs = open_store(Settings(store_uri=str(store))).rows(RUNS)
    # the sample's forget request is purged after the run, recorded as its own (purge) run
    assert sorted(r["flow"] for r in runs) == ["ingest", "purge"] and all(r["status"] == "completed" for r in runs)


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


@pytest.mark.slow
def test_imports_point_one_way_without_cycles() -> None:
    modules = {
        ".".join(p.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__"): p
        for top in ("flows", "tasks", "evaluation")
        for p in (REPO / top).rglob("*.py")
    }
    graph = {m: {i for i in _imports(p) if i in modules and i != m} for m, p in modules.items()}
    for module, targets in graph.items():
        if module.startswith("tasks"):
            assert not any(t.startswith(("flows", "evaluation")) for t in targets), module
        if module.startswith("evaluation"):
            assert not any(t.startswith("flows") for t in targets), module
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in graph[node]:
            assert state.get(nxt) != 1, "import cycle: " + " -> ".join([*path, node, nxt])
            if nxt not in state:
                visit(nxt, [*path, node])
        state[node] = 2

    for module in graph:
        if module not in state:
            visit(module, [])
