"""Procedures from recorded runs: similar successful runs merged, failures counted against what they followed.

Recomputed whole for a tenant from its runs (a few hundred rows at most), so consolidating twice changes
nothing and a procedure's record always matches the runs behind it. Runs of one task type are clustered
by the similarity of their tool orders (``procedure_merge_similarity``, difflib's ratio); a cluster is
named by its earliest successful run's order, so its id is stable as runs are added. A failed run counts
against the procedure it was offered and followed, else against the most similar one. A procedure with at
least ``procedure_demote_failures`` failures and a success rate under ``procedure_min_success_rate`` is
demoted: kept, not offered.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from difflib import SequenceMatcher
from statistics import mean
from typing import Any

from tasks.clock import utc
from tasks.models import stable_id
from tasks.procedures.models import Step, signature
from tasks.procedures.rows import ProcedureRow
from tasks.settings import Settings
from tasks.store.filters import all_of, eq, scope
from tasks.store.schema import PROCEDURE_RUNS, PROCEDURES
from tasks.store.tables import open_store


def similarity(a: Sequence[str], b: Sequence[str]) -> float:
    return SequenceMatcher(None, list(a), list(b), autojunk=False).ratio() if a or b else 1.0


@dataclass
class _Cluster:
    task_type: str
    order: tuple[str, ...]
    wins: list[dict[str, Any]] = field(default_factory=list)
    losses: list[dict[str, Any]] = field(default_factory=list)


def _steps(row: dict[str, Any]) -> list[Step]:
    return [Step.model_validate(s) for s in json.loads(row["steps"])]


def build_procedures(app_name: str, user_id: str, runs: Sequence[dict[str, Any]], settings: Settings,
                     now: datetime) -> list[ProcedureRow]:  # fmt: skip
    """The procedures ``runs`` (rows of ``procedure_runs``) give, one per cluster of similar successes."""
    clusters: dict[str, _Cluster] = {}
    ordered = sorted(runs, key=lambda r: (utc(r["ended_at"]), r["run_key"]))
    for row in (r for r in ordered if r["outcome"] == "success"):
        order = signature(_steps(row))
        if not order:
            continue
        same = [c for c in clusters.values() if c.task_type == row["task_type"]]
        best = max(same, key=lambda c: similarity(c.order, order), default=None)
        if best is None or similarity(best.order, order) < settings.procedure_merge_similarity:
            key = stable_id(app_name, user_id, row["task_type"], " > ".join(order))
            best = clusters[key] = _Cluster(row["task_type"], order)
        best.wins.append(row)
    for row in (r for r in ordered if r["outcome"] != "success"):
        if row["procedure_id"] in clusters:
            clusters[row["procedure_id"]].losses.append(row)
            continue
        tried = signature(_steps(row), ok_only=False)
        same = [c for c in clusters.values() if c.task_type == row["task_type"]]
        best = max(same, key=lambda c: similarity(c.order, tried), default=None)
        if best is not None and similarity(best.order, tried) >= settings.procedure_merge_similarity:
            best.losses.append(row)
    out = []
    for key, c in clusters.items():
        n_ok, n_bad = len(c.wins), len(c.losses)
        rate = n_ok / (n_ok + n_bad)
        demoted = n_bad >= settings.procedure_demote_failures and rate < settings.procedure_min_success_rate
        typical = min(c.wins, key=lambda r: (len(_steps(r)), utc(r["ended_at"])))
        out.append(ProcedureRow(
            procedure_id=key, app_name=app_name, user_id=user_id, task_type=c.task_type,
            signature=" > ".join(c.order), steps=typical["steps"], context=typical["context"], successes=n_ok,
            failures=n_bad, success_rate=rate, status="demoted" if demoted else "active",
            mean_steps=mean(len(_steps(r)) for r in c.wins), mean_duration_ms=mean(r["duration_ms"] for r in c.wins),
            mean_tokens=mean(r["tokens"] for r in c.wins),
            last_used_at=max(utc(r["ended_at"]) for r in c.wins + c.losses), updated_at=utc(now),
        ))  # fmt: skip
    return out


def consolidate_procedures(settings: Settings, app_name: str, user_id: str, *, now: datetime) -> list[ProcedureRow]:
    """Rebuild the tenant's procedures from its runs and store them (stale ones removed); returns them."""
    store = open_store(settings)
    where = scope(app_name, user_id)
    rows = build_procedures(app_name, user_id, store.rows(PROCEDURE_RUNS, where), settings, now)
    if store.has(PROCEDURES):
        keep = {r.procedure_id for r in rows}
        stale = [r["procedure_id"] for r in store.rows(PROCEDURES, where, ["procedure_id"])
                 if r["procedure_id"] not in keep]  # fmt: skip
        for old in stale:
            store.table(PROCEDURES).delete(all_of(where, eq("procedure_id", old, ("procedure_id",))))
    store.upsert(PROCEDURES, rows)
    return rows
