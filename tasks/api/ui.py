"""The web page at ``/ui``: a user's memories (seed 002's list), a memory's history, erasure, runs.

Server-rendered with Jinja2 (autoescaping on: memory text is always text); a small script
(``static/ui.js``) calls the same ``/v1`` routes for edit and delete with the session's CSRF token.
Relative dates ("Today", "3 days ago") are read against the app's clock, or ``?now=`` for tests and demos.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime
from itertools import groupby
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape

from tasks.api import service
from tasks.api.context import ApiContext, api_context, authenticate, check_tenant
from tasks.api.keys import Principal
from tasks.api.security import SESSION_COOKIE, PageSession, same_token
from tasks.clock import utc
from tasks.consolidate.history import memory_history
from tasks.control.browse import MemoryQuery, topics_of
from tasks.control.ops import list_quarantine, list_runs
from tasks.relative_dates import fmt_date
from tasks.sources.raw import AGENT_AUTHORS

HERE = Path(__file__).parent
STATIC = HERE / "static"
LOGIN_COOKIE = "mp_login"
router = APIRouter(prefix="/ui", include_in_schema=False)
_env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(default=True))
PAGE_SIZE = 50
#: A page may be framed or scripted by nothing but itself.
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; object-src 'none'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}


def relative_day(when: datetime, now: datetime) -> str:
    """ "Today", "Yesterday", "N days ago" within a week of ``now``; the date itself after that (or ahead)."""
    days = (utc(now).date() - utc(when).date()).days
    if days == 0:
        return "Today"
    if days == 1:
        return "Yesterday"
    if 1 < days < 7:
        return f"{days} days ago"
    return fmt_date(utc(when))


def speaker_label(speaker: str) -> str:
    """Seed 002's speaker: "user" for what the user said of themself, "agent said" for the agent."""
    who = speaker.strip().lower()
    if who == "user":
        return "user"
    return "agent said" if who in AGENT_AUTHORS else f"{speaker} said"


def user_path(app: str, user: str) -> str:
    return f"/apps/{quote(app, safe='')}/users/{quote(user, safe='')}"


def _render(name: str, status: int = 200, **values: Any) -> HTMLResponse:
    return HTMLResponse(_env.get_template(name).render(**values), status_code=status, headers=PAGE_HEADERS)


def _page_session(request: Request, ctx: ApiContext) -> PageSession | None:
    return ctx.sessions.get(request.cookies.get(SESSION_COOKIE))


def _require(request: Request, ctx: ApiContext) -> PageSession:
    session = _page_session(request, ctx)
    if session is None:
        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        raise _Redirect("/ui?" + urlencode({"next": target}))
    return session


class _Redirect(Exception):
    def __init__(self, url: str) -> None:
        self.url = url


def _now(ctx: ApiContext, given: str | None) -> datetime:
    if given:
        try:
            return utc(datetime.fromisoformat(given.replace("Z", "+00:00")))
        except ValueError as exc:
            raise HTTPException(422, "now must be an ISO-8601 time") from exc
    return utc(ctx.clock())


def _guarded(request: Request, ctx: ApiContext, app: str, user: str) -> PageSession:
    session = _require(request, ctx)
    check_tenant(session.principal, app, user)
    return session


@router.get("", response_class=HTMLResponse)
def home(request: Request, next: str = "") -> Response:
    ctx = api_context(request)
    session = _page_session(request, ctx)
    if session is not None:
        return _render("home.html", principal=session.principal, csrf=session.csrf)
    token = secrets.token_urlsafe(24)
    response = _render("login.html", login_csrf=token, next_url=next if next.startswith("/ui") else "/ui")
    response.set_cookie(LOGIN_COOKIE, token, httponly=True, samesite="strict", path="/ui",
                        secure=ctx.settings.api_cookie_secure)  # fmt: skip
    return response


@router.post("/login")
def login(request: Request, key: str = Form(""), csrf_token: str = Form(""), next: str = Form("/ui")) -> Response:
    ctx = api_context(request)
    if not same_token(csrf_token, request.cookies.get(LOGIN_COOKIE) or ""):
        return _render("error.html", 403, title="Log in again", detail="The form expired; reload the page.")
    if ctx.limiter.retry_after("login:" + (request.client.host if request.client else "")) > 0:
        return _render("error.html", 429, title="Not logged in", detail="Too many attempts; wait a minute.")
    principal = ctx.keys.principal(key)
    if principal is None:
        return _render("error.html", 401, title="Not logged in", detail="That key is not accepted.")
    sid, _ = ctx.sessions.open(principal)
    target = next if next.startswith("/ui") and not next.startswith("//") else "/ui"
    response = RedirectResponse(target, status_code=303)
    lifetime = int(ctx.settings.api_session_minutes * 60)
    response.set_cookie(SESSION_COOKIE, sid, httponly=True, samesite="strict", path="/", max_age=lifetime,
                        secure=ctx.settings.api_cookie_secure)  # fmt: skip
    response.delete_cookie(LOGIN_COOKIE, path="/ui")
    return response


