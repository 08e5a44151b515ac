"""``memory-pipeline ingest``: run the ingest flow once on a session source."""

from __future__ import annotations

import argparse
from typing import Any

from flows.cli_common import add_store_arg, print_json


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser("ingest", help="ingest ended sessions into the store")
    parser.add_argument("--sessions", default=None, help="folder or file of session JSONL (default: settings)")
    add_store_arg(parser)
    parser.add_argument("--json", action="store_true", help="print the run summary as JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from flows.ingest import IngestParams, ingest_flow

    summary = ingest_flow(IngestParams(sessions_uri=args.sessions, store_uri=args.store))
    if args.json:
        print_json(summary)
    else:
        print(
            f"run {summary.run_id}: {summary.sessions_seen} sessions seen, {summary.sessions_processed} processed, "
            f"{summary.sessions_skipped} already done, {summary.sessions_quarantined} quarantined; "
            f"{summary.facts_extracted} facts, {summary.memories_written} memory rows written {summary.actions}"
        )
    return 0
