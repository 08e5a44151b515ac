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
from tasks.ingest.partition_key import bucket_of, partition_id, partition_suffix
from tasks.ingest.partitions import check_cluster_address, split
from tasks.ingest.run import run_ingest
from tasks.maintain import run_pass
from tasks.recall.recaller import Recaller
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
    from tests.s3_server import atomic_conditional_puts

    atomic_conditional_puts()
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
    assert all(p.outcome == "completed" and p.attempts == 1 for p in summary.partitions)
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


def test_store_on_s3_ingests_recalls_and_maintains_like_a_local_one(
    s3: dict[str, str], sessions_dir: Path, local_plain: Settings, tmp_path: Path
) -> None:
    settings = on_s3(s3, "suite", sessions_dir, tmp_path, partition_buckets=4)
    summary = run_ingest(settings)
    assert summary.sessions_processed == 5 and not summary.sessions_failed
    assert tables(settings) == tables(local_plain)
    hits = Recaller(settings).recall("What bird did I like?", "travel-assistant", "alice", k=5)
    assert hits and "parrot" in hits[0].content.lower()
    report = run_pass(settings, "decay", now=NOW)
    local = run_pass(local_plain.model_copy(), "decay", now=NOW, dry_run=True)
    assert report.scanned == local.scanned > 0
    again = run_ingest(settings)
    assert again.sessions_processed == 0 and again.sessions_skipped == 5 and tables(settings) == tables(local_plain)


def test_two_writers_on_one_s3_store_lose_and_duplicate_nothing(
    s3: dict[str, str], sessions_dir: Path, local_plain: Settings, tmp_path: Path
) -> None:
    """Two ingests of the same sessions at once (no shared lock: each its own lock folder, as on two
    machines): Lance's commits and the declared primary keys leave every row once."""
    results: list[Any] = []
    errors: list[BaseException] = []

    def one(i: int) -> None:
        try:
            results.append(run_ingest(on_s3(s3, "race", sessions_dir, tmp_path / f"host{i}", partition_buckets=4)))
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors and len(results) == 2, "".join(traceback.format_exception(errors[0]))
    settings = on_s3(s3, "race", sessions_dir, tmp_path)
    assert all(not dupes for dupes in duplicated(settings).values()), duplicated(settings)
    assert tables(settings) == tables(local_plain)
