"""Loader for LoCoMo in its upstream per-conversation format (a folder of ``conv-*.json``).

Only the turns are turned into sessions: the dataset's own annotations (``events_session_*``,
``session_*_observation``, ``session_*_summary``) are gold-like summaries and would let the pipeline
cheat, so they are never read.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from evaluation.dataset import EvalDataset, EvalQuestion
from tasks.models import Event, Session

APP_NAME = "locomo"
#: LoCoMo's question categories; 5 (adversarial) has no answer in the conversation.
CATEGORIES = {1: "multi_hop", 2: "temporal", 3: "open_domain", 4: "single_hop", 5: "adversarial"}
SCORED_CATEGORIES = (1, 2, 3, 4)
TURN_SPACING = timedelta(minutes=1)

_SESSION_KEY = re.compile(r"session_(\d+)")
_DATE_FORMATS = ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y", "%I:%M %p on %d %B %Y")
_EVIDENCE_ID = re.compile(r"D\d+:\d+")


def parse_locomo_datetime(value: str) -> datetime:
    """Parse LoCoMo's session time, e.g. "1:56 pm on 8 May, 2023", as UTC (no zone is given)."""
    text = " ".join(value.strip().split())
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(text, fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
    raise ValueError(f"unrecognised LoCoMo date: {value!r}")


def split_evidence(entries: list[Any]) -> tuple[str, ...]:
    """Evidence dia_ids, with malformed entries such as "D8:6; D9:17" split into their ids."""
    out: dict[str, None] = {}
    for entry in entries:
        for dia_id in _EVIDENCE_ID.findall(str(entry)):
            out.setdefault(dia_id, None)
    return tuple(out)


def turn_text(turn: dict[str, Any]) -> str:
    """A turn's text with the caption of a shared image appended: the photo is part of what was said."""
    text = str(turn.get("text", "")).strip()
    caption = turn.get("blip_caption")
    return f"{text} [shares a photo: {caption}]" if caption else text


def conversation_sessions(conv_id: str, data: dict[str, Any], *, source: str = "") -> list[Session]:
    """Each ``session_N`` as an ended session at ``session_N_date_time``, turns one minute apart."""
    sessions: list[Session] = []
    numbers = sorted(int(m.group(1)) for key in data if (m := _SESSION_KEY.fullmatch(key)))
    for n in numbers:
        turns = data[f"session_{n}"]
        date_key = f"session_{n}_date_time"
        if not turns or date_key not in data:
            continue
        start = parse_locomo_datetime(str(data[date_key]))
        events = tuple(
            Event(
                id=str(turn["dia_id"]),
                author=str(turn["speaker"]),
                role="other",
                text=turn_text(turn),
                timestamp=start + i * TURN_SPACING,
            )
            for i, turn in enumerate(turns)
        )
        sessions.append(
            Session(
                app_name=APP_NAME,
                user_id=conv_id,
                session_id=f"{conv_id}-session_{n}",
                started_at=start,
                ended_at=events[-1].timestamp,
                events=events,
                source=source,
            )
        )
    return sessions


def conversation_questions(conv_id: str, data: dict[str, Any]) -> list[EvalQuestion]:
    """All QA items; category 5 is kept as unanswerable so that it can be reported apart."""
    questions: list[EvalQuestion] = []
    for i, item in enumerate(data.get("qa", [])):
        category = int(item.get("category", 0))
        answerable = category in SCORED_CATEGORIES
        answer = item.get("answer", item.get("adversarial_answer", "")) if answerable else ""
        questions.append(
            EvalQuestion(
                id=f"{conv_id}-q{i}",
                app_name=APP_NAME,
                user_id=conv_id,
                question=str(item["question"]),
                answer=str(answer),
                category=CATEGORIES.get(category, f"category_{category}"),
                gold_event_ids=split_evidence(list(item.get("evidence") or [])),
                answerable=answerable,
            )
        )
    return questions


def load_locomo(path: Path, *, limit: int | None = None) -> EvalDataset:
    """Every ``conv-*.json`` under ``path`` (sorted), one scope per conversation."""
    files = sorted(path.glob("conv-*.json"))
    if not files:
        raise FileNotFoundError(f"no conv-*.json files under {path}")
    sessions: list[Session] = []
    questions: list[EvalQuestion] = []
    for file in files[:limit]:
        data = json.loads(file.read_text(encoding="utf-8"))
        conv_id = file.stem
        sessions.extend(conversation_sessions(conv_id, data, source=str(file)))
        questions.extend(conversation_questions(conv_id, data))
    empty = sum(1 for q in questions if q.answerable and not q.gold_event_ids)
    notes = (f"{empty} answerable question(s) have no evidence and are left out of retrieval scores",)
    return EvalDataset(name="locomo", sessions=tuple(sessions), questions=tuple(questions), notes=notes)
