"""Scale out (issue 66): partitioned ingest, the store on a real S3-compatible server, concurrent writers.

The object store is moto's S3 server on 127.0.0.1 (a free port), started by the fixture; the tables are
the real Lance ones, read and written over HTTP as on S3.
"""

from __future__ import annotations

import shutil
import threading
import traceback
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tasks.control.ops import list_runs
from tasks.errors import ClusterUnreachableError
from tasks.ingest.partitions import split
from tasks.ingest.run import run_ingest
from tasks.maintain import run_pass
from tasks.partition_key import bucket_of, partition_id, partition_suffix
from tasks.partitioning import check_cluster_address
from tasks.recall.recaller import Recaller
from tasks.rows import LedgerRow
from tasks.settings import Settings
from tasks.store.tables import EPISODES, EVIDENCE, KEYS, LEDGER, MEMORIES, RUNS, open_store

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sessions"
#: A fixed evaluation time for the maintenance pass (tests never read the clock).
NOW = datetime(2026, 1, 1, tzinfo=UTC)
#: What "identical tables" compares: each table's ids with their text.
TEXTS = {MEMORIES: "content", EPISODES: "summary", EVIDENCE: "text", LEDGER: "content_hash"}


def tables(settings: Settings) -> dict[str, list[tuple[str, Any]]]:
    store = open_store(settings)
    return {name: sorted((r[KEYS[name]], r[col]) for r in store.rows(name)) for name, col in TEXTS.items()}


def duplicated(settings: Settings) -> dict[str, list[str]]:
    store = open_store(settings)
    out = {}
    for name in (*TEXTS, RUNS):
        counts = Counter(r[KEYS[name]] for r in store.rows(name, columns=[KEYS[name]]))
        out[name] = [k for k, n in counts.items() if n > 1]
    return out


@pytest.fixture(scope="module")
def sessions_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("sessions") / "in"
    shutil.copytree(SAMPLE, folder)
    return folder


@pytest.fixture(scope="module")
def local_plain(tmp_path_factory: pytest.TempPathFactory, sessions_dir: Path) -> Settings:
    """The sample ingested as one unpartitioned run: what every partitioned ingest must equal."""
    settings = Settings(store_uri=str(tmp_path_factory.mktemp("plain") / "store"), sessions_uri=str(sessions_dir))
    run_ingest(settings)
    return settings


