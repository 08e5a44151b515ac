"""Peak memory (max RSS) of an ingest of the LoCoMo-dev sessions, and where it grows, stage by stage.

Each measurement runs in a fresh subprocess (max RSS only ever grows, so one process per figure),
which ingests into a temporary store through the one ingest sequence with each stage wrapped to
record ``ru_maxrss`` after it. Prints figures; asserts nothing. Target (issue 14): peak < 1 GB.

    python -m benchmarks.ingest_memory [--path ../shared/datasets/locomo-dev] [--limit N]
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DEFAULT_PATH = REPO.parent / "shared" / "datasets" / "locomo-dev"


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


def _child(path: str, limit: int | None) -> None:
    """Runs in the subprocess: ingest and print one JSON line of max-RSS checkpoints (MB)."""
    marks: dict[str, float] = {"start": _rss_mb()}
    from evaluation.locomo import load_locomo
    from tasks.ingest.run import Stages, run_ingest
    from tasks.settings import Settings

    marks["imports"] = _rss_mb()
    sessions = load_locomo(Path(path), limit=limit).sessions
    marks["sessions loaded"] = _rss_mb()
    base = Stages()

    def mark(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapped(*args: Any) -> Any:
            out = fn(*args)
            marks[f"after {name}"] = _rss_mb()
            return out

        return wrapped

    stages = Stages(
        select=mark("select", base.select), extract=mark("extract", base.extract),
        embed=mark("embed", base.embed), write=mark("write", base.write),
    )  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        summary = run_ingest(Settings(store_uri=tmp), stages=stages, sessions=sessions)
        seconds = time.perf_counter() - started
    print(json.dumps({"marks": marks, "sessions": len(sessions), "seconds": seconds,
                      "memories": summary.memories_written, "facts": summary.facts_extracted}))  # fmt: skip


def measure(path: Path, limit: int | None, env: dict[str, str] | None = None) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "benchmarks.ingest_memory", "--child", "--path", str(path)]
    if limit:
        cmd += ["--limit", str(limit)]
    proc = subprocess.run(cmd, cwd=REPO, env={**os.environ, **(env or {})}, capture_output=True, text=True,
                          check=True)  # fmt: skip
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--path", default=str(DEFAULT_PATH))
    parser.add_argument("--limit", type=int, default=None, help="only the first N conversations")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--env", action="append", default=[], help="extra KEY=VALUE for the measured process")
    args = parser.parse_args()
    if args.child:
        _child(args.path, args.limit)
        return
    if not Path(args.path).is_dir():
        print(f"LoCoMo-dev not found at {args.path}; nothing measured")
        return
    env = dict(item.split("=", 1) for item in args.env)
    # The finding: the embed stage's growth is onnxruntime's arena holding the activations of the
    # largest batch (64 long texts: attention is batch x 12 heads x 256^2 floats); smaller batches cap it.
    variants = [env] if env else [{}, {"MEMORY_PIPELINE_EMBEDDING_BATCH_SIZE": "16"}]
    for variant in variants:
        _report(measure(Path(args.path), args.limit, variant), variant)
    print(f"one session of 10,000 events: {_big_session_seconds():.1f} s to ingest (fresh store, model loaded)")


def _report(result: dict[str, Any], env: dict[str, str]) -> None:
    print(f"ingest of {result['sessions']} LoCoMo-dev sessions: {result['seconds']:.1f} s, "
          f"{result['facts']} facts, {result['memories']} memory rows" + (f" (env {env})" if env else ""))  # fmt: skip
    previous = 0.0
    for name, mb in result["marks"].items():
        print(f"  max RSS {name:<18} {mb:8.1f} MB  (+{mb - previous:.1f})")
        previous = mb
    peak = max(result["marks"].values())
    print(f"peak {peak:.0f} MB; target < 1024 MB: {'met' if peak < 1024 else 'NOT met'} ({peak / 1024:.2f} of 1 GB)")


def _big_session_seconds() -> float:
    from datetime import UTC, datetime, timedelta

    from tasks.ingest.run import ingest_sessions
    from tasks.models import Event, Session
    from tasks.providers import build_embedder
    from tasks.settings import Settings

    start = datetime(2025, 3, 1, tzinfo=UTC)
    events = tuple(
        Event(id=f"e{i}", author="user" if i % 2 == 0 else "assistant", role="user" if i % 2 == 0 else "agent",
              text=f"I visited museum number {i} today." if i % 50 == 0 else "ok",
              timestamp=start + timedelta(seconds=i))
        for i in range(10_000)
    )  # fmt: skip
    session = Session(app_name="bench", user_id="u", session_id="big", started_at=start,
                      ended_at=start + timedelta(seconds=10_000), events=events)  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(store_uri=tmp)
        build_embedder(settings)
        started = time.perf_counter()
        ingest_sessions([session], settings)
        return time.perf_counter() - started


if __name__ == "__main__":
    main()
