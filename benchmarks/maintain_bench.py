"""Maintenance passes at scale: wall time and peak memory per pass, and store size before/after upkeep.

Part 1 builds a store of ``--rows`` synthetic memories over ``--users`` users (random unit vectors
written straight to Lance in batches, no text embedding; ~2% near-duplicates so merge has work; ten
old episodes per user so the monthly rollup has work), with the scalar indexes recall uses, then
runs each pass in its own subprocess (``ru_maxrss`` is per process) and prints wall seconds and
peak resident memory (and tracemalloc's Python-heap peak, which misses Arrow/Lance buffers).

Part 2 (``--ingest-runs``) makes that many small real ingest runs into a fresh store, then runs
upkeep evaluated ``version_retention_days + 1`` days later and prints bytes, versions and fragments
on disk before and after.

    PYTHONPATH=. python benchmarks/maintain_bench.py --rows 100000 --users 1000 --ingest-runs 100
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pyarrow as pa

NOW = datetime(2026, 6, 1, tzinfo=UTC)
TOPICS = ["user_personal_info", "user_preferences", "key_conversation_details", "explicit_instructions"]


def _settings(store: str, **extra: object) -> object:
    from tasks.settings import Settings

    base = {"store_uri": store, "ann_index_min_rows": 10**9, "max_active_per_user": 900}
    return Settings(**(base | extra))  # type: ignore[arg-type]


def build(store_uri: str, rows: int, users: int, batch: int = 20_000) -> float:
    """Write the synthetic store; returns seconds."""
    from tasks.store.indexes import ensure_indexes
    from tasks.store.schema import EPISODES, MEMORIES
    from tasks.store.tables import open_store

    settings = _settings(store_uri, cluster_min_rows=0)
    store = open_store(settings)  # type: ignore[arg-type]
    schema = store.schemas[MEMORIES]
    rng = np.random.default_rng(7)
    started = time.perf_counter()
    for start in range(0, rows, batch):
        n = min(batch, rows - start)
        idx = np.arange(start, start + n)
        vec = rng.normal(size=(n, 384)).astype(np.float32)
        dup = rng.random(n) < 0.02  # near-duplicate of the previous row (same user and topic below)
        vec[1:][dup[1:]] = vec[:-1][dup[1:]] + 0.01 * rng.normal(size=(int(dup[1:].sum()), 384)).astype(np.float32)
        vec /= np.linalg.norm(vec, axis=1, keepdims=True)
        user_of = np.where(dup, idx - 1, idx) % users
        topic_of = rng.integers(0, 4, n)
        topic_of[1:][dup[1:]] = topic_of[:-1][dup[1:]]  # a near-duplicate shares its original's topic
        topic = np.asarray(TOPICS)[topic_of]
        stated = [NOW - timedelta(days=float(d)) for d in rng.uniform(0, 1100, n)]
        ids = [f"m{i}" for i in idx]
        data = {
            "row_id": [f"{i}-v1" for i in ids], "memory_id": ids, "version": [1] * n, "app_name": ["bench"] * n,
            "user_id": [f"user{u:05d}" for u in user_of], "topic": topic.tolist(),
            "content": [f"Synthetic fact number {i} about thing {i % 997}." for i in idx],
            "vector": pa.FixedSizeListArray.from_arrays(pa.array(vec.reshape(-1)), 384),
            "importance": rng.uniform(0, 1, n).astype(np.float32), "confidence": np.full(n, 0.8, np.float32),
            "speaker": ["user"] * n, "slot": [None] * n, "value": [None] * n, "source_session_id": ["s"] * n,
            "source_event_ids": [["e"]] * n, "stated_at": stated, "valid_from": stated, "valid_to": [None] * n,
            "status": ["active"] * n, "status_reason": [None] * n, "supersedes": [None] * n, "relation": ["new"] * n,
            "confirmations": rng.poisson(1.0, n).astype(np.int32), "last_confirmed_at": [None] * n,
            "access_count": rng.poisson(2.0, n).astype(np.int32), "last_accessed_at": [None] * n,
            "created_at": stated, "updated_at": stated, "run_id": ["bench"] * n, "expires_at": [None] * n,
        }  # fmt: skip
        store.table(MEMORIES).add(pa.Table.from_pydict(data, schema=schema))  # new keys: a plain append
    eps = [
        {"episode_id": f"ep{u}-{k}", "app_name": "bench", "user_id": f"user{u:05d}", "session_id": f"s{u}-{k}",
         "summary": f"Session {k} of user {u}.", "topics": ["travel"], "key_facts": [], "sentences": [],
         "source_event_ids": [f"e{k}"], "vector": (v := rng.normal(size=384)) / np.linalg.norm(v),
         "started_at": NOW - timedelta(days=400 + 3 * k), "ended_at": NOW - timedelta(days=400 + 3 * k),
         "status": "active", "access_count": 0, "last_accessed_at": None, "created_at": NOW, "run_id": "bench"}
        for u in range(users) for k in range(10)
    ]  # fmt: skip
    store.upsert(EPISODES, eps)
    ensure_indexes(store, settings)  # type: ignore[arg-type]
    return time.perf_counter() - started


def run_one(store_uri: str, name: str, now: str) -> None:
    """Child process: one pass, then its figures as JSON on stdout."""
    from tasks.maintain import run_pass

    tracemalloc.start()
    started = time.perf_counter()
    report = run_pass(_settings(store_uri), name, now=datetime.fromisoformat(now))  # type: ignore[arg-type]
    seconds = time.perf_counter() - started
    _, py_peak = tracemalloc.get_traced_memory()
    rss = peak_rss_mb()
    print(json.dumps({"pass": name, "seconds": round(seconds, 1), "peak_rss_mb": round(rss),
                      "python_heap_peak_mb": round(py_peak / 2**20), "counts": report.counts,
                      "scanned": report.scanned}))  # fmt: skip


def peak_rss_mb() -> float:
    """This process's peak resident memory. VmHWM, not ``ru_maxrss``: Linux carries ``ru_maxrss`` over
    fork and exec, so a child would report at least its parent's peak (the benchmark's own build)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _child(*args: str) -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    out = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True, env=env, check=True)
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def baseline_rss() -> dict[str, object]:
    """RSS of a child that only imports the pipeline (what every pass pays before reading anything)."""
    return _child("--baseline")


