"""Physical removal of expired working-memory items (reads already skip them; this frees the space)."""

from __future__ import annotations

from datetime import datetime

from tasks.settings import Settings
from tasks.store.filters import ts_literal
from tasks.store.schema import WORKING_ITEMS
from tasks.store.tables import open_store


def purge_expired(settings: Settings, *, now: datetime) -> int:
    """Delete every ``working_items`` row expired at ``now`` (all tenants); returns how many."""
    store = open_store(settings)
    if not store.has(WORKING_ITEMS):
        return 0
    where = f"`expires_at` IS NOT NULL AND `expires_at` <= {ts_literal(now)}"
    table = store.table(WORKING_ITEMS)
    count = int(table.count_rows(where))
    if count:
        table.delete(where)
    return count
