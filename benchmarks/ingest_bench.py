"""Ingest throughput on the sample sessions: sessions/s, memories/s and the share spent embedding.

The sample data is tiny, so it is replicated ``--copies`` times under distinct users (each copy is
a new tenant, so consolidation work is realistic, not a cache hit). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from tasks.ingest.run import ingest_sessions
from tasks.ingest.validate import validate_batch
from tasks.models import QuarantineRecord, Session
from tasks.providers import build_embedder
from tasks.settings import Settings
from tasks.sources.files import read_source
from tasks.sources.raw import RawSession

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sessions"


def sample_sessions(copies: int) -> list[Session]:
    raws = [r for r in read_source(str(SAMPLE)) if isinstance(r, RawSession)]
    base = validate_batch(raws).sessions
    return [s.model_copy(update={"user_id": f"{s.user_id}-{i}"}) for i in range(copies) for s in base]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--copies", type=int, default=100)
    args = parser.parse_args()
    sessions = sample_sessions(args.copies)
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(store_uri=tmp)
        load = time.perf_counter()
        build_embedder(settings)
        load = time.perf_counter() - load
        summary = ingest_sessions(sessions, settings)
        rerun = time.perf_counter()
        again = ingest_sessions(sessions, settings)
        rerun = time.perf_counter() - rerun
    assert not isinstance(summary, QuarantineRecord)
    events = sum(len(s.events) for s in sessions)
    print(f"sessions: {len(sessions)} ({events} events), memory rows written: {summary.memories_written}, "
          f"actions: {summary.actions}")  # fmt: skip
    print(f"embedder load: {load:.2f} s (once per process)")
    print(f"ingest: {summary.seconds:.2f} s -> {len(sessions) / summary.seconds:.1f} sessions/s, "
          f"{summary.memories_written / summary.seconds:.1f} memories/s")  # fmt: skip
    print(f"embedding share: {summary.embed_seconds / summary.seconds:.1%} ({summary.embed_seconds:.2f} s)")
    print(f"re-run of the same input: {rerun:.2f} s, {again.sessions_processed} sessions processed "
          f"({len(sessions) / rerun:.0f} sessions/s checked against the ledger)")  # fmt: skip


if __name__ == "__main__":
    main()
