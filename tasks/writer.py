"""The write stage of an ingest run: consolidate per user, then write in a crash-safe order.

Order: memories → audit log → episodes → indexes → ledger → runs row and version tags. A run that
dies before the ledger is re-run in full; deterministic ids and merge-insert make that add nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime

from tasks.consolidation import ConsolidationOutcome, consolidate_user, load_user_memories
from tasks.forgetting import scrub_episodes
from tasks.models import Episode, QuarantineRecord, SessionBatch
from tasks.pipeline import Embedded, IngestSummary, group_by_user, write_quarantine
from tasks.providers import build_consolidator, build_embedder
from tasks.providers.openai_client import map_concurrent, usage_since
from tasks.settings import Settings
from tasks.store import CHANGES, EPISODES, LEDGER, MEMORIES, RUNS, Store, dumps_json, open_store


def episode_row(episode: Episode, vector: list[float], run_id: str, now: datetime) -> dict[str, object]:
    return {
        "episode_id": episode.episode_id, "app_name": episode.app_name, "user_id": episode.user_id,
        "session_id": episode.session_id, "summary": episode.summary, "topics": list(episode.topics),
        "key_facts": list(episode.key_facts),
        "sentences": [{"text": s.text, "source_event_ids": list(s.source_event_ids)} for s in episode.sentences],
        "source_event_ids": list(episode.source_event_ids), "vector": vector, "started_at": episode.started_at,
        "ended_at": episode.ended_at, "status": "active", "access_count": 0, "last_accessed_at": None,
        "created_at": now, "run_id": run_id,
    }  # fmt: skip


def _ensure_indexes(store: Store, settings: Settings) -> None:
    try:
        from tasks.indexing import ensure_indexes
    except ImportError:  # recall's indexing module not present: searches still work unindexed
        return
    ensure_indexes(store, settings)


def commit_run(
    embedded: Embedded,
    quarantined: Sequence[QuarantineRecord],
    settings: Settings,
    summary: IngestSummary,
) -> IngestSummary:
    """Consolidate and write one run's sessions; returns the summary with the write counts."""
    store = open_store(settings)
    started = datetime.now(UTC)
    before = store.versions()
    summary.sessions_quarantined += write_quarantine(store, quarantined, summary.run_id)
    if not embedded.batches:
        return summary
    consolidator = build_consolidator(settings)

    def one_user(group: tuple[tuple[str, str], list[SessionBatch]]) -> ConsolidationOutcome:
        (app, user), batches = group
        memories = load_user_memories(store, app, user)
        return consolidate_user(
            memories, batches, consolidator, run_id=summary.run_id, now=started, related_k=settings.related_k
        )

    groups = list(group_by_user(embedded.batches).items())
    # Users are independent: with an LLM consolidator their calls overlap (each user's stay in order).
    outcomes = map_concurrent(one_user, groups, settings) if settings.consolidator == "openai" else None
    upserts, changes = [], []
    for outcome in outcomes or [one_user(g) for g in groups]:
        if isinstance(outcome, BaseException):
            raise outcome
        upserts += outcome.upserts
        changes += outcome.changes
    summary.memories_written = store.upsert(MEMORIES, upserts)
    summary.changes_written = store.insert_new(CHANGES, changes)
    summary.actions = dict(Counter(c.action for c in changes))
    rows = [
        episode_row(e, v, summary.run_id, started)
        for e, v in zip(embedded.episodes, embedded.episode_vectors, strict=True)
    ]
    rows, scrubbed = scrub_episodes(store, build_embedder(settings), changes, rows)
    summary.episodes_written = store.upsert(EPISODES, rows) + scrubbed
    _ensure_indexes(store, settings)
    ledger = [
        {"session_key": b.session.key, "app_name": b.session.app_name, "user_id": b.session.user_id,
         "session_id": b.session.session_id, "content_hash": b.session.content_hash, "ended_at": b.session.ended_at,
         "processed_at": datetime.now(UTC), "run_id": summary.run_id,
         "memories_written": sum(1 for c in changes if c.session_id == b.session.session_id and c.action != "IGNORE")}
        for b in embedded.batches
    ]  # fmt: skip
    store.upsert(LEDGER, ledger)
    summary.sessions_processed = len(ledger)
    record_run(store, summary, before, started)
    return summary


def record_run(store: Store, summary: IngestSummary, before: dict[str, int], started: datetime) -> None:
    """The runs row (versions before/after, for rollback) and a tag on every table's new version."""
    summary.llm_usage = usage_since(summary.usage_baseline)
    counts = summary.model_dump(exclude={"run_id"})
    row = {"run_id": summary.run_id, "flow": "ingest", "started_at": started, "ended_at": datetime.now(UTC),
           "status": "completed", "versions_before": dumps_json(before), "versions_after": "{}",
           "counts": dumps_json(counts)}  # fmt: skip
    store.upsert(RUNS, [row])
    row["versions_after"] = dumps_json(store.versions())
    store.upsert(RUNS, [row])
    store.tag_versions(summary.run_id)
