"""The procedures to offer when a task starts: the tenant's active ones for its task type, best first.

Best: the most reliable record (successes smoothed by one imagined failure, so 1 of 1 ranks under 9 of
10), then fewer steps, then the most recently used. With no procedure of the exact task type, those of
the task types sharing most words with it and its context are offered (``research_paper`` for
``paper_research``); none sharing any: nothing is offered.
"""

from __future__ import annotations

from tasks.procedures.rows import ProcedureRow
from tasks.settings import Settings
from tasks.store.filters import all_of, eq, scope
from tasks.store.schema import PROCEDURES
from tasks.store.tables import open_store
from tasks.working.index import words


def reliability(row: ProcedureRow) -> float:
    return row.successes / (row.successes + row.failures + 1)


def rank(rows: list[ProcedureRow], task_type: str, context: str = "") -> list[ProcedureRow]:
    active = [r for r in rows if r.status == "active"]
    exact = [r for r in active if r.task_type == task_type]
    if not exact:
        wanted = set(words(task_type.replace("_", " ") + " " + context))
        overlap = {r.procedure_id: len(wanted & set(words(r.task_type.replace("_", " ") + " " + r.context)))
                   for r in active}  # fmt: skip
        top = max(overlap.values(), default=0)
        exact = [r for r in active if top and overlap[r.procedure_id] == top]
    return sorted(exact, key=lambda r: (-reliability(r), r.mean_steps, -r.last_used_at.timestamp(), r.procedure_id))


def offer_procedures(settings: Settings, app_name: str, user_id: str, task_type: str, *, context: str = "",
                     limit: int | None = None) -> list[ProcedureRow]:  # fmt: skip
    """The procedures to offer for a new task of ``task_type`` (at most ``procedure_offer_limit``)."""
    store = open_store(settings)
    if not store.has(PROCEDURES):
        return []
    eq("task_type", task_type, ("task_type",))  # the id rule for the caller's value
    rows = [ProcedureRow.model_validate(r) for r in store.rows(PROCEDURES, all_of(scope(app_name, user_id)))]
    return rank(rows, task_type, context)[: settings.procedure_offer_limit if limit is None else limit]
