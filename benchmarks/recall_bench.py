"""Recall latency at scale: p50/p95 end-to-end (query embedding included), flat vs ANN, index builds.

Rows are synthetic (random unit vectors, templated text) and written straight into the memories
table, since embedding a million texts would benchmark the embedder, not recall. Queries are
embedded for real on every call, as an agent would. Users are spread evenly, so each query's
tenant filter keeps about N / users rows.

Three layouts are measured: as written (users interleaved row by row, the worst case and what
time-ordered appends look like), clustered by user (what ``ensure_indexes`` leaves after a
clustering pass), and clustered plus a tail of interleaved rows just under the re-clustering
threshold (the worst a maintained table gets between passes). The targets apply to the last, with
recall's default exact per-tenant scan; the ANN runs are printed for comparison.

    python benchmarks/recall_bench.py                      # 10k and 100k
    python benchmarks/recall_bench.py --sizes 1000000      # the 1M run (minutes, ~3 GB RAM)
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pyarrow as pa

from tasks.providers import build_embedder
from tasks.providers.base import Embedder, FloatMatrix
from tasks.recall.recaller import Recaller
from tasks.settings import MANAGED_TOPICS, Settings
from tasks.store.indexes import ensure_indexes
from tasks.store.tables import MEMORIES, Store

TARGET_P95_MS = {100_000: 20.0, 1_000_000: 50.0}
WORDS = (
    "parrot", "coffee", "marathon", "Lisbon", "guitar", "sister", "nurse", "pizza", "jazz",
    "Tokyo", "lamp", "order", "invoice", "garden", "chess", "novel", "python", "bicycle",
    "allergy", "peanut", "salmon", "violin", "Berlin", "cello", "hiking", "yoga", "budget",
    "flight", "hotel", "birthday", "dentist", "insurance", "mortgage", "kitten", "puppy", "sushi",
    "ramen", "tennis", "piano", "camera", "laptop",
)  # fmt: skip
QUERIES = (
    "What pet does the user have?",
    "Where does the user work?",
    "Which food does the user dislike?",
    "When is the user's flight?",
    "What instrument does the user play?",
    "Does the user have any allergies?",
    "What is the user's favourite city?",
    "What sport is the user training for?",
    "order ZX-4471",
    "What did we say about the budget?",
    # Asked in the first person (as an agent preloads a user's message): two embedder passes each
    # (the question and its statement form, tasks.recall.statement).
    "What pet do I have?",
    "Where do I work these days?",
    "What's my favourite city?",
)
#: List questions over a kind (tasks.recall.kinds): a second full-text search for the kind's members.
#: Timed apart with --list-questions (the first one loads WordNet, in the warm-up).
LIST_QUERIES = (
    "Which cities has the user visited?",
    "What sports does the user play?",
    "What instruments do I play?",
    "Which countries have I been to?",
)


def synthetic_batches(
    n: int, users: int, dim: int, seed: int, batch: int = 50_000, first: int = 0
) -> Iterator[pa.Table]:
    """Memories-table rows ``first``..``first + n`` with random unit vectors, round-robin over users."""
    rng = np.random.default_rng(seed)
    pick = random.Random(seed)
    now = datetime.now(UTC)
    ts = pa.timestamp("us", tz="UTC")
    for start in range(first, first + n, batch):
        size = min(batch, first + n - start)
        idx = np.arange(start, start + size)
        vec = rng.standard_normal((size, dim), dtype=np.float32)
        vec /= np.linalg.norm(vec, axis=1, keepdims=True)
        stated = [now - timedelta(days=int(d)) for d in rng.integers(0, 1500, size)]
        words = [pick.sample(WORDS, 3) for _ in range(size)]
        content = [
            f"User mentioned {a}, {b} and {c} (ref ZX-{i % 9973})" for i, (a, b, c) in zip(idx, words, strict=True)
        ]
        row_ids = [f"m{i}-v1" for i in idx]
        yield pa.table(
            {
                "row_id": row_ids,
                "memory_id": [f"m{i}" for i in idx],
                "version": pa.array(np.ones(size, dtype=np.int32)),
                "app_name": ["bench"] * size,
                "user_id": [f"user-{i % users}" for i in idx],
                "topic": [MANAGED_TOPICS[i % len(MANAGED_TOPICS)] for i in idx],
                "content": content,
                "vector": pa.FixedSizeListArray.from_arrays(pa.array(vec.ravel()), dim),
                "importance": pa.array(rng.random(size, dtype=np.float32)),
                "confidence": pa.array(np.full(size, 0.8, dtype=np.float32)),
                "speaker": ["user"] * size,
                "slot": pa.nulls(size, pa.string()),
                "value": pa.nulls(size, pa.string()),
                "source_session_id": [f"s{i // 10}" for i in idx],
                "source_event_ids": [[f"e{i}"] for i in idx],
                "stated_at": pa.array(stated, ts),
                "valid_from": pa.array(stated, ts),
                "valid_to": pa.nulls(size, ts),
                "status": ["active"] * size,
                "status_reason": pa.nulls(size, pa.string()),
                "supersedes": pa.nulls(size, pa.string()),
                "relation": ["new"] * size,
                "confirmations": pa.array(rng.integers(0, 4, size, dtype=np.int32)),
                "last_confirmed_at": pa.nulls(size, ts),
                "access_count": pa.array(np.zeros(size, dtype=np.int32)),
                "last_accessed_at": pa.nulls(size, ts),
                "created_at": pa.array(stated, ts),
                "updated_at": pa.array(stated, ts),
                "run_id": ["bench"] * size,
            }
        )


class TimedEmbedder:
    """The real embedder, timing each call so that search time can be told from embedding time."""

    def __init__(self, inner: Embedder) -> None:
        self.inner, self.model, self.dim = inner, inner.model, inner.dim
        self.calls_ms: list[float] = []

    def embed(self, texts: Sequence[str]) -> FloatMatrix:
        start = time.perf_counter()
        out = self.inner.embed(texts)
        self.calls_ms.append((time.perf_counter() - start) * 1000)
        return out


def measure(
    recaller: Recaller, users: int, queries: int, seed: int, asked: tuple[str, ...] = QUERIES
) -> tuple[list[float], list[list[str]]]:
    """Latencies (ms) of ``queries`` recalls of ``asked`` for random users, and the ids each returned."""
    pick = random.Random(seed)
    plan = [(pick.choice(asked), f"user-{pick.randrange(users)}") for _ in range(queries)]
    for text, user in plan[:5]:  # warm caches (index pages, tokenizer)
        recaller.recall(text, "bench", user)
    if isinstance(recaller.embedder, TimedEmbedder):
        recaller.embedder.calls_ms.clear()
    latencies: list[float] = []
    results: list[list[str]] = []
    for text, user in plan:
        start = time.perf_counter()
        hits = recaller.recall(text, "bench", user)
        latencies.append((time.perf_counter() - start) * 1000)
        results.append([h.id for h in hits])
    # Not flushed: access writes would rewrite rows between the runs being compared.
    return latencies, results


def calibrate(embedder: TimedEmbedder, runs: int = 50) -> float:
    """Median time of one query embedding with nothing else running: this machine's speed now."""
    for text in QUERIES:
        embedder.embed([text])
    embedder.calls_ms.clear()
    for i in range(runs):
        embedder.embed([QUERIES[i % len(QUERIES)]])
    median = statistics.median(embedder.calls_ms)
    embedder.calls_ms.clear()
    return median


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q) - 1]


