"""moto's S3 server made as atomic as S3 where Lance relies on it: a conditional PUT (``If-None-Match: *``).

Lance commits a table version by writing its manifest with ``If-None-Match: *``: of two writers, S3 lets
exactly one create the object. moto checks and then stores in two steps on its request threads, so two
racing PUTs could both succeed, which S3 never does; one lock around moto's object PUT restores that.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

_LOCK = threading.Lock()
_PATCHED: list[bool] = []
_LEAN: list[bool] = []


def atomic_conditional_puts() -> None:
    """Serialise moto's object PUTs (once per process); its request log (one line a request) silenced."""
    if _PATCHED:
        return
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    from moto.s3.responses import S3Response

    original = S3Response.put_object

    def put_object(self: Any) -> Any:
        with _LOCK:
            return original(self)

    S3Response.put_object = put_object  # type: ignore[method-assign]
    _PATCHED.append(True)


def lean_request_handling() -> None:
    """Two per-request costs of moto's server cut, its answers unchanged (once per process).

    Measured on the scale tests' ~4,600 requests (a third of the module's CPU time was moto's): under the
    dispatcher's one lock, every request listed moto's package folder twice (~350 ``stat`` calls) to
    learn the service names, which do not change while it runs; and every listed object's time was
    formatted to ISO 8601, then parsed back with dateutil before being formatted again. The names are
    listed once; an ISO 8601 time is parsed by ``datetime.fromisoformat`` (the same fields), anything
    else as before.
    """
    if _LEAN:
        return
    from datetime import datetime

    from moto import backends
    from moto.core.serialize import TimestampSerializer

    names = tuple(backends.list_of_moto_modules())
    backends.list_of_moto_modules = lambda: names  # type: ignore[assignment]
    original = TimestampSerializer._convert_timestamp_to_str

    def convert(self: Any, value: Any, timestamp_format: str) -> Any:
        if isinstance(value, str):
            try:
                parsed = datetime.fromisoformat(value)
            except ValueError:
                return original(self, value, timestamp_format)
            return getattr(self, f"_timestamp_{timestamp_format.lower()}")(parsed)
        return original(self, value, timestamp_format)

    TimestampSerializer._convert_timestamp_to_str = convert  # type: ignore[method-assign]
    _LEAN.append(True)


class FlakyProxy:
    """An HTTP proxy on 127.0.0.1 in front of the S3 server that answers ``503 Slow Down`` as S3 does
    when throttling: to every ``every``-th request, or (``every`` = 1) to all of them. Counting
    requests, not time, keeps the test deterministic."""

    def __init__(self, upstream: str, every: int) -> None:
        import http.client
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        from urllib.parse import urlsplit

        target = urlsplit(upstream)
        proxy = self
        self.requests = 0
        self.refused = 0
        self._lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                return

            def _forward(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                with proxy._lock:
                    proxy.requests += 1
                    refuse = proxy.requests % every == 0
                    proxy.refused += refuse
                if refuse:
                    payload = b"<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>"
                    self.send_response(503)
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                    return
                conn = http.client.HTTPConnection(target.hostname or "127.0.0.1", target.port, timeout=60)
                headers = {k: v for k, v in self.headers.items() if k.lower() != "host"}
                headers["Host"] = target.netloc
                conn.request(self.command, self.path, body=body, headers=headers)
                reply = conn.getresponse()
                data = reply.read()
                self.send_response(reply.status)
                for key, value in reply.getheaders():
                    if key.lower() not in ("content-length", "transfer-encoding", "connection", "server", "date"):
                        self.send_header(key, value)
                # A HEAD reply has no body but the object's length (Lance reads sizes from it).
                length = reply.getheader("Content-Length") if self.command == "HEAD" else None
                self.send_header("Content-Length", length or str(len(data)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(data)
                conn.close()

            do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = _forward

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.endpoint = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