@router.post("/logout")
def logout(request: Request, csrf_token: str = Form("")) -> Response:
    ctx = api_context(request)
    authenticate(request, ctx, csrf_form=csrf_token)
    ctx.sessions.close(request.cookies.get(SESSION_COOKIE))
    response = RedirectResponse("/ui", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@router.get("/open")
def open_user(request: Request, app: str, user: str) -> Response:
    _guarded(request, api_context(request), app, user)
    return RedirectResponse("/ui" + user_path(app, user), status_code=303)


def _item(row: dict[str, Any], app: str, user: str, now: datetime, now_param: str | None) -> dict[str, Any]:
    stated = utc(row["stated_at"])
    suffix = f"?{urlencode({'now': now_param})}" if now_param else ""
    return {
        **row, "date_label": relative_day(stated, now), "date_iso": stated.isoformat(), "date_full": fmt_date(stated),
        "speaker_label": speaker_label(row["speaker"]), "session_id": row["source_session_id"],
        "event_ids": row["source_event_ids"] or [], "dom_id": hashlib.sha256(row["row_id"].encode()).hexdigest()[:12],
        "history_url": "/ui" + user_path(app, user) + f"/memories/{quote(row['memory_id'], safe='')}" + suffix,
        "history_api": "/v1" + user_path(app, user) + f"/memories/{quote(row['memory_id'], safe='')}/history",
    }  # fmt: skip


@router.get("/apps/{app}/users/{user}", response_class=HTMLResponse)
def memories_page(request: Request, app: str, user: str, q: str | None = None, topic: str | None = None,
                  cursor: str | None = None, now: str | None = None) -> Response:  # fmt: skip
    ctx = api_context(request)
    session = _guarded(request, ctx, app, user)
    at = _now(ctx, now)
    query = MemoryQuery(topic=topic or None, text=(q or "").strip()[:500] or None, cursor=cursor, limit=PAGE_SIZE)
    page = service.list_page(ctx, app, user, query)
    items = [_item(r, app, user, at, now) for r in page.items]
    groups = [(label, list(rows)) for label, rows in groupby(items, key=lambda m: m["date_label"])]
    base = "/ui" + user_path(app, user)
    keep = {k: v for k, v in (("q", q), ("topic", topic), ("now", now)) if v}
    return _render(
        "memories.html", principal=session.principal, csrf=session.csrf, app=app, user=user, groups=groups,
        total=page.total, q=q, topic=topic, topics=topics_of(ctx.store(), app, user), now_param=now, cursor=cursor,
        api_base="/v1" + user_path(app, user), page_url=base + (f"?{urlencode({'now': now})}" if now else ""),
        next_url=base + "?" + urlencode(keep | {"cursor": page.next_cursor}) if page.next_cursor else None,
        first_url=base + (f"?{urlencode(keep)}" if keep else ""), erase_url=base + "/erase",
    )  # fmt: skip


@router.get("/apps/{app}/users/{user}/memories/{memory_id}", response_class=HTMLResponse)
def history_page(request: Request, app: str, user: str, memory_id: str, as_of: str | None = None,
                 now: str | None = None) -> Response:  # fmt: skip
    ctx = api_context(request)
    session = _guarded(request, ctx, app, user)
    history = service.history_of(ctx, app, user, memory_id)
    held = None
    if as_of:
        when = _now(ctx, as_of)
        full = memory_history(ctx.store(), history["memory_id"])
        held = next((v for v in full.versions if utc(v.valid_from) <= when and
                     (v.valid_to is None or utc(v.valid_to) > when)), None)  # fmt: skip
    for v in history["versions"]:
        v["valid_from_label"] = fmt_date(datetime.fromisoformat(v["valid_from"]))
        v["valid_to_label"] = fmt_date(datetime.fromisoformat(v["valid_to"])) if v["valid_to"] else "now"
    back = "/ui" + user_path(app, user) + (f"?{urlencode({'now': now})}" if now else "")
    return _render("history.html", principal=session.principal, csrf=session.csrf, user=user, h=history,
                   held=held, as_of_value=as_of or "", now_param=now, back_url=back)  # fmt: skip


@router.post("/apps/{app}/users/{user}/erase", response_class=HTMLResponse)
def erase_page(request: Request, app: str, user: str, confirm: str = Form(""), csrf_token: str = Form("")) -> Response:
    ctx = api_context(request)
    session = _guarded(request, ctx, app, user)
    authenticate(request, ctx, csrf_form=csrf_token)
    if confirm != user:
        return _render("error.html", 400, principal=session.principal, csrf=session.csrf, title="Not erased",
                       detail="The typed confirmation does not match the user id; nothing was erased.")  # fmt: skip
    report = service.erase(ctx, app, user)
    return _render("error.html", principal=session.principal, csrf=session.csrf, title="User erased",
                   detail=f"Erased {len(report['memories'])} memories ({report['memory_rows']} rows) and "
                          f"{report['episodes_deleted']} episodes of {user}.")  # fmt: skip


@router.get("/runs", response_class=HTMLResponse)
def runs_page(request: Request) -> Response:
    ctx = api_context(request)
    session = _require(request, ctx)
    _admin(session.principal)
    store = ctx.store()
    runs = list(reversed(list_runs(store)))[:200]
    for run in runs:
        run["counts_shown"] = [(k, v) for k, v in run["counts"].items() if isinstance(v, int | float | str)][:6]
    return _render("runs.html", principal=session.principal, csrf=session.csrf, runs=runs,
                   quarantine=list_quarantine(store)[:200])  # fmt: skip


@router.post("/runs/{run_id}/rollback", response_class=HTMLResponse)
def rollback_page(request: Request, run_id: str, csrf_token: str = Form("")) -> Response:
    ctx = api_context(request)
    session = _require(request, ctx)
    authenticate(request, ctx, csrf_form=csrf_token)
    _admin(session.principal)
    restored = service.rollback_run(ctx, run_id, force=False)
    done = ", ".join(f"{t} to version {v}" for t, v in sorted(restored.items())) or "no table"
    return _render("error.html", principal=session.principal, csrf=session.csrf, title="Rolled back",
                   detail=f"Run {run_id} rolled back: {done}.")  # fmt: skip


def _admin(principal: Principal) -> None:
    if not principal.admin:
        raise HTTPException(403, "the runs page needs an admin key")
