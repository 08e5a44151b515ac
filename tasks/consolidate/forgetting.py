"""Forget requests reach episodes too: a summary sentence that states a deleted memory is removed.

Consolidation closes the memory; without this, the session's episode would still say it.
Sentences are matched by text (an episode sentence is a possibly shortened copy of a fact).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from tasks.providers.base import Embedder
from tasks.rows import ChangeRow
from tasks.store.filters import scope
from tasks.store.tables import EPISODES, Store


def _states(sentence: str, content: str) -> bool:
    """True when ``sentence`` is ``content`` or a shortened copy of it."""
    stem = sentence.rstrip("….").strip()
    return bool(stem) and content.rstrip(".").startswith(stem)


def scrub(row: dict[str, Any], deleted: Sequence[str]) -> dict[str, Any] | None:
    """The episode row without sentences stating a deleted memory; None when nothing changes."""
    kept = [s for s in row["sentences"] if not any(_states(s["text"], d) for d in deleted)]
    if len(kept) == len(row["sentences"]):
        return None
    facts = [f for f in row["key_facts"] if not any(_states(f, d) for d in deleted)]
    # Topic words taken from a forgotten statement go too, also from the opening sentence.
    banned = {w for d in deleted for w in re.findall(r"[a-z']+", d.lower())}
    topics = [t for t in row["topics"] if t not in banned]
    about = f" about {', '.join(topics[:3])}." if topics else "."
    kept = [
        {**s, "text": re.sub(r" about [^.]*\.$| *\.$", about, s["text"])} if not s["source_event_ids"] else s
        for s in kept
    ]
    sources = list(dict.fromkeys(e for s in kept for e in s["source_event_ids"]))
    summary = " ".join(s["text"].rstrip(".") + "." for s in kept)
    return {**row, "sentences": kept, "key_facts": facts, "topics": topics, "source_event_ids": sources,
            "summary": summary}  # fmt: skip


def scrub_episodes(
    store: Store, embedder: Embedder, changes: Sequence[ChangeRow], new_rows: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], int]:
    """Apply this run's deletions to its new episode rows and to stored episodes of the same users.

    Returns the new rows (scrubbed) and the number of stored episodes rewritten.
    """
    deleted: dict[tuple[str, str], list[str]] = {}
    for change in changes:
        if change.action == "DELETE" and change.old_content:
            deleted.setdefault((change.app_name, change.user_id), []).append(change.old_content)
    if not deleted:
        return new_rows, 0
    fresh = {r["episode_id"]: r for r in new_rows}
    rewritten: list[dict[str, Any]] = []
    scrubbed_fresh: set[str] = set()
    for (app, user), contents in deleted.items():
        stored = store.rows(EPISODES, scope(app, user))
        candidates = {r["episode_id"]: r for r in stored} | {
            k: r for k, r in fresh.items() if (r["app_name"], r["user_id"]) == (app, user)
        }
        for episode_id, row in candidates.items():
            if (clean := scrub(row, contents)) is None:
                continue
            if episode_id in fresh:
                fresh[episode_id] = clean
                scrubbed_fresh.add(episode_id)
            else:
                rewritten.append(clean)
    changed = [fresh[i] for i in sorted(scrubbed_fresh)] + rewritten
    if changed:
        vectors = embedder.embed([r["summary"] for r in changed])
        for row, vector in zip(changed, vectors, strict=True):
            row["vector"] = vector.tolist()
    if rewritten:
        store.upsert(EPISODES, rewritten)
    return list(fresh.values()), len(rewritten)
