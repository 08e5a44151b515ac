"""TTL pass: expire memories past their time, and hard-delete rows closed longer than the retention.

A memory expires at the earliest of its explicit ``expires_at`` ("in Lisbon until Friday") and its
topic's rule (``settings.ttl_rules``: N days after it was stated, last confirmed or last recalled).
It is closed, not removed: status ``expired``, ``valid_to`` the moment it lapsed (so "as of" views
stay true and a re-run at a later time closes it identically), audited as EXPIRE. Rows closed by
maintenance (``settings.purge_statuses``) longer than ``closed_retention_days`` ago (``updated_at``,
which closing sets) are then deleted, each audited as PURGE.

Explicit expiries come from the extractor, which reads "until Friday"-style phrases with
:func:`tasks.expiry.expiry_from_text`.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

from tasks.clock import utc
from tasks.maintain.common import (
    FILTER_COLUMNS,
    PART_CHANGES,
    Closure,
    PassReport,
    Plan,
    UserScope,
    active,
    scan,
    where_scope,
)
from tasks.maintain.evidence import plan_evidence_ttl
from tasks.maintain.execute import execute
from tasks.settings import Settings, TtlRule
from tasks.store.filters import is_in, ts_literal
from tasks.store.tables import MEMORIES, Store

_COLUMNS = ["row_id", "memory_id", "app_name", "user_id", "topic", "content", "stated_at", "valid_from",
            "last_confirmed_at", "last_accessed_at", "expires_at"]  # fmt: skip


def rule_expiry(rule: TtlRule, row: dict[str, Any]) -> datetime:
    """When a memory lapses under ``rule``: N days after its reference time."""
    times = [row["stated_at"]]
    if rule.since in ("confirmed", "recalled") and row.get("last_confirmed_at"):
        times.append(row["last_confirmed_at"])
    if rule.since == "recalled" and row.get("last_accessed_at"):
        times.append(row["last_accessed_at"])
    return max(utc(t) for t in times) + timedelta(days=rule.days)


def expiry_of(row: dict[str, Any], rules: dict[str, TtlRule]) -> tuple[datetime, str] | None:
    """The earliest expiry of a memory with its reason, or None if nothing ever expires it."""
    found: list[tuple[datetime, str]] = []
    if row.get("expires_at") is not None:
        at = utc(row["expires_at"])
        found.append((at, f"expired: explicit expiry {at.isoformat()}"))
    rule = rules.get(row["topic"])
    if rule is not None:
        why = f"expired: {row['topic']} older than {rule.days:g} days since {rule.since}"
        found.append((rule_expiry(rule, row), why))
    return min(found) if found else None


def plan_ttl(settings: Settings, store: Store, report: PassReport, app: str | None, user: UserScope) -> Iterator[Plan]:
    """Expiries, a part at a time; then the purge of long-closed rows (closed = ``updated_at``, set on closing)."""
    plan, at = Plan(), report.now
    rules = {r.topic: r for r in settings.ttl_rules}
    for chunk in scan(store, MEMORIES, active(app, user), _COLUMNS, settings.maintain_chunk_rows):
        report.scanned += chunk.num_rows
        for row in chunk.to_pylist():
            if len(plan) >= PART_CHANGES:
                yield plan
                plan = Plan()
            found = expiry_of(row, rules)
            if found is None or found[0] > at:
                continue
            valid_to = max(found[0], utc(row["valid_from"]))
            plan.close(Closure(MEMORIES, row["row_id"], row["memory_id"], row["app_name"], row["user_id"], "expired",
                               valid_to, found[1], "EXPIRE", "historical", row["content"], None,
                               row["_rowid"]), at)  # fmt: skip
    if settings.closed_retention_days > 0 and settings.purge_statuses:
        cutoff = at - timedelta(days=settings.closed_retention_days)
        closed = where_scope(app, user, is_in("status", settings.purge_statuses, FILTER_COLUMNS),
                             f"`updated_at` < {ts_literal(cutoff)}")  # fmt: skip
        for chunk in scan(store, MEMORIES, closed, ["row_id", "memory_id", "app_name", "user_id", "content", "status"],
                          settings.maintain_chunk_rows):  # fmt: skip
            for row in chunk.to_pylist():
                reason = f"purged: {row['status']} for more than {settings.closed_retention_days:g} days"
                plan.audit("PURGE", "forgets", row["memory_id"], row["row_id"], row["app_name"], row["user_id"],
                           row["content"], None, reason, at)  # fmt: skip
                if len(plan) >= PART_CHANGES:
                    yield plan
                    plan = Plan()
                plan.purges = [(MEMORIES, closed or "true")]
    yield plan
    yield plan_evidence_ttl(settings, store, report, at, app, user)  # verbatim turns: their own TTL


def run_ttl(
    settings: Settings, *, now: datetime | None = None, app: str | None = None, user: str | None = None,
    dry_run: bool = False,
) -> PassReport:  # fmt: skip
    """Expire lapsed memories and purge long-closed rows (see the module docstring)."""
    return execute(settings, "ttl", lambda store, report: plan_ttl(settings, store, report, app, user),
                   now=now, app=app, user=user, dry_run=dry_run)  # fmt: skip
