"""Write a finished run's trace to ``procedure_runs`` (idempotent: the same run recorded twice is one row)."""

from __future__ import annotations

import json

from tasks.models import stable_id
from tasks.procedures.models import Trace, signature
from tasks.procedures.rows import ProcedureRunRow
from tasks.settings import Settings
from tasks.store.filters import eq
from tasks.store.schema import PROCEDURE_RUNS
from tasks.store.tables import open_store

_COLS = ("app_name", "user_id", "task_type")


def trace_row(app_name: str, user_id: str, trace: Trace) -> ProcedureRunRow:
    for name, value in (("app_name", app_name), ("user_id", user_id), ("task_type", trace.task_type)):
        eq(name, value, _COLS)  # the id rule: a value a later read could not filter on is refused now
    return ProcedureRunRow(
        run_key=stable_id(app_name, user_id, trace.run_id), app_name=app_name, user_id=user_id,
        task_type=trace.task_type, context=trace.context[:2000], signature=" > ".join(signature(trace.steps)),
        steps=json.dumps([s.model_dump() for s in trace.steps]), outcome=trace.outcome, signal=trace.signal,
        procedure_id=trace.procedure_id, duration_ms=trace.duration_ms, tokens=trace.tokens,
        ended_at=trace.ended_at,
    )  # fmt: skip


def record_run(settings: Settings, app_name: str, user_id: str, trace: Trace) -> str:
    """Store the trace; returns its key."""
    row = trace_row(app_name, user_id, trace)
    open_store(settings).upsert(PROCEDURE_RUNS, [row])
    return row.run_key