def size(store_uri: str) -> dict[str, int]:
    from tasks.maintain.upkeep import disk_bytes
    from tasks.store.tables import open_store

    store = open_store(_settings(store_uri))  # type: ignore[arg-type]
    out = {"bytes": disk_bytes(store_uri) or 0}
    for name in store.versions():
        ds = store.table(name).to_lance()
        out[f"{name}.versions"] = len(ds.versions())
        out[f"{name}.fragments"] = len(ds.get_fragments())
    return out


def ingest_runs(store_uri: str, runs: int) -> float:
    from tasks.ingest.run import run_ingest
    from tasks.models import Event, Session

    cities = ["Lisbon", "Oslo", "Lima", "Kyoto", "Quito", "Perth", "Tunis", "Riga"]
    settings = _settings(store_uri)
    started = time.perf_counter()
    for r in range(runs):
        at = NOW - timedelta(days=runs - r)
        user = f"user{r % 10}"
        texts = [f"I work at Company{r} as an engineer.", f"I prefer {cities[r % 8]} for holidays.",
                 f"My flight number is XY{1000 + r}."]  # fmt: skip
        events = tuple(Event(id=f"r{r}-e{i}", author="user", role="user", text=t, timestamp=at + timedelta(minutes=i))
                       for i, t in enumerate(texts))  # fmt: skip
        session = Session(app_name="bench", user_id=user, session_id=f"r{r}", started_at=at,
                          ended_at=at + timedelta(minutes=5), events=events)  # fmt: skip
        run_ingest(settings, sessions=[session])  # type: ignore[arg-type]
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--ingest-runs", type=int, default=100, help="0 skips part 2")
    parser.add_argument("--dir", default=None, help="where to build the stores (default: a temp dir)")
    parser.add_argument("--passes", default="ttl,decay,capacity,merge,upkeep")
    parser.add_argument("--run-pass", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--store", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--now", default=NOW.isoformat(), help=argparse.SUPPRESS)
    parser.add_argument("--baseline", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.baseline:
        import tasks.maintain.merge
        import tasks.maintain.upkeep  # noqa: F401

        print(json.dumps({"peak_rss_mb": round(peak_rss_mb())}))
        return
    if args.run_pass:
        run_one(args.store, args.run_pass, args.now)
        return
    root = Path(args.dir or tempfile.mkdtemp(prefix="maintain-bench-"))
    if args.rows:
        store = str(root / f"store-{args.rows}")
        print(f"building {args.rows:,} memories of {args.users:,} users in {store} ...", flush=True)
        print(f"built in {build(store, args.rows, args.users):.0f} s; {size(store)}", flush=True)
        print(f"baseline (imports only): {baseline_rss()}", flush=True)
        for name in args.passes.split(","):
            print(json.dumps(_child("--run-pass", name, "--store", store, "--now", args.now)), flush=True)
        print(f"after the passes: {size(store)}", flush=True)
    if args.ingest_runs:
        store = str(root / "store-ingest")
        seconds = ingest_runs(store, args.ingest_runs)
        before = size(store)
        later = (datetime.now(UTC) + timedelta(days=8)).isoformat()
        upkeep = _child("--run-pass", "upkeep", "--store", store, "--now", later)
        after = size(store)
        print(f"{args.ingest_runs} ingest runs in {seconds:.0f} s; before upkeep {before}")
        print(f"upkeep {json.dumps(upkeep)}; after {after}; bytes after/before {after['bytes'] / before['bytes']:.2f}")


if __name__ == "__main__":
    main()
