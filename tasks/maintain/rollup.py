"""Episode rollup, part of the merge pass: a user's old episodes become one episode per calendar month.

A user's episodes that ended more than ``settings.episode_rollup_days`` ago are rolled up per calendar
month into one episode (``session_id`` ``month:YYYY-MM``) whose sentences cite each session (``[session
id] summary``, with its event ids); the originals are archived. The rollup is recomputed from all of the
month's originals (archived ones included), so later sessions of the same month fold in and a re-run after
a crash rebuilds the same row.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import numpy as np

from tasks.clock import utc
from tasks.maintain.common import (
    MERGE_PART_CHANGES,
    MERGE_READ_ROWS,
    Closure,
    PassReport,
    Plan,
    UserScope,
    tenant_tables,
    tenants,
    unit_rows,
    where_scope,
)
from tasks.models import stable_id
from tasks.rows import EpisodeRow, StoredSentence
from tasks.settings import Settings
from tasks.store.filters import eq, ts_literal
from tasks.store.tables import EPISODES, Store

_MONTH_PREFIX = "month:"


def _month(value: datetime) -> str:
    return f"{utc(value):%Y-%m}"


def rollup_row(
    app: str, user: str, month: str, originals: list[dict[str, Any]], at: datetime, run_id: str
) -> EpisodeRow:
    """One episode for a user's month, citing each session it replaces."""
    eps = sorted(originals, key=lambda e: (utc(e["started_at"]), e["session_id"]))
    sentences = [StoredSentence(text=f"[{e['session_id']}] {e['summary']}", source_event_ids=e["source_event_ids"])
                 for e in eps]  # fmt: skip
    vector = unit_rows(np.asarray([e["vector"] for e in eps], dtype=np.float32).mean(0)[None])[0]
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
    store: Store, settings: Settings, report: PassReport, app: str | None, user: UserScope
) -> Iterator[Plan]:
    if settings.episode_rollup_days <= 0 or not store.has(EPISODES):
        return
    at = report.now
    cutoff = at - timedelta(days=settings.episode_rollup_days)
    old = where_scope(app, user, eq("status", "active", ("status",)), f"`ended_at` < {ts_literal(cutoff)}")
    columns = list(EpisodeRow.model_fields)
    months, plan = 0, Plan()
    counts = tenants(store, EPISODES, old, settings.maintain_chunk_rows)
    for a, u, rows in tenant_tables(store, EPISODES, counts, None, columns, MERGE_READ_ROWS):
        if len(plan) >= MERGE_PART_CHANGES:
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
