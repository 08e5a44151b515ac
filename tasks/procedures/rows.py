"""The ``procedure_runs`` and ``procedures`` rows (declared once, like tasks/rows.py)."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel


class ProcedureRunRow(BaseModel):
    """One finished agent run as a trace; ``steps`` is JSON (a list of steps), ``signature`` the tool order."""

    run_key: str
    app_name: str
    user_id: str
    task_type: str
    context: str
    signature: str
    steps: str
    outcome: str
    signal: str
    procedure_id: str | None
    duration_ms: float
    tokens: int
    ended_at: datetime


class ProcedureRow(BaseModel):
    """A procedure: similar successful runs of one task type merged, with their record of outcomes."""

    procedure_id: str
    app_name: str
    user_id: str
    task_type: str
    signature: str
    steps: str
    context: str
    successes: int
    failures: int
    success_rate: float
    status: str
    mean_steps: float
    mean_duration_ms: float
    mean_tokens: float
    last_used_at: datetime
    updated_at: datetime
