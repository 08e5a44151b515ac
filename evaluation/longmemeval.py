"""Loader for LongMemEval in its per-question layout (a folder of ``<question_id>.json``).

Each question brings its own haystack, so each is its own user: its sessions are ingested into that
user's scope only and the question is asked at its ``question_date`` (recall's ``now``). Gold evidence
is the turns marked ``has_answer``; a question with none falls back to every turn of its answer sessions.
Questions whose id ends in ``_abs`` were never answered in the haystack: they are unanswerable and
scored apart, like LoCoMo's adversarial category.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from evaluation.dataset import EvalDataset, EvalQuestion
from tasks.models import Event, Role, Session

APP_NAME = "longmemeval"
#: The category of every ``_abs`` question, whatever type it was drawn from.
ABSTENTION = "abstention"
TURN_SPACING = timedelta(minutes=1)
_ROLES: dict[str, Role] = {"user": "user", "assistant": "agent"}


def parse_longmemeval_datetime(value: str) -> datetime:
    """Parse LongMemEval's "2023/05/30 (Tue) 21:39" as UTC (no zone is given); the weekday is redundant."""
    parts = value.split()
    if len(parts) != 3 or not (parts[1].startswith("(") and parts[1].endswith(")")):
        raise ValueError(f"unrecognised LongMemEval date: {value!r}")
    return datetime.strptime(f"{parts[0]} {parts[2]}", "%Y/%m/%d %H:%M").replace(tzinfo=UTC)


def _unique_ids(ids: list[str]) -> list[str]:
    """Session ids made unique within one haystack: a repeated id gets ``#2``, ``#3``… (the sessions are kept)."""
    seen: dict[str, int] = {}
    out: list[str] = []
    for sid in ids:
        seen[sid] = seen.get(sid, 0) + 1
        out.append(sid if seen[sid] == 1 else f"{sid}#{seen[sid]}")
    return out


def question_item(data: dict[str, Any], *, source: str = "") -> tuple[list[Session], EvalQuestion]:
    """One question file as its user's sessions (turns one minute apart) and the question itself."""
    qid = str(data["question_id"])
    raw_ids = [str(s) for s in data["haystack_session_ids"]]
    dates, haystack = list(data["haystack_dates"]), list(data["haystack_sessions"])
    if not (len(raw_ids) == len(dates) == len(haystack)):
        raise ValueError(f"{qid}: haystack ids, dates and sessions differ in length")
    answer_sessions = {str(s) for s in data.get("answer_session_ids") or []}
    sessions: list[Session] = []
    marked: list[str] = []
    fallback: list[str] = []
    for raw_id, sid, date, turns in zip(raw_ids, _unique_ids(raw_ids), dates, haystack, strict=True):
        start = parse_longmemeval_datetime(str(date))
        events: list[Event] = []
        for i, turn in enumerate(turns):
            text = str(turn.get("content", "")).strip()
            if not text:  # a few turns are empty: nothing was said, nothing to retrieve
                continue
            role = _ROLES.get(str(turn.get("role", "")), "other")
            event = Event(id=f"{sid}:{i}", author=str(turn.get("role", "other")), role=role, text=text,
                          timestamp=start + i * TURN_SPACING)  # fmt: skip
            events.append(event)
            if turn.get("has_answer"):
                marked.append(event.id)
            if raw_id in answer_sessions:
                fallback.append(event.id)
        if events:
            sessions.append(
                Session(
                    app_name=APP_NAME,
                    user_id=qid,
                    session_id=sid,
                    started_at=start,
                    ended_at=events[-1].timestamp,
                    events=tuple(events),
                    source=source,
                )
            )
    abstention = qid.endswith("_abs")
    question = EvalQuestion(
        id=qid,
        app_name=APP_NAME,
        user_id=qid,
        question=str(data["question"]),
        answer=str(data.get("answer", "")),
        category=ABSTENTION if abstention else str(data["question_type"]),
        gold_event_ids=tuple(marked or fallback),
        answerable=not abstention,
        asked_at=parse_longmemeval_datetime(str(data["question_date"])),
    )
    return sessions, question


def load_longmemeval(path: Path, *, limit: int | None = None) -> EvalDataset:
    """Every ``*.json`` question under ``path`` (sorted by file name), one user per question."""
    files = sorted(path.glob("*.json"))
    if not files:
        raise FileNotFoundError(f"no LongMemEval question files (*.json) under {path}")
    sessions: list[Session] = []
    questions: list[EvalQuestion] = []
    for file in files[:limit]:
        item_sessions, question = question_item(json.loads(file.read_text(encoding="utf-8")), source=str(file))
        sessions.extend(item_sessions)
        questions.append(question)
    empty = sum(1 for q in questions if q.answerable and not q.gold_event_ids)
    notes = (
        "longmemeval: each question is its own user and is asked at its question_date; evidence = the "
        "has_answer turns, else the answer sessions' turns; _abs questions are unanswerable (category abstention)",
        f"{empty} answerable question(s) have no evidence and are left out of retrieval scores",
    )
    return EvalDataset(name="longmemeval", sessions=tuple(sessions), questions=tuple(questions), notes=notes)
