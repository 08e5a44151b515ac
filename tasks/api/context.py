"""What every route of the app shares: settings, keys, guards, the clock, one Recaller; and who is asking.

A request authenticates with ``Authorization: Bearer <key>`` or with the page's session cookie (then
a state-changing request also needs the session's CSRF token). Tenant path parameters pass the
project's one id rule before anything reads the store, and a key sees only its own app.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime

from fastapi import HTTPException, Request

from tasks.api.keys import KeyRing, Principal
from tasks.api.security import CSRF_HEADER, SESSION_COOKIE, PageSessions, RateLimiter, same_token
from tasks.clock import now as wall_now
from tasks.ids import id_problem
from tasks.recall.recaller import Recaller
from tasks.settings import Settings
from tasks.store.tables import Store, open_existing_store

log = logging.getLogger(__name__)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@dataclass
class ApiContext:
    """The app's state; ``clock`` is injectable so relative dates and times in tests are fixed."""

    settings: Settings
    keys: KeyRing
    clock: Callable[[], datetime] = wall_now
    limiter: RateLimiter = field(init=False)
    sessions: PageSessions = field(init=False)
    _store: Store | None = field(default=None, init=False)
    _recaller: Recaller | None = field(default=None, init=False)
    _recall_lock: threading.Lock = field(default_factory=threading.Lock, init=False)
    _store_lock: threading.Lock = field(default_factory=threading.Lock, init=False)

    def __post_init__(self) -> None:
        self.limiter = RateLimiter(self.settings.api_rate_limit_per_minute)
        self.sessions = PageSessions(self.settings.api_session_minutes)

    def store(self) -> Store:
        """The app's one read handle (opened once the store exists); its connection is read-consistent,
        so every request sees the latest commit, a running ingest's or a rollback's included."""
        with self._store_lock:
            if self._store is None:
                self._store = open_existing_store(self.settings)
            return self._store

    @contextmanager
    def recaller(self) -> Iterator[Recaller]:
        """The one long-lived Recaller (model loaded once), one recall at a time, as the ADK service does."""
        store = self.store()
        with self._recall_lock:
            if self._recaller is None:
                self._recaller = Recaller(self.settings, store=store)
            yield self._recaller

    def warm(self) -> None:
        """Load what a first recall would (the model, WordNet's lexicons: ~20 s on 2 busy cores) before
        any request needs it; a missing store is left for the requests to report."""
        try:
            with self.recaller() as recaller:
                recaller.recall("Which cities have I visited?", "\u2060warm-up", "\u2060warm-up", k=1)
        except Exception as exc:  # a warm-up never stops the server
            log.info("recall warm-up skipped: %s", exc)

    def close(self) -> None:
        with self._recall_lock:
            if self._recaller is not None:
                self._recaller.__exit__(None, None, None)
                self._recaller = None


def api_context(request: Request) -> ApiContext:
    ctx: ApiContext = request.app.state.ctx
    return ctx


def bearer(request: Request) -> str | None:
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise HTTPException(401, "Authorization must be 'Bearer <key>'", headers={"WWW-Authenticate": "Bearer"})
    return token.strip()


def authenticate(request: Request, ctx: ApiContext, *, csrf_form: str | None = None) -> Principal:
    """The principal of a key or a page session, rate-limited per principal; 401/403/429 otherwise."""
    token = bearer(request)
    if token is not None:
        principal = ctx.keys.principal(token)
        if principal is None:
            raise HTTPException(401, "unknown API key", headers={"WWW-Authenticate": "Bearer"})
    else:
        session = ctx.sessions.get(request.cookies.get(SESSION_COOKIE))
        if session is None:
            raise HTTPException(401, "no API key (send Authorization: Bearer <key>)",
                                headers={"WWW-Authenticate": "Bearer"})  # fmt: skip
        if request.method not in SAFE_METHODS:
            given = request.headers.get(CSRF_HEADER) or csrf_form
            if not same_token(given, session.csrf):
                raise HTTPException(403, "missing or wrong CSRF token")
        principal = session.principal
    wait = ctx.limiter.retry_after(principal.name)
    if wait > 0:
        raise HTTPException(429, "rate limit exceeded", headers={"Retry-After": str(max(1, round(wait)))})
    return principal


def principal_of(request: Request) -> Principal:
    """FastAPI dependency: any authenticated caller."""
    return authenticate(request, api_context(request))


def admin_of(request: Request) -> Principal:
    """FastAPI dependency: an admin key (runs, rollback and quarantine span every app)."""
    principal = principal_of(request)
    if not principal.admin:
        raise HTTPException(403, "this needs an admin key")
    return principal


def check_tenant(principal: Principal, app: str, user: str | None = None) -> None:
    """Ids by the project's one rule (422), and the key's app (403)."""
    for name, value in (("app", app), ("user", user)):
        if value is None:
            continue
        problem = id_problem(value)
        if problem:
            raise HTTPException(422, f"{name} id {problem}")
    if not principal.may_see(app):
        raise HTTPException(403, f"this key is not for app {app!r}")
