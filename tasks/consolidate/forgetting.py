"""Forget requests and changes reach episodes too.

A summary sentence that states a deleted memory is removed: consolidation closes the memory, and
without this the session's episode would still say it; so is one that states an earlier value of it
("User lives in Berlin (later changed: User lives in Munich)") or a repeat of it ("Still in Berlin, as I
said." was counted as a confirmation of "User lives in Berlin", in its own words). A sentence
of an earlier session that states a memory a later session changed keeps what was said then, with the
change after it ("(later changed: ...)"), so an old episode never reads as the current value. Sentences
are matched by text (an episode sentence is a fact or an excerpt of it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from tasks.providers.base import Embedder
from tasks.providers.wording import strip_annotation
from tasks.rows import ChangeRow
from tasks.store.filters import all_of, eq, is_in
from tasks.store.owners import rows_by_owner
from tasks.store.tables import CHANGES as AUDIT
from tasks.store.tables import EPISODES, MEMORIES, Store
from tasks.textrules import joined, shorten

#: Changes of value that make an earlier episode's sentence outdated ("refines" keeps the value).
CHANGES = frozenset({"supersedes", "contradicts"})


def _states(sentence: str, content: str) -> bool:
    """True when ``sentence`` is ``content`` or an excerpt of it (``local_summarizer.excerpt``: a run of its
    sentences, or one shortened with "…")."""
    stem = sentence.rstrip("….").strip()
    if len(stem) >= 12 and stem in content:
        return True
    return bool(stem) and content.rstrip(".").startswith(stem)


_COLS = ("memory_id", "action", "relation")


def repeats_of(store: Store, memory_ids: Sequence[str], changes: Sequence[ChangeRow] = ()) -> list[tuple[str, str]]:
    """(memory id, words) of the statements counted as repeats of these memories: their audit trail's IGNORE
    "duplicates" rows, stored or in ``changes``. An episode may state a memory in those words."""
    ids = sorted(set(memory_ids))
    if not ids:
        return []
    where = all_of(is_in("memory_id", ids, _COLS), eq("action", "IGNORE", _COLS), eq("relation", "duplicates", _COLS))
    found = [(r["memory_id"], r["new_content"]) for r in store.rows(AUDIT, where, ["memory_id", "new_content"])]
    return found + [(c.memory_id, c.new_content or "") for c in changes
                    if c.memory_id in ids and c.action == "IGNORE" and c.relation == "duplicates"]  # fmt: skip


def wordings_of(store: Store, memory_ids: Sequence[str], changes: Sequence[ChangeRow] = ()) -> dict[str, list[str]]:
    """Every wording of these memories an episode may state, by memory id: each version's text (an earlier
    value, "(later changed: …)" after it) and their repeats (:func:`repeats_of`)."""
    ids = sorted(set(memory_ids))
    versions = store.rows(MEMORIES, is_in("memory_id", ids, _COLS), ["memory_id", "content"]) if ids else []
    found = [(r["memory_id"], r["content"]) for r in versions] + repeats_of(store, ids, changes)
    said: dict[str, list[str]] = {}
    for memory_id, text in dict.fromkeys(found):
        if text:
            said.setdefault(memory_id, []).append(text)
    return said


def scrub(row: dict[str, Any], deleted: Sequence[str]) -> dict[str, Any] | None:
    """The episode row without sentences stating a deleted memory; None when nothing changes."""
    kept = [s for s in row["sentences"] if not any(_states(_LATER.sub("", s["text"]), d) for d in deleted)]
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
    summary = joined(s["text"] for s in kept)
    return {**row, "sentences": kept, "key_facts": facts, "topics": topics, "source_event_ids": sources,
            "summary": summary}  # fmt: skip


_LATER = re.compile(r" \(later changed: [^()]*\)\.?$")


def annotate(row: dict[str, Any], changed: Sequence[tuple[str, str, str]]) -> dict[str, Any] | None:
    """The episode row with each sentence stating a memory another session changed followed by the change.

    ``changed``: (session id of the change, the memory's old content, the new content). None when nothing changes.
    """
    kept: list[dict[str, Any]] = []
    touched = False
    for sentence in row["sentences"]:
        text, base = sentence["text"], _LATER.sub("", sentence["text"])
        for session_id, old, new in changed:
            if session_id != row["session_id"] and sentence["source_event_ids"] and _states(base, old):
                text, touched = f"{base.rstrip('.')} (later changed: {shorten(new, 160).rstrip('.')}).", True
        kept.append({**sentence, "text": text})
    if not touched:
        return None
    return {**row, "sentences": kept, "summary": joined(s["text"] for s in kept)}


def scrub_episodes(
    store: Store, embedder: Embedder, changes: Sequence[ChangeRow], new_rows: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], int]:
    """Apply this run's deletions to its new episode rows and to stored episodes of the same users.

    Returns the new rows (scrubbed) and the number of stored episodes rewritten.
    """
    deleted: dict[tuple[str, str], list[str]] = {}
    changed: dict[tuple[str, str], list[tuple[str, str, str]]] = {}
    gone = [c for c in changes if c.action == "DELETE" and c.old_content]
    wordings = wordings_of(store, [c.memory_id for c in gone], changes)
    for change in gone:
        said = [change.old_content or "", *wordings.get(change.memory_id, [])]
        deleted.setdefault((change.app_name, change.user_id), []).extend(said)
    for change in changes:
        if change.action == "UPDATE" and change.relation in CHANGES and change.old_content and change.new_content:
            note = strip_annotation(change.new_content)
            changed.setdefault((change.app_name, change.user_id), []).append(
                (change.session_id, change.old_content, note)
            )
    if not deleted and not changed:
        return new_rows, 0
    fresh = {r["episode_id"]: r for r in new_rows}
    rewritten: list[dict[str, Any]] = []
    scrubbed_fresh: set[str] = set()
    owners = sorted({*deleted, *changed})
    stored_by_owner = rows_by_owner(store, EPISODES, owners)
    for app, user in owners:
        stored = stored_by_owner[(app, user)]
        candidates = {r["episode_id"]: r for r in stored} | {
            k: r for k, r in fresh.items() if (r["app_name"], r["user_id"]) == (app, user)
        }
        for episode_id, row in candidates.items():
            clean = scrub(row, deleted.get((app, user), []))
            noted = annotate(clean or row, changed.get((app, user), []))
            if (clean := noted or clean) is None:
                continue
            if episode_id in fresh:
                fresh[episode_id] = clean
                scrubbed_fresh.add(episode_id)
            else:
                rewritten.append(clean)
    redone = [fresh[i] for i in sorted(scrubbed_fresh)] + rewritten
    if redone:
        vectors = embedder.embed([r["summary"] for r in redone])
        for row, vector in zip(redone, vectors, strict=True):
            row["vector"] = vector.tolist()
    if rewritten:
        store.upsert(EPISODES, rewritten)
    return list(fresh.values()), len(rewritten)
