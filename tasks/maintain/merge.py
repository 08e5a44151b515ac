"""Merge pass: near-duplicate memories of a user become one; old episodes roll up per month.

**Memories.** Two active memories of a user are duplicates when their stored vectors' cosine is at
least ``settings.merge_threshold`` and they pass the write path's own same-attribute test (the
local consolidator's slot rule: same topic; if both name a slot, the same slot, and if both carry a
value, the same value — else they are a contradiction, not a duplicate). Each group becomes one
new memory: the most informative wording (the longest; joined with any other wording that carries
words it lacks), confirmations and recalls summed, ``supersedes`` listing every merged row id
(comma-separated), relation ``duplicates``. The originals are closed as ``merged``.

**Episodes.** A user's episodes that ended more than ``settings.episode_rollup_days`` ago are rolled
up per calendar month into one episode (``session_id`` ``month:YYYY-MM``) whose sentences cite each
session (``[session id] summary``, with its event ids); the originals are archived. The rollup is
recomputed from all of the month's originals (archived ones included), so later sessions of the
same month fold in and a re-run after a crash rebuilds the same row.

Ids come from the merged rows, so a pass killed after writing the new rows and re-run (even at
another time) completes the same merge: an active merged row whose sources are still active closes
them first.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from tasks.clock import utc
from tasks.maintain.common import (
    Closure,
    PassReport,
    Plan,
    active,
    tenant_tables,
    tenants,
    where_scope,
)
from tasks.maintain.write import execute
from tasks.models import stable_id
from tasks.rows import EpisodeRow, MemoryRow, StoredSentence
from tasks.settings import Settings
from tasks.store.filters import eq, ts_literal
from tasks.store.tables import EPISODES, MEMORIES, Store

_WORD = re.compile(r"\w+")
#: Rows (with vectors, ~1.6 KB each) taken per read: whole tenants, about this many rows. With parts
#: of :data:`_PART_CHANGES`, the pass over 1M memories peaked at 653 MB (20k rows and 5,000: 1,005-1,136 MB).
_READ_ROWS = 5_000
#: Changes per written part (smaller than the other passes': a merge part also carries the merged rows).
_PART_CHANGES = 2_000
_MONTH_PREFIX = "month:"


def same_attribute(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """The write path's slot rule: same topic; same slot when both have one; same value when both have one."""
    if a["topic"] != b["topic"]:
        return False
    if a["slot"] and b["slot"]:
        if a["slot"] != b["slot"]:
            return False
        if a["value"] and b["value"] and a["value"].strip().casefold() != b["value"].strip().casefold():
            return False
    return True


