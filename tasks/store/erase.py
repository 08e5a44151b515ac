"""Physical erasure: a user's or a memory's text removed from every table and every kept table version.

Deleting rows in Lance only hides them: the bytes stay in data files, in index files and in every
older version. Erasure therefore (1) deletes or rewrites the rows, (2) compacts the touched tables
with deletions materialised, (3) rebuilds their indexes, (4) drops the run tags of the versions
that still hold the text (Lance's cleanup refuses tagged versions) and (5) cleans those versions
up. A version holds the text from the first version in which a targeted row appears until the
erasure, so exactly those versions go; older ones (and their tags) stay. Runs that needed a removed
version to roll back are marked in ``runs.rollback_blocked``.

What is kept: the audit log keeps that something happened (rows rewritten with their text nulled,
plus one ``ERASE`` entry per memory); the ledger keeps its keys, which hold no text, so re-running
over the same source files does not bring erased sessions back. The caller holds the writer lock.
A ``runs`` row with status ``erasing`` is written before any change, and memories are deleted
last: a crash before that redoes the erasure, a crash after it is finished by :func:`resume_erasures`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from lancedb.index import FTS, Bitmap, BTree, IvfHnswSq

from tasks.clock import now as clock_now
from tasks.clock import utc
from tasks.models import stable_id
from tasks.providers.base import Embedder
from tasks.rows import ChangeRow, RunRow
from tasks.settings import Settings
from tasks.store.filters import all_of, eq, is_in, scope
from tasks.store.schema import AGENT_TABLES
from tasks.store.tables import (
    CHANGES,
    EPISODES,
    EVIDENCE,
    MEMORIES,
    QUARANTINE,
    RUNS,
    Store,
    dumps_json,
    open_store,
    retry_conflicts,
)  # fmt: skip

_COLS = ("memory_id", "app_name", "user_id", "session_id", "episode_id", "quarantine_id", "change_id", "status",
         "evidence_id")  # fmt: skip


@dataclass
class ErasureReport:
    """What an erasure removed; ``versions_removed`` and ``tags_removed`` are per table."""

    memories: list[str] = field(default_factory=list)
    memory_rows: int = 0
    episodes_deleted: int = 0
    episodes_scrubbed: int = 0
    evidence_deleted: int = 0
    evidence_redacted: int = 0
    audit_nulled: int = 0
    quarantine_deleted: int = 0
    agent_rows_deleted: int = 0
    versions_removed: dict[str, int] = field(default_factory=dict)
    tags_removed: dict[str, list[str]] = field(default_factory=dict)
    runs_blocked: list[str] = field(default_factory=list)


def erase_user(store: Store, app_name: str, user_id: str, *, run_id: str, reason: str) -> ErasureReport:
    """Every row of one user (memories, episodes, evidence, audit text, quarantined raw lines, the agent
    layers' working items and procedures), bytes included."""
    tenant = scope(app_name, user_id)
    report = ErasureReport()
    memory_ids = sorted({r["memory_id"] for r in store.rows(MEMORIES, tenant, ["memory_id"])})
    quarantined = [r["quarantine_id"] for r in store.rows(QUARANTINE, None, ["quarantine_id", "raw"])
                   if _raw_of(r["raw"], app_name, user_id)]  # fmt: skip
    targets = {MEMORIES: tenant, EPISODES: tenant, CHANGES: tenant, EVIDENCE: tenant}
    targets |= {name: tenant for name in AGENT_TABLES}
    if quarantined:
        targets[QUARANTINE] = is_in("quarantine_id", quarantined, _COLS)
    first = _first_versions(store, targets)
    _journal(store, run_id, first)
    report.memories = memory_ids
    report.audit_nulled = _null_audit(store, tenant)
    _append_erase_entries(store, [(m, app_name, user_id) for m in memory_ids], run_id, reason)
    report.episodes_deleted = _delete(store, EPISODES, tenant)
    report.evidence_deleted = _delete(store, EVIDENCE, tenant)
    report.agent_rows_deleted = sum(_delete(store, name, tenant) for name in AGENT_TABLES)
    report.quarantine_deleted = _delete(store, QUARANTINE, targets[QUARANTINE]) if quarantined else 0
    report.memory_rows = _delete(store, MEMORIES, tenant)  # last: what finds the work, if a crash comes first
    _purge_history(store, first, report)
    return report


def erase_memories(
    store: Store, memory_ids: Iterable[str], *, run_id: str, reason: str, embedder: Callable[[], Embedder]
) -> ErasureReport:
    """All versions of these memories, their audit text and their sentences in episodes, bytes included."""
    from tasks.consolidate.evidence_redact import redactions, write_redactions
    from tasks.consolidate.forgetting import repeats_of, scrub

    ids = sorted(set(memory_ids))
    report = ErasureReport(memories=ids)
    if not ids:
        return report
    lineage = is_in("memory_id", ids, _COLS)
    rows = store.rows(MEMORIES, lineage)
    changes = store.rows(CHANGES, lineage, ["session_id", "app_name", "user_id"])
    contents: dict[tuple[str, str], list[str]] = {}
    sessions: dict[tuple[str, str], set[str]] = {}
    owners = {r["memory_id"]: (r["app_name"], r["user_id"]) for r in rows}
    for r in rows:
        contents.setdefault(owners[r["memory_id"]], []).append(r["content"])
        sessions.setdefault(owners[r["memory_id"]], set()).add(r["source_session_id"])
    for memory_id, said in repeats_of(store, ids):  # what was counted as a repeat of it, in its own words
        if said and memory_id in owners:
            contents[owners[memory_id]].append(said)
    for c in changes:
        sessions.setdefault((c["app_name"], c["user_id"]), set()).add(c["session_id"])
    scrubbed: list[dict[str, object]] = []
    episode_ids: set[str] = set()
    for (app, user), texts in contents.items():
        for ep in store.rows(EPISODES, scope(app, user)):
            clean = scrub(ep, texts)
            if clean is not None:
                scrubbed.append(clean)
            if clean is not None or ep["session_id"] in sessions.get((app, user), set()):
                episode_ids.add(ep["episode_id"])
    targets = {MEMORIES: lineage, CHANGES: lineage}
    if episode_ids:
        targets[EPISODES] = is_in("episode_id", sorted(episode_ids), _COLS)
    turns = redactions(store, rows)  # the verbatim turns that said it lose the value
    # The turns of the sessions that said it or asked to forget it: redacted already (a spoken forget
    # redacts at once), their older table versions still hold the words until they are purged here.
    said_in = [all_of(scope(app, user), is_in("session_id", sorted(ids_), _COLS)) for (app, user), ids_ in
               sessions.items() if ids_]  # fmt: skip
    if turns:
        said_in.append(is_in("evidence_id", sorted({str(r["evidence_id"]) for r in turns}), _COLS))
    if said_in:
        targets[EVIDENCE] = " OR ".join(f"({w})" for w in said_in)
    first = _first_versions(store, targets)
    _journal(store, run_id, first)
    report.evidence_redacted = len(write_redactions(store, embedder(), turns)) if turns else 0
    if scrubbed:
        vectors = embedder().embed([str(r["summary"]) for r in scrubbed])
        for row, vector in zip(scrubbed, vectors, strict=True):
            row["vector"] = vector.tolist()
        store.upsert(EPISODES, scrubbed)
    report.episodes_scrubbed = len(scrubbed)
    report.audit_nulled = _null_audit(store, lineage)
    _append_erase_entries(store, [(m, *owners[m]) for m in ids if m in owners], run_id, reason)
    report.memory_rows = _delete(store, MEMORIES, lineage)  # last: a crash before it redoes the erasure
    _purge_history(store, first, report)
    return report


def purge_forgotten(settings: Settings, now: datetime, *, store: Store | None = None) -> ErasureReport | None:
    """Physically erase memories closed as ``deleted`` (spoken forget requests, user deletions)
    at least ``settings.forgotten_retention_days`` ago. Called at the end of an ingest run, under
    its writer lock; None when there was nothing to purge."""
    store = store or open_store(settings)
    if not store.has(MEMORIES):
        return None
    resume_erasures(store)
    cutoff = utc(now) - timedelta(days=settings.forgotten_retention_days)
    deleted = store.rows(MEMORIES, eq("status", "deleted", _COLS), ["memory_id", "updated_at"])
    due = sorted({r["memory_id"] for r in deleted if utc(r["updated_at"]) <= cutoff})
    if not due:
        return None
    from tasks.providers import build_embedder

    run_id = "purge-" + stable_id("purge", *due, utc(now).isoformat(), length=16)
    before = store.versions()
    report = erase_memories(store, due, run_id=run_id, reason="forgotten text purged after the retention period",
                            embedder=lambda: build_embedder(settings))  # fmt: skip
    record_erasure(store, run_id, "purge", before, report, now)
    return report


def record_erasure(store: Store, run_id: str, flow: str, before: dict[str, int], report: ErasureReport,
                   started: datetime) -> None:  # fmt: skip
    """The erasure's runs row: it can never be rolled back (what it removed is gone)."""
    counts = {"memories": len(report.memories), "memory_rows": report.memory_rows,
              "episodes_deleted": report.episodes_deleted, "episodes_scrubbed": report.episodes_scrubbed,
              "audit_nulled": report.audit_nulled, "quarantine_deleted": report.quarantine_deleted,
              "versions_removed": report.versions_removed, "runs_blocked": report.runs_blocked}  # fmt: skip
    store.upsert(RUNS, [RunRow(run_id=run_id, flow=flow, started_at=started, ended_at=clock_now(), status="completed",
                               versions_before=dumps_json(before), versions_after=dumps_json(store.versions()),
                               counts=dumps_json(counts), rollback_blocked="an erasure cannot be undone")])  # fmt: skip


def _journal(store: Store, run_id: str, first: dict[str, int]) -> None:
    """Before any row changes: the versions to clean, so a crashed erasure is finished later."""
    stamp = clock_now()
    store.upsert(RUNS, [RunRow(run_id=run_id, flow="erase", started_at=stamp, ended_at=stamp, status="erasing",
                               versions_before=dumps_json(store.versions()), versions_after="{}",
                               counts=dumps_json({"pending_first_versions": first}),
                               rollback_blocked="an erasure cannot be undone")])  # fmt: skip


def resume_erasures(store: Store) -> list[str]:
    """Finish erasures a crash interrupted (compaction, indexes, tags, cleanup are idempotent)."""
    done = []
    for run in store.rows(RUNS, eq("status", "erasing", _COLS)):
        first = {str(k): int(v) for k, v in json.loads(run["counts"]).get("pending_first_versions", {}).items()}
        report = ErasureReport()
        _purge_history(store, {t: v for t, v in first.items() if store.has(t)}, report)
        counts = {"resumed": True, "versions_removed": report.versions_removed, "runs_blocked": report.runs_blocked}
        store.upsert(RUNS, [{**run, "status": "completed", "ended_at": clock_now(), "counts": dumps_json(counts)}])
        done.append(run["run_id"])
    return done


def _raw_of(raw: str | None, app_name: str, user_id: str) -> bool:
    """Whether a quarantined raw line belongs to the user (parsed; a cut-off line by its text)."""
    if not raw:
        return False
    try:
        obj = json.loads(raw)
    except (ValueError, RecursionError):
        obj = None
    if isinstance(obj, dict):
        return obj.get("app_name") == app_name and obj.get("user_id") == user_id
    return json.dumps(user_id) in raw and json.dumps(app_name) in raw


def _delete(store: Store, name: str, where: str) -> int:
    if not store.has(name):
        return 0
    tbl = store.table(name)
    n = tbl.count_rows(where)
    if n:
        tbl.delete(where)
    return int(n)


def _null_audit(store: Store, where: str) -> int:
    """Audit rows keep who, when and which action; their text (contents, reason) is nulled."""
    rows = [r for r in store.rows(CHANGES, where) if r["action"] != "ERASE"]
    stamp = clock_now().date().isoformat()
    for r in rows:
        r.update(old_content=None, new_content=None, reason=f"content erased {stamp}")
    store.upsert(CHANGES, rows)
    return len(rows)


def _append_erase_entries(store: Store, owners: list[tuple[str, str, str]], run_id: str, reason: str) -> None:
    stamp = clock_now()
    store.insert_new(CHANGES, [
        ChangeRow(change_id=stable_id("erase", m), memory_id=m, row_id=None, action="ERASE",
                  relation="forgets", old_content=None, new_content=None, reason=reason, app_name=app,
                  user_id=user, session_id="", source_event_ids=[], run_id=run_id, created_at=stamp)
        for m, app, user in owners
    ])  # fmt: skip


def _first_versions(store: Store, targets: dict[str, str]) -> dict[str, int]:
    """Per table, the first version in which a targeted row is visible (tables with none are left out)."""
    first: dict[str, int] = {}
    for name, where in targets.items():
        if not store.has(name):
            continue
        ds = store.table(name).to_lance()
        for v in sorted(int(x["version"]) for x in ds.versions()):
            try:
                hit = ds.checkout_version(v).count_rows(filter=where) > 0
            except (OSError, ValueError, RuntimeError):  # a version without the filtered columns
                hit = False
            if hit:
                first[name] = v
                break
    return first


def _compact(tbl: Any) -> None:
    tbl.to_lance().optimize.compact_files(materialize_deletions=True, materialize_deletions_threshold=0.0)


def _purge_history(store: Store, first: dict[str, int], report: ErasureReport) -> None:
    """Compact, rebuild indexes, drop tags and clean up every version from ``first`` on but the new one."""
    for name, start in first.items():
        tbl = store.table(name)
        # Retried on a commit conflict (two ingests purging at once, on two machines: issue 66): a
        # compaction re-read from the latest version is idempotent.
        retry_conflicts(partial(_compact, tbl), f"compact {name}")
        _rebuild_indexes(store, name)
        ds = store.table(name).to_lance()
        latest = ds.version
        doomed = [int(v["version"]) for v in ds.versions() if start <= int(v["version"]) < latest]
        dropped = []
        for tag, info in ds.tags.list().items():
            if int(info["version"]) in doomed:
                try:
                    ds.tags.delete(tag)
                except ValueError as exc:  # deleted by a concurrent purge (two ingests at once: issue 66)
                    if "not found" not in str(exc).lower() and "does not exist" not in str(exc).lower():
                        raise
                    continue
                dropped.append(tag)
        if doomed:
            # Files no version references are a failed write's leftovers, or another writer's commit in
            # flight: only a local store's lock rules the second out (one host, every writer takes it).
            # On object storage another host may be committing (it lost both runs of one repetition in 18
            # in benchmarks/scale_bench.py), so such files wait until Lance's own 7 days have passed.
            ds.cleanup_old_versions(versions=doomed, delete_unverified="://" not in store.uri,
                                    error_if_tagged_old_versions=False)  # fmt: skip
        report.versions_removed[name] = len(doomed)
        report.tags_removed[name] = sorted(dropped)
    report.runs_blocked = _block_unrestorable(store)


def _rebuild_indexes(store: Store, name: str) -> None:
    """Rebuild every index of the table from its current rows (old index files hold erased tokens)."""
    tbl = store.table(name)
    for ix in tbl.list_indices():
        kind = str(ix.index_type).lower()
        config = (FTS() if "fts" in kind or "inverted" in kind else Bitmap() if "bitmap" in kind
                  else IvfHnswSq(distance_type="cosine") if "ivf" in kind or "hnsw" in kind else BTree())  # fmt: skip
        if tbl.count_rows() == 0:
            tbl.drop_index(ix.name)
        else:
            tbl.create_index(ix.columns[0], config=config, replace=True)


def _block_unrestorable(store: Store) -> list[str]:
    """Mark runs whose pre-run table versions no longer exist; returns their ids."""
    from tasks.consolidate.history import run_versions

    kept = {n: {int(v["version"]) for v in store.table(n).to_lance().versions()} for n in store.versions()}
    blocked = []
    for run in store.rows(RUNS):
        if run.get("status") == "rolled_back" or run.get("rollback_blocked"):
            continue
        before, after = run_versions(run)
        gone = sorted(t for t, v in before.items() if t != RUNS and t in kept and after.get(t) != v
                      and v not in kept[t])  # fmt: skip
        if gone:
            blocked.append(run["run_id"])
            reason = f"an erasure removed the versions of {', '.join(gone)} it would restore"
            store.upsert(RUNS, [{**run, "rollback_blocked": reason}])
    return blocked


__all__ = ["ErasureReport", "erase_memories", "erase_user", "purge_forgotten", "record_erasure", "resume_erasures"]
