"""``memory-pipeline recall``: query one user's memories from the shell (hits or a context block)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from flows.cli_common import add_store_arg, parse_time, print_json, settings_from_args
from tasks.recall.context import format_context
from tasks.recall.recaller import Recaller
from tasks.store.tables import open_existing_store


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "recall", help="recall a user's memories for a query", description=__doc__
    )
    parser.add_argument("query", metavar="QUERY", help="what to look for")
    parser.add_argument("--app", required=True, help="app name (tenant)")
    parser.add_argument("--user", required=True, help="user id (tenant)")
    parser.add_argument("--k", type=int, default=None, help="number of hits (default: settings.recall_k)")
    parser.add_argument("--topic", action="append", default=None, help="only these topics (repeatable)")
    parser.add_argument("--since", type=parse_time, default=None, help="stated at or after (ISO-8601)")
    parser.add_argument("--until", type=parse_time, default=None, help="stated at or before (ISO-8601)")
    parser.add_argument("--as-of", dest="as_of", type=parse_time, default=None, help="memories valid at (ISO)")
    parser.add_argument(
        "--now", type=parse_time, default=None, help="when the question is asked: 'last week' is read against it (ISO)"
    )
    parser.add_argument("--no-episodes", action="store_true", help="memories only, no episode summaries")
    parser.add_argument(
        "--rerank", action="store_true", help="rerank the best candidates with the cross-encoder (0.1-0.5 s, 2 cores)"
    )
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print hits as JSON")
    output.add_argument("--context", action="store_true", help="print the prompt context block")
    parser.add_argument("--max-tokens", type=int, default=None, help="budget of --context (default: settings)")
    add_store_arg(parser)
    parser.set_defaults(handler=run_recall)


def run_recall(args: argparse.Namespace) -> int:
    settings = settings_from_args(args)
    if args.rerank:
        settings = settings.model_copy(update={"recall_reranker": "cross-encoder"})
    with Recaller(settings, store=open_existing_store(settings)) as recaller:
        result = recaller.recall_result(
            args.query,
            args.app,
            args.user,
            k=args.k,
            topics=args.topic,
            since=args.since,
            until=args.until,
            as_of=args.as_of,
            now=args.now,
            include_episodes=False if args.no_episodes else None,
        )
    hits = result.hits
    said = result.evidence  # the verbatim turns beside the memories (issue 70)
    if result.searched_as:  # said apart from the output, which may be piped as JSON
        print(f"searched as: {result.searched_as}", file=sys.stderr)
    if args.json:
        print_json([hit.model_dump(mode="json") for hit in [*hits, *said]])
    elif args.context:
        budget = settings.context_max_tokens if args.max_tokens is None else args.max_tokens
        print(format_context(hits, budget, evidence=said))
    else:
        for hit in [*hits, *said]:
            when = (hit.stated_at or hit.created_at).date().isoformat()
            print(f"{hit.score:.3f}  {when}  [{hit.topic}]  {hit.content}  ({hit.kind} {hit.id})")
    return 0
