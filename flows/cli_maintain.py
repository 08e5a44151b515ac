"""``memory-pipeline maintain | backfill | serve | reembed``: maintenance, ranges of history, schedules, models.

``maintain`` and ``backfill`` run the plain functions directly unless a Prefect API is configured
(or ``--prefect`` is given), as ``ingest`` does; ``serve`` always needs Prefect.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from typing import Any

from flows.cli_common import add_prefect_arg, add_store_arg, log_to_stderr, parse_time, print_json, use_prefect
from tasks.maintain import PASSES
from tasks.settings import load_settings


def register(subparsers: Any) -> None:
    m: argparse.ArgumentParser = subparsers.add_parser("maintain", help="run maintenance passes (TTL, decay, ...)")
    m.add_argument("--app", default=None, help="only this app's memories")
    m.add_argument("--user", default=None, help="only this user's memories")
    m.add_argument("--pass", dest="passes", action="append", choices=PASSES,
                   help="a pass to run (repeatable; default: all, in order)")  # fmt: skip
    m.add_argument("--dry-run", action="store_true", help="report what would change, write nothing")
    m.add_argument("--now", type=parse_time, default=None, help="evaluate TTL and decay at this ISO time")
    m.add_argument("--json", action="store_true", help="print the pass reports as JSON")
    add_store_arg(m)
    add_prefect_arg(m)
    m.set_defaults(handler=run_maintain)

    b: argparse.ArgumentParser = subparsers.add_parser("backfill", help="ingest the sessions of a time range")
    b.add_argument("--from", dest="start", type=parse_time, required=True, help="sessions ended at or after (ISO)")
    b.add_argument("--to", dest="end", type=parse_time, required=True, help="sessions ended before (ISO)")
    b.add_argument("--app", default=None)
    b.add_argument("--user", default=None)
    b.add_argument("--dry-run", action="store_true", help="count what would be ingested")
    b.add_argument("--sessions", default=None, help="folder or file of sessions (default: settings)")
    b.add_argument("--batch-size", type=int, default=None, help="sessions per ingest run (default: settings)")
    b.add_argument("--json", action="store_true")
    add_store_arg(b)
    add_prefect_arg(b)
    b.set_defaults(handler=run_backfill_cmd)

    s: argparse.ArgumentParser = subparsers.add_parser("serve", help="serve prefect.yaml's schedules in one process")
    s.add_argument("--only", action="append", default=None, help="a deployment name to serve (repeatable)")
    s.set_defaults(handler=run_serve)

    r: argparse.ArgumentParser = subparsers.add_parser("reembed", help="re-embed the store with another model")
    r.add_argument("--model", required=True, help="embedding model name (the OpenAI model with --embedder openai)")
    r.add_argument("--embedder", choices=("local", "openai"), default="openai", help="provider of the new model")
    r.add_argument("--batch-rows", type=int, default=2048)
    add_store_arg(r)
    r.set_defaults(handler=run_reembed)


def run_maintain(args: argparse.Namespace) -> int:
    passes = list(args.passes or PASSES)
    if use_prefect(args.prefect):
        from flows.maintain import MaintainParams, maintain_flow

        reports = maintain_flow(MaintainParams(app=args.app, user=args.user, dry_run=args.dry_run, now=args.now,
                                               store_uri=args.store, passes=passes))  # fmt: skip
    else:
        from tasks.maintain import run_passes

        log_to_stderr()
        settings = load_settings(store_uri=args.store)
        reports = run_passes(settings, tuple(passes), now=args.now, app=args.app, user=args.user, dry_run=args.dry_run)
    if args.json:
        print_json(reports)
    else:
        for report in reports:
            print(report.summary())
    return 0


class _Bar:
    """A one-line progress bar on stderr (a terminal only; plain lines otherwise)."""

    def __call__(self, done: int, total: int) -> None:
        width = 30
        filled = width * done // total if total else width
        line = f"backfill [{'#' * filled}{'.' * (width - filled)}] {done}/{total} sessions"
        end = "\r" if sys.stderr.isatty() and done < total else "\n"
        sys.stderr.write(line + end)
        sys.stderr.flush()


def run_backfill_cmd(args: argparse.Namespace) -> int:
    if use_prefect(args.prefect):
        from flows.backfill import BackfillParams, backfill_flow

        report = backfill_flow(BackfillParams(start=args.start, end=args.end, app=args.app, user=args.user,
                                              dry_run=args.dry_run, sessions_uri=args.sessions, store_uri=args.store,
                                              batch_size=args.batch_size))  # fmt: skip
    else:
        from tasks.maintain.backfill import run_backfill

        settings = load_settings(sessions_uri=args.sessions, store_uri=args.store,
                                 backfill_batch_size=args.batch_size)  # fmt: skip
        report = run_backfill(settings, start=args.start, end=args.end, app=args.app, user=args.user,
                              dry_run=args.dry_run, progress=_Bar())  # fmt: skip
    if args.json:
        print_json(report)
    else:
        verb = "would ingest" if report.dry_run else "ingested"
        print(f"backfill {_day(report.start)}..{_day(report.end)}: {report.sessions_in_range} sessions in range, "
              f"{report.already_done} already done, {verb} {report.to_process if report.dry_run else report.processed} "
              f"in {report.batches} runs; {report.memories_written} memory rows written")  # fmt: skip
    return 0


def _day(value: datetime) -> str:
    return value.isoformat()


def run_serve(args: argparse.Namespace) -> int:
    from flows.serve import serve_all

    serve_all(only=args.only)
    return 0


def run_reembed(args: argparse.Namespace) -> int:
    from tasks.maintain.reembed import reembed
    from tasks.providers import build_embedder

    log_to_stderr()
    settings = load_settings(store_uri=args.store)
    target = load_settings(store_uri=args.store, embedder=args.embedder,
                           **({"openai_embedding_model": args.model} if args.embedder == "openai"
                              else {"embedding_model": args.model}))  # fmt: skip
    embedder = build_embedder(target)

    def progress(table: str, done: int, total: int) -> None:
        sys.stderr.write(f"reembed {table}: {done}/{total}\r" if done < total else f"reembed {table}: {done}/{total}\n")

    report = reembed(settings, embedder, batch_rows=args.batch_rows, progress=progress)
    print_json(report)
    print(f"switched to {report.model_after} (dim {report.dim_after}); set MEMORY_PIPELINE_EMBEDDER={args.embedder} "
          "and the model in settings, then restart recall processes", file=sys.stderr)  # fmt: skip
    return 0
