"""``memory-pipeline api``: serve the HTTP API and the memory page (uvicorn) over a store."""

from __future__ import annotations

import argparse

from flows.cli_common import add_store_arg, settings_from_args
from tasks.api.keys import load_keys


def cmd_api(args: argparse.Namespace) -> int:
    import uvicorn

    from tasks.api.app import create_app

    settings = settings_from_args(args, api_host=args.host, api_port=args.port, api_keys_file=args.keys)
    keys = load_keys(settings)
    print(f"serving {settings.store_uri} on http://{settings.api_host}:{settings.api_port} "
          f"({len(keys)} key(s); page at /ui, OpenAPI at /docs)")  # fmt: skip
    uvicorn.run(create_app(settings, keys, warm=True), host=settings.api_host, port=settings.api_port, log_level="info")
    return 0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the api subcommand."""
    p = subparsers.add_parser("api", help="serve the HTTP API, JSON-RPC and the memory web page")
    p.add_argument("--host", default=None, help="address to bind (default: settings.api_host, 127.0.0.1)")
    p.add_argument("--port", type=int, default=None, help="port (default: settings.api_port)")
    p.add_argument("--keys", default=None, metavar="FILE", help='JSON {"keys": [{"key": "...", "app": "acme"}, ...]}')
    add_store_arg(p)
    p.set_defaults(handler=cmd_api)
