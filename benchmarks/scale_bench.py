"""Scale-out figures for docs/scaling.md (issue 66). Prints figures; asserts nothing.

``dask``: LoCoMo-dev ingested by the Prefect flow in-process (one run) and partitioned on Dask with 1, 2
and 4 local workers: seconds, the ratio to in-process, per-partition throughput, whether the tables are
identical; then bytes per memory and per evidence row of the store.

``writers``: ``--reps`` times, two ingest processes (``memory-pipeline ingest`` through ``python -m
flows.cli``, each with its own lock folder, as on two machines) write the same sessions to one ``s3://``
store on moto's S3 server at once; counts lost and duplicated rows and failed runs against a clean run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "data" / "sessions"
LOCOMO = REPO.parent / "shared" / "datasets" / "locomo-dev"
sys.path.insert(0, str(REPO))
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")

from tasks.settings import Settings  # noqa: E402
from tasks.store.tables import EPISODES, EVIDENCE, KEYS, LEDGER, MEMORIES, open_store  # noqa: E402

TEXTS = {MEMORIES: "content", EPISODES: "summary", EVIDENCE: "text", LEDGER: "content_hash"}


def tables(settings: Settings) -> dict[str, list[tuple[str, Any]]]:
    store = open_store(settings)
    return {name: sorted((r[KEYS[name]], r[col]) for r in store.rows(name)) for name, col in TEXTS.items()}


def locomo_folder(out: Path) -> Path:
    """LoCoMo-dev's sessions as one JSONL file (the files source reads it back as the same sessions)."""
    from evaluation.locomo import load_locomo

    out.mkdir(parents=True, exist_ok=True)
    with (out / "locomo.jsonl").open("w", encoding="utf-8") as handle:
        for session in load_locomo(LOCOMO).sessions:
            handle.write(session.model_dump_json() + "\n")
    return out


def folder_bytes(path: Path, table: str) -> int:
    return sum(f.stat().st_size for f in (path / f"{table}.lance" / "data").glob("*.lance"))


def bench_dask(workers: list[int]) -> None:
    from prefect.testing.utilities import prefect_test_harness

    from flows.ingest import IngestParams, ingest_flow

    tmp = Path(tempfile.mkdtemp(prefix="scale-bench-"))
    sessions = locomo_folder(tmp / "sessions")
    with prefect_test_harness(server_startup_timeout=180):
        started = time.perf_counter()
        ingest_flow(IngestParams(sessions_uri=str(sessions), store_uri=str(tmp / "plain")))
        plain_seconds = time.perf_counter() - started
        plain = Settings(store_uri=str(tmp / "plain"))
        print(f"in-process (one run): {plain_seconds:.1f} s")
        reference = tables(plain)
        for n in workers:
            os.environ.update({"MEMORY_PIPELINE_TASK_RUNNER": "dask", "MEMORY_PIPELINE_DASK_WORKERS": str(n),
                               "MEMORY_PIPELINE_PARTITION_BUCKETS": "16"})  # fmt: skip
            store = tmp / f"dask{n}"
            started = time.perf_counter()
            summary = ingest_flow(IngestParams(sessions_uri=str(sessions), store_uri=str(store)))
            seconds = time.perf_counter() - started
            for name in ("MEMORY_PIPELINE_TASK_RUNNER", "MEMORY_PIPELINE_DASK_WORKERS",
                         "MEMORY_PIPELINE_PARTITION_BUCKETS"):  # fmt: skip
                os.environ.pop(name)
            same = tables(Settings(store_uri=str(store))) == reference
            parts = [(p.partition_id, p.sessions, p.seconds, p.worker, p.embedder_loads) for p in summary.partitions]
            per = [p.sessions / p.seconds for p in summary.partitions if p.seconds]
            print(f"dask {n} workers: {seconds:.1f} s, {seconds / plain_seconds:.2f}x in-process, "
                  f"identical tables: {same}, partitions: {len(parts)}, "
                  f"sessions/s per partition (mean): {sum(per) / max(len(per), 1):.2f}")  # fmt: skip
            for part in parts:
                print("   ", part)
    rows = {name: len(reference[name]) for name in (MEMORIES, EVIDENCE)}
    for name in (MEMORIES, EVIDENCE):
        size = folder_bytes(tmp / "plain", name)
        print(f"{name}: {rows[name]} rows, {size} bytes of data files, {size / max(rows[name], 1):.0f} bytes/row")


def _ingest_cmd(sessions: Path, uri: str) -> list[str]:
    return [sys.executable, "-m", "flows.cli", "ingest", "--sessions", str(sessions), "--store", uri, "--json"]


def bench_writers(reps: int, buckets: int) -> None:
    import boto3
    from moto.server import ThreadedMotoServer

    from tests.s3_server import atomic_conditional_puts

    atomic_conditional_puts()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    options = {"aws_access_key_id": "test", "aws_secret_access_key": "test", "aws_endpoint": endpoint,
               "aws_region": "us-east-1", "allow_http": "true"}  # fmt: skip
    boto3.client("s3", endpoint_url=endpoint, aws_access_key_id="test", aws_secret_access_key="test",
                 region_name="us-east-1").create_bucket(Bucket="bench")  # fmt: skip
    tmp = Path(tempfile.mkdtemp(prefix="writers-bench-"))
    reference = Settings(store_uri=str(tmp / "clean"), sessions_uri=str(SAMPLE))
    from tasks.ingest.run import run_ingest

    run_ingest(reference)
    expected = tables(reference)
    lost = duplicated = failed = 0
    for rep in range(reps):
        uri = f"s3://bench/rep{rep}"
        procs = []
        for host_no in range(2):
            env = {**os.environ, "MEMORY_PIPELINE_STORAGE_OPTIONS": json.dumps(options),
                   "MEMORY_PIPELINE_LOCK_DIR": str(tmp / f"host{host_no}"),
                   "MEMORY_PIPELINE_PARTITION_BUCKETS": str(buckets)}  # fmt: skip
            procs.append(subprocess.Popen(_ingest_cmd(SAMPLE, uri), cwd=REPO, env=env, stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE, text=True))  # fmt: skip
        codes = [p.wait(timeout=900) for p in procs]
        failed += sum(1 for c in codes if c != 0)
        for p, c in zip(procs, codes, strict=True):
            if c:
                print(f"rep {rep}: a run failed: {p.stderr.read()[-600:]}")  # type: ignore[union-attr]
        settings = Settings(store_uri=uri, storage_options=options)  # type: ignore[arg-type]
        got = tables(settings)
        rep_lost = rep_dup = 0
        for name, rows in expected.items():
            keys = Counter(k for k, _ in got[name])
            rep_lost += sum(1 for k, _ in rows if k not in keys)
            rep_dup += sum(n - 1 for n in keys.values() if n > 1)
        lost, duplicated = lost + rep_lost, duplicated + rep_dup
        print(f"rep {rep}: exit codes {codes}, lost {rep_lost}, duplicated {rep_dup}", flush=True)
    print(f"{reps} repetitions: {lost} lost, {duplicated} duplicated, {failed} failed runs")
    server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    dask = sub.add_parser("dask")
    dask.add_argument("--workers", default="1,2,4")
    writers = sub.add_parser("writers")
    writers.add_argument("--reps", type=int, default=20)
    writers.add_argument("--buckets", type=int, default=4, help="partition_buckets of each ingest (0: one run)")
    args = parser.parse_args()
    if args.what == "dask":
        bench_dask([int(n) for n in args.workers.split(",")])
    else:
        bench_writers(args.reps, args.buckets)


if __name__ == "__main__":
    main()
