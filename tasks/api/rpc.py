"""JSON-RPC 2.0 at ``POST /rpc`` with seed 003's methods, over the same functions as the REST routes.

``memory.store`` (an interaction, queued like a session), ``memory.retrieve`` (query, k → memory_id,
summary, timestamp, relevance_score) and ``memory.get_context`` (query, task_id, max_tokens → context).
``params`` carry ``app`` and ``user_id``, checked against the key. Errors use the standard codes:
-32700 parse error, -32600 invalid request, -32601 unknown method, -32602 invalid params, -32603
internal; -32001 unauthorised for this app, -32004 not found. Batches are answered element-wise.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from tasks.api import service
from tasks.api.context import ApiContext, api_context, authenticate, check_tenant
from tasks.api.keys import Principal
from tasks.errors import PipelineError
from tasks.sources.inbox import SessionRejected

router = APIRouter()
log = logging.getLogger(__name__)
PARSE, INVALID, NO_METHOD, BAD_PARAMS, INTERNAL, FORBIDDEN = -32700, -32600, -32601, -32602, -32603, -32001
MAX_BATCH = 50


class RpcError(Exception):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def _text(params: dict[str, Any], name: str, *, required: bool = True, limit: int = 4000) -> str | None:
    value = params.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise RpcError(BAD_PARAMS, f"params.{name} must be a non-empty string of at most {limit} characters")
    return value


def _int(params: dict[str, Any], name: str, low: int, high: int) -> int | None:
    value = params.get(name)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise RpcError(BAD_PARAMS, f"params.{name} must be an integer in {low}..{high}")
    return value


def _store(ctx: ApiContext, app: str, user: str, params: dict[str, Any]) -> Any:
    interaction = params.get("interaction")
    if not isinstance(interaction, dict):
        raise RpcError(BAD_PARAMS, "params.interaction must be an object with messages (role, content)")
    accepted = service.queue_session(ctx, app, user, service.interaction_session(ctx, interaction))
    return {"stored_id": accepted.stored_id, "session_id": accepted.session_id, "queued": True}


def _retrieve(ctx: ApiContext, app: str, user: str, params: dict[str, Any]) -> Any:
    query = _text(params, "query")
    assert query is not None
    return {"memories": service.retrieve(ctx, app, user, query, _int(params, "k", 1, 100))}


def _context(ctx: ApiContext, app: str, user: str, params: dict[str, Any]) -> Any:
    query = _text(params, "query")
    assert query is not None
    task_id = _text(params, "task_id", required=False, limit=512)
    context = service.get_context(ctx, app, user, query, _int(params, "max_tokens", 1, 32_000))
    return {"context": context, "task_id": task_id}


METHODS: dict[str, Callable[[ApiContext, str, str, dict[str, Any]], Any]] = {
    "memory.store": _store,
    "memory.retrieve": _retrieve,
    "memory.get_context": _context,
}


def _error(code: int, message: str, rid: Any = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "error": {"code": code, "message": message}, "id": rid}


def _call(ctx: ApiContext, principal: Principal, req: Any) -> dict[str, Any] | None:
    """One request's answer (None for a notification, which has no ``id``)."""
    if not isinstance(req, dict) or req.get("jsonrpc") != "2.0" or not isinstance(req.get("method"), str):
        return _error(INVALID, "not a JSON-RPC 2.0 request", req.get("id") if isinstance(req, dict) else None)
    rid = req.get("id")
    if rid is not None and (isinstance(rid, bool) or not isinstance(rid, str | int)):
        return _error(INVALID, "id must be a string, an integer or null")
    notify = "id" not in req
    try:
        method = METHODS.get(req["method"])
        if method is None:
            raise RpcError(NO_METHOD, f"method not found: {req['method'][:100]!r}")
        params = req.get("params", {})
        if not isinstance(params, dict):
            raise RpcError(BAD_PARAMS, "params must be an object")
        app, user = _text(params, "app", limit=512), _text(params, "user_id", limit=512)
        assert app is not None and user is not None
        try:
            check_tenant(principal, app, user)
        except HTTPException as exc:
            raise RpcError(FORBIDDEN if exc.status_code == 403 else BAD_PARAMS, str(exc.detail)) from exc
        result = method(ctx, app, user, params)
    except RpcError as exc:
        return None if notify else _error(exc.code, exc.message, rid)
    except (SessionRejected, ValueError) as exc:
        return None if notify else _error(BAD_PARAMS, str(exc), rid)
    except PipelineError as exc:
        return None if notify else _error(INTERNAL, str(exc), rid)
    except Exception:
        log.exception("JSON-RPC method %s failed", req.get("method"))
        return None if notify else _error(INTERNAL, "internal error", rid)
    return None if notify else {"jsonrpc": "2.0", "result": result, "id": rid}


@router.post("/rpc")
async def rpc(request: Request) -> Response:
    """JSON-RPC 2.0 endpoint (HTTP 200 with the JSON-RPC error for method-level failures)."""
    ctx = api_context(request)
    principal = authenticate(request, ctx)
    body = await request.body()
    return await run_in_threadpool(_answer, ctx, principal, body)


def _answer(ctx: ApiContext, principal: Principal, body: bytes) -> Response:
    try:
        payload = json.loads(body)
    except (ValueError, RecursionError):
        return JSONResponse(_error(PARSE, "parse error: the body is not JSON"))
    if isinstance(payload, list):
        if not payload or len(payload) > MAX_BATCH:
            return JSONResponse(_error(INVALID, f"a batch holds 1..{MAX_BATCH} requests"))
        answers = [a for a in (_call(ctx, principal, r) for r in payload) if a is not None]
        return JSONResponse(answers) if answers else Response(status_code=204)
    answer = _call(ctx, principal, payload)
    return JSONResponse(answer) if answer is not None else Response(status_code=204)