def run_size(n: int, args: argparse.Namespace, embedder: TimedEmbedder, root: Path) -> None:
    uri = str(root / f"store-{n}")
    # Built as written first (no clustering), then clustered by the pipeline's own ensure_indexes.
    settings = Settings(store_uri=uri, ann_index_min_rows=n * 10, include_episodes=False, cluster_min_rows=0)
    store = Store(uri, embedder.model, embedder.dim)
    t0 = time.perf_counter()
    table = store.table(MEMORIES)
    for batch in synthetic_batches(n, args.users, embedder.dim, args.seed):
        table.add(batch)
    write_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    built = ensure_indexes(store, settings)
    print(f"\n== {n:,} memories, {args.users:,} users (~{n // args.users} per user) ==")
    print(
        f"machine speed now: one query embedding alone takes p50 {calibrate(embedder):.1f} ms (drifts up to 1.8x here)"
    )
    print(f"write {write_s:.1f}s; scalar+FTS index build {time.perf_counter() - t0:.1f}s ({', '.join(built)})")

    def timed(
        label: str, run: Settings, target_n: int | None = None, use_ann: bool = False, asked: tuple[str, ...] = QUERIES
    ) -> list[list[str]]:
        recaller = Recaller(run, store=store, embedder=embedder, use_ann=use_ann)
        latencies, ids = measure(recaller, args.users, args.queries, 1, asked)
        report(label, latencies, target_n, embedder)
        return ids

    timed("as written", settings)

    clustered = settings.model_copy(update={"cluster_min_rows": 1})
    t0 = time.perf_counter()
    built = ensure_indexes(store, clustered)
    print(f"clustering + index rebuild {time.perf_counter() - t0:.1f}s ({', '.join(built)})")
    timed("clustered", clustered)
    tail = int(n * clustered.cluster_max_unclustered_share * 0.95)
    for batch in synthetic_batches(tail, args.users, embedder.dim, args.seed + 1, first=n):
        table.add(batch)
    t0 = time.perf_counter()
    built = ensure_indexes(store, clustered)
    print(f"+{tail:,} interleaved rows; index refresh {time.perf_counter() - t0:.1f}s ({', '.join(built)})")
    flat_ids = timed("clustered+tail", clustered, n)
    if args.list_questions:  # no target of their own: compare with the line above
        timed("list questions", clustered, asked=LIST_QUERIES)
        timed("  without kinds", clustered.model_copy(update={"recall_kinds": False}), asked=LIST_QUERIES)
    if args.reranker:
        # Opt-in second stage: a cross-encoder pass over the best recall_rerank_depth candidates (no target).
        timed("+cross-encoder", clustered.model_copy(update={"recall_reranker": "cross-encoder"}))
    if args.no_ann:
        return
    ann_settings = clustered.model_copy(update={"ann_index_min_rows": 1})
    t0 = time.perf_counter()
    built = ensure_indexes(store, ann_settings)
    print(f"ANN IvfHnswSq build {time.perf_counter() - t0:.1f}s ({', '.join(built)})")
    # For comparison only: per-tenant filters keep ~N/users rows, which the exact scan reads faster.
    ann_ids = timed("ANN (use_ann)", ann_settings, use_ann=True)
    overlap = [len(set(a) & set(f)) / max(len(f), 1) for a, f in zip(ann_ids, flat_ids, strict=True) if f]
    print(f"  top-k agreement ANN vs exact: {statistics.mean(overlap):.3f}")


