"""The one FastAPI app: REST under ``/v1``, JSON-RPC at ``/rpc``, the page at ``/ui``, ``/healthz``, ``/docs``.

``create_app(settings, keys)`` builds it; ``memory-pipeline api`` serves it with uvicorn. Errors of the
pipeline map to HTTP statuses in one place, with the pipeline's own one-line message.
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime

from fastapi import FastAPI, Request
from fastapi.exceptions import HTTPException
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from tasks.api.context import ApiContext
from tasks.api.keys import KeyRing
from tasks.api.rest import router as rest_router
from tasks.api.rpc import router as rpc_router
from tasks.api.security import BodyLimit
from tasks.api.ui import PAGE_HEADERS, STATIC, _env, _Redirect
from tasks.api.ui import router as ui_router
from tasks.clock import now as wall_now
from tasks.consolidate.history import RollbackError, UnknownMemoryError, UnknownRunError
from tasks.control.edit import NotActiveError
from tasks.errors import InvalidFilterError, PipelineError, StoreBusyError, StoreNotFoundError
from tasks.settings import Settings
from tasks.sources.inbox import SessionRejected

#: Pipeline errors by the HTTP status they answer with (first match wins; anything else is 400).
STATUSES: tuple[tuple[type[PipelineError], int], ...] = (
    (UnknownMemoryError, 404), (UnknownRunError, 404), (StoreNotFoundError, 404),
    (NotActiveError, 409), (RollbackError, 409), (StoreBusyError, 503),
    (InvalidFilterError, 422), (SessionRejected, 422),
)  # fmt: skip


def status_of(exc: PipelineError) -> int:
    return next((status for kind, status in STATUSES if isinstance(exc, kind)), 400)


def create_app(
    settings: Settings, keys: KeyRing, *, clock: Callable[[], datetime] = wall_now, warm: bool = False
) -> FastAPI:
    """The app over ``settings.store_uri``; ``clock`` is the time relative dates are read against;
    ``warm`` loads recall's models in the background at start-up, so the first recall is not slow."""
    ctx = ApiContext(settings=settings, keys=keys, clock=clock)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if warm:
            threading.Thread(target=ctx.warm, name="recall-warm-up", daemon=True).start()
        yield
        ctx.close()  # writes the recalls' access counts

    app = FastAPI(title="agent-memory-pipeline", version="1", lifespan=lifespan,
                  description="Memories per app and user: list, edit, delete, history, recall, sessions in, "
                              "erasure; runs and quarantine for operators. Authorization: Bearer <key>.")  # fmt: skip
    app.state.ctx = ctx
    app.include_router(rest_router)
    app.include_router(rpc_router)
    app.include_router(ui_router)
    app.mount("/ui/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(BodyLimit, max_bytes=settings.api_max_body_bytes)

    @app.get("/healthz", include_in_schema=False)
    def healthz() -> dict[str, object]:
        try:
            tables = sorted(ctx.store().existing())
        except StoreNotFoundError as exc:
            return {"status": "no store", "detail": str(exc)}
        return {"status": "ok", "tables": tables}

    @app.exception_handler(PipelineError)
    def pipeline_error(request: Request, exc: PipelineError) -> Response:
        return _answer(request, status_of(exc), " ".join(str(exc).split()))

    @app.exception_handler(HTTPException)
    def http_error(request: Request, exc: HTTPException) -> Response:
        return _answer(request, exc.status_code, str(exc.detail), dict(exc.headers or {}))

    @app.exception_handler(_Redirect)
    def redirect(_: Request, exc: _Redirect) -> Response:
        return RedirectResponse(exc.url, status_code=303)

    return app


def _answer(request: Request, status: int, detail: str, headers: dict[str, str] | None = None) -> Response:
    """JSON for the API, a page for the page's own routes."""
    if request.url.path.startswith("/ui") and request.method == "GET":
        html = _env.get_template("error.html").render(title=f"Error {status}", detail=detail)
        return HTMLResponse(html, status_code=status, headers={**PAGE_HEADERS, **(headers or {})})
    return JSONResponse({"detail": detail}, status_code=status, headers=headers)
