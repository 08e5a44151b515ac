"""The procedures section of an agent's context, and the whole context under one token budget.

Seed 003's context compression: procedures, relevant facts and recent episodes share the same budget.
The procedures section takes at most ``procedure_context_share`` of it (what it leaves unused goes to
the facts); the facts and episodes are :func:`tasks.recall.context.build_context`'s block for the rest.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tasks.procedures.recall import offer_procedures
from tasks.procedures.rows import ProcedureRow
from tasks.settings import Settings
from tasks.textrules import fmt_date
from tasks.tokens import count_tokens

if TYPE_CHECKING:
    from tasks.recall.recaller import Recaller

PROCEDURES_HEADER = "For tasks like this, what worked:"


def procedure_line(row: ProcedureRow) -> str:
    """``- search(query) > open(url) > extract(table) (worked 4 of 5 times, last 2 Dec 2026)``."""
    steps = json.loads(row.steps)
    calls: list[str] = []
    for step in steps:
        call = f"{step['tool']}({', '.join(step.get('args') or {})})"
        if step.get("ok", True) and (not calls or calls[-1] != call):
            calls.append(call)
    total = row.successes + row.failures
    return (f"- {' > '.join(calls)} (worked {row.successes} of {total} times, "
            f"last {fmt_date(row.last_used_at)})")  # fmt: skip


def procedures_section(rows: Sequence[ProcedureRow], max_tokens: int) -> str:
    """The section for ``rows`` (best first) in at most ``max_tokens``; "" when none fits."""
    lines: list[str] = []
    for row in rows:
        lines.append(procedure_line(row))
        if count_tokens("\n".join([PROCEDURES_HEADER, *lines])) > max_tokens:
            lines.pop()
    return "\n".join([PROCEDURES_HEADER, *lines]) if lines else ""


def agent_context(settings: Settings, query: str, app_name: str, user_id: str, task_type: str, max_tokens: int,
                  *, context: str = "", abstain: bool = False, recaller: Recaller | None = None) -> str:  # fmt: skip
    """Procedures for ``task_type``, then the facts and episodes for ``query``, all within ``max_tokens``."""
    from tasks.recall.context import build_context

    offered = offer_procedures(settings, app_name, user_id, task_type, context=context or query)
    section = procedures_section(offered, int(max_tokens * settings.procedure_context_share))
    room = max_tokens - (count_tokens(section + "\n\n") if section else 0)
    while True:  # tokens of a join can differ from the parts' sum by one: shrink until the whole fits
        facts = build_context(query, app_name, user_id, room, settings=settings, abstain=abstain, recaller=recaller)
        block = "\n\n".join(part for part in (section, facts) if part)
        if count_tokens(block) <= max_tokens or room <= 0:
            return block if count_tokens(block) <= max_tokens else section
        room -= count_tokens(block) - max_tokens
