"""Merge pass: near-duplicate and restated memories of a user become one; old episodes roll up per month.

Two active memories of a user, by the same speaker, are one memory said twice (:func:`said_twice`) when
- their stored vectors' cosine is at least ``settings.merge_threshold`` and they pass the write path's
  own same-attribute test (the local consolidator's slot rule: same topic; if both name a slot, the same
  slot, and if both carry a value, the same value — else they are a contradiction, not a duplicate), or
  say the same content words in two topics; or
- one restates the other (:func:`tasks.providers.sameness.restates`: nothing new, of the same person,
  same polarity, a state and not something done again) at cosine ``RESTATED_AT`` or more, in any topic:
  "Utrecht is where User lives, by the way" beside "User lives in Utrecht" (0.88), which a store written
  before the write path knew restatements holds twice, and which no cosine threshold alone separates
  from "User's brother lives in Utrecht" (0.89).
Each group becomes one new memory: the most informative wording (the most content words, then the
fewest words; joined with any other wording that says a content word it lacks), confirmations and
recalls summed, ``supersedes`` listing every merged row id (comma-separated), relation ``duplicates``.
Something done, told on two occasions, is two memories. The originals are closed as ``merged``.
Episodes are rolled up by :mod:`tasks.maintain.rollup`.

Ids come from the merged rows, so a pass killed after writing the new rows and re-run (even at
another time) completes the same merge: an active merged row whose sources are still active closes
them first.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from tasks.clock import utc
from tasks.maintain.common import (
    MERGE_PART_CHANGES,
    MERGE_READ_ROWS,
    Closure,
    PassReport,
    Plan,
    UserScope,
    active,
    tenant_tables,
    tenants,
    unit_rows,
)
from tasks.maintain.execute import execute
from tasks.maintain.rollup import plan_rollups
from tasks.models import stable_id
from tasks.providers.sameness import OCCASION, done, new_words, restates, told_words
from tasks.rows import MemoryRow
from tasks.settings import Settings
from tasks.store.filters import eq
from tasks.store.tables import MEMORIES, Store

_WORD = re.compile(r"\w+")
#: Restatements in other words sit at cosine 0.77-0.88 from what they restate (the restated family's
#: pairs); below this, pairs are not read for words (a user's pairs at 0.75+ are a few per memory).
RESTATED_AT = 0.75
#: Rows of a user compared at once against all of them (a 256 x n block of cosines: 51 MB at 50k rows).
_BLOCK = 256


def same_attribute(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """The write path's slot rule: same topic; same slot when both have one; same value when both have one."""
    if a["topic"] != b["topic"]:
        return False
    if a["slot"] and b["slot"]:
        if a["slot"] != b["slot"]:
            return False
        if a["value"] and b["value"] and _value(a) != _value(b):
            return False
    return True


def _value(row: Mapping[str, Any]) -> str:
    return re.sub(r"^(?:a|an|the) ", "", str(row["value"] or "").strip().casefold())


def said_twice(a: Mapping[str, Any], b: Mapping[str, Any], cosine: float, threshold: float) -> bool:
    """``a`` and ``b`` are one memory said twice, by the same speaker: near-duplicates of one attribute, the
    same words in two topics, or one restating the other. Something done is not, on two occasions ("User
    went hiking in Snowdonia" twice is two hikes, as the write path keeps them)."""
    if a["speaker"] != b["speaker"]:
        return False
    if abs(utc(a["stated_at"]) - utc(b["stated_at"])) > OCCASION and (done(a["content"]) or done(b["content"])):
        return False
    if cosine >= threshold and (
        same_attribute(a, b) or not (new_words(a["content"], b["content"]) or new_words(b["content"], a["content"]))
    ):
        return True
    if cosine < RESTATED_AT:
        return False
    # A lexicon slot holding two values is a contradiction; a clause-shape slot ("about:be") is only a hint.
    clash = a["slot"] and a["slot"] == b["slot"] and a["value"] and b["value"] and _value(a) != _value(b)
    if clash and not str(a["slot"]).startswith("about:"):
        return False
    return restates(a["content"], b["content"]) or restates(b["content"], a["content"])


def vectors_of(rows: pa.Table) -> npt.NDArray[np.float32]:
    """The ``vector`` column as an (n, dim) array, without Python floats."""
    column = rows.column("vector").combine_chunks()
    flat = column.flatten().to_numpy(zero_copy_only=False).astype(np.float32, copy=False)
    return flat.reshape(len(column), -1) if len(column) else np.zeros((0, 0), np.float32)


def duplicate_groups(rows: Sequence[Mapping[str, Any]], vectors: npt.NDArray[np.float32],
                     threshold: float) -> list[list[int]]:  # fmt: skip
    """Positions of groups (two or more) of one memory said twice: cosine >= threshold and the same attribute,
    or one restating the other."""
    parent = list(range(len(rows)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    unit = unit_rows(vectors) if len(rows) else vectors
    for start in range(0, len(rows), _BLOCK):
        sims = unit[start : start + _BLOCK] @ unit.T
        for a, b in zip(*np.nonzero(sims >= min(threshold, RESTATED_AT)), strict=True):
            i, j = start + int(a), int(b)
            if i >= j or root(i) == root(j):
                continue
            if said_twice(rows[i], rows[j], float(sims[a, b]), threshold):
                parent[root(i)] = root(j)
    groups: dict[int, list[int]] = defaultdict(list)
    for i in range(len(rows)):
        groups[root(i)].append(i)
    found = [sorted(g, key=lambda i: rows[i]["row_id"]) for g in groups.values() if len(g) > 1]
    return sorted(found, key=lambda g: rows[g[0]]["row_id"])


def merged_content(group: list[MemoryRow]) -> str:
    """The wording that says the most (then the shortest: "User lives in Utrecht", not "Utrecht is where
    User lives, by the way"), joined with the other wordings that say a content word it lacks."""
    told = {r.row_id: told_words(r.content) for r in group}
    ordered = sorted(group, key=lambda r: (-len(told[r.row_id]), len(_WORD.findall(r.content)), r.row_id))
    base = ordered[0].content
    joined = base
    extras: list[str] = []
    for row in ordered[1:]:
        if new_words(row.content, joined):
            extras.append(row.content.strip().rstrip("."))
            joined = f"{joined}; {row.content}"
    return "; ".join([base.strip().rstrip("."), *extras]) + "." if extras else base


def merged_row(group: list[MemoryRow], at: datetime, run_id: str) -> MemoryRow:
    """One memory standing for the group, with lineage to every merged row."""
    content = merged_content(group)
    lead = next((r for r in group if r.content == content), max(group, key=lambda r: (len(r.content), r.row_id)))
    ids = [r.row_id for r in group]
    memory_id = stable_id("merged", *ids)
    mean = np.asarray([r.vector for r in group]).mean(0)[None]
    vector = lead.vector if lead.content == content else unit_rows(mean)[0]
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


def plan_merge(
    settings: Settings, store: Store, report: PassReport, app: str | None, user: UserScope
) -> Iterator[Plan]:
    plan, groups = Plan(), 0
    columns = list(MemoryRow.model_fields)
    counts = tenants(store, MEMORIES, active(app, user), settings.maintain_chunk_rows)
    report.scanned = sum(counts.values())
    several = {k: n for k, n in counts.items() if n > 1}
    is_active = eq("status", "active", ("status",))
    for _, _, rows in tenant_tables(store, MEMORIES, several, is_active, columns, MERGE_READ_ROWS):
        if len(plan) >= MERGE_PART_CHANGES:
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
