"""The operations behind the REST routes, the JSON-RPC methods and the page: one function each.

Each calls the functions the CLI calls (``tasks.control``, ``tasks.consolidate.history``,
``tasks.recall``, ``tasks.sources.inbox``), after checking the memory belongs to the caller's tenant;
there is no second path to the tables.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import datetime
from typing import Any

from tasks.api.context import ApiContext
from tasks.clock import utc
from tasks.consolidate.history import memory_history, rollback
from tasks.control.browse import MemoryPage, MemoryQuery, memory_page, owned_memory_id, source_turns
from tasks.control.edit import delete_memories, delete_memory, edit_memory
from tasks.control.forget import forget
from tasks.models import RecallHit, stable_id
from tasks.recall.abstain import NOTHING_KNOWN
from tasks.recall.context import build_context, format_context
from tasks.rows import MemoryRow
from tasks.sources.inbox import AcceptedSession, accept_session
from tasks.store.lock import store_lock


def public(row: MemoryRow | dict[str, Any]) -> dict[str, Any]:
    """A memory version as the API shows it: JSON-ready, without its vector."""
    data = row.model_dump(mode="json", exclude={"vector"}) if isinstance(row, MemoryRow) else dict(row)
    data.pop("vector", None)
    return {k: (utc(v).isoformat() if isinstance(v, datetime) else v) for k, v in data.items()}


def list_page(ctx: ApiContext, app: str, user: str, query: MemoryQuery) -> MemoryPage:
    return memory_page(ctx.store(), app, user, query)


def get_memory(ctx: ApiContext, app: str, user: str, some_id: str) -> dict[str, Any]:
    """The memory's current version (else its latest one) and how many versions it has."""
    store = ctx.store()
    history = memory_history(store, owned_memory_id(store, app, user, some_id))
    if not history.versions:
        return {"memory_id": history.memory_id, "erased": True, "versions": 0}
    shown = history.current or max(history.versions, key=lambda v: v.version)
    return public(shown) | {"versions": len(history.versions)}


def history_of(ctx: ApiContext, app: str, user: str, some_id: str) -> dict[str, Any]:
    """Versions (oldest first, with what superseded what), audit entries and the source sessions' turns."""
    store = ctx.store()
    history = memory_history(store, owned_memory_id(store, app, user, some_id))
    sessions = sorted({v.source_session_id for v in history.versions})
    cited = {e for v in history.versions for e in v.source_event_ids}
    sources = []
    for episode in source_turns(store, app, user, sessions):
        sentences = [s for s in episode["sentences"] or [] if cited & set(s["source_event_ids"])]
        sources.append({"session_id": episode["session_id"], "summary": episode["summary"],
                        "started_at": utc(episode["started_at"]).isoformat(),
                        "ended_at": utc(episode["ended_at"]).isoformat(), "sentences": sentences})  # fmt: skip
    return {
        "memory_id": history.memory_id,
        "versions": [public(v) for v in history.versions],
        "changes": [c.model_dump(mode="json") for c in history.changes],
        "sources": sources,
        "source_event_ids": sorted(cited),
    }


def edit(ctx: ApiContext, app: str, user: str, some_id: str, content: str) -> dict[str, Any]:
    memory_id = owned_memory_id(ctx.store(), app, user, some_id)
    return public(edit_memory(ctx.settings, memory_id, content))


def delete(ctx: ApiContext, app: str, user: str, some_id: str) -> dict[str, Any]:
    memory_id = owned_memory_id(ctx.store(), app, user, some_id)
    return public(delete_memory(ctx.settings, memory_id))


def bulk_delete(ctx: ApiContext, app: str, user: str, ids: list[str]) -> list[str]:
    store = ctx.store()
    owned = sorted({owned_memory_id(store, app, user, i) for i in ids})
    return [row.memory_id for row in delete_memories(ctx.settings, owned)]


def erase(ctx: ApiContext, app: str, user: str) -> dict[str, Any]:
    return asdict(forget(ctx.settings, app, user))


def recall(ctx: ApiContext, app: str, user: str, query: str, k: int | None, budget: int | None,
           now: datetime | None) -> dict[str, Any]:  # fmt: skip
    """Hits and the prompt's context block, as ``memory-pipeline recall --json`` / ``--context`` give them."""
    with ctx.recaller() as recaller:
        result = recaller.recall_result(query, app, user, k=k, now=now)
    tokens = ctx.settings.context_max_tokens if budget is None else budget
    return {
        "hits": [h.model_dump(mode="json") for h in result.hits],
        "confident": result.confident,
        "context": format_context(result.hits, tokens),
        "searched_as": result.searched_as,
    }


def retrieve(ctx: ApiContext, app: str, user: str, query: str, k: int | None) -> list[dict[str, Any]]:
    """Seed 003's ``memory.retrieve``: memory_id, summary, timestamp, relevance_score per hit."""
    with ctx.recaller() as recaller:
        hits: list[RecallHit] = recaller.recall(query, app, user, k=k)
    return [{"memory_id": h.id, "summary": h.content, "kind": h.kind, "topic": h.topic,
             "timestamp": utc(h.stated_at or h.created_at).isoformat(), "relevance_score": round(h.score, 6)}
            for h in hits]  # fmt: skip


def get_context(ctx: ApiContext, app: str, user: str, query: str, max_tokens: int | None) -> str:
    """Seed 003's ``memory.get_context``: the same block the ADK tools and ``recall --context`` build."""
    budget = ctx.settings.context_max_tokens if max_tokens is None else max_tokens
    with ctx.recaller() as recaller:
        block = build_context(query, app, user, budget, settings=ctx.settings, recaller=recaller, abstain=True)
    return block or NOTHING_KNOWN


def queue_session(ctx: ApiContext, app: str, user: str, payload: dict[str, Any]) -> AcceptedSession:
    return accept_session(ctx.settings, payload, app, user)


def interaction_session(ctx: ApiContext, interaction: dict[str, Any]) -> dict[str, Any]:
    """An interaction (``messages`` of ``role``/``content``, or our ``events``) as a session to queue.

    Missing times are the app clock's now; missing ids are derived from the content, so the same
    interaction stored twice is one session. Anything malformed is passed on for validation to refuse.
    """
    stamp = utc(ctx.clock()).isoformat()
    turns = interaction.get("events", interaction.get("messages"))
    if not isinstance(turns, list):
        return {"session_id": interaction.get("session_id") or "rpc", "events": turns}
    key = stable_id("rpc", json.dumps(turns, sort_keys=True, default=str))
    events: list[Any] = [
        {
            "id": turn.get("id") or f"{key}-e{i}",
            "author": turn.get("author", turn.get("role")),
            "text": turn.get("text", turn.get("content")),
            "timestamp": turn.get("timestamp", stamp),
        }
        if isinstance(turn, dict)
        else turn
        for i, turn in enumerate(turns)
    ]
    times = [e["timestamp"] for e in events if isinstance(e, dict) and isinstance(e["timestamp"], str)]
    return {
        "session_id": interaction.get("session_id") or f"rpc-{key}",
        "started_at": interaction.get("started_at") or min(times, default=stamp),
        "ended_at": interaction.get("ended_at") or max(times, default=stamp),
        "events": events,
    }


def rollback_run(ctx: ApiContext, run_id: str, force: bool) -> dict[str, int]:
    """``memory-pipeline rollback``, holding the writer lock so a running ingest is never restored under."""
    with store_lock(ctx.settings, f"rollback of {run_id}"):
        return rollback(ctx.store(), run_id, force=force)
