"""``make demo``: ingest the sample sessions shipped in data/ and show a recall, fully offline.

The stages run directly unless a Prefect API is configured or ``--prefect`` is given.
"""

from __future__ import annotations

import sys

from flows.cli_common import log_to_stderr, prefect_defaults, use_prefect
from tasks.ingest.run import run_ingest
from tasks.recall.context import build_context
from tasks.recall.recaller import Recaller
from tasks.settings import load_settings

DEMO_QUERIES = (
    ("alice", "What bird did I like?"),
    ("alice", "What do I drink these days?"),
    ("bob", "Any food restrictions?"),
)


def main() -> int:
    prefect_defaults()
    settings = load_settings()
    if use_prefect("--prefect" in sys.argv):
        from flows.ingest import ingest_flow

        summary = ingest_flow()
    else:
        log_to_stderr()
        summary = run_ingest(settings)
    print(
        f"\ningest run {summary.run_id}: {summary.sessions_seen} sessions seen, "
        f"{summary.sessions_processed} processed, "
        f"{summary.sessions_skipped} already done, {summary.sessions_pending} not ended yet, "
        f"{summary.sessions_quarantined} quarantined; actions {summary.actions}"
    )
    recaller = Recaller(settings)
    for user, query in DEMO_QUERIES:
        print(f"\nrecall --app travel-assistant --user {user} {query!r}")
        for hit in recaller.recall(query, "travel-assistant", user, k=3):
            print(f"  {hit.score:.3f}  [{hit.topic}] {hit.content}")
    print("\ncontext block for 'Plan my next trip' (alice, 200 tokens):")
    print(build_context("Plan my next trip", "travel-assistant", "alice", 200, settings=settings, recaller=recaller))
    recaller.flush_access()
    reranked = settings.model_copy(update={"recall_reranker": "cross-encoder"})
    with Recaller(reranked, store=recaller.store, embedder=recaller.embedder) as second_stage:
        user, query = DEMO_QUERIES[1]
        print(f"\nrecall --rerank --app travel-assistant --user {user} {query!r} (opt-in cross-encoder)")
        for hit in second_stage.recall(query, "travel-assistant", user, k=3):
            print(f"  {hit.score_parts.get('rerank', 0.0):+.2f}  [{hit.topic}] {hit.content}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
