"""Capacity pass: at most N active memories per user (and per user and topic), the rest archived.

Counts come from a scan of the scope columns only; only tenants over a limit are read (without
vectors). Which memories go is ``settings.capacity_strategy``: ``weakest`` (lowest decay strength,
the recall formula), ``oldest`` (earliest stated) or ``least_recalled`` (fewest recalls, then least
recently recalled). Ties go by row id, so the choice is deterministic.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime

import pyarrow as pa

from tasks.clock import utc
from tasks.maintain.common import PART_CHANGES, Closure, PassReport, Plan, UserScope, active, scan, tenant_tables
from tasks.maintain.decay import STRENGTH_COLUMNS, strength
from tasks.maintain.evidence import plan_evidence_capacity
from tasks.maintain.execute import execute
from tasks.settings import Settings
from tasks.store.filters import eq
from tasks.store.tables import MEMORIES, Store

_COLUMNS = [*STRENGTH_COLUMNS, "memory_id", "app_name", "user_id", "content", "last_accessed_at"]
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def prune_order(rows: pa.Table, settings: Settings, now: datetime) -> list[int]:
    """Row positions, first to go first, under the configured strategy."""
    ids = rows.column("row_id").to_pylist()
    if settings.capacity_strategy == "weakest":
        values = strength(rows, now, settings)
        keys = [(float(values[i]), ids[i]) for i in range(len(ids))]
    elif settings.capacity_strategy == "oldest":
        keys = [(utc(t).timestamp(), ids[i]) for i, t in enumerate(rows.column("stated_at").to_pylist())]
    else:
        counts = rows.column("access_count").to_pylist()
        last = rows.column("last_accessed_at").to_pylist()
        keys = [((counts[i] or 0), utc(last[i] or _EPOCH).timestamp(), ids[i]) for i in range(len(ids))]  # type: ignore[misc]
    return sorted(range(len(ids)), key=lambda i: keys[i])


def _counts(store: Store, app: str | None, user: UserScope, chunk_rows: int) -> Counter[tuple[str, str, str]]:
    counts: Counter[tuple[str, str, str]] = Counter()
    for chunk in scan(store, MEMORIES, active(app, user), ["app_name", "user_id", "topic"], chunk_rows):
        groups = chunk.group_by(["app_name", "user_id", "topic"]).aggregate([([], "count_all")])
        for a, u, t, n in zip(*(groups.column(c).to_pylist() for c in ("app_name", "user_id", "topic", "count_all")),
                              strict=True):  # fmt: skip
            counts[(a, u, t)] += n
    return counts


def plan_capacity(
    settings: Settings, store: Store, report: PassReport, app: str | None, user: UserScope
) -> Iterator[Plan]:
    plan, at = Plan(), report.now
    per_topic = _counts(store, app, user, settings.maintain_chunk_rows)
    per_user: Counter[tuple[str, str]] = Counter()
    for (a, u, _), n in per_topic.items():
        per_user[(a, u)] += n
    report.scanned = sum(per_user.values())
    user_cap, topic_caps = settings.max_active_per_user, settings.max_active_per_topic
    over = sorted({(a, u) for (a, u, t), n in per_topic.items() if n > topic_caps.get(t, n)}
                  | {k for k, n in per_user.items() if 0 < user_cap < n})  # fmt: skip
    report.details["tenants_over_capacity"] = len(over)
    is_active = eq("status", "active", ("status",))
    for a, u, rows in tenant_tables(store, MEMORIES, {k: per_user[k] for k in over}, is_active, _COLUMNS, 50_000):
        if len(plan) >= PART_CHANGES:
            yield plan
            plan = Plan()
        ranked = prune_order(rows, settings, at)
        topics = rows.column("topic").to_pylist()
        left = Counter(topics)
        going: dict[int, str] = {}
        for i in ranked:  # per-topic caps first, weakest first within the topic
            cap = topic_caps.get(topics[i])
            if cap is not None and left[topics[i]] > cap:
                left[topics[i]] -= 1
                going[i] = f"capacity: over {cap} active {topics[i]} memories ({settings.capacity_strategy} first)"
        remaining = len(topics) - len(going)
        for i in ranked:
            if 0 < user_cap < remaining and i not in going:
                remaining -= 1
                going[i] = f"capacity: over {user_cap} active memories ({settings.capacity_strategy} first)"
        for i in (i for i in ranked if i in going):
            row = rows.slice(i, 1).to_pylist()[0]
            plan.close(Closure(MEMORIES, row["row_id"], row["memory_id"], a, u, "archived", at, going[i], "ARCHIVE",
                               "historical", row["content"], None, row["_rowid"]), at)  # fmt: skip
    yield plan
    yield plan_evidence_capacity(settings, store, report, app, user)  # verbatim turns: their own cap


def run_capacity(
    settings: Settings, *, now: datetime | None = None, app: str | None = None, user: str | None = None,
    dry_run: bool = False,
) -> PassReport:  # fmt: skip
    """Archive the memories over the per-user and per-topic limits."""
    return execute(settings, "capacity", lambda store, report: plan_capacity(settings, store, report, app, user),
                   now=now, app=app, user=user, dry_run=dry_run)  # fmt: skip
