"""Reads of many tenants' rows at once: one query per app and 500 users, grouped by (app, user).

Why: a run touches every user of its sessions, and a Lance query has a fixed cost (plan, schema,
scan start) of a few milliseconds; one query per user made an ingest of a thousand one-session users
spend most of its write stage starting queries. Callers that need one user's rows still get exactly
those (the grouping is by the rows' own scope columns).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from tasks.store.filters import all_of, eq, is_in
from tasks.store.tables import Store

Owner = tuple[str, str]
#: Users per query: a bounded IN list keeps the filter small and the result of one query modest.
USERS_PER_QUERY = 500
_SCOPE = ("app_name", "user_id")


def owner_filters(owners: Iterable[Owner], where: str | None = None) -> list[str]:
    """Filters that together select exactly the rows of ``owners`` (and ``where``), one per app and chunk."""
    by_app: dict[str, list[str]] = defaultdict(list)
    for app, user in sorted(set(owners)):
        by_app[app].append(user)
    return [
        all_of(eq("app_name", app, _SCOPE), is_in("user_id", users[i : i + USERS_PER_QUERY], _SCOPE), where)
        for app, users in by_app.items()
        for i in range(0, len(users), USERS_PER_QUERY)
    ]


def rows_by_owner(
    store: Store, table: str, owners: Iterable[Owner], where: str | None = None, columns: list[str] | None = None
) -> dict[Owner, list[dict[str, Any]]]:
    """Every owner's rows of ``table`` matching ``where`` (an owner with none maps to an empty list)."""
    wanted = sorted(set(owners))
    found: dict[Owner, list[dict[str, Any]]] = {owner: [] for owner in wanted}
    if not wanted or not store.has(table):
        return found
    read = None if columns is None else list(dict.fromkeys([*columns, *_SCOPE]))
    for clause in owner_filters(wanted, where):
        for row in store.rows(table, clause, read):
            found[(row["app_name"], row["user_id"])].append(row)
    return found
