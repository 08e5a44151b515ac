"""``memory-pipeline``: a thin command line over the same functions the flows call.

Each group of subcommands lives in its own ``flows/cli_*.py`` module exposing
``register(subparsers)``; handlers are ``fn(args) -> exit code``. Every error ends as one line on
stderr: exit 2 for a usage error (argparse, a bad value on the command line), 1 for a failure;
``--debug`` (anywhere on the line) shows the traceback instead.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from pydantic import ValidationError

from flows.cli_common import prefect_defaults
from tasks.errors import InvalidFilterError

#: Modules that add subcommands, in help order.
SUBCOMMAND_MODULES = (
    "flows.cli_ingest",
    "flows.cli_recall",
    "flows.cli_memories",
    "flows.cli_admin",
    "flows.cli_evaluate",
    "flows.cli_maintain",
    "flows.cli_api",
)
#: Errors caused by what was typed (exit 2); everything else that fails is exit 1.
USAGE_ERRORS: tuple[type[BaseException], ...] = (InvalidFilterError,)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="memory-pipeline", description=__doc__.splitlines()[0])
    parser.add_argument("--debug", action="store_true", help="show tracebacks of errors")
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def describe(exc: BaseException) -> str:
    """One line saying what went wrong (pydantic's multi-line validation report folded)."""
    if isinstance(exc, ValidationError):
        parts = [f"{'.'.join(str(p) for p in e['loc']) or exc.title}: {e['msg']}" for e in exc.errors()]
        return f"invalid {exc.title}: " + "; ".join(parts)
    return " ".join(str(exc).split()) or type(exc).__name__


def main(argv: Sequence[str] | None = None) -> int:
    prefect_defaults()
    words = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in words
    args = build_parser().parse_args([w for w in words if w != "--debug"])
    try:
        code: int = args.handler(args)
    except KeyboardInterrupt:
        print("memory-pipeline: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        if debug:
            raise
        print(f"memory-pipeline: error: {describe(exc)}", file=sys.stderr)
        return 2 if isinstance(exc, USAGE_ERRORS) else 1
    return code


if __name__ == "__main__":
    sys.exit(main())
