"""``memory-pipeline ingest``: one ingest run on a session source, directly or as the Prefect flow."""

from __future__ import annotations

import argparse
from typing import Any

from flows.cli_common import add_prefect_arg, add_store_arg, log_to_stderr, print_json, use_prefect
from tasks.ingest.run import run_ingest
from tasks.settings import load_settings


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser("ingest", help="ingest ended sessions into the store")
    parser.add_argument("--sessions", default=None, help="folder or file of session JSONL (default: settings)")
    add_store_arg(parser)
    add_prefect_arg(parser)
    parser.add_argument("--json", action="store_true", help="print the run summary as JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if use_prefect(args.prefect):
        from flows.ingest import IngestParams, ingest_flow

        summary = ingest_flow(IngestParams(sessions_uri=args.sessions, store_uri=args.store))
    else:
        log_to_stderr()
        summary = run_ingest(load_settings(sessions_uri=args.sessions, store_uri=args.store))
    if args.json:
        print_json(summary)
    else:
        print(
            f"run {summary.run_id}: {summary.sessions_seen} sessions seen, {summary.sessions_processed} processed, "
            f"{summary.sessions_skipped} already done, {summary.sessions_quarantined} quarantined; "
            f"{summary.facts_extracted} facts, {summary.memories_written} memory rows written {summary.actions}"
        )
    return 0
