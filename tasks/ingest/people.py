"""Each session's people context: whom the user named before this session, with their relation if said.

The extractor reads one session at a time, so "Tom is allergic to shellfish" cannot know on its
own that Tom is the brother of an earlier session. This stage gives it the ties (see
:mod:`tasks.providers.people`): those stated by the user's active memories in the store, then
those the user said in the batch's earlier sessions (a backfill ingests many sessions of one user
in a single run, before any of them is written).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from tasks.models import Session
from tasks.providers.people import memory_ties, mentioned, merged, ties
from tasks.settings import Settings
from tasks.store.filters import all_of, eq, is_in
from tasks.store.tables import MEMORIES, Store, open_store


def stored_people(store: Store, users: Iterable[tuple[str, str]]) -> dict[tuple[str, str], dict[str, str]]:
    """Per (app, user): the ties their active memories state ("User's brother Tom ..."), and the names
    they say without one (name -> ""). One read per app for all its users in the batch."""
    by_app: dict[str, list[str]] = defaultdict(list)
    for app_name, user_id in users:
        by_app[app_name].append(user_id)
    contents: dict[tuple[str, str], list[str]] = defaultdict(list)
    if store.has(MEMORIES):
        for app_name, user_ids in by_app.items():
            for start in range(0, len(user_ids), 500):
                where = all_of(eq("app_name", app_name, ("app_name",)), is_in("user_id", user_ids[start : start + 500],
                               ("user_id",)), eq("status", "active", ("status",)))  # fmt: skip
                for row in store.rows(MEMORIES, where, columns=["user_id", "content"]):
                    contents[(app_name, row["user_id"])].append(row["content"])
    return {key: merged(mentioned(contents[key]), memory_ties(contents[key])) for key in users}


def known_people(sessions: Sequence[Session], settings: Settings) -> list[dict[str, str]]:
    """Name -> relation for each of ``sessions`` (in their order), from the store and the earlier
    sessions of the same user in this batch; a session's own ties are the extractor's to find."""
    by_user: dict[tuple[str, str], list[int]] = defaultdict(list)
    for index, session in enumerate(sessions):
        if any(e.role == "user" for e in session.events):  # a chat between named participants has no user
            by_user[(session.app_name, session.user_id)].append(index)
    out: list[dict[str, str]] = [{} for _ in sessions]
    stored = stored_people(open_store(settings), list(by_user)) if by_user else {}
    for user, indexes in by_user.items():
        known = stored[user]
        for index in sorted(indexes, key=lambda i: (sessions[i].started_at, i)):
            out[index] = known
            turns = [e.text for e in sessions[index].events if e.role == "user"]
            said = merged(mentioned(turns), ties(turns))
            known = merged(known, said) if said else known
    return out
