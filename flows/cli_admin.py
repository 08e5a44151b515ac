"""``forget``, ``edit``, ``delete``, ``export``, ``import``, ``runs`` and ``quarantine``: user and operator control."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from flows.cli_common import add_store_arg, log_to_stderr, print_json, settings_from_args
from tasks.control.edit import delete_memory, edit_memory
from tasks.control.forget import forget
from tasks.control.ops import list_quarantine, list_runs, retry_quarantine
from tasks.control.transfer import export_store, import_export
from tasks.store.tables import open_existing_store


def cmd_forget(args: argparse.Namespace) -> int:
    report = forget(settings_from_args(args), args.app, args.user, args.memory)
    what = f"memory {args.memory}" if args.memory else f"user {args.user!r} of app {args.app!r}"
    print(f"erased {what}: {len(report.memories)} memories ({report.memory_rows} rows), "
          f"{report.episodes_deleted} episodes deleted, {report.episodes_scrubbed} scrubbed, "
          f"{report.audit_nulled} audit entries emptied, {report.quarantine_deleted} quarantined lines; "
          f"old versions removed {report.versions_removed}")  # fmt: skip
    if report.runs_blocked:
        print(f"runs that can no longer be rolled back: {', '.join(report.runs_blocked)}")
    return 0


def cmd_edit(args: argparse.Namespace) -> int:
    row = edit_memory(settings_from_args(args), args.id, args.text, args.reason)
    print(f"{row.row_id}: {row.memory_id} v{row.version} [{row.topic}] {row.content}")
    return 0


def cmd_delete(args: argparse.Namespace) -> int:
    row = delete_memory(settings_from_args(args), args.id, args.reason)
    print(f"{row.row_id}: {row.memory_id} v{row.version} deleted ({row.status_reason})")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    store = open_existing_store(settings_from_args(args))
    counts = export_store(store, args.out, args.app, args.user, args.format)
    print(f"exported to {args.out}: " + ", ".join(f"{n} {t}" for t, n in counts.items()))
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    counts = import_export(settings_from_args(args), args.path)
    print(f"imported {args.path}: " + ", ".join(f"{n} {t}" for t, n in counts.items()))
    return 0


def cmd_runs(args: argparse.Namespace) -> int:
    runs = list_runs(open_existing_store(settings_from_args(args)))
    if args.json:
        print_json(runs)
        return 0
    for run in runs:
        counts = run["counts"]
        shown = {k: counts[k] for k in ("sessions_processed", "memories_written", "changes_written") if k in counts}
        state = "rolled back" if run["rolled_back"] else run["status"]
        blocked = f"; cannot roll back: {run['rollback_blocked']}" if run.get("rollback_blocked") else ""
        print(f"{run['run_id']}  {run['flow']:<7} {run['started_at']:%Y-%m-%d %H:%M:%S}  {state}  "
              f"{shown or counts}{blocked}")  # fmt: skip
    return 0


def cmd_quarantine(args: argparse.Namespace) -> int:
    settings = settings_from_args(args)
    if args.retry:
        log_to_stderr()
        totals = retry_quarantine(settings)
        print(", ".join(f"{k.replace('_', ' ')}: {v}" for k, v in totals.items()))
        return 0
    rows = list_quarantine(open_existing_store(settings))
    if args.json:
        print_json(rows)
        return 0
    for row in rows:
        print(f"{row['source']}:{row['line']}  {row['reason']}")
    print(f"{len(rows)} quarantined")
    return 0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the user and operator control subcommands."""
    p = subparsers.add_parser("forget", help="erase a user (or one memory) from every table and old version")
    p.add_argument("--app", required=True)
    p.add_argument("--user", required=True)
    p.add_argument("--memory", default=None, help="memory id or row id (default: everything of the user)")
    _finish(p, cmd_forget)

    p = subparsers.add_parser("edit", help="correct a memory: a new, audited version")
    p.add_argument("id", help="memory id or row id")
    p.add_argument("text", help="the corrected text")
    p.add_argument("--reason", default="corrected by the user")
    _finish(p, cmd_edit)

    p = subparsers.add_parser("delete", help="close a memory as deleted (audited; its text is purged later)")
    p.add_argument("id", help="memory id or row id")
    p.add_argument("--reason", default="deleted by the user")
    _finish(p, cmd_delete)

    p = subparsers.add_parser("export", help="write an app's (or user's) memories, episodes and audit log")
    p.add_argument("--app", required=True)
    p.add_argument("--user", default=None)
    p.add_argument("--format", choices=("parquet", "jsonl"), default="parquet")
    p.add_argument("--out", type=Path, required=True, help="folder to write")
    _finish(p, cmd_export)

    p = subparsers.add_parser("import", help="merge an export folder into the store (same ids)")
    p.add_argument("path", type=Path)
    _finish(p, cmd_import)

    p = subparsers.add_parser("runs", help="every run with its counts and whether it was rolled back")
    p.add_argument("--json", action="store_true")
    _finish(p, cmd_runs)

    p = subparsers.add_parser("quarantine", help="what could not be ingested, and why")
    p.add_argument("--retry", action="store_true", help="re-read the sources and ingest what now validates")
    p.add_argument("--json", action="store_true")
    _finish(p, cmd_quarantine)


def _finish(parser: argparse.ArgumentParser, handler: Any) -> None:
    add_store_arg(parser)
    parser.set_defaults(handler=handler)
