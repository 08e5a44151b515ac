"""The ``working_items`` row: one stored action result of one agent run (declared once, like tasks/rows.py)."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel


class WorkingItemRow(BaseModel):
    """An item exactly as stored; ``row_key`` is unique per (app, user, run, memory id).

    ``content`` is the text, the JSON text, or base64 of bytes (``content_kind`` says which), so one
    string column holds every kind and a restore gives back the same bytes.
    """

    row_key: str
    memory_id: str
    app_name: str
    user_id: str
    run_id: str
    sequence: int
    item_type: str
    content_kind: str
    content: str
    size: int
    source: str
    title: str | None
    url: str | None
    tags: list[str]
    related_ids: list[str]
    created_at: datetime
    expires_at: datetime | None
