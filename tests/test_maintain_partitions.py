"""Partitioned maintenance passes (issue 66): the same tables as one whole pass, a record of the partitions,
a failed partition recorded while the others commit, and a re-run that redoes only that one."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tasks.control.ops import list_runs
from tasks.maintain import PASSES, run_pass
from tasks.maintain.common import Plan
from tasks.maintain.partitions import split_tenants
from tasks.partition_key import PARTITION_SEP, bucket_of, partition_suffix
from tasks.rows import EpisodeRow, MemoryRow
from tasks.settings import Settings
from tasks.store.tables import CHANGES, EPISODES, MEMORIES, RUNS, open_store
from tests.maintain_fixtures import NOW, episode, mem, seed, unit

BUCKETS = 4
PER_TENANT = ("ttl", "decay", "capacity", "merge")
USERS = [f"user-{i}" for i in range(8)]


def _rows() -> tuple[list[MemoryRow], list[EpisodeRow]]:
    """Per user: one to expire, one too weak to keep, a near-duplicate pair, a long-closed row, old episodes;
    and one user over the per-user cap."""
    rows: list[MemoryRow] = []
    eps: list[EpisodeRow] = []
    for i, user in enumerate(USERS):
        base = np.asarray(unit(100 + i))
        rows += [
            mem(user, "old", f"Flight {i} is LH12{i}.", days_ago=400),
            mem(user, "weak", f"Talked about weather {i}.", days_ago=900, importance=0.2),
            mem(user, "a", f"Prefers aisle seats {i}.", vector=unit(200 + i, base, 0.01), slot="seat", value="aisle"),
            mem(user, "b", f"Prefers aisle seats {i}.", vector=unit(300 + i, base, 0.01), slot="seat", value="aisle"),
            mem(user, "gone", "Old closed.", status="expired", days_ago=900, closed_days_ago=400),
            mem(user, "fresh", f"Wants a window seat {i}.", days_ago=2, importance=0.9, access=5),
        ]
        eps += [episode(user, f"s{i}-{k}", NOW - timedelta(days=400 + k)) for k in range(2)]
    rows += [mem(USERS[0], f"many{k}", f"Note {k}.", days_ago=10 + k, importance=0.9) for k in range(4)]
    return rows, eps


def _settings(tmp_path: Path, name: str, **kw: Any) -> Settings:
    return Settings(store_uri=str(tmp_path / name / "store"), sessions_uri=str(tmp_path / "sessions"),
                    max_active_per_user=6, **kw)  # fmt: skip


def _seeded(tmp_path: Path, name: str, **kw: Any) -> Settings:
    settings = _settings(tmp_path, name, **kw)
    seed(settings, *_rows())
    return settings


def _whole(run_id: str | None) -> str | None:
    """A partition's run id as its pass's (the partitioned pass writes under ``<run id>.<partition id>``)."""
    if run_id and partition_suffix(run_id):
        return run_id.rpartition(PARTITION_SEP)[0]
    return run_id


def _tables(settings: Settings) -> dict[str, list[dict[str, Any]]]:
    """Table contents with run ids as the whole pass's, and audit times left out (an entry's microsecond
    offset is its place in its written part, which partitioning changes)."""
    store = open_store(settings)
    out = {}
    for name in (MEMORIES, CHANGES, EPISODES):
        rows = [{**r, "run_id": _whole(r["run_id"])} for r in store.rows(name)]
        if name == CHANGES:
            rows = [{k: v for k, v in r.items() if k != "created_at"} for r in rows]
        out[name] = sorted(rows, key=lambda r: str(sorted(r.items())))
    return out


def test_partitioned_passes_write_what_one_whole_pass_writes(tmp_path: Path) -> None:
    whole = _seeded(tmp_path, "whole")
    parted = _seeded(tmp_path, "parted", partition_buckets=BUCKETS)
    for name in PER_TENANT:
        one, split = run_pass(whole, name, now=NOW), run_pass(parted, name, now=NOW)
        assert (split.counts, split.scanned, split.run_id) == (one.counts, one.scanned, one.run_id), name
        assert split.details == one.details, name
        assert one.task_runner is None and "partitions" not in one.model_dump()  # unpartitioned: as before
        assert split.task_runner == "in-process" and len(split.partitions) > 1
    assert _tables(parted) == _tables(whole)
    assert sum(r["status"] == "merged" for r in open_store(parted).rows(MEMORIES)) >= 2 * (len(USERS) - 1)
    upkeep = run_pass(parted, "upkeep", now=NOW)  # whole-store work: once, on the coordinator
    assert upkeep.task_runner is None and "upkeep" in PASSES


def test_the_run_record_lists_the_partitions_and_the_runner(tmp_path: Path) -> None:
    settings = _seeded(tmp_path, "store", partition_buckets=BUCKETS)
    report = run_pass(settings, "decay", now=NOW)
    store = open_store(settings)
    expected = {(p.app_name, p.bucket): p.users for p in split_tenants(store, settings, None, None)}
    assert {bucket_of(u, BUCKETS) for users in expected.values() for u in users} == {b for _, b in expected}
    runs = {r["run_id"]: r for r in list_runs(store)}
    run = runs[report.run_id]
    assert run["flow"] == "maintain:decay" and run["status"] == "completed" and run["task_runner"] == "in-process"
    listed = run["partitions"]
    assert [(p["app_name"], p["bucket"]) for p in listed] == sorted(expected)
    for p in listed:
        assert p["outcome"] == "completed" and p["attempts"] == 1 and p["worker"]
        assert p["run_id"] == f"{report.run_id}.{p['partition_id']}" and p["tenants"] == len(
            expected[(p["app_name"], p["bucket"])]
        )
        own = runs[p["run_id"]]
        assert own["flow"] == "maintain:decay:partition" and own["status"] == "completed"
        assert p["run_id"] in store.table(MEMORIES).tags.list()
    assert sum(p["counts"].get("ARCHIVE", 0) for p in listed) == report.counts["ARCHIVE"] == len(USERS)


def _failing_for(user: str, real: Callable[..., Iterable[Plan]]) -> Callable[..., Iterable[Plan]]:
    def plan(settings: Settings, store: Any, report: Any, app: str | None, users: Any) -> Iterable[Plan]:
        if isinstance(users, tuple) and user in users:
            raise RuntimeError(f"injected failure for {user}")
        return real(settings, store, report, app, users)

    return plan


def test_a_failed_partition_is_recorded_and_a_rerun_redoes_only_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tasks.maintain.decay as decay

    settings = _seeded(tmp_path, "store", partition_buckets=BUCKETS, partition_attempts=2)
    victim = USERS[3]
    with monkeypatch.context() as patch:
        patch.setattr(decay, "plan_decay", _failing_for(victim, decay.plan_decay))
        first = run_pass(settings, "decay", now=NOW)
    failed = [p for p in first.partitions if p["outcome"] == "failed"]
    assert len(failed) == 1 and failed[0]["attempts"] == 2 and "injected failure" in failed[0]["error"]
    store = open_store(settings)
    run = {r["run_id"]: r for r in list_runs(store)}[first.run_id]
    assert run["status"] == "partial" and [p["outcome"] for p in run["partitions"]].count("completed") > 0
    victims = {u for u in USERS if bucket_of(u, BUCKETS) == bucket_of(victim, BUCKETS)}
    status = {(r["user_id"], r["content"]): r["status"] for r in store.rows(MEMORIES)}
    for i, user in enumerate(USERS):  # the others committed; the failed partition's users are untouched
        assert status[(user, f"Talked about weather {i}.")] == ("active" if user in victims else "archived")
    others_before = {r["run_id"]: r for r in store.rows(RUNS) if r["run_id"] != failed[0]["run_id"]}
    rows_before = {r["row_id"]: r for r in store.rows(MEMORIES) if r["user_id"] not in victims}

    again = run_pass(settings, "decay", now=NOW)  # the same pass (same now, same run id), nothing injected
    assert again.run_id == first.run_id and {p["outcome"] for p in again.partitions} == {"completed"}
    assert again.counts == {"ARCHIVE": len(USERS)}
    store = open_store(settings)
    runs = {r["run_id"]: r for r in store.rows(RUNS)}
    for run_id, row in others_before.items():
        if run_id != first.run_id:  # the other partitions' rows are as they were: not run again
            assert runs[run_id] == row
    assert runs[first.run_id]["status"] == "completed"
    assert runs[first.run_id]["versions_before"] == others_before[first.run_id]["versions_before"]
    assert {r["row_id"]: r for r in store.rows(MEMORIES) if r["user_id"] not in victims} == rows_before
    assert all(r["status"] == "archived" for r in store.rows(MEMORIES) if r["content"].startswith("Talked about"))


@pytest.mark.slow  # through Prefect, as tests/test_maintain_flows.py
def test_the_flow_maps_a_pass_on_the_default_task_runner(
    prefect_harness: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from flows.maintain import MaintainParams, decay_flow

    settings = _seeded(tmp_path, "store")
    monkeypatch.setenv("MEMORY_PIPELINE_PARTITION_BUCKETS", str(BUCKETS))
    monkeypatch.setenv("MEMORY_PIPELINE_MAX_ACTIVE_PER_USER", "6")
    report = decay_flow(MaintainParams(now=NOW, store_uri=settings.store_uri))
    assert report.task_runner == "default" and report.counts == {"ARCHIVE": len(USERS)}
    assert len(report.partitions) > 1 and {p["outcome"] for p in report.partitions} == {"completed"}
    run = {r["run_id"]: r for r in list_runs(open_store(settings))}[report.run_id]
    assert run["task_runner"] == "default" and run["partitions"] == report.partitions


@pytest.mark.slow  # a Dask LocalCluster of 2 worker processes, each importing the pipeline
def test_the_flow_maps_a_pass_on_dask_like_one_whole_pass(
    prefect_harness: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("prefect_dask")
    from flows.maintain import MaintainParams, merge_flow

    whole = _seeded(tmp_path, "whole")
    parted = _seeded(tmp_path, "parted")
    monkeypatch.setenv("MEMORY_PIPELINE_TASK_RUNNER", "dask")
    monkeypatch.setenv("MEMORY_PIPELINE_DASK_WORKERS", "2")
    monkeypatch.setenv("MEMORY_PIPELINE_PARTITION_BUCKETS", str(BUCKETS))
    monkeypatch.setenv("MEMORY_PIPELINE_MAX_ACTIVE_PER_USER", "6")
    report = merge_flow(MaintainParams(now=NOW, store_uri=parted.store_uri))
    one = run_pass(whole, "merge", now=NOW)
    assert report.task_runner == "dask" and {p["outcome"] for p in report.partitions} == {"completed"}
    assert (report.counts, report.details) == (one.counts, one.details)
    assert _tables(parted) == _tables(whole)