@pytest.fixture(scope="module")
def s3(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """moto's S3 server on a free loopback port, one bucket; yields the store's storage options."""
    boto3 = pytest.importorskip("boto3")
    server_mod = pytest.importorskip("moto.server")
    from tests.s3_server import atomic_conditional_puts, lean_request_handling

    atomic_conditional_puts()
    lean_request_handling()
    server = server_mod.ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    options = {"aws_access_key_id": "test", "aws_secret_access_key": "test", "aws_endpoint": endpoint,
               "aws_region": "us-east-1", "allow_http": "true"}  # fmt: skip
    client = boto3.client("s3", endpoint_url=endpoint, aws_access_key_id="test", aws_secret_access_key="test",
                          region_name="us-east-1")  # fmt: skip
    client.create_bucket(Bucket="memories")
    yield options
    server.stop()


def on_s3(options: dict[str, str], name: str, sessions: Path, lock_dir: Path, **extra: Any) -> Settings:
    return Settings(store_uri=f"s3://memories/{name}", sessions_uri=str(sessions), storage_options=options,  # type: ignore[arg-type]
                    lock_dir=str(lock_dir), **extra)  # fmt: skip


def test_buckets_are_deterministic_and_split_by_tenant(sessions_dir: Path) -> None:
    assert bucket_of("alice", 16) == bucket_of("alice", 16) == 15  # a hash, not Python's per-process salted one
    from tasks.ingest.stages import pull_sessions
    from tasks.ingest.validate import validate_batch

    raws, _ = pull_sessions(Settings(sessions_uri=str(sessions_dir)))
    sessions = validate_batch(raws).sessions
    parts = split(sessions, 4)
    owners = [{(s.app_name, s.user_id) for s in p.sessions} for p in parts]
    assert sum(len(p.sessions) for p in parts) == len(sessions)
    assert all(not (a & b) for i, a in enumerate(owners) for b in owners[i + 1 :]), "a user in two partitions"
    assert [p.partition_id for p in parts] == sorted(p.partition_id for p in parts)
    assert partition_suffix(f"20260101T000000-abcd0123.{partition_id('travel', 3)}") == partition_id("travel", 3)
    assert partition_suffix("20260101T000000-abcd0123") is None


def test_partitioned_ingest_equals_one_run_and_records_partitions(
    tmp_path: Path, sessions_dir: Path, local_plain: Settings
) -> None:
    settings = Settings(store_uri=str(tmp_path / "store"), sessions_uri=str(sessions_dir), partition_buckets=4)
    summary = run_ingest(settings)
    assert tables(settings) == tables(local_plain)
    assert summary.task_runner == "in-process" and len(summary.partitions) >= 2
    assert all(p.outcome == "completed" and p.attempts == 1 and p.worker_peak_mb > 0 for p in summary.partitions)
    assert sum(p.sessions_processed for p in summary.partitions) == summary.sessions_processed == 5
    runs = {r["run_id"]: r for r in list_runs(open_store(settings))}
    whole = runs[summary.run_id]
    assert whole["status"] == "completed" and whole["task_runner"] == "in-process"
    assert [p["partition_id"] for p in whole["partitions"]] == [p.partition_id for p in summary.partitions]
    for part in summary.partitions:  # each partition committed on its own, under its own run id
        assert runs[part.run_id]["flow"] == "ingest-partition" and runs[part.run_id]["status"] == "completed"
    again = run_ingest(settings)
    assert again.sessions_processed == 0 and again.sessions_skipped == 5 and tables(settings) == tables(local_plain)


def test_unreachable_cluster_is_a_clear_error_before_anything_is_written(tmp_path: Path) -> None:
    import socket

    with socket.socket() as probe:  # a loopback port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(ClusterUnreachableError, match=r"unreachable.*nothing was ingested"):
        check_cluster_address(f"tcp://127.0.0.1:{port}", timeout=2.0)
    with pytest.raises(ClusterUnreachableError, match="not"):
        check_cluster_address("no-port-here", timeout=2.0)


@pytest.fixture(scope="module")
def raced(
    s3: dict[str, str], sessions_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Settings, list[Any], list[BaseException]]:
    """Two partitioned ingests of the same sessions into one s3:// store at once, each with its own lock
    folder (as on two machines: no lock is shared); the store, their summaries and their errors."""
    hosts = tmp_path_factory.mktemp("hosts")
    results: list[Any] = []
    errors: list[BaseException] = []

    def one(i: int) -> None:
        try:
            results.append(run_ingest(on_s3(s3, "race", sessions_dir, hosts / f"host{i}", partition_buckets=4)))
        except BaseException as exc:  # reported by the test
            errors.append(exc)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return on_s3(s3, "race", sessions_dir, hosts / "reader"), results, errors


@pytest.mark.slow  # two ingests over HTTP to moto: ~40 s on 2 busy cores
def test_two_writers_on_one_s3_store_lose_and_duplicate_nothing(
    raced: tuple[Settings, list[Any], list[BaseException]], local_plain: Settings
) -> None:
    """Lance's commits (conditional PUT of each version) and the declared primary keys leave every row once."""
    settings, results, errors = raced
    assert not errors, "".join(traceback.format_exception(errors[0]))
    assert len(results) == 2
    assert all(not dupes for dupes in duplicated(settings).values()), duplicated(settings)
    assert tables(settings) == tables(local_plain)


@pytest.mark.slow
def test_store_on_s3_recalls_maintains_and_reruns_like_a_local_one(
    raced: tuple[Settings, list[Any], list[BaseException]], local_plain: Settings, tmp_path: Path
) -> None:
    settings, _, _ = raced
    hits = Recaller(settings).recall("What bird did I like?", "travel-assistant", "alice", k=5)
    assert hits and "parrot" in hits[0].content.lower()
    local_hits = Recaller(local_plain).recall("What bird did I like?", "travel-assistant", "alice", k=5)
    assert [h.id for h in hits] == [h.id for h in local_hits]
    report = run_pass(settings, "decay", now=NOW)
    local = run_pass(local_plain, "decay", now=NOW, dry_run=True)
    assert report.scanned == local.scanned > 0 and report.counts == local.counts
    again = run_ingest(settings.model_copy(update={"partition_buckets": 4}))
    assert again.sessions_processed == 0 and again.sessions_skipped == 5
    assert tables(settings) == tables(local_plain)


@pytest.mark.slow  # a Dask LocalCluster of 2 worker processes, each importing the pipeline and its model
def test_dask_ingest_with_a_worker_killed_mid_partition_equals_one_run(
    prefect_harness: None, sessions_dir: Path, local_plain: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The flow on prefect-dask's DaskTaskRunner (2 local workers): the first worker to have written a
    partition's memories is SIGKILLed there; Dask runs the partition again on a live worker, and the
    tables are those of one in-process run. Each worker loaded the embedder once, whatever it ran."""
    pytest.importorskip("prefect_dask")
    from flows.ingest import IngestParams, ingest_flow
    from tasks.ingest.faults import FAULT_ENV, FAULT_ONCE_ENV

    monkeypatch.setenv("MEMORY_PIPELINE_TASK_RUNNER", "dask")
    monkeypatch.setenv("MEMORY_PIPELINE_DASK_WORKERS", "2")
    monkeypatch.setenv("MEMORY_PIPELINE_PARTITION_BUCKETS", "4")
    monkeypatch.setenv(FAULT_ENV, "after_memories")  # read by the worker processes, which inherit it
    monkeypatch.setenv(FAULT_ONCE_ENV, str(tmp_path / "killed-once"))
    store = tmp_path / "store"
    summary = ingest_flow(IngestParams(sessions_uri=str(sessions_dir), store_uri=str(store)))
    assert (tmp_path / "killed-once").exists(), "no worker was killed"
    settings = Settings(store_uri=str(store), sessions_uri=str(sessions_dir))
    assert tables(settings) == tables(local_plain)
    assert summary.task_runner == "dask" and all(p.outcome == "completed" for p in summary.partitions)
    assert all(p.embedder_loads == 1 for p in summary.partitions), summary.partitions
    whole = next(r for r in list_runs(open_store(settings)) if r["run_id"] == summary.run_id)
    assert whole["task_runner"] == "dask" and whole["status"] == "completed"


def _ledger_rows(n: int) -> list[LedgerRow]:
    return [
        LedgerRow(session_key=f"k{i}", app_name="app", user_id=f"u{i}", session_id=f"s{i}", content_hash="h",
                  ended_at=NOW, processed_at=NOW, run_id="r", memories_written=0)
        for i in range(n)
    ]  # fmt: skip


def test_object_store_503s_are_retried_and_a_store_that_stays_down_fails_cleanly(
    s3: dict[str, str], tmp_path: Path
) -> None:
    """S3's "503 Slow Down" to every third request: the writes go through (the object-store client backs off
    and retries), once each. Down for good: the write fails with an error and leaves no table behind."""
    from tests.s3_server import FlakyProxy

    rows = _ledger_rows(50)
    flaky = FlakyProxy(s3["aws_endpoint"], every=3)
    try:
        through = on_s3({**s3, "aws_endpoint": flaky.endpoint}, "flaky", tmp_path, tmp_path)
        store = open_store(through)
        assert store.upsert(LEDGER, rows) == 50 and store.upsert(LEDGER, rows) == 50  # the second changes nothing
        assert flaky.refused > 0
    finally:
        flaky.close()
    direct = open_store(on_s3(s3, "flaky", tmp_path, tmp_path))
    assert sorted(r["session_key"] for r in direct.rows(LEDGER)) == sorted(r.session_key for r in rows)
    down = FlakyProxy(s3["aws_endpoint"], every=1)
    try:
        options = {**s3, "aws_endpoint": down.endpoint, "client_max_retries": "2", "client_retry_timeout": "3"}
        with pytest.raises((OSError, RuntimeError, ValueError)):
            open_store(on_s3(options, "down", tmp_path, tmp_path)).upsert(LEDGER, rows)
    finally:
        down.close()
    assert open_store(on_s3(s3, "down", tmp_path, tmp_path)).existing() == []
