"""Evidence rows under the TTL and capacity passes, by their own settings (issue 70).

Why apart from the memories' rules: a verbatim turn is the ground truth under the memories, so by
default it is kept as long as the store keeps its session. With ``evidence_ttl_days`` a turn older
than that goes, unless a memory still active cites it (a kept memory keeps its source); with
``evidence_max_rows_per_user`` a user's oldest uncited turns go first once over the cap. Both are
hard deletes in the pass's purge step, so the run row and tags make them restorable by rollback.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from tasks.maintain.common import FILTER_COLUMNS, PassReport, Plan, UserScope, scan, where_scope
from tasks.settings import Settings
from tasks.store.filters import eq, is_in, ts_literal
from tasks.store.tables import EVIDENCE, MEMORIES, Store

_COLUMNS = ["evidence_id", "app_name", "user_id", "memory_ids", "timestamp"]
_ID_COLS = ("evidence_id",)


def _active_memories(store: Store, owners: Iterable[tuple[str, str]], chunk: int) -> set[str]:
    alive: set[str] = set()
    for app, user in sorted(set(owners)):
        where = where_scope(app, user, eq("status", "active", FILTER_COLUMNS))
        for part in scan(store, MEMORIES, where, ["memory_id"], chunk):
            alive.update(part.column("memory_id").to_pylist())
    return alive


def _purge(plan: Plan, report: PassReport, ids: list[str], what: str) -> None:
    for start in range(0, len(ids), 500):
        plan.purges.append((EVIDENCE, is_in("evidence_id", ids[start : start + 500], _ID_COLS)))
    report.details[what] = report.details.get(what, 0) + len(ids)


def plan_evidence_ttl(
    settings: Settings, store: Store, report: PassReport, at: datetime, app: str | None, user: UserScope
) -> Plan:
    """The purge of evidence rows past ``settings.evidence_ttl_days`` that no active memory cites."""
    plan = Plan()
    if settings.evidence_ttl_days is None or not store.has(EVIDENCE):
        return plan
    cutoff = at - timedelta(days=settings.evidence_ttl_days)
    old = where_scope(app, user, f"`timestamp` < {ts_literal(cutoff)}")
    rows = [r for part in scan(store, EVIDENCE, old, _COLUMNS, settings.maintain_chunk_rows) for r in part.to_pylist()]
    alive = _active_memories(store, ((r["app_name"], r["user_id"]) for r in rows), settings.maintain_chunk_rows)
    doomed = sorted(r["evidence_id"] for r in rows if not alive.intersection(r["memory_ids"] or []))
    _purge(plan, report, doomed, "evidence_expired")
    return plan


def plan_evidence_capacity(
    settings: Settings, store: Store, report: PassReport, app: str | None, user: UserScope
) -> Plan:
    """The purge of each user's oldest uncited evidence rows over ``settings.evidence_max_rows_per_user``."""
    plan = Plan()
    cap = settings.evidence_max_rows_per_user
    if cap <= 0 or not store.has(EVIDENCE):
        return plan
    by_user: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for part in scan(store, EVIDENCE, where_scope(app, user), _COLUMNS, settings.maintain_chunk_rows):
        for r in part.to_pylist():
            by_user[(r["app_name"], r["user_id"])].append(r)
    over = {k: rows for k, rows in by_user.items() if len(rows) > cap}
    alive = _active_memories(store, over, settings.maintain_chunk_rows)
    doomed: list[str] = []
    for rows in over.values():
        # Uncited first, then the oldest: a turn an active memory cites goes last.
        ranked = sorted(rows, key=lambda r: (bool(alive.intersection(r["memory_ids"] or [])), r["timestamp"]))
        doomed += [str(r["evidence_id"]) for r in ranked[: len(rows) - cap]]
    _purge(plan, report, sorted(doomed), "evidence_over_capacity")
    return plan
