"""``memory-pipeline``: a thin command line over the same functions the flows call.

Each group of subcommands lives in its own ``flows/cli_*.py`` module exposing
``register(subparsers)``; handlers are ``fn(args) -> exit code``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from flows.cli_common import prefect_defaults
from tasks.errors import PipelineError

#: Modules that add subcommands, in help order.
SUBCOMMAND_MODULES = (
    "flows.cli_ingest",
    "flows.cli_recall",
    "flows.cli_memories",
    "flows.cli_evaluate",
    "flows.cli_maintain",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="memory-pipeline", description=__doc__.splitlines()[0])
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    prefect_defaults()
    args = build_parser().parse_args(argv)
    try:
        code: int = args.handler(args)
    except PipelineError as exc:
        print(f"memory-pipeline: error: {exc}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":
    sys.exit(main())
