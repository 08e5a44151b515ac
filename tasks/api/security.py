"""Request guards of the HTTP app: body size, rate limit per key, the page's sessions and CSRF tokens.

The page logs in with an API key once and then holds an opaque session id in an HttpOnly,
SameSite=Strict cookie; the key itself never reaches the browser again. Every state-changing request
made with that cookie must also carry the session's CSRF token (a header from the page's script, or a
form field), so another site cannot make the browser act for the user.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from fastapi import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tasks.api.keys import Principal

SESSION_COOKIE = "mp_session"
CSRF_HEADER = "x-csrf-token"
CSRF_FIELD = "csrf_token"


class BodyLimit:
    """Refuses (413) a request whose body is larger than ``max_bytes``, by its Content-Length or as it
    streams in, so an oversize body is never read whole into memory."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await _too_large(send, self.max_bytes)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:  # answered by the app's handler, wherever the body is read
                    raise HTTPException(413, f"request body larger than {self.max_bytes} bytes")
            return message

        await self.app(scope, limited, send)


async def _too_large(send: Send, limit: int) -> None:
    body = f'{{"detail": "request body larger than {limit} bytes"}}'.encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class RateLimiter:
    """A token bucket per key: ``per_minute`` requests a minute, bursts up to that many; 0 is no limit."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute, self.clock = per_minute, clock
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def retry_after(self, who: str) -> float:
        """0 when ``who`` may go ahead (a token is taken), else the seconds until the next token."""
        if self.per_minute <= 0:
            return 0.0
        rate = self.per_minute / 60.0
        with self._lock:
            stamp = self.clock()
            tokens, last = self._buckets.get(who, (float(self.per_minute), stamp))
            tokens = min(float(self.per_minute), tokens + (stamp - last) * rate)
            if tokens < 1.0:
                self._buckets[who] = (tokens, stamp)
                return (1.0 - tokens) / rate
            self._buckets[who] = (tokens - 1.0, stamp)
            return 0.0


@dataclass(frozen=True)
class PageSession:
    principal: Principal
    csrf: str
    expires: float


class PageSessions:
    """Logged-in page sessions, in memory (a restart logs everyone out, which is the safe failure)."""

    def __init__(self, minutes: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds, self.clock = minutes * 60.0, clock
        self._by_id: dict[str, PageSession] = {}
        self._lock = threading.Lock()

    def open(self, principal: Principal) -> tuple[str, PageSession]:
        sid = secrets.token_urlsafe(32)
        session = PageSession(principal, secrets.token_urlsafe(32), self.clock() + self.seconds)
        with self._lock:
            self._by_id = {k: v for k, v in self._by_id.items() if v.expires > self.clock()}
            self._by_id[sid] = session
        return sid, session

    def get(self, sid: str | None) -> PageSession | None:
        if not sid:
            return None
        with self._lock:
            session = self._by_id.get(sid)
            if session is not None and session.expires <= self.clock():
                del self._by_id[sid]
                return None
            return session

    def close(self, sid: str | None) -> None:
        with self._lock:
            self._by_id.pop(sid or "", None)


def same_token(given: str | None, expected: str) -> bool:
    return bool(given) and secrets.compare_digest(str(given), expected)
