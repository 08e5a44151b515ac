"""Ingest throughput on the sample sessions: sessions/s, memories/s and the share spent embedding.

The sample data is tiny, so it is replicated ``--copies`` times under distinct users (each copy is
a new tenant, so consolidation work is realistic, not a cache hit). Then, when ../shared holds
LoCoMo, its sessions are ingested too and printed beside the embedder alone on the same texts
(the ingest's facts, forget requests and episodes) and on the raw turns: the ratio shows how far
the ingest is from what embedding alone allows. Prints figures; asserts nothing.
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
LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "locomo-dev"


def sample_sessions(copies: int) -> list[Session]:
    raws = [r for r in read_source(str(SAMPLE)) if isinstance(r, RawSession)]
    base = validate_batch(raws).sessions
    return [s.model_copy(update={"user_id": f"{s.user_id}-{i}"}) for i in range(copies) for s in base]


#: The whole LoCoMo (10 conversations) the issue's target is stated for: "under 30 s".
WHOLE_LOCOMO_TURNS = 5882
TARGET_SECONDS = 30.0


def _copy(session: Session, i: int) -> Session:
    """The session under new user ids; after the first copy, every turn's text made distinct ("… (4)")."""
    events = tuple(e.model_copy(update={"text": f"{e.text} ({i})"}) for e in session.events) if i else session.events
    return session.model_copy(update={"user_id": f"{session.user_id}~{i}", "events": events})


def locomo(path: Path, copies: int) -> None:
    """LoCoMo ingest beside the embedder alone on the same texts, then ``copies`` copies as the whole-LoCoMo proxy.

    Only three of LoCoMo's ten conversations are in ../shared; four copies of them (each under new
    user ids, so consolidation starts empty) are about as many turns as the whole dataset. Every turn
    of a copy ends with the copy's number, so no text repeats across copies: the embedder embeds
    each distinct text once, and identical copies would cost one copy's embedding.
    """
    from evaluation.locomo import load_locomo
    from tasks.ingest.stages import extract_sessions

    sessions = list(load_locomo(path).sessions)
    turns = sum(len(s.events) for s in sessions)
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(store_uri=tmp)
        embedder = build_embedder(settings)
        summary = ingest_sessions(sessions, settings)
        extracted, _ = extract_sessions(sessions, settings)
    texts = [t for e in extracted for t in (*(f.content for f in e.extraction.facts),
                                            *(r.query for r in e.extraction.forgets), e.episode.summary)]  # fmt: skip
    alone = time.perf_counter()
    embedder.embed(texts)
    alone = time.perf_counter() - alone
    raw = [e.text for s in sessions for e in s.events]
    raw_s = time.perf_counter()
    embedder.embed(raw)
    raw_s = time.perf_counter() - raw_s
    print(f"LoCoMo ({path.name}): {len(sessions)} sessions, {turns} turns -> {summary.memories_written} memory rows")
    print(f"  ingest: {summary.seconds:.2f} s -> {len(sessions) / summary.seconds:.2f} sessions/s, "
          f"{turns / summary.seconds:.1f} turns/s; embedding "
          f"{summary.embed_seconds:.2f} s = {summary.embed_seconds / summary.seconds:.1%} of wall")  # fmt: skip
    print(f"  embedder alone on the ingest's {len(texts)} texts: {alone:.2f} s, {len(texts) / alone:.1f} texts/s "
          f"(ingest wall = {summary.seconds / alone:.2f}x that)")  # fmt: skip
    print(f"  embedder alone on the {len(raw)} raw turns: {raw_s:.2f} s, {len(raw) / raw_s:.1f} turns/s")
    if copies < 2:
        return
    many = [_copy(s, i) for i in range(copies) for s in sessions]
    with tempfile.TemporaryDirectory() as tmp:
        big = ingest_sessions(many, Settings(store_uri=tmp))
    n = turns * copies
    print(f"WHOLE-LOCOMO-SIZED PROXY ({copies} copies of {path.name}, {len(many)} sessions, {n} turns; the whole "
          f"LoCoMo is {WHOLE_LOCOMO_TURNS} turns): {big.seconds:.2f} s, {n / big.seconds:.1f} turns/s, "
          f"embedding {big.embed_seconds:.2f} s; scaled to {WHOLE_LOCOMO_TURNS} turns: "
          f"{big.seconds * WHOLE_LOCOMO_TURNS / n:.1f} s (target < {TARGET_SECONDS:.0f} s)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--copies", type=int, default=100, help="copies of the sample sessions")
    parser.add_argument(
        "--locomo-copies",
        type=int,
        default=4,
        help="copies of LoCoMo-dev for the whole-LoCoMo-sized proxy (4 ~ 5.8k turns; 0 skips it)",
    )
    parser.add_argument("--locomo", type=Path, default=LOCOMO, help="LoCoMo folder (skipped when absent)")
    parser.add_argument("--only-locomo", action="store_true", help="skip the replicated sample sessions")
    args = parser.parse_args()
    if args.locomo.exists():
        locomo(args.locomo, args.locomo_copies)
    else:
        print(f"LoCoMo not found at {args.locomo}: skipped")
    if args.only_locomo:
        return
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
