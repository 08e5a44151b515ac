"""``history``, ``memories`` and ``rollback``: read a user's memories over time and undo a run.

Reads never load the embedding model: the store only needs its name and dimension to check the
tables were built with the configured embedder.
"""

from __future__ import annotations

import argparse
from typing import Any

from flows.cli_common import add_store_arg, parse_time, print_json, settings_from_args
from tasks.consolidate.history import list_memories, memory_history, rollback
from tasks.rows import MemoryRow
from tasks.store.tables import open_existing_store


def _public(row: MemoryRow) -> dict[str, Any]:
    """A memory row for display: the 384 floats of its vector help nobody."""
    return row.model_dump(mode="json", exclude={"vector"})


def _span(row: MemoryRow) -> str:
    end = row.valid_to.isoformat(timespec="seconds") if row.valid_to else "open"
    return f"[{row.valid_from.isoformat(timespec='seconds')} → {end})"


def _line(row: MemoryRow) -> str:
    link = f" supersedes={row.supersedes}" if row.supersedes else ""
    return (
        f"{row.memory_id} v{row.version} {row.status:<10} {row.relation:<11} {_span(row)}"
        f" confirmations={row.confirmations}{link}\n    [{row.topic}] {row.content}"
    )


def cmd_history(args: argparse.Namespace) -> int:
    history = memory_history(open_existing_store(settings_from_args(args)), args.memory_id)
    if args.json:
        print_json(
            {
                "memory_id": history.memory_id,
                "versions": [_public(v) for v in history.versions],
                "changes": [c.model_dump(mode="json") for c in history.changes],
            }
        )
        return 0
    print(f"memory {history.memory_id}: {len(history.versions)} version(s)")
    for version in history.versions:
        print("  " + _line(version).replace("\n", "\n  "))
        if version.status_reason:
            print(f"      reason: {version.status_reason}")
    print(f"changes ({len(history.changes)}):")
    for change in history.changes:
        stamp = change.created_at.isoformat(timespec="seconds")
        where = f"session={change.session_id} run={change.run_id}"
        print(f"  {stamp} {change.action:<6} {change.relation:<11} {where}")
        print(f"      {change.old_content!r} -> {change.new_content!r} ({change.reason})")
    return 0


def cmd_memories(args: argparse.Namespace) -> int:
    rows = list_memories(
        open_existing_store(settings_from_args(args)),
        args.app,
        args.user,
        topic=args.topic,
        include_inactive=args.include_inactive,
        as_of=args.as_of,
    )
    if args.json:
        print_json([_public(r) for r in rows])
        return 0
    when = f" as of {args.as_of.isoformat()}" if args.as_of else ""
    print(f"{len(rows)} memorie(s) for app={args.app!r} user={args.user!r}{when}")
    for row in rows:
        print(_line(row))
    return 0


def cmd_rollback(args: argparse.Namespace) -> int:
    restored = rollback(open_existing_store(settings_from_args(args)), args.run_id, force=args.force)
    if not restored:
        print(f"run {args.run_id} changed no table; marked rolled back")
    for table, version in sorted(restored.items()):
        print(f"{table}: {'emptied' if version == 0 else f'restored to version {version}'}")
    return 0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the history, memories and rollback subcommands."""
    history = subparsers.add_parser("history", help="all versions and audit entries of one memory")
    history.add_argument("memory_id")
    history.add_argument("--json", action="store_true", help="print JSON")
    add_store_arg(history)
    history.set_defaults(handler=cmd_history)

    memories = subparsers.add_parser("memories", help="a user's memories, now or as of a time")
    memories.add_argument("--app", required=True)
    memories.add_argument("--user", required=True)
    memories.add_argument("--topic", default=None)
    memories.add_argument("--include-inactive", action="store_true", help="also closed versions")
    memories.add_argument("--as-of", type=parse_time, default=None, metavar="ISO_TIME", help="what was held true then")
    memories.add_argument("--json", action="store_true", help="print JSON")
    add_store_arg(memories)
    memories.set_defaults(handler=cmd_memories)

    undo = subparsers.add_parser("rollback", help="restore the tables a run changed to their state before it")
    undo.add_argument("run_id")
    undo.add_argument("--force", action="store_true", help="even if later runs changed the same tables")
    add_store_arg(undo)
    undo.set_defaults(handler=cmd_rollback)
