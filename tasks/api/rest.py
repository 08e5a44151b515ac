"""The REST routes under ``/v1``: a user's memories, recall, sessions in, erasure; runs and quarantine.

Routes are plain ``def`` functions (FastAPI runs them on its thread pool): Lance and ONNX calls are
synchronous, and a slow recall must not block other requests.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse
from pydantic import AliasChoices, BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from tasks.api import service
from tasks.api.context import admin_of, api_context, check_tenant, principal_of
from tasks.api.keys import Principal
from tasks.clock import utc
from tasks.consolidate.history import UnknownRunError
from tasks.control.browse import MAX_LIMIT, MemoryQuery
from tasks.control.ops import list_quarantine, list_runs
from tasks.errors import InvalidFilterError
from tasks.ids import MAX_ID_CHARS

router = APIRouter(prefix="/v1")
Caller = Annotated[Principal, Depends(principal_of)]
Admin = Annotated[Principal, Depends(admin_of)]
USER = "/apps/{app}/users/{user}"


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class EditBody(Strict):
    #: seed 002 calls the text ``keyPoint``.
    content: StrictStr = Field(min_length=1, max_length=10_000, validation_alias=AliasChoices("content", "keyPoint"))


class BulkDeleteBody(Strict):
    ids: list[Annotated[StrictStr, Field(min_length=1, max_length=MAX_ID_CHARS)]] = Field(min_length=1, max_length=1000)


class RecallBody(Strict):
    query: StrictStr = Field(min_length=1, max_length=4000)
    k: StrictInt | None = Field(default=None, ge=1, le=100)
    budget: StrictInt | None = Field(default=None, ge=1, le=32_000)
    now: datetime | None = None


class RollbackBody(Strict):
    force: StrictBool = False


def _json(value: Any) -> Any:
    if isinstance(value, datetime):
        return utc(value).isoformat()
    if isinstance(value, dict):
        return {k: _json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json(v) for v in value]
    return value


@router.get(USER + "/memories")
def list_memories(request: Request, app: str, user: str, caller: Caller,
                  topic: str | None = None, q: Annotated[str | None, Query(max_length=500)] = None,
                  since: datetime | None = None, until: datetime | None = None, as_of: datetime | None = None,
                  status: str = "active", limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = 50,
                  offset: Annotated[int, Query(ge=0)] = 0, cursor: str | None = None) -> dict[str, Any]:  # fmt: skip
    """A user's memories, newest first: ``{"items": [...], "next_cursor": ...}`` (pass it back as ``cursor``)."""
    check_tenant(caller, app, user)
    query = MemoryQuery(topic=topic, text=q, since=since, until=until, as_of=as_of, status=status, limit=limit,
                        offset=offset, cursor=cursor)  # fmt: skip
    page = service.list_page(api_context(request), app, user, query)
    return {"items": [service.public(r) for r in page.items], "next_cursor": page.next_cursor, "total": page.total}


@router.get(USER + "/memories/{memory_id}")
def get_memory(request: Request, app: str, user: str, memory_id: str, caller: Caller) -> dict[str, Any]:
    check_tenant(caller, app, user)
    return service.get_memory(api_context(request), app, user, memory_id)


@router.put(USER + "/memories/{memory_id}")
def edit_memory(request: Request, app: str, user: str, memory_id: str, body: EditBody,
                caller: Caller) -> dict[str, Any]:  # fmt: skip
    """A new audited version with the corrected text; answers that version (its ``row_id`` and ``version``)."""
    check_tenant(caller, app, user)
    return service.edit(api_context(request), app, user, memory_id, body.content)


@router.delete(USER + "/memories/{memory_id}")
def delete_memory(request: Request, app: str, user: str, memory_id: str, caller: Caller) -> dict[str, Any]:
    check_tenant(caller, app, user)
    return service.delete(api_context(request), app, user, memory_id)


@router.post(USER + "/memories:bulk-delete")
def bulk_delete(request: Request, app: str, user: str, body: BulkDeleteBody, caller: Caller) -> dict[str, Any]:
    check_tenant(caller, app, user)
    return {"deleted": service.bulk_delete(api_context(request), app, user, body.ids)}


@router.get(USER + "/memories/{memory_id}/history")
def memory_history(request: Request, app: str, user: str, memory_id: str, caller: Caller) -> dict[str, Any]:
    check_tenant(caller, app, user)
    return _json(service.history_of(api_context(request), app, user, memory_id))  # type: ignore[no-any-return]


@router.post(USER + "/recall")
def recall(request: Request, app: str, user: str, body: RecallBody, caller: Caller) -> dict[str, Any]:
    check_tenant(caller, app, user)
    return service.recall(api_context(request), app, user, body.query, body.k, body.budget, body.now)


@router.post(USER + "/sessions", status_code=202)
def post_session(request: Request, app: str, user: str, body: dict[str, Any], caller: Caller) -> JSONResponse:
    """Queue an ended session (our JSONL shape) for the next ingest run, validated as a run would."""
    check_tenant(caller, app, user)
    accepted = service.queue_session(api_context(request), app, user, body)
    return JSONResponse({"stored_id": accepted.stored_id, "session_id": accepted.session_id,
                         "duplicate": accepted.duplicate}, status_code=202)  # fmt: skip


@router.delete(USER)
def erase_user(request: Request, app: str, user: str, caller: Caller) -> dict[str, Any]:
    """Physical erasure of everything kept about the user; answers the erasure report."""
    check_tenant(caller, app, user)
    return service.erase(api_context(request), app, user)


@router.get("/runs")
def runs(request: Request, caller: Admin, limit: Annotated[int, Query(ge=1, le=1000)] = 100) -> dict[str, Any]:
    """Runs newest first."""
    rows = list(reversed(list_runs(api_context(request).store())))[:limit]
    return {"items": _json(rows), "next_cursor": None}


@router.get("/runs/{run_id}")
def run(request: Request, run_id: str, caller: Admin) -> dict[str, Any]:
    found = [r for r in list_runs(api_context(request).store()) if r["run_id"] == run_id]
    if not found:
        raise UnknownRunError(f"no run {run_id!r}")
    return _json(found[0])  # type: ignore[no-any-return]


@router.post("/runs/{run_id}:rollback")
def rollback_run(request: Request, run_id: str, caller: Admin, body: RollbackBody | None = None) -> dict[str, Any]:
    if not run_id.strip():
        raise InvalidFilterError("run id is empty")
    return {"run_id": run_id, "restored": service.rollback_run(api_context(request), run_id, bool(body and body.force))}


@router.get("/quarantine")
def quarantine(request: Request, caller: Admin,
               limit: Annotated[int, Query(ge=1, le=1000)] = 100) -> dict[str, Any]:  # fmt: skip
    rows = list_quarantine(api_context(request).store())[:limit]
    return {"items": _json(rows), "next_cursor": None}