def report(label: str, latencies: list[float], n: int | None, embedder: TimedEmbedder) -> None:
    """p50/p95; the target verdict only for the maintained layout (``n`` given)."""
    p50, p95 = pct(latencies, 50), pct(latencies, 95)
    embed_p50 = statistics.median(embedder.calls_ms) if embedder.calls_ms else 0.0
    embedder.calls_ms.clear()
    target = TARGET_P95_MS.get(n) if n is not None else None
    verdict = "" if target is None else f"  (target p95 <= {target:.0f} ms: {'OK' if p95 <= target else 'MISSED'})"
    print(f"  {label:<15} p50 {p50:6.1f} ms   p95 {p95:6.1f} ms   over {len(latencies)} queries{verdict}")
    print(f"  {'':<15} query embedding p50 {embed_p50:.1f} ms (overlapped with the first reads)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000], help="memory counts")
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=200, help="timed recalls per configuration")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-ann", action="store_true", help="skip the ANN index runs")
    parser.add_argument("--reranker", action="store_true", help="also time the opt-in cross-encoder reranker")
    parser.add_argument("--list-questions", action="store_true", help="also time list questions over a kind")
    parser.add_argument("--dir", default=None, help="where to build the stores (default: a temp dir)")
    args = parser.parse_args()
    start = time.perf_counter()
    embedder = TimedEmbedder(build_embedder(Settings()))
    embedder.embed(["warm up"])
    print(f"embedder {embedder.model} loaded in {time.perf_counter() - start:.2f}s")
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} (other work skews latencies)")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        for n in args.sizes:
            run_size(n, args, embedder, Path(tmp))


if __name__ == "__main__":
    main()
