"""Each session's people context: whom the user named before this session, with their relation if said.

The extractor reads one session at a time, so "Tom is allergic to shellfish" cannot know on its
own that Tom is the brother of an earlier session. This stage gives it the ties (see
:mod:`tasks.providers.people`): those stated by the user's active memories in the store, then
those the user said in the batch's earlier sessions (a backfill ingests many sessions of one user
in a single run, before any of them is written).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from tasks.models import Session
from tasks.providers.people import mentioned, merged, ties
from tasks.settings import Settings
from tasks.store.filters import all_of, eq, scope
from tasks.store.tables import MEMORIES, Store, open_store


def stored_ties(store: Store, app_name: str, user_id: str) -> dict[str, str]:
    """Ties stated by the user's active memories ("User's brother Tom ..."), and the names they say
    without a tie (name -> "")."""
    if not store.has(MEMORIES):
        return {}
    where = all_of(scope(app_name, user_id), eq("status", "active", ("status",)))
    contents = [row["content"] for row in store.rows(MEMORIES, where, columns=["content"])]
    return merged(mentioned(contents), ties(contents, owner="User"))


def known_people(sessions: Sequence[Session], settings: Settings) -> list[dict[str, str]]:
    """Name -> relation for each of ``sessions`` (in their order), from the store and the earlier
    sessions of the same user in this batch; a session's own ties are the extractor's to find."""
    by_user: dict[tuple[str, str], list[int]] = defaultdict(list)
    for index, session in enumerate(sessions):
        by_user[(session.app_name, session.user_id)].append(index)
    out: list[dict[str, str]] = [{} for _ in sessions]
    store = open_store(settings)
    for (app_name, user_id), indexes in by_user.items():
        if not any(e.role == "user" for i in indexes for e in sessions[i].events):
            continue  # ties are the user's own words; a chat between named participants has none
        known = stored_ties(store, app_name, user_id)
        for index in sorted(indexes, key=lambda i: (sessions[i].started_at, i)):
            out[index] = known
            turns = [e.text for e in sessions[index].events if e.role == "user"]
            said = merged(mentioned(turns), ties(turns))
            known = merged(known, said) if said else known
    return out
