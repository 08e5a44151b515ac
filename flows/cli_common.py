"""Pieces every ``memory-pipeline`` subcommand shares: the --store flag, settings, JSON output."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from datetime import datetime
from typing import Any

from pydantic import BaseModel

from tasks.clock import utc
from tasks.settings import Settings, load_settings


def prefect_defaults() -> None:
    """Defaults for running flows from the command line, before Prefect is first imported.

    The ephemeral API server gets 20 s to start by default, too little on a busy laptop; the
    user's own environment still wins.
    """
    os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "120")
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")


def add_prefect_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--prefect", action="store_true",
        help="run as a Prefect flow (the default when a Prefect API is configured; else the stages run directly)",
    )  # fmt: skip


def use_prefect(requested: bool) -> bool:
    """Run through Prefect when asked, or when a Prefect API is configured (the run then shows in its UI).

    Without one, a flow call would start a temporary server (~19 s); the stages run directly instead,
    with the same sequence, the same ``runs`` row and logs on stderr.
    """
    if requested:
        return True
    from prefect.settings import get_current_settings

    return bool(get_current_settings().api.url)


def log_to_stderr() -> None:
    """Pipeline logs on stderr for direct runs (Prefect runs log through Prefect)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s", "%H:%M:%S"))
    root = logging.getLogger("memory_pipeline")
    root.addHandler(handler)
    root.setLevel(logging.INFO)


def add_store_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--store", default=None, help="Lance URI of the memory store (default: settings)")


def settings_from_args(args: argparse.Namespace, **extra: Any) -> Settings:
    """Settings from env/file with the command's flags on top."""
    return load_settings(store_uri=getattr(args, "store", None), **extra)


def parse_time(value: str) -> datetime:
    """An ISO-8601 time for argparse; naive values are taken as UTC."""
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not an ISO-8601 time: {value!r}") from exc
    return utc(parsed)


def print_json(value: Any) -> None:
    """Print models, lists of models or plain data as JSON (datetimes as ISO strings)."""

    def default(obj: Any) -> Any:
        if isinstance(obj, BaseModel):
            return obj.model_dump(mode="json")
        if isinstance(obj, datetime):
            return obj.isoformat()
        return str(obj)

    json.dump(value, sys.stdout, default=default, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
