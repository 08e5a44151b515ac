"""LLM ingest cost and concurrency: LoCoMo-dev through the local OpenAI-compatible stub with injected latency.

Every provider is "openai" and points at tests/llm_stub.py, which waits ``--latency`` seconds per request
and answers plausibly from the prompt (one fact per person turn, ADD decisions, bag-of-words vectors).
The bench only calls ``tasks.ingest.run.ingest_sessions``: any concurrency comes from the ingest and
provider layers. Prints calls and tokens per session, how many consolidation decisions went out ahead of
their turn (and how many had to be made again), and the concurrency ratio (sum of the latencies of all
requests / wall time); asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import logging
import multiprocessing
import tempfile
import time
import urllib.request
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event
from pathlib import Path

from pydantic import SecretStr

from evaluation.locomo import load_locomo
from evaluation.runner import DEFAULT_LOCOMO
from tasks.ingest.run import ingest_sessions
from tasks.models import Session
from tasks.settings import Settings
from tests.llm_stub import LLMStub, plausible_chat


class ScheduleLog(logging.Handler):
    """Sums the consolidation schedule's per-user counts (facts, requested, ahead, kept, made again)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.totals = [0, 0, 0, 0, 0]

    def emit(self, record: logging.LogRecord) -> None:
        if isinstance(record.args, tuple) and len(record.args) == 5:
            self.totals = [a + int(b) for a, b in zip(self.totals, record.args, strict=True)]  # type: ignore[call-overload]


def serve(latency: float, dim: int, ready: Queue[str], stop: Event) -> None:
    """The stub in its own process, so that its work (JSON, token counts) does not slow the pipeline's."""
    stub = LLMStub(chat_default=plausible_chat, latency=latency, dim=dim).start()
    ready.put(stub.base_url)
    stop.wait()
    stub.stop()


def run(sessions: list[Session], args: argparse.Namespace, label: str) -> None:
    """Ingest ``sessions`` into a fresh store through a fresh stub; print cost and concurrency."""
    spawn = multiprocessing.get_context("spawn")  # no fork of a process that runs Lance and tokenizer threads
    ready: Queue[str] = spawn.Queue()
    stop = spawn.Event()
    server = spawn.Process(target=serve, args=(args.latency, args.dim, ready, stop), daemon=True)
    server.start()
    base_url = ready.get(timeout=60)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            settings = Settings(
                store_uri=str(Path(tmp) / "store"), openai_base_url=base_url, openai_api_key=SecretStr("bench"),
                extractor="openai", summarizer="openai", consolidator="openai", embedder="openai",
                openai_embedding_model="stub-embed", openai_max_in_flight=args.in_flight,
            )  # fmt: skip
            schedule = ScheduleLog()
            logging.getLogger("tasks.consolidate.schedule").addHandler(schedule)
            logging.getLogger("tasks.consolidate.schedule").setLevel(logging.INFO)
            started = time.perf_counter()
            try:
                summary = ingest_sessions(sessions, settings)
            finally:
                logging.getLogger("tasks.consolidate.schedule").removeHandler(schedule)
            wall = time.perf_counter() - started
        with urllib.request.urlopen(f"{base_url}/stats") as response:
            stats = json.loads(response.read())
    finally:
        stop.set()
        server.join(timeout=10)
    n = len(sessions)
    users = len({(s.app_name, s.user_id) for s in sessions})
    requests = stats["requests"]
    sequential = requests * args.latency
    turns = sum(len(s.events) for s in sessions)
    print(f"== {label}: {n} sessions of {users} users ({turns} turns)")
    print(f"facts: {summary.facts_extracted}, memory rows: {summary.memories_written}, actions: {summary.actions}, "
          f"quarantined: {summary.sessions_quarantined}")  # fmt: skip
    print(f"requests: {requests} ({stats['by_path']}), most in flight at once: {stats['peak']}")
    print("per session, by provider (calls / prompt tokens / completion tokens):")
    for provider, usage in summary.llm_usage.items():
        print(f"  {provider:13s} {usage['calls'] / n:6.2f} / {usage['prompt_tokens'] / n:8.0f} / "
              f"{usage['completion_tokens'] / n:7.0f}")  # fmt: skip
    calls = sum(u["calls"] for u in summary.llm_usage.values())
    prompt = sum(u["prompt_tokens"] for u in summary.llm_usage.values())
    completion = sum(u["completion_tokens"] for u in summary.llm_usage.values())
    print(f"  {'all':13s} {calls / n:6.2f} / {prompt / n:8.0f} / {completion / n:7.0f}")
    facts, requested, ahead, kept, redone = schedule.totals
    print(f"consolidation schedule: {requested} decisions for {facts} facts, {ahead} of them requested ahead of "
          f"their turn; {kept} used as requested, {redone} made again because the request had changed")  # fmt: skip
    print(f"wall: {wall:.1f} s; sequential sum of latencies: {sequential:.1f} s ({requests} x "
          f"{args.latency * 1000:.0f} ms); concurrency ratio: {sequential / wall:.1f}x at in-flight bound "
          f"{args.in_flight}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--path", type=Path, default=DEFAULT_LOCOMO)
    parser.add_argument("--latency", type=float, default=0.3, help="seconds added to every request")
    parser.add_argument("--in-flight", type=int, default=Settings().openai_max_in_flight)
    parser.add_argument("--dim", type=int, default=256, help="dimension of the stub's embeddings")
    parser.add_argument("--scenario", choices=["locomo", "tenants", "both"], default="both")
    args = parser.parse_args()
    if not args.path.is_dir():
        raise SystemExit(f"LoCoMo dev conversations not found at {args.path} (they live in ../shared)")
    sessions = list(load_locomo(args.path).sessions)
    if args.scenario in ("locomo", "both"):
        run(sessions, args, "LoCoMo-dev as is (one user per conversation)")
    if args.scenario in ("tenants", "both"):
        # A backfill's shape: many users with a few sessions each (here: each session its own user).
        tenants = [s.model_copy(update={"user_id": f"{s.user_id}-{s.session_id}"}) for s in sessions]
        run(tenants, args, "LoCoMo-dev sessions as separate users (backfill shape)")


if __name__ == "__main__":
    main()
