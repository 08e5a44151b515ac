"""Decay pass: a memory's strength, and archiving the memories too weak to keep.

Strength is recall's own score without the query: recency (half-life per topic), importance and
frequency (confirmations + times recalled), weighted by ``settings.ranking`` and scaled to [0, 1].
It is computed by recall's functions (:func:`tasks.recall.hits.candidates_of` for the signals,
:func:`tasks.recall.ranking.score` for the weighting) with the similarity part zero, so a change
to ranking changes decay with it: one formula, one implementation. Memories under
``settings.decay_floor`` are closed as ``archived`` (audited as ARCHIVE), never removed.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import numpy as np
import pyarrow as pa

from tasks.maintain.common import PART_CHANGES, Closure, PassReport, Plan, UserScope, active, scan
from tasks.maintain.execute import execute
from tasks.recall.hits import TablePlan, candidates_of
from tasks.recall.ranking import FloatArray, score
from tasks.settings import Settings
from tasks.store.tables import MEMORIES, Store

#: Columns strength reads (recall's memory signals) and what a closure records.
STRENGTH_COLUMNS = ["row_id", "topic", "importance", "confirmations", "access_count", "stated_at", "created_at"]
_COLUMNS = [*STRENGTH_COLUMNS, "memory_id", "app_name", "user_id", "content"]
_PLAN = TablePlan(MEMORIES, "memory", "", "content", STRENGTH_COLUMNS, "source_session_id", "stated_at")


def strength(rows: pa.Table, now: datetime, settings: Settings) -> FloatArray:
    """Strength in [0, 1] of each memory row: recall's score with no query match, over its maximum."""
    total, _ = score(candidates_of(_PLAN, rows, now, settings).signals, settings)
    w = settings.ranking
    top = w.recency + w.importance + w.frequency
    result: FloatArray = total / top if top > 0 else np.ones(rows.num_rows)
    return result


def plan_decay(
    settings: Settings, store: Store, report: PassReport, app: str | None, user: UserScope
) -> Iterator[Plan]:
    at, floor = report.now, settings.decay_floor
    weakest = 1.0
    for chunk in scan(store, MEMORIES, active(app, user), _COLUMNS, min(settings.maintain_chunk_rows, PART_CHANGES)):
        plan = Plan()
        report.scanned += chunk.num_rows
        values = strength(chunk, at, settings)
        weakest = min(weakest, float(values.min()))
        for i in np.flatnonzero(values < floor):
            row = chunk.slice(int(i), 1).to_pylist()[0]
            reason = f"decayed: strength {values[i]:.3f} under the floor {floor:g}"
            plan.close(Closure(MEMORIES, row["row_id"], row["memory_id"], row["app_name"], row["user_id"], "archived",
                               at, reason, "ARCHIVE", "historical", row["content"], None,
                               row["_rowid"]), at)  # fmt: skip
        yield plan
    report.details["weakest_strength"] = round(weakest, 4) if report.scanned else None


def run_decay(
    settings: Settings, *, now: datetime | None = None, app: str | None = None, user: str | None = None,
    dry_run: bool = False,
) -> PassReport:  # fmt: skip
    """Archive active memories whose strength fell under the floor."""
    return execute(settings, "decay", lambda store, report: plan_decay(settings, store, report, app, user),
                   now=now, app=app, user=user, dry_run=dry_run)  # fmt: skip