def _unit(vectors: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit: npt.NDArray[np.float32] = (vectors / np.where(norms > 0, norms, 1.0)).astype(np.float32)
    return unit


def vectors_of(rows: pa.Table) -> npt.NDArray[np.float32]:
    """The ``vector`` column as an (n, dim) array, without Python floats."""
    column = rows.column("vector").combine_chunks()
    flat = column.flatten().to_numpy(zero_copy_only=False).astype(np.float32, copy=False)
    return flat.reshape(len(column), -1) if len(column) else np.zeros((0, 0), np.float32)


def duplicate_groups(rows: Sequence[Mapping[str, Any]], vectors: npt.NDArray[np.float32],
                     threshold: float) -> list[list[int]]:  # fmt: skip
    """Positions of groups (two or more) of near-duplicates: cosine >= threshold and the same attribute."""
    parent = list(range(len(rows)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    by_topic: dict[str, list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        by_topic[row["topic"]].append(i)
    for members in by_topic.values():
        if len(members) < 2:
            continue
        unit = _unit(vectors[members])
        sims = unit @ unit.T
        for a, b in zip(*np.nonzero(np.triu(sims >= threshold, k=1)), strict=True):
            i, j = members[int(a)], members[int(b)]
            if same_attribute(rows[i], rows[j]):
                parent[root(i)] = root(j)
    groups: dict[int, list[int]] = defaultdict(list)
    for i in range(len(rows)):
        groups[root(i)].append(i)
    found = [sorted(g, key=lambda i: rows[i]["row_id"]) for g in groups.values() if len(g) > 1]
    return sorted(found, key=lambda g: rows[g[0]]["row_id"])


def merged_content(group: list[MemoryRow]) -> str:
    """The longest wording, joined with the other wordings that carry words it lacks."""
    ordered = sorted(group, key=lambda r: (-len(_WORD.findall(r.content)), -len(r.content), r.row_id))
    base = ordered[0].content
    seen = {w.casefold() for w in _WORD.findall(base)}
    extras: list[str] = []
    for row in ordered[1:]:
        words = {w.casefold() for w in _WORD.findall(row.content)}
        if words - seen:
            extras.append(row.content.strip().rstrip("."))
            seen |= words
    return "; ".join([base.strip().rstrip("."), *extras]) + "." if extras else base


def merged_row(group: list[MemoryRow], at: datetime, run_id: str) -> MemoryRow:
    """One memory standing for the group, with lineage to every merged row."""
    content = merged_content(group)
    lead = next((r for r in group if r.content == content), max(group, key=lambda r: (len(r.content), r.row_id)))
    ids = [r.row_id for r in group]
    memory_id = stable_id("merged", *ids)
    vector = lead.vector if lead.content == content else _unit(np.asarray([r.vector for r in group]).mean(0)[None])[0]
    events = list(dict.fromkeys(e for r in group for e in r.source_event_ids))
    expiries = [r.expires_at for r in group]
    return MemoryRow(
        row_id=MemoryRow.make_row_id(memory_id, 1), memory_id=memory_id, version=1, app_name=lead.app_name,
        user_id=lead.user_id, topic=lead.topic, content=content, vector=[float(x) for x in vector],
        importance=max(r.importance for r in group), confidence=max(r.confidence for r in group),
        speaker=lead.speaker, slot=next((r.slot for r in group if r.slot), None),
        value=lead.value or next((r.value for r in group if r.value), None),
        source_session_id=lead.source_session_id, source_event_ids=events,
        stated_at=max(utc(r.stated_at) for r in group), valid_from=at, valid_to=None, status="active",
        status_reason=f"merged from {len(group)} near-duplicates", supersedes=",".join(ids), relation="duplicates",
        confirmations=sum(r.confirmations for r in group) + len(group) - 1,
        last_confirmed_at=max((utc(r.last_confirmed_at) for r in group if r.last_confirmed_at), default=None),
        access_count=sum(r.access_count for r in group),
        last_accessed_at=max((utc(r.last_accessed_at) for r in group if r.last_accessed_at), default=None),
        created_at=at, updated_at=at, run_id=run_id,
        expires_at=None if None in expiries else max(utc(e) for e in expiries if e is not None),
    )  # fmt: skip


def _close_merged(plan: Plan, row: MemoryRow, into: MemoryRow, at: datetime, rowid: int | None) -> None:
    reason = f"merged into {into.memory_id}"
    plan.close(Closure(MEMORIES, row.row_id, row.memory_id, row.app_name, row.user_id, "merged", at, reason,
                       "MERGE", "duplicates", row.content, into.content, rowid), at)  # fmt: skip


def plan_user_merge(plan: Plan, rows: pa.Table, settings: Settings, at: datetime, run_id: str) -> int:
    """Plan one user's merges (finishing any a crashed run left half-done); returns the groups merged.

    Vectors stay one numpy array; only the rows of a group become :class:`MemoryRow` objects.
    """
    vectors = vectors_of(rows)
    meta = rows.drop_columns(["vector"]).to_pylist()
    by_id = {r["row_id"]: i for i, r in enumerate(meta)}

    def row(i: int) -> MemoryRow:
        return MemoryRow.model_validate({**meta[i], "vector": vectors[i].tolist()})

    healed: set[int] = set()
    for i, r in enumerate(meta):  # a merged row whose sources are still active: a run died before closing them
        if r["relation"] == "duplicates" and r["supersedes"] and "," in r["supersedes"]:
            for source in r["supersedes"].split(","):
                if source in by_id and by_id[source] not in healed:
                    healed.add(by_id[source])
                    _close_merged(plan, row(by_id[source]), row(i), at, meta[by_id[source]].get("_rowid"))
    keep = [i for i in range(len(meta)) if i not in healed]
    groups = duplicate_groups([meta[i] for i in keep], vectors[keep], settings.merge_threshold)
    for positions in groups:
        members = [keep[p] for p in positions]
        group = [row(i) for i in members]
        new = merged_row(group, at, run_id)
        plan.new_rows.setdefault(MEMORIES, []).append(new)
        plan.audit("MERGE", "duplicates", new.memory_id, new.row_id, new.app_name, new.user_id, None, new.content,
                   new.status_reason or "merged", at)  # fmt: skip
        for i, member in zip(members, group, strict=True):
            _close_merged(plan, member, new, at, meta[i].get("_rowid"))
    return len(groups)


def _month(value: datetime) -> str:
    return f"{utc(value):%Y-%m}"


def rollup_row(
    app: str, user: str, month: str, originals: list[dict[str, Any]], at: datetime, run_id: str
) -> EpisodeRow:
    """One episode for a user's month, citing each session it replaces."""
    eps = sorted(originals, key=lambda e: (utc(e["started_at"]), e["session_id"]))
    sentences = [StoredSentence(text=f"[{e['session_id']}] {e['summary']}", source_event_ids=e["source_event_ids"])
                 for e in eps]  # fmt: skip
    vector = _unit(np.asarray([e["vector"] for e in eps], dtype=np.float32).mean(0)[None])[0]
    return EpisodeRow(
        episode_id=stable_id("episode-month", app, user, month), app_name=app, user_id=user,
        session_id=f"{_MONTH_PREFIX}{month}", summary=f"Sessions of {month}: " + " ".join(s.text for s in sentences),
        topics=list(dict.fromkeys(t for e in eps for t in e["topics"])),
        key_facts=list(dict.fromkeys(f for e in eps for f in e["key_facts"])), sentences=sentences,
        source_event_ids=list(dict.fromkeys(x for e in eps for x in e["source_event_ids"])),
        vector=[float(x) for x in vector], started_at=min(utc(e["started_at"]) for e in eps),
        ended_at=max(utc(e["ended_at"]) for e in eps), status="active",
        access_count=sum(e["access_count"] or 0 for e in eps),
        last_accessed_at=max((utc(e["last_accessed_at"]) for e in eps if e["last_accessed_at"]), default=None),
        created_at=at, run_id=run_id,
    )  # fmt: skip


def plan_rollups(
    store: Store, settings: Settings, report: PassReport, app: str | None, user: str | None
) -> Iterator[Plan]:
    if settings.episode_rollup_days <= 0 or not store.has(EPISODES):
        return
    at = report.now
    cutoff = at - timedelta(days=settings.episode_rollup_days)
    old = where_scope(app, user, eq("status", "active", ("status",)), f"`ended_at` < {ts_literal(cutoff)}")
    columns = list(EpisodeRow.model_fields)
    months, plan = 0, Plan()
    counts = tenants(store, EPISODES, old, settings.maintain_chunk_rows)
    for a, u, rows in tenant_tables(store, EPISODES, counts, None, columns, _READ_ROWS):
        if len(plan) >= _PART_CHANGES:
            yield plan
            plan = Plan()
        by_month: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for ep in rows.to_pylist():
            rolled = ep["status"] == "archived"
            if ep["session_id"].startswith(_MONTH_PREFIX) or not (rolled or ep["status"] == "active"):
                continue
            if rolled or utc(ep["ended_at"]) < cutoff:
                by_month[_month(ep["started_at"])].append(ep)
        for month, eps in sorted(by_month.items()):
            todo = [e for e in eps if e["status"] == "active"]
            if len(eps) < 2 or not todo:
                continue
            row = rollup_row(a, u, month, eps, at, report.run_id)
            plan.new_rows.setdefault(EPISODES, []).append(row)
            months += 1
            for e in sorted(todo, key=lambda e: e["episode_id"]):
                plan.close(Closure(EPISODES, e["episode_id"], e["episode_id"], a, u, "archived", None,
                                   f"rolled up into {row.episode_id} ({month})", "MERGE", "duplicates", e["summary"],
                                   row.summary, e.get("_rowid")), at)  # fmt: skip
    report.details["episode_months_rolled_up"] = months
    yield plan


def plan_merge(
    settings: Settings, store: Store, report: PassReport, app: str | None, user: str | None
) -> Iterator[Plan]:
    plan, groups = Plan(), 0
    columns = list(MemoryRow.model_fields)
    counts = tenants(store, MEMORIES, active(app, user), settings.maintain_chunk_rows)
    report.scanned = sum(counts.values())
    several = {k: n for k, n in counts.items() if n > 1}
    is_active = eq("status", "active", ("status",))
    for _, _, rows in tenant_tables(store, MEMORIES, several, is_active, columns, _READ_ROWS):
        if len(plan) >= _PART_CHANGES:
            yield plan
            plan = Plan()
        groups += plan_user_merge(plan, rows, settings, report.now, report.run_id)
    report.details["memory_groups_merged"] = groups
    yield plan
    yield from plan_rollups(store, settings, report, app, user)


def run_merge(
    settings: Settings, *, now: datetime | None = None, app: str | None = None, user: str | None = None,
    dry_run: bool = False,
) -> PassReport:  # fmt: skip
    """Merge near-duplicate memories and roll old episodes up per month."""
    return execute(settings, "merge", lambda store, report: plan_merge(settings, store, report, app, user),
                   now=now, app=app, user=user, dry_run=dry_run)  # fmt: skip
