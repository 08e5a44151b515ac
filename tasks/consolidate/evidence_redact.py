"""Forget requests and erasures reach the evidence layer: the forgotten value leaves the verbatim turns.

Why: the evidence table keeps every turn as said, so a memory forgotten by consolidation would still
be recalled from the turn it came from. The turns a forgotten memory cites have its value replaced by
:data:`FORGOTTEN` (the whole passage when the value cannot be found in it: the memory's words were the
turn's, said otherwise); the turn that asked to forget loses the value too. The row stays (cited, and
marked ``redacted``) and is embedded again from its redacted text, so its vector says nothing more.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from tasks.providers.base import Embedder
from tasks.store.filters import all_of, eq, is_in, scope
from tasks.store.owners import rows_by_owner
from tasks.store.tables import CHANGES, EVIDENCE, MEMORIES, Store

FORGOTTEN = "[forgotten]"
_COLS = ("app_name", "user_id", "event_id", "evidence_id")


def forgotten_in_store(
    store: Store, owners: Iterable[tuple[str, str]], session_ids: Iterable[str]
) -> tuple[list[dict[str, Any]], list[tuple[str, str, Sequence[str]]]]:
    """The owners' deleted memory rows and the turns of these sessions that asked to forget, as stored.

    Read from the tables, not from the run's own decisions: a run killed after its memory write is
    re-run, and its consolidation no longer decides a deletion that is already stored."""
    requests: list[tuple[str, str, Sequence[str]]] = []
    sessions = sorted(set(session_ids))
    wanted = sorted(set(owners))
    deleted = rows_by_owner(store, MEMORIES, wanted, eq("status", "deleted", ("status",)),
                            ["app_name", "user_id", "value", "source_event_ids"])  # fmt: skip
    forgotten = [row for owner in wanted for row in deleted[owner]]
    if sessions and store.has(CHANGES):
        asked = all_of(eq("action", "DELETE", ("action",)), is_in("session_id", sessions, ("session_id",)))
        by_owner = rows_by_owner(store, CHANGES, wanted, asked, ["source_event_ids"])
        requests = [(*owner, r["source_event_ids"] or []) for owner in wanted for r in by_owner[owner]]
    return forgotten, requests


def redacted(text: str, values: Iterable[str], *, whole: bool) -> str:
    """``text`` with each value (case-insensitive, on word boundaries) replaced by :data:`FORGOTTEN`;
    with ``whole``, a text that holds none of them (and was never redacted) is replaced entirely."""
    out = text
    for value in sorted({v.strip() for v in values if len(v.strip()) >= 2}, key=len, reverse=True):
        out = re.sub(rf"(?<!\w){re.escape(value)}(?!\w)", FORGOTTEN, out, flags=re.IGNORECASE)
    if out == text and whole and FORGOTTEN not in text:  # a text redacted before stays as it was
        return FORGOTTEN
    return out


def redact_evidence(
    store: Store,
    embedder: Embedder,
    forgotten: Sequence[dict[str, Any]],
    requests: Sequence[tuple[str, str, Sequence[str]]] = (),
) -> list[str]:
    """Redact the evidence of ``forgotten`` memory rows and the value in each request turn; the ids redacted."""
    return write_redactions(store, embedder, redactions(store, forgotten, requests))


def redactions(
    store: Store, forgotten: Sequence[dict[str, Any]], requests: Sequence[tuple[str, str, Sequence[str]]] = ()
) -> list[dict[str, Any]]:
    """The evidence rows of ``forgotten`` memory rows (dicts with app_name, user_id, value and
    source_event_ids) and of the request turns ((app, user, event ids)), redacted, not yet written."""
    if not store.has(EVIDENCE) or not forgotten:
        return []
    values: dict[tuple[str, str], set[str]] = defaultdict(set)
    cited: dict[tuple[str, str], set[str]] = defaultdict(set)
    asked: dict[tuple[str, str], set[str]] = defaultdict(set)
    for m in forgotten:
        owner = (m["app_name"], m["user_id"])
        if m.get("value"):
            values[owner].add(str(m["value"]))
        cited[owner].update(m.get("source_event_ids") or [])
    for app, user, event_ids in requests:
        asked[(app, user)].update(event_ids)
    changed: list[dict[str, Any]] = []
    for owner in sorted(set(cited) | set(asked)):
        events = sorted(cited[owner] | asked[owner])
        if not events:
            continue
        for start in range(0, len(events), 500):
            where = all_of(scope(*owner), is_in("event_id", events[start : start + 500], _COLS))
            for row in store.rows(EVIDENCE, where):
                new = redacted(row["text"], values[owner], whole=row["event_id"] in cited[owner])
                if new != row["text"]:
                    changed.append({**row, "text": new, "redacted": True})
    return changed


def write_redactions(store: Store, embedder: Embedder, changed: list[dict[str, Any]]) -> list[str]:
    """Write redacted rows, each embedded again from its redacted text; their ids."""
    if not changed:
        return []
    vectors = embedder.embed([r["text"] for r in changed])
    for row, vector in zip(changed, vectors, strict=True):
        row["vector"] = vector.tolist()
    store.upsert(EVIDENCE, changed)
    return [r["evidence_id"] for r in changed]
